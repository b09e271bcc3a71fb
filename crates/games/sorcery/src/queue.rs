//! The effect queue: everything that happens after a card is played, an ability used, a minion
//! attacks or a turn changes is an [`Effect`] value worked to completion here.
//!
//! The queue is the engine's [`EffectQueue`], worked by [`EffectQueue::run`]. When an effect
//! sets off more effects — a minion dies, a minion enters play — they are its follow-ups, in
//! APNAP order, so they resolve completely before the rest of what was already queued. That
//! gives the spec's sequencing: Blizzard hits minions one at a time, and each death (with its
//! leave-play triggers) is over before the next minion is hit.
//!
//! Before every effect (the queue's state check) any minion whose defence is 0 or less starts
//! dying (APNAP order), so deaths caused by damage, Disenchant or anything else are handled in
//! one place.

use crate::action::{Event, MinionRef};
use crate::cards::{CardId, TriggerEffect, When};
pub use crate::effect::{Effect, Source, Zone};
use crate::state::{BOARD_SIZE, Card, Minion, Player, Sorcery, Status, other};
use engine::Seat;
use engine::flow::{Control, EffectQueue, Resolve};

/// More effects than one action can cause: every chain of Sorcery effects settles (each
/// trigger is set off by a minion entering or leaving a board of at most five a side), so
/// reaching this is a bug, and the queue stops there rather than hang.
const QUEUE_LIMIT: u32 = 10_000;

/// The game's side of the engine's queue: a match and the events it is writing.
struct Resolving<'a> {
    game: &'a mut Sorcery,
    out: &'a mut Vec<Event>,
}

impl Resolve<Effect> for Resolving<'_> {
    #[inline]
    fn queue(&mut self) -> &mut EffectQueue<Effect> {
        &mut self.game.queue
    }

    #[inline]
    fn resolve(&mut self, effect: Effect, then: &mut Vec<Effect>) -> Control {
        self.game.resolve(effect, self.out, then);
        if self.game.status == Status::Playing { Control::Continue } else { Control::Stop }
    }

    #[inline]
    fn check(&mut self, then: &mut Vec<Effect>) {
        self.game.check_deaths(then);
    }
}

impl Sorcery {
    /// Queues `effects` so that the first of them resolves next.
    pub(crate) fn schedule(&mut self, effects: &[Effect]) {
        self.queue.schedule(effects.iter().copied());
    }

    /// Works the queue to completion (or until the game is won).
    pub(crate) fn run_queue(&mut self, out: &mut Vec<Event>) {
        let settled = EffectQueue::run(&mut Resolving { game: self, out }, QUEUE_LIMIT);
        debug_assert!(settled.is_ok(), "{settled:?}");
        self.queue.clear();
    }

    /// Minions at 0 defence or less start dying, in APNAP order.
    #[inline]
    fn check_deaths(&mut self, then: &mut Vec<Effect>) {
        for seat in self.apnap() {
            for m in &mut self.players[seat.index()].board {
                if !m.leaving && m.defence() <= 0 {
                    m.leaving = true;
                    then.push(Effect::Leave { uid: m.uid, to: Zone::Graveyard });
                }
            }
        }
    }

    fn minion_ref(&self, uid: u32) -> Option<MinionRef> {
        let (player, i) = self.find(uid)?;
        Some(MinionRef { player, card: self.player(player).board[i].card.id })
    }

    /// Resolves one effect; what it sets off goes into `then`, first to resolve first.
    fn resolve(&mut self, effect: Effect, out: &mut Vec<Event>, then: &mut Vec<Effect>) {
        match effect {
            Effect::Damage { uid, amount } => {
                let Some(minion) = self.minion_ref(uid) else { return };
                let m = self.minion_mut(uid).expect("found above");
                m.card.defence -= amount;
                let (attack, defence) = m.stats();
                out.push(Event::MinionDamaged { minion, amount, attack, defence });
            }
            Effect::HitPlayer { player, amount } => {
                let p = self.player_mut(player);
                p.life -= amount;
                if p.life <= 0 {
                    self.status = Status::Won { winner: other(player) };
                    out.push(Event::GameWon { winner: other(player) });
                }
            }
            Effect::Leave { uid, to } => {
                let Some(minion) = self.minion_ref(uid) else { return };
                self.minion_mut(uid).expect("found above").leaving = true;
                out.push(match to {
                    Zone::Graveyard => Event::MinionDied { minion },
                    Zone::Hand => Event::MinionReturned { minion },
                });
                // The leaving minion is still on the board, so its own trigger fires too,
                // before its enchantments are removed (spec 3.4).
                triggers(&self.players, self.active, When::MinionLeaves, Some(uid), then);
                then.push(Effect::Remove { uid, to });
            }
            Effect::Remove { uid, to } => {
                let Some((seat, i)) = self.find(uid) else { return };
                let p = self.player_mut(seat);
                let m = p.board.remove(i);
                p.removed += m.enchantments.len() as u32;
                match to {
                    Zone::Hand if p.hand.len() < crate::state::HAND_SIZE => p.hand.push(m.card),
                    _ => p.graveyard.push(m.card),
                }
            }
            Effect::Enter { player, card, created } => {
                if self.player(player).board.len() >= BOARD_SIZE {
                    // Only a summon can find the board full (plays are checked first); the
                    // would-be minion never exists.
                    if !created {
                        let p = self.player_mut(player);
                        p.graveyard.push(card);
                    }
                    return;
                }
                let uid = self.next_uid;
                self.next_uid += 1;
                let p = self.player_mut(player);
                if created {
                    p.created += 1;
                }
                p.board.push(Minion { card, uid, actions: 0, enchantments: Vec::new(), leaving: false });
                out.push(Event::MinionEntered {
                    minion: MinionRef { player, card: card.id },
                    attack: card.attack,
                    defence: card.defence,
                });
                triggers(&self.players, self.active, When::MinionEnters, Some(uid), then);
            }
            Effect::Fire { source, effect, subject } => self.fire(source, effect, subject, out, then),
        }
    }

