//! The rules: setup, applying an action, and the state machine worked to the next decision;
//! a queued card's [`resolution`] and the [`triggers`] it files are parts of their own.
//! Legality (who acts, targets, the legal list, `check`) is in [`crate::legal`].

mod resolution;
mod triggers;

use crate::action::{Action, Choice, Event, Revealed};
use crate::cards::{Card, Side};
use crate::config::Config;
use crate::effect::{Delegate, EffectFile, Hook};
use crate::out::Out;
use crate::phase::{Phase, Stage, Transition};
use crate::state::{Ace, Deck, Pilot, Queued, WolfPack};
use engine::{MatchRng, RuleError, Seat, SetupError};
use std::collections::VecDeque;

/// Healing of Mid-Air Regroup.
pub const REGROUP_HEAL: i32 = 10;

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
