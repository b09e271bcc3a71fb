//! The card table as data: 35 kinds, 110 cards, and the five tournament colours.
//!
//! A card is its kind (`Card`, one byte): two Red 3s are interchangeable, so hands are counts
//! per kind and card conservation is a count per kind. Codes (`Pu3`, `Sq2`, `DODGE`) are the
//! ones the rules reference uses; they are also the serde names and the terminal notation.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A tournament colour. White (supporters) is not a colour a tournament can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum Colour {
    Purple,
    Red,
    Blue,
    Yellow,
    Green,
}

impl Colour {
    pub const ALL: [Colour; 5] = [Colour::Purple, Colour::Red, Colour::Blue, Colour::Yellow, Colour::Green];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Colour::Purple => "purple",
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
        }
    }

    /// Parses a name or a short form (`purple`, `pu`, `p`, `R`), case-insensitively.
    pub fn parse(s: &str) -> Option<Colour> {
        Some(match s.to_ascii_lowercase().as_str() {
            "purple" | "pu" | "p" => Colour::Purple,
            "red" | "r" => Colour::Red,
            "blue" | "b" => Colour::Blue,
            "yellow" | "y" => Colour::Yellow,
            "green" | "g" => Colour::Green,
            _ => return None,
        })
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of colours (a player's tokens, the colours a starter may choose). One bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "Vec<Colour>", from = "Vec<Colour>")]
pub struct Colours(u8);

impl Colours {
    pub const EMPTY: Colours = Colours(0);
    pub const ALL: Colours = Colours(0b1_1111);

    /// Bit `i` is `Colour::ALL[i]`.
    pub const fn from_bits(bits: u8) -> Colours {
        Colours(bits & 0b1_1111)
    }

    pub const fn contains(self, c: Colour) -> bool {
        self.0 & (1 << c as u8) != 0
    }
    pub fn insert(&mut self, c: Colour) {
        self.0 |= 1 << c as u8;
    }
    pub fn remove(&mut self, c: Colour) {
        self.0 &= !(1 << c as u8);
    }
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub const fn complement(self) -> Colours {
        Colours(!self.0 & 0b1_1111)
    }
    pub fn iter(self) -> impl Iterator<Item = Colour> + Clone {
        Colour::ALL.into_iter().filter(move |c| self.contains(*c))
    }
}

impl From<Colours> for Vec<Colour> {
    fn from(c: Colours) -> Self {
        c.iter().collect()
    }
}

impl From<Vec<Colour>> for Colours {
    fn from(v: Vec<Colour>) -> Self {
        v.into_iter().collect()
    }
}

impl FromIterator<Colour> for Colours {
    fn from_iter<I: IntoIterator<Item = Colour>>(iter: I) -> Self {
        let mut s = Colours::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

/// What kind of card a `Card` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A coloured value card.
    Coloured(Colour, u8),
    /// A white supporter: a squire (2 or 3) or the maiden (6).
    Supporter(u8),
    /// An action card.
    Action,
}

macro_rules! cards {
    ($( $variant:ident = $code:literal, $name:literal, $kind:expr, $copies:literal; )*) => {
        /// One of the 35 kinds of card.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[repr(u8)]
        pub enum Card {
            $( #[serde(rename = $code)] $variant, )*
        }

        impl Card {
            /// Every kind, in table order (the order hands are listed in).
            pub const ALL: [Card; 35] = [$(Card::$variant),*];
            const CODES: [&'static str; 35] = [$($code),*];
            const NAMES: [&'static str; 35] = [$($name),*];
            const KINDS: [Kind; 35] = [$($kind),*];
            /// How many copies of each kind the 110-card deck holds.
            pub const COPIES: [u8; 35] = [$($copies),*];
        }
    };
}

use Colour::*;
use Kind::*;
cards! {
    Purple3 = "Pu3", "Purple 3", Coloured(Purple, 3), 4;
    Purple4 = "Pu4", "Purple 4", Coloured(Purple, 4), 4;
    Purple5 = "Pu5", "Purple 5", Coloured(Purple, 5), 4;
    Purple7 = "Pu7", "Purple 7", Coloured(Purple, 7), 2;
    Red3 = "R3", "Red 3", Coloured(Red, 3), 6;
    Red4 = "R4", "Red 4", Coloured(Red, 4), 6;
    Red5 = "R5", "Red 5", Coloured(Red, 5), 2;
    Blue2 = "B2", "Blue 2", Coloured(Blue, 2), 4;
    Blue3 = "B3", "Blue 3", Coloured(Blue, 3), 4;
    Blue4 = "B4", "Blue 4", Coloured(Blue, 4), 4;
    Blue5 = "B5", "Blue 5", Coloured(Blue, 5), 2;
    Yellow2 = "Y2", "Yellow 2", Coloured(Yellow, 2), 4;
    Yellow3 = "Y3", "Yellow 3", Coloured(Yellow, 3), 8;
    Yellow4 = "Y4", "Yellow 4", Coloured(Yellow, 4), 2;
    Green1 = "G1", "Green 1", Coloured(Green, 1), 14;
    Squire2 = "Sq2", "Squire 2", Supporter(2), 8;
    Squire3 = "Sq3", "Squire 3", Supporter(3), 8;
    Maiden = "Md6", "Maiden 6", Supporter(6), 4;
    Unhorse = "UNHORSE", "Unhorse", Action, 1;
    ChangeWeapon = "CHANGE_WEAPON", "Change Weapon", Action, 1;
    DropWeapon = "DROP_WEAPON", "Drop Weapon", Action, 1;
    BreakLance = "BREAK_LANCE", "Break Lance", Action, 1;
    Riposte = "RIPOSTE", "Riposte", Action, 3;
    Dodge = "DODGE", "Dodge", Action, 1;
    Retreat = "RETREAT", "Retreat", Action, 1;
    KnockDown = "KNOCK_DOWN", "Knock Down", Action, 2;
    Outmaneuver = "OUTMANEUVER", "Outmaneuver", Action, 1;
    Charge = "CHARGE", "Charge", Action, 1;
    Countercharge = "COUNTERCHARGE", "Countercharge", Action, 1;
    Disgrace = "DISGRACE", "Disgrace", Action, 1;
    Adapt = "ADAPT", "Adapt", Action, 1;
    Outwit = "OUTWIT", "Outwit", Action, 1;
    Shield = "SHIELD", "Shield", Action, 1;
    Stunned = "STUNNED", "Stunned", Action, 1;
    Ivanhoe = "IVANHOE", "Ivanhoe", Action, 1;
}

/// The number of cards in the deck.
pub const DECK_SIZE: usize = 110;
/// The number of distinct kinds.
pub const KINDS: usize = 35;

/// Sets of kinds as bit masks, bit `k` for `Card::ALL[k]`: a hand's kinds that a phase can
/// use are one AND away ([`crate::state::Hand::kinds_among`]).
const fn kind_mask(colour: Option<Colour>, supporters: bool, actions: bool) -> u64 {
    let mut mask = 0;
    let mut k = 0;
    while k < KINDS {
        let hit = match Card::ALL[k].kind() {
            Kind::Coloured(c, _) => matches!(colour, Some(want) if want as u8 == c as u8),
            Kind::Supporter(_) => supporters,
            Kind::Action => actions,
        };
        if hit {
            mask |= 1 << k;
        }
        k += 1;
    }
    mask
}

/// The supporters (squires and maidens), as a kind mask.
pub const SUPPORTER_KINDS: u64 = kind_mask(None, true, false);
/// The action cards, as a kind mask.
pub const ACTION_KINDS: u64 = kind_mask(None, false, true);
const COLOUR_KINDS: [u64; 5] = [
    kind_mask(Some(Purple), false, false),
    kind_mask(Some(Red), false, false),
    kind_mask(Some(Blue), false, false),
    kind_mask(Some(Yellow), false, false),
    kind_mask(Some(Green), false, false),
];

impl Colour {
    /// The coloured cards of this colour, as a kind mask.
    pub const fn kinds(self) -> u64 {
        COLOUR_KINDS[self as usize]
    }
}

impl Card {
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Card {
        Card::ALL[i]
    }

    /// The short code (`Pu3`, `Sq2`, `Md6`, `DODGE`).
    pub const fn code(self) -> &'static str {
        Card::CODES[self as usize]
    }

    /// The name for people (`Purple 3`, `Knock Down`).
    pub const fn name(self) -> &'static str {
        Card::NAMES[self as usize]
    }

    pub const fn kind(self) -> Kind {
        Card::KINDS[self as usize]
    }

    /// The printed value; 0 for action cards.
    pub const fn value(self) -> u8 {
        match self.kind() {
            Kind::Coloured(_, v) | Kind::Supporter(v) => v,
            Kind::Action => 0,
        }
    }

    /// The colour of a coloured card.
    pub const fn colour(self) -> Option<Colour> {
        match self.kind() {
            Kind::Coloured(c, _) => Some(c),
            _ => None,
        }
    }

    /// A card that goes into a display: coloured or supporter.
    pub const fn is_value(self) -> bool {
        !self.is_action()
    }

    pub const fn is_action(self) -> bool {
        (self as u8) >= Card::Unhorse as u8
    }

    pub const fn is_supporter(self) -> bool {
        matches!(self.kind(), Kind::Supporter(_))
    }

    pub const fn is_maiden(self) -> bool {
        matches!(self, Card::Maiden)
    }

    /// The value this card counts for in a display while the tournament is `colour`: 1 for
    /// every card in green, the printed value otherwise.
    pub const fn counted(self, colour: Option<Colour>) -> u32 {
        match colour {
            Some(Colour::Green) => 1,
            _ => self.value() as u32,
        }
    }

    /// Parses a code or a name, case-insensitively (`r3`, `Sq2`, `knock_down`, `knockdown`).
    pub fn parse(s: &str) -> Option<Card> {
        let norm = |x: &str| x.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
        let s = norm(s);
        if s.is_empty() {
            return None;
        }
        Card::ALL.into_iter().find(|c| norm(c.code()) == s || norm(c.name()) == s)
    }

    /// The full deck, one entry per physical card, in table order.
    pub fn deck() -> Vec<Card> {
        DECK.to_vec()
    }

    /// This kind alone, as a kind mask.
    pub const fn bit(self) -> u64 {
        1 << self as u32
    }
}

/// The deck in table order, built once at compile time (every match copies it to shuffle).
const DECK: [Card; DECK_SIZE] = {
    let mut deck = [Card::Purple3; DECK_SIZE];
    let (mut k, mut i) = (0, 0);
    while k < KINDS {
        let mut copies = 0;
        while copies < Card::COPIES[k] {
            deck[i] = Card::ALL[k];
            i += 1;
            copies += 1;
        }
        k += 1;
    }
    assert!(i == DECK_SIZE, "the copies add up to the deck size");
    deck
};

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_matches_the_rules_table() {
        let deck = Card::deck();
        assert_eq!(deck.len(), DECK_SIZE);
        let per_colour = |c: Colour| deck.iter().filter(|k| k.colour() == Some(c)).count();
        let sum = |c: Colour| deck.iter().filter(|k| k.colour() == Some(c)).map(|k| k.value() as u32).sum::<u32>();
        for c in Colour::ALL {
            assert_eq!(per_colour(c), 14, "{c}");
        }
        assert_eq!([sum(Purple), sum(Red), sum(Blue), sum(Yellow), sum(Green)], [62, 52, 46, 40, 14]);
        assert_eq!(deck.iter().filter(|k| k.is_supporter()).count(), 20);
        assert_eq!(deck.iter().filter(|k| k.is_action()).count(), 20);
        assert_eq!(deck.iter().filter(|k| k.is_maiden()).count(), 4);
        assert_eq!(Card::ALL.iter().filter(|k| k.is_action()).count(), 17);
    }

    #[test]
    fn kind_masks_match_the_kinds() {
        for c in Card::ALL {
            assert_eq!(SUPPORTER_KINDS & c.bit() != 0, c.is_supporter(), "{c}");
            assert_eq!(ACTION_KINDS & c.bit() != 0, c.is_action(), "{c}");
            for colour in Colour::ALL {
                assert_eq!(colour.kinds() & c.bit() != 0, c.colour() == Some(colour), "{c} {colour}");
            }
        }
    }

    #[test]
    fn codes_parse_back() {
        for c in Card::ALL {
            assert_eq!(Card::parse(c.code()), Some(c));
            assert_eq!(Card::parse(c.name()), Some(c));
            assert_eq!(serde_json::to_string(&c).unwrap(), format!("\"{}\"", c.code()));
        }
        assert_eq!(Card::parse("knockdown"), Some(Card::KnockDown));
        assert_eq!(Colour::parse("Pu"), Some(Colour::Purple));
        assert_eq!(Colour::parse("b"), Some(Colour::Blue));
        assert_eq!(Colour::parse("white"), None);
    }
}
