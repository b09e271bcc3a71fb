//! Finishing places as pairwise results, and the rating of one match.

use crate::glicko::{Rating, update};

/// The score of a win, a draw and a loss.
pub const WIN: f64 = 1.0;
pub const DRAW: f64 = 0.5;
pub const LOSS: f64 = 0.0;

/// Every pair of players in different places as one virtual game, from their finishing places
/// (1 is first): for each player, in order, its `(opponent index, score)` against every other
/// player placed differently, 1 for a better place, 0 for a worse. Two players in the **same
/// place count nothing** against each other, unless every player shares it (a match nobody
/// won): then every pair is a draw, 0.5.
///
/// Why not a draw for any shared place: the games report only their winners (the others share
/// second), so two players in the same place are two losers (or two winners of one side) whose
/// order nobody knows. Scored as a draw, it pulls a strong and a weak loser together every
/// time a third player wins, which squeezes the whole scale (measured: with draws, Ivanhoe's
/// `random` people ended 260 points above their strength). The bot ladder counts pairs the
/// same way, so people and bots share one scale.
pub fn pairwise_results(places: &[u32]) -> Vec<Vec<(usize, f64)>> {
    let all_level = places.windows(2).all(|w| w[0] == w[1]);
    let row = |i: usize| -> Vec<(usize, f64)> {
        let mine = places[i];
        let scored = |&(j, &theirs): &(usize, &u32)| j != i && (theirs != mine || all_level);
        let score = |theirs: u32| match mine.cmp(&theirs) {
            std::cmp::Ordering::Less => WIN,
            std::cmp::Ordering::Equal => DRAW,
            std::cmp::Ordering::Greater => LOSS,
        };
        places.iter().enumerate().filter(scored).map(|(j, &theirs)| (j, score(theirs))).collect()
    };
    (0..places.len()).map(row).collect()
}

/// Rates one match in one period: `seats[i]` is each seat's rating before the match and
/// whether it moves (a person) or is fixed (a bot), `places[i]` its finishing place. Every
/// seat is scored against every other by [`pairwise_results`], against the others' ratings as
/// they were before the match; a fixed seat keeps its rating.
pub fn rate_match(seats: &[(Rating, bool)], places: &[u32], tau: f64) -> Vec<Rating> {
    let pairs = pairwise_results(places);
    seats
        .iter()
        .zip(pairs)
        .map(|(&(me, moves), row)| {
            if !moves {
                return me;
            }
            let results: Vec<(Rating, f64)> = row.into_iter().map(|(j, s)| (seats[j].0, s)).collect();
            update(me, &results, tau)
        })
        .collect()
}

/// Rates one co-operative match (Wolf Pack): every pilot that moves (a person) is scored one
/// game against `house` (the Ace tier's fixed rating), [`WIN`] when the team `won`, [`LOSS`]
/// otherwise; pilots are not scored against each other, and fixed pilots (bots) keep theirs.
pub fn rate_team(pilots: &[(Rating, bool)], house: Rating, won: bool, tau: f64) -> Vec<Rating> {
    let score = if won { WIN } else { LOSS };
    pilots.iter().map(|&(me, moves)| if moves { update(me, &[(house, score)], tau) } else { me }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glicko::TAU;

    #[test]
    fn places_become_pairwise_wins_and_losses_and_a_shared_place_counts_nothing() {
        // Seat 1 won, seats 0 and 3 share second (two losers: their order is not known), seat
        // 2 last (it left).
        let pairs = pairwise_results(&[2, 1, 4, 2]);
        assert_eq!(pairs[0], vec![(1, 0.0), (2, 1.0)]);
        assert_eq!(pairs[1], vec![(0, 1.0), (2, 1.0), (3, 1.0)]);
        assert_eq!(pairs[2], vec![(0, 0.0), (1, 0.0), (3, 0.0)]);
        assert_eq!(pairs[3], vec![(1, 0.0), (2, 1.0)]);
        // Two winners of one side and two losers: only the winners-against-losers pairs.
        let pairs = pairwise_results(&[1, 2, 1, 2]);
        assert_eq!(pairs[0], vec![(1, 1.0), (3, 1.0)]);
        assert_eq!(pairs[1], vec![(0, 0.0), (2, 0.0)]);
    }

    #[test]
    fn two_players_are_one_game_and_a_match_nobody_won_is_a_draw_for_every_pair() {
        assert_eq!(pairwise_results(&[1, 2]), vec![vec![(1, 1.0)], vec![(0, 0.0)]]);
        assert_eq!(pairwise_results(&[1, 1]), vec![vec![(1, 0.5)], vec![(0, 0.5)]]);
        assert_eq!(
            pairwise_results(&[2, 2, 2]),
            vec![vec![(1, 0.5), (2, 0.5)], vec![(0, 0.5), (2, 0.5)], vec![(0, 0.5), (1, 0.5)]]
        );
        assert_eq!(pairwise_results(&[1]), vec![Vec::<(usize, f64)>::new()]);
    }

    #[test]
    fn two_losers_are_not_pulled_together_when_a_third_player_wins() {
        // A strong and a weak person both lose to a bot: each moves only by its loss to the
        // bot, the weak one not up towards the strong one.
        let bot = Rating { r: 1500.0, rd: 30.0, vol: 0.06 };
        let strong = Rating { r: 1700.0, rd: 80.0, vol: 0.06 };
        let weak = Rating { r: 1100.0, rd: 80.0, vol: 0.06 };
        let rated = rate_match(&[(bot, false), (strong, true), (weak, true)], &[1, 2, 2], TAU);
        assert_eq!(rated[1], update(strong, &[(bot, LOSS)], TAU));
        assert_eq!(rated[2], update(weak, &[(bot, LOSS)], TAU));
        assert!(rated[2].r < weak.r, "{:?}", rated[2]);
    }

    #[test]
    fn a_bot_seat_does_not_move_and_the_person_does() {
        let bot = Rating { r: 1710.0, rd: 30.0, vol: 0.06 };
        let rated = rate_match(&[(Rating::NEW, true), (bot, false)], &[1, 2], TAU);
        assert_eq!(rated[1], bot);
        assert!(rated[0].r > 1500.0, "{:?}", rated[0]);
        let lost = rate_match(&[(Rating::NEW, true), (bot, false)], &[2, 1], TAU);
        assert!(lost[0].r < 1500.0, "{:?}", lost[0]);
    }

    #[test]
    fn a_pack_wins_or_loses_together_against_the_ace() {
        let ace = Rating { r: 1630.0, rd: 30.0, vol: 0.06 };
        let bot = Rating { r: 1500.0, rd: 30.0, vol: 0.06 };
        let pilots = [(Rating::NEW, true), (Rating::NEW, true), (bot, false)];
        let won = rate_team(&pilots, ace, true, TAU);
        assert!(won[0].r > 1500.0 && won[0] == won[1], "{won:?}");
        assert_eq!(won[2], bot);
        // One game against the Ace, not two against the other pilots.
        assert_eq!(won[0], crate::update(Rating::NEW, &[(ace, WIN)], TAU));
        assert!(rate_team(&pilots, ace, false, TAU)[0].r < 1500.0);
    }
}
