//! A compact text notation for test setups and state summaries, so rule scenarios read as
//! data:
//!
//! ```text
//! seats 3; lives 5 2 5; items 0=skip,quickshot 2=steal; chamber LBL; turn 1
//! ```
//!
//! Clauses (any order, `;`-separated): `seats N` (required, first), `lives L…` (one per seat),
//! `items S=item,item …`, `chamber` followed by shells in firing order (`L` live, `B` blank),
//! `turn S` (whose turn), `round R`, `fired` (the Rebalancer window is closed), `skipped S…`,
//! `seed N` (the RNG for what comes later). Unmentioned: 5 lives, no items, round 1, seat 0
//! to act, window open.

use crate::state::{MAX_LIVES, MAX_SEATS, bit};
use crate::{Buckshot, Chamber, Item, Items, Quickshot, Shell};
use engine::{MatchRng, Seat};

impl Buckshot {
    /// Builds a state from the notation above.
    pub fn from_setup(text: &str) -> Result<Buckshot, String> {
        let mut clauses = text.split(';').map(str::trim).filter(|c| !c.is_empty());
        let first = clauses.next().ok_or("empty setup")?;
        let n: u8 = first
            .strip_prefix("seats ")
            .and_then(|v| v.trim().parse().ok())
            .filter(|n| (2..=MAX_SEATS as u8).contains(n))
            .ok_or("setup must start with `seats N` (2..8)")?;
        let mut g = Buckshot {
            n,
            lives: [0; MAX_SEATS],
            alive: 0,
            items: [Items::NONE; MAX_SEATS],
            skipped: 0,
            knows: 0,
            round: 1,
            turn: 1,
            current: Seat(0),
            chamber: Chamber::from_shells(&[Shell::Live, Shell::Blank]),
            fired: false,
            double_damage: false,
            quickshot: Quickshot::Off,
            winner: None,
            dealt: 0,
            spent: 0,
            rng: MatchRng::new(0),
        };
        g.lives[..usize::from(n)].fill(MAX_LIVES);
        let seat = |s: &str| -> Result<Seat, String> {
            let v: u8 = s.parse().map_err(|_| format!("bad seat `{s}`"))?;
            if v < n { Ok(Seat(v)) } else { Err(format!("seat {v} out of range")) }
        };
        for clause in clauses {
            let (key, rest) = clause.split_once(' ').unwrap_or((clause, ""));
            let words: Vec<&str> = rest.split_whitespace().collect();
            match key {
                "lives" => {
                    if words.len() != usize::from(n) {
                        return Err("`lives` needs one number per seat".into());
                    }
                    for (i, w) in words.iter().enumerate() {
                        g.lives[i] = w.parse().ok().filter(|l| *l <= MAX_LIVES).ok_or(format!("bad lives `{w}`"))?;
                    }
                }
                "items" => {
                    for w in words {
                        let (s, list) = w.split_once('=').ok_or(format!("bad items `{w}`"))?;
                        let s = seat(s)?;
                        for name in list.split(',').filter(|x| !x.is_empty()) {
                            let item = Item::from_name(name).ok_or(format!("unknown item `{name}`"))?;
                            g.items[s.index()].add(item);
                            g.dealt += 1;
                        }
                    }
                }
                "chamber" => {
                    let shells: Result<Vec<Shell>, String> = rest
                        .chars()
                        .filter(|c| !c.is_whitespace())
                        .map(|c| match c {
                            'L' => Ok(Shell::Live),
                            'B' => Ok(Shell::Blank),
                            _ => Err(format!("bad shell `{c}`")),
                        })
                        .collect();
                    let shells = shells?;
                    if shells.is_empty() {
                        return Err("the chamber cannot start empty".into());
                    }
                    g.chamber = Chamber::from_shells(&shells);
                }
                "turn" => g.current = seat(words.first().ok_or("`turn` needs a seat")?)?,
                "round" => g.round = words.first().and_then(|w| w.parse().ok()).ok_or("bad round")?,
                "fired" => g.fired = true,
                "skipped" => {
                    for w in words {
                        g.skipped |= bit(seat(w)?);
                    }
                }
                "seed" => g.rng = MatchRng::new(words.first().and_then(|w| w.parse().ok()).ok_or("bad seed")?),
                _ => return Err(format!("unknown clause `{key}`")),
            }
        }
        g.alive = crate::mask::nonzero_bytes(g.lives);
        g.invariants()?;
        Ok(g)
    }

    /// A one-line summary in the same notation (plus `winner` when there is one), for
    /// comparing states in table-driven tests.
    pub fn summary(&self) -> String {
        let lives: Vec<String> = (0..self.players()).map(|s| self.lives[s].to_string()).collect();
        let mut out = format!("lives {}", lives.join(" "));
        let items: Vec<String> = (0..self.players())
            .filter(|&s| self.items[s] != Items::NONE)
            .map(|s| format!("{s}={}", self.items[s].iter().map(Item::name).collect::<Vec<_>>().join(",")))
            .collect();
        if !items.is_empty() {
            out += &format!("; items {}", items.join(" "));
        }
        let shells: String = self.chamber.shells().map(|s| if s == Shell::Live { 'L' } else { 'B' }).collect();
        out += &format!("; chamber {shells}");
        match self.winner {
            Some(w) => out += &format!("; winner {}", w.0),
            None => out += &format!("; turn {}", self.current.0),
        }
        if self.skipped != 0 {
            let s: Vec<String> = self.alive_seats().filter(|s| self.is_skipped(*s)).map(|s| s.0.to_string()).collect();
            out += &format!("; skipped {}", s.join(" "));
        }
        if self.round != 1 {
            out += &format!("; round {}", self.round);
        }
        out
    }
}
