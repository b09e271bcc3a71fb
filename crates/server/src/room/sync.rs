//! Everything the room sends: `GameDataSync` (the public table built once per update, each
//! viewer's own fields once per viewer), game events as each viewer may see them, errors, and
//! the summary the lobby lists.

use super::Room;
use super::handle::{ConnId, Outbound};
use super::state::Member;
use crate::adapter::{Fields, GameAdapter, Table};
use engine::{Game, Seat, SeatSet, Viewer};
use protocol::{Player, ServerMsg};
use serde::Serialize;
use tokio::time::Instant;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Waiting<'a> {
    username: &'a str,
    ms_left: Option<u64>,
}

/// The most characters of an `ActionFailed` reason, and of a packet's `type` quoted in one.
const MAX_REASON: usize = 256;
pub(super) const MAX_QUOTED_TYPE: usize = 64;

/// `s` cut to `max` characters (an ellipsis marks the cut).
pub(super) fn clip(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => s.into(),
        Some((end, _)) => format!("{}…", &s[..end]).into(),
    }
}

/// Room for one member's room fields and one seat's game fields in a sync (a guess that saves
/// the buffers' regrowth; larger ones still grow).
const PLAYER_BYTES: usize = 128;
const SEAT_BYTES: usize = 128;

/// The most chat messages a sync carries.
const CHAT_SYNCED: usize = 50;

pub(super) fn json<T: Serialize>(v: &T) -> Outbound {
    Outbound::from(serde_json::to_string(v).expect("packets serialize"))
}

impl<A: GameAdapter> Room<A> {
    pub(super) fn send(&self, conn: ConnId, msg: Outbound) {
        // A room that moved tells nobody anything more: what it did last was not stored.
        if self.has_moved() {
            return;
        }
        self.send_anyway(conn, msg);
    }

    fn send_anyway(&self, conn: ConnId, msg: Outbound) {
        // A connection the room has not heard from yet is sent nothing (see `Conn::heard`).
        if let Some(c) = self.conns.get(&conn).filter(|c| c.heard) {
            // A client that cannot keep up loses packets rather than stalling the room; it
            // can always resynchronise with GameDataRequest.
            let _ = c.tx.try_send(msg);
        }
    }

    pub(super) fn broadcast(&self, msg: &ServerMsg) {
        if self.has_moved() {
            return;
        }
        let out = json(msg);
        for c in self.conns.values().filter(|c| c.heard) {
            let _ = c.tx.try_send(out.clone());
        }
    }

    pub(super) fn fail(&self, conn: ConnId, code: &str, reason: &str) {
        self.fail_act(conn, code, reason, None);
    }

    /// A refusal of an action packet that carried `serial` (said back, so that the client
    /// knows which of its moves this answers), or of any packet (`None`).
    pub(super) fn fail_act(&self, conn: ConnId, code: &str, reason: &str, serial: Option<u64>) {
        // Reasons can quote a packet (a field's name, a value): a client sending a huge one
        // does not get it echoed back whole.
        let reason = clip(reason, MAX_REASON).into_owned();
        crate::metrics::refused(code);
        // Also from a room that moved: the refusal of a move that was not stored (`room_moved`).
        self.send_anyway(conn, json(&ServerMsg::ActionFailed { reason, code: code.into(), serial }));
    }

    pub(super) fn reject(&self, conn: ConnId, code: &str, reason: String) {
        crate::metrics::refused(code);
        self.send(conn, json(&ServerMsg::PlayerJoinRejected { reason, code: code.into() }));
    }

    /// A member as the `Player` value of `PlayerJoined` and chat messages: their `players`
    /// entry, read back.
    pub(super) fn player_json(&self, idx: usize) -> Player {
        let view = self.public_view();
        let table = self.table(view.as_ref(), Viewer::Spectator);
        let mut seats = self.current.as_ref().map_or_else(Vec::new, |c| vec![Fields::new(); c.seats.len()]);
        A::public_data(table.as_ref(), &mut seats, &mut Fields::new());
        self.player_fields(&self.members[idx], &seats, table.as_ref()).parse()
    }

    /// The running match as everyone sees it (`view(Spectator)`), computed once per update.
    pub(super) fn public_view(&self) -> Option<<A::G as Game>::View> {
        self.current.as_ref().map(|cur| cur.game.view(Viewer::Spectator))
    }

