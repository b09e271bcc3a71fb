//! Legality: `check` (through `verdict`), the one place that decides whether an action is
//! allowed; the legal-action lists it defines ([`lists`]); and why an action is refused
//! ([`refusal`]). Also who must answer now and what a seat that does not answer is taken to do.

mod lists;
mod refusal;

pub(crate) use refusal::Refusal;

use crate::action::{Action, Slot};
use crate::cards::{Card, Colour, Colours};
use crate::rules::{RBY, duplicated_values, strips_any};
use crate::state::{Ivanhoe, Phase};
use engine::flow::Window;
use engine::{RuleError, Seat, SeatSet};

/// An action's verdict: `Ok`, or why it is refused (no message built until it leaves the crate).
pub(crate) type Verdict = Result<(), Refusal>;

impl Ivanhoe {
    /// Whether `seat` may take `action` now, and if not, why. The only judge of legality.
    pub fn check(&self, seat: Seat, action: &Action) -> Result<(), RuleError> {
        self.verdict(seat, action).map_err(RuleError::from)
    }

    /// `check` without building a message.
    pub(crate) fn verdict(&self, seat: Seat, action: &Action) -> Verdict {
        if seat.index() >= self.players.len() {
            return Err(Refusal::NoSuchSeat(seat));
        }
        match &self.phase {
            Phase::Over { .. } => Err(Refusal::GameOver),
            Phase::Window => {
                if !self.open_window().waits_on(seat) {
                    return Err(Refusal::NotYourTurn);
                }
                match action {
                    Action::Pass => Ok(()),
                    Action::Ivanhoe if self.players[seat].hand.has(Card::Ivanhoe) => Ok(()),
                    Action::Ivanhoe => Err(Refusal::NoIvanhoe),
                    _ => Err(Refusal::WindowOpen),
                }
            }
            Phase::Start => {
                if seat != self.active {
                    return Err(Refusal::NotYourTurn);
                }
                match *action {
                    Action::Start { colour, card } => self.check_start(seat, colour, card),
                    _ => Err(Refusal::MustStart),
                }
            }
            Phase::Turn => {
                if seat != self.active {
                    return match action {
                        Action::Ivanhoe => Err(Refusal::NoWindow),
                        _ => Err(Refusal::NotYourTurn),
                    };
                }
                match *action {
                    Action::Play { card } => self.check_play(seat, card),
                    Action::EndTurn => Ok(()),
                    Action::Start { .. } => Err(Refusal::AlreadyStarted),
                    Action::Ivanhoe => Err(Refusal::IvanhoeOnOwnTurn),
                    Action::Pass | Action::Keep { .. } | Action::ReturnToken { .. } | Action::ChooseToken { .. } => {
                        Err(Refusal::WrongPhase)
                    }
                    _ => self.check_card(seat, action),
                }
            }
            Phase::Adapt { queue } => {
                let (owner, value) = queue[0];
                if seat != owner {
                    return Err(Refusal::NotYourTurn);
                }
                match *action {
                    Action::Keep { card } if card.is_value() && card.value() == value => {
                        if self.players[seat].display.contains(&card) {
                            Ok(())
                        } else {
                            Err(Refusal::NotInDisplay(card))
                        }
                    }
                    Action::Keep { .. } => Err(Refusal::WrongValue(value)),
                    _ => Err(Refusal::MustKeep(value)),
                }
            }
            Phase::MaidenPenalty => {
                if seat != self.active {
                    return Err(Refusal::NotYourTurn);
                }
                match *action {
                    Action::ReturnToken { colour } if self.players[seat].tokens.contains(colour) => Ok(()),
                    Action::ReturnToken { colour } => Err(Refusal::TokenNotHeld(colour)),
                    _ => Err(Refusal::MustReturnToken),
                }
            }
            Phase::PurpleToken { winner } => {
                if seat != *winner {
                    return Err(Refusal::NotYourTurn);
                }
                match *action {
                    Action::ChooseToken { colour } if !self.players[seat].tokens.contains(colour) => Ok(()),
                    Action::ChooseToken { colour } => Err(Refusal::TokenAlreadyHeld(colour)),
                    _ => Err(Refusal::MustChooseToken),
                }
            }
        }
    }

