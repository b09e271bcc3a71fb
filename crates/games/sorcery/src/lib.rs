//! # Sorcery — a two-player collectible card game (CS246 Spring 2025)
//!
//! ## Rules
//! Each player starts with 20 life, 3 magic and 5 cards drawn from their own deck (shuffled,
//! except in testing mode, where the first line of the deck file is the top). Player 1 goes
//! first. A player whose life reaches 0 loses. Hands hold at most 5 cards, boards at most 5
//! minions and one ritual; a full hand leaves a drawn card on the deck.
//!
//! Cards (the table is data, in [`cards`]): **minions** (attack/defence, maybe an activated
//! ability paid in magic and an action, maybe a triggered ability), **spells** (resolve and
//! leave the game), **enchantments** (stay on a minion, applied oldest to newest over its own
//! values; removed from the game when it leaves play), **rituals** (one per player; a
//! triggered ability that spends `activation cost` charges and does nothing without them).
//!
//! Minions keep their own values (damage, permanent buffs) when they change zones. A minion at
//! 0 defence or less dies at once and goes on top of its owner's graveyard.
//!
//! ## Phases
//! A turn: gain 1 magic → draw (if the deck has a card and the hand room) → ready own minions
//! (1 action, +1 per Haste) → "start of your turn" triggers → actions until `End` → "end of
//! your turn" triggers → the other player's turn. Turn 1 is an ordinary turn.
//!
//! Triggers (start/end of turn, a minion enters play, a minion leaves play) and everything
//! they cause are [`queue::Effect`] values on a queue worked to completion, in APNAP order
//! (the active player's minions left to right, then their ritual, then the same for the other
//! player). Deaths are checked after every effect and resolved before the rest of the queue.
//!
//! ## Actions ([`Action`], 0-based indices)
//! `End`; `Attack { minion, target }` (a player or an opposing minion; the attacker hits
//! first, the defender hits back with the attack it had when the fight began); `Play { card,
//! target }`; `Use { minion, target }`; in testing mode `Draw` and `Discard { card }`. Testing
//! mode also lets a card or ability be paid with too little magic (magic goes to 0).
//!
//! Additions to the spec for bots and simulations ([`Config`]): an optional turn limit and a
//! stalemate rule, both drawn games. The terminal game ([`Config::terminal`]) uses neither.
//!
//! The terminal interface ([`session`]) and the exact text layouts ([`text`]) are pure too: the
//! binary feeds lines in and prints what comes out. Tests build positions with a compact
//! notation ([`Sorcery::from_setup`]) and compare [`Sorcery::summary`] clauses.
//!
//! Decisions where the spec is silent are recorded in `docs/rules/sorcery.md`; the one
//! departure is the return hit of a fight, which uses the defender's attack from when the
//! fight began (the reference suggests its attack after the first hit resolved; they differ
//! only for a dying Bone Golem or an enchanted defender that dies).

pub mod action;
pub mod bots;
pub mod cards;
pub mod config;
pub mod deck;
pub mod effect;
mod legal;
pub mod queue;
mod rules;
pub mod session;
mod setup;
pub mod state;
pub mod text;
pub mod view;

pub use action::{Action, Event, Target};
pub use cards::{CardId, DEFAULT_DECK};
pub use state::{Card, Config, Sorcery, Status};
pub use view::View;

use engine::{Decision, DecisionKind, Game, MatchRng, Outcome, RuleError, Seat, SetupError, Viewer};

engine::bot_table!(Sorcery {
    "random" => engine::RandomBot,
    "heuristic" => bots::HeuristicBot,
});

impl Game for Sorcery {
    const NAME: &'static str = "sorcery";
    /// Raised with every change after which a stored match no longer replays the same.
    const RULES_VERSION: u32 = 1;
    type Config = Config;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn new(config: &Config, seed: u64) -> Result<Self, SetupError> {
        Sorcery::setup(config, seed)
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn to_act(&self) -> engine::SeatSet {
        match self.status {
            Status::Playing => engine::SeatSet::one(self.active),
            _ => engine::SeatSet::EMPTY,
        }
    }

    /// Sorcery only ever waits on the active player's turn (triggers resolve without asking
    /// anyone), so the turn number is the serial.
    fn decision(&self) -> Decision {
        Decision::new(self.to_act(), DecisionKind::Turn, self.turn)
    }

    fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        self.legal_into(seat, out);
    }

    fn apply_into(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.apply_checked(seat, action, out)
    }

    fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        self.check(seat, action).is_ok()
    }

    fn view(&self, viewer: Viewer) -> View {
        self.make_view(viewer)
    }

    fn view_event(&self, event: &Event, viewer: Viewer) -> Option<Event> {
        Some(self.redact(event, viewer))
    }

    fn determinize(&self, viewer: Viewer, rng: &mut MatchRng) -> Self {
        self.resample(viewer, rng)
    }

    fn leave(&mut self, seat: Seat, out: &mut Vec<Event>) {
        if self.status == Status::Playing {
            let winner = state::other(seat);
            self.status = Status::Won { winner };
            out.push(Event::Conceded { player: seat });
            out.push(Event::GameWon { winner });
        }
    }

    fn start_events(&self) -> Vec<Event> {
        self.opening_events()
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.status {
            Status::Playing => None,
            Status::Won { winner } => Some(Outcome::winner(winner)),
            Status::Drawn => Some(Outcome { winners: engine::SeatSet::EMPTY }),
        }
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }

    fn candidate_actions(&self, _seat: Seat) -> Vec<Action> {
        self.candidates()
    }

    fn step_limit(&self) -> usize {
        // Every action but `End` uses up a card, an action, magic or a draw, and a turn has
        // few of those; 200 steps per turn is far above anything reachable.
        self.turn_limit.map_or(10_000_000, |t| t as usize * 200)
    }
}