    /// What an adapter is shown of the running match: `view` (the match as `viewer` sees it)
    /// and the public facts.
    pub(super) fn table<'a>(
        &'a self,
        view: Option<&'a <A::G as Game>::View>,
        viewer: Viewer,
    ) -> Option<Table<'a, A::G>> {
        let cur = self.current.as_ref()?;
        Some(Table { view: view?, viewer, names: &cur.seats, decision: cur.game.decision() })
    }

    /// A member's entry in `players`: the room's fields, then the game's (their seat's, or
    /// those of someone not playing). `table` is the spectator's.
    pub(super) fn player_fields(&self, m: &Member, seats: &[Fields], table: Option<&Table<'_, A::G>>) -> Fields {
        let in_game = self.in_game(m, table).is_some();
        let mut p = Fields::with_capacity(PLAYER_BYTES + SEAT_BYTES);
        p.put("username", &m.username)
            .put("inGame", &in_game)
            .put("isSpectator", &(self.current.is_some() && !in_game))
            .put("joinTime", &m.join_time)
            .put("isBot", &m.bot.is_some())
            .put("connected", &(m.bot.is_some() || m.conn.is_some()));
        // A bot's level (or the game's own bot it is), so every seat can say how it plays.
        if let Some(kind) = &m.bot {
            p.put("bot", kind);
        }
        self.put_rating(m, &mut p);
        match self.seat_of(&m.username).and_then(|s| seats.get(s.index())) {
            Some(game) => p.extend(game),
            None => {
                A::unseated_player_fields(self.current.is_none(), &mut p);
                &mut p
            }
        };
        p
    }

    /// Everything of `GameDataSync.gameData` that every connection sees alike (all but `you`
    /// and the viewer's own fields; see `docs/protocol.md`), built once per update.
    pub(super) fn public_table(&self) -> Fields {
        let view = self.public_view();
        let table = self.table(view.as_ref(), Viewer::Spectator);
        let mut seats = self.current.as_ref().map_or_else(Vec::new, |c| {
            (0..c.seats.len()).map(|_| Fields::with_capacity(SEAT_BYTES)).collect::<Vec<_>>()
        });
        let mut game_top = Fields::with_capacity(256);
        A::public_data(table.as_ref(), &mut seats, &mut game_top);
        let mut players = String::with_capacity(2 + self.members.len() * (PLAYER_BYTES + SEAT_BYTES));
        players.push('[');
        for (i, m) in self.members.iter().enumerate() {
            let p = self.player_fields(m, &seats, table.as_ref());
            if i > 0 {
                players.push(',');
            }
            players.push('{');
            players.push_str(p.as_str());
            players.push('}');
        }
        players.push(']');
        let mut t = Fields::with_capacity(players.len() + 1024);
        t.put_raw("players", &players);
        {
            // Only this task uses the lock (it makes `&Room` shareable across the awaits).
            let mut cached = self.room_fields.lock().expect("room fields lock");
            let room = cached.get_or_insert_with(|| self.room_fields());
            debug_assert_eq!(*room, self.room_fields(), "the room's fields changed without a save()");
            t.extend(room);
        }
        if let Some(cur) = &self.current {
            // Who the game waits on, with the milliseconds left where a clock runs (for the
            // countdowns a client shows).
            let now = Instant::now();
            let decision = cur.game.decision();
            let since = self.waiting_since.filter(|(serial, _)| *serial == decision.serial).map_or(now, |(_, at)| at);
            let waiting: Vec<Waiting<'_>> = decision
                .seats
                .iter()
                .map(|seat| Waiting {
                    username: &cur.seats[seat.index()],
                    ms_left: self
                        .seat_deadline(cur, seat, decision.kind, since)
                        .map(|(t, _)| t.saturating_duration_since(now).as_millis() as u64),
                })
                .collect();
            t.put("waitingOn", &waiting);
        }
        t.extend(&game_top);
        t
    }

    /// The room's own fields of `gameData` (see `room_fields` in [`Room`]).
    pub(super) fn room_fields(&self) -> Fields {
        let chat_from = self.chat.len().saturating_sub(CHAT_SYNCED);
        let mut t = Fields::new();
        t.put("roomId", &self.id)
            .put("game", A::name())
            .put("host", &self.host)
            .put("gameStarted", &self.current.is_some())
            .put("chat", &self.chat[chat_from..])
            .put("bots", A::bot_names())
            .put("levels", search::Level::NAMES)
            .put("seats", &self.current.as_ref().map(|c| &c.seats))
            .put("lastWinner", &self.last_winner)
            .put("lastMatch", &self.last_match)
            .put("matchNumber", &self.current.as_ref().map(|_| self.matches_played))
            .put("minPlayers", &A::MIN_PLAYERS)
            .put("maxPlayers", &A::MAX_PLAYERS)
            .put("options", &self.options.public())
            .put("seeded", &(self.options.seed.is_some() || self.options.setup.is_some()))
            .put("setUp", &self.options.setup.is_some());
        t
    }

    /// The fields of `gameData` only `viewer` sees: the table's serial (the moves it saw), the
    /// game's private ones, the engine's view (games that sync it) and a seat's legal actions.
    pub(super) fn private_table(&self, viewer: Viewer) -> Fields {
        let mut t = Fields::with_capacity(512);
        if let Some(cur) = &self.current {
            // Per viewer: another seat's secret move does not move it (`Match::serial`).
            t.put("serial", &cur.serial(viewer));
            // The one view of this viewer: the adapter renders from it, and it is synced as is.
            let view = cur.game.view(viewer);
            if let Some(table) = self.table(Some(&view), viewer) {
                A::private_data(&table, &mut t);
            }
            if A::SYNC_VIEW {
                t.put("view", &view);
            }
            if let Some(seat) = viewer.as_seat() {
                t.put("legal", &cur.game.legal_actions(seat));
                // The seat's prompt setting, and whether the room passes for it in the window
                // open now (its page then shows a note rather than a prompt). Its own only:
                // to everyone else the window looks the same either way.
                if A::PASS_SCOPES {
                    let own_cards = self.members.iter().any(|m| m.username == cur.seats[seat.index()] && m.own_cards);
                    t.put("ownCards", &own_cards);
                    if cur.game.decision().seats.contains(seat)
                        && let Some(why) = self.auto_pass(cur, seat)
                    {
                        t.put("autoPass", why.name());
                    }
                }
            }
        }
        t
    }

    /// `{"type":"GameDataSync","gameData":{"you":…,<public>,<private>}}`. The parts come as
    /// text, read from their [`Fields`] once per update (not once per connection).
    pub(super) fn sync_packet(&self, conn: ConnId, public: &str, private: &str) -> Outbound {
        let you = self.conns.get(&conn).and_then(|c| c.member.as_deref());
        let you = serde_json::to_string(&you).expect("names serialize");
        let mut s = String::with_capacity(48 + you.len() + public.len() + private.len());
        s.push_str("{\"type\":\"GameDataSync\",\"gameData\":{\"you\":");
        s.push_str(&you);
        for part in [public, private] {
            if !part.is_empty() {
                s.push(',');
                s.push_str(part);
            }
        }
        s.push_str("}}");
        Outbound::from(s)
    }

    pub(super) fn sync(&self, conn: ConnId) {
        let private = self.private_table(self.viewer_of(conn));
        self.send(conn, self.sync_packet(conn, self.public_table().as_str(), private.as_str()));
    }

    /// The connections, grouped by what they may see.
    pub(super) fn conns_by_viewer(&self) -> Vec<(Viewer, Vec<ConnId>)> {
        let mut groups: Vec<(Viewer, Vec<ConnId>)> = Vec::new();
        for &conn in self.conns.keys() {
            let viewer = self.viewer_of(conn);
            match groups.iter_mut().find(|(v, _)| *v == viewer) {
                Some((_, conns)) => conns.push(conn),
                None => groups.push((viewer, vec![conn])),
            }
        }
        groups
    }

    /// A `GameDataSync` to every connection. What everyone sees alike is serialized once;
    /// each viewer's own fields once per viewer; only `you` is spliced in per connection.
    pub(super) fn sync_all(&self) {
        if self.conns.is_empty() {
            return;
        }
        let public = self.public_table();
        let public = public.as_str();
        for (viewer, conns) in self.conns_by_viewer() {
            let private = self.private_table(viewer);
            let private = private.as_str();
            for conn in conns {
                self.send(conn, self.sync_packet(conn, public, private));
            }
        }
    }

    /// A `GameDataSync` to the connections of `seat` alone (after its secret move).
    pub(super) fn sync_seat(&self, seat: Seat) {
        let viewer = Viewer::seat(seat);
        let Some((_, conns)) = self.conns_by_viewer().into_iter().find(|(v, _)| *v == viewer) else { return };
        let public = self.public_table();
        let private = self.private_table(viewer);
        for conn in conns {
            self.send(conn, self.sync_packet(conn, public.as_str(), private.as_str()));
        }
    }

    /// What a cluster's lobby lists about the room (JSON, kept on its row in PostgreSQL):
    /// its summary as the room is now (published or not yet), with whether it is private
    /// (which the list leaves out).
    pub(super) fn listing(&self) -> String {
        let s = self.fresh_summary();
        serde_json::json!({
            "players": s.players, "state": s.state, "spectators": s.spectators,
            "seeded": s.seeded, "rated": s.rated, "private": s.private, "createdAt": s.created_at,
        })
        .to_string()
    }

    /// The room's summary as the lobby lists it now.
    pub fn summary_now(&self) -> crate::room::RoomSummary {
        self.summary.lock().expect("summary lock").clone()
    }

    pub(super) fn publish_summary(&self) {
        let fresh = self.fresh_summary();
        *self.summary.lock().expect("summary lock") = fresh;
    }

    /// The summary as the room is now: the published one with its members and state redone.
    fn fresh_summary(&self) -> crate::room::RoomSummary {
        let mut players = Vec::new();
        let mut spectators = 0;
        for m in &self.members {
            let seated = self.seat_of(&m.username).is_some();
            if self.current.is_some() && !seated || self.current.is_none() && m.spectator {
                spectators += 1;
            } else {
                players.push(m.username.clone());
            }
        }
        let state = if self.current.is_some() { "playing" } else { "lobby" };
        let mut s = self.summary.lock().expect("summary lock").clone();
        s.players = players;
        s.state = state;
        s.spectators = spectators;
        s
    }

    /// Sends each connection the packets for `events` as it may see them. Events every
    /// viewer sees alike are serialized once for the room.
    pub(super) fn send_events(&self, events: &[<A::G as Game>::Event]) {
        let Some(cur) = self.current.as_ref() else { return };
        if self.conns.is_empty() || events.is_empty() {
            return;
        }
        let mut scratch = Vec::new();
        let mut packets_for = |e: &<A::G as Game>::Event, viewer: Viewer| -> Vec<Outbound> {
            scratch.clear();
            if let Some(seen) = cur.game.view_event(e, viewer) {
                A::event_packets(&seen, viewer, &cur.seats, &mut scratch);
            }
            scratch.drain(..).map(Outbound::from).collect()
        };
        let shared: Vec<Option<Vec<Outbound>>> =
            events.iter().map(|e| A::same_for_everyone(e).then(|| packets_for(e, Viewer::Spectator))).collect();
        for (viewer, conns) in self.conns_by_viewer() {
            for (e, common) in events.iter().zip(&shared) {
                let own;
                let packets = match common {
                    Some(p) => p,
                    None => {
                        own = packets_for(e, viewer);
                        &own
                    }
                };
                for p in packets {
                    for &c in &conns {
                        self.send(c, p.clone());
                    }
                }
            }
        }
    }

    /// Sends the connections of `seat` alone the packets for `events` (a secret move's).
    pub(super) fn send_events_to_seat(&self, events: &[<A::G as Game>::Event], seat: Seat) {
        let Some(cur) = self.current.as_ref() else { return };
        let viewer = Viewer::seat(seat);
        let conns: Vec<ConnId> = self.conns.keys().copied().filter(|&c| self.viewer_of(c) == viewer).collect();
        let mut packets = Vec::new();
        for e in events {
            if let Some(seen) = cur.game.view_event(e, viewer) {
                A::event_packets(&seen, viewer, &cur.seats, &mut packets);
            }
        }
        for p in packets {
            let out = Outbound::from(p);
            for &c in &conns {
                self.send(c, out.clone());
            }
        }
    }

    /// For games whose events do not announce turns: TurnEnd/TurnStart from `to_act`.
    pub(super) fn after_turn_change(&self, before: SeatSet) {
        let Some(cur) = self.current.as_ref() else { return };
        let after = cur.game.to_act();
        if after == before || cur.game.outcome().is_some() {
            return;
        }
        for s in before.iter().filter(|s| !after.contains(*s)) {
            self.broadcast(&ServerMsg::TurnEnd { username: cur.seats[s.index()].clone() });
        }
        for s in after.iter().filter(|s| !before.contains(*s)) {
            self.broadcast(&ServerMsg::TurnStart { username: cur.seats[s.index()].clone() });
        }
    }
}
