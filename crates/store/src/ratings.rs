//! # Ratings: each identity's Glicko-2 rating per game, its history, leaderboards, leaves
//!
//! Issue 43, in both backends alike (the rules are the `rating` crate's). Off the move path,
//! like [`crate::accounts`]: each call is one job on SQLite's writing connection or one pooled
//! PostgreSQL connection, not group commit.
//!
//! - `ratings (account_id, game, r, rd, vol, games, updated)`: one row per identity (a guest's
//!   too) and game it has played rated, as of its last rated match (`updated`, ms).
//! - `rating_history (account_id, game, match_id, r, rd, left_match, at)`: the rating after
//!   each rated match, and whether the person left that match (the leaves of
//!   [`Store::leave_penalty`]).
//!
//! [`Store::rate_match`] rates one finished match in one transaction: it reads the people's
//! ratings (on PostgreSQL locked `FOR UPDATE`, in account order, so two matches ending at
//! once with the same person rate one after the other), widens each for the time it was idle
//! (`rating::idle_periods`), computes every new rating from those taken before the match
//! (`compute`), and writes them with their history rows. It is idempotent per match id: a
//! match whose history rows exist already (a retried end, a failed-over room ending the same
//! match again) changes nothing. The server calls it after `record_match`, with the id that
//! call answered.
//!
//! The leaderboard ([`Store::leaderboard`]) lists the top [`LEADERBOARD_SIZE`] (100)
//! non-provisional identities of a game (RD at most `rating::PROVISIONAL_RD`, 110, as of
//! their last rated match) with at least [`LEADERBOARD_MIN_GAMES`] (10) rated matches of it,
//! deleted accounts left out, by rating (then account id).

use crate::records::StoreError;
use crate::{Backend, Store};
use rating::Rating;
use serde::{Deserialize, Serialize};

/// How many identities a leaderboard lists.
pub const LEADERBOARD_SIZE: u32 = 100;
/// How many rated matches of a game an identity needs to be on its leaderboard.
pub const LEADERBOARD_MIN_GAMES: u64 = 10;

/// An identity's rating in one game, as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredRating {
    pub account: i64,
    pub game: String,
    pub r: f64,
    pub rd: f64,
    pub vol: f64,
    /// Rated matches of the game played.
    pub games: u64,
    /// When it was last rated (ms since the epoch).
    pub updated: u64,
}

impl StoredRating {
    pub fn rating(&self) -> Rating {
        Rating { r: self.r, rd: self.rd, vol: self.vol }
    }

    /// The rating as it stands at `now`: widened for the time since it was last rated.
    pub fn rating_at(&self, now: u64) -> Rating {
        let idle_secs = now.saturating_sub(self.updated) / 1000;
        rating::decay(self.rating(), rating::idle_periods(idle_secs as i64))
    }
}

/// One row of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardRow {
    pub account: i64,
    pub name: String,
    pub guest: bool,
    pub r: f64,
    pub rd: f64,
    pub games: u64,
}

/// An identity's rating after one rated match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryPoint {
    pub game: String,
    pub match_id: i64,
    pub r: f64,
    pub rd: f64,
    /// Whether the person left that match (it counted as their loss).
    pub left: bool,
    /// When (ms since the epoch).
    pub at: u64,
}

/// A seat of a match to rate.
#[derive(Clone, Debug, PartialEq)]
pub enum RatedSeat {
    /// An identity (a member or a guest), and whether it left the match (its place is the
    /// caller's: last).
    Person { account: i64, left: bool },
    /// A bot at its fixed rating (`rating::bot`), which does not move.
    Bot(Rating),
    /// A seat that is neither rated nor rates the others (an anonymous player, a seat the
    /// same identity holds twice).
    Unrated,
}

/// How a match is scored.
#[derive(Clone, Debug, PartialEq)]
pub enum Scoring {
    /// Every pair of rated seats by finishing place (1 is first; `rating::pairwise_results`),
    /// one place per seat.
    Places(Vec<u32>),
    /// Co-operative (Wolf Pack): every person one game against the house at `house`,
    /// won or lost with the team (as `rating::rate_team`); a person who left lost.
    Team { house: Rating, won: bool },
}

/// A finished rated match, as [`Store::rate_match`] takes it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedMatch {
    pub game: String,
    pub seats: Vec<RatedSeat>,
    pub scoring: Scoring,
}

/// What a rated match did to one person.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub account: i64,
    /// Its rating before the match (widened for idle time).
    pub before: Rating,
    pub after: Rating,
    /// Rated matches of the game played, this one included.
    pub games: u64,
    pub left: bool,
}

