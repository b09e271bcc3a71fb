//! # Three Kingdoms — Legends of the Three Kingdoms (Sanguosha), Standard Edition, 4-10 players
//!
//! The decisions are `shared/rules/three-kingdoms.md`; section numbers below refer to it.
//!
//! ## Rules in short
//! - **Roles** (T1, [`config::role_counts`]): one Lord (face up), Loyalists, Rebels and Spies
//!   (secret until death). The Lord picks a general first from Cao Cao, Liu Bei, Sun Quan and
//!   2 random others; every other seat then picks from 3 (2 with 10 players), all at once.
//!   HP = the general's; the Lord gets +1 with 5 or more players. Everyone draws 4; the Lord
//!   starts. Turns go to the next living seat (seat order).
//! - **Deck**: the 108 cards of T2 ([`cards::DECK`]): basics (Attack, Dodge, Peach), tools
//!   (Dismantle, StealingSheep, Duel, Borrowed Sword, Something Out of Nothing, Negate,
//!   Barbarians, RainArrows, Peach Garden, Bumper Harvest; delayed Acedia and Lightning) and
//!   equipment (9 weapons, 2 armours, 6 horses). An empty draw pile is refilled from the
//!   discard pile; if both are empty the game ends with no winner (our choice, §3).
//! - **Turn** ([`Step`]): Start (Goddess Luo, Stargaze) → Judgement (delayed tools, newest
//!   first, each after a Negate window) → Draw (2; Raid, Bare-Chested, Handsome) → Play →
//!   Discard (down to HP; Restraint) → End (Eclipse the Moon).
//! - **Play**: one Attack per Play phase (Zhuge Crossbow, Berserk lift it) on a seat within
//!   attack range (§5.5: seat distance ± horses, Horsemanship; range = the weapon's, else 1).
//!   Tools, equipment, Peach when wounded, and the Play-phase skills.
//! - **Damage** (§5.3): Bare-Chested +1 → HP falls → Kirin Bow (as the blow lands) → at ≤ 0
//!   the **dying** window: every living
//!   seat from the current player in turn order may use Peaches (First Aid, Rescued) until
//!   HP ≥ 1 → else **death**: role revealed, victory checked (§7), cards discarded, a Rebel's
//!   killer draws 3, a Lord who kills a Loyalist discards hand and equipment. Then, if the
//!   victim lives, after-damage skills (Triumphant, Treachery, Retaliation, Unyielding,
//!   Bequeathed Strategy). When the current player dies, the turn ends at once and what was
//!   resolving stops (our choice).
//! - **Victory**: the Lord dies → the Spy if it is the only one left, else the Rebels; all
//!   Rebels and Spies dead → Lord and Loyalists.
//!
//! ## Response windows (nested, as data)
//! Everything in progress is a stack of [`state::Frame`]s; the top one may wait for one
//! [`state::Pending`] decision. An Attack waits on a Dodge request (which may open an Eight
//! Trigrams judgement, itself open to Demonic Talent, or an Entourage helper poll); a
//! Barbarians card waits on each target's Attack request in turn; a Duel alternates Attack
//! requests; damage opens a rescue window; and every tool card's effect on each target waits
//! on a **Negate chain** (§9): living seats holding a hand card are asked in turn order from
//! the current player (the seats are taken as the window opens, each hand looked at when its
//! turn comes), each answers `Respond{Negate}` or `Pass`; a Negate restarts the poll
//! on itself and flips the result, so an odd number cancels. The poll asks every seat with a
//! hand card — not only Negate holders — so being asked reveals nothing; a seat with no card
//! at all is passed without asking (public). The window is skipped when all four Negates lie
//! in the discard pile. The timeout answer of every window is `Pass`.
//!
//! ## Actions ([`Action`])
//! `ChooseGeneral`; Play phase: `Use{card, kind, targets}` (a card as itself or converted
//! by a skill), `UseSpear`, `Rouse`, the skill actions (`Benevolence`, `Balance`,
//! `TrojanFlesh`, `SowDissension`, `Marriage`, `GreenSalve`, `SeedOfAnimosity`), `EndPlay`;
//! answers: `Respond{card, kind}`, `RespondSpear`, `EightTrigrams`, `AskHelpers`, `Pass`;
//! choices: `Confirm`, `Pick{zone}`, `Discard`, `Choose`, `NameSuit`, `Take`, `Place`, `Give`,
//! `Displace`, `DrawNormally`/`Raid`/`BareChested`, `Done`. Refusals carry stable codes
//! (`not_your_turn`, `not_your_card`, `cannot_convert`, `attack_limit`, `out_of_range`,
//! `not_wounded`, `not_usable`, `bad_target`, `not_offered`, `illegal_action`, `game_over`).
//!
//! Optional draws that can only help (One After Another, Warrior Woman, Handsome, Eclipse
//! the Moon, Wisdom, Envy of Heaven, Treachery, Iron Cavalry, Unyielding's judgement) are
//! taken automatically; choices that can hurt are asked.
//!
//! ## Hidden information
//! A view holds the viewer's own hand and role, the Lord's and the dead's roles, and public
//! areas; the draw pile is a count. Drawn cards and cards moved face down are shown only to
//! those involved. Another seat's hand cards are picked blind: by a position in an order
//! shuffled for each pick from the match RNG. `determinize` reshuffles the unseen hands with the draw pile and permutes
//! the hidden roles.
//!
//! ## Seed-compatible mode
//! [`config::SeedCompat`] holds the seed document's simplifications (§14), each named and off
//! by default; [`Config::seed_mode`] turns them all on for the narrative simulation with the
//! `seed` bots.

