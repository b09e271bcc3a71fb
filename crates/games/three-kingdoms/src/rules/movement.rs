//! Card movement: drawing, hands, equipment, the processing area and the discard pile.

use crate::action::{Event, Side, Used, Zone};
use crate::cards::{CardId, Slot};
use crate::generals::Skill;
use crate::state::*;
use engine::Seat;

impl ThreeKingdoms {
    /// The top card of the draw pile, reshuffling the discard pile when it is empty. `None`
    /// (and the game ends with no winner) when both are empty.
    pub(super) fn top_card(&mut self, out: &mut Vec<Event>) -> Option<CardId> {
        if self.draw.is_empty() {
            if self.discard.is_empty() {
                self.finish(Side::Nobody, out);
                return None;
            }
            std::mem::swap(&mut self.draw, &mut self.discard);
            self.rng.shuffle(&mut self.draw);
            out.push(Event::Reshuffled { cards: self.draw.len() as u8 });
        }
        self.draw.pop()
    }

    pub(crate) fn draw_cards(&mut self, seat: Seat, n: u8, out: &mut Vec<Event>) {
        let mut cards = Vec::with_capacity(n as usize);
        for _ in 0..n {
            match self.top_card(out) {
                Some(c) => cards.push(c),
                None => return,
            }
        }
        self.pm(seat).hand.extend(&cards);
        let hand = self.p(seat).hand.len() as u8;
        out.push(Event::Drew { seat, count: cards.len() as u8, cards, hand });
    }

    pub(super) fn remove_from_hand(&mut self, seat: Seat, card: CardId) -> bool {
        let hand = &mut self.pm(seat).hand;
        match hand.iter().position(|&c| c == card) {
            Some(i) => {
                hand.remove(i);
                true
            }
            None => false,
        }
    }

    /// Takes `card` from `seat`'s hand or equipment (Warrior Woman draws for equipment).
    pub(super) fn take_own(&mut self, seat: Seat, card: CardId, out: &mut Vec<Event>) {
        if self.remove_from_hand(seat, card) {
            return;
        }
        if let Some(slot) = Slot::ALL.into_iter().find(|s| self.p(seat).equip[s.index()] == Some(card)) {
            self.unequip(seat, slot, out);
        }
    }

    pub(super) fn unequip(&mut self, seat: Seat, slot: Slot, out: &mut Vec<Event>) -> Option<CardId> {
        let c = self.pm(seat).equip[slot.index()].take();
        if c.is_some() && self.has(seat, Skill::WarriorWoman) {
            out.push(Event::SkillUsed { seat, skill: Skill::WarriorWoman });
            self.draw_cards(seat, 2, out);
        }
        c
    }

    /// Takes the card at `zone` from `from`.
    pub(super) fn take_zone(&mut self, from: Seat, zone: Zone, out: &mut Vec<Event>) -> Option<CardId> {
        match zone {
            Zone::Hand(i) => {
                let h = &mut self.pm(from).hand;
                ((i as usize) < h.len()).then(|| h.remove(i as usize))
            }
            Zone::Equip(slot) => self.unequip(from, slot, out),
            Zone::Judge(i) => {
                let j = &mut self.pm(from).judge;
                ((i as usize) < j.len()).then(|| j.remove(i as usize).0)
            }
        }
    }

    /// Takes the card another seat picked at `zone` of `from`. Hand cards are chosen blind: the
    /// hand is presented to the picker in an order shuffled for this pick from the match RNG,
    /// so a position carries no information (not even where a card seen entering the hand lies).
    pub(super) fn take_picked(&mut self, from: Seat, zone: Zone, out: &mut Vec<Event>) -> Option<CardId> {
        match zone {
            Zone::Hand(i) => {
                let n = self.p(from).hand.len();
                if (i as usize) >= n {
                    return None;
                }
                let mut order: Vec<u8> = (0..n as u8).collect();
                self.rng.shuffle(&mut order);
                self.take_zone(from, Zone::Hand(order[i as usize]), out)
            }
            _ => self.take_zone(from, zone, out),
        }
    }

    pub(super) fn discard_cards(&mut self, seat: Seat, cards: Vec<CardId>, out: &mut Vec<Event>) {
        if cards.is_empty() {
            return;
        }
        self.discard.extend(&cards);
        let hand = self.p(seat).hand.len() as u8;
        let hp = self.p(seat).hp;
        out.push(Event::Discarded { seat, cards, hand, hp });
    }

    pub(super) fn unprocess(&mut self, card: CardId) -> bool {
        match self.processing.iter().position(|&c| c == card) {
            Some(i) => {
                self.processing.remove(i);
                true
            }
            None => false,
        }
    }

    /// Puts whatever of `used` is still being processed on the discard pile.
    pub(super) fn settle(&mut self, used: Used) {
        for c in used.physical() {
            if self.unprocess(c) {
                self.discard.push(c);
            }
        }
    }

    pub(super) fn equip(&mut self, seat: Seat, card: CardId, out: &mut Vec<Event>) {
        let slot = card.kind().slot().expect("equipment");
        if let Some(old) = self.unequip(seat, slot, out) {
            self.discard_cards(seat, vec![old], out);
        }
        self.pm(seat).equip[slot.index()] = Some(card);
        out.push(Event::Equipped { seat, card });
    }

    pub(super) fn recover(&mut self, seat: Seat, amount: i8, out: &mut Vec<Event>) {
        let p = self.pm(seat);
        let gained = amount.min(p.max_hp - p.hp);
        if gained > 0 {
            p.hp += gained;
            let hp = p.hp;
            out.push(Event::Recovered { seat, amount: gained, hp });
        }
    }

    pub(super) fn end_judgement(&mut self, seat: Seat, card: CardId, out: &mut Vec<Event>) {
        if !self.unprocess(card) {
            return;
        }
        if self.has(seat, Skill::EnvyOfHeaven) {
            self.pm(seat).hand.push(card);
            out.push(Event::SkillUsed { seat, skill: Skill::EnvyOfHeaven });
            out.push(Event::Gained { seat, card });
        } else {
            self.discard.push(card);
        }
    }
}
