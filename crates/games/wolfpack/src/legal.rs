//! Who acts, and what is legal: the targets each card may take (the triggers in play can
//! forbid some), the legal-action list, and `check`, which refuses with a stable code.

use crate::action::Action;
use crate::cards::{Aim, Card};
use crate::config::{MAX_HAND, MAX_PILOTS};
use crate::effect::{Delegate, Hook, Kind};
use crate::phase::Phase;
use crate::state::{Pilot, WolfPack};
use engine::{RuleError, Seat, SeatSet};

/// Every discard a hand of up to [`MAX_HAND`] cards allows, in the legal list's order (mask
/// 1, 2, ..., each unconfirmed then confirmed): a hand of `n` cards takes the first
/// `2 * (2^n - 1)`.
/// The [`WolfPack::hand_targets`] mark of a card without a target (no seat has bit 31).
pub(crate) const UNTARGETED: u32 = 1 << 31;

pub(crate) static DISCARDS: [Action; 2 * ((1 << MAX_HAND) - 1)] = {
    let mut a = [Action::Pass; 2 * ((1 << MAX_HAND) - 1)];
    let mut mask = 1;
    while mask < 1 << MAX_HAND {
        a[2 * (mask - 1)] = Action::Discard { cards: mask as u8, confirm: false };
        a[2 * (mask - 1) + 1] = Action::Discard { cards: mask as u8, confirm: true };
        mask += 1;
    }
    a
};

fn refuse(code: &'static str, message: &'static str) -> Result<(), RuleError> {
    Err(RuleError::new(code, message))
}

impl WolfPack {
    pub(crate) fn acting(&self) -> SeatSet {
        match self.phase {
            Phase::Selection => SeatSet::from_bits(self.waiting_mask()),
            Phase::BossSelection => SeatSet::one(self.ace_seat()),
            Phase::Confirm | Phase::BossPhaseConfirm => self.host().map_or(SeatSet::EMPTY, SeatSet::one),
            _ => SeatSet::EMPTY,
        }
    }

    /// The seats `origin`'s OnTarget delegate refuses as targets (Pulling G's: its user; Into
    /// the Fog: every other pilot). One bit test when the delegate is empty (the usual case),
    /// else one pass over the triggers.
    #[inline]
    pub(crate) fn forbidden_targets(&self, origin: Seat) -> SeatSet {
        if !self.file.any_player(origin, Hook::OnTarget) {
            return SeatSet::EMPTY;
        }
        // Kept in the file as its triggers come and go (the invariants check it against
        // `forbidden_by_triggers`, the scan it stands for).
        let on = &self.file.on_target;
        let mut bits = on.pulled.get(origin.index()).copied().unwrap_or(0);
        if on.fogged >> origin.0 & 1 != 0 {
            bits |= ((1u32 << self.pilots.len()) - 1) & !(1 << origin.0);
        }
        SeatSet::from_bits(bits)
    }

    /// What `origin`'s OnTarget delegate refuses, from a scan of its triggers.
    pub(crate) fn forbidden_by_triggers(&self, origin: Seat, at: Delegate) -> SeatSet {
        let mut forbidden = SeatSet::EMPTY;
        let key = at.key();
        for t in &self.file.triggers {
            if !t.sits_at(key) {
                continue;
            }
            let Some(e) = self.file.get(t.effect) else { continue };
            match e.kind {
                Kind::PullingGs => forbidden.insert(e.user),
                Kind::IntoTheFog => {
                    let others = ((1u32 << self.pilots.len()) - 1) & !(1 << origin.0);
                    forbidden = SeatSet::from_bits(forbidden.bits() | others);
                }
                _ => {}
            }
        }
        forbidden
    }

