//! The server's integration tests, one binary (`cargo test -p server --test integration`; one file's
//! tests: `cargo test -p server --test integration restore::`). Each file was a binary of its own,
//! each linking the whole server: `cargo test -p server --no-run` after a change to the server
//! took 435 s on the 2-core machine with sixteen, 98 s with one. The tests ran two at a time in
//! each binary before and do in this one. `churn.rs` stays a binary of its own (`--test churn`):
//! it measures the process's resident memory, which other tests running beside it would add to.

mod common;

mod accounts;
mod admin;
mod clocks;
mod cluster_nodes;
mod every_game;
mod fair_play;
mod ivanhoe;
mod lifecycle;
mod newcomer;
mod protocol;
mod quickplay;
mod ratings;
mod restore;
mod security;
mod setup_rooms;
mod sorcery;
mod three_kingdoms;
mod tk_pace;
mod transport;
mod wolfpack;
