//! Random playouts without building legal lists: [`WolfPack::legal_count`] and
//! [`WolfPack::legal_nth`] answer "how many legal actions" and "the n-th of them" from the
//! same per-card target masks the legal list is built from, so a uniform pick by index draws
//! exactly what `rng.pick(&legal)` draws: a pilot's Selection list has up to 45 actions, and
//! the random player only ever needs one of them. [`WolfPack::random_action`] is Wolf Pack's
//! `engine::Game::random_legal_action`, so `engine::random_playout` draws with it too;
//! [`random_playout`] plays the same fights (the `streams` test checks it move by move) and
//! also skips the check `apply` makes of each move.
//!
//! [`Shape`] is the same masks handed to bots ([`engine::LegalShape`]): the `random` pilot and
//! the `rookie` Ace choose a card, then a target, from it, so the runner never lists the
//! actions for them (listing was most of a simulated move's cost).

use crate::action::Action;
use crate::cards::{Aim, Card};
use crate::config::{Config, MAX_HAND};
use crate::legal::{DISCARDS, UNTARGETED};
use crate::phase::Phase;
use crate::state::WolfPack;
use engine::{LegalShape, MatchRng, Seat};

impl WolfPack {
    /// The length of `seat`'s legal list (`legal_actions(seat).len()`), without building it.
    pub fn legal_count(&self, seat: Seat) -> usize {
        if self.winner.is_some() {
            return 0;
        }
        match self.phase {
            Phase::Selection => {
                let Some(p) = self.pilot(seat) else { return 0 };
                if !self.must_select(p) {
                    return 0;
                }
                let masks = self.hand_targets(seat, &p.hand);
                let plays: u32 = masks[..p.hand.len()].iter().map(|&m| plays(m)).sum();
                (2 * plays) as usize + 2 * ((1 << p.hand.len()) - 1) + usize::from(p.choice.is_some())
            }
            Phase::BossSelection if self.is_ace(seat) => {
                let masks = self.hand_targets(seat, &self.ace.hand);
                let plays: u32 = masks[..self.ace.hand.len()].iter().map(|&m| plays(m)).sum();
                (plays as usize).max(1)
            }
            Phase::Confirm | Phase::BossPhaseConfirm if self.host() == Some(seat) => 1,
            _ => 0,
        }
    }

    /// The `i`-th action of `seat`'s legal list (`legal_actions(seat)[i]`), without building
    /// it. `None` past its end.
    pub fn legal_nth(&self, seat: Seat, i: usize) -> Option<Action> {
        if self.winner.is_some() {
            return None;
        }
        let mut i = i;
        match self.phase {
            Phase::Selection => {
                let p = self.pilot(seat)?;
                if !self.must_select(p) {
                    return None;
                }
                let masks = self.hand_targets(seat, &p.hand);
                for (card, &mask) in masks[..p.hand.len()].iter().enumerate() {
                    let n = 2 * plays(mask) as usize;
                    if i < n {
                        let target = nth_target(mask, i / 2);
                        return Some(Action::Select { card: card as u8, target, confirm: i % 2 == 1 });
                    }
                    i -= n;
                }
                let discards = 2 * ((1 << p.hand.len()) - 1);
                if i < discards {
                    return Some(DISCARDS[i]);
                }
                (i == discards && p.choice.is_some()).then_some(Action::Confirm)
            }
            Phase::BossSelection if self.is_ace(seat) => {
                let masks = self.hand_targets(seat, &self.ace.hand);
                let mut any = false;
                for (card, &mask) in masks[..self.ace.hand.len()].iter().enumerate() {
                    let n = plays(mask) as usize;
                    any |= n > 0;
                    if i < n {
                        return Some(Action::Play { card: card as u8, target: nth_target(mask, i) });
                    }
                    i -= n;
                }
                (!any && i == 0).then_some(Action::Pass)
            }
            Phase::Confirm | Phase::BossPhaseConfirm if self.host() == Some(seat) => {
                (i == 0).then_some(Action::Proceed)
            }
            _ => None,
        }
    }

