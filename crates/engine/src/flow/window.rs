//! Pending response windows: who may still answer, in which order, with *pass* as the answer
//! when time runs out. Windows nest; the top one is being answered.

use crate::flow::{Decision, DecisionKind, DecisionSerial};
use crate::{Seat, SeatSet};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// How the seats of a window answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Answering {
    /// One at a time, in seat order from the window's start seat: each sees the answers
    /// before theirs.
    InOrder,
    /// All at once, in any order (Ivanhoe's window: naming only the holder of the answering
    /// card would tell everyone who holds it).
    Together,
}

/// A seat answered a window that was not waiting on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("{seat} may not answer now")]
pub struct NotWaiting {
    pub seat: Seat,
}

/// One response window: `kind` is the game's payload (what is being answered), `waiting`
/// the seats that have not answered yet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window<K> {
    pub kind: K,
    waiting: SeatSet,
    start: Seat,
    answering: Answering,
}

impl<K> Window<K> {
    /// A window answered by `seats`, in seat order from `start` (wrapping past the last seat).
    pub fn new(kind: K, seats: SeatSet, start: Seat, answering: Answering) -> Self {
        Window { kind, waiting: seats, start, answering }
    }

    /// Everyone who has not answered yet.
    pub fn waiting(&self) -> SeatSet {
        self.waiting
    }

    pub fn start(&self) -> Seat {
        self.start
    }

    pub fn answering(&self) -> Answering {
        self.answering
    }

    /// The seats that may answer now: the next in order, or everyone waiting.
    #[inline]
    pub fn to_answer(&self) -> SeatSet {
        match self.answering {
            Answering::Together => self.waiting,
            Answering::InOrder => self.next().map_or(SeatSet::EMPTY, SeatSet::one),
        }
    }

    /// Whether `seat` may answer now (and so would pass if its time ran out).
    #[inline]
    pub fn waits_on(&self, seat: Seat) -> bool {
        self.to_answer().contains(seat)
    }

    /// The seats still waiting, in answering order: from `start` upwards, then from seat 0.
    pub fn order(&self) -> impl Iterator<Item = Seat> + Clone + use<K> {
        let bits = self.waiting.bits();
        let from = u32::from(self.start.0).min(32);
        let high = bits.checked_shr(from).unwrap_or(0).checked_shl(from).unwrap_or(0);
        let low = bits & !high;
        SeatSet::from_bits(high).iter().chain(SeatSet::from_bits(low).iter())
    }

    /// The next seat in answering order.
    pub fn next(&self) -> Option<Seat> {
        self.order().next()
    }

    pub fn is_closed(&self) -> bool {
        self.waiting.is_empty()
    }

    /// `seat` passes. `Ok(true)`: that was the last answer and the window is closed.
    #[inline]
    pub fn pass(&mut self, seat: Seat) -> Result<bool, NotWaiting> {
        if !self.waits_on(seat) {
            return Err(NotWaiting { seat });
        }
        self.waiting.remove(seat);
        Ok(self.waiting.is_empty())
    }
}

/// Nested windows, innermost last. Opening and closing a window bumps the game's
/// [`DecisionSerial`]: both start a new decision (closing one resumes whatever was waiting
/// beneath, which gets a fresh clock).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct WindowStack<K> {
    windows: Vec<Window<K>>,
}

impl<K> Default for WindowStack<K> {
    fn default() -> Self {
        WindowStack { windows: Vec::new() }
    }
}

