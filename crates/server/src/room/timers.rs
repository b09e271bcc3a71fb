//! The room's clocks: bots' moves after their delay, a disconnected player's turn timer, a
//! decision's own timeout (keyed on the engine's decision serial), and seat holds.
//!
//! An absent player (disconnected, or gone from the room) is waited for once: when their turn
//! timer runs out a stand-in bot (`adapter::STAND_IN_LEVEL`) takes the seat, with a
//! `ShowAlert` to everyone, and plays every decision of it at the bots' pace until the person
//! comes back (`Reconnect`), in every game alike.

use super::Room;
use super::clock::later;
use super::state::{By, Match, Member};
use crate::adapter::GameAdapter;
use engine::{DecisionKind, Game, Observation, Seat};
use protocol::ServerMsg;
use std::time::Duration;
use tokio::time::Instant;

/// Why the room passes for a connected person without waiting on them: the moment is drawn
/// at random per decision in the pace's range (`Pace::quiet_pass_ms`: about when a person who
/// holds an answer and lets it go clicks Pass, so that all look alike to the table) from the
/// room's own generator (seeded by the OS, not by the match seed), so it cannot be predicted
/// either; the clock every page shows is the full one in every case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AutoPass {
    /// Pass is all they can do (`GameAdapter::only_passes`).
    OnlyPass,
    /// They passed on this card as a whole (`Act` with `forCard`).
    ForCard,
    /// The window is on their own card and they did not ask for those (`SetPrompts`).
    OwnCard,
}

impl AutoPass {
    /// The `autoPass` value of the seat's `gameData`.
    pub(super) fn name(self) -> &'static str {
        match self {
            AutoPass::OnlyPass => "onlyPass",
            AutoPass::ForCard => "forCard",
            AutoPass::OwnCard => "ownCard",
        }
    }
}

/// The least a bot of `level` may think in a window (its search's time cap; the levels without
/// a search answer at once).
fn think_cap(level: Option<&str>) -> Duration {
    match level {
        Some("expert") => Duration::from_millis(600),
        Some("hard") => Duration::from_millis(250),
        _ => Duration::ZERO,
    }
}

/// Who plays a seat when its deadline comes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Due {
    /// Its bot, or the stand-in of an absent person.
    Bot,
    /// A connected person's decision clock ran out: the game's default answer.
    Clock,
    /// An absent person's turn timer ran out: a stand-in takes the seat.
    Absent,
}

impl<A: GameAdapter> Room<A> {
    /// When `seat` (one of those to act, waiting since `since`) should be played for, and by
    /// whom: after the bot delay for a bot or a stand-in; after the decision's own clock for a
    /// connected person (if it has one); after the turn timer for an absent person (counted
    /// from their turn or their drop, whichever is later).
    pub(super) fn seat_deadline(
        &self,
        cur: &Match<A::G>,
        seat: Seat,
        kind: DecisionKind,
        since: Instant,
    ) -> Option<(Instant, Due)> {
        let piloted = self.autopilot.contains_key(&cur.seats[seat.index()]);
        if cur.bots[seat.index()].is_some() || cur.stand_in.contains(seat) || piloted {
            let from = since.max(self.last_move_at);
            // In a window the bot starts thinking `window_think` early and answers at the delay
            // whatever it holds (`on_timer`).
            let delay = self.bot_delay(cur, kind);
            return Some((later(from, delay - self.window_think(cur, kind)), Due::Bot));
        }
        let turn = Duration::from_secs(self.options.turn_seconds);
        match self.seated(cur, seat) {
            Some(m) if m.conn.is_some() => A::decision_timeout(&cur.game, seat, kind, &self.options.game_options)
                .filter(|_| cur.game.timeout_action(seat).is_some())
                .map(|d| (later(since, d), Due::Clock)),
            Some(m) => {
                let from = m.dropped_at.map_or(since, |d| d.max(since));
                Some((later(from, turn), Due::Absent))
            }
            // Left the room and still seated (the game did not eliminate them).
            None => Some((later(since, turn), Due::Absent)),
        }
    }

    /// When the room acts for `seat`: its [`Self::seat_deadline`], or for a connected person
    /// who can only pass (`GameAdapter::only_passes`) the earlier moment `quiet_pass` drawn for
    /// this decision. Pages are shown `seat_deadline` alone, the same clock as for a seat that
    /// could answer.
    pub(super) fn act_deadline(
        &self,
        cur: &Match<A::G>,
        seat: Seat,
        kind: DecisionKind,
        since: Instant,
    ) -> Option<(Instant, Due)> {
        let shown = self.seat_deadline(cur, seat, kind, since)?;
        if shown.1 != Due::Clock || self.auto_pass(cur, seat).is_none() {
            return Some(shown);
        }
        Some((shown.0.min(later(since, self.quiet_pass)), Due::Clock))
    }