pub mod action;
pub mod bots;
pub mod cards;
pub mod config;
pub mod generals;
mod legal;
mod rules;
pub mod setup;
pub mod state;
pub mod text;
pub mod view;

pub use action::{Action, Choice, Event, JudgeFor, Side, Targets, Used, Zone};
pub use bots::{BOTS, bot};
pub use cards::{CardId, Kind, Slot, Suit};
pub use config::{Config, Role, SeedCompat};
pub use generals::{General, Skill};
pub use state::{Step, ThreeKingdoms};
pub use text::{describe_event, narrate_game};
pub use view::View;

use engine::{Decision, DecisionKind, Game, MatchRng, Outcome, RuleError, Seat, SeatSet, SetupError, Viewer};
use state::Pending;

impl ThreeKingdoms {
    /// The seats on the winning side.
    pub fn winners(&self) -> Option<SeatSet> {
        let Step::Over(side) = self.step else { return None };
        Some(match side {
            Side::Nobody => SeatSet::EMPTY,
            Side::Spy(s) => SeatSet::one(s),
            Side::Rebels => Seat::all(self.num_players()).filter(|&s| self.p(s).role == Role::Rebel).collect(),
            Side::LordAndLoyalists => Seat::all(self.num_players())
                .filter(|&s| matches!(self.p(s).role, Role::Lord | Role::Loyalist))
                .collect(),
        })
    }
}

impl Game for ThreeKingdoms {
    const NAME: &'static str = "three-kingdoms";
    /// Raised with every change after which a stored match no longer replays the same.
    const RULES_VERSION: u32 = 1;
    type Config = Config;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn new(config: &Config, seed: u64) -> Result<Self, SetupError> {
        ThreeKingdoms::new_with_events(config, seed).map(|(g, _)| g)
    }

    fn num_seats(&self) -> usize {
        self.num_players()
    }

    fn to_act(&self) -> SeatSet {
        self.to_act_set()
    }

    fn decision(&self) -> Decision {
        let kind = match (self.step, self.pending) {
            (Step::OthersChoose, _) => DecisionKind::Simultaneous,
            (Step::LordChooses | Step::Over(_), _) | (_, Some(Pending::Play { .. })) => DecisionKind::Turn,
            (_, Some(Pending::Ask { .. })) => DecisionKind::Response,
            _ => DecisionKind::Choice,
        };
        Decision::new(self.to_act_set(), kind, self.decisions.get())
    }

    fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        self.legal_into(seat, out);
    }

    fn apply_into(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) -> Result<(), RuleError> {
        if !self.is_legal(seat, &action) {
            return Err(self.refusal(seat, &action));
        }
        let before = (self.step, self.pending);
        let first = out.len();
        self.execute(seat, action, out);
        self.record(&out[first..]);
        // The same decision goes on while a Play phase continues or the simultaneous general
        // choice waits on others; anything else (a new window, the next seat of a window, a
        // new choice) is a new decision.
        let goes_on = match (before, (self.step, self.pending)) {
            ((_, Some(Pending::Play { seat: a })), (_, Some(Pending::Play { seat: b }))) => a == b,
            ((Step::OthersChoose, _), (Step::OthersChoose, _)) => true,
            _ => false,
        };
        if !goes_on {
            self.decisions.bump();
        }
        Ok(())
    }

    /// Decided by the legal list itself; in the Play phase only the part of the list the
    /// action could be in is built (one card's uses, or nothing for `EndPlay`).
    fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        thread_local! {
            static LEGAL: std::cell::RefCell<Vec<Action>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        LEGAL.with_borrow_mut(|legal| {
            legal.clear();
            let playing = self.pending == Some(Pending::Play { seat }) && !self.is_over();
            match action {
                Action::EndPlay if playing => return true,
                Action::Use { card, .. } if playing => self.play_actions_for(seat, legal, Some(*card)),
                _ => self.legal_into(seat, legal),
            }
            legal.contains(action)
        })
    }

    fn view(&self, viewer: Viewer) -> View {
        self.make_view(viewer)
    }

    fn view_event(&self, event: &Event, viewer: Viewer) -> Option<Event> {
        self.redact(event, viewer)
    }

    fn determinize(&self, viewer: Viewer, rng: &mut MatchRng) -> Self {
        self.resample(viewer, rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winners().map(|winners| Outcome { winners })
    }

    fn timeout_action(&self, seat: Seat) -> Option<Action> {
        self.default_action(seat)
    }

    fn check_invariants(&self) -> Result<(), String> {
        let census = self.census();
        if let Some(c) = CardId::all().find(|c| census[c.index()] != 1) {
            return Err(format!("card {c} ({}) is in {} zones", c.0, census[c.index()]));
        }
        for (i, p) in self.players.iter().enumerate() {
            if p.alive && p.general.is_some() && p.hp > p.max_hp {
                return Err(format!("seat {i} has {} HP over its max {}", p.hp, p.max_hp));
            }
            if !p.alive
                && (!p.hand.is_empty() || p.equip.iter().any(Option::is_some) || !p.judge.is_empty())
                && !self.is_over()
            {
                return Err(format!("dead seat {i} still holds cards"));
            }
            for (slot, c) in p.equip.iter().enumerate() {
                if let Some(c) = c
                    && c.kind().slot().map(|s| s.index()) != Some(slot)
                {
                    return Err(format!("seat {i}: {c} in the wrong slot"));
                }
            }
            let mut names: Vec<Kind> = p.judge.iter().map(|&(_, k)| k).collect();
            names.sort_by_key(|k| *k as u8);
            names.dedup();
            if names.len() != p.judge.len() {
                return Err(format!("seat {i}: two delayed tools of the same name"));
            }
        }
        if !self.is_over() && !matches!(self.step, Step::LordChooses | Step::OthersChoose) {
            if !self.alive(self.current) && self.step != Step::End {
                return Err("a dead player's turn goes on".into());
            }
            if self.pending.is_none() {
                return Err("running with nothing to decide".into());
            }
        }
        Ok(())
    }

    fn candidate_actions(&self, seat: Seat) -> Vec<Action> {
        let mut v = Vec::new();
        self.candidates(seat, &mut v);
        v
    }

    fn step_limit(&self) -> usize {
        200_000
    }
}
