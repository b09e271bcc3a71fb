//! The 108 playing cards (rules §10, table T2): 104 standard + 4 EX. A card is its index into
//! [`DECK`]; its suit, rank and kind never change.

use serde::{Deserialize, Serialize};
use std::fmt;

/// ♠ ♥ ♣ ♦. Spades and clubs are black, hearts and diamonds red.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Suit {
    Spade,
    Heart,
    Club,
    Diamond,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spade, Suit::Heart, Suit::Club, Suit::Diamond];
    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Heart | Suit::Diamond)
    }
    pub const fn is_black(self) -> bool {
        !self.is_red()
    }
    pub const fn symbol(self) -> &'static str {
        match self {
            Suit::Spade => "♠",
            Suit::Heart => "♥",
            Suit::Club => "♣",
            Suit::Diamond => "♦",
        }
    }
}

/// Red, black, or neither (a two-card conversion of mixed colours, rules §5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    Red,
    Black,
    None,
}

/// What a card is (or is used as).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    Attack,
    Dodge,
    Peach,
    Dismantle,
    StealingSheep,
    Duel,
    BorrowedSword,
    SomethingOutOfNothing,
    Negate,
    Barbarians,
    RainArrows,
    PeachGarden,
    BumperHarvest,
    Acedia,
    Lightning,
    ZhugeCrossbow,
    YinYangSwords,
    BlueSteelBlade,
    FrostBlade,
    GreenDragonBlade,
    SerpentSpear,
    RockCleavingAxe,
    SkyPiercingHalberd,
    KirinBow,
    EightTrigrams,
    RenwangShield,
    Shadowrunner,
    HexMark,
    FlyingLightning,
    RedHare,
    FerghanaHorse,
    VioletStallion,
}

/// The four equipment slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Slot {
    Weapon,
    Armour,
    PlusHorse,
    MinusHorse,
}

impl Slot {
    pub const ALL: [Slot; 4] = [Slot::Weapon, Slot::Armour, Slot::PlusHorse, Slot::MinusHorse];
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn name(self) -> &'static str {
        match self {
            Slot::Weapon => "weapon",
            Slot::Armour => "armour",
            Slot::PlusHorse => "+1 horse",
            Slot::MinusHorse => "-1 horse",
        }
    }
}

impl Kind {
    pub const fn name(self) -> &'static str {
        use Kind::*;
        match self {
            Attack => "Attack",
            Dodge => "Dodge",
            Peach => "Peach",
            Dismantle => "Dismantle",
            StealingSheep => "StealingSheep",
            Duel => "Duel",
            BorrowedSword => "Borrowed Sword",
            SomethingOutOfNothing => "Something Out of Nothing",
            Negate => "Negate",
            Barbarians => "Barbarians",
            RainArrows => "RainArrows",
            PeachGarden => "Peach Garden",
            BumperHarvest => "Bumper Harvest",
            Acedia => "Acedia",
            Lightning => "Lightning",
            ZhugeCrossbow => "Zhuge Crossbow",
            YinYangSwords => "Yin-Yang Swords",
            BlueSteelBlade => "Blue Steel Blade",
            FrostBlade => "Frost Blade",
            GreenDragonBlade => "Green Dragon Blade",
            SerpentSpear => "Serpent Spear",
            RockCleavingAxe => "Rock Cleaving Axe",
            SkyPiercingHalberd => "Sky Piercing Halberd",
            KirinBow => "Kirin Bow",
            EightTrigrams => "Eight Trigrams Formation",
            RenwangShield => "Renwang Shield",
            Shadowrunner => "Shadowrunner",
            HexMark => "Hex Mark",
            FlyingLightning => "Flying Lightning",
            RedHare => "Red Hare",
            FerghanaHorse => "Ferghana Horse",
            VioletStallion => "Violet Stallion",
        }
    }

    /// The equipment slot of an equipment card.
    pub const fn slot(self) -> Option<Slot> {
        use Kind::*;
        match self {
            ZhugeCrossbow | YinYangSwords | BlueSteelBlade | FrostBlade | GreenDragonBlade | SerpentSpear
            | RockCleavingAxe | SkyPiercingHalberd | KirinBow => Some(Slot::Weapon),
            EightTrigrams | RenwangShield => Some(Slot::Armour),
            Shadowrunner | HexMark | FlyingLightning => Some(Slot::PlusHorse),
            RedHare | FerghanaHorse | VioletStallion => Some(Slot::MinusHorse),
            _ => None,
        }
    }

    /// A weapon's attack range.
    pub const fn range(self) -> u8 {
        use Kind::*;
        match self {
            ZhugeCrossbow => 1,
            YinYangSwords | BlueSteelBlade | FrostBlade => 2,
            GreenDragonBlade | SerpentSpear | RockCleavingAxe => 3,
            SkyPiercingHalberd => 4,
            KirinBow => 5,
            _ => 1,
        }
    }

    pub const fn is_tool(self) -> bool {
        use Kind::*;
        matches!(
            self,
            Dismantle
                | StealingSheep
                | Duel
                | BorrowedSword
                | SomethingOutOfNothing
                | Negate
                | Barbarians
                | RainArrows
                | PeachGarden
                | BumperHarvest
                | Acedia
                | Lightning
        )
    }

    pub const fn is_delayed(self) -> bool {
        matches!(self, Kind::Acedia | Kind::Lightning)
    }

    pub const fn is_equipment(self) -> bool {
        self.slot().is_some()
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One physical card: an index into [`DECK`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CardId(pub u8);

/// Suit, rank (1 = A … 13 = K) and kind of a physical card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardDef {
    pub suit: Suit,
    pub rank: u8,
    pub kind: Kind,
    pub ex: bool,
}

pub const DECK_SIZE: usize = 108;

impl CardId {
    pub const fn def(self) -> &'static CardDef {
        &DECK[self.0 as usize]
    }
    pub const fn suit(self) -> Suit {
        self.def().suit
    }
    pub const fn rank(self) -> u8 {
        self.def().rank
    }
    pub const fn kind(self) -> Kind {
        self.def().kind
    }
    pub const fn is_red(self) -> bool {
        self.suit().is_red()
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub fn all() -> impl Iterator<Item = CardId> + Clone {
        (0..DECK_SIZE as u8).map(CardId)
    }
}

pub fn rank_name(rank: u8) -> &'static str {
    ["?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"][rank.min(13) as usize]
}

