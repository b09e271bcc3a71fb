//! The start of a round: the deal, the chamber, who starts — all drawn in one batch.

use crate::deck::ItemDeck;
use crate::mask::{for_each_bit, nth_bit};
use crate::shell::FRESH_DRAWS;
use crate::state::{ITEMS_PER_ROUND, MAX_SEATS};
use crate::{Buckshot, Chamber, Event, Items, SeatItems};
use engine::{DrawPlan, Seat};

impl Buckshot {
    /// Starts a new round (`begin_round`) and tells the table.
    pub(crate) fn new_round(&mut self, out: &mut Vec<Event>) {
        self.begin_round();
        out.extend(self.round_events());
    }

    /// Clears items and pending skips, deals 4 items to each living seat, loads 1-4 live and
    /// 1-4 blank shells, and starts a random living seat's turn, without telling anyone (a new
    /// game tells the table with `start_events`).
    #[inline(never)] // once per chamber: kept out of the turn's hot path
    pub(crate) fn begin_round(&mut self) {
        self.round += 1;
        self.items = [Items::NONE; MAX_SEATS];
        self.skipped = 0;
        self.knows = 0;
        self.fired = false;
        self.spent = 0;
        let alive = self.alive_mask();
        let players = alive.count_ones();
        let mut deck = ItemDeck::for_round(players, self.round);
        // The round's randomness in one batch: a few words, not one per card and shell.
        let draws = &ROUND_DRAWS[players as usize];
        let mut drawn = [0; MAX_DRAWS];
        let drawn = &mut drawn[..draws.plan.len()];
        self.rng.below_plan(&draws.plan, drawn);
        let (deal, rest) = drawn.split_at(draws.cards);
        let &[live, blank, order, starter] = rest else { unreachable!("the chamber's three draws and the starter's") };
        let hand = usize::from(ITEMS_PER_ROUND);
        let mut card = 0;
        for_each_bit(alive, |s| {
            self.items[usize::from(s)] = deck.deal_hand(card, &deal[card..card + hand]);
            card += hand;
        });
        self.dealt = card as u32;
        self.chamber = Chamber::fresh([live, blank, order]);
        self.begin_turn(Seat(nth_bit(alive, starter)));
    }

    /// What opened the current round: the deal and the chamber's counts, and whose turn it is.
    pub(crate) fn round_events(&self) -> [Event; 2] {
        [
            Event::RoundStarted {
                round: self.round,
                live: self.chamber.live(),
                blank: self.chamber.blank(),
                items: SeatItems::of_table(&self.items, self.players()),
            },
            Event::TurnStarted { seat: self.current, turn: self.turn },
        ]
    }
}

/// The most draws a round makes: 4 items for each of 8 seats, the chamber's three, who starts.
const MAX_DRAWS: usize = 4 * MAX_SEATS + FRESH_DRAWS.len() + 1;

/// The bounds of a round's draws, which depend only on how many players are alive: card `i` of
/// the deal is drawn from the deck's `len - i` cards not dealt yet, then the chamber
/// (`Chamber::fresh`), then who starts.
struct RoundDraws {
    plan: DrawPlan,
    /// How many of the draws deal cards.
    cards: usize,
}

/// `ROUND_DRAWS[n]`: the draws of a round with `n` players alive (2 to 8).
static ROUND_DRAWS: [RoundDraws; MAX_SEATS + 1] = {
    let mut t = [const { RoundDraws { plan: DrawPlan::new(&[]), cards: 0 } }; MAX_SEATS + 1];
    let mut n = 2;
    while n <= MAX_SEATS {
        let deck = ItemDeck::cards_for(n);
        let cards = n * ITEMS_PER_ROUND as usize;
        let mut bounds = [0; MAX_DRAWS];
        let mut i = 0;
        while i < cards {
            bounds[i] = (deck - i) as u32;
            i += 1;
        }
        let mut j = 0;
        while j < FRESH_DRAWS.len() {
            bounds[cards + j] = FRESH_DRAWS[j];
            j += 1;
        }
        bounds[cards + FRESH_DRAWS.len()] = n as u32;
        let len = cards + FRESH_DRAWS.len() + 1;
        t[n] = RoundDraws { plan: DrawPlan::new(bounds.split_at(len).0), cards };
        n += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use crate::{Buckshot, Config, Item};
    use engine::{Game, Seat};

    #[test]
    fn first_rounds_deal_load_and_start_uniformly() {
        // Two players: a deck of 22 cards, 3 of each item but 1 Rebalancer; 4 cards each.
        const GAMES: u32 = 40_000;
        let mut held = [0u32; 8];
        let mut counts = [[0u32; 4]; 4];
        let mut starts = [0u32; 2];
        for seed in 0..GAMES {
            let g = Buckshot::new(&Config::players(2), u64::from(seed)).unwrap();
            for item in Item::ALL {
                held[item.index()] += u32::from(g.items(Seat(1)).count(item));
            }
            counts[usize::from(g.live_left()) - 1][usize::from(g.blank_left()) - 1] += 1;
            starts[g.current().index()] += 1;
        }
        for item in Item::ALL {
            // Expected 4 * count / 22 per hand.
            let expected = f64::from(if item == Item::Rebalancer { 1 } else { 3 }) * 4.0 / 22.0;
            let got = f64::from(held[item.index()]) / f64::from(GAMES);
            assert!((got - expected).abs() < 0.02, "{item:?}: {got} per hand, expected {expected}");
        }
        for c in counts.iter().flatten() {
            assert!((2_200..2_800).contains(c), "live/blank counts: {counts:?}");
        }
        assert!(starts.iter().all(|&s| (19_000..21_000).contains(&s)), "{starts:?}");
    }
}
