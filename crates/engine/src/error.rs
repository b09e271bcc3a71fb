//! Errors the rules return. Codes are stable strings: they go on the wire and into tests.

use serde::Serialize;
use std::borrow::Cow;
use thiserror::Error;

/// An action the rules refused. The state it was applied to is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize)]
#[error("{message}")]
pub struct RuleError {
    /// Stable, machine-readable, snake_case (for example `not_your_turn`).
    pub code: &'static str,
    /// For people.
    pub message: Cow<'static, str>,
}

impl RuleError {
    pub fn new(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        RuleError { code, message: message.into() }
    }

    /// The common refusals every game shares.
    pub fn not_your_turn() -> Self {
        RuleError::new("not_your_turn", "it is not your turn")
    }

    pub fn game_over() -> Self {
        RuleError::new("game_over", "the game is over")
    }
}

/// A configuration the game cannot start from (wrong player count, a broken deck, ...).
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize)]
#[error("{message}")]
pub struct SetupError {
    pub code: &'static str,
    pub message: String,
}

impl SetupError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        SetupError { code, message: message.into() }
    }
}
