//! The rules: setup, legality, and the state machine worked to the next decision.

use crate::action::{Action, Choice, Event, Revealed};
use crate::card::{Aim, Card, Side};
use crate::config::{Config, MAX_HAND, MAX_PILOTS};
use crate::effect::{Delegate, Effect, EffectFile, Hook, Kind, SUPPRESSION_DAMAGE};
use crate::out::Out;
use crate::phase::{Phase, Stage, Transition};
use crate::state::{Ace, Deck, Pilot, Queued, WolfPack};
use engine::{MatchRng, RuleError, Seat, SeatSet, SetupError};
use std::collections::VecDeque;

/// Healing of Mid-Air Regroup.
pub const REGROUP_HEAL: i32 = 10;

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
    /// A new fight: both decks shuffled, then the first Draw (events go to `out`).
    pub(crate) fn setup(config: &Config, seed: u64, out: &mut impl Out) -> Result<WolfPack, SetupError> {
        config.validate()?;
        let mut rng = MatchRng::new(seed);
        let mut pilot_deck = config.pilot_deck.cards();
        let mut ace_deck = config.ace_deck.cards();
        rng.shuffle(&mut pilot_deck);
        rng.shuffle(&mut ace_deck);
        let hand = usize::from(config.pilot_hand);
        let mut game = WolfPack {
            config: *config,
            pilots: (0..config.pilots)
                .map(|_| Pilot {
                    health: config.pilot_health,
                    hand: Vec::with_capacity(hand),
                    debt: 0,
                    choice: None,
                    confirmed: false,
                })
                .collect(),
            ace: Ace {
                health: config.ace_health,
                hand: Vec::with_capacity(usize::from(config.ace_hand)),
                picks_left: 0,
            },
            // Each discard pile may come to hold its whole deck: room for it now, not on the way.
            decks: [
                Deck { discard: Vec::with_capacity(pilot_deck.len()), draw: pilot_deck },
                Deck { discard: Vec::with_capacity(ace_deck.len()), draw: ace_deck },
            ],
            phase: Phase::Draw,
            turn: 1,
            queue: VecDeque::with_capacity(8),
            file: EffectFile { effects: Vec::with_capacity(8), triggers: Vec::with_capacity(32), ..Default::default() },
            winner: None,
            serial: Default::default(),
            rng,
            living: (1 << config.pilots) - 1,
            waiting: 0,
        };
        game.transition(Transition::Start, out);
        game.run(out);
        Ok(game)
    }

    // ---- who acts, and what is legal ------------------------------------------------------

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
    fn forbidden_by_triggers(&self, origin: Seat, at: Delegate) -> SeatSet {
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

    pub(crate) fn apply_checked(&mut self, seat: Seat, action: Action, out: &mut impl Out) -> Result<(), RuleError> {
        self.check(seat, &action)?;
        self.apply_legal(seat, action, out);
        Ok(())
    }

    /// Applies an action `check` accepts (the caller knows it is legal: it came from the
    /// legal list or [`WolfPack::legal_nth`]), then works the automatic states.
    pub(crate) fn apply_legal(&mut self, seat: Seat, action: Action, out: &mut impl Out) {
        debug_assert_eq!(self.check(seat, &action), Ok(()));
        match action {
            // A choice left unconfirmed keeps its pilot waiting: Selection goes on, nothing to run.
            Action::Select { card, target, confirm: false } => {
                return self.choose(seat, Choice::Play { card, target }, false, out);
            }
            Action::Discard { cards, confirm: false } => {
                return self.choose(seat, Choice::Discard { cards }, false, out);
            }
            Action::Select { card, target, confirm } => self.choose(seat, Choice::Play { card, target }, confirm, out),
            Action::Discard { cards, confirm } => self.choose(seat, Choice::Discard { cards }, confirm, out),
            Action::Confirm => self.confirm(seat, out),
            Action::Play { card, target } => {
                let c = self.ace.hand.remove(usize::from(card));
                let index = self.queue.len() as u8;
                self.queue.push_back(Queued { seat, card: c, target });
                out.push(Event::AcePicked { index, card: Some(c), target });
                self.fire_player(seat, Hook::OnSelect, out);
                self.ace_picked(out);
            }
            Action::Pass => {
                out.push(Event::AcePassed);
                self.ace_picked(out);
            }
            Action::Proceed => {
                out.push(Event::Proceeded { seat });
                let t = if self.phase == Phase::Confirm {
                    Transition::ConfirmToBossDraw
                } else {
                    Transition::BossPhaseConfirmToDraw
                };
                self.transition(t, out);
            }
        }
        self.run(out);
    }

    fn choose(&mut self, seat: Seat, choice: Choice, confirm: bool, out: &mut impl Out) {
        self.pilots[seat.index()].choice = Some(choice);
        out.push(Event::Chose { seat, choice: Some(choice) });
        if confirm {
            self.confirm(seat, out);
        }
    }

    fn confirm(&mut self, seat: Seat, out: &mut impl Out) {
        self.pilots[seat.index()].confirmed = true;
        self.waiting &= !(1 << seat.0);
        out.push(Event::Confirmed { seat });
    }

    fn ace_picked(&mut self, out: &mut impl Out) {
        self.ace.picks_left -= 1;
        let t = if self.ace.picks_left > 0 {
            Transition::BossSelectionToBossSelection
        } else {
            self.after_boss_selection()
        };
        self.transition(t, out);
    }

    /// Out of BossSelection once every pick is made: a BossAction per picked card, none for a
    /// passed pick (rules decision 2), so with no card picked straight to BossPhaseConfirm.
    fn after_boss_selection(&self) -> Transition {
        if self.queue.is_empty() {
            Transition::BossSelectionToBossPhaseConfirm
        } else {
            Transition::BossSelectionToBossAction
        }
    }

    /// Out of Selection once every pilot has confirmed: one Action state per card played, so
    /// when every pilot discarded (or had no card) straight to Confirm.
    fn after_selection(&self) -> Transition {
        if self.pilots.iter().any(|p| matches!(p.choice, Some(Choice::Play { .. }))) {
            Transition::SelectionToAction
        } else {
            Transition::SelectionToConfirm
        }
    }

    // ---- the state machine ----------------------------------------------------------------

    /// `AToB()`: the Enter hook, the transition's logic, the Exit hook.
    pub(crate) fn transition(&mut self, t: Transition, out: &mut impl Out) {
        // Selection → Confirm runs Action → Confirm's delegates (see `Transition::delegates`).
        let hooks = t.delegates();
        self.fire_fsm(hooks, Stage::Enter, out);
        if self.winner.is_some() {
            return;
        }
        if t == Transition::BossPhaseConfirmToDraw {
            self.turn += 1;
        }
        self.phase = t.to();
        self.waiting = if self.phase == Phase::Selection { self.count_waiting() } else { 0 };
        if matches!(self.phase, Phase::Selection | Phase::BossSelection | Phase::Confirm | Phase::BossPhaseConfirm) {
            self.serial.bump();
        }
        out.push(Event::Transition { transition: t, phase: self.phase, turn: self.turn });
        match t {
            Transition::SelectionToAction | Transition::SelectionToConfirm => self.reveal(out),
            Transition::BossDrawToBossSelection => self.ace.picks_left = self.config.ace_plays,
            _ => {}
        }
        self.fire_fsm(hooks, Stage::Exit, out);
        if t == Transition::BossDrawToBossSelection {
            out.push(Event::AcePlays { count: self.ace.picks_left });
        }
    }

    /// Works the automatic states (draws, resolutions) until a seat must decide or the fight
    /// is over.
    pub(crate) fn run(&mut self, out: &mut impl Out) {
        loop {
            if self.winner.is_some() {
                self.phase = Phase::Over;
                return;
            }
            match self.phase {
                Phase::Draw => {
                    self.draw_pilots(out);
                    self.transition(Transition::DrawToSelection, out);
                }
                Phase::Selection => {
                    if self.waiting_mask() != 0 {
                        return;
                    }
                    self.transition(self.after_selection(), out);
                }
                Phase::Action | Phase::BossAction => {
                    // One card resolves per Action state: the state is entered only with one
                    // waiting (`after_selection`, `after_boss_selection`, and the loop below).
                    let boss = self.phase == Phase::BossAction;
                    let q = self.queue.pop_front().expect("an Action state has a card to resolve");
                    self.resolve(q, out);
                    if self.winner.is_some() {
                        continue;
                    }
                    let t = match (boss, self.queue.is_empty()) {
                        (false, false) => Transition::ActionToAction,
                        (false, true) => Transition::ActionToConfirm,
                        (true, false) => Transition::BossActionToBossAction,
                        (true, true) => Transition::BossActionToBossPhaseConfirm,
                    };
                    self.transition(t, out);
                }
                Phase::BossDraw => {
                    self.draw_ace(out);
                    self.transition(Transition::BossDrawToBossSelection, out);
                }
                Phase::BossSelection => {
                    if self.ace.picks_left > 0 {
                        return;
                    }
                    // No pick to make at all (Cover Fire at a table where the Ace plays one).
                    self.transition(self.after_boss_selection(), out);
                }
                Phase::Confirm | Phase::BossPhaseConfirm => return,
                Phase::Over => return,
            }
        }
    }

    /// SelectionToAction's logic: every choice is revealed, discards go to the pile (with
    /// their draw debt), plays join the Action queue in seat order.
    fn reveal(&mut self, out: &mut impl Out) {
        for i in 0..self.pilots.len() {
            let seat = Seat(i as u8);
            let p = &mut self.pilots[i];
            p.confirmed = false;
            let Some(choice) = p.choice.take() else { continue };
            match choice {
                Choice::Play { card, target } => {
                    let c = p.hand.remove(usize::from(card));
                    out.push(Event::Revealed { seat, choice: Revealed::Play { card: c, target } });
                    self.queue.push_back(Queued { seat, card: c, target });
                    self.fire_player(seat, Hook::OnSelect, out);
                }
                Choice::Discard { cards } => {
                    let count = cards.count_ones() as u8;
                    p.debt = count - 1;
                    out.push(Event::Revealed { seat, choice: Revealed::Discard { count } });
                    // Highest index first so the lower indices stay valid.
                    for k in (0..p.hand.len()).rev() {
                        if cards & (1 << k) != 0 {
                            let c = p.hand.remove(k);
                            self.decks[Side::Pilots as usize].discard.push(c);
                            out.push(Event::Discarded { seat, card: c });
                        }
                    }
                }
            }
        }
    }

    fn draw_card(&mut self, side: Side, out: &mut impl Out) -> Option<Card> {
        let deck = &mut self.decks[side as usize];
        if deck.draw.is_empty() {
            if deck.discard.is_empty() {
                return None;
            }
            std::mem::swap(&mut deck.draw, &mut deck.discard);
            self.rng.shuffle(&mut deck.draw);
            out.push(Event::Reshuffled { side, cards: deck.draw.len() as u32 });
        }
        deck.draw.pop()
    }

    /// Draw: every living pilot draws up to its hand size, less its debt (which clears).
    fn draw_pilots(&mut self, out: &mut impl Out) {
        for i in 0..self.pilots.len() {
            let p = &mut self.pilots[i];
            if !p.alive() {
                continue;
            }
            let n = usize::from(self.config.pilot_hand).saturating_sub(p.hand.len() + usize::from(p.debt));
            p.debt = 0;
            let seat = Seat(i as u8);
            for _ in 0..n {
                let Some(c) = self.draw_card(Side::Pilots, out) else { break };
                self.pilots[i].hand.push(c);
                out.push(Event::Drew { seat, card: Some(c) });
                self.fire_player(seat, Hook::OnCardDraw, out);
            }
        }
    }

    /// BossDraw: the Ace draws up to its hand size.
    fn draw_ace(&mut self, out: &mut impl Out) {
        let seat = self.ace_seat();
        while self.ace.hand.len() < usize::from(self.config.ace_hand) {
            let Some(c) = self.draw_card(Side::Ace, out) else { break };
            self.ace.hand.push(c);
            out.push(Event::Drew { seat, card: Some(c) });
            self.fire_player(seat, Hook::OnCardDraw, out);
        }
    }

    // ---- resolution -----------------------------------------------------------------------

    /// One Action state: `q` resolves. Its card goes to the discard pile as it does.
    fn resolve(&mut self, q: Queued, out: &mut impl Out) {
        let side = self.side_of(q.seat);
        self.deck_mut(side).discard.push(q.card);
        out.push(Event::Resolving { seat: q.seat, card: q.card, target: q.target });
        // One action of the user: Suppression ticks first (rules decision 6).
        self.fire_player(q.seat, Hook::OnAct, out);
        if self.winner.is_some() {
            return;
        }
        if !self.alive(q.seat) || q.target.is_some_and(|t| !self.alive(t)) {
            out.push(Event::Fizzled { seat: q.seat, card: q.card });
            return;
        }
        if let Some(t) = q.target {
            self.fire_player(t, Hook::OnTargeted, out);
        }
        let damage = q.card.def().damage;
        match q.card {
            Card::OpenFire | Card::Sidewinder | Card::AirToAirBarrage => {
                self.damage(q.target.expect("aimed"), damage, q.card, out);
            }
            Card::SweepingFire => {
                for i in 0..self.pilots.len() {
                    let s = Seat(i as u8);
                    if !self.pilots[i].alive() {
                        continue;
                    }
                    if let Some(by) = self.protection(q.seat, s) {
                        // Pulling G's forbids the Ace to aim at its user: Sweeping Fire too.
                        out.push(Event::Spared { seat: s, by });
                        continue;
                    }
                    self.fire_player(s, Hook::OnTargeted, out);
                    self.damage(s, damage, q.card, out);
                    if self.winner.is_some() {
                        return;
                    }
                }
            }
            Card::MidAirRegroup => {
                let t = q.target.expect("aimed");
                let p = &mut self.pilots[t.index()];
                let amount = REGROUP_HEAL.min(self.config.pilot_health - p.health);
                p.health += amount;
                out.push(Event::Healed { seat: t, amount, health: p.health });
            }
            _ => {
                let effect = Effect::lasting(0, q.card, q.seat, side, q.target).expect("a lasting card");
                let effect = self.file.setup(effect);
                out.push(Event::EffectPlaced { effect });
            }
        }
    }

    /// The Pulling G's that forbids `origin` to aim at `target`, if any (Sweeping Fire skips
    /// a pilot it protects: rules decision 7).
    fn protection(&self, origin: Seat, target: Seat) -> Option<u32> {
        let key = Delegate::player(origin, Hook::OnTarget).key();
        self.file.triggers.iter().find_map(|t| {
            if !t.sits_at(key) {
                return None;
            }
            let e = self.file.get(t.effect)?;
            (e.kind == Kind::PullingGs && e.user == target).then_some(e.id)
        })
    }

    /// `seat` takes `amount` from `source`, after its OnDamaged delegate had its say.
    pub(crate) fn damage(&mut self, seat: Seat, amount: i32, source: Card, out: &mut impl Out) {
        let mut amount = amount;
        if self.file.any_player(seat, Hook::OnDamaged) {
            let at = Delegate::player(seat, Hook::OnDamaged);
            for id in self.file.at(at).iter() {
                let Some(e) = self.file.get(id) else { continue };
                // Dodge Roll: one Open Fire or Sweeping Fire hit, in the opposing turn only.
                if e.kind == Kind::DodgeRoll
                    && amount > 0
                    && source.dodgeable()
                    && self.phase.side() == e.user_side.other()
                {
                    amount = 0;
                    out.push(Event::Negated { seat, source, by: id });
                    self.complete(id, out);
                }
            }
        }
        if amount == 0 {
            return;
        }
        let health = if let Some(p) = self.pilots.get_mut(seat.index()) {
            p.health = (p.health - amount).max(0);
            p.health
        } else {
            self.ace.health = (self.ace.health - amount).max(0);
            self.ace.health
        };
        out.push(Event::Damaged { seat, amount, source, health });
        if health == 0 {
            self.shoot_down(seat, out);
        }
    }

    /// A side at 0 ends the fight at once (rules decision 10); a pilot at 0 leaves it, with
    /// its effects, its hand and its unresolved card (decision 9).
    fn shoot_down(&mut self, seat: Seat, out: &mut impl Out) {
        out.push(Event::ShotDown { seat });
        if self.is_ace(seat) {
            self.end(Side::Pilots, out);
            return;
        }
        self.living &= !(1 << seat.0);
        self.waiting &= !(1 << seat.0);
        self.fire_player(seat, Hook::OnDeath, out);
        self.file.clear_player(seat);
        let p = &mut self.pilots[seat.index()];
        p.choice = None;
        p.confirmed = false;
        p.debt = 0;
        let hand = std::mem::take(&mut p.hand);
        let pile = &mut self.decks[Side::Pilots as usize].discard;
        pile.extend(hand);
        self.queue.retain(|q| {
            if q.seat == seat {
                pile.push(q.card);
            }
            q.seat != seat
        });
        if self.living_pilots().next().is_none() {
            self.end(Side::Ace, out);
        }
    }

    fn end(&mut self, winner: Side, out: &mut impl Out) {
        self.winner = Some(winner);
        self.serial.bump();
        self.phase = Phase::Over;
        self.waiting = 0;
        out.push(Event::FightOver { winner });
    }

    fn complete(&mut self, id: u32, out: &mut impl Out) {
        if self.file.complete(id).is_some() {
            out.push(Event::EffectCompleted { id });
        }
    }

    // ---- delegates ------------------------------------------------------------------------

    /// Fires one of a player's delegates (OnDamaged has its own path, as it returns a value):
    /// one bit test when it holds no trigger.
    #[inline]
    fn fire_player(&mut self, seat: Seat, hook: Hook, out: &mut impl Out) {
        if self.file.any_player(seat, hook) {
            self.fire_player_triggers(seat, hook, Delegate::player(seat, hook), out);
        }
    }

    #[inline(never)]
    fn fire_player_triggers(&mut self, seat: Seat, hook: Hook, at: Delegate, out: &mut impl Out) {
        for id in self.file.at(at).iter() {
            if self.winner.is_some() {
                return;
            }
            let Some(e) = self.file.get(id).copied() else { continue };
            match (hook, e.kind) {
                (Hook::OnDeath, _) => self.complete(id, out),
                (Hook::OnAct, Kind::Suppression { actions, turns }) => {
                    let actions = actions - 1;
                    if actions == 0 {
                        self.complete(id, out);
                    } else {
                        let effect = self.file.get_mut(id).expect("live");
                        effect.kind = Kind::Suppression { actions, turns };
                        out.push(Event::EffectCounted { effect: *effect });
                    }
                    self.damage(seat, SUPPRESSION_DAMAGE, Card::Suppression, out);
                }
                _ => {}
            }
        }
    }

    /// Fires a transition's Enter or Exit delegate: one bit test when no trigger sits at the
    /// transition.
    #[inline]
    fn fire_fsm(&mut self, t: Transition, stage: Stage, out: &mut impl Out) {
        if self.file.hooked & Delegate::fsm_bit(t, stage) != 0 {
            self.fire_fsm_triggers(t, Delegate::Fsm { transition: t, stage }, out);
        }
    }

    #[inline(never)]
    fn fire_fsm_triggers(&mut self, t: Transition, at: Delegate, out: &mut impl Out) {
        for id in self.file.at(at).iter() {
            let Some(e) = self.file.get(id).copied() else { continue };
            let opposing = e.user_side.other();
            match e.kind {
                Kind::Suppression { actions, turns } => {
                    let turns = turns - 1;
                    if turns == 0 {
                        self.complete(id, out);
                    } else {
                        let effect = self.file.get_mut(id).expect("live");
                        effect.kind = Kind::Suppression { actions, turns };
                        out.push(Event::EffectCounted { effect: *effect });
                    }
                }
                // "Selection" effects proc at the beginning of the opposing Selection: the
                // restriction goes into the OnTarget delegates of those it binds.
                Kind::PullingGs if t == Transition::into_selection(opposing) => {
                    self.file.place(id, Delegate::player(e.target.expect("aimed"), Hook::OnTarget));
                }
                Kind::IntoTheFog if t == Transition::DrawToSelection => {
                    for i in 0..self.pilots.len() {
                        if self.pilots[i].alive() {
                            self.file.place(id, Delegate::player(Seat(i as u8), Hook::OnTarget));
                        }
                    }
                }
                Kind::CoverFire if t == Transition::BossDrawToBossSelection => {
                    self.ace.picks_left = self.ace.picks_left.min(self.config.ace_plays - 1);
                }
                // Every other transition trigger is the end of the effect's "next turn".
                _ => self.complete(id, out),
            }
        }
    }

    // ---- invariants -----------------------------------------------------------------------

    pub(crate) fn invariants(&self) -> Result<(), String> {
        let queued = |side: Side| self.queue.iter().filter(|q| self.side_of(q.seat) == side).count();
        let pilots_cards = self.decks[0].draw.len()
            + self.decks[0].discard.len()
            + self.pilots.iter().map(|p| p.hand.len()).sum::<usize>()
            + queued(Side::Pilots);
        if pilots_cards != self.config.pilot_deck.total() {
            return Err(format!("pilots' cards: {pilots_cards}, deck has {}", self.config.pilot_deck.total()));
        }
        let ace_cards =
            self.decks[1].draw.len() + self.decks[1].discard.len() + self.ace.hand.len() + queued(Side::Ace);
        if ace_cards != self.config.ace_deck.total() {
            return Err(format!("Ace's cards: {ace_cards}, deck has {}", self.config.ace_deck.total()));
        }
        for (i, p) in self.pilots.iter().enumerate() {
            if !(0..=self.config.pilot_health).contains(&p.health) {
                return Err(format!("pilot {i} health {}", p.health));
            }
            if p.hand.len() > usize::from(self.config.pilot_hand) {
                return Err(format!("pilot {i} holds {} cards", p.hand.len()));
            }
            if !p.alive() && (!p.hand.is_empty() || p.choice.is_some() || p.confirmed) {
                return Err(format!("shot-down pilot {i} still holds cards or a choice"));
            }
            if p.confirmed && p.choice.is_none() {
                return Err(format!("pilot {i} confirmed nothing"));
            }
            if self.phase != Phase::Selection && (p.choice.is_some() || p.confirmed) {
                return Err(format!("pilot {i} has a choice outside Selection"));
            }
        }
        if !(0..=self.config.ace_health).contains(&self.ace.health) {
            return Err(format!("Ace health {}", self.ace.health));
        }
        if self.ace.hand.len() > usize::from(self.config.ace_hand) {
            return Err("the Ace holds too many cards".into());
        }
        for t in &self.file.triggers {
            if self.file.get(t.effect).is_none() {
                return Err(format!("trigger of a completed effect: {t:?}"));
            }
        }
        if self.file.on_target != self.file.work_out_on_target() {
            return Err(format!(
                "OnTarget refusals kept {:?}, worked out {:?}",
                self.file.on_target,
                self.file.work_out_on_target()
            ));
        }
        for s in 0..=self.pilots.len() {
            let origin = Seat(s as u8);
            let scanned = self.forbidden_by_triggers(origin, Delegate::player(origin, Hook::OnTarget));
            if self.forbidden_targets(origin) != scanned {
                return Err(format!(
                    "seat {s} forbidden {:?}, its triggers say {scanned:?}",
                    self.forbidden_targets(origin)
                ));
            }
        }
        for e in &self.file.effects {
            let dead = |s: Seat| !self.is_ace(s) && !self.alive(s);
            if (e.user_side == Side::Pilots && dead(e.user)) || e.target.is_some_and(dead) {
                return Err(format!("effect {e:?} outlived a shot-down pilot"));
            }
        }
        if self.living != self.count_living() {
            return Err(format!("living pilots {:b}, counted {:b}", self.living, self.count_living()));
        }
        let waiting = if self.phase == Phase::Selection { self.count_waiting() } else { 0 };
        if self.waiting != waiting {
            return Err(format!("waiting pilots {:b}, counted {waiting:b}", self.waiting));
        }
        let over = self.winner.is_some();
        if over != (self.phase == Phase::Over) {
            return Err("phase Over and a winner go together".into());
        }
        if !over && (self.ace.health == 0 || self.living_pilots().next().is_none()) {
            return Err("a side is at 0 but the fight goes on".into());
        }
        if !over && !matches!(self.phase, Phase::Action | Phase::BossAction | Phase::BossSelection | Phase::Selection) {
            // Between steps the queue is empty except while cards wait to resolve.
            if !self.queue.is_empty() {
                return Err(format!("queue not empty in {:?}", self.phase));
            }
        }
        Ok(())
    }
}
