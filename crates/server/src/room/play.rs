//! The match: starting it, applying actions (stored before anyone hears of them), and
//! recording its end.

use super::handle::ConnId;
use super::persist::store_refusal;
use super::state::{By, Match, Member};
use super::{Room, now_ms};
use crate::adapter::{GameAdapter, PacketError, Table};
use engine::{Game, Move, RuleError, Seat, SeatSet, Viewer, derive_seed};
use protocol::{ServerMsg, codes};
use tokio::time::Instant;

/// An action as it arrived, read once: the `action` of `Act {action}` (every game), or the text
/// of one of the game's own action packets (Buckshot's).
pub(super) enum ActionPacket<'a> {
    /// With `forCard` (a pass on the whole card: see `GameAdapter::pass_scope`).
    Act(serde_json::Value, bool),
    Own(&'a str),
}

impl<A: GameAdapter> Room<A> {
    pub(super) fn seat_of(&self, username: &str) -> Option<Seat> {
        let m = self.current.as_ref()?;
        m.seats.iter().position(|s| s == username).map(|i| Seat(i as u8))
    }

    /// What `conn` may see: its cached viewer (see [`Room::refresh_viewers`]).
    pub(super) fn viewer_of(&self, conn: ConnId) -> Viewer {
        let viewer = self.conns.get(&conn).map_or(Viewer::Spectator, |c| c.viewer);
        debug_assert_eq!(viewer, self.work_out_viewer(conn), "a connection's cached viewer is stale");
        viewer
    }

    /// What `conn` may see, worked out from its member and the match's seats.
    fn work_out_viewer(&self, conn: ConnId) -> Viewer {
        let seat = self.conns.get(&conn).and_then(|c| c.member.as_deref()).and_then(|n| self.seat_of(n));
        seat.map_or(Viewer::Spectator, Viewer::seat)
    }

    /// Works out every connection's viewer again; called whenever who is who changes (a
    /// member joins, comes back, leaves; a match starts or ends), which [`Room::save`] marks.
    pub(super) fn refresh_viewers(&mut self) {
        let viewers: Vec<(ConnId, Viewer)> = self.conns.keys().map(|&c| (c, self.work_out_viewer(c))).collect();
        for (conn, viewer) in viewers {
            if let Some(c) = self.conns.get_mut(&conn) {
                c.viewer = viewer;
            }
        }
    }

    /// Whether the member `m` plays in the running game (seated and not out of it), read from
    /// the spectator's `table`.
    pub(super) fn in_game(&self, m: &Member, table: Option<&Table<'_, A::G>>) -> Option<Seat> {
        let table = table?;
        self.seat_of(&m.username).filter(|&seat| A::in_game(table, seat))
    }

