//! Wolf Pack in a room, through the generic packets: a pilot sends
//! `{"type":"Act","action":<wolfpack::Action JSON>}` (`Select`, `Discard`, `Confirm`, `Proceed`)
//! and hears `{"type":"GameEvent","event":<wolfpack::Event JSON + "text">}`. The room's seated
//! players (people and bots) are the pilots, 1 to 5; the Ace is one more seat, last, named
//! [`ACE_NAME`] (not a valid username, so nobody can take it) and always played by the house's
//! Ace policy at the room's `ace` option tier (`rookie` by default). The host's confirm steps
//! (the rules' `Proceed`; the rules' host is the lead pilot, the lowest seat still flying, not
//! the room's host) answer themselves after the room's `confirmDelayMs` option
//! ([`DEFAULT_CONFIRM_DELAY`] when not given; 0 proceeds at once). Everything a client learns
//! of the fight comes from `view(viewer)` (`GameDataSync.gameData.view`) and redacted events:
//! a pilot's unconfirmed selection reaches nobody else.

use crate::adapter::{Fields, GameAdapter, PacketError, Table};
use engine::{Bot, Game, Seat, Viewer};
use serde_json::Value;
use std::time::Duration;
use wolfpack::{AceTier, Action, Config, Event, Phase, WolfPack};

pub struct WolfPackAdapter;

/// The Ace seat's name in `seats` and the log.
pub const ACE_NAME: &str = "the Ace";
/// How long the host's confirm steps wait before they proceed on their own, unless the room's
/// `confirmDelayMs` says otherwise.
pub const DEFAULT_CONFIRM_DELAY: Duration = Duration::from_secs(2);
/// The largest `confirmDelayMs` a room accepts (as long as a bot may be made to wait).
pub const MAX_CONFIRM_DELAY_MS: u64 = 60_000;

/// The room's `confirmDelayMs` option: absent or `null` for the default, else a whole number
/// of milliseconds from 0 to [`MAX_CONFIRM_DELAY_MS`].
fn confirm_delay(options: &Value) -> Result<Duration, String> {
    match options.get("confirmDelayMs") {
        None | Some(Value::Null) => Ok(DEFAULT_CONFIRM_DELAY),
        Some(v) => match v.as_u64() {
            Some(ms) if ms <= MAX_CONFIRM_DELAY_MS => Ok(Duration::from_millis(ms)),
            _ => Err(format!(
                "confirmDelayMs is a whole number of milliseconds from 0 to {MAX_CONFIRM_DELAY_MS}, not {v}"
            )),
        },
    }
}

impl GameAdapter for WolfPackAdapter {
    type G = WolfPack;
    const MIN_PLAYERS: usize = 1;
    const MAX_PLAYERS: usize = 5;
    // No `TurnStart`/`TurnEnd` packets: pilots choose at once and the host's confirm steps and
    // the Ace's picks are not anybody's turn to announce ("the Ace's turn." after each pick);
    // the log's turn lines are the game's own ("— Turn 3: choose your cards —").
    const TURN_PACKETS_FROM_EVENTS: bool = true;

    /// `options`: `{"ace": "rookie" | "veteran" | "ace", "confirmDelayMs": 0..=60000}` (default
    /// rookie, 2000 ms).
    fn config(players: usize, options: &Value) -> Result<Config, String> {
        if !(Self::MIN_PLAYERS..=Self::MAX_PLAYERS).contains(&players) {
            return Err(format!("Wolf Pack is for 1 to 5 pilots, not {players}"));
        }
        confirm_delay(options)?;
        let tier = match options.get("ace") {
            None | Some(Value::Null) => AceTier::Rookie,
            Some(Value::String(s)) => {
                AceTier::parse(s).ok_or_else(|| format!("no Ace tier `{s}` (rookie, veteran, ace)"))?
            }
            Some(_) => return Err("the `ace` option is a tier name (rookie, veteran, ace)".into()),
        };
        Ok(Config::pilots(players as u8).with_tier(tier))
    }

    fn house_seats(config: &Config) -> Vec<(&'static str, &'static str)> {
        vec![(ACE_NAME, config.ace_tier.name())]
    }

