//! Wolf Pack in a room, through the generic packets: a pilot sends
//! `{"type":"Act","action":<wolfpack::Action JSON>}` (`Select`, `Discard`, `Confirm`, `Proceed`)
//! and hears `{"type":"GameEvent","event":<wolfpack::Event JSON + "text">}`. The room's seated
//! players (people and bots) are the pilots, 1 to 5; the Ace is one more seat, last, named
//! [`ACE_NAME`] (not a valid username, so nobody can take it) and always played by the house's
//! Ace policy at the room's `ace` option tier (`rookie` by default). The host's confirm steps
//! answer themselves after [`HOST_CONFIRM`] (the rules' `Proceed`). Everything a client learns
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
/// How long the host's confirm steps wait before they proceed on their own.
pub const HOST_CONFIRM: Duration = Duration::from_secs(2);

impl GameAdapter for WolfPackAdapter {
    type G = WolfPack;
    const MIN_PLAYERS: usize = 1;
    const MAX_PLAYERS: usize = 5;

    /// `options`: `{"ace": "rookie" | "veteran" | "ace"}` (default rookie).
    fn config(players: usize, options: &Value) -> Result<Config, String> {
        if !(Self::MIN_PLAYERS..=Self::MAX_PLAYERS).contains(&players) {
            return Err(format!("Wolf Pack is for 1 to 5 pilots, not {players}"));
        }
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

    fn decision_timeout(game: &WolfPack, seat: Seat, _kind: engine::DecisionKind) -> Option<Duration> {
        matches!(game.phase(), Phase::Confirm | Phase::BossPhaseConfirm)
            .then_some(())
            .and(game.timeout_action(seat))
            .map(|_| HOST_CONFIRM)
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
        top.put("hostConfirmSeconds", &HOST_CONFIRM.as_secs());
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
