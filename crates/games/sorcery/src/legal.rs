//! Legality: `check` is the one place an action is judged, and says why it refuses one
//! ([`refusal`]); `legal_into` lists exactly what `check` accepts (a property test holds them
//! together), generated directly rather than by trial so that random playouts stay fast.

mod refusal;

pub(crate) use refusal::{Refusal, What};

use crate::action::{Action, Target};
use crate::cards::{AbilityEffect, Kind, SpellEffect, Targeting};
use crate::state::{BOARD_SIZE, HAND_SIZE, Sorcery, Status, other};
use engine::Seat;

/// What `check` found out about an accepted action, so `execute` need not look again.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checked {
    /// Magic to pay (testing mode: may exceed what the player has; magic then goes to 0).
    pub(crate) cost: i32,
}

impl Sorcery {
    // ----- checking -------------------------------------------------------------------------

    fn check_magic(&self, seat: Seat, what: What, cost: i32) -> Result<(), Refusal> {
        let magic = self.player(seat).magic;
        if magic < cost && !self.testing {
            return Err(Refusal::NotEnoughMagic { what, cost, magic });
        }
        Ok(())
    }

    fn own_minion(&self, seat: Seat, i: u8) -> Result<&crate::state::Minion, Refusal> {
        self.player(seat).board.get(i as usize).ok_or(Refusal::NoSuchMinion(i))
    }

    /// Checks that `target` names a card that exists and that `targeting` allows, for a card
    /// or ability called `what`.
    fn check_target(&self, what: What, targeting: Targeting, target: Option<Target>) -> Result<(), Refusal> {
        match (targeting, target) {
            (Targeting::None, None) => Ok(()),
            (Targeting::None, Some(_)) => Err(Refusal::TakesNoTarget(what)),
            (_, None) => Err(Refusal::NeedsTarget(what)),
            (_, Some(Target::Minion { player, index })) => {
                if player.index() > 1 {
                    return Err(Refusal::NoSuchPlayer);
                }
                if index as usize >= self.player(player).board.len() {
                    return Err(Refusal::NoSuchMinionTarget { player, index });
                }
                Ok(())
            }
            (Targeting::Minion, Some(Target::Ritual { .. })) => Err(Refusal::MinionOnly(what)),
            (Targeting::MinionOrRitual, Some(Target::Ritual { player })) => {
                if player.index() > 1 {
                    return Err(Refusal::NoSuchPlayer);
                }
                if self.player(player).ritual.is_none() {
                    return Err(Refusal::NoRitualTarget(player));
                }
                Ok(())
            }
        }
    }

    fn target_minion(&self, target: Option<Target>) -> Option<&crate::state::Minion> {
        match target? {
            Target::Minion { player, index } => self.player(player).board.get(index as usize),
            Target::Ritual { .. } => None,
        }
    }

