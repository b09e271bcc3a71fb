//! # registry — every game cardtable knows, and the one place a name becomes a type
//!
//! A game is a crate implementing [`engine::Game`]. To be reachable from the command line
//! and the lobby it also needs an [`Entry`]: its title, one
//! line of description, its seat range, its bots by name, the config for a player count and
//! its narration (`describe_event`, written once in the game crate's `text.rs`). Each game's
//! entry is a file of `games/`, and the game is listed once, in the `games!` invocation of
//! `entry.rs`; that line makes [`GameKind`] grow a variant and [`GameKind::visit`] a branch.
//! Every entry writes the parts the game crates spell alike with one macro, `by_layout!`.
//!
//! Code that works for any game is written once, generically, as a [`GameVisitor`]:
//!
//! ```
//! use registry::{Entry, GameKind, GameVisitor};
//!
//! struct DefaultSeats;
//! impl GameVisitor for DefaultSeats {
//!     type Out = u8;
//!     fn visit<G: Entry>(self) -> u8 {
//!         G::DEFAULT_PLAYERS
//!     }
//! }
//!
//! let kind: GameKind = "ivanhoe".parse().unwrap();
//! assert_eq!(kind.visit(DefaultSeats), 3);
//! ```
//!
//! There is no other `match` on the game anywhere in the command-line tool: `sim`, `play` and
//! `replay` each hold one visitor. The server's one `match` turns a kind into its room adapter
//! type (`server::games::visit_adapter`), and its lobby and replays go through it.

mod entry;
mod games;
mod kind;
pub mod ratings;

pub use entry::{
    Entry, GameKind, GameVisitor, UnknownBot, bot, bot_iterations_only, bots, is_searching, level_bot, level_of,
    tuned_level,
};
pub use kind::{GameInfo, UnknownGame};
pub use search::Level;
