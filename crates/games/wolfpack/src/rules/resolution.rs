//! Resolution: a queued card worked out (its effect filed, its damage dealt), damage with its
//! protection, a pilot shot down, and the end of the fight.

use super::REGROUP_HEAL;
use crate::action::Event;
use crate::cards::{Card, Side};
use crate::effect::{Delegate, Effect, Hook, Kind};
use crate::out::Out;
use crate::phase::Phase;
use crate::state::{Queued, WolfPack};
use engine::Seat;

impl WolfPack {
    /// One Action state: `q` resolves. Its card goes to the discard pile as it does.
    pub(super) fn resolve(&mut self, q: Queued, out: &mut impl Out) {
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

    pub(super) fn end(&mut self, winner: Side, out: &mut impl Out) {
        self.winner = Some(winner);
        self.serial.bump();
        self.phase = Phase::Over;
        self.waiting = 0;
        out.push(Event::FightOver { winner });
    }

    pub(super) fn complete(&mut self, id: u32, out: &mut impl Out) {
        if self.file.complete(id).is_some() {
            out.push(Event::EffectCompleted { id });
        }
    }
}
