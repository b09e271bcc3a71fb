//! Rooms that start from a position (`POST /api/rooms {"setup": TEXT}`), allowed only on a
//! server started with `cardtable serve --allow-setup-rooms`: whoever wrote the position knows
//! every card in it, as whoever picks a seed does, so such a room is marked `seeded` (and
//! `setUp`) to its members and in the lobby. The text is each game's setup notation, the one
//! its rule tests and `cardtable play GAME --setup FILE` read (docs/setups/): every match of the
//! room starts from it, with as many players as it has seats.
//!
//! Everything game-specific is here; the room calls [`new_game`] where it would call
//! `G::new(config, seed)` (start, restore, taking a move back) and the replay of a finished
//! match finds the text in the match's result (`"setup"`).

use crate::Error;
use crate::limits::Limits;
use engine::{Game, SetupError};
use std::any::Any;

/// The longest position accepted (a full Three Kingdoms table is under 2 KiB).
pub const MAX_SETUP_BYTES: usize = 16 * 1024;

/// `text` as the `;`-separated clauses Buckshot's and Sorcery's notations read: `#` comments
/// dropped, each line a clause (as `cardtable play --setup` reads a file).
fn clauses(text: &str) -> String {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(";")
}

/// The position `text` of `game` (the adapter's name), as the game's state, and its number of
/// players (Wolf Pack: its pilots; the Ace is the house's seat). A parser that panics on some
/// text is a bug, reported as such rather than taking the server's task down.
fn parse(game: &str, text: &str) -> Result<(Box<dyn Any + Send>, usize), String> {
    if text.len() > MAX_SETUP_BYTES {
        return Err(format!("the position is over {MAX_SETUP_BYTES} bytes"));
    }
    let text = text.to_string();
    let game = game.to_string();
    std::panic::catch_unwind(move || -> Result<(Box<dyn Any + Send>, usize), String> {
        Ok(match game.as_str() {
            "wolfpack" => {
                let g = wolfpack::WolfPack::from_setup(&text)?;
                let n = g.pilot_count();
                (Box::new(g), n)
            }
            "buckshot" => {
                let g = buckshot::Buckshot::from_setup(&clauses(&text))?;
                let n = g.num_seats();
                (Box::new(g), n)
            }
            "three-kingdoms" => {
                let g = three_kingdoms::setup::Scenario::parse(&text)?.build()?;
                let n = g.num_seats();
                (Box::new(g), n)
            }
            "ivanhoe" => {
                let g = ivanhoe::setup::position(&text)?;
                let n = g.num_seats();
                (Box::new(g), n)
            }
            "sorcery" => {
                let g = sorcery::Sorcery::from_setup(&clauses(&text))?;
                let n = g.num_seats();
                (Box::new(g), n)
            }
            other => return Err(format!("{other} has no setup notation")),
        })
    })
    .unwrap_or_else(|_| Err("the position could not be read (a bug in its parser)".to_string()))
}

/// Whether a room asked for with the option `setup` (`RoomOptions::setup`) may be made for
/// `game` on a server with `limits`: no `setup`, or one allowed (`--allow-setup-rooms`) that is
/// a position of the game. Else the reason, naming the option (`POST /api/rooms` answers 400).
pub fn admit(setup: Option<&str>, game: &str, limits: &Limits) -> Result<(), Error> {
    let Some(text) = setup else { return Ok(()) };
    if !limits.allow_setup_rooms {
        return Err(Error::BadOptions(
            "a room cannot start from a position on this server (whoever wrote it knows every card); \
             leave `setup` out, or start the server with `cardtable serve --allow-setup-rooms` (puzzles, bug reports)"
                .into(),
        ));
    }
    parse(game, text).map(|_| ()).map_err(|e| Error::BadOptions(format!("setup: {e}")))
}

/// A match's starting game: from the room's position when it has one (for exactly `players`
/// players when given: a match being started), else the fresh deal of `config` and `seed`.
pub fn new_game<G: Game + 'static>(
    game: &str,
    config: &G::Config,
    seed: u64,
    setup: Option<&str>,
    players: Option<usize>,
) -> Result<G, SetupError> {
    let Some(text) = setup else { return G::new(config, seed) };
    let (state, n) = parse(game, text).map_err(|e| SetupError::new("bad_setup", e))?;
    if let Some(players) = players
        && n != players
    {
        return Err(SetupError::new(
            "bad_setup",
            format!("this room's position is for {n} player{}, not {players}", if n == 1 { "" } else { "s" }),
        ));
    }
    let mut game = state
        .downcast::<G>()
        .map(|g| *g)
        .map_err(|_| SetupError::new("bad_setup", "the position is not this game's"))?;
    apply_options(&mut game, config);
    Ok(game)
}

/// What the room's options say that a position leaves as its notation's default: Wolf Pack's
/// Ace tier (the room's `ace` option, in `config`; the notation has no tier, and the fight's
/// view and end screen show the tier its Ace plays at, as `cardtable play wolfpack --setup
/// --ace` applies it).
fn apply_options<G: Game + 'static>(game: &mut G, config: &G::Config) {
    let game: &mut dyn Any = game;
    let config: &dyn Any = config;
    if let (Some(g), Some(c)) = (game.downcast_mut::<wolfpack::WolfPack>(), config.downcast_ref::<wolfpack::Config>()) {
        g.set_ace_tier(c.ace_tier);
    }
}

/// The position a finished match started from, if any: its result's `"setup"`.
pub fn of_result(result: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(result).ok()?;
    v.get("setup")?.as_str().map(str::to_string)
}
