//! The match state. Small Copy pieces (hands are counts per kind, token sets are bit masks);
//! the only heap parts are the displays and the two piles, whose buffers are reused.

use crate::action::Action;
use crate::cards::{Card, Colour, Colours, KINDS, SUPPORTER_KINDS};

use engine::flow::{Window, WindowStack};
use engine::{BySeat, DecisionSerial, MatchRng, Seat, SeatSet};
use serde::{Deserialize, Serialize};

// Kept here too: `state::Config` is a public path.
pub use crate::config::Config;

/// A hand: how many of each kind. Order carries no information, so none is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hand {
    #[serde(with = "counts")]
    counts: [u8; KINDS],
    len: u8,
    /// Bit `k` set while `counts[k] > 0`: legal-action lists walk only the kinds held.
    present: u64,
}

impl Default for Hand {
    fn default() -> Self {
        Hand { counts: [0; KINDS], len: 0, present: 0 }
    }
}

impl Hand {
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn count(&self, card: Card) -> u8 {
        self.counts[card.index()]
    }
    pub fn has(&self, card: Card) -> bool {
        self.counts[card.index()] > 0
    }
    pub fn add(&mut self, card: Card) {
        self.counts[card.index()] += 1;
        self.len += 1;
        self.present |= 1 << card.index();
    }
    /// Removes one `card`; the caller has checked it is there.
    pub fn remove(&mut self, card: Card) {
        debug_assert!(self.has(card), "removing {card} from a hand without it");
        self.counts[card.index()] -= 1;
        self.len -= 1;
        if self.counts[card.index()] == 0 {
            self.present &= !(1 << card.index());
        }
    }
    /// The colours of the coloured cards held (supporters and action cards have none).
    pub fn colours(&self) -> Colours {
        // Without a branch per colour: which colours a hand holds is not predictable.
        let bits = Colour::ALL.iter().fold(0, |bits, &c| bits | u8::from(self.present & c.kinds() != 0) << c as u8);
        Colours::from_bits(bits)
    }

    pub fn has_supporter(&self) -> bool {
        self.present & SUPPORTER_KINDS != 0
    }

    /// The distinct kinds held, in table order.
    pub fn kinds(&self) -> impl Iterator<Item = Card> + use<> {
        self.kinds_among(!0)
    }
    /// The distinct kinds held among `kinds` (a kind mask, see [`crate::cards::ACTION_KINDS`]),
    /// in table order.
    pub fn kinds_among(&self, kinds: u64) -> impl Iterator<Item = Card> + use<> {
        let mut bits = self.present & kinds;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(Card::ALL[k])
        })
    }
    /// Every card, in table order, into a vector of the hand's size (a view's hand: no
    /// regrowing, and only the kinds held are visited).
    pub fn to_vec(&self) -> Vec<Card> {
        let mut v = Vec::with_capacity(self.len());
        for c in self.kinds() {
            v.extend(std::iter::repeat_n(c, self.counts[c.index()] as usize));
        }
        v
    }
    /// Every card, in table order.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        Card::ALL.into_iter().flat_map(|c| std::iter::repeat_n(c, self.counts[c.index()] as usize))
    }
    /// The `i`-th card in table order (Knock Down picks `i` uniformly).
    pub fn nth(&self, mut i: usize) -> Card {
        for c in Card::ALL {
            let k = self.counts[c.index()] as usize;
            if i < k {
                return c;
            }
            i -= k;
        }
        panic!("hand index out of range")
    }
    pub fn clear(&mut self) {
        *self = Hand::default();
    }
}

impl FromIterator<Card> for Hand {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut h = Hand::default();
        for c in iter {
            h.add(c);
        }
        h
    }
}

/// serde for `[u8; 35]` (serde derives arrays only up to 32).
mod counts {
    use super::KINDS;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    pub fn serialize<S: Serializer>(c: &[u8; KINDS], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(c.iter())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; KINDS], D::Error> {
        let v = Vec::<u8>::deserialize(d)?;
        v.try_into().map_err(|_| D::Error::custom("a hand has 35 counts"))
    }
}

/// One seat's belongings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub hand: Hand,
    /// Earliest played first.
    pub display: Vec<Card>,
    pub tokens: Colours,
    /// Out of the current tournament.
    pub withdrawn: bool,
}

/// Where the match is. Everything pending is data here, never a closure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Phase {
    /// The designated starter (`active`) has drawn and must open the tournament.
    Start,
    /// `active`'s normal turn, after their draw.
    Turn,
    /// An Ivanhoe window is open on top of `active`'s turn: the top of `windows` is being
    /// answered. The turn goes on once it closes.
    Window,
    /// Adapt resolved: owners still choose which card to keep for a duplicated value, in
    /// queue order. Then `active`'s turn goes on. (Boxed so the phase keeps a plain tag: a
    /// `Vec` in place would lend its capacity as the tag's niche, to be decoded by every
    /// match on the phase, several per step, for a phase that is rarely entered.)
    Adapt { queue: Box<Vec<(Seat, u8)>> },
    /// `active` withdraws with a maiden in their display and chooses a token to give back.
    MaidenPenalty,
    /// `winner` won a purple tournament and chooses a token they lack.
    PurpleToken { winner: Seat },
    /// The match is over (`None`: stalled, nobody won).
    Over { winner: Option<Seat> },
}

