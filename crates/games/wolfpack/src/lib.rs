//! # Wolf Pack — 1 to 5 co-operative pilots against the Ace
//!
//! The rules are [docs/rules/wolfpack.md](../../../../docs/rules/wolfpack.md) (from the design
//! document); this crate is them. The balance table is in `docs/rules/wolfpack-balance.md`.
//! In brief:
//!
//! - **Sides.** Pilots (seats `0..pilots`): 50 health (the maximum), hands of up to 3, one card
//!   a turn. The Ace (the last seat): 250 health, a hand of up to 5, three cards a turn (its
//!   health and plays scale with the pilot count for balance: [`config::ACE_SCALE`]). The
//!   pilots win or lose together: the Ace at 0 and they win; every pilot at 0 and the Ace
//!   does. A pilot at 0 is shot down: out of the fight, its effects ended, its hand and any
//!   unresolved card discarded.
//! - **Cards** ([`Card`], counts in [`Config`]): Open Fire (5 damage), Sidewinder (5, not
//!   negated by Dodge Roll), Dodge Roll (negates the next Open Fire / Sweeping Fire hit on its
//!   target in the next opposing turn), Suppression (2 damage on each of the target's next 4
//!   plays, gone after 2 of its turns), Pulling G's (the target may not target the user on its
//!   next turn); pilots only: Mid-Air Regroup (heal 10, up to 50), Cover Fire (the Ace plays
//!   one card fewer next turn); the Ace only: Into the Fog (pilots may not target each other
//!   next turn), Air-to-Air Barrage (10 damage), Sweeping Fire (5 to each pilot not protected
//!   by Pulling G's). Open Fire, Sidewinder, Suppression, Pulling G's and Barrage aim at the
//!   other side; Dodge Roll and Regroup at one's own (oneself included); no friendly fire.
//!   Both decks reshuffle their discard piles when a draw finds them empty.
//!
//! ## Phases: the turn state machine ([`Phase`], [`Transition`])
//! `Draw → Selection → Action ↺ → Confirm → BossDraw → BossSelection ↺ (×3, ×2 under Cover
//! Fire) → BossAction ↺ → BossPhaseConfirm → Draw …`. Every transition runs its Enter
//! delegate, its logic, then its Exit delegate (on entry to the new state), and effects hook
//! in there ([`effect`]): "selection" effects (Pulling G's, Into the Fog, Cover Fire) proc on
//! entry to the opposing Selection; "next turn" effects complete on entry to that turn's
//! Confirm / BossPhaseConfirm, where Suppression also counts its target's turns down;
//! Suppression's per-action damage procs in Action, from the player's OnAct delegate, just
//! before the player's card resolves. Damage goes through the target's OnDamaged delegate
//! (Dodge Roll), targeting through the origin's OnTarget delegate (Pulling G's, Into the Fog),
//! shot-down pilots' effects end from their OnDeath delegate.
//!
//! - **Draw** (automatic): each living pilot draws up to 3, less its discard debt.
//! - **Selection** (simultaneous, hidden): every living pilot chooses a card and its target,
//!   or discards k ≥ 1 cards instead (and draws k − 1 fewer next Draw), and confirms; a
//!   choice may change until confirmed and stays private until everyone has confirmed (views
//!   show who has confirmed, not what).
//! - **Action** (automatic, one card per state, seat order; none when every pilot discarded:
//!   Selection then goes straight to Confirm). **Confirm**: the host (the lead pilot, the
//!   lowest seat still flying; not the room's host) hands the turn to the Ace.
//! - **BossDraw** (automatic, up to 5). **BossSelection**: the Ace picks a card and target per
//!   state (hidden from pilots until they resolve), or passes when nothing is playable.
//!   **BossAction** (automatic, one per picked card; none for a passed pick, so an Ace that
//!   passed every pick goes straight to BossPhaseConfirm). **BossPhaseConfirm**: the host
//!   hands the turn back.
//!
//! The Ace is a seat whose moves come from an Ace policy ([`ace_bot`]: `rookie`, `veteran`,
//! `ace`), so every fight is a replay of `seed + [(seat, action)]`.
//!
//! ## Actions ([`Action`], hand indices from 0)
//! Pilots in Selection: `Select { card, target, confirm }`, `Discard { cards (bit mask),
//! confirm }`, `Confirm`. The Ace in BossSelection: `Play { card, target }`, `Pass`. The host
//! in Confirm / BossPhaseConfirm: `Proceed` (also its [`engine::Game::timeout_action`], so a
//! room may auto-confirm; bots proceed at once). Refusal codes: `game_over`, `not_selection`,
//! `not_a_pilot`, `shot_down`, `already_confirmed`, `empty_hand`, `no_such_card`,
//! `invalid_target`, `bad_discard`, `nothing_to_confirm`, `not_ace_selection`, `must_play`,
//! `not_confirm`, `not_host`.
//!
//! ## Decisions beyond the rules file
//! - Cover Fire: the Ace plays one card fewer than its configured plays (3 → 2 as written; at
//!   a table where the Ace plays one card, none);
//!   two Cover Fires do not stack.
//! - The per-action hook Suppression needs is a seventh delegate, OnAct; OnSelect fires when
//!   a selection becomes final (the Ace's pick, a pilot's at the reveal); OnCardDraw and
//!   OnTargeted fire but no card hooks them.
//! - The Action queue (a `VecDeque`) and the EffectFile (`Vec`s) are plain data worked inside
//!   `apply`. The Action queue is not an `engine::flow::EffectQueue`: it resolves one card per
//!   Action state with a state transition (and its delegates) between cards, where that queue works follow-ups
//!   to completion without stopping; triggers fire at once and cause no follow-ups to queue.
//!   [`engine::flow::Decision`] names the waits: Selection is one simultaneous decision.

