//! What one viewer may know: every public fact, their own hand, and counts for the rest.

use crate::action::Action;
use crate::cards::{Card, Colour, Colours};
use crate::state::{Ivanhoe, Phase};
use engine::{Seat, Viewer};
use serde::{Deserialize, Serialize};

/// A player as everyone sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub hand_count: u8,
    /// Earliest played first.
    pub display: Vec<Card>,
    /// As it counts now (1 per card in green).
    pub total: u32,
    pub shield: bool,
    pub stunned: bool,
    pub tokens: Colours,
    pub withdrawn: bool,
}

/// The phase as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum PhaseView {
    /// `seat` must open the tournament in one of `allowed` (public: only the starter's hand
    /// decides it, but whether they can start at all is announced anyway).
    Start {
        seat: Seat,
    },
    Turn {
        seat: Seat,
    },
    /// `seat` declared `action`; `waiting` have not answered yet.
    Window {
        seat: Seat,
        action: Action,
        waiting: Vec<Seat>,
    },
    Adapt {
        seat: Seat,
        value: u8,
    },
    MaidenPenalty {
        seat: Seat,
    },
    PurpleToken {
        seat: Seat,
    },
    Over {
        winner: Option<Seat>,
    },
}

/// One viewer's view of the match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub viewer: Viewer,
    pub phase: PhaseView,
    /// The tournament colour, once named.
    pub colour: Option<Colour>,
    /// The previous tournament's final colour (purple forbids purple).
    pub previous: Option<Colour>,
    /// Whose turn it is (the player of a pending action card, in windows).
    pub active: Seat,
    pub played_this_turn: bool,
    pub added_this_turn: u8,
    pub players: Vec<PlayerView>,
    /// The viewer's own hand, in table order (`None` for spectators).
    pub hand: Option<Vec<Card>>,
    /// For the viewer in `Start`: the colours they may open with.
    pub allowed: Option<Colours>,
    pub draw_count: u8,
    /// Face up, bottom first.
    pub discard: Vec<Card>,
    /// Tokens left in the supply, per colour (purple, red, blue, yellow, green).
    pub supply: [u8; 5],
    pub tokens_to_win: u8,
    pub tournaments: u16,
}

impl View {
    pub fn me(&self) -> Option<Seat> {
        self.viewer.as_seat()
    }
    pub fn player(&self, seat: Seat) -> &PlayerView {
        &self.players[seat.index()]
    }
    /// Players still in the tournament other than `seat`.
    pub fn opponents(&self, seat: Seat) -> impl Iterator<Item = &PlayerView> {
        self.players.iter().filter(move |p| p.seat != seat && !p.withdrawn)
    }
}

impl Ivanhoe {
    pub(crate) fn make_view(&self, viewer: Viewer) -> View {
        let phase = match &self.phase {
            Phase::Window => {
                let w = self.window().expect("Phase::Window has an open window");
                PhaseView::Window { seat: self.active, action: w.kind, waiting: w.waiting().iter().collect() }
            }
            Phase::Start => PhaseView::Start { seat: self.active },
            Phase::Turn => PhaseView::Turn { seat: self.active },
            Phase::Adapt { queue } => PhaseView::Adapt { seat: queue[0].0, value: queue[0].1 },
            Phase::MaidenPenalty => PhaseView::MaidenPenalty { seat: self.active },
            Phase::PurpleToken { winner } => PhaseView::PurpleToken { seat: *winner },
            Phase::Over { winner } => PhaseView::Over { winner: *winner },
        };
        let me = viewer.as_seat();
        View {
            viewer,
            phase,
            colour: self.colour,
            previous: self.previous,
            active: self.active,
            played_this_turn: self.played,
            added_this_turn: self.added,
            players: self
                .players
                .iter()
                .map(|(s, p)| PlayerView {
                    seat: s,
                    hand_count: p.hand.len() as u8,
                    display: p.display.clone(),
                    total: self.total(s),
                    shield: self.shield == Some(s),
                    stunned: self.stunned == Some(s),
                    tokens: p.tokens,
                    withdrawn: p.withdrawn,
                })
                .collect(),
            hand: me.map(|s| self.players[s].hand.to_vec()),
            allowed: me
                .filter(|&s| matches!(self.phase, Phase::Start) && s == self.active)
                .map(|s| self.allowed_colours(s)),
            draw_count: self.draw.len() as u8,
            discard: self.discard.clone(),
            supply: self.supply,
            tokens_to_win: self.tokens_to_win() as u8,
            tournaments: self.tournaments,
        }
    }
}