    /// A uniform random legal action of `seat`: one `rng.below(legal_count)` draw, so the
    /// same draw and the same action as `rng.pick(&legal_actions(seat))`. `None` if `seat`
    /// has nothing to do.
    pub fn random_action(&self, seat: Seat, rng: &mut MatchRng) -> Option<Action> {
        if self.winner.is_some() {
            return None;
        }
        let (hand, select) = match self.phase {
            Phase::Selection => {
                let p = self.pilot(seat)?;
                if !self.must_select(p) {
                    return None;
                }
                (&p.hand[..], Some(p.choice.is_some()))
            }
            Phase::BossSelection if self.is_ace(seat) => (&self.ace.hand[..], None),
            Phase::Confirm | Phase::BossPhaseConfirm if self.host() == Some(seat) => {
                rng.index(1);
                return Some(Action::Proceed);
            }
            _ => return None,
        };
        // `legal_count` and `legal_nth` at once, from the two aims' target masks (the same
        // masks `hand_targets` gives each card): a card offers one play per target of its aim.
        // Table lookups by aim rather than a `match`: the cards are random, so a branch on
        // each one's aim is mispredicted about half the time (the costliest part of a move).
        let (enemy, friend) = self.aim_masks(seat);
        let masks = by_aim(enemy, friend, UNTARGETED);
        let counts = by_aim(plays(enemy), plays(friend), 1);
        let count = |card: Card| counts[card.aim() as usize];
        let target = |card: Card, k: u32| nth_target(masks[card.aim() as usize], k as usize);
        let total: u32 = hand.iter().map(|&c| count(c)).sum();
        let Some(chosen) = select else {
            if total == 0 {
                rng.index(1);
                return Some(Action::Pass);
            }
            let mut i = rng.below(total);
            for (card, &c) in hand.iter().enumerate() {
                let n = count(c);
                if i < n {
                    return Some(Action::Play { card: card as u8, target: target(c, i) });
                }
                i -= n;
            }
            unreachable!("the index is below the count");
        };
        let discards = 2 * ((1u32 << hand.len()) - 1);
        let mut i = rng.below(2 * total + discards + u32::from(chosen));
        if i >= 2 * total {
            let d = i - 2 * total;
            return Some(if d < discards { DISCARDS[d as usize] } else { Action::Confirm });
        }
        for (card, &c) in hand.iter().enumerate() {
            let n = 2 * count(c);
            if i < n {
                return Some(Action::Select { card: card as u8, target: target(c, i / 2), confirm: i % 2 == 1 });
            }
            i -= n;
        }
        unreachable!("the index is below the count")
    }
}

/// A seat's legal actions, as the legal list is built from them: what each hand card may
/// target ([`engine::LegalShape`] for Wolf Pack). [`Shape::actions`] lists them in the legal
/// list's order; the `streams` tests check it against `legal_actions` at every step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// No legal action.
    Nothing,
    /// The host hands the turn over: `[Proceed]`.
    Proceed,
    /// A pilot in Selection: a play per card and target (each unconfirmed, then confirmed),
    /// every discard, and `Confirm` when `confirm` (it has a choice to lock in).
    Pilot { hand: HandTargets, confirm: bool },
    /// The Ace in BossSelection: a play per card and target, or `Pass` when there is none.
    Ace { hand: HandTargets },
}

/// Each hand card's targets: the card's aim, and the seats each aim may take now (the masks
/// `WolfPack::hand_targets` gives each card, stored once per aim: cheaper to build).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandTargets {
    len: u8,
    /// `Aim as u8` by hand index.
    aims: [u8; MAX_HAND as usize],
    /// Target mask by aim (`UNTARGETED` for untargeted cards).
    masks: [u32; 3],
    /// Plays by aim.
    counts: [u32; 3],
}

impl HandTargets {
    fn new(game: &WolfPack, seat: Seat, hand: &[Card]) -> HandTargets {
        let (enemy, friend) = game.aim_masks(seat);
        let mut aims = [0; MAX_HAND as usize];
        for (a, &c) in aims.iter_mut().zip(hand) {
            *a = c.aim() as u8;
        }
        HandTargets {
            len: hand.len().min(MAX_HAND as usize) as u8,
            aims,
            masks: by_aim(enemy, friend, UNTARGETED),
            counts: by_aim(plays(enemy), plays(friend), 1),
        }
    }

    /// Cards in the hand.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many plays the card at `card` offers: one per target, one if it takes none, 0 if
    /// it has no legal target now.
    #[inline]
    pub fn plays(&self, card: usize) -> u32 {
        self.counts[usize::from(self.aims[card])]
    }

