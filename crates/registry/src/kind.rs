//! What a [`GameKind`] answers about its game (name, title, seats, bots, ratings), read from
//! its [`Entry`] through the one dispatch point, and how a name becomes a kind.

use crate::entry::{Entry, GameKind, GameVisitor};
use serde::Serialize;
use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// Reads one constant of a kind's [`Entry`].
macro_rules! entry_const {
    ($kind:expr, $out:ty, $G:ident => $value:expr) => {{
        struct Read;
        impl GameVisitor for Read {
            type Out = $out;
            fn visit<$G: Entry>(self) -> $out {
                $value
            }
        }
        $kind.visit(Read)
    }};
}

impl GameKind {
    /// The name typed on the command line and stored in the database (`"buckshot"`).
    pub fn name(self) -> &'static str {
        entry_const!(self, &'static str, G => G::NAME)
    }

    /// The name people read (`"Buckshot"`).
    pub fn title(self) -> &'static str {
        entry_const!(self, &'static str, G => G::TITLE)
    }

    /// The version of the game's rules a stored match records (`engine::Game::RULES_VERSION`).
    pub fn rules_version(self) -> u32 {
        entry_const!(self, u32, G => G::RULES_VERSION)
    }

    /// One line about the game.
    pub fn description(self) -> &'static str {
        entry_const!(self, &'static str, G => G::DESCRIPTION)
    }

    /// How many players a match may have.
    pub fn seats(self) -> RangeInclusive<u8> {
        entry_const!(self, RangeInclusive<u8>, G => G::SEATS)
    }

    /// The player count when none is asked for.
    pub fn default_players(self) -> u8 {
        entry_const!(self, u8, G => G::DEFAULT_PLAYERS)
    }

    /// The game's bots by name, the default first.
    pub fn bot_names(self) -> &'static [&'static str] {
        entry_const!(self, &'static [&'static str], G => G::bot_names())
    }

    /// Everything a list of games shows (the lobby's `GET /api/games`, help texts).
    pub fn info(self) -> GameInfo {
        GameInfo {
            name: self.name(),
            title: self.title(),
            description: self.description(),
            min_players: *self.seats().start(),
            max_players: *self.seats().end(),
            default_players: self.default_players(),
            bots: self.bot_names(),
            levels: search::Level::NAMES,
            ratings: crate::ratings::committed_for(self.title()),
            steps: crate::ratings::steps_for(self.title()),
        }
    }

    /// The names of every game, comma-separated (for help texts and errors).
    pub fn names() -> String {
        GameKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
    }
}

/// A game as lists show it; serializes as `{"name":"ivanhoe","title":"Ivanhoe",
/// "description":"…","minPlayers":2,"maxPlayers":5,"defaultPlayers":3,"bots":["random",…],
/// "levels":["easy","medium","hard","expert"],"ratings":[{"level":"hard","rating":"+446",…},…],
/// "steps":[{"level":"easy","over":"random","gap":"+135","interval":"+96 to +174","games":100},…]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameInfo {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub min_players: u8,
    pub max_players: u8,
    pub default_players: u8,
    pub bots: &'static [&'static str],
    /// The difficulty levels, weakest first: every game offers them besides its own bots.
    pub levels: &'static [&'static str],
    /// Each level's and bot's strength in the last committed ladder (`docs/bot-ladder.md`),
    /// strongest first; empty for a game the page does not cover.
    pub ratings: Vec<crate::ratings::Rating>,
    /// What each step between adjacent levels is worth, as last measured with the most games
    /// (`docs/bot-ladder.md`'s summary), weakest first; empty for a game the page does not cover.
    pub steps: Vec<crate::ratings::Step>,
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game name that is not one of [`GameKind::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown game `{}` (known: {})", self.0, GameKind::names())
    }
}

impl std::error::Error for UnknownGame {}

impl FromStr for GameKind {
    type Err = UnknownGame;

    /// A game's name, in any case, with spaces, `-` or `_` anywhere (`Buckshot`, `three kingdoms`,
    /// `Wolf Pack`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let squeeze = |t: &str| -> String { t.chars().filter(|c| !matches!(c, ' ' | '-' | '_')).collect() };
        let wanted = squeeze(s);
        GameKind::ALL
            .iter()
            .copied()
            .find(|k| squeeze(k.name()).eq_ignore_ascii_case(&wanted))
            .ok_or_else(|| UnknownGame(s.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each `games!` line and its type's `Entry::KIND` agree.
    #[test]
    fn every_kind_visits_its_own_entry() {
        struct Kind;
        impl GameVisitor for Kind {
            type Out = GameKind;
            fn visit<G: Entry>(self) -> GameKind {
                G::KIND
            }
        }
        for &k in GameKind::ALL {
            assert_eq!(k.visit(Kind), k);
        }
    }

    #[test]
    fn names_round_trip_and_are_unique() {
        for &k in GameKind::ALL {
            assert_eq!(k.name().parse::<GameKind>(), Ok(k));
            assert_eq!(k.to_string(), k.name());
            assert_eq!(k.title().to_ascii_lowercase().parse::<GameKind>(), Ok(k));
            assert!(!k.description().is_empty());
            assert!(k.seats().contains(&k.default_players()), "{k}");
            assert!(!k.bot_names().is_empty(), "{k}");
        }
        let mut names: Vec<_> = GameKind::ALL.iter().map(|k| k.name()).collect();
        names.dedup();
        assert_eq!(names.len(), GameKind::ALL.len());
        let info = serde_json::to_value(GameKind::Ivanhoe.info()).unwrap();
        assert_eq!(info["minPlayers"], 2);
        assert_eq!(info["maxPlayers"], 5);
        assert_eq!(info["title"], "Ivanhoe");
        assert_eq!(info["levels"], serde_json::json!(["easy", "medium", "hard", "expert"]));
        let e = "chess".parse::<GameKind>().unwrap_err();
        assert_eq!(e.to_string(), "unknown game `chess` (known: buckshot, sorcery, ivanhoe, three-kingdoms, wolfpack)");
    }
}
