//! The README's games table, `cardtable sim --help` and the lobby (`GET /api/games`, which
//! offers `levels` and the game's own `bots`) name the same bots: every difficulty level
//! (`search::Level::NAMES`) and each game's own bots (issue 46: the table listed only
//! "random, heuristic" while four levels existed).

use registry::GameKind;
use std::path::Path;

fn readme() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    std::fs::read_to_string(path).expect("README.md")
}

/// The `bots` cell of the README's games table for the game titled `title`.
fn bots_cell(readme: &str, title: &str) -> String {
    let header = readme.lines().find(|l| l.starts_with("| game |")).expect("the games table's header");
    let columns: Vec<&str> = header.split('|').map(str::trim).collect();
    let at = columns.iter().position(|c| *c == "bots").expect("a bots column");
    let row = readme
        .lines()
        .find(|l| l.starts_with(&format!("| **{title}**")))
        .unwrap_or_else(|| panic!("no row for {title} in the games table"));
    row.split('|').map(str::trim).nth(at).expect("a bots cell").to_string()
}

fn names(cell: &str) -> Vec<String> {
    cell.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).filter(|w| !w.is_empty()).map(String::from).collect()
}

#[test]
fn the_readme_names_every_level_and_every_games_own_bots() {
    let readme = readme();
    for kind in GameKind::ALL {
        let cell = bots_cell(&readme, kind.title());
        let words = names(&cell);
        for level in search::Level::NAMES {
            assert!(
                words.iter().any(|w| w == level),
                "{}: the README's bots cell `{cell}` lacks level {level}",
                kind.title()
            );
        }
        for own in kind.bot_names() {
            assert!(words.iter().any(|w| w == own), "{}: the README's bots cell `{cell}` lacks {own}", kind.title());
        }
    }
}

#[test]
fn sim_help_names_every_level_and_every_games_own_bots() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cardtable")).args(["sim", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for level in search::Level::NAMES {
        assert!(help.contains(level), "`cardtable sim --help` lacks level {level}");
    }
    for kind in GameKind::ALL {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{} ", kind.name())))
            .unwrap_or_else(|| panic!("`cardtable sim --help` has no line for {}", kind.name()));
        for own in kind.bot_names() {
            assert!(line.contains(own), "`cardtable sim --help`: {line} lacks {own}");
        }
    }
}