    /// Whether (and why) the room passes for the connected person at `seat` in the decision
    /// open now without waiting on them: they can only pass, they passed on this card as a
    /// whole, or it is their own card and they did not ask for those.
    pub(super) fn auto_pass(&self, cur: &Match<A::G>, seat: Seat) -> Option<AutoPass> {
        let member = self.seated(cur, seat).filter(|m| m.conn.is_some() && m.bot.is_none())?;
        if cur.bots[seat.index()].is_some() || cur.stand_in.contains(seat) {
            return None;
        }
        if A::only_passes(&cur.game, seat) {
            return Some(AutoPass::OnlyPass);
        }
        let scope = A::pass_scope(&cur.game, seat)?;
        if cur.passed_cards.get(seat.index()).copied().flatten() == Some(scope.key) {
            Some(AutoPass::ForCard)
        } else if scope.own && !member.own_cards {
            Some(AutoPass::OwnCard)
        } else {
            None
        }
    }

    /// The member who holds `seat`, if they are still in the room.
    fn seated(&self, cur: &Match<A::G>, seat: Seat) -> Option<&Member> {
        let name = &cur.seats[seat.index()];
        self.members.iter().find(|m| &m.username == name)
    }

    /// How long a bot waits before it acts: the room's `botDelayMs`; in a reaction window at
    /// most the pace's `window_bot_ms`, but never less than the slowest seated bot (or
    /// stand-in) may think there, so that a bot's answer comes at the same moment whatever
    /// it holds.
    fn bot_delay(&self, cur: &Match<A::G>, kind: DecisionKind) -> Duration {
        let delay = Duration::from_millis(self.options.bot_delay_ms);
        let cap = A::pace(&self.options.game_options).window_bot_ms;
        match cap {
            Some(cap) if kind == DecisionKind::Response => {
                let slowest = cur
                    .bot_kinds
                    .iter()
                    .map(|k| think_cap(k.as_deref()))
                    .chain([think_cap(Some(crate::adapter::STAND_IN_LEVEL))])
                    .max()
                    .unwrap_or_default();
                delay.min(Duration::from_millis(cap).max(slowest))
            }
            _ => delay,
        }
    }

    /// How long before its delay is up a bot starts thinking in a reaction window, and so the
    /// least time it takes to answer there: the `expert` level's time cap, within the delay.
    fn window_think(&self, cur: &Match<A::G>, kind: DecisionKind) -> Duration {
        let cap = if kind == DecisionKind::Response { Duration::from_millis(600) } else { Duration::ZERO };
        cap.min(self.bot_delay(cur, kind))
    }

    /// The earliest of: a bot's move, a disconnected player's turn timer, a hold expiring.
    pub(super) fn next_deadline(&mut self) -> Option<Instant> {
        let mut best: Option<Instant> = self.quick_deadline;
        let hold = Duration::from_secs(self.options.hold_seconds);
        for m in &self.members {
            if let Some(at) = m.dropped_at {
                let until = later(at, hold);
                best = Some(best.map_or(until, |b| b.min(until)));
            }
        }
        if let Some(cur) = &self.current {
            let decision = cur.game.decision();
            let since = match self.waiting_since {
                // The same decision (someone in a window answered): the others' clock keeps running.
                Some((serial, at)) if serial == decision.serial => at,
                _ => {
                    let now = Instant::now();
                    self.waiting_since = Some((decision.serial, now));
                    let (lo, hi) = A::pace(&self.options.game_options).quiet_pass_ms;
                    self.quiet_pass = Duration::from_millis(u64::from(self.rng.range_inclusive(lo, hi)));
                    now
                }
            };
            for seat in decision.seats.iter() {
                if let Some((t, _)) = self.act_deadline(cur, seat, decision.kind, since) {
                    best = Some(best.map_or(t, |b| b.min(t)));
                }
            }
        }
        best
    }

