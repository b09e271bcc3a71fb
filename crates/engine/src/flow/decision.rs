//! What the engine waits for: the seats, the kind of wait and a serial naming this decision.

use crate::SeatSet;
use serde::{Deserialize, Serialize};

/// The kind of wait, so a server can pick a clock and a client a prompt without guessing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DecisionKind {
    /// A seat's ordinary turn (also used once the match is over, with no seats).
    #[default]
    Turn,
    /// An answer to something another seat did (a reaction window); passing is the default.
    Response,
    /// Several seats decide at once, none seeing the others' answers first.
    Simultaneous,
    /// A choice the rules ask for in the middle of resolving something (which card to keep).
    Choice,
}

/// What the engine waits for now. `serial` changes whenever a new decision opens, and stays
/// the same while the same decision is still being answered (another seat of a window
/// passed, a turn goes on after a card was played); `seats` may shrink meanwhile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Decision {
    pub seats: SeatSet,
    pub kind: DecisionKind,
    pub serial: u32,
}

impl Decision {
    pub const fn new(seats: SeatSet, kind: DecisionKind, serial: u32) -> Self {
        Decision { seats, kind, serial }
    }

    /// The match is over: nobody is waited on.
    pub const fn none(serial: u32) -> Self {
        Decision { seats: SeatSet::EMPTY, kind: DecisionKind::Turn, serial }
    }
}

/// The counter a game keeps in its state to number its decisions. Bump it each time a new
/// decision opens; it wraps (only equality with the previous serial matters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DecisionSerial(u32);

impl DecisionSerial {
    pub const fn new(start: u32) -> Self {
        DecisionSerial(start)
    }

    pub const fn get(self) -> u32 {
        self.0
    }

    /// A new decision opens.
    pub fn bump(&mut self) {
        self.0 = self.0.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Seat;

    #[test]
    fn serial_bumps_and_wraps() {
        let mut s = DecisionSerial::new(u32::MAX);
        s.bump();
        assert_eq!(s.get(), 0);
        s.bump();
        assert_eq!(s.get(), 1);
        assert_eq!(serde_json::to_string(&s).unwrap(), "1");
    }

    #[test]
    fn decision_serializes_plainly() {
        let d = Decision::new(SeatSet::one(Seat(2)), DecisionKind::Response, 7);
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(json, r#"{"seats":[2],"kind":"response","serial":7}"#);
        assert_eq!(serde_json::from_str::<Decision>(&json).unwrap(), d);
        assert!(Decision::none(3).seats.is_empty());
    }
}
