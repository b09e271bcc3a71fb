//! The card table, as data. Each card's behaviour is a handful of enum values (what it
//! targets, what its spell does, which trigger it carries, how it modifies a minion); the
//! rules interpret those values, so adding a card is adding a row.

use serde::{Deserialize, Serialize};

/// Every card of the S25 set (spec section 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CardId {
    AirElemental,
    EarthElemental,
    BoneGolem,
    FireElemental,
    PotionSeller,
    NovicePyromancer,
    ApprenticeSummoner,
    MasterSummoner,
    Banish,
    Unsummon,
    Recharge,
    Disenchant,
    RaiseDead,
    Blizzard,
    GiantStrength,
    Enrage,
    Haste,
    MagicFatigue,
    Silence,
    DarkRitual,
    AuraOfPower,
    Standstill,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    Minion,
    Spell,
    Enchantment,
    Ritual,
}

impl Kind {
    /// The type word printed on the card.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Minion => "Minion",
            Kind::Spell => "Spell",
            Kind::Enchantment => "Enchantment",
            Kind::Ritual => "Ritual",
        }
    }
}

/// What a played card or an activated ability must be aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Targeting {
    /// Played or used without a target.
    None,
    /// A minion on either board.
    Minion,
    /// A minion on either board, or either player's ritual.
    MinionOrRitual,
}

/// What a spell does when it resolves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpellEffect {
    /// Destroy target minion (it dies) or ritual (removed from the game).
    Destroy,
    /// Return target minion to its owner's hand.
    ReturnToHand,
    /// Your ritual gains charges.
    AddCharges(i32),
    /// Destroy the newest enchantment on target minion.
    RemoveTopEnchantment,
    /// Return the top minion of your graveyard to the board with this defence.
    Resurrect { defence: i32 },
    /// Deal damage to every minion, in APNAP order.
    DamageAll(i32),
}

/// What a minion's activated ability does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbilityEffect {
    /// Deal damage to target minion (the user takes none back).
    Damage(i32),
    /// Summon up to this many Air Elementals, as many as there is room for.
    Summon { card: CardId, up_to: u8 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ability {
    pub cost: i32,
    pub effect: AbilityEffect,
    pub targeting: Targeting,
}

/// When a triggered ability fires. The four triggers of spec section 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum When {
    StartOfTurn,
    EndOfTurn,
    MinionEnters,
    MinionLeaves,
}

/// What a triggered ability (of a minion or a ritual) does when it fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TriggerEffect {
    /// This minion gains +a/+d (Bone Golem).
    BuffSelf { attack: i32, defence: i32 },
    /// Deal damage to the minion entering play, if an opponent's (Fire Elemental).
    DamageEnteringOpponent(i32),
    /// All your minions gain +a/+d (Potion Seller).
    BuffAllYours { attack: i32, defence: i32 },
    /// Gain magic (Dark Ritual).
    GainMagic(i32),
    /// The minion entering play under your control gains +a/+d (Aura of Power).
    BuffEnteringYours { attack: i32, defence: i32 },
    /// Destroy the minion entering play, whoever owns it (Standstill).
    DestroyEntering,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trigger {
    pub when: When,
    pub effect: TriggerEffect,
}

/// How an enchantment changes the minion it is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modifier {
    /// +a/+d.
    Add(i32, i32),
    /// ×a/×d.
    Multiply(i32, i32),
    /// One more action each turn (and one at once, when played).
    ExtraAction,
    /// The activated ability costs this much more.
    AbilityCost(i32),
    /// The minion cannot use its activated ability.
    Silence,
}

/// One row of the card table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardDef {
    pub name: &'static str,
    pub kind: Kind,
    pub cost: i32,
    /// The description box (triggered-ability text for minions, ability text for minions
    /// with an activated ability).
    pub text: &'static str,
    /// Minions: printed attack and defence.
    pub attack: i32,
    pub defence: i32,
    pub ability: Option<Ability>,
    pub trigger: Option<Trigger>,
    /// Spells and enchantments: what they are aimed at.
    pub targeting: Targeting,
    pub spell: Option<SpellEffect>,
    pub modifier: Option<Modifier>,
    /// Rituals: charges spent per activation, and starting charges.
    pub activation_cost: i32,
    pub charges: i32,
}

