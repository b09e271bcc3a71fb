//! Who is in the room: joining, reconnecting with a token, dropping, leaving for good, and the
//! host role moving on.

use super::handle::ConnId;
use super::state::{Member, random_token};
use super::sync::json;
use super::{Room, now_ms};
use crate::adapter::GameAdapter;
use engine::{Game, Move};
use protocol::{ServerMsg, codes};
use tokio::time::Instant;

impl<A: GameAdapter> Room<A> {
    pub(super) fn member_index(&self, username: &str) -> Option<usize> {
        self.members.iter().position(|m| m.username.eq_ignore_ascii_case(username))
    }

    pub(super) fn conn_member(&self, conn: ConnId) -> Option<usize> {
        let name = self.conns.get(&conn)?.member.as_deref()?;
        self.member_index(name)
    }

    pub(super) fn players_in_lobby(&self) -> usize {
        self.members.iter().filter(|m| !m.spectator).count()
    }

    pub(super) async fn join(&mut self, conn: ConnId, username: String) {
        if let Some(i) = self.conn_member(conn) {
            let reason = format!("you have already joined as {}", self.members[i].username);
            return self.reject(conn, codes::ALREADY_JOINED, reason);
        }
        // A signed-in person joins under their account's name, whatever the packet says (its
        // rules are the accounts' own, checked when the name was taken), and a person who is a
        // member already (another tab, another device) takes their place back, as their token
        // would: the session proves who they are.
        let account = self.conns.get(&conn).and_then(|c| c.person.clone());
        let username = match &account {
            Some(person) => {
                if let Some(i) = self.members.iter().position(|m| m.account == Some(person.account)) {
                    let token = self.members[i].token.clone();
                    return self.reconnect(conn, &token).await;
                }
                person.name.clone()
            }
            None => {
                if let Err(reason) = protocol::check_username(&username) {
                    return self.reject(conn, codes::BAD_USERNAME, reason);
                }
                username
            }
        };
        let account = account.map(|p| p.account);
        if let Some(i) = self.member_index(&username) {
            // A member away with no seat in play (in the lobby, or a watcher) holds nothing a
            // newcomer could take: the name is free, as it is on a server that saw the drop (a
            // member dropped in the lobby leaves at once). Such members exist after a restore,
            // held for `hold_seconds` so their tokens work; but the player may hold no token:
            // a node cut off from the database let the member go unstored and refused its
            // token, the client joined by name, and the survivor restored the member from the
            // last stored snapshot (seen in the cluster's 200-fault run: a name refused for
            // the whole hold while the room listed it away). Such a leave writes no move and
            // is not refusable, so it does not fail.
            let m = &self.members[i];
            let held = m.bot.is_some() || m.conn.is_some() || self.seat_of(&m.username).is_some();
            if held || self.leave(i, false).await.is_err() {
                let reason = format!("the username {username} is taken in this room");
                return self.reject(conn, codes::USERNAME_TAKEN, reason);
            }
        }
        // Seats are found by username: a newcomer with the name of a seat whose player left
        // (or whose hold ran out) would sit in it, hand and all. Until the game ends the name
        // stays taken.
        if let Some(cur) = &self.current
            && cur.seats.iter().any(|s| s.eq_ignore_ascii_case(&username))
        {
            let reason = format!("{username} has a seat in the game being played; choose another username");
            return self.reject(conn, codes::SEAT_IN_PLAY, reason);
        }
        // A quick-play table's seats are reserved for the people quick play matched: anyone
        // else watches.
        let spectator = self.current.is_some()
            || self.players_in_lobby() >= A::MAX_PLAYERS
            || (self.quick_lobby() && !self.quick_reserved(account));
        if spectator && self.members.iter().filter(|m| m.spectator).count() as u64 >= self.options.max_spectators {
            let reason = format!(
                "this room is full: {} players and {} watchers at most",
                A::MAX_PLAYERS,
                self.options.max_spectators
            );
            return self.reject(conn, codes::ROOM_FULL, reason);
        }
        let token = random_token();
        self.members.push(Member {
            username: username.clone(),
            token: token.clone(),
            join_time: now_ms(),
            bot: None,
            spectator,
            conn: Some(conn),
            dropped_at: None,
            account,
            own_cards: false,
        });
        if let Some(c) = self.conns.get_mut(&conn) {
            c.member = Some(username.clone());
        }
        let new_host = self.host.is_none();
        if new_host {
            self.host = Some(username.clone());
        }
        // The token is the member's way back (a reconnect, here or on the server that takes
        // the room over): it is stored before the member hears it, or the join is refused.
        if let Err(e) = self.try_save().await {
            tracing::error!(room = %self.id, "saving a join failed, the join is refused: {e}");
            self.members.pop();
            if let Some(c) = self.conns.get_mut(&conn) {
                c.member = None;
            }
            if new_host {
                self.host = None;
            }
            self.room_fields.lock().expect("room fields lock").take();
            self.refresh_viewers();
            self.publish_summary();
            let reason = match e {
                store::StoreError::Lost(_) => super::persist::store_refusal(&e),
                _ => "you could not join: the server cannot reach its database right now; try again in a moment"
                    .to_string(),
            };
            return self.reject(conn, e.code(), reason);
        }
        // Its rating in this game, for its seat (a read; not refusable).
        self.load_ratings().await;
        self.send(conn, json(&ServerMsg::Joined { username: username.clone(), token }));
        let idx = self.members.len() - 1;
        // The others get the newcomer's `players` entry, not a sync listing everyone: a join
        // costs each member one small packet, not a table (quadratic in a crowded room).
        self.broadcast(&ServerMsg::PlayerJoined { player: self.player_json(idx) });
        if new_host {
            self.broadcast(&ServerMsg::HostSet { username: self.host.clone() });
        }
        self.sync(conn);
        self.quick_start_if_all_in().await;
    }

