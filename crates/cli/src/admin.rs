//! `cardtable admin ...`: moderation from the terminal, on the server's database (its SQLite file
//! with the server stopped, which keeps the file to itself while it runs; or its PostgreSQL URL
//! at any time). Every action is written to the moderation log, by "the terminal".
//!
//! - `grant NAME` / `revoke NAME`: the admin role (nobody has it by default);
//! - `rooms`: every stored room;
//! - `close ROOM --message TEXT`: asks for the room's close (its server closes it with the
//!   message: within seconds on PostgreSQL, at its next start on SQLite);
//! - `ban NAME --reason TEXT [--minutes N | --hours N | --days N]` (none: for good), `unban NAME`;
//! - `reports [--all]`: players' reports, with the chat they kept;
//! - `log`: the moderation log.

use crate::replay::{check_db, utc, with_store};
use anyhow::bail;
use clap::{Args, Subcommand};
use serde_json::{Value, json};
use std::io::Write;
use std::process::ExitCode;
use store::moderation::{Ban, RoomClose};

#[derive(Args)]
pub struct AdminArgs {
    #[command(subcommand)]
    action: Action,
    /// The server's database: its SQLite file, or its PostgreSQL URL (`postgres://...`).
    #[arg(long, global = true, default_value = "cardtable.db")]
    db: store::Location,
    /// Print JSON instead of a table (rooms, reports, log).
    #[arg(long, global = true)]
    json: bool,
}

