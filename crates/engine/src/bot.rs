//! Bots see an `Observation`: their seat, their legal actions and their view. The real state is
//! behind it but private, so a bot cannot read hidden cards; a search bot may ask for
//! determinized copies, which resample what the seat cannot see.

use crate::{Game, MatchRng, Seat, Viewer};
use std::cell::{Cell, OnceCell};

/// What a bot may know when it must choose.
///
/// The legal list is either given ([`Observation::new`]) or listed on first use
/// ([`Observation::lazy`], the runner's way): a bot that draws from the game's
/// [`LegalShape`] instead never pays for a list it does not read.
pub struct Observation<'a, G: Game> {
    game: &'a G,
    seat: Seat,
    legal: Legal<'a, G::Action>,
    view: OnceCell<G::View>,
}

enum Legal<'a, A> {
    Given(&'a [A]),
    /// Listed into the buffer (taken from `spare`) the first time it is asked for.
    Lazy {
        list: OnceCell<Vec<A>>,
        spare: Cell<Vec<A>>,
    },
}

impl<'a, G: Game> Observation<'a, G> {
    /// `legal` must be `game.legal_actions(seat)` and non-empty.
    pub fn new(game: &'a G, seat: Seat, legal: &'a [G::Action]) -> Self {
        debug_assert!(!legal.is_empty(), "a bot was asked to act with no legal action");
        Observation { game, seat, legal: Legal::Given(legal), view: OnceCell::new() }
    }

    /// An observation whose legal list is listed into `buffer` (cleared first) only if a bot
    /// asks for it; [`Observation::take_buffer`] gives the buffer back for the next move, so
    /// a loop allocates nothing per move either way. `seat` must have a legal action.
    pub fn lazy(game: &'a G, seat: Seat, buffer: Vec<G::Action>) -> Self {
        let legal = Legal::Lazy { list: OnceCell::new(), spare: Cell::new(buffer) };
        Observation { game, seat, legal, view: OnceCell::new() }
    }

    /// Takes back the buffer of a [`Observation::lazy`] observation (an empty one for
    /// [`Observation::new`]). By `&mut`: moving the observation would copy its view's slot.
    pub fn take_buffer(&mut self) -> Vec<G::Action> {
        match &mut self.legal {
            Legal::Given(_) => Vec::new(),
            Legal::Lazy { list, spare } => list.take().unwrap_or_else(|| spare.take()),
        }
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// `legal_actions(seat)`, never empty.
    pub fn legal(&self) -> &[G::Action] {
        match &self.legal {
            Legal::Given(l) => l,
            Legal::Lazy { list, spare } => list.get_or_init(|| {
                let mut v = spare.take();
                v.clear();
                self.game.legal_actions_into(self.seat, &mut v);
                debug_assert!(!v.is_empty(), "a bot was asked to act with no legal action");
                v
            }),
        }
    }

    /// The seat's view, computed on first use (a random bot never pays for it).
    pub fn view(&self) -> &G::View {
        self.view.get_or_init(|| self.game.view(Viewer::seat(self.seat)))
    }

    /// A full game state consistent with this seat's view, hidden parts resampled from `rng`.
    pub fn determinize(&self, rng: &mut MatchRng) -> G {
        self.game.determinize(Viewer::seat(self.seat), rng)
    }
}

impl<G: LegalShape> Observation<'_, G> {
    /// The seat's legal actions as the game's compact [`LegalShape`] (no list built).
    pub fn legal_shape(&self) -> G::Shape {
        self.game.legal_shape(self.seat)
    }
}

/// A game that can describe a seat's legal actions more compactly than by listing them (Wolf
/// Pack: each hand card's target mask), so a cheap bot can draw from that instead of the list.
/// The shape tells a bot nothing the legal list does not: it must describe exactly
/// `legal_actions(seat)`, and each game implementing it checks that by a test (the list stays
/// the one source of legality).
pub trait LegalShape: Game {
    type Shape;
    fn legal_shape(&self, seat: Seat) -> Self::Shape;
}

/// A player the computer controls.
pub trait Bot<G: Game>: Send + Sync {
    /// Must return one of `obs.legal()`.
    fn choose(&mut self, obs: &Observation<'_, G>, rng: &mut MatchRng) -> G::Action;
}

/// Uniform over the legal actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl<G: Game> Bot<G> for RandomBot {
    fn choose(&mut self, obs: &Observation<'_, G>, rng: &mut MatchRng) -> G::Action {
        rng.pick(obs.legal()).clone()
    }
}

/// A game crate's table of bots by name: writes its `pub const BOTS: &[&str]` (the names, in
/// order; the first is the default where a tool needs one) and `pub fn bot(name) ->
/// Option<Box<dyn Bot<G>>>`, from one list of `"name" => constructor` lines, so the names and
/// the bots cannot drift apart and no game writes the two out by hand.
///
/// ```text
/// engine::bot_table!(Buckshot {
///     "random" => engine::RandomBot,
///     "heuristic" => Heuristic,
/// });
/// ```
#[macro_export]
macro_rules! bot_table {
    ($game:ty { $($name:literal => $make:expr),+ $(,)? }) => {
        /// The bots this game offers, by name.
        pub const BOTS: &[&str] = &[$($name),+];

        /// A bot by name (see [`BOTS`]).
        pub fn bot(name: &str) -> Option<Box<dyn $crate::Bot<$game>>> {
            match name {
                $($name => Some(Box::new($make)),)+
                _ => None,
            }
        }
    };
}