const BLANK: CardDef = CardDef {
    name: "",
    kind: Kind::Spell,
    cost: 0,
    text: "",
    attack: 0,
    defence: 0,
    ability: None,
    trigger: None,
    targeting: Targeting::None,
    spell: None,
    modifier: None,
    activation_cost: 0,
    charges: 0,
};

const fn minion(name: &'static str, cost: i32, attack: i32, defence: i32) -> CardDef {
    CardDef { name, kind: Kind::Minion, cost, attack, defence, ..BLANK }
}

const fn spell(name: &'static str, cost: i32, text: &'static str, t: Targeting, e: SpellEffect) -> CardDef {
    CardDef { name, kind: Kind::Spell, cost, text, targeting: t, spell: Some(e), ..BLANK }
}

const fn enchantment(name: &'static str, cost: i32, text: &'static str, m: Modifier) -> CardDef {
    CardDef { name, kind: Kind::Enchantment, cost, text, targeting: Targeting::Minion, modifier: Some(m), ..BLANK }
}

const fn ritual(
    name: &'static str,
    cost: i32,
    text: &'static str,
    activation: i32,
    charges: i32,
    t: Trigger,
) -> CardDef {
    CardDef { name, kind: Kind::Ritual, cost, text, activation_cost: activation, charges, trigger: Some(t), ..BLANK }
}

const fn trig(when: When, effect: TriggerEffect) -> Option<Trigger> {
    Some(Trigger { when, effect })
}

const fn able(cost: i32, effect: AbilityEffect, targeting: Targeting) -> Option<Ability> {
    Some(Ability { cost, effect, targeting })
}

/// The card table, indexed by `CardId as usize`.
static TABLE: [CardDef; 22] = {
    use AbilityEffect as A;
    use SpellEffect as S;
    use Targeting as T;
    use TriggerEffect as E;
    [
        // AirElemental
        minion("Air Elemental", 0, 1, 1),
        // EarthElemental
        minion("Earth Elemental", 3, 4, 4),
        // BoneGolem
        CardDef {
            text: "Gain +1/+1 whenever a minion leaves play.",
            trigger: trig(When::MinionLeaves, E::BuffSelf { attack: 1, defence: 1 }),
            ..minion("Bone Golem", 2, 1, 3)
        },
        // FireElemental
        CardDef {
            text: "Whenever an opponent's minion enters play, deal 1 damage to it.",
            trigger: trig(When::MinionEnters, E::DamageEnteringOpponent(1)),
            ..minion("Fire Elemental", 2, 2, 2)
        },
        // PotionSeller
        CardDef {
            text: "At the end of your turn, all your minions gain +0/+1.",
            trigger: trig(When::EndOfTurn, E::BuffAllYours { attack: 0, defence: 1 }),
            ..minion("Potion Seller", 2, 1, 3)
        },
        // NovicePyromancer
        CardDef {
            text: "Deal 1 damage to target minion",
            ability: able(1, A::Damage(1), T::Minion),
            ..minion("Novice Pyromancer", 1, 0, 1)
        },
        // ApprenticeSummoner
        CardDef {
            text: "Summon a 1/1 air elemental",
            ability: able(1, A::Summon { card: CardId::AirElemental, up_to: 1 }, T::None),
            ..minion("Apprentice Summoner", 1, 1, 1)
        },
        // MasterSummoner
        CardDef {
            text: "Summon up to three 1/1 air elementals",
            ability: able(2, A::Summon { card: CardId::AirElemental, up_to: 3 }, T::None),
            ..minion("Master Summoner", 3, 2, 3)
        },
        // Banish
        spell("Banish", 2, "Destroy target minion or ritual", T::MinionOrRitual, S::Destroy),
        // Unsummon
        spell("Unsummon", 1, "Return target minion to its owner's hand", T::Minion, S::ReturnToHand),
        // Recharge
        spell("Recharge", 1, "Your ritual gains 3 charges", T::None, S::AddCharges(3)),
        // Disenchant
        spell("Disenchant", 1, "Destroy the top enchantment on target minion", T::Minion, S::RemoveTopEnchantment),
        // RaiseDead
        spell(
            "Raise Dead",
            1,
            "Resurrect the top minion in your graveyard and set its defence to 1",
            T::None,
            S::Resurrect { defence: 1 },
        ),
        // Blizzard
        spell("Blizzard", 3, "Deal 2 damage to all minions", T::None, S::DamageAll(2)),
        // GiantStrength
        enchantment("Giant Strength", 1, "", Modifier::Add(2, 2)),
        // Enrage
        enchantment("Enrage", 2, "", Modifier::Multiply(2, 2)),
        // Haste
        enchantment("Haste", 1, "Enchanted minion gains +1 action each turn", Modifier::ExtraAction),
        // MagicFatigue
        enchantment("Magic Fatigue", 0, "Enchanted minion's activated ability costs 2 more", Modifier::AbilityCost(2)),
        // Silence
        enchantment("Silence", 1, "Enchanted minion cannot use abilities", Modifier::Silence),
        // DarkRitual
        ritual(
            "Dark Ritual",
            0,
            "At the start of your turn, gain 1 magic",
            1,
            5,
            Trigger { when: When::StartOfTurn, effect: E::GainMagic(1) },
        ),
        // AuraOfPower
        ritual(
            "Aura of Power",
            1,
            "Whenever a minion enters play under your control, it gains +1/+1",
            1,
            4,
            Trigger { when: When::MinionEnters, effect: E::BuffEnteringYours { attack: 1, defence: 1 } },
        ),
        // Standstill
        ritual(
            "Standstill",
            3,
            "Whenever a minion enters play, destroy it",
            2,
            4,
            Trigger { when: When::MinionEnters, effect: E::DestroyEntering },
        ),
    ]
};