    /// The colours the designated starter may open with (§5.3), from their hand now.
    pub fn allowed_colours(&self, seat: Seat) -> Colours {
        let hand = &self.players[seat].hand;
        let mut allowed = if hand.has_supporter() { Colours::ALL } else { hand.colours() };
        if self.previous == Some(Colour::Purple) {
            allowed.remove(Colour::Purple);
        }
        allowed
    }

    fn check_start(&self, seat: Seat, colour: Colour, card: Card) -> Verdict {
        if !self.players[seat].hand.has(card) {
            return Err(Refusal::NotInHand(card));
        }
        if card.is_action() {
            return Err(Refusal::OpenWithAction);
        }
        if !self.allowed_colours(seat).contains(colour) {
            return if colour == Colour::Purple && self.previous == Some(Colour::Purple) {
                Err(Refusal::PurpleTwice)
            } else {
                Err(Refusal::ColourNotAllowed(colour))
            };
        }
        if let Some(c) = card.colour()
            && c != colour
        {
            return Err(Refusal::NotThatColour(colour));
        }
        Ok(())
    }

    fn check_play(&self, seat: Seat, card: Card) -> Verdict {
        let p = &self.players[seat];
        if !p.hand.has(card) {
            return Err(Refusal::NotInHand(card));
        }
        if card.is_action() {
            return Err(Refusal::NotAValueCard(card));
        }
        if let Some(c) = card.colour()
            && Some(c) != self.colour
        {
            return Err(Refusal::NotTournamentColour(self.colour));
        }
        if card.is_maiden() && p.display.contains(&Card::Maiden) {
            return Err(Refusal::MaidenLimit);
        }
        if self.stunned == Some(seat) && self.added >= 1 {
            return Err(Refusal::Stunned);
        }
        Ok(())
    }

    /// An opponent still in the tournament.
    fn check_opponent(&self, seat: Seat, target: Seat) -> Verdict {
        if target == seat || target.index() >= self.players.len() {
            return Err(Refusal::ChooseAnotherPlayer);
        }
        if self.players[target].withdrawn {
            return Err(Refusal::TargetWithdrawn(target));
        }
        Ok(())
    }

    fn check_unshielded(&self, target: Seat) -> Verdict {
        if self.shield == Some(target) {
            return Err(Refusal::Shielded(target));
        }
        Ok(())
    }

    fn check_card(&self, seat: Seat, action: &Action) -> Verdict {
        let card = action.action_card().expect("check_card is called for action cards");
        if !self.players[seat].hand.has(card) {
            return Err(Refusal::NotInHand(card));
        }
        let me = &self.players[seat];
        let no_effect = || Err(Refusal::NoEffect(card));
        match *action {
            Action::Unhorse { colour } => {
                if self.colour != Some(Colour::Purple) {
                    return Err(Refusal::UnhorseNotPurple);
                }
                if !RBY.contains(colour) {
                    return Err(Refusal::UnhorseColour);
                }
            }
            Action::ChangeWeapon { colour } => {
                if !self.colour.is_some_and(|c| RBY.contains(c)) {
                    return Err(Refusal::ChangeWeaponNotRby);
                }
                if !RBY.contains(colour) || Some(colour) == self.colour {
                    return Err(Refusal::ChangeWeaponColour);
                }
            }
            Action::DropWeapon => {
                if !self.colour.is_some_and(|c| RBY.contains(c)) {
                    return Err(Refusal::DropWeaponNotRby);
                }
            }
            Action::BreakLance { target } => {
                self.check_opponent(seat, target)?;
                self.check_unshielded(target)?;
                if !self.lance_hits(target) {
                    return no_effect();
                }
            }
            Action::Riposte { target } => {
                self.check_opponent(seat, target)?;
                self.check_unshielded(target)?;
                self.check_riposte(seat, target)?;
            }
            Action::Dodge { target, pos } => {
                self.check_opponent(seat, target)?;
                self.check_unshielded(target)?;
                let d = &self.players[target].display;
                if pos as usize >= d.len() {
                    return Err(Refusal::NoSuchPosition);
                }
                if d.len() < 2 {
                    return Err(Refusal::LastCardRemoved);
                }
            }
            Action::Retreat { pos } => {
                if pos as usize >= me.display.len() {
                    return Err(Refusal::NoSuchOwnPosition);
                }
                if me.display.len() < 2 {
                    return Err(Refusal::LastCardRetreat);
                }
            }
            Action::KnockDown { target } => {
                if target == seat || target.index() >= self.players.len() {
                    return Err(Refusal::ChooseAnotherPlayer);
                }
                self.check_unshielded(target)?;
                if self.players[target].hand.is_empty() {
                    return Err(Refusal::EmptyHand(target));
                }
            }
            Action::Outmaneuver if !self.outmaneuver_hits(seat) => return no_effect(),
            Action::Charge if !self.charge_hits(seat, true) => return no_effect(),
            Action::Countercharge if !self.charge_hits(seat, false) => return no_effect(),
            Action::Disgrace if !self.disgrace_hits(seat) => return no_effect(),
            Action::Adapt if !self.adapt_hits(seat) => return no_effect(),
            Action::Outmaneuver | Action::Charge | Action::Countercharge | Action::Disgrace | Action::Adapt => {}
            Action::Outwit { give, target, take } => {
                self.check_opponent(seat, target)?;
                self.check_swap(seat, give, target, take)?;
            }
            Action::Shield => {}
            Action::Stunned { target } => self.check_opponent(seat, target)?,
            _ => unreachable!("not an action card"),
        }
        Ok(())
    }

