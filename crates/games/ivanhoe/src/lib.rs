//! # Ivanhoe — Reiner Knizia's tournament card game, 2 to 5 players
//!
//! The rules and decisions are `docs/rules/ivanhoe.md`. Section numbers (§) in comments refer
//! to the rules reference the engine was first built from, which is not in the repository.
//!
//! ## Rules in short
//! - **Deck** (110): purple 3/4/5/7, red 3/4/5, blue 2–5, yellow 2–4, green 1 (14 each); 8
//!   squires (2), 8 squires (3), 4 maidens (6); 20 action cards. Tokens: 5 per colour.
//! - **Setup**: from seat 0 clockwise, players draw a colour token (put straight back) until
//!   someone draws purple; they start the first tournament. Shuffle, deal 8 each.
//! - **Tournaments**: every player takes part. A turn begins with a (mandatory, automatic)
//!   draw. The starter, after drawing, names a colour they can open with (any colour if they
//!   hold a supporter, else a colour they hold; never purple right after a purple tournament)
//!   and plays a card of it or a supporter first. If they can open with nothing, their hand
//!   is shown and the next player clockwise tries. Then play goes clockwise.
//! - **Playing**: add cards of the tournament colour and supporters (one maiden per display)
//!   to your display; play action cards (each must change something; none may empty a
//!   display — the earliest card stays). In green every card counts 1.
//! - **End of turn**: you stay only if you played a card this turn *and* your total is
//!   strictly higher than every other player still in; otherwise you withdraw, discarding
//!   your display (with a maiden in it you also give back a token of your choice).
//! - **Winning**: the last player in wins the tournament and takes a token of its final
//!   colour (purple: any colour they lack) and starts the next one. First to 5 colours
//!   (2–3 players) or 4 (4–5 players) wins the game.
//! - **Shield** blocks opponents' Break Lance, Riposte, Dodge, Knock Down, and shields the
//!   display from Outmaneuver, Charge, Countercharge, Disgrace and Adapt; not colour changes,
//!   Outwit, Stunned or Ivanhoe. **Stunned**: one card added to the display per turn (Riposte
//!   counts, Outwit does not).
//!
//! ## The Ivanhoe window (reaction to an action card)
//! When an action card is played it leaves the hand and [`Phase::Window`] opens on top of the
//! turn: the declared action waits in an [`engine::flow::WindowStack`] in the state
//! ([`Ivanhoe::window`]), and `to_act()` is **every other player still in the tournament**, not
//! only the holder of Ivanhoe — naming the holder would tell everyone who has it. Each answers
//! `Ivanhoe` (only the holder can) or `Pass`; `Ivanhoe` cancels the card at once (both go to
//! the discard pile, a Shield or Stunned included), the last `Pass` lets it resolve, and the
//! turn goes on. The window is skipped only when Ivanhoe lies face up in the discard pile, a
//! public fact. A timeout answers `Pass`
//! ([`Ivanhoe::default_action`], also `Game::timeout_action`).
//!
//! ## Decisions (`Game::decision`)
//! A turn (`Start`, `Turn`), a response (the window) or a choice (`Adapt`, `MaidenPenalty`,
//! `PurpleToken`). The serial stays while a turn goes on or a window still waits on others,
//! and changes with anything else: a window opening or closing, a new turn, each Adapt choice.
//!
//! ## Phases ([`Phase`])
//! `Start` (starter opens) → `Turn` (active player plays, ends turn) ⇄ `Window` (answers to an
//! action card) → `Adapt` (owners choose what to keep, when copies of a value differ) →
//! `MaidenPenalty` (withdrawing with a maiden and two or more tokens) → `PurpleToken` (the
//! winner of a purple tournament picks a token, when there is a choice) → `Over`.
//! Choices with exactly one option (one token to give back, one token to take, identical
//! copies under Adapt) are made by the engine.
//!
//! ## Actions ([`Action`])
//! `Start{colour,card}`, `Play{card}`, one variant per action card with its choices
//! (`Dodge{target,pos}`, `Outwit{give,target,take}`, ...), `EndTurn`, `Ivanhoe`, `Pass`,
//! `Keep{card}`, `ReturnToken{colour}`, `ChooseToken{colour}`. Refusals (one enum of reasons,
//! `legal/refusal.rs`) leave the crate as
//! [`engine::RuleError`]s with stable codes (`not_in_hand`, `wrong_colour`, `maiden_limit`,
//! `stunned`, `shielded`, `last_card`, `no_effect`, `purple_twice`, ...).
//!
//! ## Hidden information
//! Views hold the viewer's own hand and counts of the others; the draw pile is a count. The
//! card drawn and the card taken by Knock Down are shown only to those who may see them.
//! `determinize` redeals the unseen hands and the draw pile.

pub mod action;
pub mod bots;
pub mod cards;
pub mod config;
mod legal;
mod rules;
pub mod setup;
pub mod state;
pub mod text;
pub mod view;

pub use action::{Action, Event, Slot};
pub use bots::{BOTS, HeuristicBot, bot};
pub use cards::{Card, Colour, Colours};
pub use rules::first_player;
pub use state::{Config, Ivanhoe, Phase};
pub use view::{PhaseView, PlayerView, View};

use engine::{Decision, DecisionKind, Game, MatchRng, Outcome, RuleError, Seat, SeatSet, SetupError, Viewer};