    /// The seats `origin` may aim a card of `aim` at now, as a bit set (in seat order when
    /// walked from the lowest bit); `forbidden` is what its OnTarget delegate refuses. Untargeted
    /// cards have no target: their mask is empty.
    fn target_mask(&self, origin: Seat, aim: Aim, forbidden: SeatSet, living: u32) -> u32 {
        let ace = self.ace_seat();
        match (aim, origin == ace) {
            (Aim::Untargeted, _) => 0,
            (Aim::Enemy, false) | (Aim::Friend, true) => (1u32 << ace.0) & !forbidden.bits(),
            (Aim::Enemy, true) | (Aim::Friend, false) => living & !forbidden.bits(),
        }
    }

    /// The targets each card of `seat`'s hand may take now, as [`Self::target_mask`]s, with
    /// `UNTARGETED` for a card without a target (entries past the hand are 0). Both the legal list and
    /// [`WolfPack::legal_nth`] walk it, so they agree by construction.
    pub(crate) fn hand_targets(&self, seat: Seat, hand: &[Card]) -> [u32; MAX_HAND as usize] {
        let (enemy, friend) = self.aim_masks(seat);
        let mut masks = [0; MAX_HAND as usize];
        for (i, &card) in hand.iter().enumerate().take(MAX_HAND as usize) {
            masks[i] = match card.aim() {
                Aim::Untargeted => UNTARGETED,
                Aim::Enemy => enemy,
                Aim::Friend => friend,
            };
        }
        masks
    }

    /// The seats `seat` may aim a card at now, for each of the two aims: (the other side,
    /// its own side), as [`Self::target_mask`] gives them.
    #[inline]
    pub(crate) fn aim_masks(&self, seat: Seat) -> (u32, u32) {
        let allowed = !self.forbidden_targets(seat).bits();
        let (ace, living) = (1u32 << self.ace_seat().0, self.living_mask());
        let (enemy, friend) = if self.is_ace(seat) { (living, ace) } else { (ace, living) };
        (enemy & allowed, friend & allowed)
    }

    pub(crate) fn target_ok(&self, origin: Seat, card: Card, target: Option<Seat>) -> bool {
        match (card.aim(), target) {
            (Aim::Untargeted, t) => t.is_none(),
            (_, None) => false,
            (aim, Some(t)) => {
                t.0 < 32
                    && self.target_mask(origin, aim, self.forbidden_targets(origin), self.living_mask()) >> t.0 & 1 != 0
            }
        }
    }

    /// Whether the Ace has a card it can play.
    pub(crate) fn ace_can_play(&self) -> bool {
        let ace = self.ace_seat();
        let (forbidden, living) = (self.forbidden_targets(ace), self.living_mask());
        self.ace
            .hand
            .iter()
            .any(|&c| c.aim() == Aim::Untargeted || self.target_mask(ace, c.aim(), forbidden, living) != 0)
    }

    /// The legal actions, in a fixed order: a pilot's plays (hand order, targets in seat
    /// order, unconfirmed before confirmed), its discards (mask order, unconfirmed before
    /// confirmed), then Confirm; the Ace's plays, or Pass; the host's Proceed. Targets come from
    /// bit masks and the discards from a static table (the list is rebuilt on every move).
    pub(crate) fn legal_into(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.winner.is_some() {
            return;
        }
        match self.phase {
            Phase::Selection => {
                let Some(p) = self.pilot(seat) else { return };
                if !self.must_select(p) {
                    return;
                }
                let masks = self.hand_targets(seat, &p.hand);
                out.reserve(2 * p.hand.len() * (MAX_PILOTS as usize) + 2 * ((1 << p.hand.len()) - 1) + 1);
                for (i, &mask) in masks[..p.hand.len()].iter().enumerate() {
                    let card = i as u8;
                    if mask == UNTARGETED {
                        out.push(Action::Select { card, target: None, confirm: false });
                        out.push(Action::Select { card, target: None, confirm: true });
                        continue;
                    }
                    let mut m = mask;
                    while m != 0 {
                        let target = Some(Seat(m.trailing_zeros() as u8));
                        out.push(Action::Select { card, target, confirm: false });
                        out.push(Action::Select { card, target, confirm: true });
                        m &= m - 1;
                    }
                }
                out.extend_from_slice(&DISCARDS[..2 * ((1 << p.hand.len()) - 1)]);
                if p.choice.is_some() {
                    out.push(Action::Confirm);
                }
            }
            Phase::BossSelection if self.is_ace(seat) => {
                let masks = self.hand_targets(seat, &self.ace.hand);
                let before = out.len();
                for (i, &mask) in masks[..self.ace.hand.len()].iter().enumerate() {
                    let card = i as u8;
                    if mask == UNTARGETED {
                        out.push(Action::Play { card, target: None });
                        continue;
                    }
                    let mut m = mask;
                    while m != 0 {
                        out.push(Action::Play { card, target: Some(Seat(m.trailing_zeros() as u8)) });
                        m &= m - 1;
                    }
                }
                if out.len() == before {
                    out.push(Action::Pass);
                }
            }
            Phase::Confirm | Phase::BossPhaseConfirm if self.host() == Some(seat) => out.push(Action::Proceed),
            _ => {}
        }
    }

