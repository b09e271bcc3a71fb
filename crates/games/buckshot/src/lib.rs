//! # Buckshot — shotgun roulette for 2 to 8 players
//!
//! The rules are `docs/rules/buckshot.md` (from the original design document); this crate
//! is them, exactly. In brief:
//!
//! - Everyone starts with 5 lives (never more). The last player alive wins.
//! - **Round**: items are cleared and each living player is dealt 4 from a fresh item deck;
//!   the chamber is loaded with 1-4 live and 1-4 blank shells in secret order (the counts are
//!   public); a random living player starts. The round ends when the chamber is empty.
//! - **Turn**: use any number of items, then shoot a living player (yourself included). Live:
//!   1 damage (2 with Double Damage), turn over. Blank at yourself: you go again (a new turn).
//!   Blank at another: turn over. At 0 lives a player is out; their shooter takes their items.
//! - **Items**: Skip (the target's next turn is skipped; one pending skip per player; not
//!   yourself), Double Damage, Chamber Check (only the user learns the next shell), Rebalancer
//!   (before the round's first shell, by anyone, in or out of turn: add 1-3 shells of a chosen
//!   kind and reshuffle), Quickshot (two shots this turn; no extra turn from a blank at
//!   yourself), Steal (take another's item and use it at once; not a Steal), Add Life (up to 5;
//!   refused at 5), Shoot Air (fire the next shell into the air, turn over).
//!
//! ## Decisions recorded here
//! - Item deck with n living players, k = ⌈n/2⌉: 3k of each item, k Rebalancers; from round 6
//!   Add Life is replaced by Double Damage. Items are drawn from these counts, which is the same
//!   as dealing from a shuffled deck.
//! - Pending skips are cleared at a new round, with the items (they are item effects).
//! - Double Damage and Quickshot cannot be stacked within a turn (`already_active`).
//! - During a Quickshot's second shot nothing but shooting is allowed (`must_shoot`).
//! - A player who leaves is eliminated with their items discarded ([`engine::Game::leave`]).
//!
//! ## Phases
//! `RoundStart → Turn(current) → [items…] → Shoot | ShootAir → TurnEnd → (next turn | new round
//! | game over)`; `to_act` is the current seat, but a Rebalancer holder may act out of turn
//! while the window is open (it appears in their `legal_actions`).
//!
//! ## Actions
//! [`Action::Shoot`], [`Action::Use`] with an [`ItemUse`], [`Action::Steal`] with the
//! [`ItemUse`] to make of the stolen item. Refusals are [`engine::RuleError`]s with stable codes:
//! `game_over`, `not_playing`, `not_your_turn`, `must_shoot`, `invalid_target`, `no_such_item`,
//! `cannot_target_self`, `target_lacks_item`, `already_skipped`, `already_active`,
//! `rebalancer_window_closed`, `chamber_full`, `lives_full`.

mod action;
mod bots;
mod config;
mod deck;
mod item;
mod legal;
mod mask;
mod round;
mod rules;
mod setup;
mod shell;
mod state;
pub mod text;
mod view;

pub use action::{Action, Event, ItemUse};
pub use bots::{BOTS, Heuristic, bot, foolish};
pub use config::Config;
pub use item::{Item, Items, SeatItems};
pub use shell::{Chamber, Shell};
pub use state::{Buckshot, MAX_LIVES, MAX_SEATS, Quickshot};
pub use view::{PlayerView, View};

use engine::{Decision, DecisionKind, Game, MatchRng, Outcome, RuleError, Seat, SeatSet, SetupError, Viewer};

impl Game for Buckshot {
    const NAME: &'static str = "buckshot";
    /// Raised with every change after which a stored match no longer replays the same.
    const RULES_VERSION: u32 = 1;
    type Config = Config;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn new(config: &Config, seed: u64) -> Result<Self, SetupError> {
        Buckshot::setup(config, seed)
    }

    fn num_seats(&self) -> usize {
        self.players()
    }

    #[inline]
    fn to_act(&self) -> SeatSet {
        if self.winner.is_some() { SeatSet::EMPTY } else { SeatSet::one(self.current) }
    }

    /// Every decision is a turn, and every turn (an extra one after a blank at yourself
    /// included) bumps the turn counter: it is the serial, at no cost to the rules.
    fn decision(&self) -> Decision {
        Decision::new(self.to_act(), DecisionKind::Turn, self.turn)
    }

    #[inline]
    fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        self.legal_into(seat, out);
    }

    #[inline]
    fn apply_into(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) -> Result<(), RuleError> {
        Ok(self.apply_action(seat, action, out)?)
    }

    fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        self.check(seat, action).is_ok()
    }

    fn view(&self, viewer: Viewer) -> View {
        self.make_view(viewer)
    }

    fn view_event(&self, event: &Event, viewer: Viewer) -> Option<Event> {
        match *event {
            Event::ChamberChecked { by, .. } if !viewer.is(by) => Some(Event::ChamberChecked { by, shell: None }),
            _ => Some(event.clone()),
        }
    }

    fn determinize(&self, viewer: Viewer, rng: &mut MatchRng) -> Self {
        let mut g = self.clone();
        let mut live = self.chamber.live();
        let mut blank = self.chamber.blank();
        let known = viewer.as_seat().filter(|s| self.knows_next(*s)).and_then(|_| self.chamber.peek());
        let mut shells: Vec<Shell> = Vec::with_capacity(usize::from(live + blank));
        if let Some(first) = known {
            shells.push(first);
            match first {
                Shell::Live => live -= 1,
                Shell::Blank => blank -= 1,
            }
        }
        shells.extend(Chamber::load(live, blank, rng).shells());
        g.chamber = Chamber::from_shells(&shells);
        g.rng = rng.fork();
        g
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::winner)
    }

    fn leave(&mut self, seat: Seat, out: &mut Vec<Event>) {
        Buckshot::leave(self, seat, out);
    }

    fn start_events(&self) -> Vec<Event> {
        self.round_events().into()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }

    fn candidate_actions(&self, _seat: Seat) -> Vec<Action> {
        // Every action shape, aimed at every seat and one past the table.
        let seats = Seat::all(self.players() + 1);
        let mut uses =
            vec![ItemUse::DoubleDamage, ItemUse::ChamberCheck, ItemUse::Quickshot, ItemUse::AddLife, ItemUse::ShootAir];
        uses.extend([Shell::Live, Shell::Blank].map(|kind| ItemUse::Rebalancer { kind }));
        uses.extend(seats.clone().map(|target| ItemUse::Skip { target }));
        let mut out: Vec<Action> = seats.clone().map(|target| Action::Shoot { target }).collect();
        out.extend(uses.iter().map(|&item| Action::Use { item }));
        for from in seats {
            out.extend(uses.iter().map(|&item| Action::Steal { from, item }));
        }
        out
    }

    fn step_limit(&self) -> usize {
        20_000
    }
}
