//! One adapter per game.

pub mod buckshot;
pub mod ivanhoe;
pub mod sorcery;
pub mod three_kingdoms;
pub mod wolfpack;

/// `GET /api/games/{game}/cards`: the game's card table, for the games whose cards a client
/// reads by id (Three Kingdoms); `None` for the others.
pub fn cards(game: &str) -> Option<serde_json::Value> {
    match game {
        "three-kingdoms" => Some(three_kingdoms::cards_json()),
        _ => None,
    }
}