/// An Ivanhoe match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ivanhoe {
    pub(crate) rng: MatchRng,
    /// Top is the last element.
    pub(crate) draw: Vec<Card>,
    /// Face up; top is the last element.
    pub(crate) discard: Vec<Card>,
    pub(crate) players: BySeat<Player>,
    /// Who has the Shield / Stunned in front of them.
    pub(crate) shield: Option<Seat>,
    pub(crate) stunned: Option<Seat>,
    /// Tokens left in the supply, per colour.
    pub(crate) supply: [u8; 5],
    /// The tournament colour (`None` until the starter names it).
    pub(crate) colour: Option<Colour>,
    /// The final colour of the previous tournament.
    pub(crate) previous: Option<Colour>,
    /// Whose turn it is (in `Start`: the designated starter).
    pub(crate) active: Seat,
    /// A card left `active`'s hand this turn (Ivanhoe-cancelled ones count).
    pub(crate) played: bool,
    /// Cards added to `active`'s display this turn (Stunned allows one).
    pub(crate) added: u8,
    pub(crate) phase: Phase,
    /// The Ivanhoe window, when one is open: the action card declared by `active` waits on
    /// the other players still in, who answer Ivanhoe or Pass all at once. A Shield or Stunned
    /// being played lies in the window until it resolves. (Ivanhoe cannot be answered, so the
    /// stack never holds more than one window.)
    pub(crate) windows: WindowStack<Action>,
    /// Tournaments played to the end.
    pub(crate) tournaments: u16,
    /// The colour tokens drawn to choose the first player (empty for built positions).
    pub(crate) opening: Vec<Colour>,
    /// Numbers the decisions (`Game::decision`): bumped whenever a new one opens.
    #[serde(default)]
    pub(crate) decisions: DecisionSerial,
}

impl Ivanhoe {
    pub fn num_players(&self) -> usize {
        self.players.len()
    }

    /// Distinct colours needed to win: 5 with 2–3 players, 4 with 4–5.
    pub fn tokens_to_win(&self) -> usize {
        if self.players.len() <= 3 { 5 } else { 4 }
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }
    /// The open Ivanhoe window: the declared action card (`kind`) and who may still answer.
    pub fn window(&self) -> Option<&Window<Action>> {
        self.windows.top()
    }
    pub fn colour(&self) -> Option<Colour> {
        self.colour
    }
    pub fn previous_colour(&self) -> Option<Colour> {
        self.previous
    }
    pub fn active(&self) -> Seat {
        self.active
    }
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat]
    }
    pub fn shield(&self) -> Option<Seat> {
        self.shield
    }
    pub fn stunned(&self) -> Option<Seat> {
        self.stunned
    }
    pub fn supply(&self, c: Colour) -> u8 {
        self.supply[c.index()]
    }
    pub fn draw_pile(&self) -> &[Card] {
        &self.draw
    }
    pub fn discard_pile(&self) -> &[Card] {
        &self.discard
    }
    pub fn played_this_turn(&self) -> bool {
        self.played
    }
    pub fn tournaments(&self) -> u16 {
        self.tournaments
    }

    /// The display total of `seat` as it counts now (1 per card in green).
    pub fn total(&self, seat: Seat) -> u32 {
        display_total(&self.players[seat].display, self.colour)
    }

    /// The next seat clockwise after `seat` still in the tournament.
    pub(crate) fn next_active(&self, seat: Seat) -> Seat {
        let n = self.players.len() as u8;
        let mut s = seat.0;
        for _ in 0..n {
            s = (s + 1) % n;
            if !self.players[Seat(s)].withdrawn {
                return Seat(s);
            }
        }
        seat
    }

    /// Active participants (not withdrawn) as a set.
    pub(crate) fn in_tournament(&self) -> SeatSet {
        // Bits set without a branch per seat: who has withdrawn is not predictable.
        let bits = self.players.iter().fold(0, |bits, (s, p)| bits | u32::from(!p.withdrawn) << s.0);
        SeatSet::from_bits(bits)
    }

    /// Count of every card kind wherever it lies; must equal the deck.
    pub(crate) fn census(&self) -> [u8; KINDS] {
        let mut c = [0u8; KINDS];
        for &k in self.draw.iter().chain(&self.discard) {
            c[k.index()] += 1;
        }
        for p in self.players.values() {
            for k in Card::ALL {
                c[k.index()] += p.hand.count(k);
            }
            for &k in &p.display {
                c[k.index()] += 1;
            }
        }
        if self.shield.is_some() {
            c[Card::Shield.index()] += 1;
        }
        if self.stunned.is_some() {
            c[Card::Stunned.index()] += 1;
        }
        for w in self.windows.iter() {
            match w.kind {
                Action::Shield => c[Card::Shield.index()] += 1,
                Action::Stunned { .. } => c[Card::Stunned.index()] += 1,
                _ => {}
            }
        }
        c
    }
}

pub fn display_total(display: &[Card], colour: Option<Colour>) -> u32 {
    if colour == Some(Colour::Green) { display.len() as u32 } else { display.iter().map(|c| c.value() as u32).sum() }
}