    fn bot_names() -> &'static [&'static str] {
        wolfpack::PILOT_BOTS
    }

    /// Pilot bots by name, and the Ace's tiers (the house seat's bot is stored by tier name).
    fn make_bot(name: &str) -> Option<Box<dyn Bot<WolfPack>>> {
        wolfpack::bot(name)
    }

    fn decision_timeout(game: &WolfPack, seat: Seat, _kind: engine::DecisionKind, options: &Value) -> Option<Duration> {
        matches!(game.phase(), Phase::Confirm | Phase::BossPhaseConfirm)
            .then_some(())
            .and(game.timeout_action(seat))
            // Checked when the room was made; a bad value cannot get here, but would mean the default.
            .map(|_| confirm_delay(options).unwrap_or(DEFAULT_CONFIRM_DELAY))
    }

    fn parse_act(action: Value, _seat: Seat, names: &[String]) -> Result<Action, PacketError> {
        let action: Action = crate::adapter::action_from_json(action, "a Wolf Pack action")?;
        let target = match action {
            Action::Select { target, .. } | Action::Play { target, .. } => target,
            _ => None,
        };
        crate::adapter::check_seat(target, names)?;
        Ok(action)
    }

    fn event_packets(event: &Event, viewer: Viewer, names: &[String], out: &mut Vec<String>) {
        let mut ev = serde_json::to_value(event).expect("events serialize");
        if let Value::Object(m) = &mut ev {
            let text = narrate(event, viewer, names).unwrap_or_default();
            m.insert("text".into(), Value::String(text));
        }
        out.push(serde_json::to_string(&protocol::ServerMsg::GameEvent { event: ev }).expect("packets serialize"));
    }

    fn public_data(table: Option<&Table<'_, WolfPack>>, seats: &mut [Fields], top: &mut Fields) {
        let Some(table) = table else {
            top.put("phase", &None::<&str>).put("turn", &0);
            return;
        };
        let v = table.view;
        for (fields, p) in seats.iter_mut().zip(&v.pilots) {
            fields
                .put("health", &p.health)
                .put("maxHealth", &p.max_health)
                .put("alive", &p.alive)
                .put("confirmed", &p.confirmed)
                .put("handCount", &p.hand_size);
        }
        if let Some(fields) = seats.get_mut(v.ace.seat.index()) {
            fields.put("health", &v.ace.health).put("maxHealth", &v.ace.max_health).put("alive", &(v.ace.health > 0));
        }
        top.put("phase", &v.phase).put("turn", &v.turn);
    }

    fn in_game(table: &Table<'_, WolfPack>, seat: Seat) -> bool {
        let v = table.view;
        match v.pilot(seat) {
            Some(p) => p.alive,
            None => v.ace.seat == seat && v.ace.health > 0,
        }
    }
}

/// Narration: the game's `describe_event` reads the Ace's seat from a view, and one of a fresh
/// fight of the same table size serves (`names` names every seat).
fn narrate(event: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    let pilots = (names.len().saturating_sub(1) as u8).clamp(1, wolfpack::config::MAX_PILOTS);
    let view = WolfPack::new(&Config::pilots(pilots), 0).ok()?.view(viewer);
    wolfpack::text::describe_event(event, &view, names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use wolfpack::Card;

    fn names() -> Vec<String> {
        vec!["alice".into(), "bob".into(), ACE_NAME.into()]
    }

    fn text(event: &Event, viewer: Viewer) -> String {
        let mut out = Vec::new();
        WolfPackAdapter::event_packets(event, viewer, &names(), &mut out);
        let v: Value = serde_json::from_str(&out[0]).unwrap();
        v["event"]["text"].as_str().unwrap().to_string()
    }

    #[test]
    fn the_log_speaks_to_its_reader() {
        let hit = Event::Damaged { seat: Seat(0), amount: 10, source: Card::AirToAirBarrage, health: 40 };
        assert_eq!(text(&hit, Viewer::seat(Seat(0))), "You take 10 from Air-to-Air Barrage (40 left).");
        assert_eq!(text(&hit, Viewer::seat(Seat(1))), "alice takes 10 from Air-to-Air Barrage (40 left).");
        let fire = Event::Resolving { seat: Seat(1), card: Card::OpenFire, target: Some(Seat(2)) };
        assert_eq!(text(&fire, Viewer::seat(Seat(1))), "Your Open Fire at the Ace.");
        assert_eq!(text(&fire, Viewer::Spectator), "bob's Open Fire at the Ace.");
    }

    #[test]
    fn the_confirm_delay_option_is_checked() {
        assert_eq!(confirm_delay(&json!({})), Ok(DEFAULT_CONFIRM_DELAY));
        assert_eq!(confirm_delay(&json!({"confirmDelayMs": 0})), Ok(Duration::ZERO));
        assert_eq!(confirm_delay(&json!({"confirmDelayMs": 60_000})), Ok(Duration::from_secs(60)));
        for bad in [json!(60_001), json!(-5), json!("2000"), json!(true)] {
            let e = confirm_delay(&json!({ "confirmDelayMs": bad })).unwrap_err();
            assert!(e.contains("confirmDelayMs"), "{e}");
            assert!(WolfPackAdapter::config(2, &json!({ "confirmDelayMs": bad })).is_err());
        }
    }
}