    pub(super) async fn on_timer(&mut self) {
        let now = Instant::now();
        if self.quick_deadline.is_some_and(|d| d <= now) {
            return self.on_quick_deadline().await;
        }
        let hold = Duration::from_secs(self.options.hold_seconds);
        if let Some(i) = self.members.iter().position(|m| m.dropped_at.is_some_and(|at| later(at, hold) <= now)) {
            // Not back in time: the seat is given up (a move, stored first; refused, it is tried
            // again after the store's retry wait).
            if self.leave(i, false).await.is_err() {
                self.retry_store_later();
            }
            return;
        }
        let Some(cur) = self.current.as_ref() else { return };
        let Some((_, since)) = self.waiting_since else { return };
        let decision = cur.game.decision();
        let due = decision.seats.iter().find_map(|seat| {
            self.act_deadline(cur, seat, decision.kind, since).filter(|(t, _)| *t <= now).map(|(_, d)| (seat, d))
        });
        let Some((seat, due)) = due else { return };
        let cur = self.current.as_mut().expect("checked");
        match due {
            Due::Bot => {}
            // A connected person let the decision's clock run out: the game's default answer.
            Due::Clock => {
                if let Some(a) = cur.game.timeout_action(seat) {
                    let _ = self.act(seat, a, By::Clock, None).await;
                }
                return;
            }
            // An absent person's turn timer ran out: a stand-in plays the seat from now on,
            // until they come back.
            Due::Absent => {
                cur.stand_in.insert(seat);
                let text = format!(
                    "{} is offline: a {} bot plays for them until they come back",
                    cur.seats[seat.index()],
                    crate::adapter::STAND_IN_LEVEL
                );
                self.broadcast(&ServerMsg::ShowAlert { text });
            }
        }
        let cur = self.current.as_mut().expect("checked");
        let legal = cur.game.legal_actions(seat);
        if legal.is_empty() {
            return;
        }
        let mut bot_rng = self.rng.fork();
        // A bot thinks on tokio's blocking pool, on its own copy of the match: a searching
        // level (`hard`, `expert`) may think for hundreds of milliseconds, which must not hold
        // a worker that other rooms' connections run on. The room waits for the answer (it has
        // nothing else to do for this decision) and keeps its bot afterwards.
        let seated = cur.bots[seat.index()].take();
        let keep = seated.is_some();
        // A person who handed their seat to a bot (`Autopilot`) has it play as them.
        let pilot = if keep { None } else { self.autopilot.get(&cur.seats[seat.index()]).cloned() };
        let noise = pilot.as_ref().map_or(0.0, |p| p.1);
        let mut bot =
            seated.or_else(|| pilot.as_ref().and_then(|(level, _)| A::bot(level))).unwrap_or_else(A::stand_in_bot);
        let game = cur.game.clone();
        // The level it plays at (the stand-in's for a stand-in), for its think time.
        let level = match cur.bot_kinds[seat.index()].as_deref() {
            Some(kind) if keep => crate::metrics::bot_level(kind, A::bot_names()),
            _ => crate::adapter::STAND_IN_LEVEL,
        };
        let think = self.current.as_ref().map_or(Duration::ZERO, |c| self.window_think(c, decision.kind));
        let started = Instant::now();
        let thinking = tokio::task::spawn_blocking(move || {
            let thought = std::time::Instant::now();
            // The noise of a simulated person: now and then a legal move at random.
            let action = if noise > 0.0 && f64::from(bot_rng.next_u32()) < noise * f64::from(u32::MAX) {
                bot_rng.pick(&legal).clone()
            } else {
                bot.choose(&Observation::new(&game, seat, &legal), &mut bot_rng)
            };
            crate::metrics::bot_thought(A::name(), level, thought.elapsed());
            (bot, action)
        });
        let (bot, action) = match thinking.await {
            Ok(answer) => answer,
            // A bot that panicked is a bug; it costs this room, as it did on the room's task.
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            // The runtime is shutting down: nothing to play.
            Err(_) => return,
        };
        // A search with nothing to answer with returns at once, one holding a Negate thinks:
        // in a window every bot answers `think` after it started, so the moment tells nothing.
        if !think.is_zero() {
            tokio::time::sleep_until(started + think).await;
        }
        if keep && let Some(cur) = self.current.as_mut() {
            cur.bots[seat.index()] = Some(bot);
        }
        // Each bot move waits its own delay (from `last_move_at`), so people can follow a
        // bot's item-by-item turn; the window clocks of the others keep running.
        // The seat's own bot plays as its player; a stand-in plays for the room.
        let by = if keep || pilot.is_some() { By::Player } else { By::StandIn };
        if let Err(e) = self.act(seat, action, by, None).await {
            tracing::error!(room = %self.id, "a bot's move was refused: {e}");
        }
    }
}