    /// Starts a match with the room's players: asked by the host on `conn`, or by the room
    /// itself (`None`: a quick-play table, whose refusals are logged).
    pub(super) async fn start(&mut self, conn: Option<ConnId>) {
        let fail = |room: &Self, code: &str, reason: &str| match conn {
            Some(conn) => room.fail(conn, code, reason),
            None => tracing::warn!(room = %room.id, code, "the quick-play game did not start: {reason}"),
        };
        let seated: Vec<usize> = (0..self.members.len()).filter(|&i| !self.members[i].spectator).collect();
        if seated.len() < A::MIN_PLAYERS {
            return fail(self, codes::NOT_ENOUGH_PLAYERS, &format!("at least {} players are needed", A::MIN_PLAYERS));
        }
        if seated.len() > A::MAX_PLAYERS {
            return fail(self, codes::TOO_MANY_PLAYERS, &format!("at most {} players", A::MAX_PLAYERS));
        }
        let config = match A::config(seated.len(), &self.options.game_options) {
            Ok(c) => c,
            Err(e) => return fail(self, "bad_options", &e),
        };
        let seed = if self.matches_played == 0 && self.options.seed.is_some() {
            self.base_seed
        } else {
            derive_seed(self.base_seed, self.matches_played)
        };
        let setup = self.options.setup.as_deref();
        let game = match crate::setup_rooms::new_game::<A::G>(A::name(), &config, seed, setup, Some(seated.len())) {
            Ok(g) => g,
            Err(e) => return fail(self, e.code, &e.message),
        };
        let mut seats: Vec<String> = seated.iter().map(|&i| self.members[i].username.clone()).collect();
        let mut bot_kinds: Vec<Option<String>> = seated.iter().map(|&i| self.members[i].bot.clone()).collect();
        let mut accounts: Vec<Option<i64>> = seated.iter().map(|&i| self.members[i].account).collect();
        for (name, bot) in A::house_seats(&config) {
            seats.push(name.to_string());
            bot_kinds.push(Some(bot.to_string()));
            accounts.push(None);
        }
        let bots = bot_kinds.iter().map(|b| b.as_deref().and_then(A::bot)).collect();
        let start_events = game.start_events();
        let serials = vec![game.decision().serial];
        self.current = Some(Match {
            game,
            serials,
            seed,
            config,
            seats,
            accounts,
            bot_kinds,
            bots,
            moves: Vec::new(),
            secret: Vec::new(),
            room_moves: Vec::new(),
            started_at: now_ms(),
            stand_in: SeatSet::EMPTY,
            passed_cards: Vec::new(),
        });
        self.waiting_since = None;
        if let Err(e) = self.store.reset_moves_listed(&self.id, self.snapshot(), self.cluster_listing()).await {
            self.note_store_error(&e);
            tracing::error!(room = %self.id, "saving the start failed, the start is refused: {e}");
            // Not stored, so not started (as a move is refused in `act`): a match the store
            // does not know would be lost by a restart or a failover, and its first moves
            // appended to the previous match's log. Nobody has heard of it yet.
            self.current = None;
            let reason = match e {
                store::StoreError::Lost(_) => store_refusal(&e),
                _ => "the game was not started: the server cannot reach its database right now; try again in a moment"
                    .to_string(),
            };
            return fail(self, e.code(), &reason);
        }
        self.saved_whole();
        self.broadcast(&ServerMsg::GameStarted { match_number: self.matches_played });
        self.send_events(&start_events);
        self.sync_all();
    }

    /// An action from `conn`: the `action` of an `Act` packet, or one of the game's own
    /// packets (its text), with the `serial` of the table it was chosen from if the client
    /// sent it. Every refusal is answered with an `ActionFailed` and changes nothing.
    pub(super) async fn on_action_packet(&mut self, conn: ConnId, packet: ActionPacket<'_>, serial: Option<u64>) {
        // Every refusal says the packet's serial back: a client with a move in flight at each
        // of two serials knows which one was refused.
        let fail = |room: &Self, code: &str, reason: &str| room.fail_act(conn, code, reason, serial);
        let Some(i) = self.conn_member(conn) else {
            return fail(self, codes::NOT_JOINED, "join the room first: watchers cannot act");
        };
        let Some(cur) = self.current.as_ref() else {
            return fail(self, codes::NO_GAME, "no game is running");
        };
        let Some(seat) = self.seat_of(&self.members[i].username) else {
            return fail(self, codes::NOT_PLAYING, "you have no seat in the game being played");
        };
        // Checked before the action is read: a stale packet is refused as stale whatever it says.
        if let Some(serial) = serial
            && let Err(reason) = cur.check_serial(seat, serial)
        {
            return fail(self, codes::STALE_ACTION, &reason);
        }
        let (parsed, for_card) = match packet {
            ActionPacket::Act(action, for_card) => (A::parse_act(action, seat, &cur.seats), for_card),
            ActionPacket::Own(text) => (A::parse_action(text, seat, &cur.seats), false),
        };
        let action = match parsed {
            Ok(a) => a,
            Err(PacketError { code, reason }) => return fail(self, code, &reason),
        };
        if for_card {
            // The pass of a window that belongs to a card: noted first (the card is read from
            // the table before the pass moves it on), then played as any pass. Refused, the
            // note goes too.
            let scope = A::pass_scope(&cur.game, seat);
            let Some(scope) = scope.filter(|_| cur.game.timeout_action(seat).as_ref() == Some(&action)) else {
                return fail(self, codes::NOT_OFFERED, "`forCard` goes with a pass in a window of a card");
            };
            let cur = self.current.as_mut().expect("checked");
            let before = cur.passed_cards.get(seat.index()).copied().flatten();
            cur.passed_cards.resize(cur.seats.len(), None);
            cur.passed_cards[seat.index()] = Some(scope.key);
            match self.act(seat, action, By::Player, Some((conn, serial))).await {
                Ok(()) => self.metrics.move_seconds.record(self.packet_at.elapsed()),
                Err(e) => {
                    if let Some(cur) = self.current.as_mut()
                        && let Some(slot) = cur.passed_cards.get_mut(seat.index())
                    {
                        *slot = before;
                    }
                    fail(self, e.code, &e.message);
                }
            }
            return;
        }
        match self.act(seat, action, By::Player, Some((conn, serial))).await {
            // Stored and told: its time from the packet to the last update queued.
            Ok(()) => self.metrics.move_seconds.record(self.packet_at.elapsed()),
            Err(e) => fail(self, e.code, &e.message),
        }
    }

