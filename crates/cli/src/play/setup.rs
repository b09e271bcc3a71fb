//! `cardtable play GAME --setup FILE`: a game started from a position written in the game's
//! setup notation (the one its rule tests use: `crates/games/*/src/setup.rs`) instead of a
//! fresh deal. A practice puzzle, or the position of a bug report. Examples, one per game, are
//! in `docs/setups/`.
//!
//! A file that cannot be read as a position is refused with the reason and, where it can be
//! told, the line (`setup.txt line 3: unknown card `OpenFlre``); never a panic (a parser
//! that panicked on some input would be a bug: it is caught and reported as one).

use registry::GameKind;
use std::path::Path;

/// The position's text, read from `path`.
pub fn read(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("cannot read the setup file {}: {e}", path.display()))
}

/// The line of `text` a parser's message points at: the first line quoting a `token` the
/// message quotes, or the first line of a message about the first clause.
fn line_of(text: &str, message: &str) -> Option<usize> {
    if message.starts_with("line ") {
        return None; // the parser named it already
    }
    let quoted: Vec<&str> = message.split('`').skip(1).step_by(2).filter(|q| !q.trim().is_empty()).collect();
    let lines: Vec<&str> = text.lines().collect();
    for q in &quoted {
        if let Some(i) = lines.iter().position(|l| l.split('#').next().unwrap_or("").contains(q)) {
            return Some(i + 1);
        }
    }
    if message.contains("first clause") {
        return lines.iter().position(|l| !l.split('#').next().unwrap_or("").trim().is_empty()).map(|i| i + 1);
    }
    None
}

/// `message` about the setup file `path`, with its line where it can be told.
pub fn error(path: &str, text: &str, message: &str) -> anyhow::Error {
    match line_of(text, message) {
        Some(n) => anyhow::anyhow!("setup file {path} line {n}: {message}"),
        None => anyhow::anyhow!("setup file {path}: {message}"),
    }
}

/// Runs a parser, turning a panic into an error (reported as the bug it is).
pub fn guarded<T>(parse: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(parse));
    std::panic::set_hook(hook);
    result.unwrap_or_else(|p| {
        let what = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
        Err(format!("the position could not be read (a bug in its parser: {})", what.unwrap_or_default()))
    })
}

/// `text` as the `;`-separated clauses Buckshot's and Sorcery's notations read: `#` comments
/// dropped and each line a clause (a file is easier to write one clause a line).
pub fn clauses(text: &str) -> String {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(";")
}

