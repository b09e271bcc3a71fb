//! `cardtable sim GAME`: bot-vs-bot batches through the `sim` crate.

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use registry::{Entry, GameKind, GameVisitor};
use sim::{SimOptions, SimReport};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

#[derive(Args)]
pub struct SimArgs {
    /// The game to simulate.
    #[arg(value_name = "GAME", help = format!("The game to simulate: {}", GameKind::names()))]
    game: GameKind,
    /// Number of games to play.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Players per game (for games with a variable count; Wolf Pack's pilots, also `--pilots`).
    #[arg(long, visible_alias = "pilots")]
    players: Option<u8>,
    /// Wolf Pack: the Ace's tier (rookie, veteran, ace); the Ace is the house's seat.
    #[arg(long)]
    ace: Option<String>,
    /// Base seed: the same seed gives the same results, whatever the thread count.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Bots in seat order, comma-separated (missing seats are `random`). The line-up rotates
    /// one seat per game so no bot keeps a seat's advantage.
    #[arg(long, value_delimiter = ',', long_help = bots_help())]
    bots: Vec<String>,
    /// Searching levels (hard, expert) run exactly their iteration budget, with no time cap.
    /// Without it each of their moves also stops at a time cap (250 ms for hard, 600 ms for
    /// expert) as in the lobby, so a batch on a loaded machine plays weaker and is not
    /// reproducible. Use it to measure strength: same seed, same result, on any machine.
    #[arg(long)]
    iterations_only: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object instead of a table. With `--log`: the game as JSON lines (see
    /// `json_log`).
    #[arg(long)]
    json: bool,
    /// Play one game from `--seed` (the first bot of `--bots` at every seat, else the game's
    /// default) and print it as a narrative log, for games that have one (three-kingdoms).
    #[arg(long)]
    log: bool,
    /// The game's seed-compatible mode (three-kingdoms: every SeedCompat switch on, the
    /// `seed` bots unless `--bots` names others).
    #[arg(long)]
    seed_mode: bool,
    /// Also write a balance report to FILE: one self-contained HTML page (inline SVG charts)
    /// with win rates by seat and by bot or level (95% intervals), first-player advantage,
    /// game lengths and the game's own figures.
    #[arg(long, value_name = "FILE")]
    report: Option<std::path::PathBuf>,
}

pub fn run(args: SimArgs) -> anyhow::Result<ExitCode> {
    if args.log {
        let text = if args.json { json_log(&args)? } else { args.game.visit(Log { args: &args })? };
        write!(std::io::stdout().lock(), "{text}")?;
        return Ok(ExitCode::SUCCESS);
    }
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let opts = SimOptions {
        games: args.games,
        seed: args.seed,
        threads,
        bots: args.bots.clone(),
        iterations_only: args.iterations_only,
    };
    let bar = (std::io::stderr().is_terminal() && !args.json).then(|| {
        let b = ProgressBar::new(args.games);
        b.set_style(
            ProgressStyle::with_template("{spinner} {pos}/{len} games {wide_bar} {per_sec} eta {eta}")
                .expect("valid template"),
        );
        b
    });
    let progress = |done: u64| {
        if let Some(b) = &bar {
            b.set_position(done);
        }
    };
    let (report, detail) = args
        .game
        .visit(Batch {
            players: args.players,
            ace: args.ace.as_deref(),
            seed_mode: args.seed_mode,
            opts: &opts,
            progress: &progress,
            detailed: args.report.is_some(),
        })?
        .map_err(anyhow::Error::msg)
        .context("simulation failed")?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let (Some(path), Some(detail)) = (&args.report, &detail) {
        let html = report_html(args.game, &report, detail);
        std::fs::write(path, html).with_context(|| format!("writing the report to {}", path.display()))?;
        if !args.json {
            eprintln!("report written to {}", path.display());
        }
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut json = serde_json::to_value(&report)?;
        let by_role = wins_by_role(&report);
        if !by_role.is_empty() {
            json["wins_by_role"] = serde_json::to_value(by_role)?;
        }
        writeln!(out, "{json}")?;
    } else {
        write!(out, "{}", render(&report))?;
    }
    Ok(if report.aborted > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// The balance report of a batch of `game`.
fn report_html(game: GameKind, report: &SimReport, detail: &sim::Detail) -> String {
    // The line-up in entry order, from the report's `index:name` keys.
    let mut entries: Vec<(usize, String)> = report
        .wins_by_bot
        .keys()
        .filter_map(|k| k.split_once(':').and_then(|(i, n)| Some((i.parse().ok()?, n.to_string()))))
        .collect();
    entries.sort();
    let bots: Vec<String> = entries.into_iter().map(|(_, n)| n).collect();
    crate::report::html(
        report,
        detail,
        &crate::report::Context { title: game.title(), seats: report.wins.len(), bots: &bots },
    )
}

/// `--bots`'s long help: every game's bots.
fn bots_help() -> String {
    let mut s = format!(
        "Bots in seat order, comma-separated (missing seats are `random`). The line-up rotates one seat \
per game so no bot keeps a seat's advantage. Every game offers the levels {} (easy: its heuristic with \
half its moves random; medium: its heuristic; hard and expert: a search bot with a modest and a larger \
budget), besides its own bots:",
        search::Level::NAMES.join(", ")
    );
    for k in GameKind::ALL {
        s.push_str(&format!("\n  {:<15} {}", k.name(), k.bot_names().join(", ")));
    }
    s.push('\n');
    s.push_str(&crate::ladder_cmd::ratings_help());
    s
}

/// The config for `players` (or the default count), in the seed-compatible mode if asked,
/// with the bot that mode is meant for.
fn config_for<G: Entry>(players: Option<u8>, seed_mode: bool) -> anyhow::Result<(G::Config, Option<&'static str>)> {
    let players = players.unwrap_or(G::DEFAULT_PLAYERS);
    if seed_mode {
        let Some(c) = G::seed_mode(players) else {
            anyhow::bail!("{} has no seed-compatible mode", G::TITLE);
        };
        let (config, bot) = c.map_err(anyhow::Error::msg)?;
        Ok((config, Some(bot)))
    } else {
        Ok((G::config(players).map_err(anyhow::Error::msg)?, None))
    }
}

/// One batch of the chosen game.
struct Batch<'a> {
    players: Option<u8>,
    ace: Option<&'a str>,
    seed_mode: bool,
    opts: &'a SimOptions,
    progress: &'a (dyn Fn(u64) + Sync),
    /// Keep the detail a balance report needs.
    detailed: bool,
}

impl GameVisitor for Batch<'_> {
    type Out = anyhow::Result<Result<(SimReport, Option<sim::Detail>), String>>;
    fn visit<G: Entry>(self) -> Self::Out {
        let (mut config, mode_bot) = config_for::<G>(self.players, self.seed_mode)?;
        if let Some(tier) = self.ace {
            G::set_option(&mut config, "ace", tier).map_err(anyhow::Error::msg)?;
        }
        let mut opts = self.opts.clone();
        if let (Some(bot), true) = (mode_bot, opts.bots.is_empty()) {
            opts.bots = vec![bot.to_string(); usize::from(self.players.unwrap_or(G::DEFAULT_PLAYERS))];
        }
        Ok(if self.detailed {
            sim::run_detailed::<G>(&config, &opts, self.progress).map(|(r, d)| (r, Some(d)))
        } else {
            sim::run::<G>(&config, &opts, self.progress).map(|r| (r, None))
        })
    }
}

/// One narrated game (`--log`).
struct Log<'a> {
    args: &'a SimArgs,
}

