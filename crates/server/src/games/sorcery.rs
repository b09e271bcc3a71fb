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
//! The match is the spec's game with the default decks (shuffled). The one addition is the
//! engine's stalemate rule: a game where neither player can ever damage the other again is
//! drawn instead of going on forever.

use crate::adapter::{Fields, GameAdapter, PacketError};
use engine::{Bot, Game, Seat, Viewer};
use protocol::ServerMsg;
use serde_json::{Map, Value, json};
use sorcery::action::{DrawReason, MinionRef, TargetRef};
use sorcery::cards::{CardId, Modifier, Targeting};
use sorcery::{Action, Config, DEFAULT_DECK, Event, Sorcery, Status};

pub struct SorceryAdapter;

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

/// One readable line for an event (`None` for the routine ones the log can do without).
pub fn describe(event: &Event, names: &[String]) -> Option<String> {
    let n = |s: Seat| names.get(s.index()).cloned().unwrap_or_else(|| format!("Player {}", s.0 + 1));
    let m = |r: MinionRef| format!("{}'s {}", n(r.player), r.card.name());
    let t = |t: TargetRef| match t {
        TargetRef::Minion { minion } => m(minion),
        TargetRef::Ritual { player, card } => format!("{}'s {}", n(player), card.name()),
    };
    Some(match *event {
        Event::TurnStarted { player, turn, magic } => format!("Turn {turn}: {} to play (magic {magic}).", n(player)),
        Event::MagicGained { player, amount, magic } => format!("{} gains {amount} magic (now {magic}).", n(player)),
        Event::CardDrawn { player, card: Some(c) } => format!("{} draws {}.", n(player), c.name()),
        Event::CardDrawn { player, card: None } => format!("{} draws a card.", n(player)),
        Event::CardPlayed { player, card, target: Some(x), .. } => {
            format!("{} plays {} on {}.", n(player), card.name(), t(x))
        }
        Event::CardPlayed { player, card, target: None, .. } => format!("{} plays {}.", n(player), card.name()),
        Event::AbilityUsed { minion, target: Some(x), .. } => format!("{} uses its ability on {}.", m(minion), t(x)),
        Event::AbilityUsed { minion, target: None, .. } => format!("{} uses its ability.", m(minion)),
        Event::MinionEntered { minion, attack, defence } => format!("{} enters play ({attack}/{defence}).", m(minion)),
        Event::AttackedPlayer { minion, player, amount, life } => {
            format!("{} attacks {} for {amount} ({life} life left).", m(minion), n(player))
        }
        Event::AttackedMinion { minion, target } => format!("{} attacks {}.", m(minion), m(target)),
        Event::MinionDamaged { minion, amount, attack, defence } => {
            format!("{} takes {amount} damage ({attack}/{defence}).", m(minion))
        }
        Event::MinionBuffed { minion, attack, defence } => format!("{} is now {attack}/{defence}.", m(minion)),
        // Only enchantments that change attack and defence get a line of their own.
        Event::MinionEnchanted { minion, enchantment, attack, defence } => match enchantment.def().modifier {
            Some(Modifier::Add(..) | Modifier::Multiply(..)) => format!("{} is now {attack}/{defence}.", m(minion)),
            _ => return None,
        },
        Event::MinionDied { minion } => format!("{} dies.", m(minion)),
        Event::MinionReturned { minion } => format!("{} returns to {}'s hand.", m(minion), n(minion.player)),
        Event::EnchantmentRemoved { minion, enchantment, attack, defence } => {
            format!("{} is removed from {} ({attack}/{defence}).", enchantment.name(), m(minion))
        }
        Event::RitualPlaced { player, replaced: Some(old), .. } => {
            format!("{}'s {} is removed from the game.", n(player), old.name())
        }
        Event::RitualDestroyed { player, card } => format!("{}'s {} is destroyed.", n(player), card.name()),
        Event::ChargesChanged { player, card, charges } => {
            format!("{}'s {} has {charges} charge{} left.", n(player), card.name(), if charges == 1 { "" } else { "s" })
        }
        Event::Discarded { player, card } => format!("{} discards {}.", n(player), card.name()),
        Event::GameDrawn { reason: DrawReason::TurnLimit } => "The turn limit is reached: the game is a draw.".into(),
        Event::GameDrawn { reason: DrawReason::NoDamagePossible } => {
            "Neither player can win any more: the game is a draw.".into()
        }
        Event::Conceded { player } => format!("{} concedes.", n(player)),
        // The room announces the winner (GameEnded); turn ends need no line.
        Event::GameWon { .. } | Event::TurnEnded { .. } | Event::RitualPlaced { replaced: None, .. } => return None,
    })
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
        Ok(config)
    }

    fn bot_names() -> &'static [&'static str] {
        sorcery::BOTS
    }

    fn make_bot(name: &str) -> Option<Box<dyn Bot<Sorcery>>> {
        sorcery::bot(name)
    }

    fn is_action_packet(kind: &str) -> bool {
        // Only the generic `Act` (handled as a room packet, then passed on here).
        kind == "Act"
    }

    fn parse_action(packet: &str, _seat: Seat, _names: &[String]) -> Result<Action, PacketError> {
        let packet: Value = serde_json::from_str(packet)
            .map_err(|e| PacketError::new(protocol::codes::BAD_PACKET, format!("not valid JSON: {e}")))?;
        let Some(action) = packet.get("action") else {
            return Err(PacketError::new(protocol::codes::BAD_PACKET, "an Act packet needs an `action` field"));
        };
        serde_json::from_value::<Action>(action.clone()).map_err(|e| {
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

    fn event_packets(event: &Event, _viewer: Viewer, names: &[String], out: &mut Vec<String>) {
        let mut value = serde_json::to_value(event).expect("events serialize");
        if let (Some(obj), Some(text)) = (value.as_object_mut(), describe(event, names)) {
            obj.insert("text".into(), Value::String(text));
        }
        out.push(to_json(&ServerMsg::GameEvent { event: value }));
    }

    fn public_data(game: Option<&Sorcery>, names: &[String], seats: &mut [Fields], top: &mut Fields) {
        // The card table never changes: serialized once per process.
        static CARDS: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        top.put_raw("cards", CARDS.get_or_init(|| card_table().to_string()));
        let Some(game) = game else {
            top.put("currentTurn", &()).put("turn", &()).put("winner", &());
            return;
        };
        // Per-seat fields are public (sizes, not hands).
        let public = game.view(Viewer::Spectator);
        for (fields, p) in seats.iter_mut().zip(&public.players) {
            fields
                .put("life", &p.life)
                .put("magic", &p.magic)
                .put("handSize", &p.hand_size)
                .put("deckSize", &p.deck_size);
        }
        let name = |s: Seat| names.get(s.index()).map_or("", String::as_str);
        // (`seats`, the usernames by seat, is one of the room's own fields.)
        top.put("currentTurn", &(game.status() == Status::Playing).then(|| name(game.active())))
            .put("turn", &public.turn)
            .put(
                "winner",
                &match game.status() {
                    Status::Won { winner } => Some(name(winner)),
                    _ => None,
                },
            );
    }

    fn private_data(_game: &Sorcery, viewer: Viewer, _names: &[String], top: &mut Fields) {
        top.put("yourSeat", &viewer.as_seat().map(|s| s.0));
    }
}