    /// The card's `k`-th target in seat order (`None` for a card without a target).
    #[inline]
    pub fn target(&self, card: usize, k: u32) -> Option<Seat> {
        nth_target(self.masks[usize::from(self.aims[card])], k as usize)
    }

    /// Plays over the whole hand.
    pub fn total_plays(&self) -> u32 {
        (0..self.len()).map(|c| self.plays(c)).sum()
    }
}

impl Shape {
    /// The actions, in the legal list's order (`legal_actions(seat)` exactly).
    pub fn actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        match *self {
            Shape::Nothing => {}
            Shape::Proceed => out.push(Action::Proceed),
            Shape::Pilot { hand, confirm } => {
                for card in 0..hand.len() {
                    for k in 0..hand.plays(card) {
                        let (card, target) = (card as u8, hand.target(card, k));
                        out.push(Action::Select { card, target, confirm: false });
                        out.push(Action::Select { card, target, confirm: true });
                    }
                }
                out.extend_from_slice(&DISCARDS[..2 * ((1 << hand.len()) - 1)]);
                if confirm {
                    out.push(Action::Confirm);
                }
            }
            Shape::Ace { hand } => {
                for card in 0..hand.len() {
                    for k in 0..hand.plays(card) {
                        out.push(Action::Play { card: card as u8, target: hand.target(card, k) });
                    }
                }
                if out.is_empty() {
                    out.push(Action::Pass);
                }
            }
        }
        out
    }
}

impl LegalShape for WolfPack {
    type Shape = Shape;

    fn legal_shape(&self, seat: Seat) -> Shape {
        if self.winner.is_some() {
            return Shape::Nothing;
        }
        let hand = |cards: &[Card]| HandTargets::new(self, seat, cards);
        match self.phase {
            Phase::Selection => match self.pilot(seat) {
                Some(p) if self.must_select(p) => Shape::Pilot { hand: hand(&p.hand), confirm: p.choice.is_some() },
                _ => Shape::Nothing,
            },
            Phase::BossSelection if self.is_ace(seat) => Shape::Ace { hand: hand(&self.ace.hand) },
            Phase::Confirm | Phase::BossPhaseConfirm if self.host() == Some(seat) => Shape::Proceed,
            _ => Shape::Nothing,
        }
    }
}

/// A value for each aim, indexed by `Aim as usize`.
fn by_aim(enemy: u32, friend: u32, untargeted: u32) -> [u32; 3] {
    let mut t = [0; 3];
    t[Aim::Enemy as usize] = enemy;
    t[Aim::Friend as usize] = friend;
    t[Aim::Untargeted as usize] = untargeted;
    t
}

/// How many plays a card offers: one per target, one if it has none. (A table: target masks
/// have six bits, and the baseline x86-64 target has no popcount instruction.)
pub fn plays(mask: u32) -> u32 {
    const ONES: [u8; 64] = {
        let mut t = [0; 64];
        let mut i = 0;
        while i < 64 {
            t[i] = (i as u32).count_ones() as u8;
            i += 1;
        }
        t
    };
    if mask == UNTARGETED { 1 } else { u32::from(ONES[(mask & 63) as usize]) }
}

/// The `k`-th target of a mask in seat order (`None` for an untargeted card).
fn nth_target(mask: u32, k: usize) -> Option<Seat> {
    if mask == UNTARGETED || mask == 0 {
        return None;
    }
    let mut m = mask;
    for _ in 0..k {
        m &= m - 1;
    }
    Some(Seat(m.trailing_zeros() as u8))
}

/// Plays fight `seed` to the end with uniform random legal actions for every seat: the same
/// fight, move for move and event for event, as `engine::random_playout::<WolfPack>(config,
/// seed, ..)` (same bot RNG), but each move draws its action by index instead of listing
/// them, and is applied without re-checking it. `events` receives each move's events (cleared
/// per move, as there). Returns the number of moves.
pub fn random_playout(config: &Config, seed: u64, events: &mut Vec<crate::Event>) -> usize {
    let mut game = WolfPack::setup(config, seed, events).expect("a valid config");
    let mut rng = MatchRng::new(seed ^ 0xBEEF);
    let mut moves = 0;
    while let Some(seat) = game.acting().first() {
        let action = game.random_action(seat, &mut rng).expect("a seat to act has a legal action");
        events.clear();
        game.apply_legal(seat, action, events);
        moves += 1;
    }
    moves
}
