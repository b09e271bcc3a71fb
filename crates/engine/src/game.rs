//! The `Game` trait: what every rules engine offers to bots, the simulator and the server.

use crate::{Decision, MatchRng, RuleError, Seat, SeatSet, SetupError, Viewer};
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;

/// How a match ended. Co-operative games against the rules (Wolf Pack's Ace) may have no
/// winning seat at all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Outcome {
    pub winners: SeatSet,
}

impl Outcome {
    pub fn winner(seat: Seat) -> Self {
        Outcome { winners: SeatSet::one(seat) }
    }
}

/// A complete, pure rules engine: a value that can be cloned, compared, serialized, replayed
/// and searched. No IO, no clock, no threads: randomness comes from the `MatchRng` the state
/// owns.
///
/// Contract (checked for every game by [`crate::testing`]):
/// - `apply_into` on an action `legal_actions` does not list returns `Err`, pushes no event
///   and leaves `self` unchanged;
/// - while `outcome()` is `None`, `to_act()` is non-empty and each seat in it has a legal
///   action; once it is `Some`, nobody has one;
/// - `decision().seats == to_act()`, and the decision serial does not change unless the
///   state does;
/// - `view(v)` depends only on what `v` may see: `determinize(v, _)` never changes it.
pub trait Game: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The name used on the command line, in URLs and in the database.
    const NAME: &'static str;

    /// The version of these rules as a stored match sees them: a finished match records it
    /// (`"rulesVersion"` in its result) and its replay is the seed, config and moves played
    /// again by this build. Raise it with any change after which a stored move list no longer
    /// plays the same (a move refused, a different draw, another outcome), so that a replay of
    /// an older match can say which rules recorded it instead of failing obscurely.
    const RULES_VERSION: u32 = 1;

    type Config: Clone + Debug + Default + Serialize + DeserializeOwned + Send + Sync;
    /// Hashable, so that a search can find an action in a long legal list without scanning it.
    type Action: Clone + Debug + Eq + std::hash::Hash + Serialize + DeserializeOwned + Send + Sync;
    type Event: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    type View: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;

    /// A new match. Everything random is drawn from `seed`.
    fn new(config: &Self::Config, seed: u64) -> Result<Self, SetupError>;

    /// How many seats the match has (players, eliminated or not).
    fn num_seats(&self) -> usize;

    /// The seats the game is waiting on. Usually one; several in simultaneous phases and
    /// reaction windows; none once the game is over. A seat outside this set may still have
    /// legal actions (an out-of-turn item, a reaction) — `legal_actions` is the authority.
    fn to_act(&self) -> SeatSet;

    /// What the game waits for, named: `seats` is always `to_act()`; the kind says what sort
    /// of wait it is, and the serial changes with every new decision (a window opened on a
    /// window with the same seats included) and stays while the same one is being answered.
    /// Servers key their clocks on it. See [`crate::flow`].
    fn decision(&self) -> Decision;

    /// Appends the legal actions of `seat` to `out` (which the caller may reuse between calls
    /// to avoid allocating). Empty when `seat` may do nothing now.
    fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Self::Action>);

    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action> {
        let mut v = Vec::new();
        self.legal_actions_into(seat, &mut v);
        v
    }

    /// A uniform random legal action of `seat`, drawn exactly as `rng.pick(&legal_actions(seat))`
    /// draws it (one `rng.index(len)`), so a playout gives the same game either way; `None`
    /// (and no draw) when `seat` has no legal action. The default lists the actions into
    /// `scratch`; a game that can count and index its legal actions without listing them
    /// overrides it (random playouts spend most of a move listing actions they never look
    /// at). The invariant suite checks it against the list for every game.
    fn random_legal_action(
        &self,
        seat: Seat,
        rng: &mut MatchRng,
        scratch: &mut Vec<Self::Action>,
    ) -> Option<Self::Action> {
        scratch.clear();
        self.legal_actions_into(seat, scratch);
        (!scratch.is_empty()).then(|| rng.pick(scratch).clone())
    }

    /// Applies `action` by `seat`, appending what happened to `out`. On `Err` nothing changed.
    fn apply_into(&mut self, seat: Seat, action: Self::Action, out: &mut Vec<Self::Event>) -> Result<(), RuleError>;

    /// As [`Game::apply_into`] for a caller that reads no events (a playout, a search): the
    /// same state after, and a game may skip making the events. `scratch` is a buffer the
    /// default hands to `apply_into` (cleared first); what it holds after is unspecified.
    fn apply_quiet(
        &mut self,
        seat: Seat,
        action: Self::Action,
        scratch: &mut Vec<Self::Event>,
    ) -> Result<(), RuleError> {
        scratch.clear();
        self.apply_into(seat, action, scratch)
    }

    fn apply(&mut self, seat: Seat, action: Self::Action) -> Result<Vec<Self::Event>, RuleError> {
        let mut out = Vec::new();
        self.apply_into(seat, action, &mut out)?;
        Ok(out)
    }

    /// Whether `apply` would accept the action, decided by `apply` itself on a copy. The
    /// invariant suite checks this agrees with `legal_actions` for every game.
    fn is_legal(&self, seat: Seat, action: &Self::Action) -> bool {
        self.clone().apply_into(seat, action.clone(), &mut Vec::new()).is_ok()
    }

    /// What `viewer` may know of the match. The only thing that leaves the engine.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// Whether `seat`'s legal `action` is a secret move: applying it changes nothing any other
    /// viewer sees (no other seat's view nor the spectator's, no other seat's legal actions,
    /// not the decision) and tells them no event. Wolf Pack's pilots changing a choice they
    /// have not confirmed are; by default no move is. A server shows a secret move to `seat`
    /// alone, so that the others' tables (even a move counter on them) do not change at all:
    /// how often someone changes their mind is hidden information too. The invariant suite
    /// checks the promise on every secret move it plays.
    fn is_secret(&self, seat: Seat, action: &Self::Action) -> bool {
        let _ = (seat, action);
        false
    }

    /// What `viewer` may know of an event (`None`: they do not learn it happened at all).
    fn view_event(&self, event: &Self::Event, viewer: Viewer) -> Option<Self::Event>;

    /// A copy in which everything `viewer` cannot see is resampled consistently with what
    /// they can, and whose RNG is reseeded from `rng` (so a search cannot peek at future
    /// draws). Search bots plan on these, never on the real state.
    fn determinize(&self, viewer: Viewer, rng: &mut MatchRng) -> Self;

    /// A seat leaves the match for good (it left the room, or its connection was not
    /// reclaimed in time). Each game decides what that means — eliminated, conceded — and
    /// the default does nothing (a bot then keeps playing the seat). Recorded in replays.
    fn leave(&mut self, seat: Seat, out: &mut Vec<Self::Event>) {
        let _ = (seat, out);
    }

    /// What `seat` is taken to answer if it does not act in time (a reaction window's pass, a
    /// default choice). `None`: the game has no default and the seat must act.
    fn timeout_action(&self, seat: Seat) -> Option<Self::Action> {
        let _ = seat;
        None
    }

    /// Events that describe the opening position (the first deal, who starts), for clients
    /// that follow a match from its start.
    fn start_events(&self) -> Vec<Self::Event> {
        Vec::new()
    }

    /// `Some` once the match is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Game-specific invariants (card conservation, bounds). Checked after every step of the
    /// random-play suite.
    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }

    /// A superset of the legal actions of `seat` that includes plausible illegal ones, so the
    /// suite can check that `apply` refuses exactly what `legal_actions` leaves out.
    fn candidate_actions(&self, seat: Seat) -> Vec<Self::Action> {
        self.legal_actions(seat)
    }

    /// A rough upper bound on the number of actions a match of this configuration takes; the
    /// suite fails a playout that runs past it.
    fn step_limit(&self) -> usize {
        100_000
    }
}