    /// Applies an action for `seat`, stores it, and tells everyone.
    /// `by`: who chose it (the seat's player, or the room for the seat), stored with it.
    /// `mover`: the connection that sent it and the `serial` its packet carried, told `Acted`
    /// once the move is stored, before anything else is sent of it.
    pub(super) async fn act(
        &mut self,
        seat: Seat,
        action: <A::G as Game>::Action,
        by: By,
        mover: Option<(ConnId, Option<u64>)>,
    ) -> Result<(), RuleError> {
        let cur = self.current.as_mut().ok_or_else(RuleError::game_over)?;
        let before = cur.game.to_act();
        let stand_in = cur.stand_in;
        // A secret move (a pilot's unconfirmed choice) is shown to its seat alone: nothing
        // another connection receives or sees may change with it, not even the moment the
        // bots answer (they wait their delay from the last move everyone saw).
        let secret = cur.game.is_secret(seat, &action).then_some(seat);
        let mut events = Vec::new();
        cur.game.apply_into(seat, action.clone(), &mut events)?;
        if secret.is_none() {
            self.last_move_at = Instant::now();
        }
        cur.moves.push(Move::Act { seat, action });
        cur.note_move(secret);
        let entry = by.entry(cur.moves.last().expect("pushed"));
        let index = (cur.moves.len() - 1) as u64;
        if by != By::Player {
            cur.room_moves.push((index as usize, by));
        }
        if let Err(e) = self.store.append_move(&self.id, index, entry).await {
            self.note_store_error(&e);
            // Not stored, so not made: nobody hears of it, and the game is as before it.
            tracing::error!(room = %self.id, "saving a move failed, the move is refused: {e}");
            self.take_back_last_move(stand_in);
            return Err(RuleError::new(e.code(), store_refusal(&e)));
        }
        if let Some((conn, serial)) = mover {
            self.send(conn, super::sync::json(&ServerMsg::Acted { serial, index }));
        }
        self.metrics.moves.increment(1);
        if let Some(seat) = secret {
            // The game promises it changes nothing else (the invariant suite checks it): only
            // the mover's connections hear of it, the others get no packet at all.
            self.send_events_to_seat(&events, seat);
            self.sync_seat(seat);
            return Ok(());
        }
        self.send_events(&events);
        if !A::TURN_PACKETS_FROM_EVENTS {
            self.after_turn_change(before);
        }
        self.finish_if_over().await;
        self.sync_all();
        Ok(())
    }

    pub(super) async fn after_events(&mut self, events: Vec<<A::G as Game>::Event>) {
        if self.current.is_none() {
            self.sync_all();
            return;
        }
        self.send_events(&events);
        self.finish_if_over().await;
        self.sync_all();
    }

    /// If the match is over: record it, announce the winner, and go back to the lobby with
    /// everyone present as players. `false` if the store refused (see [`Room::end_match`]).
    pub(super) async fn finish_if_over(&mut self) -> bool {
        let Some(outcome) = self.current.as_ref().and_then(|c| c.game.outcome()) else { return true };
        let cur = self.current.as_ref().expect("checked");
        let winners: Vec<String> = outcome.winners.iter().map(|s| cur.seats[s.index()].clone()).collect();
        self.end_match(Some(winners)).await
    }