    pub(super) async fn reconnect(&mut self, conn: ConnId, token: &str) {
        let Some(i) = self.members.iter().position(|m| m.bot.is_none() && m.token == token) else {
            let reason = "unknown or expired token: join with a username".to_string();
            return self.reject(conn, codes::UNKNOWN_TOKEN, reason);
        };
        // One membership per connection: a member taking another's seat would leave their own
        // member behind, neither connected nor dropped (and, were it the host, host for ever).
        if let Some(j) = self.conn_member(conn)
            && j != i
        {
            let reason = format!("you have already joined as {}; leave first", self.members[j].username);
            return self.reject(conn, codes::ALREADY_JOINED, reason);
        }
        if let Some(old) = self.members[i].conn.replace(conn)
            && old != conn
            && let Some(c) = self.conns.get_mut(&old)
        {
            // The newer connection wins; the old one stays open as an anonymous watcher.
            c.member = None;
        }
        self.members[i].dropped_at = None;
        let username = self.members[i].username.clone();
        // Back: the seat is theirs again, nobody plays it for them.
        if let Some(seat) = self.seat_of(&username)
            && let Some(cur) = self.current.as_mut()
        {
            cur.stand_in.remove(seat);
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.member = Some(username.clone());
        }
        let new_host = self.host.is_none();
        if new_host {
            self.host = Some(username.clone());
        }
        self.save().await;
        // The answer first: `Joined`, then what the room tells everyone (issue 46: tables came
        // before it).
        self.send(conn, json(&ServerMsg::Joined { username, token: token.to_string() }));
        if new_host {
            self.broadcast(&ServerMsg::HostSet { username: self.host.clone() });
        }
        self.sync_all();
        self.quick_start_if_all_in().await;
    }

    pub(super) async fn on_disconnect(&mut self, conn: ConnId) {
        let Some(c) = self.conns.remove(&conn) else { return };
        let Some(name) = c.member else { return };
        let Some(i) = self.member_index(&name) else { return };
        if self.members[i].conn != Some(conn) {
            return;
        }
        self.members[i].conn = None;
        if self.current.is_some() {
            // Keep the seat for the hold time; the host role moves on at once.
            self.members[i].dropped_at = Some(Instant::now());
            if self.host.as_deref() == Some(name.as_str()) {
                self.pass_host().await;
            }
            self.save().await;
            self.sync_all();
        } else {
            self.drop_from_lobby(i);
        }
    }

    /// Member `i`, dropped in the lobby, leaves at once, as [`Room::leave`] would (no move, not
    /// refusable), but its snapshot waits for the other drops queued behind it or reaching the
    /// server in the same moment (the room's loop lets the runtime poll the sockets once): a
    /// table that closes its sockets together costs one write, not one per member (four of a
    /// four-player Buckshot room's thirteen writes a game). Nobody hears of the leave before
    /// it is stored ([`Room::store_drops`]).
    fn drop_from_lobby(&mut self, i: usize) {
        let (member, was_host) = self.remove_member(i);
        let mut told = self.dropped.take().unwrap_or_default();
        if was_host {
            told.push(ServerMsg::HostSet { username: self.host.clone() });
        }
        told.push(ServerMsg::PlayerLeft { username: member.username });
        self.dropped = Some(told);
    }