impl<K> WindowStack<K> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn is_empty(&self) -> bool {
        self.windows.is_empty()
    }

    /// How many windows are open (1 for a plain window, 2 for an answer being answered).
    pub fn depth(&self) -> usize {
        self.windows.len()
    }

    /// The window being answered.
    #[inline]
    pub fn top(&self) -> Option<&Window<K>> {
        self.windows.last()
    }

    pub fn top_mut(&mut self) -> Option<&mut Window<K>> {
        self.windows.last_mut()
    }

    /// Every open window, outermost first.
    pub fn iter(&self) -> impl Iterator<Item = &Window<K>> {
        self.windows.iter()
    }

    /// Opens `window` on top. A window nobody may answer is not opened: it comes back, for
    /// the game to resolve at once, and the serial is left alone.
    pub fn open(&mut self, window: Window<K>, serial: &mut DecisionSerial) -> Option<Window<K>> {
        if window.is_closed() {
            return Some(window);
        }
        self.windows.push(window);
        serial.bump();
        None
    }

    /// `seat` passes on the top window. `Ok(Some(w))`: it was the last answer; `w` is closed
    /// and taken off, for the game to resolve. `Ok(None)`: others still have to answer (the
    /// same decision goes on, the serial is unchanged).
    #[inline]
    pub fn pass(&mut self, seat: Seat, serial: &mut DecisionSerial) -> Result<Option<Window<K>>, NotWaiting> {
        let top = self.windows.last_mut().ok_or(NotWaiting { seat })?;
        if top.pass(seat)? { Ok(self.close(serial)) } else { Ok(None) }
    }

    /// Closes the top window before everyone answered (an answer that cancels what it
    /// answers) and returns it.
    #[inline]
    pub fn close(&mut self, serial: &mut DecisionSerial) -> Option<Window<K>> {
        let w = self.windows.pop()?;
        serial.bump();
        Some(w)
    }

    /// The seats the top window waits on (none without a window).
    #[inline]
    pub fn to_answer(&self) -> SeatSet {
        self.top().map_or(SeatSet::EMPTY, Window::to_answer)
    }

    /// Whether `seat` may answer the top window now; if its time runs out, it passes.
    #[inline]
    pub fn waits_on(&self, seat: Seat) -> bool {
        self.top().is_some_and(|w| w.waits_on(seat))
    }

    /// The decision the top window stands for, if a window is open.
    pub fn decision(&self, serial: DecisionSerial) -> Option<Decision> {
        self.top().map(|w| Decision::new(w.to_answer(), DecisionKind::Response, serial.get()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats(list: &[u8]) -> SeatSet {
        list.iter().map(|&s| Seat(s)).collect()
    }

    #[test]
    fn order_starts_at_the_start_seat_and_wraps() {
        let w = Window::new((), seats(&[0, 1, 3, 4]), Seat(3), Answering::InOrder);
        assert_eq!(w.order().collect::<Vec<_>>(), vec![Seat(3), Seat(4), Seat(0), Seat(1)]);
        assert_eq!(w.to_answer(), SeatSet::one(Seat(3)));
        let w = Window::new((), seats(&[0, 31]), Seat(31), Answering::InOrder);
        assert_eq!(w.order().collect::<Vec<_>>(), vec![Seat(31), Seat(0)]);
        let w = Window::new((), seats(&[2]), Seat(40), Answering::InOrder);
        assert_eq!(w.next(), Some(Seat(2)));
    }

    #[test]
    fn in_order_windows_take_one_answer_at_a_time() {
        let mut serial = DecisionSerial::default();
        let mut stack = WindowStack::new();
        assert!(stack.open(Window::new('x', seats(&[0, 2, 3]), Seat(2), Answering::InOrder), &mut serial).is_none());
        assert_eq!(serial.get(), 1);
        assert_eq!(stack.pass(Seat(0), &mut serial), Err(NotWaiting { seat: Seat(0) }));
        assert_eq!(stack.pass(Seat(2), &mut serial), Ok(None));
        assert_eq!(stack.to_answer(), SeatSet::one(Seat(3)));
        assert_eq!(stack.pass(Seat(3), &mut serial), Ok(None));
        assert_eq!(serial.get(), 1, "passing in an open window is the same decision");
        let closed = stack.pass(Seat(0), &mut serial).unwrap().expect("last answer closes");
        assert_eq!(closed.kind, 'x');
        assert!(stack.is_empty());
        assert_eq!(serial.get(), 2);
        assert_eq!(stack.decision(serial), None);
    }

    #[test]
    fn together_windows_wait_on_everyone() {
        let mut serial = DecisionSerial::default();
        let mut stack = WindowStack::new();
        stack.open(Window::new((), seats(&[1, 2, 3]), Seat(2), Answering::Together), &mut serial);
        assert_eq!(stack.to_answer(), seats(&[1, 2, 3]));
        assert!(stack.waits_on(Seat(1)));
        assert_eq!(stack.pass(Seat(3), &mut serial), Ok(None));
        let d = stack.decision(serial).unwrap();
        assert_eq!((d.seats, d.kind, d.serial), (seats(&[1, 2]), DecisionKind::Response, 1));
    }

    #[test]
    fn a_window_nobody_can_answer_is_not_opened() {
        let mut serial = DecisionSerial::default();
        let mut stack = WindowStack::new();
        let back = stack.open(Window::new(5, SeatSet::EMPTY, Seat(0), Answering::Together), &mut serial);
        assert_eq!(back.map(|w| w.kind), Some(5));
        assert!(stack.is_empty());
        assert_eq!(serial.get(), 0);
    }

    /// A Negate answered by a Negate from the same seats: same seats, a new decision; when the
    /// inner one resolves, the outer one is a new decision again.
    #[test]
    fn negate_on_negate_gets_new_serials() {
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        enum Pending {
            Spell,
            Negate { of: Box<Pending> },
        }
        let mut serial = DecisionSerial::new(10);
        let mut stack: WindowStack<Pending> = WindowStack::new();
        let others = seats(&[1, 2]);
        stack.open(Window::new(Pending::Spell, others, Seat(1), Answering::Together), &mut serial);
        let first = stack.decision(serial).unwrap();
        // Seat 1 answers with a Negate; seat 0 and 2 may answer it (seat 2 had not answered).
        let negate = Pending::Negate { of: Box::new(Pending::Spell) };
        stack.open(Window::new(negate.clone(), seats(&[0, 2]), Seat(2), Answering::Together), &mut serial);
        let second = stack.decision(serial).unwrap();
        assert_ne!(first.serial, second.serial);
        assert_eq!(stack.depth(), 2);
        // Seat 2 Negates the Negate: the same seats as the window below, a new serial anyway.
        let again = Pending::Negate { of: Box::new(negate) };
        stack.open(Window::new(again, seats(&[0, 2]), Seat(0), Answering::Together), &mut serial);
        let third = stack.decision(serial).unwrap();
        assert_eq!(third.seats, second.seats);
        assert_ne!(third.serial, second.serial);
        // Everyone passes on the innermost: it closes, the serial moves on.
        stack.pass(Seat(0), &mut serial).unwrap();
        assert_eq!(stack.decision(serial).unwrap().serial, third.serial);
        let closed = stack.pass(Seat(2), &mut serial).unwrap().expect("closed");
        assert!(matches!(closed.kind, Pending::Negate { .. }));
        // The game resolves it by cancelling the window beneath (the negated Negate).
        let cancelled = stack.close(&mut serial).expect("the negated negate");
        assert!(matches!(cancelled.kind, Pending::Negate { .. }));
        // The spell's window is answered again, as a new decision.
        let resumed = stack.decision(serial).unwrap();
        assert_eq!(resumed.seats, others);
        let all = [first.serial, second.serial, third.serial, resumed.serial];
        let distinct: std::collections::BTreeSet<u32> = all.into_iter().collect();
        assert_eq!(distinct.len(), 4, "{all:?}");
        // Plain data: clones, compares and survives a serde round trip.
        crate::testing::round_trip(&stack, "window stack");
        assert_eq!(stack.clone(), stack);
    }
}