pub mod action;
pub mod bots;
pub mod cards;
pub mod config;
pub mod effect;
pub mod fast;
mod legal;
pub mod out;
pub mod phase;
mod rules;
mod setup;
pub mod state;
pub mod text;
pub mod view;

pub use action::{Action, Choice, Event, Revealed};
pub use bots::{BOTS, PILOT_BOTS, ace_bot, bot, lineup, lineup_named};
pub use cards::{Aim, Card, Side};
pub use config::{AceTier, Config, DeckCounts};
pub use effect::{Effect, EffectFile, Hook, Kind};
pub use phase::{Phase, Stage, Transition};
pub use state::WolfPack;
pub use view::View;

use engine::flow::{Decision, DecisionKind};
use engine::{Game, MatchRng, Outcome, RuleError, Seat, SeatSet, SetupError, Viewer};

impl Game for WolfPack {
    const NAME: &'static str = "wolfpack";
    /// Raised with every change after which a stored match no longer replays the same.
    const RULES_VERSION: u32 = 1;
    type Config = Config;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn new(config: &Config, seed: u64) -> Result<Self, SetupError> {
        WolfPack::setup(config, seed, &mut Vec::new())
    }

    fn num_seats(&self) -> usize {
        self.pilots.len() + 1
    }

    fn to_act(&self) -> SeatSet {
        self.acting()
    }

    /// Selection is simultaneous (one decision while pilots confirm one by one); each of the
    /// Ace's picks and each host confirm is a turn of its own.
    fn decision(&self) -> Decision {
        let kind = if self.phase == Phase::Selection { DecisionKind::Simultaneous } else { DecisionKind::Turn };
        Decision::new(self.acting(), kind, self.serial.get())
    }

    fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        self.legal_into(seat, out);
    }

    /// Drawn by index from the hand's target masks, without the list ([`WolfPack::random_action`]).
    fn random_legal_action(&self, seat: Seat, rng: &mut MatchRng, _scratch: &mut Vec<Action>) -> Option<Action> {
        self.random_action(seat, rng)
    }

    fn apply_into(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.apply_checked(seat, action, out)
    }

    /// No events made at all ([`out::Quiet`]): the sim and the search make a tenth more moves a second.
    fn apply_quiet(&mut self, seat: Seat, action: Action, _scratch: &mut Vec<Event>) -> Result<(), RuleError> {
        self.apply_checked(seat, action, &mut out::Quiet)
    }

    fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        self.check(seat, action).is_ok()
    }

    fn view(&self, viewer: Viewer) -> View {
        self.make_view(viewer)
    }

    fn view_event(&self, event: &Event, viewer: Viewer) -> Option<Event> {
        self.redact(event, viewer)
    }

    /// A pilot's choice made without confirming it: it stays private until the reveal, and the
    /// other seats see not even that it changed (they see who has confirmed, nothing more).
    fn is_secret(&self, _seat: Seat, action: &Action) -> bool {
        self.phase == Phase::Selection
            && matches!(action, Action::Select { confirm: false, .. } | Action::Discard { confirm: false, .. })
    }

    fn determinize(&self, viewer: Viewer, rng: &mut MatchRng) -> Self {
        self.resample(viewer, rng)
    }

    fn timeout_action(&self, seat: Seat) -> Option<Action> {
        match self.phase {
            Phase::Confirm | Phase::BossPhaseConfirm if self.host() == Some(seat) => Some(Action::Proceed),
            Phase::Selection if self.pilot(seat).is_some_and(|p| self.must_select(p) && p.choice.is_some()) => {
                Some(Action::Confirm)
            }
            _ => None,
        }
    }

    fn start_events(&self) -> Vec<Event> {
        let mut out = Vec::new();
        let _ = WolfPack::setup(&self.config, self.rng.seed(), &mut out);
        out
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(|side| Outcome {
            winners: match side {
                Side::Pilots => (0..self.pilots.len()).map(|i| Seat(i as u8)).collect(),
                Side::Ace => SeatSet::one(self.ace_seat()),
            },
        })
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }

    fn candidate_actions(&self, seat: Seat) -> Vec<Action> {
        let mut v = self.legal_actions(seat);
        let n = self.num_seats() as u8;
        for card in 0..6u8 {
            for t in 0..=n {
                let target = (t < n).then_some(Seat(t));
                v.push(Action::Select { card, target, confirm: true });
                v.push(Action::Play { card, target });
            }
        }
        v.extend([
            Action::Discard { cards: 0, confirm: false },
            Action::Discard { cards: 0b1000, confirm: true },
            Action::Discard { cards: 1, confirm: true },
            Action::Confirm,
            Action::Pass,
            Action::Proceed,
        ]);
        v
    }

    fn step_limit(&self) -> usize {
        50_000
    }
}
