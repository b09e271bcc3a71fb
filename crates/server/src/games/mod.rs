//! One adapter per game.

pub mod buckshot;
pub mod sorcery;
