//! The end of the game and of a seat: victory, the hostility record, and death.

use crate::action::{Event, Side};
use crate::cards::{Kind, Slot};
use crate::config::Role;
use crate::state::*;
use engine::Seat;

impl ThreeKingdoms {
    pub(super) fn finish(&mut self, side: Side, out: &mut Vec<Event>) {
        if self.is_over() {
            return;
        }
        self.step = Step::Over(side);
        self.stack.clear();
        self.pending = None;
        for p in &mut self.players {
            p.revealed = true;
        }
        let roles = Seat::all(self.num_players()).map(|s| (s, self.p(s).role)).collect();
        let alive = Seat::all(self.num_players()).filter(|&s| self.alive(s)).collect();
        out.push(Event::GameOver { winners: side, roles, alive });
    }

    /// Updates the public hostility record from what just happened.
    pub(crate) fn record(&mut self, events: &[Event]) {
        let lord = self.lord;
        for e in events {
            match *e {
                Event::UsedCard { seat, used, targets } => {
                    let harmful = matches!(
                        used.kind,
                        Kind::Attack | Kind::Duel | Kind::Dismantle | Kind::StealingSheep | Kind::Acedia
                    );
                    for t in targets.iter() {
                        if t == seat || seat == lord && !harmful {
                            continue;
                        }
                        let h = &mut self.hostility;
                        match (harmful, t == lord) {
                            (true, true) => h[seat.index()] += 2,
                            (true, false) if h[t.index()] > 0 => h[seat.index()] -= 1,
                            (true, false) if h[t.index()] < 0 => h[seat.index()] += 1,
                            (false, true) if used.kind == Kind::Peach => h[seat.index()] -= 2,
                            _ => {}
                        }
                    }
                }
                Event::Damaged { seat, source: Some(src), .. } if seat == lord && src != lord => {
                    self.hostility[src.index()] += 1
                }
                _ => {}
            }
        }
    }

    pub(super) fn die(&mut self, seat: Seat, killer: Option<Seat>, out: &mut Vec<Event>) {
        let role = self.p(seat).role;
        {
            let p = self.pm(seat);
            p.alive = false;
            p.revealed = true;
        }
        out.push(Event::Died { seat, role, killer });
        // Victory first (rules §6.2, §7).
        let alive: Vec<Seat> = self.order_from(seat).collect();
        if role == Role::Lord {
            let side =
                if alive.len() == 1 && self.p(alive[0]).role == Role::Spy { Side::Spy(alive[0]) } else { Side::Rebels };
            self.finish(side, out);
            return;
        }
        if !alive.iter().any(|&s| matches!(self.p(s).role, Role::Rebel | Role::Spy)) {
            self.finish(Side::LordAndLoyalists, out);
            return;
        }
        let mut cards = std::mem::take(&mut self.pm(seat).hand);
        let p = self.pm(seat);
        cards.extend(p.equip.iter_mut().filter_map(Option::take));
        cards.extend(p.judge.drain(..).map(|(c, _)| c));
        self.discard_cards(seat, cards, out);
        if let Some(k) = killer.filter(|&k| self.alive(k)) {
            if role == Role::Rebel {
                out.push(Event::Reward { seat: k, victim: seat });
                self.draw_cards(k, 3, out);
            } else if role == Role::Loyalist && self.p(k).role == Role::Lord {
                out.push(Event::Penalty { seat: k, victim: seat });
                let mut lost = std::mem::take(&mut self.pm(k).hand);
                for slot in Slot::ALL {
                    if let Some(c) = self.unequip(k, slot, out) {
                        lost.push(c);
                    }
                }
                self.discard_cards(k, lost, out);
            }
        }
        if seat == self.current {
            // The turn of a dead player ends at once; what was resolving stops.
            for f in std::mem::take(&mut self.stack) {
                let _ = f;
            }
            let stray = std::mem::take(&mut self.processing);
            self.discard.extend(stray);
            self.peek = None;
            self.pending = None;
            self.step = Step::End;
        }
    }
}