impl Game for Ivanhoe {
    const NAME: &'static str = "ivanhoe";
    /// Raised with every change after which a stored match no longer replays the same.
    const RULES_VERSION: u32 = 1;
    type Config = Config;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn new(config: &Config, seed: u64) -> Result<Self, SetupError> {
        Ivanhoe::new_with_events(config, seed).map(|(g, _)| g)
    }

    fn num_seats(&self) -> usize {
        self.num_players()
    }

    // `to_act` and `legal_actions_into` run at every step of every playout, from the
    // engine's generic loop in another crate: inlinable, they cost no extra call.
    #[inline]
    fn to_act(&self) -> SeatSet {
        self.waiting_on()
    }

    fn decision(&self) -> Decision {
        let kind = match self.phase {
            Phase::Start | Phase::Turn | Phase::Over { .. } => DecisionKind::Turn,
            Phase::Window => DecisionKind::Response,
            Phase::Adapt { .. } | Phase::MaidenPenalty | Phase::PurpleToken { .. } => DecisionKind::Choice,
        };
        Decision::new(self.waiting_on(), kind, self.decisions.get())
    }

    #[inline]
    fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        self.legal_into(seat, out);
    }

    fn apply_into(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check(seat, &action)?;
        let before = (std::mem::discriminant(&self.phase), self.active, self.decisions);
        self.execute(seat, action, out);
        // The same decision goes on while a turn continues (a card played, a pass that leaves
        // the window open); anything else opens a new one (each Adapt choice too). A window
        // that opened or closed has numbered its decision already.
        let goes_on = before == (std::mem::discriminant(&self.phase), self.active, self.decisions)
            && matches!(self.phase, Phase::Turn | Phase::Window);
        if !goes_on && self.decisions == before.2 {
            self.decisions.bump();
        }
        Ok(())
    }

    fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        self.verdict(seat, action).is_ok()
    }

    fn view(&self, viewer: Viewer) -> View {
        self.make_view(viewer)
    }

    fn view_event(&self, event: &Event, viewer: Viewer) -> Option<Event> {
        Some(match *event {
            Event::Drew { seat, card } if !viewer.is(seat) => Event::Drew { seat, card: card.and(None) },
            Event::Took { seat, from, card } if !viewer.is(seat) && !viewer.is(from) => {
                Event::Took { seat, from, card: card.and(None) }
            }
            _ => event.clone(),
        })
    }

    fn determinize(&self, viewer: Viewer, rng: &mut MatchRng) -> Self {
        self.resample(viewer.as_seat(), rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.phase {
            Phase::Over { winner } => Some(Outcome { winners: winner.map_or(SeatSet::EMPTY, SeatSet::one) }),
            _ => None,
        }
    }

    fn check_invariants(&self) -> Result<(), String> {
        let census = self.census();
        if census != Card::COPIES {
            let diff: Vec<String> = Card::ALL
                .into_iter()
                .filter(|c| census[c.index()] != Card::COPIES[c.index()])
                .map(|c| format!("{c}: {} not {}", census[c.index()], Card::COPIES[c.index()]))
                .collect();
            return Err(format!("card conservation: {}", diff.join(", ")));
        }
        for c in Colour::ALL {
            let held = self.players.values().filter(|p| p.tokens.contains(c)).count() as u8;
            if held + self.supply(c) != 5 {
                return Err(format!("{c} tokens: {held} held + {} in supply", self.supply(c)));
            }
        }
        for (s, p) in self.players.iter() {
            if p.withdrawn && !p.display.is_empty() {
                return Err(format!("{s} withdrew but has a display"));
            }
            if p.withdrawn && (self.shield == Some(s) || self.stunned == Some(s)) {
                return Err(format!("{s} withdrew but keeps a face-up card"));
            }
            if p.display.iter().filter(|c| c.is_maiden()).count() > 1 {
                return Err(format!("{s} has two maidens"));
            }
            if p.display.iter().any(|c| c.is_action()) {
                return Err(format!("{s} has an action card in their display"));
            }
        }
        if matches!(self.phase, Phase::Window) == self.windows.is_empty() {
            return Err(format!("phase {:?} with {} window(s) open", self.phase, self.windows.depth()));
        }
        let running = !matches!(self.phase, Phase::Over { .. } | Phase::PurpleToken { .. } | Phase::Start);
        if running {
            if self.colour.is_none() {
                return Err("a tournament is running without a colour".into());
            }
            if self.in_tournament().len() < 2 && !matches!(self.phase, Phase::PurpleToken { .. }) {
                return Err("a tournament is running with fewer than two players".into());
            }
            if self.players[self.active].withdrawn {
                return Err("the active player has withdrawn".into());
            }
        }
        if matches!(self.phase, Phase::Start) && self.allowed_colours(self.active).is_empty() {
            return Err("the starter cannot open".into());
        }
        Ok(())
    }

    fn candidate_actions(&self, seat: Seat) -> Vec<Action> {
        let mut v = Vec::new();
        self.candidates(seat, &mut v, true);
        v
    }

    fn step_limit(&self) -> usize {
        200_000
    }

    fn timeout_action(&self, seat: Seat) -> Option<Action> {
        self.default_action(seat)
    }

    fn start_events(&self) -> Vec<Event> {
        if self.opening.is_empty() {
            return Vec::new(); // a position built by `setup`, not dealt
        }
        let seat = Seat(((self.opening.len() - 1) % self.num_players()) as u8);
        vec![Event::FirstPlayer { seat, draws: self.opening.clone() }]
    }
}
