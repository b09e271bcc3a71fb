//! One entry per game. A new game adds a file here and a line to `games!` in `kind.rs`.

mod buckshot;
mod ivanhoe;
mod sorcery;