impl CardId {
    pub const ALL: [CardId; 22] = [
        CardId::AirElemental,
        CardId::EarthElemental,
        CardId::BoneGolem,
        CardId::FireElemental,
        CardId::PotionSeller,
        CardId::NovicePyromancer,
        CardId::ApprenticeSummoner,
        CardId::MasterSummoner,
        CardId::Banish,
        CardId::Unsummon,
        CardId::Recharge,
        CardId::Disenchant,
        CardId::RaiseDead,
        CardId::Blizzard,
        CardId::GiantStrength,
        CardId::Enrage,
        CardId::Haste,
        CardId::MagicFatigue,
        CardId::Silence,
        CardId::DarkRitual,
        CardId::AuraOfPower,
        CardId::Standstill,
    ];

    /// The card's row in the table (values from the rules reference, section 1.2).
    pub fn def(self) -> &'static CardDef {
        &TABLE[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.def().name
    }

    pub fn kind(self) -> Kind {
        self.def().kind
    }

    /// Looks a card up by its printed name (exact, as in a deck file).
    pub fn from_name(name: &str) -> Option<CardId> {
        CardId::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// The handout's `default.deck`, in file order (first line = top of the deck). It has no
/// Bone Golem, Enrage or Haste.
pub const DEFAULT_DECK: [CardId; 19] = [
    CardId::AirElemental,
    CardId::EarthElemental,
    CardId::FireElemental,
    CardId::PotionSeller,
    CardId::NovicePyromancer,
    CardId::ApprenticeSummoner,
    CardId::MasterSummoner,
    CardId::Banish,
    CardId::Unsummon,
    CardId::Recharge,
    CardId::Disenchant,
    CardId::RaiseDead,
    CardId::Blizzard,
    CardId::GiantStrength,
    CardId::MagicFatigue,
    CardId::Silence,
    CardId::DarkRitual,
    CardId::AuraOfPower,
    CardId::Standstill,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        for c in CardId::ALL {
            assert_eq!(CardId::from_name(c.name()), Some(c));
        }
        assert_eq!(CardId::from_name("air elemental"), None);
    }

    #[test]
    fn the_table_is_consistent() {
        for c in CardId::ALL {
            let d = c.def();
            match d.kind {
                Kind::Minion => assert!(d.defence > 0 && d.spell.is_none() && d.modifier.is_none(), "{c:?}"),
                Kind::Spell => assert!(d.spell.is_some(), "{c:?}"),
                Kind::Enchantment => assert!(d.modifier.is_some() && d.targeting == Targeting::Minion, "{c:?}"),
                Kind::Ritual => assert!(d.trigger.is_some() && d.charges > 0, "{c:?}"),
            }
        }
    }
}

/// A card in a deck, hand or graveyard. Minions carry their own attack and defence, which they
/// keep when they change zones (spec 2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Card {
    pub id: CardId,
    pub attack: i32,
    pub defence: i32,
}

impl Card {
    pub fn new(id: CardId) -> Self {
        let d = id.def();
        Card { id, attack: d.attack, defence: d.defence }
    }
}
