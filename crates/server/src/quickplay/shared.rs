//! A cluster's quick-play queue, in PostgreSQL (`quickplay_queue`, see the store's
//! `postgres::quickplay`): tickets queued on any node, matched by whichever node's matcher
//! claims them, seated in a room made on that node. A ticket's watchers (on any node) read its
//! row and are told the room's node and path.

use super::matching::{self, Waiting};
use super::{Seated, TicketInfo, UNWATCHED, seat_table};
use crate::lobby::Lobby;
use crate::room::options::QuickSeat;
use registry::GameKind;
use std::collections::BTreeMap;
use std::sync::Weak;
use std::time::Duration;

/// How often a node's matcher claims and plans.
const TICK: Duration = Duration::from_millis(300);

fn no_cluster() -> store::StoreError {
    store::StoreError::Unavailable("quick play on a cluster needs PostgreSQL".into())
}

pub(super) async fn enqueue(lobby: &Lobby, info: &TicketInfo) -> Result<(), store::StoreError> {
    let pg = lobby.store().cluster().ok_or_else(no_cluster)?;
    let people = serde_json::to_string(&info.people).expect("seats serialize");
    let accounts: Vec<i64> = info.people.iter().map(|p| p.account).collect();
    let players = i32::try_from(info.players).unwrap_or(i32::MAX);
    let bots = info.seated.as_ref().map(|s| serde_json::to_string(&s.bots).expect("levels serialize"));
    let seated = info.seated.as_ref().zip(bots.as_deref()).map(|(s, b)| (s.room.as_str(), s.path.as_str(), b));
    pg.quickplay_enqueue(&info.ticket, info.game.name(), players, &people, &accounts, info.rating, seated).await
}

fn from_row(row: store::postgres::QueuedTicket) -> Option<TicketInfo> {
    let game = row.game.parse::<GameKind>().ok()?;
    let people: Vec<QuickSeat> = serde_json::from_str(&row.people).ok()?;
    let seated = match (row.room, row.node, row.path) {
        (Some(room), Some(node), path) => Some(Seated {
            room,
            node,
            path: path.unwrap_or_default(),
            bots: row.bots.as_deref().and_then(|b| serde_json::from_str(b).ok()).unwrap_or_default(),
        }),
        _ => None,
    };
    Some(TicketInfo {
        ticket: row.ticket,
        game,
        players: usize::try_from(row.players).unwrap_or(0),
        people,
        rating: row.rating,
        waited: Duration::from_secs_f64(row.waited_ms.max(0.0) / 1000.0),
        seated,
    })
}

pub(super) async fn status(lobby: &Lobby, ticket: &str) -> Result<Option<TicketInfo>, store::StoreError> {
    let pg = lobby.store().cluster().ok_or_else(no_cluster)?;
    Ok(pg.quickplay_ticket(ticket).await?.and_then(from_row))
}

pub(super) async fn cancel(lobby: &Lobby, ticket: &str, account: i64) -> Result<bool, store::StoreError> {
    let pg = lobby.store().cluster().ok_or_else(no_cluster)?;
    pg.quickplay_cancel(ticket, account).await
}

/// Starts this node's matcher: every [`TICK`] while the node serves, it claims the waiting
/// tickets, seats the tables it can, and lets go of the rest. It ends with the lobby.
pub(super) fn spawn_matcher(lobby: Weak<Lobby>, wait: Duration) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(lobby) = lobby.upgrade() else { return };
            let node = lobby.node();
            if node.draining() || !node.connected() {
                continue;
            }
            if let Err(e) = match_once(&lobby, wait).await {
                tracing::warn!(node = node.id(), "quick play's matcher: {e}");
            }
        }
    });
}

async fn match_once(lobby: &Lobby, wait: Duration) -> Result<(), store::StoreError> {
    let pg = lobby.store().cluster().ok_or_else(no_cluster)?;
    let claimed = pg.quickplay_claim(UNWATCHED.as_secs_f64()).await?;
    if claimed.is_empty() {
        return Ok(());
    }
    let tickets: BTreeMap<String, TicketInfo> =
        claimed.into_iter().filter_map(from_row).map(|t| (t.ticket.clone(), t)).collect();
    let mut groups: BTreeMap<(GameKind, usize), Vec<Waiting>> = BTreeMap::new();
    for t in tickets.values() {
        groups.entry((t.game, t.players)).or_default().push(Waiting {
            id: t.ticket.clone(),
            people: t.people.len(),
            rating: t.rating,
            waited: t.waited,
        });
    }
    for ((game, size), queue) in groups {
        for table in matching::plan(&queue, size, wait) {
            let people: Vec<QuickSeat> = table.tickets.iter().flat_map(|t| tickets[t].people.clone()).collect();
            match seat_table(lobby, game, people, table.rating, table.bots).await {
                Ok(seated) => {
                    let bots = serde_json::to_string(&seated.bots).expect("levels serialize");
                    pg.quickplay_seat(&table.tickets, &seated.room, &seated.path, &bots).await?;
                    for t in &table.tickets {
                        crate::metrics::quickplay_wait(game.name(), tickets[t].waited);
                    }
                }
                Err(e) => tracing::warn!(game = game.name(), "a quick-play table was not made: {e}"),
            }
        }
    }
    pg.quickplay_release().await
}
