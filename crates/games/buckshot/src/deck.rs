//! The item deck of a round, and the deal.

use crate::{Item, Items};

/// The most cards a deck holds: 22k, with k = ⌈8/2⌉.
const MAX_CARDS: usize = 22 * 4;

/// The deck's storage: a power of two above `MAX_CARDS`, so that a card's index can be masked
/// into range instead of bounds-checked (the deal indexes twice per card, 130 cards a game).
const SLOTS: usize = 128;
const _: () = assert!(MAX_CARDS <= SLOTS && SLOTS.is_power_of_two());

/// The item deck of one round, in a fixed order, dealt by a partial Fisher–Yates whose draws
/// the round makes beforehand, in one batch with its other draws (see `round.rs`).
#[derive(Clone, Copy)]
pub(crate) struct ItemDeck {
    cards: [Item; SLOTS],
    len: u8,
}

/// Every deck a round can use, built at compile time: `DECKS[late][k - 1]`.
static DECKS: [[ItemDeck; 4]; 2] = {
    let mut decks = [[ItemDeck { cards: [Item::Skip; SLOTS], len: 0 }; 4]; 2];
    let mut k = 1;
    while k <= 4 {
        decks[0][k - 1] = ItemDeck::build(k, false);
        decks[1][k - 1] = ItemDeck::build(k, true);
        k += 1;
    }
    decks
};

impl ItemDeck {
    /// With `n` living players and k = ⌈n/2⌉: 3k of each item except Rebalancer, k
    /// Rebalancers; from round 6 on, Add Life is replaced by more Double Damage.
    pub(crate) fn for_round(n: u32, round: u32) -> Self {
        DECKS[usize::from(round > 5)][n.div_ceil(2) as usize - 1]
    }

    /// How many cards the deck of a round with `n` living players holds (the same in every
    /// round).
    pub(crate) const fn cards_for(n: usize) -> usize {
        Self::build(n.div_ceil(2), false).len as usize
    }

    const fn build(k: usize, late: bool) -> Self {
        let mut deck = ItemDeck { cards: [Item::Skip; SLOTS], len: 0 };
        let mut i = 0;
        while i < Item::ALL.len() {
            let item = Item::ALL[i];
            let count = match item {
                Item::Rebalancer => k,
                Item::AddLife if late => 0,
                Item::DoubleDamage if late => 6 * k,
                _ => 3 * k,
            };
            let mut c = 0;
            while c < count {
                deck.cards[deck.len as usize] = item;
                deck.len += 1;
                c += 1;
            }
            i += 1;
        }
        deck
    }

    /// Deals cards `first..first + draws.len()` (in order from 0) given their draws (card `i`
    /// below `len - i`), as one hand.
    pub(crate) fn deal_hand(&mut self, first: usize, draws: &[u32]) -> Items {
        // One byte of count per kind, summed in a register.
        let mut counts = 0u64;
        for (i, &draw) in (first..).zip(draws) {
            // Card `i + draw` is dealt and card `i` takes its place: a swap, but for the write
            // to slot `i`, which later draws (from `i + 1` on) never read. The masks change
            // nothing (`i + draw` is below `len`) but spare the bounds checks.
            let (i, j) = (i & (SLOTS - 1), (i + draw as usize) & (SLOTS - 1));
            debug_assert!(j < usize::from(self.len));
            let dealt = self.cards[j];
            self.cards[j] = self.cards[i];
            counts += 1 << (8 * dealt.index());
        }
        Items::from_counts(counts.to_le_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decks_hold_the_documented_counts() {
        for players in 2..=8u32 {
            let k = players.div_ceil(2) as usize;
            for round in [1, 5, 6, 9] {
                let deck = ItemDeck::for_round(players, round);
                let count = |item| deck.cards[..usize::from(deck.len)].iter().filter(|&&c| c == item).count();
                let late = round > 5;
                assert_eq!(count(Item::Rebalancer), k);
                assert_eq!(count(Item::AddLife), if late { 0 } else { 3 * k });
                assert_eq!(count(Item::DoubleDamage), if late { 6 * k } else { 3 * k });
                for item in [Item::Skip, Item::ChamberCheck, Item::Quickshot, Item::Steal, Item::ShootAir] {
                    assert_eq!(count(item), 3 * k);
                }
                assert_eq!(usize::from(deck.len), 22 * k);
                assert_eq!(ItemDeck::cards_for(players as usize), 22 * k);
            }
        }
    }
}
