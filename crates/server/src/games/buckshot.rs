//! Buckshot in a room: the packets of `shared/rules/buckshot.md`.

use crate::adapter::{GameAdapter, PacketError};
use buckshot::{Action, Buckshot, Config, Event, Item, ItemUse, MAX_LIVES};
use engine::{Bot, Game, Seat, Viewer};
use protocol::ServerMsg;
use protocol::buckshot::{BuckshotAction, BuckshotBroadcast};
use serde_json::{Map, Value, json};

pub struct BuckshotAdapter;

fn seat_of(names: &[String], username: &str) -> Result<Seat, PacketError> {
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(username))
        .map(|i| Seat(i as u8))
        .ok_or_else(|| PacketError::new("unknown_player", format!("there is no player called {username} in this game")))
}

fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("packets serialize")
}

impl GameAdapter for BuckshotAdapter {
    type G = Buckshot;
    const MIN_PLAYERS: usize = Config::MIN_PLAYERS as usize;
    const MAX_PLAYERS: usize = Config::MAX_PLAYERS as usize;
    const TURN_PACKETS_FROM_EVENTS: bool = true;
    const SYNC_VIEW: bool = false;

    fn config(players: usize, _options: &Value) -> Result<Config, String> {
        Ok(Config::players(players as u8))
    }