    /// Riposte against `target`, an unshielded opponent: their last card can join `seat`'s
    /// display.
    fn check_riposte(&self, seat: Seat, target: Seat) -> Verdict {
        let d = &self.players[target].display;
        if d.len() < 2 {
            return Err(Refusal::LastCardTaken);
        }
        if d.last() == Some(&Card::Maiden) && self.players[seat].display.contains(&Card::Maiden) {
            return Err(Refusal::TwoMaidens);
        }
        if self.stunned == Some(seat) && self.added >= 1 {
            return Err(Refusal::StunnedAlreadyAdded);
        }
        Ok(())
    }

    /// Outwit against `target`, an opponent still in: the two face-up cards named exist and
    /// swapping them is allowed and changes something.
    fn check_swap(&self, seat: Seat, give: Slot, target: Seat, take: Slot) -> Verdict {
        let Some(gave) = self.slot_card(seat, give) else {
            return Err(Refusal::NoSuchOwnSlot);
        };
        let Some(took) = self.slot_card(target, take) else {
            return Err(Refusal::NoSuchSlot(target));
        };
        let (mine, theirs) = (&self.players[seat].display, &self.players[target].display);
        let give_display = matches!(give, Slot::Display { .. });
        let take_display = matches!(take, Slot::Display { .. });
        if (give_display && mine.len() == 1 && !take_display) || (take_display && theirs.len() == 1 && !give_display) {
            return Err(Refusal::OutwitLastCard);
        }
        let maidens = |d: &[Card], out: Option<Card>, inc: Option<Card>| {
            d.iter().filter(|c| c.is_maiden()).count() - usize::from(out == Some(Card::Maiden))
                + usize::from(inc == Some(Card::Maiden))
        };
        let gd = give_display.then_some(gave);
        let td = take_display.then_some(took);
        if maidens(mine, gd, td) > 1 || maidens(theirs, td, gd) > 1 {
            return Err(Refusal::MaidenLimit);
        }
        // Swapping two identical cards that are already both last changes nothing.
        if let (Slot::Display { pos: a }, Slot::Display { pos: b }) = (give, take)
            && gave == took
            && a as usize == mine.len() - 1
            && b as usize == theirs.len() - 1
        {
            return Err(Refusal::NoEffect(Card::Outwit));
        }
        Ok(())
    }

    // ----- what an action card would change: `check_card` and the legal lists ask these ----

    /// Break Lance would discard a purple card of `target`'s.
    fn lance_hits(&self, target: Seat) -> bool {
        strips_any(&self.players[target].display, |c| c.colour() == Some(Colour::Purple))
    }

