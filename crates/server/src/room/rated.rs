//! Rated matches (issue 43): the room's side of ratings. The rules are the `rating` crate's,
//! the transaction the store's (`store::ratings`); here the room says who sat where, how each
//! finished, and shows each seat's rating.
//!
//! - A room is rated or casual from its creation (`RoomOptions::rated`, kept in its snapshot,
//!   so a restored or failed-over room stays so). Seeded and set-up rooms are never rated.
//! - When a rated match ends, after it is recorded (`record_match` answers its id), the store
//!   rates it in one transaction, once per match id: a retried or failed-over end rates
//!   nothing twice. Refused, the end waits and is tried again, as a refused record is.
//! - Places: the winners first (1), the other seats second (2), and every seat whose person
//!   left the match (`Move::Leave`) last (3), whatever its stand-in did after. An abandoned
//!   match (every person gone for the room's abandon time) is a loss for every person in it.
//!   Bots are rated seats at their fixed ladder rating (`rating::bot`); anonymous seats (no
//!   identity) are neither rated nor rate anyone.
//! - Co-operative games (those with house seats: Wolf Pack's Ace) rate each person once
//!   against the house, at the Ace tier's ladder rating: won or lost with the pack.
//! - Every member with an identity shows its rating in this game (`rating`, `provisional`
//!   while RD > 110) in its `players` entry, and every bot its level's (`rating`), in rated
//!   and casual rooms alike.

use super::Room;
use super::state::{Match, Member};
use crate::adapter::{Fields, GameAdapter};
use engine::Move;
use rating::Rating;
use store::ratings::{RatedMatch, RatedSeat, Scoring};

/// The place of a seat whose person left the match: below every seat that played on.
const LEFT_PLACE: u32 = 3;

impl<A: GameAdapter> Room<A> {
    /// Rates the match that just ended (recorded as `match_id`, won by `winners`, abandoned
    /// if `None`), if the room is rated; `false` if the store refused (the end waits).
    pub(super) async fn rate_ended(&mut self, match_id: i64, winners: Option<&[String]>) -> bool {
        let Some(cur) = self.current.as_ref().filter(|_| self.options.rated) else { return true };
        let rated = rated_match::<A>(cur, winners);
        match self.store.rate_match(match_id, &rated, super::now_ms()).await {
            Ok(Some(changes)) => {
                for c in changes {
                    self.ratings.insert(c.account, c.after);
                }
                true
            }
            // Rated already (an end tried again): the members' ratings are read afresh.
            Ok(None) => {
                self.ratings.clear();
                self.load_ratings().await;
                true
            }
            Err(e) => {
                self.note_store_error(&e);
                tracing::error!(room = %self.id, match_id, "rating the match failed, its end waits: {e}");
                false
            }
        }
    }

    /// Reads the ratings in this game of the members with an identity whose rating the room
    /// does not hold yet (a join, a restore). A read the store refuses leaves them unshown.
    pub(super) async fn load_ratings(&mut self) {
        let missing: Vec<i64> =
            self.members.iter().filter_map(|m| m.account).filter(|a| !self.ratings.contains_key(a)).collect();
        if missing.is_empty() {
            return;
        }
        match self.store.game_ratings(A::name(), &missing).await {
            Ok(found) => {
                let now = super::now_ms();
                for a in missing {
                    let r = found.iter().find(|s| s.account == a).map_or(Rating::NEW, |s| s.rating_at(now));
                    self.ratings.insert(a, r);
                }
            }
            Err(e) => tracing::warn!(room = %self.id, "reading the members' ratings failed: {e}"),
        }
    }

    /// A member's rating fields in its `players` entry: a person's (`rating`, and
    /// `provisional: true` while provisional), a bot's level's (`rating`).
    pub(super) fn put_rating(&self, m: &Member, p: &mut Fields) {
        let (r, provisional) = match (&m.bot, m.account) {
            (Some(kind), _) => match rating::bot_rating(A::name(), kind) {
                Some(r) => (r, false),
                None => return,
            },
            (None, Some(a)) => match self.ratings.get(&a) {
                Some(r) => (r.r, r.is_provisional()),
                None => return,
            },
            (None, None) => return,
        };
        p.put("rating", &(r.round() as i64));
        if provisional {
            p.put("provisional", &true);
        }
    }
}

/// What the store rates of a finished match: each seat (a person, a bot at its ladder rating,
/// or unrated) and the scoring (places, or the team against the house).
pub(super) fn rated_match<A: GameAdapter>(cur: &Match<A::G>, winners: Option<&[String]>) -> RatedMatch {
    let abandoned = winners.is_none();
    let won = |seat: usize| winners.is_some_and(|w| w.contains(&cur.seats[seat]));
    // Left: its person left the match, or every person was gone for its whole abandon time.
    let left = |seat: usize| {
        (abandoned && cur.accounts[seat].is_some())
            || cur.moves.iter().any(|m| matches!(m, Move::Leave { seat: s } if s.index() == seat))
    };
    let house = A::house_seats(&cur.config).len();
    let pilots = cur.seats.len() - house;
    let seat_of = |i: usize| match (cur.accounts[i], &cur.bot_kinds[i]) {
        (Some(account), _) => RatedSeat::Person { account, left: left(i) },
        (None, Some(kind)) => rating::bot(A::name(), kind).map_or(RatedSeat::Unrated, RatedSeat::Bot),
        (None, None) => RatedSeat::Unrated,
    };
    let (seats, scoring) = if house > 0 {
        // The house's first seat's bot is its tier (Wolf Pack's Ace); a tier the ladder does
        // not rate counts as the game's `medium`.
        let tier = cur.bot_kinds[pilots].as_deref().unwrap_or(rating::ANCHOR_LEVEL);
        let house_rating = rating::bot(A::name(), tier).unwrap_or(Rating {
            r: rating::ANCHOR,
            rd: rating::BOT_RD,
            vol: rating::INITIAL_VOL,
        });
        // Bot pilots share the pack's result and are not rated; a pilot who left lost.
        let pack_won = (0..pilots).any(&won);
        let seats = (0..pilots)
            .map(|i| match seat_of(i) {
                RatedSeat::Bot(_) => RatedSeat::Unrated,
                s => s,
            })
            .collect::<Vec<_>>();
        (seats, Scoring::Team { house: house_rating, won: pack_won })
    } else {
        let places = (0..cur.seats.len())
            .map(|i| {
                if left(i) {
                    LEFT_PLACE
                } else if won(i) {
                    1
                } else {
                    2
                }
            })
            .collect();
        ((0..cur.seats.len()).map(seat_of).collect(), Scoring::Places(places))
    };
    RatedMatch { game: A::name().to_string(), seats, scoring }
}