    /// The single judge of legality. `Ok` means `execute` will succeed.
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<Checked, Refusal> {
        if self.status != Status::Playing {
            return Err(Refusal::GameOver);
        }
        if seat != self.active {
            return Err(Refusal::NotYourTurn);
        }
        let me = self.player(seat);
        let free = Checked { cost: 0 };
        match *action {
            Action::End => Ok(free),
            Action::Attack { minion, target } => {
                let m = self.own_minion(seat, minion)?;
                if m.actions == 0 {
                    return Err(Refusal::NoActions(m.card.id));
                }
                if let Some(j) = target
                    && j as usize >= self.player(other(seat)).board.len()
                {
                    return Err(Refusal::NoSuchMinionTarget { player: other(seat), index: j });
                }
                Ok(free)
            }
            Action::Play { card, target } => {
                let c = me.hand.get(card as usize).ok_or(Refusal::NoSuchCard(card))?;
                let def = c.id.def();
                self.check_target(What::Card(c.id), def.targeting, target)?;
                match def.kind {
                    Kind::Minion if me.board.len() >= BOARD_SIZE => {
                        return Err(Refusal::BoardFull);
                    }
                    Kind::Spell => match def.spell.expect("spells have an effect") {
                        SpellEffect::AddCharges(_) if me.ritual.is_none() => {
                            return Err(Refusal::NoRitual(c.id));
                        }
                        SpellEffect::Resurrect { .. } if me.graveyard.is_empty() => {
                            return Err(Refusal::GraveyardEmpty);
                        }
                        SpellEffect::Resurrect { .. } if me.board.len() >= BOARD_SIZE => {
                            return Err(Refusal::BoardFull);
                        }
                        SpellEffect::RemoveTopEnchantment
                            if self.target_minion(target).is_some_and(|m| m.enchantments.is_empty()) =>
                        {
                            return Err(Refusal::NoEnchantment);
                        }
                        SpellEffect::ReturnToHand => {
                            let owner = target.expect("checked").player();
                            // Unsummon leaves the caster's hand first, so only the other
                            // player's hand can be full.
                            if owner != seat && self.player(owner).hand.len() >= HAND_SIZE {
                                return Err(Refusal::OtherHandFull(owner));
                            }
                        }
                        _ => {}
                    },
                    _ => {}
                }
                self.check_magic(seat, What::Card(c.id), def.cost)?;
                Ok(Checked { cost: def.cost })
            }
            Action::Use { minion, target } => {
                let m = self.own_minion(seat, minion)?;
                let card = m.card.id;
                let Some(ability) = card.def().ability else {
                    return Err(Refusal::NoAbility(card));
                };
                if m.silenced() {
                    return Err(Refusal::Silenced(card));
                }
                if m.actions == 0 {
                    return Err(Refusal::NoActions(card));
                }
                self.check_target(What::Ability(card), ability.targeting, target)?;
                if let AbilityEffect::Summon { .. } = ability.effect
                    && me.board.len() >= BOARD_SIZE
                {
                    return Err(Refusal::BoardFull);
                }
                let cost = m.ability_cost().expect("has an ability");
                self.check_magic(seat, What::Ability(card), cost)?;
                Ok(Checked { cost })
            }
            Action::Draw => {
                if !self.testing {
                    return Err(Refusal::DrawTestingOnly);
                }
                if me.hand.len() >= HAND_SIZE {
                    return Err(Refusal::HandFull);
                }
                if me.deck.is_empty() {
                    return Err(Refusal::DeckEmpty);
                }
                Ok(free)
            }
            Action::Discard { card } => {
                if !self.testing {
                    return Err(Refusal::DiscardTestingOnly);
                }
                if card as usize >= me.hand.len() {
                    return Err(Refusal::NoSuchCard(card));
                }
                Ok(free)
            }
        }
    }

    // ----- legal actions --------------------------------------------------------------------

    /// Every target `targeting` allows, for a card that is still in `seat`'s hand.
    fn push_targets(&self, targeting: Targeting, mut f: impl FnMut(Option<Target>)) {
        match targeting {
            Targeting::None => f(None),
            Targeting::Minion | Targeting::MinionOrRitual => {
                for (p, player) in self.players.iter().enumerate() {
                    let seat = Seat(p as u8);
                    for i in 0..player.board.len() {
                        f(Some(Target::Minion { player: seat, index: i as u8 }));
                    }
                    if targeting == Targeting::MinionOrRitual && player.ritual.is_some() {
                        f(Some(Target::Ritual { player: seat }));
                    }
                }
            }
        }
    }

