//! Where the rules tell what happened: a list of [`Event`]s, or nowhere.
//!
//! A playout (the simulator's, a search's) reads no events, and making them is a large part
//! of a move's cost (a push each, and the values they carry). The rules are written once,
//! generic over [`Out`]; with [`Quiet`] the compiler drops the events and everything made
//! only for them. The state a move leaves is the same either way (a test plays the same
//! fights both ways).

use crate::action::Event;

/// What the rules push each event to.
pub trait Out {
    fn push(&mut self, event: Event);
}

impl Out for Vec<Event> {
    #[inline]
    fn push(&mut self, event: Event) {
        Vec::push(self, event);
    }
}

/// Events nobody reads: dropped unmade.
pub struct Quiet;

impl Out for Quiet {
    #[inline(always)]
    fn push(&mut self, _: Event) {}
}