#[derive(Subcommand)]
enum Action {
    /// Give an account the admin role (the console at /admin, the admin API).
    Grant { name: String },
    /// Take the admin role away.
    Revoke { name: String },
    /// List every stored room: game, players, state, node.
    Rooms,
    /// Close a room: its players are told MESSAGE, a running game ends as abandoned.
    Close {
        room: String,
        #[arg(long)]
        message: String,
        /// Why (for the moderation log; the message if not given).
        #[arg(long)]
        reason: Option<String>,
    },
    /// Ban an account, for a time or (no duration) for good.
    Ban {
        name: String,
        #[arg(long)]
        reason: String,
        #[arg(long, conflicts_with_all = ["hours", "days"])]
        minutes: Option<u64>,
        #[arg(long, conflicts_with = "days")]
        hours: Option<u64>,
        #[arg(long)]
        days: Option<u64>,
    },
    /// Lift an account's ban.
    Unban {
        name: String,
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Players' reports, newest first (open ones; `--all` for resolved ones too).
    Reports {
        #[arg(long)]
        all: bool,
    },
    /// The moderation log, newest first.
    Log {
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
}

fn now() -> u64 {
    server::room::now_ms()
}

const NOBODY: &str = "no account is called that (`cardtable users` lists them)";

/// Runs `cardtable admin ...`.
pub fn run(args: AdminArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    check_db(&args.db)?;
    let json_out = args.json;
    match args.action {
        Action::Grant { name } | Action::Revoke { name } if name.trim().is_empty() => bail!("give a name"),
        Action::Grant { name } => {
            let a = with_store(&args.db, |s| async move {
                let Some(a) = server::admin::account_by_name(&s, &name).await? else { return Ok(None) };
                s.set_admin(a.id, true).await?;
                s.log_moderation(None, "grant_admin", &server::admin::account_target(&a), "", now()).await?;
                Ok(Some(a))
            })?;
            let Some(a) = a else { bail!(NOBODY) };
            writeln!(out, "{} is an admin now: the console is at /admin", a.name)?;
        }
        Action::Revoke { name } => {
            let a = with_store(&args.db, |s| async move {
                let Some(a) = server::admin::account_by_name(&s, &name).await? else { return Ok(None) };
                s.set_admin(a.id, false).await?;
                s.log_moderation(None, "revoke_admin", &server::admin::account_target(&a), "", now()).await?;
                Ok(Some(a))
            })?;
            let Some(a) = a else { bail!(NOBODY) };
            writeln!(out, "{} is not an admin any more", a.name)?;
        }
        Action::Rooms => {
            let rows = with_store(&args.db, |s| async move { s.room_rows(server::lobby::ADMIN_ROOMS).await })?;
            let rooms: Vec<Value> = rows
                .into_iter()
                .map(|r| {
                    let mut v = match r.listing.as_deref().and_then(|l| serde_json::from_str::<Value>(l).ok()) {
                        Some(v @ Value::Object(_)) => v,
                        _ => server::room::listing_from_snapshot(&r.snapshot),
                    };
                    v["id"] = r.id.into();
                    v["game"] = r.game.into();
                    v["node"] = r.owner.map_or(Value::Null, Value::from);
                    v
                })
                .collect();
            if json_out {
                writeln!(out, "{}", serde_json::to_string_pretty(&rooms)?)?;
                return Ok(ExitCode::SUCCESS);
            }
            writeln!(out, "{:<16}  {:<14}  {:<7}  {:<10}  {:<16}  players", "room", "game", "state", "node", "made")?;
            for r in &rooms {
                let players: Vec<&str> =
                    r["players"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                let made = r["createdAt"].as_u64().filter(|&t| t > 0).map_or("-".to_string(), utc);
                writeln!(
                    out,
                    "{:<16}  {:<14}  {:<7}  {:<10}  {:<16}  {}",
                    r["id"].as_str().unwrap_or("?"),
                    r["game"].as_str().unwrap_or("?"),
                    r["state"].as_str().unwrap_or("?"),
                    r["node"].as_str().unwrap_or("-"),
                    made,
                    players.join(", ")
                )?;
            }
            writeln!(out, "{} room{}", rooms.len(), if rooms.len() == 1 { "" } else { "s" })?;
        }
        Action::Close { room, message, reason } => {
            if message.trim().is_empty() {
                bail!("give the players a --message");
            }
            let id = room.clone();
            let found = with_store(&args.db, |s| async move {
                if s.room_evidence(&room).await?.is_none() {
                    return Ok(false);
                }
                let reason = reason.unwrap_or_else(|| message.clone());
                s.request_close(RoomClose { room: room.clone(), message, at: now() }).await?;
                s.log_moderation(None, "close_room", &format!("room {room}"), &reason, now()).await?;
                Ok(true)
            })?;
            if !found {
                bail!("no room {id} (`cardtable admin rooms` lists them)");
            }
            let when = match &args.db {
                store::Location::Postgres(_) => "its server closes it within seconds",
                store::Location::Sqlite(_) => "the server closes it when it starts",
            };
            writeln!(out, "room {id}: close asked for; {when}, telling its players the message")?;
        }
        Action::Ban { name, reason, minutes, hours, days } => {
            if reason.trim().is_empty() {
                bail!("give a --reason");
            }
            let minutes = minutes.or(hours.map(|h| h * 60)).or(days.map(|d| d * 24 * 60));
            if minutes == Some(0) {
                bail!("a ban lasts at least a minute (leave the duration out to ban for good)");
            }
            let banned = with_store(&args.db, |s| async move {
                let Some(a) = server::admin::account_by_name(&s, &name).await? else { return Ok(None) };
                let at = now();
                let ban = Ban { account: a.id, until: minutes.map(|m| at + m * 60_000), reason, by: None, at };
                s.ban(ban.clone()).await?;
                let how = match ban.until {
                    Some(u) => format!("until {} UTC", utc(u)),
                    None => "for good".into(),
                };
                let why = format!("{how}: {}", ban.reason);
                s.log_moderation(None, "ban", &server::admin::account_target(&a), &why, at).await?;
                Ok(Some((a, how)))
            })?;
            let Some((a, how)) = banned else { bail!(NOBODY) };
            writeln!(out, "{} is banned {how}", a.name)?;
        }
        Action::Unban { name, reason } => {
            let unbanned = with_store(&args.db, |s| async move {
                let Some(a) = server::admin::account_by_name(&s, &name).await? else { return Ok(None) };
                let had = s.unban(a.id).await?;
                if had {
                    s.log_moderation(None, "unban", &server::admin::account_target(&a), &reason, now()).await?;
                }
                Ok(Some((a, had)))
            })?;
            let Some((a, had)) = unbanned else { bail!(NOBODY) };
            if had {
                writeln!(out, "{} is not banned any more", a.name)?;
            } else {
                writeln!(out, "{} was not banned", a.name)?;
            }
        }
        Action::Reports { all } => {
            let (reports, people) = with_store(&args.db, |s| async move {
                let reports = s.reports(!all, 200).await?;
                let ids: Vec<i64> = reports.iter().flat_map(|r| [r.report.reporter, r.report.target]).collect();
                let people = s.accounts_by_ids(&ids).await?;
                Ok((reports, people))
            })?;
            let name = |id: i64| people.iter().find(|a| a.id == id).map_or(format!("#{id}"), |a| a.name.clone());
            if json_out {
                let all: Vec<Value> = reports
                    .iter()
                    .map(|r| {
                        json!({
                            "id": r.id, "reporter": name(r.report.reporter), "target": name(r.report.target),
                            "room": r.report.room, "match": r.report.match_id, "kind": r.report.kind,
                            "line": r.report.line, "at": r.report.at, "resolved": r.resolved,
                            "chat": serde_json::from_str::<Value>(&r.report.chat).unwrap_or(Value::Null),
                        })
                    })
                    .collect();
                writeln!(out, "{}", serde_json::to_string_pretty(&all)?)?;
                return Ok(ExitCode::SUCCESS);
            }
            for r in &reports {
                let state = if r.resolved { " (resolved)" } else { "" };
                writeln!(
                    out,
                    "#{} {}  {} reports {} for {} in room {}{}{}",
                    r.id,
                    utc(r.report.at),
                    name(r.report.reporter),
                    name(r.report.target),
                    r.report.kind,
                    r.report.room,
                    r.report.match_id.map_or(String::new(), |m| format!(" (last match {m})")),
                    state
                )?;
                if let Some(line) = &r.report.line {
                    writeln!(out, "    \"{line}\"")?;
                }
                let chat: Vec<Value> = serde_json::from_str(&r.report.chat).unwrap_or_default();
                for c in chat.iter().rev().take(10).rev() {
                    writeln!(
                        out,
                        "    {}: {}",
                        c["player"]["username"].as_str().unwrap_or("?"),
                        c["message"].as_str().unwrap_or("")
                    )?;
                }
            }
            writeln!(out, "{} report{}", reports.len(), if reports.len() == 1 { "" } else { "s" })?;
        }
        Action::Log { limit } => {
            let (rows, people) = with_store(&args.db, |s| async move {
                let rows = s.moderation_log(None, limit).await?;
                let ids: Vec<i64> = rows.iter().filter_map(|r| r.admin).collect();
                let people = s.accounts_by_ids(&ids).await?;
                Ok((rows, people))
            })?;
            let who = |id: Option<i64>| match id {
                None => "(terminal)".to_string(),
                Some(id) => people.iter().find(|a| a.id == id).map_or(format!("#{id}"), |a| a.name.clone()),
            };
            if json_out {
                let all: Vec<Value> = rows
                    .iter()
                    .map(|r| {
                        json!({"id": r.id, "admin": who(r.admin), "action": r.action, "target": r.target,
                               "reason": r.reason, "at": r.at})
                    })
                    .collect();
                writeln!(out, "{}", serde_json::to_string_pretty(&all)?)?;
                return Ok(ExitCode::SUCCESS);
            }
            for r in &rows {
                writeln!(out, "{}  {:<12}  {:<14}  {}  {}", utc(r.at), who(r.admin), r.action, r.target, r.reason)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
