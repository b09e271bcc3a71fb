//! How quick play makes tables: a pure function of the queue, so that a lone server's actor
//! and a cluster's PostgreSQL matcher plan alike (and a test can check it without a server).
//!
//! Tickets (a person, or a party that sits together) wait for a table of a game and size. The
//! oldest ticket first: it takes the others whose rating is within the **window** of both
//! (±[`WINDOW_START`] points, growing [`WINDOW_GROWTH`] a second waited: ±100 at once, ±850
//! after 15 s), nearest first, as long as their people fit. A full table is seated at once.
//! A table that is not full waits until its oldest ticket has waited the server's `wait`;
//! then its empty seats go to bots ([`nearest_level`]: the level whose ladder rating is nearest
//! the table's average). With `wait` zero everyone is seated with bots at once.

use std::time::Duration;

/// The rating window at the moment a ticket is queued: ± this many points.
pub const WINDOW_START: f64 = 100.0;
/// How fast the window widens: points a second waited.
pub const WINDOW_GROWTH: f64 = 50.0;

/// The window of a ticket that has waited `waited`: ± this many points.
pub fn window(waited: Duration) -> f64 {
    WINDOW_START + WINDOW_GROWTH * waited.as_secs_f64()
}

/// A ticket in the queue, as the planner sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    pub id: String,
    /// People in it (a party: several).
    pub people: usize,
    /// Their mean rating.
    pub rating: f64,
    pub waited: Duration,
}

/// A table to seat: the tickets at it and how many seats bots take.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub tickets: Vec<String>,
    pub bots: usize,
    /// The mean rating of its people.
    pub rating: f64,
}

/// The tables to seat now from `queue` (all for one game and table size `size`), given the
/// server's `wait` before bots fill a table.
pub fn plan(queue: &[Waiting], size: usize, wait: Duration) -> Vec<Table> {
    let mut order: Vec<usize> = (0..queue.len()).collect();
    // Oldest first; ties by id, so two planners given one queue plan alike.
    order.sort_by(|&a, &b| queue[b].waited.cmp(&queue[a].waited).then_with(|| queue[a].id.cmp(&queue[b].id)));
    let mut used = vec![false; queue.len()];
    let mut tables = Vec::new();
    for &first in &order {
        if used[first] || queue[first].people > size {
            continue;
        }
        let mut at = vec![first];
        let mut people = queue[first].people;
        let mut near: Vec<usize> = order.iter().copied().filter(|&j| j != first && !used[j]).collect();
        let gap = |j: usize| (queue[j].rating - queue[first].rating).abs();
        near.sort_by(|&a, &b| gap(a).total_cmp(&gap(b)));
        for j in near {
            if people + queue[j].people > size {
                continue;
            }
            // Within both tickets' windows: a newcomer is not thrown at a table far from it
            // because someone else has waited long.
            let reach = window(queue[first].waited).min(window(queue[j].waited));
            if gap(j) <= reach {
                at.push(j);
                people += queue[j].people;
            }
        }
        if people == size || queue[first].waited >= wait {
            let total: f64 = at.iter().map(|&i| queue[i].rating * queue[i].people as f64).sum();
            for &i in &at {
                used[i] = true;
            }
            tables.push(Table {
                tickets: at.iter().map(|&i| queue[i].id.clone()).collect(),
                bots: size - people,
                rating: total / people as f64,
            });
        }
    }
    tables
}

/// The bot level whose rating is nearest `rating` among `levels` (name, rating); `None` if
/// there are none.
pub fn nearest_level(levels: &[(String, f64)], rating: f64) -> Option<&str> {
    levels.iter().min_by(|a, b| (a.1 - rating).abs().total_cmp(&(b.1 - rating).abs())).map(|(l, _)| l.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(id: &str, people: usize, rating: f64, waited_s: f64) -> Waiting {
        Waiting { id: id.into(), people, rating, waited: Duration::from_secs_f64(waited_s) }
    }

    #[test]
    fn a_full_table_is_seated_at_once_and_a_partial_one_after_the_wait() {
        let wait = Duration::from_secs(15);
        let q = [t("a", 1, 1500.0, 1.0), t("b", 1, 1550.0, 0.5)];
        // Two of three seats: they wait.
        assert!(plan(&q, 3, wait).is_empty());
        // Two of two: seated together now.
        assert_eq!(plan(&q, 2, wait), vec![Table { tickets: vec!["a".into(), "b".into()], bots: 0, rating: 1525.0 }]);
        // After the wait the two of three sit with a bot.
        let q = [t("a", 1, 1500.0, 15.0), t("b", 1, 1550.0, 3.0)];
        assert_eq!(plan(&q, 3, wait)[0].bots, 1);
        // A wait of zero: bots at once, each alone.
        let q = [t("a", 1, 1500.0, 0.0)];
        assert_eq!(plan(&q, 4, Duration::ZERO), vec![Table { tickets: vec!["a".into()], bots: 3, rating: 1500.0 }]);
    }

    #[test]
    fn the_window_keeps_far_ratings_apart_until_it_has_widened() {
        let wait = Duration::from_secs(60);
        // 400 apart: the window of ±100 (growing 50/s) reaches 400 after 6 s for both.
        let q = [t("a", 1, 1500.0, 1.0), t("b", 1, 1900.0, 1.0)];
        assert!(plan(&q, 2, wait).is_empty());
        let q = [t("a", 1, 1500.0, 7.0), t("b", 1, 1900.0, 2.0)];
        assert!(plan(&q, 2, wait).is_empty(), "the newcomer's window is still ±200");
        let q = [t("a", 1, 1500.0, 7.0), t("b", 1, 1900.0, 6.0)];
        assert_eq!(plan(&q, 2, wait).len(), 1);
        assert_eq!(window(Duration::from_secs(15)), 850.0);
    }

    #[test]
    fn a_party_sits_together_and_never_past_the_table() {
        let wait = Duration::from_secs(15);
        let q = [t("party", 3, 1500.0, 2.0), t("x", 1, 1510.0, 3.0), t("y", 1, 1490.0, 1.0)];
        let tables = plan(&q, 4, wait);
        assert_eq!(tables.len(), 1);
        assert!(tables[0].tickets.contains(&"party".to_string()));
        assert_eq!(tables[0].tickets.len(), 2);
        // A party larger than the table is never seated.
        assert!(plan(&[t("big", 5, 1500.0, 99.0)], 4, wait).is_empty());
    }

    #[test]
    fn the_nearest_bot_level_is_chosen() {
        let levels = vec![("easy".to_string(), 1200.0), ("medium".to_string(), 1500.0), ("hard".to_string(), 1700.0)];
        assert_eq!(nearest_level(&levels, 1640.0), Some("hard"));
        assert_eq!(nearest_level(&levels, 1300.0), Some("easy"));
        assert_eq!(nearest_level(&[], 1300.0), None);
    }
}