impl GameVisitor for Log<'_> {
    type Out = anyhow::Result<String>;
    fn visit<G: Entry>(self) -> Self::Out {
        let (config, mode_bot) = config_for::<G>(self.args.players, self.args.seed_mode)?;
        let bot = self.args.bots.first().map_or(mode_bot.unwrap_or(G::DEFAULT_BOT), String::as_str);
        match G::narrate(&config, self.args.seed, bot) {
            Some(text) => text.map_err(anyhow::Error::msg),
            None => anyhow::bail!("{} has no narrative log (`--log`)", G::TITLE),
        }
    }
}

/// `--log --json` (Three Kingdoms): the game `--log` tells (same seed, bots and RNG), one JSON
/// object a line, for programs that follow a game:
/// - `{"event":{...}}`: every event as the engine emits it (the all-seeing narrator's: nothing
///   redacted), with its narrative line as `text` (`""` for events the log leaves out);
/// - `{"ask":{...}}` before each decision: `seat` (who must decide), `decision` (`turn`,
///   `response`, `choice`, `simultaneous`), `phase` (as the server's `gameData.phase`), `turn`,
///   `current`, the spectator view's `waiting`, `request`, `about` and `negated`, the public
///   `hands` (hand sizes) and `alive` by seat, and `legal` (how many actions are legal);
/// - `{"act":{"seat":n,"action":{...}}}`: what that seat did.
fn json_log(args: &SimArgs) -> anyhow::Result<String> {
    use engine::{Game, MatchRng, Observation, Viewer};
    use serde_json::json;
    use std::fmt::Write as _;
    use three_kingdoms::ThreeKingdoms;
    if args.game != GameKind::ThreeKingdoms {
        anyhow::bail!("{} has no JSON log (`--log --json` is for three-kingdoms)", args.game.title());
    }
    let (config, mode_bot) = config_for::<ThreeKingdoms>(args.players, args.seed_mode)?;
    let bot = args.bots.first().map_or(mode_bot.unwrap_or(<ThreeKingdoms as Entry>::DEFAULT_BOT), String::as_str);
    let mut bots = registry::bots::<ThreeKingdoms>(&vec![bot.to_string(); usize::from(config.players)])?;
    let (mut game, start) = ThreeKingdoms::new_with_events(&config, args.seed).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut out = String::new();
    let event_line = |out: &mut String, game: &ThreeKingdoms, e: &three_kingdoms::Event| -> anyhow::Result<()> {
        let mut v = serde_json::to_value(e)?;
        // The narrative log's wording (`--log`), so both tell the game in the same lines.
        let text = three_kingdoms::text::seed_line(e, Viewer::Spectator, &three_kingdoms::text::names(game));
        v["text"] = json!(text.unwrap_or_default());
        writeln!(out, "{}", json!({ "event": v }))?;
        Ok(())
    };
    for e in &start {
        event_line(&mut out, &game, e)?;
    }
    // The RNG and loop of `three_kingdoms::narrate_game`, so this is the game `--log` tells.
    let mut rng = MatchRng::new(args.seed ^ 0x5EED);
    let (mut legal, mut events) = (Vec::new(), Vec::new());
    let mut steps = 0;
    while game.outcome().is_none() && steps < game.step_limit() {
        let Some(seat) = game.to_act().first() else { break };
        legal.clear();
        game.legal_actions_into(seat, &mut legal);
        let v = game.view(Viewer::Spectator);
        let ask = json!({
            "seat": seat,
            "decision": game.decision().kind,
            "phase": server::games::three_kingdoms::step_name(v.step),
            "turn": v.turn,
            "current": v.current,
            "waiting": v.waiting,
            "request": v.request,
            "about": v.about,
            "negated": v.negated,
            "hands": v.players.iter().map(|p| p.hand_count).collect::<Vec<_>>(),
            "alive": v.players.iter().map(|p| p.alive).collect::<Vec<_>>(),
            "legal": legal.len(),
        });
        writeln!(out, "{}", json!({ "ask": ask }))?;
        let action = bots[seat.index()].choose(&Observation::new(&game, seat, &legal), &mut rng);
        writeln!(out, "{}", json!({ "act": { "seat": seat, "action": action } }))?;
        events.clear();
        game.apply_into(seat, action, &mut events)
            .map_err(|e| anyhow::anyhow!("a bot chose an illegal action: {e}"))?;
        for e in &events {
            event_line(&mut out, &game, e)?;
        }
        steps += 1;
    }
    Ok(out)
}