    fn fire(
        &mut self,
        source: Source,
        effect: TriggerEffect,
        subject: Option<u32>,
        out: &mut Vec<Event>,
        then: &mut Vec<Effect>,
    ) {
        // A trigger about a minion that has already left play does nothing and spends no
        // charges (rules 3.5.8).
        let subject_present = subject.and_then(|u| self.minion(u)).is_some_and(|m| !m.leaving);
        match effect {
            TriggerEffect::BuffSelf { attack, defence } => {
                if let Source::Minion { uid } = source {
                    self.buff(uid, attack, defence, out);
                }
            }
            TriggerEffect::DamageEnteringOpponent(n) => {
                if subject_present {
                    self.resolve(Effect::Damage { uid: subject.expect("present"), amount: n }, out, then);
                }
            }
            TriggerEffect::BuffAllYours { attack, defence } => {
                if let Source::Minion { uid } = source
                    && let Some((seat, _)) = self.find(uid)
                {
                    let uids: Vec<u32> = self.player(seat).board.iter().map(|m| m.uid).collect();
                    for u in uids {
                        self.buff(u, attack, defence, out);
                    }
                }
            }
            TriggerEffect::GainMagic(n) => {
                if let Source::Ritual { owner } = source
                    && self.spend_charges(owner, out)
                {
                    let p = self.player_mut(owner);
                    p.magic += n;
                    let magic = p.magic;
                    out.push(Event::MagicGained { player: owner, amount: n, magic });
                }
            }
            TriggerEffect::BuffEnteringYours { attack, defence } => {
                if let Source::Ritual { owner } = source
                    && subject_present
                    && self.spend_charges(owner, out)
                {
                    self.buff(subject.expect("present"), attack, defence, out);
                }
            }
            TriggerEffect::DestroyEntering => {
                if let Source::Ritual { owner } = source
                    && subject_present
                    && self.spend_charges(owner, out)
                {
                    let uid = subject.expect("present");
                    self.minion_mut(uid).expect("present").leaving = true;
                    then.push(Effect::Leave { uid, to: Zone::Graveyard });
                }
            }
        }
    }

    /// A ritual activation: spends its activation cost if it has the charges.
    fn spend_charges(&mut self, owner: Seat, out: &mut Vec<Event>) -> bool {
        let Some(r) = self.player_mut(owner).ritual.as_mut() else { return false };
        let cost = r.id.def().activation_cost;
        if r.charges < cost {
            return false;
        }
        r.charges -= cost;
        out.push(Event::ChargesChanged { player: owner, card: r.id, charges: r.charges });
        true
    }

    /// A permanent change to a minion's own values.
    pub(crate) fn buff(&mut self, uid: u32, attack: i32, defence: i32, out: &mut Vec<Event>) {
        let Some(minion) = self.minion_ref(uid) else { return };
        let m = self.minion_mut(uid).expect("found above");
        m.card.attack += attack;
        m.card.defence += defence;
        let (attack, defence) = m.stats();
        out.push(Event::MinionBuffed { minion, attack, defence });
    }

    /// The Air Elemental and friends: the token a summon creates.
    pub(crate) fn token(card: CardId) -> Card {
        Card::new(card)
    }
}

/// Pushes onto `into`, in APNAP order, every trigger on the board that fires on `when` (`active`
/// is the active player). Start and end of turn fire only for the active player's cards.
pub(crate) fn triggers(players: &[Player; 2], active: Seat, when: When, subject: Option<u32>, into: &mut Vec<Effect>) {
    let seats = match when {
        When::StartOfTurn | When::EndOfTurn => [Some(active), None],
        _ => [Some(active), Some(other(active))],
    };
    let subject_owner =
        subject.and_then(|u| players.iter().position(|p| p.board.iter().any(|m| m.uid == u)).map(|i| Seat(i as u8)));
    for seat in seats.into_iter().flatten() {
        let p = &players[seat.index()];
        for m in &p.board {
            if let Some(t) = m.card.id.def().trigger
                && t.when == when
                && applies(t.effect, seat, subject_owner)
            {
                into.push(Effect::Fire { source: Source::Minion { uid: m.uid }, effect: t.effect, subject });
            }
        }
        if let Some(r) = p.ritual
            && let Some(t) = r.id.def().trigger
            && t.when == when
            && applies(t.effect, seat, subject_owner)
        {
            into.push(Effect::Fire { source: Source::Ritual { owner: seat }, effect: t.effect, subject });
        }
    }
}

/// Whether a trigger on `seat`'s side cares about a minion of `subject_owner` entering.
fn applies(effect: TriggerEffect, seat: Seat, subject_owner: Option<Seat>) -> bool {
    match effect {
        TriggerEffect::DamageEnteringOpponent(_) => subject_owner.is_some_and(|o| o != seat),
        TriggerEffect::BuffEnteringYours { .. } => subject_owner == Some(seat),
        _ => true,
    }
}
