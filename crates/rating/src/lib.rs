//! Ratings for cardtable's people, per game, on the bots' scale (issue 43). Pure: no IO, no
//! clock (times are passed in as seconds), no database; the store keeps what these functions
//! return and the server calls them when a rated match ends.
//!
//! # Glicko-2 ([`update`], [`Rating`])
//! - Glickman's Glicko-2 ("Example of the Glicko-2 system", 2013), steps 1 to 8, the volatility
//!   found by the Illinois algorithm with ε = 0.000001. A [`Rating`] is `{ r, rd, vol }` on the
//!   Glicko scale; a newcomer is 1500 / 350 / 0.06 ([`Rating::NEW`]). The unit tests reproduce
//!   the paper's worked example (1500/200/0.06 against 1400/30, 1550/100 and 1700/300 with
//!   results 1, 0, 0 gives r' 1464.06, RD' 151.52, σ' 0.05999).
//! - **System constant** τ = [`TAU`] = 0.5 (the paper's example and lichess's value; Glickman
//!   suggests 0.3 to 1.2, smaller keeping volatility steadier).
//! - **Rating period**: one match. Each rated match is one period for everyone in it, as on
//!   lichess (a person plays a few games a sitting; waiting for a weekly batch would leave
//!   newcomers unrated for days). Idle time counts too: before a match, a rating not updated
//!   for a while is widened by [`idle_periods`] empty periods (one per [`IDLE_PERIOD_SECS`],
//!   seven days, fractions counted), φ' = √(φ² + n·σ²) ([`decay`]), never above RD 350.
//! - **Provisional** while RD > [`PROVISIONAL_RD`] (110), shown with a "?" ("1523?"), as on
//!   lichess ([`Rating::is_provisional`], [`Rating::display`]).
//!
//! # Multiplayer: finishing places ([`pairwise_results`], [`rate_match`])
//! - A match of N seats is scored as every pair of seats playing one virtual game: the better
//!   finishing place wins (1), the worse loses (0) (BoardGameArena's way). Two seats in the
//!   same place count nothing against each other (the games report only their winners, so
//!   their order is unknown), unless every seat shares it: a match nobody won is a draw (0.5)
//!   for every pair. All pairs of one match are one period, each against the opponents'
//!   ratings from before the match. Two-player games are just one pair.
//! - **Bots** are seats like people, at their fixed ratings; a bot's rating never moves.
//! - **Co-operative Wolf Pack** ([`rate_team`]): the pilots are one team against the house's
//!   Ace, a virtual opponent rated at its tier's ladder rating (`rookie`, `veteran`, `ace`,
//!   [`bot_rating`]). Each person piloting is scored one game against the Ace: 1 when the
//!   pack won, 0 when it lost. Pilots are not scored against each other (they share a result),
//!   and bot pilots at the table are not rated.
//!
//! # Bots on the same scale ([`bot_rating`], [`bot`])
//! - Each level of each game takes its rating from the committed bot ladder
//!   (`docs/bot-ladder.md`, made by `cardtable ladder`; read at build time): the first level
//!   table of the game's section, in Elo points above `random` (100 points a 64% expected
//!   score, the scale Glicko's r uses). **Anchoring**: each game's `medium` is
//!   [`ANCHOR`] = 1500, so a newcomer (1500) starts level with `medium` and "hard ~1582" means
//!   in Sorcery that `hard` scores 61% against `medium`. Ladders of different games are not
//!   comparable (each has its own `medium`).
//! - A game's own `heuristic` bot is the player `medium` is: it has `medium`'s rating.
//! - A bot's deviation is [`BOT_RD`] = 30 (fixed): games against bots count fully.
//!
//! # Leaving rated games ([`leave_cooldown_secs`])
//! - A person who leaves a rated match finishes it last (a loss against every other seat);
//!   the stand-in bot plays on. Leaves are counted over the last 24 hours: the second leave
//!   brings a 2-minute cooldown before the next quick play, and each further one doubles it
//!   (4, 8, 16 ... minutes), at most one day.

mod bots;
mod glicko;
mod places;

pub use bots::{ANCHOR, ANCHOR_LEVEL, BOT_RD, Ladder, bot, bot_rating, bot_ratings, parse_ladder};
pub use glicko::{INITIAL_R, INITIAL_RD, INITIAL_VOL, PROVISIONAL_RD, Rating, TAU, decay, update};
pub use places::{DRAW, LOSS, WIN, pairwise_results, rate_match, rate_team};

/// The length of one empty rating period for a rating left idle: seven days.
pub const IDLE_PERIOD_SECS: i64 = 7 * 24 * 3600;

/// How many empty periods `idle_secs` seconds since a rating's last update are (fractions
/// counted; none for a negative span, as after a clock step).
pub fn idle_periods(idle_secs: i64) -> f64 {
    idle_secs.max(0) as f64 / IDLE_PERIOD_SECS as f64
}

/// The span leaves are counted over for the cooldown: 24 hours.
pub const LEAVE_WINDOW_SECS: i64 = 24 * 3600;
/// The cooldown after the second leave in [`LEAVE_WINDOW_SECS`]: 2 minutes.
pub const FIRST_COOLDOWN_SECS: i64 = 120;
/// The longest cooldown: a day.
pub const MAX_COOLDOWN_SECS: i64 = 24 * 3600;

/// The cooldown before the next quick play after `leaves` rated matches left in the last 24
/// hours (counted from the latest leave): none for 0 or 1, 2 minutes for 2, doubling with every
/// further leave, at most a day.
pub fn leave_cooldown_secs(leaves: u32) -> i64 {
    if leaves < 2 {
        return 0;
    }
    let doublings = (leaves - 2).min(20);
    (FIRST_COOLDOWN_SECS << doublings).min(MAX_COOLDOWN_SECS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cooldown_starts_at_the_second_leave_and_doubles() {
        let got: Vec<i64> = (0..6).map(leave_cooldown_secs).collect();
        assert_eq!(got, vec![0, 0, 120, 240, 480, 960]);
        assert_eq!(leave_cooldown_secs(40), MAX_COOLDOWN_SECS);
    }

    #[test]
    fn a_week_idle_is_one_period() {
        assert_eq!(idle_periods(IDLE_PERIOD_SECS), 1.0);
        assert_eq!(idle_periods(-5), 0.0);
        assert_eq!(idle_periods(IDLE_PERIOD_SECS / 2), 0.5);
    }
}
