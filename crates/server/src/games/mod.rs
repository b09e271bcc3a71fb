//! One adapter per game.

pub mod buckshot;
