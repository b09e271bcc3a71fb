//! Bots.
use crate::Ivanhoe;
use engine::{Bot, RandomBot};

pub const BOTS: &[&str] = &["random", "heuristic"];

pub struct HeuristicBot;

pub fn bot(name: &str) -> Option<Box<dyn Bot<Ivanhoe>>> {
    match name {
        "random" => Some(Box::new(RandomBot)),
        _ => None,
    }
}
