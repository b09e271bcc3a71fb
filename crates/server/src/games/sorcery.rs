//! Sorcery in a room: two seats (two people, or one against a bot), the generic packets.
//!
//! - Client: `{"type":"Act","action":<sorcery::Action JSON>}`, 0-based indices, e.g.
//!   `{"type":"Act","action":{"type":"Play","card":0,"target":{"type":"Minion","player":1,"index":2}}}`.
//! - Server: each engine event as `{"type":"GameEvent","event":{...,"text":"alice plays Banish on ..."}}`
//!   (the event JSON as this viewer may see it, plus a readable line).
//! - `GameDataSync` adds `seats` (usernames by seat: seat 0 is player 1), `currentTurn`,
//!   `turn`, `winner`, `cards` (the card table: names, costs, texts, values) and, per seated
//!   player, `life`, `magic`, `handSize`, `deckSize`; the room adds `view` (the engine's view
//!   for this viewer: its own hand only) and `legal`.
//!
//! The match is the spec's game with the default decks (shuffled). Two additions make every
//! match end, as the engine's simulations do: the stalemate rule (a game where neither player
//! can ever damage the other again is drawn) and a turn limit of [`TURN_LIMIT`] turns, after
//! which the match is drawn. The spec has no way out of a game where both hands are full of
//! spells that need a minion and no minion is in play: nobody can play, draw or attack, and two
//! bots (or two stubborn people) would end turns forever. A game between people lasts 20-40
//! turns; the limit is there for that lock.

use crate::adapter::{Fields, GameAdapter, PacketError, Table};
use engine::{Bot, Seat, Viewer};
use protocol::ServerMsg;
use serde_json::{Map, Value, json};
use sorcery::cards::{CardId, Modifier, Targeting};
use sorcery::{Action, Config, DEFAULT_DECK, Event, Sorcery, Status};

pub struct SorceryAdapter;

/// A room's match is drawn when this turn would start (150 turns each).
pub const TURN_LIMIT: u32 = 300;

fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("packets serialize")
}

fn targeting(t: Targeting) -> &'static str {
    match t {
        Targeting::None => "none",
        Targeting::Minion => "minion",
        Targeting::MinionOrRitual => "minionOrRitual",
    }
}

/// The card table as the web client needs it, keyed by the card's id in the engine's JSON
/// (`"AirElemental"`): `name`, `kind`, `cost`, `text`, `attack`, `defence`, `abilityCost`,
/// `targets` (what playing it, or a minion's ability, is aimed at: `none`, `minion`,
/// `minionOrRitual`), `modifier` (`["+2","+2"]` for stat enchantments), `activationCost` and
/// `charges` (rituals).
pub fn card_table() -> Value {
    let mut table = Map::new();
    for id in CardId::ALL {
        let d = id.def();
        let modifier = match d.modifier {
            Some(Modifier::Add(a, b)) => json!([format!("+{a}"), format!("+{b}")]),
            Some(Modifier::Multiply(a, b)) => json!([format!("*{a}"), format!("*{b}")]),
            _ => Value::Null,
        };
        let targets = match d.ability {
            Some(a) => targeting(a.targeting),
            None => targeting(d.targeting),
        };
        let key = serde_json::to_value(id).expect("ids serialize");
        table.insert(
            key.as_str().expect("ids are strings").to_string(),
            json!({
                "name": d.name,
                "kind": d.kind.word(),
                "cost": d.cost,
                "text": d.text,
                "attack": d.attack,
                "defence": d.defence,
                "abilityCost": d.ability.map(|a| a.cost),
                "targets": targets,
                "modifier": modifier,
                "activationCost": d.activation_cost,
                "charges": d.charges,
            }),
        );
    }
    Value::Object(table)
}

/// One readable line for an event: the game's one narration (`sorcery::text::describe_event`),
/// except the win, which the room announces itself (`GameEnded`).
pub fn describe(event: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    match event {
        Event::GameWon { .. } => None,
        _ => sorcery::text::describe_event(event, viewer, names),
    }
}

impl GameAdapter for SorceryAdapter {
    type G = Sorcery;
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = 2;

    fn config(players: usize, _options: &Value) -> Result<Config, String> {
        if players != 2 {
            return Err(format!("Sorcery is a game for two, not {players}"));
        }
        let mut config = Config::terminal([DEFAULT_DECK.to_vec(), DEFAULT_DECK.to_vec()], false);
        config.draw_when_stuck = true;
        config.turn_limit = Some(TURN_LIMIT);
        Ok(config)
    }

    fn bot_names() -> &'static [&'static str] {
        sorcery::BOTS
    }

    fn make_bot(name: &str) -> Option<Box<dyn Bot<Sorcery>>> {
        sorcery::bot(name)
    }

    fn parse_act(action: Value, _seat: Seat, _names: &[String]) -> Result<Action, PacketError> {
        serde_json::from_value::<Action>(action).map_err(|e| {
            PacketError::new(
                protocol::codes::BAD_PACKET,
                format!(
                    "not a Sorcery action ({e}); examples: {{\"type\":\"End\"}}, \
                     {{\"type\":\"Attack\",\"minion\":0,\"target\":null}}, \
                     {{\"type\":\"Play\",\"card\":1,\"target\":{{\"type\":\"Minion\",\"player\":1,\"index\":0}}}}"
                ),
            )
        })
    }

    fn event_packets(event: &Event, viewer: Viewer, names: &[String], out: &mut Vec<String>) {
        let mut value = serde_json::to_value(event).expect("events serialize");
        if let (Some(obj), Some(text)) = (value.as_object_mut(), describe(event, viewer, names)) {
            obj.insert("text".into(), Value::String(text));
        }
        out.push(to_json(&ServerMsg::GameEvent { event: value }));
    }

    fn public_data(table: Option<&Table<'_, Sorcery>>, seats: &mut [Fields], top: &mut Fields) {
        // The card table never changes: serialized once per process.
        static CARDS: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        top.put_raw("cards", CARDS.get_or_init(|| card_table().to_string()));
        let Some(table) = table else {
            top.put("currentTurn", &()).put("turn", &()).put("winner", &());
            return;
        };
        // Per-seat fields are public (sizes, not hands).
        let (public, names) = (table.view, table.names);
        for (fields, p) in seats.iter_mut().zip(&public.players) {
            fields
                .put("life", &p.life)
                .put("magic", &p.magic)
                .put("handSize", &p.hand_size)
                .put("deckSize", &p.deck_size);
        }
        let name = |s: Seat| names.get(s.index()).map_or("", String::as_str);
        // (`seats`, the usernames by seat, is one of the room's own fields.)
        top.put("currentTurn", &(public.status == Status::Playing).then(|| name(public.active)))
            .put("turn", &public.turn)
            .put(
                "winner",
                &match public.status {
                    Status::Won { winner } => Some(name(winner)),
                    _ => None,
                },
            );
    }

    fn private_data(table: &Table<'_, Sorcery>, top: &mut Fields) {
        top.put("yourSeat", &table.viewer.as_seat().map(|s| s.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rooms_match_has_the_stalemate_rule_and_a_turn_limit() {
        let config = SorceryAdapter::config(2, &Value::Null).unwrap();
        assert!(config.draw_when_stuck);
        assert_eq!(config.turn_limit, Some(TURN_LIMIT));
        assert!(!config.testing);
    }
}
