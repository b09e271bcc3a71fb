//! Bots see an `Observation`: their seat, their legal actions and their view. The real state is
//! behind it but private, so a bot cannot read hidden cards; a search bot may ask for
//! determinized copies, which resample what the seat cannot see.

use crate::{Game, MatchRng, Seat, Viewer};
use std::cell::OnceCell;

/// What a bot may know when it must choose.
pub struct Observation<'a, G: Game> {
    game: &'a G,
    seat: Seat,
    legal: &'a [G::Action],
    view: OnceCell<G::View>,
}

impl<'a, G: Game> Observation<'a, G> {
    /// `legal` must be `game.legal_actions(seat)` and non-empty.
    pub fn new(game: &'a G, seat: Seat, legal: &'a [G::Action]) -> Self {
        debug_assert!(!legal.is_empty(), "a bot was asked to act with no legal action");
        Observation { game, seat, legal, view: OnceCell::new() }
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }

    pub fn legal(&self) -> &'a [G::Action] {
        self.legal
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
