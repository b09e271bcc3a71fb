//! Items and a player's hand of items (a multiset: items have no order).

use serde::{Deserialize, Serialize};

/// Shells a Rebalancer may add at most; the chamber must have room for them.
pub(crate) const REBALANCE_MAX: u8 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Item {
    Skip,
    DoubleDamage,
    ChamberCheck,
    Rebalancer,
    Quickshot,
    Steal,
    AddLife,
    ShootAir,
}

impl Item {
    pub const ALL: [Item; 8] = [
        Item::Skip,
        Item::DoubleDamage,
        Item::ChamberCheck,
        Item::Rebalancer,
        Item::Quickshot,
        Item::Steal,
        Item::AddLife,
        Item::ShootAir,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// This kind's bit in [`Items::kind_mask`].
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The name used in the terminal and in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Item::Skip => "skip",
            Item::DoubleDamage => "double-damage",
            Item::ChamberCheck => "chamber-check",
            Item::Rebalancer => "rebalancer",
            Item::Quickshot => "quickshot",
            Item::Steal => "steal",
            Item::AddLife => "add-life",
            Item::ShootAir => "shoot-air",
        }
    }

    /// The name people read in the narration: "Double Damage" (the terminal's command word is
    /// [`Item::name`], `double-damage`).
    pub const fn title(self) -> &'static str {
        match self {
            Item::Skip => "Skip",
            Item::DoubleDamage => "Double Damage",
            Item::ChamberCheck => "Chamber Check",
            Item::Rebalancer => "Rebalancer",
            Item::Quickshot => "Quickshot",
            Item::Steal => "Steal",
            Item::AddLife => "Add Life",
            Item::ShootAir => "Shoot Air",
        }
    }

    pub fn from_name(s: &str) -> Option<Item> {
        let norm: String = s.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
        Item::ALL.into_iter().find(|i| i.name().replace('-', "") == norm)
    }
}

/// How many of each item a player holds. Serialized as a list of items, one entry per item.
///
/// The set of kinds held is kept as a bit mask beside the counts: legal-move generation asks
/// "which kinds does this seat hold" for every seat on every move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Items {
    counts: [u8; 8],
    mask: u8,
}

impl Items {
    pub const NONE: Items = Items { counts: [0; 8], mask: 0 };

    /// A hand from its counts, in `Item::ALL` order.
    pub(crate) fn from_counts(counts: [u8; 8]) -> Self {
        Items { counts, mask: crate::mask::nonzero_bytes(counts) }
    }

    pub fn count(self, item: Item) -> u8 {
        self.counts[item.index()]
    }

    pub fn has(self, item: Item) -> bool {
        self.mask & (1 << item.index()) != 0
    }

    pub fn add(&mut self, item: Item) {
        self.counts[item.index()] += 1;
        self.mask |= 1 << item.index();
    }

    pub fn take(&mut self, item: Item) {
        debug_assert!(self.has(item));
        let c = &mut self.counts[item.index()];
        *c -= 1;
        // Without a branch: which item is taken, and whether it was the last, are random.
        self.mask &= !(u8::from(*c == 0) << item.index());
    }

    /// Bit `i` set when at least one of `Item::ALL[i]` is held.
    pub fn kind_mask(self) -> u8 {
        self.mask
    }

    pub fn total(self) -> u32 {
        self.counts.iter().map(|&c| u32::from(c)).sum()
    }

    pub fn absorb(&mut self, other: Items) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
        self.mask |= other.mask;
    }

    /// The kinds held, each once.
    pub fn kinds(self) -> impl Iterator<Item = Item> {
        Item::ALL.into_iter().filter(move |i| self.has(*i))
    }

    /// Every item held, with repeats, in a fixed order.
    pub fn iter(self) -> impl Iterator<Item = Item> {
        Item::ALL.into_iter().flat_map(move |i| std::iter::repeat_n(i, self.count(i) as usize))
    }
}

impl FromIterator<Item> for Items {
    fn from_iter<I: IntoIterator<Item = Item>>(iter: I) -> Self {
        let mut s = Items::NONE;
        for i in iter {
            s.add(i);
        }
        s
    }
}

impl Serialize for Items {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Items {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Item>::deserialize(d)?;
        if v.len() > 255 {
            return Err(serde::de::Error::custom("too many items"));
        }
        Ok(v.into_iter().collect())
    }
}

/// Every seat's items, without allocating (carried by `Event::RoundStarted`). Serialized as a
/// list with one entry per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatItems {
    items: [Items; 8],
    len: u8,
}

impl SeatItems {
    pub fn new(items: &[Items]) -> Self {
        let mut all = [Items::NONE; 8];
        all[..items.len()].copy_from_slice(items);
        SeatItems { items: all, len: items.len() as u8 }
    }

    /// The first `seats` of a whole table (copied whole: a fixed size is cheaper to copy).
    pub(crate) fn of_table(items: &[Items; 8], seats: usize) -> Self {
        debug_assert!(items[seats..].iter().all(|i| *i == Items::NONE));
        SeatItems { items: *items, len: seats as u8 }
    }

    pub fn as_slice(&self) -> &[Items] {
        &self.items[..usize::from(self.len)]
    }
}

impl Serialize for SeatItems {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for SeatItems {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Items>::deserialize(d)?;
        if v.len() > 8 {
            return Err(serde::de::Error::custom("at most 8 seats"));
        }
        Ok(SeatItems::new(&v))
    }
}
