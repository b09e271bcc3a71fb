//! The last committed bot ladder (`docs/bot-ladder.md`, written by `scripts/bot-ladder.sh`), read
//! at build time so that `--help` and the lobby show each level's measured strength without
//! playing a game.
//!
//! The page has one section per game, `## Title, N players`, holding a table whose header starts
//! `| level | rating | 95% CI | games |`; every other table (the steps between levels, and any
//! table under a `### ` subsection: a few steps measured again on their own scale) and line is
//! skipped. A game missing from the page, or a page of another shape, just has no ratings.
//!
//! What each step between adjacent levels is worth comes from the page's summary table (header
//! `| game | step | gap | 95% CI | games |`): one row per step, `hard over medium`, each from
//! the measurement with the most games ([`steps_for`]). The lobby says it with each level.

use serde::Serialize;

/// The page, as committed.
const LADDER_MD: &str = include_str!("../../../docs/bot-ladder.md");

/// One level's row of the committed ladder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rating {
    /// The level or bot (`hard`, `seed`, an Ace tier such as `veteran`).
    pub level: String,
    /// Elo points above `random`, signed as the page prints them (`+446`, `0`).
    pub rating: String,
    /// The 95% interval (`+401 to +490`).
    pub interval: String,
    /// Games the level played in the ladder.
    pub games: u32,
}

/// What one step of a game's ladder is worth, as last measured with the most games: `level`
/// over `over` (the level below it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The stronger level (`hard`, or an Ace tier such as `ace`).
    pub level: String,
    /// The level below it (`medium`).
    pub over: String,
    /// Elo points of `level` over `over`, signed as the page prints them (`+24`).
    pub gap: String,
    /// The 95% interval (`+13 to +36`).
    pub interval: String,
    /// Games the two played against each other in that measurement.
    pub games: u32,
}

/// Every step on the committed page's summary table, as (game title, step), in page order.
pub fn committed_steps() -> Vec<(String, Step)> {
    parse_steps(LADDER_MD)
}

/// The steps of the game titled `game` on the committed page, weakest first.
pub fn steps_for(game: &str) -> Vec<Step> {
    committed_steps().into_iter().filter(|(title, _)| title == game).map(|(_, s)| s).collect()
}

/// Reads the summary table of steps (see the module's text).
pub fn parse_steps(md: &str) -> Vec<(String, Step)> {
    let mut out = Vec::new();
    let mut in_table = false;
    for line in md.lines() {
        if line.starts_with("| game | step | gap |") {
            in_table = true;
            continue;
        }
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if let (true, [_, game, step, gap, interval, games, ..]) = (in_table, &cells[..])
            && let Some((level, over)) = step.split_once(" over ")
            && !gap.starts_with("--")
        {
            out.push((
                game.to_string(),
                Step {
                    level: level.trim_matches('`').to_string(),
                    over: over.trim_matches('`').to_string(),
                    gap: gap.trim_matches('*').to_string(),
                    interval: interval.to_string(),
                    games: games.replace(',', "").parse().unwrap_or(0),
                },
            ));
        }
    }
    out
}

/// Every game's ratings on the committed page, as (game title, rows strongest first), in page
/// order.
pub fn committed() -> Vec<(String, Vec<Rating>)> {
    parse(LADDER_MD)
}

/// The ratings of the game titled `game` (`GameKind::title`) on the committed page, strongest
/// first (empty when the page has none).
pub fn committed_for(game: &str) -> Vec<Rating> {
    committed().into_iter().find(|(title, _)| title == game).map(|(_, rows)| rows).unwrap_or_default()
}

