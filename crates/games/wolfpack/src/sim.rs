//! Batch play for balance work: one fight per `(seed, index)`, its pilots played by named
//! pilot bots and the Ace by its configured tier, so results do not depend on threads or on
//! the order fights are played in. (The generic `sim` crate rotates its line-up over the seats;
//! Wolf Pack's Ace must stay in the last seat, so a runner calls [`play_one`] per game.)

use crate::bots::lineup_named;
use crate::card::Side;
use crate::config::Config;
use crate::state::WolfPack;
use engine::{Game, MatchRng, derive_seed, play_out};
use serde::Serialize;

/// What one fight produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FightResult {
    pub pilots_won: bool,
    pub moves: u32,
    pub turns: u32,
}

/// Plays fight `index` of a batch seeded `seed`: the fight is seeded `derive_seed(seed,
/// index)`, its bots from that. `pilot_bots` names each pilot seat's bot (the last name is
/// repeated for the remaining seats). `Err` for an unknown bot name or a bad config.
pub fn play_one(config: &Config, pilot_bots: &[&str], seed: u64, index: u64) -> Result<FightResult, String> {
    let game_seed = derive_seed(seed, index);
    let game = WolfPack::new(config, game_seed).map_err(|e| e.to_string())?;
    let mut bots = lineup_named(&game, pilot_bots)?;
    let mut rng = MatchRng::new(game_seed ^ 0xB07);
    let result = play_out(game, &mut bots, &mut rng, None).ok_or("the fight ran past its step limit")?;
    Ok(FightResult {
        pilots_won: result.final_state.winner() == Some(Side::Pilots),
        moves: result.moves as u32,
        turns: result.final_state.turn(),
    })
}

/// Totals of a batch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct BatchReport {
    pub games: u64,
    pub pilot_wins: u64,
    pub mean_moves: f64,
    pub mean_turns: f64,
}

impl BatchReport {
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.pilot_wins as f64 / self.games as f64 }
    }
}

/// Plays fights `0..games` on this thread.
pub fn run_batch(config: &Config, pilot_bots: &[&str], seed: u64, games: u64) -> Result<BatchReport, String> {
    let (mut wins, mut moves, mut turns) = (0u64, 0u64, 0u64);
    for i in 0..games {
        let r = play_one(config, pilot_bots, seed, i)?;
        wins += u64::from(r.pilots_won);
        moves += u64::from(r.moves);
        turns += u64::from(r.turns);
    }
    let n = games.max(1) as f64;
    Ok(BatchReport { games, pilot_wins: wins, mean_moves: moves as f64 / n, mean_turns: turns as f64 / n })
}