    /// Outmaneuver would discard a card: an unshielded opponent still in has two or more.
    fn outmaneuver_hits(&self, seat: Seat) -> bool {
        self.players.iter().any(|(s, p)| s != seat && !p.withdrawn && self.shield != Some(s) && p.display.len() >= 2)
    }

    /// Charge (`lowest`) or Countercharge would discard a card.
    fn charge_hits(&self, seat: Seat, lowest: bool) -> bool {
        self.charge_value(lowest)
            .is_some_and(|v| self.affected(seat).any(|s| strips_any(&self.players[s].display, |c| c.value() == v)))
    }

    /// Disgrace would discard a supporter.
    fn disgrace_hits(&self, seat: Seat) -> bool {
        self.affected(seat).any(|s| strips_any(&self.players[s].display, |c| c.is_supporter()))
    }

    /// Adapt would discard a card: an affected display holds a value twice.
    fn adapt_hits(&self, seat: Seat) -> bool {
        self.affected(seat).any(|s| duplicated_values(&self.players[s].display) != 0)
    }

    /// The card in `seat`'s face-up `slot`, if there is one.
    fn slot_card(&self, seat: Seat, slot: Slot) -> Option<Card> {
        match slot {
            Slot::Display { pos } => self.players[seat].display.get(pos as usize).copied(),
            Slot::Shield => (self.shield == Some(seat)).then_some(Card::Shield),
            Slot::Stunned => (self.stunned == Some(seat)).then_some(Card::Stunned),
        }
    }

    /// The seats whose displays Charge, Countercharge, Disgrace and Adapt touch: the player's
    /// own and every unshielded opponent still in the tournament.
    pub(crate) fn affected(&self, seat: Seat) -> impl Iterator<Item = Seat> + '_ {
        self.players
            .iter()
            .filter(move |(s, p)| !p.withdrawn && (*s == seat || self.shield != Some(*s)))
            .map(|(s, _)| s)
    }

    /// The lowest (Charge) or highest (Countercharge) printed value in all displays, shielded
    /// ones included (§9 A-7).
    pub(crate) fn charge_value(&self, lowest: bool) -> Option<u8> {
        let values = self.players.values().flat_map(|p| p.display.iter().map(|c| c.value()));
        if lowest { values.min() } else { values.max() }
    }

    /// The window being answered; only asked in [`Phase::Window`], which stands for it in the
    /// phase so that every match on the phase stays one jump.
    fn open_window(&self) -> &Window<Action> {
        self.windows.top().expect("Phase::Window has an open window")
    }

    /// Who must answer now.
    #[inline]
    pub(crate) fn waiting_on(&self) -> SeatSet {
        match &self.phase {
            Phase::Start | Phase::Turn | Phase::MaidenPenalty => SeatSet::one(self.active),
            Phase::Window => self.open_window().to_answer(),
            Phase::Adapt { queue } => SeatSet::one(queue[0].0),
            Phase::PurpleToken { winner } => SeatSet::one(*winner),
            Phase::Over { .. } => SeatSet::EMPTY,
        }
    }

    /// What a seat that does not answer in time is taken to do: pass an Ivanhoe window, keep
    /// the earliest copy for Adapt, give back the token last in the order purple, red, blue,
    /// yellow, green (§9 A-10), take the first colour lacked, end a turn, open with the first
    /// legal start.
    pub fn default_action(&self, seat: Seat) -> Option<Action> {
        if !self.waiting_on().contains(seat) {
            return None;
        }
        let p = &self.players[seat];
        Some(match &self.phase {
            Phase::Window => Action::Pass,
            Phase::Adapt { queue } => {
                let v = queue[0].1;
                Action::Keep { card: *p.display.iter().find(|c| c.value() == v)? }
            }
            Phase::MaidenPenalty => Action::ReturnToken { colour: p.tokens.iter().last()? },
            Phase::PurpleToken { .. } => Action::ChooseToken { colour: p.tokens.complement().iter().next()? },
            Phase::Turn => Action::EndTurn,
            Phase::Start => {
                let mut v = Vec::new();
                self.legal_into(seat, &mut v);
                *v.first()?
            }
            Phase::Over { .. } => return None,
        })
    }
}
