//! `cardtable users` and `cardtable user NAME`: the accounts of a server's database, and one
//! profile (the data `GET /api/users/{name}` answers), read without a server.

use crate::replay::{check_db, with_store};
use anyhow::bail;
use clap::Args;
use serde_json::Value;
use std::io::Write;
use std::process::ExitCode;

#[derive(Args)]
pub struct UsersArgs {
    /// The server's database: its SQLite file, or its PostgreSQL URL (`postgres://...`).
    #[arg(long, default_value = "cardtable.db")]
    db: store::Location,
    /// How many accounts to list, by name.
    #[arg(long, default_value_t = 100)]
    limit: u32,
    /// List from the name after this one (paging).
    #[arg(long)]
    after: Option<String>,
    /// Print a JSON array instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct UserArgs {
    /// The account's name (any case).
    name: String,
    /// The server's database: its SQLite file, or its PostgreSQL URL (`postgres://...`).
    #[arg(long, default_value = "cardtable.db")]
    db: store::Location,
    /// Print the profile as JSON (as `GET /api/users/{name}` answers it).
    #[arg(long)]
    json: bool,
}

/// `cardtable users`.
pub fn users(args: UsersArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    check_db(&args.db)?;
    let (after, limit) = (args.after, args.limit);
    let list = with_store(&args.db, |s| async move { s.list_accounts(after.as_deref(), limit).await })?;
    if args.json {
        let all: Vec<Value> = list
            .iter()
            .map(|a| serde_json::json!({"id": a.id, "name": a.name, "guest": a.guest, "createdAt": a.created_at, "admin": a.admin}))
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&all)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "{:>6}  {:<20}  {:<6}  joined", "id", "name", "kind")?;
    for a in &list {
        let kind = if a.admin {
            "admin"
        } else if a.guest {
            "guest"
        } else {
            "member"
        };
        writeln!(out, "{:>6}  {:<20}  {:<6}  {}", a.id, a.name, kind, crate::replay::utc(a.created_at))?;
    }
    writeln!(out, "{} account{}", list.len(), if list.len() == 1 { "" } else { "s" })?;
    Ok(ExitCode::SUCCESS)
}

/// `cardtable user NAME`.
pub fn user(args: UserArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    check_db(&args.db)?;
    let name = args.name.clone();
    let profile = with_store(&args.db, |s| async move {
        server::profile::profile(&s, &name, server::profile::PROFILE_MATCHES).await
    })?;
    let Some(p) = profile else { bail!("nobody is called {}", args.name) };
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&p)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let kind = if p["guest"].as_bool() == Some(true) { " (guest)" } else { "" };
    writeln!(
        out,
        "{}{kind}, joined {}",
        p["name"].as_str().unwrap_or("?"),
        crate::replay::utc(p["joined"].as_u64().unwrap_or(0))
    )?;
    for g in p["games"].as_array().into_iter().flatten() {
        writeln!(out, "  {:<16} played {:>4}  won {:>4}", g["game"].as_str().unwrap_or("?"), g["played"], g["won"])?;
    }
    // Each game's rating (docs/rating.md), "?" while provisional.
    for r in p["ratings"].as_array().into_iter().flatten() {
        let q = if r["provisional"].as_bool() == Some(true) { "?" } else { "" };
        let game = r["game"].as_str().unwrap_or("?");
        writeln!(out, "  {game:<16} rating {}{q} ({} rated games)", r["rating"], r["games"])?;
    }
    let matches = p["matches"].as_array().cloned().unwrap_or_default();
    writeln!(out, "last {} match{}:", matches.len(), if matches.len() == 1 { "" } else { "es" })?;
    for m in &matches {
        let against: Vec<String> = m["opponents"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|o| match o["bot"].as_str() {
                Some(level) => format!("{} ({level} bot)", o["name"].as_str().unwrap_or("?")),
                None => o["name"].as_str().unwrap_or("?").to_string(),
            })
            .collect();
        writeln!(
            out,
            "  #{:<6} {:<16} {:<9} {}  vs {}  {}",
            m["id"],
            m["game"].as_str().unwrap_or("?"),
            m["result"].as_str().unwrap_or("?"),
            crate::replay::utc(m["endedAt"].as_u64().unwrap_or(0)),
            against.join(", "),
            m["replay"].as_str().unwrap_or("")
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