    fn selecting(&self, seat: Seat) -> Result<&Pilot, RuleError> {
        if self.phase != Phase::Selection {
            return Err(RuleError::new("not_selection", "cards are chosen in Selection only"));
        }
        let Some(p) = self.pilot(seat) else {
            return Err(RuleError::new("not_a_pilot", "only pilots choose in Selection"));
        };
        if !p.alive() {
            return Err(RuleError::new("shot_down", "a shot-down pilot is out of the fight"));
        }
        if p.confirmed {
            return Err(RuleError::new("already_confirmed", "your choice is already locked in"));
        }
        if p.hand.is_empty() {
            return Err(RuleError::new("empty_hand", "you have no cards"));
        }
        Ok(p)
    }

    fn ace_selecting(&self, seat: Seat) -> Result<(), RuleError> {
        if self.phase != Phase::BossSelection || !self.is_ace(seat) {
            return Err(RuleError::new("not_ace_selection", "only the Ace plays, in BossSelection"));
        }
        Ok(())
    }

    /// Why `apply` would refuse `action` (or `Ok` if it would not).
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<(), RuleError> {
        if self.winner.is_some() {
            return Err(RuleError::game_over());
        }
        match *action {
            Action::Select { card, target, .. } => {
                let p = self.selecting(seat)?;
                let Some(&c) = p.hand.get(usize::from(card)) else {
                    return refuse("no_such_card", "there is no such card in your hand");
                };
                if !self.target_ok(seat, c, target) {
                    return refuse("invalid_target", "that card cannot target that now");
                }
            }
            Action::Discard { cards, .. } => {
                let p = self.selecting(seat)?;
                if cards == 0 || u32::from(cards) >> p.hand.len() != 0 {
                    return refuse("bad_discard", "discard one or more cards of your hand");
                }
            }
            Action::Confirm => {
                if self.selecting(seat)?.choice.is_none() {
                    return refuse("nothing_to_confirm", "choose a card or a discard first");
                }
            }
            Action::Play { card, target } => {
                self.ace_selecting(seat)?;
                let Some(&c) = self.ace.hand.get(usize::from(card)) else {
                    return refuse("no_such_card", "there is no such card in the Ace's hand");
                };
                if !self.target_ok(seat, c, target) {
                    return refuse("invalid_target", "that card cannot target that now");
                }
            }
            Action::Pass => {
                self.ace_selecting(seat)?;
                if self.ace_can_play() {
                    return refuse("must_play", "the Ace passes only with no playable card");
                }
            }
            Action::Proceed => {
                if !matches!(self.phase, Phase::Confirm | Phase::BossPhaseConfirm) {
                    return refuse("not_confirm", "the turn is handed over in Confirm only");
                }
                if self.host() != Some(seat) {
                    return refuse(
                        "not_host",
                        "only the lead pilot (the lowest seat still flying) hands the turn over",
                    );
                }
            }
        }
        Ok(())
    }
}
