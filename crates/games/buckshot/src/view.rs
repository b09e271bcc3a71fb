//! What a viewer may see. Everything is public except the chamber's order: a viewer sees the
//! counts, and the next shell only if they checked it themselves since it was loaded.

use crate::{Buckshot, Items, Quickshot, Shell};
use engine::{Seat, Viewer};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerView {
    pub seat: Seat,
    pub lives: u8,
    pub items: Items,
    pub alive: bool,
    pub skipped: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct View {
    pub viewer: Viewer,
    pub players: Vec<PlayerView>,
    /// Whose turn it is; `None` once the game is over.
    pub current: Option<Seat>,
    pub next: Option<Seat>,
    pub round: u32,
    pub turn: u32,
    pub live_left: u8,
    pub blank_left: u8,
    /// The next shell, if this viewer checked it and it is still the next one.
    pub next_shell: Option<Shell>,
    pub double_damage: bool,
    pub quickshot: Quickshot,
    pub rebalancer_window: bool,
    pub winner: Option<Seat>,
}

impl View {
    pub fn me(&self) -> Option<&PlayerView> {
        self.viewer.as_seat().map(|s| &self.players[s.index()])
    }

    pub fn player(&self, seat: Seat) -> &PlayerView {
        &self.players[seat.index()]
    }

    /// The chance that the next shell is live, from this viewer's knowledge.
    pub fn live_chance(&self) -> f64 {
        match self.next_shell {
            Some(Shell::Live) => 1.0,
            Some(Shell::Blank) => 0.0,
            None => {
                let total = f64::from(self.live_left) + f64::from(self.blank_left);
                if total == 0.0 { 0.0 } else { f64::from(self.live_left) / total }
            }
        }
    }
}

impl Buckshot {
    pub(crate) fn make_view(&self, viewer: Viewer) -> View {
        let over = self.winner.is_some();
        View {
            viewer,
            players: Seat::all(self.players())
                .map(|seat| PlayerView {
                    seat,
                    lives: self.lives(seat),
                    items: self.items(seat),
                    alive: self.is_alive(seat),
                    skipped: self.is_skipped(seat),
                })
                .collect(),
            current: (!over).then_some(self.current),
            next: self.next_turn(),
            round: self.round,
            turn: self.turn,
            live_left: self.chamber.live(),
            blank_left: self.chamber.blank(),
            next_shell: viewer.as_seat().filter(|s| self.knows_next(*s)).and_then(|_| self.chamber.peek()),
            double_damage: self.double_damage,
            quickshot: self.quickshot,
            rebalancer_window: self.rebalancer_window(),
            winner: self.winner,
        }
    }
}