    pub(crate) fn legal_into(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.status != Status::Playing || seat != self.active {
            return;
        }
        let me = self.player(seat);
        let them = self.player(other(seat));
        out.push(Action::End);
        let afford = |cost: i32| self.testing || me.magic >= cost;
        for (i, m) in me.board.iter().enumerate() {
            if m.actions == 0 {
                continue;
            }
            let i = i as u8;
            out.push(Action::Attack { minion: i, target: None });
            for j in 0..them.board.len() {
                out.push(Action::Attack { minion: i, target: Some(j as u8) });
            }
            if let Some(ability) = m.card.id.def().ability
                && !m.silenced()
                && afford(m.ability_cost().expect("has an ability"))
            {
                if matches!(ability.effect, AbilityEffect::Summon { .. }) && me.board.len() >= BOARD_SIZE {
                    continue;
                }
                self.push_targets(ability.targeting, |target| out.push(Action::Use { minion: i, target }));
            }
        }
        for (i, c) in me.hand.iter().enumerate() {
            let card = i as u8;
            let def = c.id.def();
            if !afford(def.cost) {
                continue;
            }
            match def.kind {
                Kind::Minion => {
                    if me.board.len() < BOARD_SIZE {
                        out.push(Action::Play { card, target: None });
                    }
                }
                Kind::Ritual => out.push(Action::Play { card, target: None }),
                Kind::Enchantment => {
                    self.push_targets(Targeting::Minion, |target| out.push(Action::Play { card, target }));
                }
                Kind::Spell => match def.spell.expect("spells have an effect") {
                    SpellEffect::Destroy | SpellEffect::DamageAll(_) => {
                        self.push_targets(def.targeting, |target| out.push(Action::Play { card, target }));
                    }
                    SpellEffect::AddCharges(_) => {
                        if me.ritual.is_some() {
                            out.push(Action::Play { card, target: None });
                        }
                    }
                    SpellEffect::Resurrect { .. } => {
                        if !me.graveyard.is_empty() && me.board.len() < BOARD_SIZE {
                            out.push(Action::Play { card, target: None });
                        }
                    }
                    SpellEffect::RemoveTopEnchantment => {
                        for (p, player) in self.players.iter().enumerate() {
                            for (j, m) in player.board.iter().enumerate() {
                                if !m.enchantments.is_empty() {
                                    let target = Target::Minion { player: Seat(p as u8), index: j as u8 };
                                    out.push(Action::Play { card, target: Some(target) });
                                }
                            }
                        }
                    }
                    SpellEffect::ReturnToHand => {
                        for (p, player) in self.players.iter().enumerate() {
                            let owner = Seat(p as u8);
                            if owner != seat && player.hand.len() >= HAND_SIZE {
                                continue;
                            }
                            for j in 0..player.board.len() {
                                out.push(Action::Play {
                                    card,
                                    target: Some(Target::Minion { player: owner, index: j as u8 }),
                                });
                            }
                        }
                    }
                },
            }
        }
        if self.testing {
            if me.hand.len() < HAND_SIZE && !me.deck.is_empty() {
                out.push(Action::Draw);
            }
            for i in 0..me.hand.len() {
                out.push(Action::Discard { card: i as u8 });
            }
        }
    }

    /// Legal actions plus near misses: every index and target combination a terminal user
    /// could type, for the property test that `check` refuses exactly what is not listed.
    pub(crate) fn candidates(&self) -> Vec<Action> {
        let mut out = vec![Action::End, Action::Draw];
        let mut targets =
            vec![None, Some(Target::Ritual { player: Seat(0) }), Some(Target::Ritual { player: Seat(1) })];
        for p in 0..2u8 {
            for i in 0..=BOARD_SIZE as u8 {
                targets.push(Some(Target::Minion { player: Seat(p), index: i }));
            }
        }
        for i in 0..=HAND_SIZE as u8 {
            out.push(Action::Discard { card: i });
            for &t in &targets {
                out.push(Action::Play { card: i, target: t });
            }
        }
        for i in 0..=BOARD_SIZE as u8 {
            out.push(Action::Attack { minion: i, target: None });
            for j in 0..=BOARD_SIZE as u8 {
                out.push(Action::Attack { minion: i, target: Some(j) });
            }
            for &t in &targets {
                out.push(Action::Use { minion: i, target: t });
            }
        }
        out
    }
}
