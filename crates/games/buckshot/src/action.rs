//! What a player can do, and what the table learns from it.

use crate::{Item, Shell};
use engine::Seat;
use serde::{Deserialize, Serialize};

/// An action of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Action {
    /// Fire the next shell at a living player (self included).
    Shoot { target: Seat },
    /// Use one of your own items.
    Use { item: ItemUse },
    /// Take an item from another living player and use it at once.
    Steal { from: Seat, item: ItemUse },
}

/// Using one item, with its arguments. Steal is not among them: "Steal cannot steal Steal",
/// and a Steal's own use is `Action::Steal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "item", rename_all = "camelCase")]
pub enum ItemUse {
    Skip { target: Seat },
    DoubleDamage,
    ChamberCheck,
    Rebalancer { kind: Shell },
    Quickshot,
    AddLife,
    ShootAir,
}

impl ItemUse {
    pub fn item(self) -> Item {
        match self {
            ItemUse::Skip { .. } => Item::Skip,
            ItemUse::DoubleDamage => Item::DoubleDamage,
            ItemUse::ChamberCheck => Item::ChamberCheck,
            ItemUse::Rebalancer { .. } => Item::Rebalancer,
            ItemUse::Quickshot => Item::Quickshot,
            ItemUse::AddLife => Item::AddLife,
            ItemUse::ShootAir => Item::ShootAir,
        }
    }
}

/// What happened. Every event is public except `ChamberChecked`'s shell, which only its user
/// sees (see `Buckshot::view_event`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Event {
    /// A round began: items dealt (public) and the chamber's counts (its order is secret).
    RoundStarted {
        round: u32,
        live: u8,
        blank: u8,
        items: crate::SeatItems,
    },
    TurnStarted {
        seat: Seat,
        turn: u32,
    },
    TurnEnded {
        seat: Seat,
    },
    /// A seat's turn came up and was skipped (the pending skip is consumed).
    TurnSkipped {
        seat: Seat,
    },
    Shot {
        by: Seat,
        target: Seat,
        shell: Shell,
        damage: u8,
    },
    /// The user learns the next shell; everyone else only that the check was made.
    ChamberChecked {
        by: Seat,
        shell: Option<Shell>,
    },
    SkipUsed {
        by: Seat,
        target: Seat,
    },
    DoubleDamageUsed {
        by: Seat,
    },
    Rebalanced {
        by: Seat,
        kind: Shell,
        added: u8,
        live: u8,
        blank: u8,
    },
    QuickshotUsed {
        by: Seat,
    },
    LifeAdded {
        by: Seat,
        lives: u8,
    },
    AirShot {
        by: Seat,
        shell: Shell,
    },
    /// `by` took `item` from `from` and used it at once (the use follows as its own event).
    Stole {
        by: Seat,
        from: Seat,
        item: Item,
    },
    /// Out of the game. `by` is the shooter, who takes `items`.
    Eliminated {
        seat: Seat,
        by: Option<Seat>,
        items: crate::Items,
    },
    Left {
        seat: Seat,
    },
    GameOver {
        winner: Seat,
    },
}
