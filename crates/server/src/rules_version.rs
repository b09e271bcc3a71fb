//! The version of a game's rules a finished match was recorded by: the key of the match's
//! result that holds it, read back, and what to tell someone replaying it on a build whose
//! rules differ. Written by the room when a match ends, read by the replays.

use registry::GameKind;
use serde_json::Value;

/// The key of a finished match's result (the `matches.result` JSON) that holds the version of
/// the game's rules that played it (`engine::Game::RULES_VERSION`); absent in matches recorded
/// before versions were kept. Next to it: `"setup"` ([`crate::setup_rooms::of_result`]).
pub const RULES_VERSION_KEY: &str = "rulesVersion";

/// The rules version a finished match was recorded by, from its result; `None` for a match
/// recorded before versions were kept (or a result that is not JSON).
pub fn rules_version_of(result: &str) -> Option<u32> {
    let v: Value = serde_json::from_str(result).ok()?;
    v.get(RULES_VERSION_KEY)?.as_u64().and_then(|n| u32::try_from(n).ok())
}

/// What to tell someone replaying a match of `kind` whose rules version (`recorded`) is not
/// this build's; `None` when they are the same.
pub fn rules_note(kind: GameKind, recorded: Option<u32>) -> Option<String> {
    let build = kind.rules_version();
    let title = kind.title();
    match recorded {
        Some(v) if v == build => None,
        Some(v) => Some(format!("this match was recorded by {title} rules version {v}; this build is {build}")),
        None => Some(format!(
            "this match was recorded by {title} rules older than version 1 (before versions were stored); this build is {build}"
        )),
    }
}
