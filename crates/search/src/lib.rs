//! # search — an information-set MCTS bot for any game
//!
//! [`SearchBot`] plays any [`engine::Game`] through the trait alone: no game-specific code
//! lives here. It is single-observer ISMCTS with determinization (Cowling, Powley and
//! Whitehouse, 2012):
//!
//! - **Determinize.** Each iteration plays on a fresh `determinize(viewer, rng)` of the bot's
//!   own observation: everything its seat cannot see is resampled, and the copy's RNG is
//!   reseeded, so the search can neither read hidden cards nor peek at future draws. The real
//!   state never leaves [`engine::Observation`].
//! - **Select** down one tree shared by all determinizations, whose edges are `(seat, action)`:
//!   at each node the seat to act picks, among the children its legal actions allow in *this*
//!   determinization, the best UCB1 score counted over how often each was available (the ISMCTS
//!   "availability" count), and from its own seat's point of view (max-n: each seat plays for
//!   itself, as opponents do).
//! - **Expand** one untried legal action, then **play out** to the end with a pluggable
//!   [`Playout`] policy (uniform random, or a provided [`engine::Bot`]).
//! - **Back up** the outcome: a seat scores 1 for a win, 0 for a loss, `1/n` each when nobody
//!   wins (a draw, a co-operative loss). With a cutoff ([`SearchBot::cutoff`]) a playout stops
//!   after that many moves and each seat scores the game's estimate of its chances instead
//!   (an [`Evaluator`] on the determinized copy; Sorcery's levels use one).
//!
//! The move chosen is the root action visited most (ties: the first in the legal list).
//!
//! ## Hidden information
//! The bot only ever calls `Observation::determinize`, so it cannot read what its seat cannot
//! see; but for its choice to be *identical* (not merely equally distributed) whatever the
//! hidden cards are, a game's `determinize` must be canonical: the same viewer, view and RNG
//! must give the same copy. Buckshot's is (it deals the chamber from the public counts), and
//! Ivanhoe's, Sorcery's and Three Kingdoms' sort their pool of hidden cards before the shuffle;
//! `tests/hidden_information.rs` checks the bare search on the first three, Sorcery's also with
//! its levels' cutoff, and `crates/registry/tests/hidden_information.rs` every game's `hard` and
//! `expert` as the lobby builds them (playouts, cutoff, anchoring, `keep`).
//!
//! ## Several seats to act
//! `to_act` is a set: simultaneous choices and reaction windows. In the tree the observer acts
//! first whenever it is in that set (so its own decision never depends on choices it could not
//! have seen), and otherwise the lowest seat does, as [`engine::play_out`] orders them.
//!
//! ## Budget, reproducibility, threads
//! A [`Budget`] caps iterations, time, or both. With an iteration budget the choice is a
//! function of the observation and the `rng` passed to `choose` (from which the search seed
//! is drawn). Root parallelism: each of `threads` workers grows its own tree from its own
//! seed (derived from the search seed and the worker's index) on a fixed share of the
//! iterations, and the root visit counts are summed, so for a fixed seed and thread count the
//! result does not depend on scheduling. A time cap makes results machine-dependent.
//!
//! ## Levels
//! [`Level`] (`easy`, `medium`, `hard`, `expert`) turns a game's heuristic bot into four
//! strengths with one generic constructor; the game says which playouts suit it and how many
//! iterations its levels run ([`SearchLevels`]).
//!
//! ## Strength
//! How each game's `hard` and `expert` do against its heuristic, and what their moves cost, is
//! measured with `cardtable sim --iterations-only` on the registry's levels; the table and the
//! commands are in `docs/search-strength.md`.
//!
//! ## Speed
//! The tree is an arena of nodes linked first-child/next-sibling (no allocation per node
//! beyond the arena's growth), and a worker's buffers (legal actions, events, path) are kept
//! between iterations and between decisions. [`bench_search`] measures iterations per second.

mod bench;
mod budget;
mod level;
mod playout;
mod tree;
mod worker;

pub use bench::{BenchOptions, BenchReport, bench_search};
pub use budget::Budget;
pub use level::{BotMaker, Level, ParseLevelError, PlayoutKind, SearchLevels, SearchTuning, Weakened};
pub use playout::Playout;
pub use worker::{Evaluator, Foolish, SearchBot, SearchStats};