    fn bot_names() -> &'static [&'static str] {
        buckshot::BOTS
    }

    fn make_bot(name: &str) -> Option<Box<dyn Bot<Buckshot>>> {
        buckshot::bot(name)
    }

    fn is_action_packet(kind: &str) -> bool {
        BuckshotAction::TYPES.contains(&kind)
    }

    fn parse_action(packet: Value, _seat: Seat, names: &[String]) -> Result<Action, PacketError> {
        let p: BuckshotAction =
            serde_json::from_value(packet).map_err(|e| PacketError::new(protocol::codes::BAD_PACKET, e.to_string()))?;
        let item_use =
            |item: Item, target: Option<&String>, kind: Option<buckshot::Shell>| -> Result<ItemUse, PacketError> {
                let need_target = || {
                    target.ok_or_else(|| PacketError::new(protocol::codes::BAD_PACKET, "this item needs itemTarget"))
                };
                Ok(match item {
                    Item::Skip => ItemUse::Skip { target: seat_of(names, need_target()?)? },
                    Item::DoubleDamage => ItemUse::DoubleDamage,
                    Item::ChamberCheck => ItemUse::ChamberCheck,
                    Item::Rebalancer => ItemUse::Rebalancer {
                        kind: kind
                            .ok_or_else(|| PacketError::new(protocol::codes::BAD_PACKET, "a Rebalancer needs kind"))?,
                    },
                    Item::Quickshot => ItemUse::Quickshot,
                    Item::AddLife => ItemUse::AddLife,
                    Item::ShootAir => ItemUse::ShootAir,
                    Item::Steal => return Err(PacketError::new("cannot_steal_steal", "Steal cannot steal a Steal")),
                })
            };
        Ok(match p {
            BuckshotAction::ShootPlayer { username } => Action::Shoot { target: seat_of(names, &username)? },
            BuckshotAction::UseSkipItem { target } => {
                Action::Use { item: ItemUse::Skip { target: seat_of(names, &target)? } }
            }
            BuckshotAction::UseDoubleDamageItem => Action::Use { item: ItemUse::DoubleDamage },
            BuckshotAction::UseChamberCheckItem => Action::Use { item: ItemUse::ChamberCheck },
            BuckshotAction::UseRebalancerItem { kind } => Action::Use { item: ItemUse::Rebalancer { kind } },
            BuckshotAction::UseQuickshotItem => Action::Use { item: ItemUse::Quickshot },
            BuckshotAction::UseStealItem { target, item, item_target, kind } => {
                Action::Steal { from: seat_of(names, &target)?, item: item_use(item, item_target.as_ref(), kind)? }
            }
            BuckshotAction::UseAddLifeItem => Action::Use { item: ItemUse::AddLife },
            BuckshotAction::UseShootAirItem => Action::Use { item: ItemUse::ShootAir },
        })
    }

    fn event_packets(event: &Event, viewer: Viewer, names: &[String], out: &mut Vec<String>) {
        let n = |s: Seat| names[s.index()].clone();
        let b = |p: BuckshotBroadcast| to_json(&p);
        match event {
            Event::RoundStarted { round, live, blank, .. } => {
                out.push(b(BuckshotBroadcast::RoundStarted { round: *round, live: *live, blank: *blank }))
            }
            Event::TurnStarted { seat, .. } => out.push(to_json(&ServerMsg::TurnStart { username: n(*seat) })),
            Event::TurnEnded { seat } => out.push(to_json(&ServerMsg::TurnEnd { username: n(*seat) })),
            Event::TurnSkipped { seat } => out.push(b(BuckshotBroadcast::TurnSkipped { username: n(*seat) })),
            Event::Shot { by, target, shell, damage } => out.push(b(BuckshotBroadcast::ShootPlayer {
                username: n(*target),
                by: n(*by),
                shell: *shell,
                damage: *damage,
            })),
            Event::ChamberChecked { by, shell } => {
                out.push(b(BuckshotBroadcast::UseChamberCheckItem { by: n(*by) }));
                if let Some(shell) = shell
                    && viewer.is(*by)
                {
                    out.push(b(BuckshotBroadcast::UseChamberCheckResult { shell: *shell }));
                }
            }
            Event::SkipUsed { by, target } => {
                out.push(b(BuckshotBroadcast::UseSkipItem { target: n(*target), by: n(*by) }))
            }
            Event::DoubleDamageUsed { by } => out.push(b(BuckshotBroadcast::UseDoubleDamageItem { by: n(*by) })),
            Event::Rebalanced { by, kind, added, live, blank } => out.push(b(BuckshotBroadcast::UseRebalancerItem {
                by: n(*by),
                kind: *kind,
                added: *added,
                live: *live,
                blank: *blank,
            })),
            Event::QuickshotUsed { by } => out.push(b(BuckshotBroadcast::UseQuickshotItem { by: n(*by) })),
            Event::LifeAdded { by, lives } => {
                out.push(b(BuckshotBroadcast::UseAddLifeItem { by: n(*by), lives: *lives }))
            }
            Event::AirShot { by, shell } => {
                out.push(b(BuckshotBroadcast::UseShootAirItem { by: n(*by), shell: *shell }))
            }
            Event::Stole { by, from, item } => {
                out.push(b(BuckshotBroadcast::UseStealItem { by: n(*by), target: n(*from), item: *item }))
            }
            Event::Eliminated { seat, by, .. } => out.push(b(BuckshotBroadcast::PlayerEliminated {
                username: n(*seat),
                by: by.filter(|k| k != seat).map(n),
            })),
            // The room announces leaving (PlayerLeft) and the end (GameEnded) for every game.
            Event::Left { .. } | Event::GameOver { .. } => {}
        }
    }

    fn game_data(
        game: Option<&Buckshot>,
        viewer: Viewer,
        names: &[String],
    ) -> (Vec<Map<String, Value>>, Map<String, Value>) {
        let Some(game) = game else {
            let mut top = Map::new();
            for k in ["currentTurn", "nextTurn", "round", "turnCount", "liveLeft", "blankLeft", "nextShell", "winner"] {
                top.insert(k.into(), Value::Null);
            }
            top.insert("round".into(), json!(0));
            top.insert("turnCount".into(), json!(0));
            top.insert("liveLeft".into(), json!(0));
            top.insert("blankLeft".into(), json!(0));
            return (Vec::new(), top);
        };
        let v = game.view(viewer);
        let n = |s: Option<Seat>| s.map(|s| Value::String(names[s.index()].clone())).unwrap_or(Value::Null);
        let seats = v
            .players
            .iter()
            .map(|p| {
                let mut m = Map::new();
                m.insert("lives".into(), json!(p.lives));
                m.insert("items".into(), serde_json::to_value(p.items).expect("items serialize"));
                m.insert("isSkipped".into(), json!(p.skipped));
                m.insert("inGame".into(), json!(p.alive));
                m
            })
            .collect();
        let mut top = Map::new();
        top.insert("currentTurn".into(), n(v.current));
        top.insert("nextTurn".into(), n(v.next));
        top.insert("round".into(), json!(v.round));
        top.insert("turnCount".into(), json!(v.turn));
        top.insert("liveLeft".into(), json!(v.live_left));
        top.insert("blankLeft".into(), json!(v.blank_left));
        top.insert("nextShell".into(), serde_json::to_value(v.next_shell).expect("shell serializes"));
        top.insert("doubleDamage".into(), json!(v.double_damage));
        top.insert("quickshot".into(), serde_json::to_value(v.quickshot).expect("serializes"));
        top.insert("rebalancerWindow".into(), json!(v.rebalancer_window));
        top.insert("winner".into(), n(v.winner));
        (seats, top)
    }

    fn unseated_player_fields(lobby: bool) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("lives".into(), json!(if lobby { MAX_LIVES } else { 0 }));
        m.insert("items".into(), json!([]));
        m.insert("isSkipped".into(), json!(false));
        m
    }
}