/// Wins by role from a game's `<role>_wins` metrics (each 1 or 0 per game, so their mean
/// times the games is the count). Empty for games without roles.
fn wins_by_role(r: &SimReport) -> std::collections::BTreeMap<&'static str, u64> {
    r.means.iter().filter_map(|(k, v)| Some((k.strip_suffix("_wins")?, (v * r.games as f64).round() as u64))).collect()
}

fn pct(n: u64, of: u64) -> f64 {
    if of == 0 { 0.0 } else { 100.0 * n as f64 / of as f64 }
}

/// The human-readable report.
pub fn render(r: &SimReport) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: {} games in {:.2} s — {:.0} games/s on {} thread{} (seed {})",
        r.game,
        r.games,
        r.seconds,
        r.games_per_sec,
        r.threads,
        if r.threads == 1 { "" } else { "s" },
        r.seed
    );
    let _ = writeln!(s, "wins by seat:");
    for (seat, w) in r.wins.iter().enumerate() {
        let _ = writeln!(s, "  seat {seat}: {w:>9} ({:5.1}%)", pct(*w, r.games));
    }
    let _ = writeln!(s, "wins by bot (line-up rotates each game):");
    for (bot, w) in &r.wins_by_bot {
        let _ = writeln!(s, "  {bot:<14} {w:>9} ({:5.1}%)", pct(*w, r.games));
    }
    for (bot, t) in &r.move_times {
        let _ = writeln!(
            s,
            "  {bot:<14} CPU per move: mean {:.1} ms, max {:.1} ms; {} of {} decisions over the lobby's {:.0} ms cap",
            t.mean_ms, t.max_ms, t.over_cap, t.decisions, t.cap_ms
        );
    }
    let by_role = wins_by_role(r);
    if !by_role.is_empty() {
        let _ = writeln!(s, "wins by role:");
        for (role, w) in &by_role {
            let _ = writeln!(s, "  {role:<14} {w:>9} ({:5.1}%)", pct(*w, r.games));
        }
    }
    if r.no_winner > 0 {
        let _ = writeln!(s, "no winner: {} ({:.1}%)", r.no_winner, pct(r.no_winner, r.games));
    }
    let _ = writeln!(s, "mean moves per game: {:.2}", r.mean_moves);
    for (k, v) in r.means.iter().filter(|(k, _)| !k.ends_with("_wins")) {
        let _ = writeln!(s, "mean {k} per game: {v:.2}");
    }
    if r.aborted > 0 {
        let _ = writeln!(s, "ABORTED (ran past the step limit): {}", r.aborted);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(game: &str, seed: u64, threads: usize, log: bool, seed_mode: bool) -> SimArgs {
        SimArgs {
            game: game.parse().unwrap(),
            games: 60,
            players: Some(5),
            seed,
            bots: vec!["heuristic".into(); 5],
            threads: Some(threads),
            json: true,
            log,
            seed_mode,
            ace: None,
            report: None,
            iterations_only: false,
        }
    }

    fn batch(a: &SimArgs) -> SimReport {
        let opts = SimOptions {
            games: a.games,
            seed: a.seed,
            threads: a.threads.unwrap(),
            bots: a.bots.clone(),
            iterations_only: a.iterations_only,
        };
        a.game
            .visit(Batch {
                players: a.players,
                ace: None,
                seed_mode: a.seed_mode,
                opts: &opts,
                progress: &|_| {},
                detailed: false,
            })
            .unwrap()
            .unwrap()
            .0
    }

    /// A 5-player Three Kingdoms game told as a narrative log, official rules and heuristic
    /// bots; and the seed-compatible mode with the seed bots.
    #[test]
    fn three_kingdoms_log_golden() {
        let log = args("three-kingdoms", 7, 1, true, false)
            .game
            .visit(Log { args: &args("three-kingdoms", 7, 1, true, false) });
        insta::assert_snapshot!("three_kingdoms_log_5p_seed7", log.unwrap());
        let mut a = args("three-kingdoms", 7, 1, true, true);
        a.bots.clear();
        let log = a.game.visit(Log { args: &a }).unwrap();
        insta::assert_snapshot!("three_kingdoms_log_5p_seed7_seed_mode", log);
        assert!(
            args("buckshot", 7, 1, true, false).game.visit(Log { args: &args("buckshot", 7, 1, true, false) }).is_err()
        );
    }

    /// Wins by role come from the seed, not the thread count; every game has a side.
    #[test]
    fn three_kingdoms_json_log_is_the_logged_game_in_json_lines() {
        let a = args("three-kingdoms", 7, 1, true, false);
        let lines = json_log(&a).unwrap();
        let text = a.game.visit(Log { args: &a }).unwrap();
        let (mut asks, mut acts, mut over) = (0, 0, None);
        for l in lines.lines() {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            if let Some(ask) = v.get("ask") {
                asks += 1;
                assert!(ask["phase"].is_string() && ask["seat"].is_u64() && ask["hands"].is_array(), "{l}");
            } else if v.get("act").is_some() {
                acts += 1;
            } else if v["event"]["type"] == "GameOver" {
                over = v["event"]["text"].as_str().map(String::from);
            } else {
                assert!(v["event"]["type"].is_string(), "{l}");
            }
        }
        assert_eq!(asks, acts);
        assert!(asks > 100, "{asks} decisions");
        // The same game as the narrative log: it ends on the same line.
        let over = over.expect("the game ends");
        assert!(text.trim_end().ends_with(over.trim_end()), "{over}\n---\n{text}");
        assert!(json_log(&args("wolfpack", 7, 1, true, false)).is_err());
    }

    #[test]
    fn three_kingdoms_batch_by_role_ignores_threads() {
        let one = batch(&args("three-kingdoms", 11, 1, false, false));
        let two = batch(&args("three-kingdoms", 11, 2, false, false));
        assert_eq!(one.wins, two.wins);
        assert_eq!(one.means, two.means);
        let roles = wins_by_role(&one);
        assert_eq!(roles.keys().copied().collect::<Vec<_>>(), ["lord_side", "rebels", "spy"]);
        assert_eq!(roles.values().sum::<u64>() + one.no_winner, one.games);
        assert_eq!(wins_by_role(&one), wins_by_role(&two));
        assert!(render(&one).contains("wins by role:"));
        let mut seed_mode = args("three-kingdoms", 11, 2, false, true);
        seed_mode.bots.clear();
        assert_eq!(batch(&seed_mode).aborted, 0);
    }

    fn wolfpack(pilots: u8, ace: &str, threads: usize, games: u64) -> Result<SimReport, String> {
        let opts = SimOptions {
            games,
            seed: 7,
            threads,
            bots: vec!["heuristic".into(), "random".into()],
            iterations_only: false,
        };
        "wolfpack"
            .parse::<GameKind>()
            .unwrap()
            .visit(Batch {
                players: Some(pilots),
                ace: Some(ace),
                seed_mode: false,
                opts: &opts,
                progress: &|_| {},
                detailed: false,
            })
            .map_err(|e| e.to_string())?
            .map(|(r, _)| r)
    }

    /// The Ace stays the house's seat (last), the line-up rotates over the pilots only, and the
    /// figures do not depend on the thread count.
    #[test]
    fn wolfpack_sims_the_same_on_any_thread_count() {
        let one = wolfpack(3, "veteran", 1, 600).unwrap();
        let two = wolfpack(3, "veteran", 2, 600).unwrap();
        assert_eq!(one.games, 600);
        assert_eq!((&one.wins, &one.wins_by_bot, one.mean_moves), (&two.wins, &two.wins_by_bot, two.mean_moves));
        assert_eq!(one.wins.len(), 4, "three pilots and the Ace");
        assert_eq!(one.wins_by_bot.len(), 3, "the line-up is the pilots': {:?}", one.wins_by_bot);
        assert_eq!(one.aborted, 0);
        // Co-operative: the pilots win together, so every pilot seat has the same wins.
        assert!(one.wins[0] == one.wins[1] && one.wins[1] == one.wins[2]);
        assert_eq!(one.wins[0] + one.wins[3], 600);
        // The tier is the Ace's: a different tier, different results.
        let rookie = wolfpack(3, "rookie", 2, 600).unwrap();
        assert_ne!(rookie.wins, one.wins);
        let err = wolfpack(3, "boss", 1, 10).unwrap_err();
        assert!(err.contains("no Ace tier `boss`"), "{err}");
        let err = wolfpack(6, "rookie", 1, 10).unwrap_err();
        assert!(err.contains("Wolf Pack is for 1 to 5 players, not 6"), "{err}");
    }

    /// Every game's report is written, parses as XML (so as well-formed HTML) and shows its
    /// sections, its charts and the game's own figure; levels play in the line-up.
    #[test]
    fn every_game_writes_a_well_formed_report() {
        let figures = [
            ("buckshot", "Wins by item use"),
            ("sorcery", "Wins by deck"),
            ("ivanhoe", "Tournaments won by colour"),
            ("three-kingdoms", "Wins by role and player count"),
            ("wolfpack", "Pilot wins by pilot count and Ace tier"),
        ];
        let dir = std::env::temp_dir().join(format!("cardtable-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (game, figure) in figures {
            let kind: GameKind = game.parse().unwrap();
            let path = dir.join(format!("{game}.html"));
            let a = SimArgs {
                game: kind,
                games: 24,
                players: None,
                seed: 2,
                bots: vec!["heuristic".into(), "easy".into()],
                threads: Some(1),
                json: true,
                log: false,
                seed_mode: false,
                ace: None,
                report: Some(path.clone()),
                iterations_only: false,
            };
            run(a).unwrap();
            let html = std::fs::read_to_string(&path).unwrap();
            let xml = html.strip_prefix("<!DOCTYPE html>\n").expect("a doctype first");
            let doc = roxmltree::Document::parse(xml).unwrap_or_else(|e| panic!("{game}: {e}"));
            let text: String = doc.descendants().filter(|n| n.is_text()).filter_map(|n| n.text()).collect();
            for heading in
                ["Win rate by seat", "Win rate by bot or level", "First-player advantage", "Game length", figure]
            {
                assert!(text.contains(heading), "{game}: no `{heading}`");
            }
            let svgs = doc.descendants().filter(|n| n.tag_name().name() == "svg").count();
            assert!(svgs >= 4, "{game}: {svgs} charts");
            for fetch in ["src=", "<script", "<link", "@import", "url("] {
                assert!(!html.contains(fetch), "{game}: the page fetches nothing (`{fetch}`)");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
