//! A lone server's quick-play queue: one actor task owns the tickets and the parties (one
//! room, one task: the queue is a table of its own). Requests reach it through a [`Handle`];
//! every few hundred milliseconds it plans tables ([`super::matching::plan`]) and makes their
//! rooms. Nothing of it is stored: a restart empties the queue (the waiting pages queue again).

use super::matching::{self, Waiting};
use super::{MAX_PARTY, Party, QpError, SEATED_KEPT, TicketInfo, UNWATCHED, seat_table};
use crate::lobby::Lobby;
use crate::room::options::QuickSeat;
use registry::GameKind;
use std::collections::{BTreeMap, HashMap};
use std::sync::Weak;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// How often the actor plans tables.
const TICK: Duration = Duration::from_millis(100);

enum Cmd {
    Enqueue(TicketInfo, oneshot::Sender<()>),
    Status(String, oneshot::Sender<Option<TicketInfo>>),
    Cancel(String, i64, oneshot::Sender<bool>),
    NewParty(QuickSeat, oneshot::Sender<Party>),
    Party(String, oneshot::Sender<Option<Party>>),
    JoinParty(String, QuickSeat, oneshot::Sender<Result<Party, QpError>>),
    LeaveParty(String, i64, oneshot::Sender<()>),
    PartyQueued(String, String, oneshot::Sender<()>),
}

/// The way to the queue's actor.
pub struct Handle {
    tx: mpsc::Sender<Cmd>,
}

impl Handle {
    async fn ask<T>(&self, cmd: impl FnOnce(oneshot::Sender<T>) -> Cmd) -> Option<T> {
        let (tx, rx) = oneshot::channel();
        self.tx.send(cmd(tx)).await.ok()?;
        rx.await.ok()
    }

    pub async fn enqueue(&self, info: TicketInfo) {
        self.ask(|tx| Cmd::Enqueue(info, tx)).await;
    }

    pub async fn status(&self, ticket: &str) -> Option<TicketInfo> {
        self.ask(|tx| Cmd::Status(ticket.to_string(), tx)).await.flatten()
    }

    pub async fn cancel(&self, ticket: &str, account: i64) -> bool {
        self.ask(|tx| Cmd::Cancel(ticket.to_string(), account, tx)).await.unwrap_or(false)
    }

    pub async fn new_party(&self, leader: QuickSeat) -> Party {
        let name = leader.name.clone();
        self.ask(|tx| Cmd::NewParty(leader, tx)).await.unwrap_or_else(|| Party {
            id: String::new(),
            leader: name,
            leader_account: 0,
            members: Vec::new(),
            people: Vec::new(),
            ticket: None,
            link: String::new(),
        })
    }

    pub async fn party(&self, id: &str) -> Option<Party> {
        self.ask(|tx| Cmd::Party(id.to_string(), tx)).await.flatten()
    }

    pub async fn join_party(&self, id: &str, who: QuickSeat) -> Result<Party, QpError> {
        self.ask(|tx| Cmd::JoinParty(id.to_string(), who, tx)).await.unwrap_or(Err(QpError::NoParty))
    }

    pub async fn leave_party(&self, id: &str, account: i64) {
        self.ask(|tx| Cmd::LeaveParty(id.to_string(), account, tx)).await;
    }

    pub async fn party_queued(&self, id: &str, ticket: &str) {
        self.ask(|tx| Cmd::PartyQueued(id.to_string(), ticket.to_string(), tx)).await;
    }
}

struct Entry {
    info: TicketInfo,
    since: Instant,
    /// When its people last asked about it.
    seen: Instant,
}

struct Queue {
    tickets: BTreeMap<String, Entry>,
    parties: HashMap<String, Party>,
    lobby: Weak<Lobby>,
    wait: Duration,
}

/// Starts the actor; it ends when the last handle is dropped.
pub fn spawn(lobby: Weak<Lobby>, wait: Duration) -> Handle {
    let (tx, mut rx) = mpsc::channel(256);
    let mut q = Queue { tickets: BTreeMap::new(), parties: HashMap::new(), lobby, wait };
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => q.handle(cmd),
                    None => return,
                },
                _ = tick.tick() => {
                    if !q.seat_tables().await {
                        return;
                    }
                }
            }
        }
    });
    Handle { tx }
}