/// Reads a ladder page (see the module's text for its shape).
pub fn parse(md: &str) -> Vec<(String, Vec<Rating>)> {
    let mut out: Vec<(String, Vec<Rating>)> = Vec::new();
    let (mut in_table, mut in_sub) = (false, false);
    for line in md.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            out.push((h.split(',').next().unwrap_or(h).trim().to_string(), Vec::new()));
            in_table = false;
            in_sub = false;
        } else if line.starts_with("### ") {
            // A subsection (a few steps measured again with more games, on its own scale):
            // the section's ratings are its first table's.
            in_sub = true;
            in_table = false;
        } else if line.starts_with("| level | rating |") {
            in_table = !in_sub;
        } else if !line.starts_with('|') {
            in_table = false;
        } else if in_table && let Some((_, rows)) = out.last_mut() {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            if let [_, level, rating, rest @ ..] = &cells[..]
                && !level.starts_with("---")
                && !rating.starts_with("--")
            {
                rows.push(Rating {
                    level: level.to_string(),
                    rating: rating.to_string(),
                    interval: rest.first().map_or_else(String::new, |s| s.to_string()),
                    games: rest.get(1).and_then(|g| g.parse().ok()).unwrap_or(0),
                });
            }
        }
    }
    out.retain(|(_, rows)| !rows.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameKind;

    const PAGE: &str = "# Bot ladder\n\n## Buckshot, 4 players\n\n`cardtable ladder buckshot`\n\n\
        | level | rating | 95% CI | games | CPU per move: mean (max) |\n| --- | --: | --- | --: | --: |\n\
        | hard | +446 | +401 to +490 | 400 | 5.7 ms (max 19 ms) |\n| random | 0 | 0 to 0 | 400 | 0.1 µs |\n\n\
        | step | gap | 95% CI | separated |\n| --- | --: | --- | --- |\n| hard over random | +446 | +401 to +490 | yes |\n\n\
        ### More games\n\n| level | rating | 95% CI | games | CPU per move: mean (max) |\n| --- | --: | --- | --: | --: |\n\
        | hard@250 | +74 | +34 to +114 | 400 | 2.1 ms |\n\n\
        ## Notes\n\nno table here\n";

    #[test]
    fn reads_the_level_table_and_skips_the_steps() {
        let games = parse(PAGE);
        assert_eq!(games.len(), 1, "a section without a level table is left out");
        let (title, rows) = &games[0];
        assert_eq!(title, "Buckshot");
        assert_eq!(
            rows[0],
            Rating { level: "hard".into(), rating: "+446".into(), interval: "+401 to +490".into(), games: 400 }
        );
        assert_eq!(rows.len(), 2, "neither the steps table nor a subsection's is read as levels: {rows:?}");
    }

    #[test]
    fn reads_the_steps_summary() {
        let page = "## What each step is worth\n\n| game | step | gap | 95% CI | games | wins in 100 | measured by |\n\
            | --- | --- | --: | --- | --: | --: | --- |\n| Sorcery | hard over medium | +31 | +15 to +47 | 2,000 | 54 | a run |\n\
            | Wolf Pack | `ace` over `veteran` | **+58** | +25 to +91 | 1000 | 58 | another |\n\nno table\n\
            | Sorcery | expert over hard | +1 | 0 to 2 | 3 | 50 | not in the table |\n";
        let steps = parse_steps(page);
        assert_eq!(steps.len(), 2, "{steps:?}");
        assert_eq!(
            steps[0],
            (
                "Sorcery".to_string(),
                Step {
                    level: "hard".into(),
                    over: "medium".into(),
                    gap: "+31".into(),
                    interval: "+15 to +47".into(),
                    games: 2000
                }
            )
        );
        assert_eq!(
            (steps[1].1.level.as_str(), steps[1].1.over.as_str(), steps[1].1.gap.as_str()),
            ("ace", "veteran", "+58")
        );
    }

    /// The committed summary says what every step between adjacent levels is worth, for every
    /// game: the lobby shows it with each level.
    #[test]
    fn the_committed_page_says_what_every_step_is_worth() {
        for &k in GameKind::ALL {
            let steps = steps_for(k.title());
            let chain: Vec<&str> = ["random"].into_iter().chain(search::Level::NAMES.iter().copied()).collect();
            for pair in chain.windows(2) {
                let step = steps.iter().find(|s| s.level == pair[1] && s.over == pair[0]);
                let step =
                    step.unwrap_or_else(|| panic!("{k}: no `{} over {}` in the steps summary", pair[1], pair[0]));
                assert!(step.games > 0 && step.gap.parse::<i32>().is_ok(), "{k}: {step:?}");
            }
        }
    }

    /// Every section of the committed page names a game by its title, and every game's every
    /// level has a rating there (a renamed game or a missing level fails here, not in the lobby).
    #[test]
    fn the_committed_page_covers_every_game_and_level() {
        for (title, rows) in committed() {
            let kind = GameKind::ALL.iter().find(|k| k.title() == title);
            assert!(kind.is_some(), "docs/bot-ladder.md has a section `{title}` that is no game's title");
            assert!(rows.iter().all(|r| r.games > 0), "{title}: {rows:?}");
        }
        for &k in GameKind::ALL {
            let rows = committed_for(k.title());
            for level in search::Level::NAMES.iter().chain(["random"].iter()) {
                assert!(rows.iter().any(|r| r.level == *level), "{k}: no rating for `{level}` in docs/bot-ladder.md");
            }
        }
    }
}