    /// Records the match (won by `winners`, or abandoned: `None`) and goes back to the lobby
    /// with everyone present as players; `true` once that is stored (or there was no match).
    ///
    /// Nothing of the end is told before it is stored: the match is recorded (once per room
    /// and match number, so recording it again — a retry, or a server that restored the room
    /// after its owner recorded it and stopped — replaces the first record), then the room's
    /// snapshot goes back to the lobby with the match's moves cleared. If either write is
    /// refused the room stays exactly as it was, the match still current (its moves are all
    /// stored: a restart or a failover restores it and ends it the same way), and tries again
    /// after [`super::STORE_RETRY`]; `Lost`: the room stops here and its new owner ends it.
    pub(super) async fn end_match(&mut self, winners: Option<Vec<String>>) -> bool {
        let Some(cur) = self.current.as_ref() else { return true };
        let abandoned = winners.is_none();
        let winners = winners.unwrap_or_default();
        let mut result = if abandoned {
            serde_json::json!({ "winners": winners, "abandoned": true })
        } else {
            serde_json::json!({ "winners": winners })
        };
        // What a replay needs besides the seed, config and moves: the rules version that
        // played them, and the position a set-up room's matches start from.
        result[crate::rules_version::RULES_VERSION_KEY] = serde_json::Value::from(<A::G as Game>::RULES_VERSION);
        if let Some(setup) = &self.options.setup {
            result["setup"] = serde_json::Value::from(setup.as_str());
        }
        // Which seats were bots, and of which level: a profile names its opponents by both.
        if cur.bot_kinds.iter().any(Option::is_some) {
            result["bots"] = serde_json::to_value(&cur.bot_kinds).expect("names serialize");
        }
        // The people who played it, by account: their profiles list the match.
        let people = (cur.accounts.iter().enumerate())
            .filter_map(|(seat, account)| {
                let won = !abandoned && winners.contains(&cur.seats[seat]);
                account.map(|account| store::accounts::SeatPerson { seat: seat as u32, account, won })
            })
            .collect();
        let record = store::MatchRecord {
            id: 0,
            room_id: self.id.clone(),
            game: A::name().to_string(),
            seed: cur.seed,
            config: serde_json::to_string(&cur.config).expect("configs serialize"),
            players: serde_json::to_string(&cur.seats).expect("names serialize"),
            log: cur.log_json(),
            result: result.to_string(),
            started_at: cur.started_at,
            ended_at: now_ms(),
            people,
        };
        // The match's number: the room's count of matches played before it (stored in the
        // snapshot written when it started, so a restored room numbers it the same).
        let id = match self.store.record_match(record, self.matches_played).await {
            Ok(id) => id,
            Err(e) => {
                self.note_store_error(&e);
                tracing::error!(room = %self.id, "recording the match failed, its end waits: {e}");
                self.retry_store_later();
                return false;
            }
        };
        // A rated room's people are rated with the match (once per match id: the end tried
        // again after a refusal rates nothing twice).
        if !self.rate_ended(id, (!abandoned).then_some(winners.as_slice())).await {
            self.retry_store_later();
            return false;
        }
        // The lobby state, kept aside until the store has it.
        let before = (
            self.current.take(),
            self.matches_played,
            self.last_match,
            self.last_winner.clone(),
            self.members.iter().map(|m| m.spectator).collect::<Vec<_>>(),
        );
        self.matches_played += 1;
        self.last_match = Some(id);
        self.last_winner = winners.first().cloned();
        // Over the player limit, the latest joiners keep watching.
        let mut seated = 0;
        for m in &mut self.members {
            seated += 1;
            m.spectator = seated > A::MAX_PLAYERS;
        }
        if let Err(e) = self.store.reset_moves_listed(&self.id, self.snapshot(), self.cluster_listing()).await {
            self.note_store_error(&e);
            tracing::error!(room = %self.id, "saving the end failed, the end waits: {e}");
            let (current, played, last_match, last_winner, spectators) = before;
            self.current = current;
            self.matches_played = played;
            self.last_match = last_match;
            self.last_winner = last_winner;
            for (m, spectator) in self.members.iter_mut().zip(spectators) {
                m.spectator = spectator;
            }
            self.retry_store_later();
            return false;
        }
        tracing::info!(room = %self.id, match_id = id, abandoned, "match finished");
        crate::metrics::match_recorded(A::name(), abandoned);
        self.saved_whole();
        self.broadcast(&ServerMsg::GameEnded {
            winner: winners.first().cloned(),
            match_id: Some(id),
            match_number: Some(self.matches_played - 1),
        });
        true
    }
}
