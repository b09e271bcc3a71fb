//! A quick-play table (`options.quickplay`, see [`super::options::QuickTable`]): its bots
//! seated at creation, its seats reserved for the people quick play matched, and its first
//! match started by the room itself once they are all in (or at the deadline, bots in the
//! seats of those who did not come).

use super::Room;
use super::now_ms;
use super::packets::BOT_NAMES;
use super::state::{Member, random_token};
use crate::adapter::GameAdapter;
use protocol::ServerMsg;

impl<A: GameAdapter> Room<A> {
    /// A new quick-play room's bots, as members (stored with the room's first snapshot).
    pub(super) fn seat_quick_bots(&mut self) {
        let levels = self.options.quickplay.as_ref().map(|q| q.bots.clone()).unwrap_or_default();
        for level in levels {
            self.push_bot(level);
        }
    }

    /// Adds a bot member of `level` under the first free bot name; `false` if none is left.
    fn push_bot(&mut self, level: String) -> bool {
        let Some(name) = BOT_NAMES.iter().map(|n| format!("bot-{n}")).find(|n| self.member_index(n).is_none()) else {
            return false;
        };
        self.members.push(Member {
            username: name,
            token: random_token(),
            join_time: now_ms(),
            bot: Some(level),
            spectator: false,
            conn: None,
            dropped_at: None,
            account: None,
            own_cards: false,
        });
        true
    }

    /// A quick-play table waiting for its people: its seats are the server's to fill.
    pub(super) fn quick_lobby(&self) -> bool {
        self.quick_deadline.is_some() && self.current.is_none()
    }

    /// Whether `account` holds a reserved seat at this quick-play table.
    pub(super) fn quick_reserved(&self, account: Option<i64>) -> bool {
        let Some(q) = &self.options.quickplay else { return false };
        account.is_some_and(|a| q.people.iter().any(|p| p.account == a))
    }

    /// Starts the first match once every reserved person is in the room.
    pub(super) async fn quick_start_if_all_in(&mut self) {
        if !self.quick_lobby() {
            return;
        }
        let Some(q) = &self.options.quickplay else { return };
        let all_in = q
            .people
            .iter()
            .all(|p| self.members.iter().any(|m| m.account == Some(p.account) && m.conn.is_some() && !m.spectator));
        if all_in {
            self.quick_start().await;
        }
    }

    /// The deadline: whoever came plays, bots of the table's level sit in the others' seats
    /// (the table keeps its size). With nobody come, the table is given up (it closes as any
    /// empty room does).
    pub(super) async fn on_quick_deadline(&mut self) {
        let Some(q) = self.options.quickplay.clone() else { return };
        let came = self.members.iter().filter(|m| m.bot.is_none() && !m.spectator && m.conn.is_some()).count();
        if came == 0 {
            self.quick_deadline = None;
            return;
        }
        let level = q.bots.first().cloned().unwrap_or_else(|| crate::adapter::STAND_IN_LEVEL.to_string());
        let size = q.people.len() + q.bots.len();
        while self.players_in_lobby() < size.min(A::MAX_PLAYERS) {
            if !self.push_bot(level.clone()) {
                break;
            }
            let idx = self.members.len() - 1;
            self.broadcast(&ServerMsg::PlayerJoined { player: self.player_json(idx) });
        }
        self.quick_start().await;
    }

    async fn quick_start(&mut self) {
        self.start(None).await;
        if self.current.is_some() {
            self.quick_deadline = None;
        } else {
            // Refused (the store out of reach): tried again in a moment.
            self.quick_deadline = Some(tokio::time::Instant::now() + super::STORE_RETRY);
            self.sync_all();
        }
    }
}
