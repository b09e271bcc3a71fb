//! Buckshot in a room: the packets of `docs/protocol.md` (rules: `docs/rules/buckshot.md`).

use crate::adapter::{Fields, GameAdapter, PacketError, Table};
use buckshot::{Action, Buckshot, Config, Event, Item, ItemUse, MAX_LIVES};
use engine::{Bot, Seat, Viewer};
use protocol::ServerMsg;
use protocol::buckshot::{BuckshotAction, BuckshotBroadcast};
use serde_json::Value;

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

    fn parse_action(packet: &str, _seat: Seat, names: &[String]) -> Result<Action, PacketError> {
        let p: BuckshotAction =
            serde_json::from_str(packet).map_err(|e| PacketError::new(protocol::codes::BAD_PACKET, e.to_string()))?;
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

    fn same_for_everyone(event: &Event) -> bool {
        // Only a Chamber Check differs: its user alone learns the shell.
        !matches!(event, Event::ChamberChecked { .. })
    }

    fn public_data(table: Option<&Table<'_, Buckshot>>, seats: &mut [Fields], top: &mut Fields) {
        let Some(table) = table else {
            top.put("currentTurn", &None::<&str>)
                .put("nextTurn", &None::<&str>)
                .put("round", &0)
                .put("turnCount", &0)
                .put("liveLeft", &0)
                .put("blankLeft", &0)
                .put("nextShell", &None::<buckshot::Shell>)
                .put("doubleDamage", &false)
                .put("quickshot", &buckshot::Quickshot::Off)
                .put("rebalancerWindow", &false)
                .put("winner", &None::<&str>);
            return;
        };
        let (v, names) = (table.view, table.names);
        let name = |s: Option<Seat>| s.map(|s| names[s.index()].as_str());
        for (fields, p) in seats.iter_mut().zip(&v.players) {
            fields.put("lives", &p.lives).put("items", &p.items).put("isSkipped", &p.skipped);
        }
        top.put("currentTurn", &name(v.current))
            .put("nextTurn", &name(v.next))
            .put("round", &v.round)
            .put("turnCount", &v.turn)
            .put("liveLeft", &v.live_left)
            .put("blankLeft", &v.blank_left)
            .put("doubleDamage", &v.double_damage)
            .put("quickshot", &v.quickshot)
            .put("rebalancerWindow", &v.rebalancer_window)
            .put("winner", &name(v.winner));
    }

    fn private_data(table: &Table<'_, Buckshot>, top: &mut Fields) {
        // The next shell, to the one who checked it (the view has it only for them).
        top.put("nextShell", &table.view.next_shell);
    }

    fn in_game(table: &Table<'_, Buckshot>, seat: Seat) -> bool {
        table.view.players.get(seat.index()).is_some_and(|p| p.alive)
    }

    fn unseated_player_fields(lobby: bool, out: &mut Fields) {
        out.put("lives", &if lobby { MAX_LIVES } else { 0 }).put("items", &[(); 0]).put("isSkipped", &false);
    }
}
