//! What a viewer may know: everything on the table, their own hand, and only the sizes of the
//! opponent's hand and of both decks. `determinize` reshuffles exactly what is left out.

use crate::action::Event;
use crate::cards::CardId;
use crate::state::{Card, Minion, Player, Ritual, Sorcery, Status};
use engine::{MatchRng, Seat, Viewer};
use serde::{Deserialize, Serialize};

/// A minion as anyone at the table sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MinionView {
    /// Its own values (what it would keep if it left the board).
    pub card: Card,
    /// Current attack and defence, enchantments applied.
    pub attack: i32,
    pub defence: i32,
    pub actions: u8,
    /// Oldest first.
    pub enchantments: Vec<CardId>,
    /// The effective activated-ability cost (Magic Fatigue included), if it has one.
    pub ability_cost: Option<i32>,
    pub silenced: bool,
}

impl MinionView {
    pub fn of(m: &Minion) -> Self {
        let (attack, defence) = m.stats();
        MinionView {
            card: m.card,
            attack,
            defence,
            actions: m.actions,
            enchantments: m.enchantments.clone(),
            ability_cost: m.ability_cost(),
            silenced: m.silenced(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub life: i32,
    pub magic: i32,
    /// Only in the view of the player it belongs to.
    pub hand: Option<Vec<Card>>,
    pub hand_size: usize,
    pub deck_size: usize,
    pub board: Vec<MinionView>,
    pub ritual: Option<Ritual>,
    /// Bottom first; the last card is the top.
    pub graveyard: Vec<Card>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub viewer: Viewer,
    pub active: Seat,
    pub turn: u32,
    pub testing: bool,
    pub status: Status,
    pub players: [PlayerView; 2],
}

impl View {
    pub fn player(&self, seat: Seat) -> &PlayerView {
        &self.players[seat.index()]
    }
}

fn player_view(p: &Player, own: bool) -> PlayerView {
    PlayerView {
        life: p.life,
        magic: p.magic,
        hand: own.then(|| p.hand.clone()),
        hand_size: p.hand.len(),
        deck_size: p.deck.len(),
        board: p.board.iter().map(MinionView::of).collect(),
        ritual: p.ritual,
        graveyard: p.graveyard.clone(),
    }
}

impl Sorcery {
    pub(crate) fn make_view(&self, viewer: Viewer) -> View {
        View {
            viewer,
            active: self.active,
            turn: self.turn,
            testing: self.testing,
            status: self.status,
            players: [0, 1].map(|i| player_view(&self.players[i], viewer.is(Seat(i as u8)))),
        }
    }

    pub(crate) fn redact(&self, event: &Event, viewer: Viewer) -> Event {
        match *event {
            Event::CardDrawn { player, card } if !viewer.is(player) => {
                let _ = card;
                Event::CardDrawn { player, card: None }
            }
            ref e => e.clone(),
        }
    }

    /// Resamples what `viewer` cannot see: the opponent's hand and deck are pooled and dealt
    /// again (same sizes), and the viewer's own deck is reshuffled (they know its contents, not
    /// its order). A spectator sees neither hand.
    pub(crate) fn resample(&self, viewer: Viewer, rng: &mut MatchRng) -> Self {
        let mut g = self.clone();
        for (i, p) in g.players.iter_mut().enumerate() {
            // Pools are sorted before the shuffle, so the copy depends only on what the
            // viewer knows, never on the real (hidden) order.
            if viewer.is(Seat(i as u8)) {
                p.deck.sort_unstable_by_key(|c| (c.id, c.attack, c.defence));
                rng.shuffle(&mut p.deck);
            } else {
                let hand = p.hand.len();
                let mut pool: Vec<Card> = p.hand.drain(..).chain(p.deck.drain(..)).collect();
                pool.sort_unstable_by_key(|c| (c.id, c.attack, c.defence));
                rng.shuffle(&mut pool);
                p.deck = pool.split_off(hand);
                p.hand = pool;
            }
        }
        g.rng = rng.fork();
        g
    }
}
