//! # flow — shared helpers for what a game waits on and what it resolves
//!
//! Three small, plain-data pieces (all `Clone + Serialize + Deserialize + PartialEq + Debug`,
//! no closures stored anywhere, so a state holding them can still be cloned, compared,
//! replayed and searched):
//!
//! - [`Decision`] (in `decision.rs`): what the engine waits for right now — the seats, the
//!   [`DecisionKind`] and a serial that changes with every *new* decision. Every game returns
//!   one from [`crate::Game::decision`]; the server keys its clocks on the serial, so a
//!   window opened on top of a window with the same seats still gets a fresh clock. The
//!   serial comes from a [`DecisionSerial`] the game keeps in its state and bumps whenever it
//!   opens a decision (a game whose only decisions are turns may use its turn counter).
//! - [`WindowStack`] (in `window.rs`): pending response windows. A [`Window`] says who may
//!   answer (a [`SeatSet`](crate::SeatSet)), in which order (seat order from a start seat,
//!   one at a time or all together) and carries a small payload `K` chosen by the game (the
//!   card being answered). Not answering in time means *pass*. Windows nest: an answer that
//!   can itself be answered (a Negate played on a Negate) pushes a new window on top; the top
//!   window is the one being answered. Use it whenever other seats get a say before
//!   something resolves.
//! - [`EffectQueue`] (in `effects.rs`): effects and triggers worked to completion. The game
//!   supplies a [`Resolve`] step (`resolve(effect) -> follow-up effects`, where its queue
//!   lives, and an optional state check before each step); follow-ups resolve before what was queued earlier
//!   (depth first), which is what "a trigger resolves completely before the next one" means.
//!   A loop guard bounds the number of steps: running past it is an error value
//!   ([`LoopGuard`]), never a panic or a hang. Use it for everything that happens *without*
//!   asking a player: a queue never waits; when a resolution needs an answer, the game opens
//!   a window (or a choice) and resumes the queue once it is answered.
//!
//! Windows answer "who gets a say, and what happens if nobody says anything"; the queue
//! answers "what happens next, in which order, until nothing is left". A game with neither
//! (Buckshot) still names its decisions.
//!
//! In this repository: Ivanhoe keeps a `WindowStack<Action>` in its state (the declared
//! action card is the payload, everyone else still in answers together) with a `Window` phase
//! standing for it, so hot matches on the phase stay one jump, and bumps its
//! `DecisionSerial` in `apply` unless the same decision goes on; Sorcery works its triggers
//! on an `EffectQueue<Effect>` with its death check as [`Resolve::check`]; Buckshot and
//! Sorcery, whose only decisions are turns, use their turn counters as the serial.

mod decision;
mod effects;
mod window;

pub use decision::{Decision, DecisionKind, DecisionSerial};
pub use effects::{Control, EffectQueue, LoopGuard, Resolve};
pub use window::{Answering, NotWaiting, Window, WindowStack};