    /// Takes member `i` out of the room, passing the host role on if it was theirs (`true`).
    fn remove_member(&mut self, i: usize) -> (Member, bool) {
        let member = self.members.remove(i);
        let was_host = self.host.as_ref() == Some(&member.username);
        if was_host {
            self.host = None;
            self.host = self.next_host();
        }
        (member, was_host)
    }

    /// Stores the lobby drops not stored yet (one snapshot for all; refused, it is written
    /// again until it is, as [`Room::save`] does) and then tells the others of them. A room
    /// that moved writes nothing more: the server that has it now restores the members from
    /// its last stored snapshot, away, and lets them go after their hold.
    pub(super) async fn store_drops(&mut self) {
        let Some(told) = self.dropped.take() else { return };
        if self.has_moved() {
            return;
        }
        self.save().await;
        for msg in &told {
            self.broadcast(msg);
        }
    }

    /// The earliest-joined connected person other than the current host, or nobody.
    pub(super) async fn pass_host(&mut self) {
        let next = self.next_host();
        if next != self.host {
            self.host = next;
            self.broadcast(&ServerMsg::HostSet { username: self.host.clone() });
        }
    }

    /// Who [`Room::pass_host`] would make host.
    fn next_host(&self) -> Option<String> {
        self.members
            .iter()
            .find(|m| m.bot.is_none() && m.conn.is_some() && Some(&m.username) != self.host.as_ref())
            .map(|m| m.username.clone())
    }

    /// Member `i` leaves the room for good (left, or not back in time; one dropped in the lobby
    /// leaves by [`Room::drop_from_lobby`]).
    ///
    /// A seated player's leave is a move of the match (`Move::Leave`), stored before anything
    /// of it is told or changed, as any move: refused by the store, the member stays, the
    /// game is as before, and the error is answered (the caller tells the client, or tries
    /// again later).
    ///
    /// A leave that writes no move (in the lobby, or a watcher's) is the room's snapshot
    /// alone: `refusable` (the member asked: `LeaveGame`, `RemoveBot`), a refused snapshot
    /// takes the leave back and answers the error; otherwise (the member is gone: not back
    /// within the hold, or away under a name someone joins with) the leave stands and its
    /// snapshot is written again until it is stored, as after a stored `Move::Leave`.
    pub(super) async fn leave(&mut self, i: usize, refusable: bool) -> Result<(), store::StoreError> {
        let username = self.members[i].username.clone();
        let mut events = Vec::new();
        let mut played = false;
        if let Some(seat) = self.seat_of(&username)
            && let Some(cur) = self.current.as_mut()
            && cur.game.outcome().is_none()
        {
            played = true;
            let stand_in = cur.stand_in;
            cur.game.leave(seat, &mut events);
            cur.moves.push(Move::Leave { seat });
            cur.note_move(None);
            let entry = serde_json::to_string(cur.moves.last().expect("pushed")).expect("moves serialize");
            let index = (cur.moves.len() - 1) as u64;
            if let Err(e) = self.store.append_move(&self.id, index, entry).await {
                self.note_store_error(&e);
                tracing::error!(room = %self.id, "saving a leave failed, the leave is refused: {e}");
                self.take_back_last_move(stand_in);
                return Err(e);
            }
        }
        let (member, was_host) = self.remove_member(i);
        if refusable && !played {
            if let Err(e) = self.try_save().await {
                tracing::error!(room = %self.id, "saving a leave failed, the leave is refused: {e}");
                self.members.insert(i, member);
                if was_host {
                    self.host = Some(username);
                }
                self.refresh_derived();
                return Err(e);
            }
        } else {
            self.save().await;
        }
        if was_host {
            self.broadcast(&ServerMsg::HostSet { username: self.host.clone() });
        }
        self.broadcast(&ServerMsg::PlayerLeft { username });
        // Like a join, a leave that changes no game (in the lobby, or a watcher's) is told as
        // the delta alone: members drop the entry from `players` (and read `HostSet`).
        if played {
            self.after_events(events).await;
        }
        Ok(())
    }
}