impl Queue {
    fn handle(&mut self, cmd: Cmd) {
        let now = Instant::now();
        match cmd {
            Cmd::Enqueue(info, tx) => {
                // One waiting ticket a person: a new one replaces theirs.
                let accounts: Vec<i64> = info.people.iter().map(|p| p.account).collect();
                self.tickets.retain(|_, e| {
                    e.info.seated.is_some() || !e.info.people.iter().any(|p| accounts.contains(&p.account))
                });
                self.tickets.insert(info.ticket.clone(), Entry { info, since: now, seen: now });
                let _ = tx.send(());
            }
            Cmd::Status(ticket, tx) => {
                let answer = self.tickets.get_mut(&ticket).map(|e| {
                    e.seen = now;
                    let mut info = e.info.clone();
                    if info.seated.is_none() {
                        info.waited = now - e.since;
                    }
                    info
                });
                let _ = tx.send(answer);
            }
            Cmd::Cancel(ticket, account, tx) => {
                let mine = self
                    .tickets
                    .get(&ticket)
                    .is_some_and(|e| e.info.seated.is_none() && e.info.people.iter().any(|p| p.account == account));
                if mine {
                    self.tickets.remove(&ticket);
                    for p in self.parties.values_mut().filter(|p| p.ticket.as_deref() == Some(&ticket)) {
                        p.ticket = None;
                    }
                }
                let _ = tx.send(mine);
            }
            Cmd::NewParty(leader, tx) => {
                let id = super::new_ticket();
                let party = Party {
                    link: format!("/party/{id}"),
                    id: id.clone(),
                    leader: leader.name.clone(),
                    leader_account: leader.account,
                    people: vec![leader.name.clone()],
                    members: vec![leader],
                    ticket: None,
                };
                self.parties.insert(id, party.clone());
                let _ = tx.send(party);
            }
            Cmd::Party(id, tx) => {
                let _ = tx.send(self.parties.get(&id).cloned());
            }
            Cmd::JoinParty(id, who, tx) => {
                let answer = match self.parties.get_mut(&id) {
                    None => Err(QpError::NoParty),
                    Some(p) if p.members.iter().any(|m| m.account == who.account) => Ok(p.clone()),
                    Some(p) if p.members.len() >= MAX_PARTY => Err(QpError::PartyFull),
                    Some(p) => {
                        p.people.push(who.name.clone());
                        p.members.push(who);
                        Ok(p.clone())
                    }
                };
                let _ = tx.send(answer);
            }
            Cmd::LeaveParty(id, account, tx) => {
                if let Some(p) = self.parties.get_mut(&id) {
                    p.members.retain(|m| m.account != account);
                    p.people = p.members.iter().map(|m| m.name.clone()).collect();
                    if p.members.is_empty() {
                        self.parties.remove(&id);
                    } else if p.leader_account == account {
                        p.leader_account = p.members[0].account;
                        p.leader = p.members[0].name.clone();
                    }
                }
                let _ = tx.send(());
            }
            Cmd::PartyQueued(id, ticket, tx) => {
                if let Some(p) = self.parties.get_mut(&id) {
                    p.ticket = Some(ticket);
                }
                let _ = tx.send(());
            }
        }
    }

    /// Forgets the tickets nobody watches, plans tables and makes their rooms; `false` once
    /// the lobby is gone (the server stopped).
    async fn seat_tables(&mut self) -> bool {
        let now = Instant::now();
        self.tickets.retain(|_, e| {
            let quiet = now - e.seen;
            if e.info.seated.is_some() { quiet < SEATED_KEPT } else { quiet < UNWATCHED }
        });
        let mut groups: BTreeMap<(GameKind, usize), Vec<Waiting>> = BTreeMap::new();
        for (id, e) in self.tickets.iter().filter(|(_, e)| e.info.seated.is_none()) {
            groups.entry((e.info.game, e.info.players)).or_default().push(Waiting {
                id: id.clone(),
                people: e.info.people.len(),
                rating: e.info.rating,
                waited: now - e.since,
            });
        }
        if groups.is_empty() {
            return self.lobby.strong_count() > 0;
        }
        let Some(lobby) = self.lobby.upgrade() else { return false };
        for ((game, _), queue) in groups {
            let size = self.tickets[&queue[0].id].info.players;
            for table in matching::plan(&queue, size, self.wait) {
                let people: Vec<QuickSeat> =
                    table.tickets.iter().flat_map(|t| self.tickets[t].info.people.clone()).collect();
                match seat_table(&lobby, game, people, table.rating, table.bots).await {
                    Ok(seated) => {
                        let at = Instant::now();
                        for t in &table.tickets {
                            if let Some(e) = self.tickets.get_mut(t) {
                                e.info.waited = at - e.since;
                                crate::metrics::quickplay_wait(game.name(), e.info.waited);
                                e.info.seated = Some(seated.clone());
                                e.seen = at;
                            }
                        }
                    }
                    // Over the server's room limit, or its database out of reach: the tickets
                    // wait for the next tick.
                    Err(e) => tracing::warn!(game = game.name(), "a quick-play table was not made: {e}"),
                }
            }
        }
        true
    }
}