impl fmt::Display for CardId {
    /// As the seed prints it: `♠ 7 Attack`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.suit().symbol(), rank_name(self.rank()), self.kind().name())
    }
}

const fn c(suit: Suit, rank: u8, kind: Kind) -> CardDef {
    CardDef { suit, rank, kind, ex: false }
}
const fn x(suit: Suit, rank: u8, kind: Kind) -> CardDef {
    CardDef { suit, rank, kind, ex: true }
}

use Kind::*;
use Suit::{Club as C, Diamond as D, Heart as H, Spade as S};

/// Table T2, by suit then rank.
pub static DECK: [CardDef; DECK_SIZE] = [
    // ♠
    c(S, 1, Duel),
    c(S, 1, Lightning),
    c(S, 2, YinYangSwords),
    c(S, 2, EightTrigrams),
    x(S, 2, FrostBlade),
    c(S, 3, Dismantle),
    c(S, 3, StealingSheep),
    c(S, 4, Dismantle),
    c(S, 4, StealingSheep),
    c(S, 5, GreenDragonBlade),
    c(S, 5, Shadowrunner),
    c(S, 6, BlueSteelBlade),
    c(S, 6, Acedia),
    c(S, 7, Attack),
    c(S, 7, Barbarians),
    c(S, 8, Attack),
    c(S, 8, Attack),
    c(S, 9, Attack),
    c(S, 9, Attack),
    c(S, 10, Attack),
    c(S, 10, Attack),
    c(S, 11, StealingSheep),
    c(S, 11, Negate),
    c(S, 12, SerpentSpear),
    c(S, 12, Dismantle),
    c(S, 13, Barbarians),
    c(S, 13, FerghanaHorse),
    // ♥
    c(H, 1, PeachGarden),
    c(H, 1, RainArrows),
    c(H, 2, Dodge),
    c(H, 2, Dodge),
    c(H, 3, Peach),
    c(H, 3, BumperHarvest),
    c(H, 4, Peach),
    c(H, 4, BumperHarvest),
    c(H, 5, KirinBow),
    c(H, 5, RedHare),
    c(H, 6, Peach),
    c(H, 6, Acedia),
    c(H, 7, Peach),
    c(H, 7, SomethingOutOfNothing),
    c(H, 8, Peach),
    c(H, 8, SomethingOutOfNothing),
    c(H, 9, Peach),
    c(H, 9, SomethingOutOfNothing),
    c(H, 10, Attack),
    c(H, 10, Attack),
    c(H, 11, Attack),
    c(H, 11, SomethingOutOfNothing),
    c(H, 12, Peach),
    c(H, 12, Dismantle),
    x(H, 12, Lightning),
    c(H, 13, Dodge),
    c(H, 13, FlyingLightning),
    // ♣
    c(C, 1, Duel),
    c(C, 1, ZhugeCrossbow),
    c(C, 2, Attack),
    c(C, 2, EightTrigrams),
    x(C, 2, RenwangShield),
    c(C, 3, Attack),
    c(C, 3, Dismantle),
    c(C, 4, Attack),
    c(C, 4, Dismantle),
    c(C, 5, Attack),
    c(C, 5, HexMark),
    c(C, 6, Attack),
    c(C, 6, Acedia),
    c(C, 7, Attack),
    c(C, 7, Barbarians),
    c(C, 8, Attack),
    c(C, 8, Attack),
    c(C, 9, Attack),
    c(C, 9, Attack),
    c(C, 10, Attack),
    c(C, 10, Attack),
    c(C, 11, Attack),
    c(C, 11, Attack),
    c(C, 12, BorrowedSword),
    c(C, 12, Negate),
    c(C, 13, BorrowedSword),
    c(C, 13, Negate),
    // ♦
    c(D, 1, Duel),
    c(D, 1, ZhugeCrossbow),
    c(D, 2, Dodge),
    c(D, 2, Dodge),
    c(D, 3, Dodge),
    c(D, 3, StealingSheep),
    c(D, 4, Dodge),
    c(D, 4, StealingSheep),
    c(D, 5, Dodge),
    c(D, 5, RockCleavingAxe),
    c(D, 6, Attack),
    c(D, 6, Dodge),
    c(D, 7, Attack),
    c(D, 7, Dodge),
    c(D, 8, Attack),
    c(D, 8, Dodge),
    c(D, 9, Attack),
    c(D, 9, Dodge),
    c(D, 10, Attack),
    c(D, 10, Dodge),
    c(D, 11, Dodge),
    c(D, 11, Dodge),
    c(D, 12, Peach),
    c(D, 12, SkyPiercingHalberd),
    x(D, 12, Negate),
    c(D, 13, Attack),
    c(D, 13, VioletStallion),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn count(k: Kind) -> usize {
        DECK.iter().filter(|d| d.kind == k).count()
    }

    #[test]
    fn deck_totals_match_t2() {
        assert_eq!(count(Attack), 30);
        assert_eq!(count(Dodge), 15);
        assert_eq!(count(Peach), 8);
        assert_eq!(count(Dismantle), 6);
        assert_eq!(count(StealingSheep), 5);
        assert_eq!(count(Duel), 3);
        assert_eq!(count(BorrowedSword), 2);
        assert_eq!(count(SomethingOutOfNothing), 4);
        assert_eq!(count(Negate), 4);
        assert_eq!(count(Barbarians), 3);
        assert_eq!(count(RainArrows), 1);
        assert_eq!(count(PeachGarden), 1);
        assert_eq!(count(BumperHarvest), 2);
        assert_eq!(count(Acedia), 3);
        assert_eq!(count(Lightning), 2);
        assert_eq!(DECK.iter().filter(|d| d.kind.slot() == Some(Slot::Weapon)).count(), 10);
        assert_eq!(DECK.iter().filter(|d| d.kind.slot() == Some(Slot::Armour)).count(), 3);
        assert_eq!(
            DECK.iter().filter(|d| matches!(d.kind.slot(), Some(Slot::PlusHorse | Slot::MinusHorse))).count(),
            6
        );
        assert_eq!(DECK.iter().filter(|d| d.ex).count(), 4);
        for s in Suit::ALL {
            assert_eq!(DECK.iter().filter(|d| d.suit == s).count(), 27, "{s:?}");
        }
        assert_eq!(DECK.iter().filter(|d| d.suit.is_red()).count(), 54);
        assert_eq!(DECK.iter().filter(|d| d.kind.is_tool()).count(), 36);
        // Lightning strikes on ♠2-♠9: 17 cards.
        assert_eq!(DECK.iter().filter(|d| d.suit == Suit::Spade && (2..=9).contains(&d.rank)).count(), 17);
    }
}
