//! The turn state machine as data: its states, its transitions, and the two hook points of
//! every transition (Enter runs before the transition's logic, Exit right after it, on entry
//! to the new state).

use crate::cards::Side;
use serde::{Deserialize, Serialize};

/// The states of a turn, in the seed's order. `Over` is where a finished fight rests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    Draw,
    Selection,
    Action,
    Confirm,
    BossDraw,
    BossSelection,
    BossAction,
    BossPhaseConfirm,
    Over,
}

impl Phase {
    /// Whose turn the state belongs to.
    pub const fn side(self) -> Side {
        match self {
            Phase::Draw | Phase::Selection | Phase::Action | Phase::Confirm | Phase::Over => Side::Pilots,
            _ => Side::Ace,
        }
    }
}

/// Every transition of the machine (`AToB` in the seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Transition {
    /// Starts the fight: the first Draw.
    Start,
    DrawToSelection,
    SelectionToAction,
    ActionToAction,
    ActionToConfirm,
    ConfirmToBossDraw,
    BossDrawToBossSelection,
    BossSelectionToBossSelection,
    BossSelectionToBossAction,
    BossActionToBossAction,
    BossActionToBossPhaseConfirm,
    BossPhaseConfirmToDraw,
    /// Every pilot discarded (or had no card): no card to resolve, so no Action state.
    SelectionToConfirm,
    /// The Ace passed every pick (or had none to make, under Cover Fire at a one-card table):
    /// no BossAction state.
    BossSelectionToBossPhaseConfirm,
}

impl Transition {
    pub const COUNT: usize = 14;
    /// Every transition, in declaration order (`ALL[t as usize] == t`).
    pub const ALL: [Transition; Transition::COUNT] = [
        Transition::Start,
        Transition::DrawToSelection,
        Transition::SelectionToAction,
        Transition::ActionToAction,
        Transition::ActionToConfirm,
        Transition::ConfirmToBossDraw,
        Transition::BossDrawToBossSelection,
        Transition::BossSelectionToBossSelection,
        Transition::BossSelectionToBossAction,
        Transition::BossActionToBossAction,
        Transition::BossActionToBossPhaseConfirm,
        Transition::BossPhaseConfirmToDraw,
        Transition::SelectionToConfirm,
        Transition::BossSelectionToBossPhaseConfirm,
    ];

    pub const fn to(self) -> Phase {
        match self {
            Transition::Start | Transition::BossPhaseConfirmToDraw => Phase::Draw,
            Transition::DrawToSelection => Phase::Selection,
            Transition::SelectionToAction | Transition::ActionToAction => Phase::Action,
            Transition::ActionToConfirm | Transition::SelectionToConfirm => Phase::Confirm,
            Transition::ConfirmToBossDraw => Phase::BossDraw,
            Transition::BossDrawToBossSelection | Transition::BossSelectionToBossSelection => Phase::BossSelection,
            Transition::BossSelectionToBossAction | Transition::BossActionToBossAction => Phase::BossAction,
            Transition::BossActionToBossPhaseConfirm | Transition::BossSelectionToBossPhaseConfirm => {
                Phase::BossPhaseConfirm
            }
        }
    }

    /// The transition into `side`'s Selection (where "selection" effects proc).
    pub const fn into_selection(side: Side) -> Transition {
        match side {
            Side::Pilots => Transition::DrawToSelection,
            Side::Ace => Transition::BossDrawToBossSelection,
        }
    }

    /// The transition whose delegates this one runs. A Confirm state is entered from Action
    /// or, when no card was played, straight from Selection; both are "the entry to Confirm"
    /// where a turn's end-of-turn effects proc, so the short way runs the usual way's
    /// delegates (effects place their triggers once, at [`Transition::into_confirm`]).
    pub const fn delegates(self) -> Transition {
        match self {
            Transition::SelectionToConfirm => Transition::ActionToConfirm,
            Transition::BossSelectionToBossPhaseConfirm => Transition::BossActionToBossPhaseConfirm,
            t => t,
        }
    }

    /// The transition into `side`'s Confirm (where its turn's end-of-turn effects proc).
    pub const fn into_confirm(side: Side) -> Transition {
        match side {
            Side::Pilots => Transition::ActionToConfirm,
            Side::Ace => Transition::BossActionToBossPhaseConfirm,
        }
    }
}

/// The two delegates of a transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stage {
    /// `OnAToBEnter`: before the transition's logic, still in state A.
    Enter,
    /// `OnAToBExit`: after it, on entry to state B.
    Exit,
}
