//! The bots' fixed ratings: each game's committed ladder (`docs/bot-ladder.md`, read at build
//! time) moved so that the game's `medium` is 1500.

use crate::glicko::{INITIAL_VOL, Rating};
use std::sync::OnceLock;

/// The page, as committed.
const LADDER_MD: &str = include_str!("../../../docs/bot-ladder.md");

/// The level every game's ladder is anchored at, and the rating it is given.
pub const ANCHOR_LEVEL: &str = "medium";
pub const ANCHOR: f64 = 1500.0;
/// A bot's deviation: small and fixed (a bot's strength was measured over hundreds of games
/// and does not change), so a game against a bot counts fully for the person.
pub const BOT_RD: f64 = 30.0;

/// A game's ladder: its squeezed title and its `(level, rating)` rows, strongest first.
pub type Ladder = (String, Vec<(String, f64)>);

/// A game's name squeezed for comparison: lowercase, without spaces, `-` or `_`, so the page's
/// titles ("Three Kingdoms") and the games' names ("three-kingdoms") compare equal.
fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !matches!(c, ' ' | '-' | '_')).flat_map(char::to_lowercase).collect()
}

/// Every game's `(squeezed title, [(level, Elo above random)])` from a ladder page: the first
/// `| level | rating |` table of each `## ` section (the steps tables and the `### `
/// subsections, measured on scales of their own, are skipped), as `registry::ratings` reads it.
pub fn parse_ladder(md: &str) -> Vec<Ladder> {
    let mut out: Vec<Ladder> = Vec::new();
    let (mut in_table, mut in_sub) = (false, false);
    for line in md.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            out.push((squeeze(h.split(',').next().unwrap_or(h)), Vec::new()));
            (in_table, in_sub) = (false, false);
        } else if line.starts_with("### ") {
            (in_table, in_sub) = (false, true);
        } else if line.starts_with("| level | rating |") {
            in_table = !in_sub && out.last().is_some_and(|(_, rows)| rows.is_empty());
        } else if !line.starts_with('|') {
            in_table = false;
        } else if in_table && let Some((_, rows)) = out.last_mut() {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            if let [_, level, rating, ..] = &cells[..]
                && let Ok(elo) = rating.trim_start_matches('+').parse::<f64>()
            {
                rows.push((level.to_string(), elo));
            }
        }
    }
    out.retain(|(_, rows)| !rows.is_empty());
    out
}

/// The committed page's ladders, anchored: `(squeezed title, [(level, rating)])`.
fn anchored() -> &'static [Ladder] {
    static LADDERS: OnceLock<Vec<Ladder>> = OnceLock::new();
    LADDERS.get_or_init(|| {
        let mut ladders = parse_ladder(LADDER_MD);
        for (_, rows) in &mut ladders {
            let shift = rows.iter().find(|(l, _)| l == ANCHOR_LEVEL).map_or(0.0, |(_, elo)| ANCHOR - elo);
            rows.iter_mut().for_each(|(_, r)| *r += shift);
        }
        ladders.retain(|(_, rows)| rows.iter().any(|(l, _)| l == ANCHOR_LEVEL));
        ladders
    })
}

/// Every level's and bot's rating of `game` (its name or title, any case), strongest first as
/// the page lists them; in Wolf Pack this includes the Ace's tiers (`rookie`, `veteran`,
/// `ace`), which are the house, not pilots. Empty for a game the page does not cover.
pub fn bot_ratings(game: &str) -> &'static [(String, f64)] {
    let game = squeeze(game);
    anchored().iter().find(|(title, _)| *title == game).map(|(_, rows)| rows.as_slice()).unwrap_or(&[])
}

/// The fixed rating of `level` (`hard`, `random`, `seed`, an Ace tier such as `veteran`) in
/// `game` (its name or title): its Elo above `random` in the committed ladder, moved so that the
/// game's `medium` is [`ANCHOR`] (1500). A game's own `heuristic` bot is the player `medium`
/// is, so it has `medium`'s rating. `None` for a level or game the page does not rate.
pub fn bot_rating(game: &str, level: &str) -> Option<f64> {
    let level = if level == "heuristic" { ANCHOR_LEVEL } else { level };
    bot_ratings(game).iter().find(|(l, _)| l == level).map(|&(_, r)| r)
}

/// [`bot_rating`] as a full rating, with deviation [`BOT_RD`]: what a person playing that bot
/// is rated against. A bot's rating never moves.
pub fn bot(game: &str, level: &str) -> Option<Rating> {
    bot_rating(game, level).map(|r| Rating { r, rd: BOT_RD, vol: INITIAL_VOL })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medium_is_1500_and_the_other_levels_keep_their_gaps() {
        for game in ["sorcery", "buckshot", "ivanhoe", "three-kingdoms", "wolfpack"] {
            assert_eq!(bot_rating(game, "medium"), Some(1500.0), "{game}");
            let levels = ["random", "easy", "medium", "hard", "expert"];
            for level in levels {
                assert!(bot_rating(game, level).is_some(), "{game}: no `{level}`");
            }
        }
        // Sorcery's committed ladder: medium +628, hard +710, random 0.
        assert_eq!(bot_rating("sorcery", "hard"), Some(1582.0));
        assert_eq!(bot_rating("Sorcery", "random"), Some(872.0));
        assert_eq!(bot_rating("Three Kingdoms", "seed"), bot_rating("three-kingdoms", "seed"));
        assert!(bot_rating("wolfpack", "veteran").is_some(), "the Ace's tiers are on the pilots' scale");
        assert_eq!(bot_rating("sorcery", "hard@250"), None);
        assert_eq!(bot_rating("buckshot", "heuristic"), Some(1500.0), "medium is the heuristic");
        assert_eq!(bot_rating("chess", "medium"), None);
        assert_eq!(bot("sorcery", "hard").map(|b| b.rd), Some(BOT_RD));
    }

    #[test]
    fn only_each_sections_first_level_table_is_read() {
        let page = "## Buckshot, 4 players\n\n| level | rating | 95% CI |\n| --- | --: | --- |\n\
            | hard | +446 | x |\n| medium | +257 | x |\n| random | 0 | x |\n\n| step | gap |\n| --- | --: |\n\
            | hard over random | +446 |\n\n### More\n\n| level | rating | 95% CI |\n| --- | --: | --- |\n\
            | hard@250 | +74 | x |\n\n## Wolf Pack, 3 players\n\n| level | rating |\n| --- | --: |\n\
            | rookie | -99 |\n";
        let ladders = parse_ladder(page);
        let rows =
            |pairs: &[(&str, f64)]| -> Vec<(String, f64)> { pairs.iter().map(|&(l, r)| (l.to_string(), r)).collect() };
        assert_eq!(ladders.len(), 2, "{ladders:?}");
        assert_eq!(ladders[0], ("buckshot".to_string(), rows(&[("hard", 446.0), ("medium", 257.0), ("random", 0.0)])));
        assert_eq!(ladders[1], ("wolfpack".to_string(), rows(&[("rookie", -99.0)])));
    }
}
