//! # engine — the game-agnostic core of cardtable
//!
//! Every game is a pure value implementing [`Game`]: `new(config, seed)`, `to_act`,
//! `legal_actions`, `apply`, `view`, `determinize`, `outcome`. The crate has no IO, no clock
//! and no async runtime; randomness is the [`MatchRng`] a match owns, so a match is exactly its
//! [`Replay`]: config, seed and the list of `(seat, action)`.
//!
//! - [`Seat`], [`Viewer`], [`SeatSet`], [`BySeat`]: who is at the table and who is looking.
//! - [`MatchRng`]: ChaCha8 with our own `below`/`shuffle`, pinned by golden vectors; a
//!   [`DrawPlan`] draws a batch of bounds known in advance.
//! - [`Bot`], [`Observation`]: bots see their view and legal actions, never the state.
//! - [`play_out`]: the bot-vs-bot loop shared by the simulator, benches and tests.
//! - [`flow`]: what a game waits on ([`Decision`]), pending response windows and the
//!   effect queue, as plain data.
//! - [`testing`]: the random-play invariant suite every game runs.

mod bot;
mod by_seat;
mod draw_plan;
mod error;
pub mod flow;
mod game;
mod replay;
mod rng;
mod runner;
mod seat;
mod seat_set;
pub mod testing;

pub use bot::{Bot, LegalShape, Observation, RandomBot};
pub use by_seat::BySeat;
pub use draw_plan::{DrawPlan, PLAN_MAX};
pub use error::{RuleError, SetupError};
pub use flow::{Decision, DecisionKind, DecisionSerial};
pub use game::{Game, Outcome};
pub use replay::{Move, Replay, ReplayError, run_replay};
pub use rng::{MatchRng, derive_seed};
pub use runner::{MatchResult, PlayoutBuffers, play_out, random_playout};
pub use seat::{Seat, Viewer};
pub use seat_set::SeatSet;