/// A person's leaves of rated matches in the last `rating::LEAVE_WINDOW_SECS` (24 h), and
/// until when quick play makes them wait (ms since the epoch; `0`: no wait).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeavePenalty {
    pub leaves: u32,
    pub until: u64,
}

impl LeavePenalty {
    /// From the leaves in the window and the latest one's time (ms): the cooldown
    /// (`rating::leave_cooldown_secs`) counts from the latest leave.
    pub fn from_leaves(leaves: u32, latest: u64) -> LeavePenalty {
        let cooldown = rating::leave_cooldown_secs(leaves);
        LeavePenalty { leaves, until: if cooldown > 0 { latest + cooldown as u64 * 1000 } else { 0 } }
    }

    /// Whether quick play must still wait at `now`.
    pub fn waiting(&self, now: u64) -> bool {
        self.until > now
    }
}

/// The accounts of a match's people, each once, in account order (the order rows are locked in).
pub(crate) fn people(m: &RatedMatch) -> Vec<i64> {
    let mut ids: Vec<i64> = (m.seats.iter())
        .filter_map(|s| match s {
            RatedSeat::Person { account, .. } => Some(*account),
            _ => None,
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The new ratings of a match's people (pure; each backend calls it inside its transaction):
/// `current` holds the stored rating of those who have one (a newcomer starts at
/// [`Rating::NEW`]). A person seated twice is rated at the first seat only.
pub(crate) fn compute(m: &RatedMatch, current: &[StoredRating], now: u64) -> Vec<RatingChange> {
    let mut seen = Vec::new();
    // (seat index, rating before, the account and whether it left, for a seat that moves).
    type Rated = (usize, Rating, Option<(i64, bool)>);
    let mut rated: Vec<Rated> = Vec::new();
    for (i, seat) in m.seats.iter().enumerate() {
        match seat {
            RatedSeat::Person { account, left } if !seen.contains(account) => {
                seen.push(*account);
                let before = current.iter().find(|c| c.account == *account).map_or(Rating::NEW, |c| c.rating_at(now));
                rated.push((i, before, Some((*account, *left))));
            }
            RatedSeat::Bot(r) => rated.push((i, *r, None)),
            _ => {}
        }
    }
    let after = match &m.scoring {
        Scoring::Places(places) => {
            let seats: Vec<(Rating, bool)> = rated.iter().map(|(_, r, who)| (*r, who.is_some())).collect();
            let places: Vec<u32> = rated.iter().map(|(i, ..)| places.get(*i).copied().unwrap_or(u32::MAX)).collect();
            rating::rate_match(&seats, &places, rating::TAU)
        }
        // One game against the house each, lost by a person who left whatever the pack did.
        Scoring::Team { house, won } => (rated.iter())
            .map(|(_, before, who)| match who {
                Some((_, left)) => {
                    let score = if *won && !left { rating::WIN } else { rating::LOSS };
                    rating::update(*before, &[(*house, score)], rating::TAU)
                }
                None => *before,
            })
            .collect(),
    };
    (rated.iter().zip(after))
        .filter_map(|((_, before, who), after)| {
            let (account, left) = (*who)?;
            let games = current.iter().find(|c| c.account == account).map_or(0, |c| c.games) + 1;
            Some(RatingChange { account, before: *before, after, games, left })
        })
        .collect()
}

macro_rules! both {
    ($self:ident, $s:ident => $e:expr) => {
        match &$self.0 {
            Backend::Sqlite($s) => $e,
            Backend::Postgres($s) => $e,
        }
    };
}

impl Store {
    /// The identity's ratings, one per game it has played rated, by game name.
    pub async fn ratings(&self, account: i64) -> Result<Vec<StoredRating>, StoreError> {
        both!(self, s => s.ratings(account).await)
    }

    /// The ratings in `game` of those of `accounts` who have one (a room's members).
    pub async fn game_ratings(&self, game: &str, accounts: &[i64]) -> Result<Vec<StoredRating>, StoreError> {
        both!(self, s => s.game_ratings(game, accounts).await)
    }

    /// Rates the finished match `match_id` (as `record_match` answered it) in one
    /// transaction, at `now` (ms): `None` if it was rated already (nothing changes), else
    /// what changed for each person. See the module's text.
    pub async fn rate_match(
        &self,
        match_id: i64,
        m: &RatedMatch,
        now: u64,
    ) -> Result<Option<Vec<RatingChange>>, StoreError> {
        both!(self, s => s.rate_match(match_id, m.clone(), now).await)
    }

    /// The top [`LEADERBOARD_SIZE`] of `game`: non-provisional, at least
    /// [`LEADERBOARD_MIN_GAMES`] rated matches, best first.
    pub async fn leaderboard(&self, game: &str) -> Result<Vec<BoardRow>, StoreError> {
        both!(self, s => s.leaderboard(game, LEADERBOARD_SIZE, LEADERBOARD_MIN_GAMES).await)
    }

    /// The identity's rating after each of its last `limit` rated matches of `game`, oldest
    /// first.
    pub async fn rating_history(&self, account: i64, game: &str, limit: u32) -> Result<Vec<HistoryPoint>, StoreError> {
        both!(self, s => s.rating_history(account, game, limit).await)
    }

    /// The identity's leaves of rated matches in the 24 hours before `now` (ms) and the
    /// quick-play cooldown they bring (`rating::leave_cooldown_secs`).
    pub async fn leave_penalty(&self, account: i64, now: u64) -> Result<LeavePenalty, StoreError> {
        let since = now.saturating_sub(rating::LEAVE_WINDOW_SECS as u64 * 1000);
        let (leaves, latest) = both!(self, s => s.leaves_since(account, since).await)?;
        Ok(LeavePenalty::from_leaves(leaves, latest))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(account: i64, r: f64, rd: f64, games: u64, updated: u64) -> StoredRating {
        StoredRating { account, game: "sorcery".into(), r, rd, vol: 0.06, games, updated }
    }

    #[test]
    fn people_move_bots_do_not_and_newcomers_start_at_1500() {
        let bot = Rating { r: 1582.0, rd: 30.0, vol: 0.06 };
        let m = RatedMatch {
            game: "sorcery".into(),
            seats: vec![RatedSeat::Person { account: 7, left: false }, RatedSeat::Bot(bot)],
            scoring: Scoring::Places(vec![1, 2]),
        };
        let changes = compute(&m, &[], 0);
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].before, Rating::NEW);
        assert_eq!(changes[0].after, rating::update(Rating::NEW, &[(bot, 1.0)], rating::TAU));
        assert_eq!(changes[0].games, 1);
    }

    #[test]
    fn idle_time_widens_the_deviation_before_the_match() {
        let week = rating::IDLE_PERIOD_SECS as u64 * 1000;
        let m = RatedMatch {
            game: "sorcery".into(),
            seats: vec![RatedSeat::Person { account: 1, left: false }, RatedSeat::Person { account: 2, left: true }],
            scoring: Scoring::Places(vec![1, 2]),
        };
        let current = [stored(1, 1600.0, 60.0, 30, 0), stored(2, 1400.0, 60.0, 12, 10 * week)];
        let changes = compute(&m, &current, 10 * week);
        assert!(changes[0].before.rd > 60.0, "ten idle weeks: {:?}", changes[0].before);
        assert_eq!(changes[1].before.rd, 60.0, "rated just now: not widened");
        assert!(changes[1].left && changes[1].after.r < 1400.0);
        assert_eq!((changes[0].games, changes[1].games), (31, 13));
    }

    #[test]
    fn a_person_seated_twice_and_unrated_seats_are_skipped() {
        let m = RatedMatch {
            game: "ivanhoe".into(),
            seats: vec![
                RatedSeat::Person { account: 3, left: false },
                RatedSeat::Unrated,
                RatedSeat::Person { account: 3, left: false },
            ],
            scoring: Scoring::Places(vec![2, 1, 1]),
        };
        let changes = compute(&m, &[], 0);
        assert_eq!(changes.len(), 1);
        // Nobody rated to play against: only the deviation grows.
        assert_eq!(changes[0].after.r, 1500.0);
        assert_eq!(people(&m), vec![3]);
    }

    #[test]
    fn a_pack_is_rated_against_the_house_and_a_pilot_who_left_lost() {
        let ace = Rating { r: 1630.0, rd: 30.0, vol: 0.06 };
        let m = RatedMatch {
            game: "wolfpack".into(),
            seats: vec![
                RatedSeat::Person { account: 1, left: false },
                RatedSeat::Person { account: 2, left: true },
                RatedSeat::Unrated,
            ],
            scoring: Scoring::Team { house: ace, won: true },
        };
        let changes = compute(&m, &[], 0);
        assert_eq!(changes[0].after, rating::update(Rating::NEW, &[(ace, rating::WIN)], rating::TAU));
        assert_eq!(changes[1].after, rating::update(Rating::NEW, &[(ace, rating::LOSS)], rating::TAU));
    }

    #[test]
    fn the_cooldown_counts_from_the_latest_leave() {
        assert_eq!(LeavePenalty::from_leaves(1, 5_000), LeavePenalty { leaves: 1, until: 0 });
        let p = LeavePenalty::from_leaves(2, 5_000);
        assert_eq!(p.until, 5_000 + 120_000);
        assert!(p.waiting(5_000 + 119_999) && !p.waiting(5_000 + 120_000));
    }
}
