//! The triggers: the delegates a player or the turn's state machine fires, and the effects
//! filed on them.

use crate::action::Event;
use crate::cards::Card;
use crate::effect::{Delegate, Hook, Kind, SUPPRESSION_DAMAGE};
use crate::out::Out;
use crate::phase::{Stage, Transition};
use crate::state::WolfPack;
use engine::Seat;

impl WolfPack {
    /// Fires one of a player's delegates (OnDamaged has its own path, as it returns a value):
    /// one bit test when it holds no trigger.
    #[inline]
    pub(super) fn fire_player(&mut self, seat: Seat, hook: Hook, out: &mut impl Out) {
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
    pub(super) fn fire_fsm(&mut self, t: Transition, stage: Stage, out: &mut impl Out) {
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
}