/// The player count of the position in `text` (Wolf Pack: its pilots), to check against
/// `--players` and to name the bots.
pub fn players(kind: GameKind, text: &str) -> Result<u8, String> {
    use engine::Game;
    guarded(|| {
        #[allow(unreachable_patterns, reason = "the registry may list games with no setup notation")]
        Ok(match kind {
            GameKind::WolfPack => wolfpack::WolfPack::from_setup(text)?.pilot_count() as u8,
            GameKind::Buckshot => buckshot::Buckshot::from_setup(&clauses(text))?.num_seats() as u8,
            GameKind::ThreeKingdoms => three_kingdoms::setup::Scenario::parse(text)?.build()?.num_seats() as u8,
            GameKind::Ivanhoe => ivanhoe::setup::position(text)?.num_seats() as u8,
            GameKind::Sorcery => sorcery::Sorcery::from_setup(&clauses(text))?.num_seats() as u8,
            _ => return Err(format!("{} has no setup notation", kind.title())),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The setup files of `docs/setups/`, by game.
    const EXAMPLES: &[(GameKind, &str)] = &[
        (GameKind::WolfPack, "wolfpack.txt"),
        (GameKind::Buckshot, "buckshot.txt"),
        (GameKind::ThreeKingdoms, "three-kingdoms.txt"),
        (GameKind::Ivanhoe, "ivanhoe.txt"),
        (GameKind::Sorcery, "sorcery.txt"),
    ];

    fn docs() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/setups")
    }

    #[test]
    fn every_example_setup_loads() {
        for (kind, file) in EXAMPLES {
            let text = read(&docs().join(file)).unwrap();
            let n = players(*kind, &text).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(n >= 1, "{file}");
        }
    }

    #[test]
    fn the_wolfpack_example_is_flown_from_its_position_to_the_end() {
        let path = docs().join("wolfpack.txt");
        let args = super::super::PlayArgs {
            game: GameKind::WolfPack,
            players: Some(2),
            seat: 0,
            bots: vec![],
            seed: Some(3),
            init: None,
            general: None,
            ace: Some("veteran".into()),
            setup: Some(path.clone()),
        };
        let table = GameKind::WolfPack.visit(super::super::Check(&args)).unwrap();
        let script = "play 1\ndiscard 1\nplay 2\nplay 3\n".repeat(200);
        let input = crate::input::Lines::new(None, Box::new(std::io::Cursor::new(script))).unwrap();
        let mut out = Vec::new();
        super::super::wolfpack::game(&args, &table, input, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        // The position's numbers, not a fresh deal's: the Ace at 12 of 45, pilot 1 at 20.
        assert!(out.contains("12/45") && out.contains("20/50"), "{out}");
        assert!(out.contains("Game over after"), "{out}");
        assert!(out.contains(&format!("replay: --setup {} --seed 3", path.display())), "{out}");
    }

    #[test]
    fn the_sorcery_example_is_played_from_its_position() {
        let path = docs().join("sorcery.txt");
        let args = super::super::PlayArgs {
            game: GameKind::Sorcery,
            players: Some(2),
            seat: 0,
            bots: vec!["medium".into()],
            seed: Some(5),
            init: None,
            general: None,
            ace: None,
            setup: Some(path.clone()),
        };
        let table = GameKind::Sorcery.visit(super::super::Check(&args)).unwrap();
        let game = sorcery::Sorcery::from_setup(&clauses(&read(&path).unwrap())).unwrap();
        // Banish player 2's Bone Golem, then both minions attack player 2 until the game ends.
        let script = format!("ana\nhand\nplay 1 2 1\n{}", "attack 1\nattack 2\nend\n".repeat(20));
        let input = crate::input::Lines::new(None, Box::new(std::io::Cursor::new(script))).unwrap();
        let mut out = Vec::new();
        super::super::sorcery::from_position(&args, &table, game, input, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        // The position's turn and magic, its hand, not a fresh deal's.
        assert!(out.contains("Turn 1: ana to play (magic 5)."), "{out}");
        assert!(out.contains("Banish") && out.contains("Blizzard"), "{out}");
        assert!(out.contains("ana wins"), "{out}");
        assert!(out.contains(&format!("replay: --setup {} --seed 5", path.display())), "{out}");
    }

    #[test]
    fn a_malformed_setup_names_its_line_and_never_panics() {
        let text = "pilots 2\np0 health 20 hand OpenFire\np1 hand OpenFlre\n";
        let e = players(GameKind::WolfPack, text).unwrap_err();
        assert_eq!(error("s.txt", text, &e).to_string(), "setup file s.txt line 3: unknown card `OpenFlre`");
        let e = players(GameKind::WolfPack, "# a puzzle\nhand OpenFire\n").unwrap_err();
        assert!(error("s.txt", "# a puzzle\nhand OpenFire\n", &e).to_string().contains("line 2"), "{e}");
        // Every example, cut and garbled in many ways: an error or a position, never a panic.
        for (kind, file) in EXAMPLES {
            let text = read(&docs().join(file)).unwrap();
            let bytes: Vec<char> = text.chars().collect();
            for cut in (0..bytes.len()).step_by(3) {
                let short: String = bytes[..cut].iter().collect();
                let garbled: String = bytes.iter().enumerate().map(|(i, &c)| if i == cut { '9' } else { c }).collect();
                for t in [short, garbled] {
                    if let Err(e) = players(*kind, &t) {
                        assert!(!e.contains("a bug in its parser"), "{file}: {e}\n{t}");
                    }
                }
            }
        }
    }
}
