//! One adapter per game.

pub mod buckshot;
pub mod ivanhoe;
pub mod sorcery;
pub mod three_kingdoms;
pub mod wolfpack;
