//! `cardtable ladder GAME`: every level and named bot of a game against the others on the same
//! deals, rated on one Bradley-Terry (Elo) scale with 95% intervals (the `sim` crate's
//! `ladder` and `rating`).

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use registry::{Entry, GameKind, GameVisitor};
use sim::ladder::{Contestant, ContestantKind, Fixture, LadderOptions, LadderReport, Seating};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// `--help`'s lines of the committed ladder: one line per game.
pub fn ratings_help() -> String {
    let mut s = String::from("Ratings from the last committed ladder (docs/bot-ladder.md; Elo points above random):");
    // The committed page (docs/bot-ladder.md, `scripts/bot-ladder.sh` writes it), as the
    // registry reads it for the lobby too.
    let games = registry::ratings::committed();
    if games.is_empty() {
        s.push_str(" none yet.");
    }
    for (title, rows) in games {
        let list: Vec<String> = rows.iter().map(|r| format!("{} {}", r.level, r.rating)).collect();
        let _ = write!(s, "\n  {title:<15} {}", list.join(", "));
    }
    s
}

/// The levels every game offers, weakest first: the chain a ladder should climb.
pub const LEVELS: [&str; 5] = ["random", "easy", "medium", "hard", "expert"];

#[derive(Args)]
#[command(after_long_help = ratings_help())]
pub struct LadderArgs {
    #[arg(value_name = "GAME", help = format!("The game: {}", GameKind::names()))]
    game: GameKind,
    /// Players per game (the game's default if not given; Wolf Pack counts its pilots).
    #[arg(long, visible_alias = "pilots")]
    players: Option<u8>,
    /// Games per fixture (a pair of contestants). Each deal is played twice with the two
    /// sides' seats swapped, so an even number plays every deal from both sides.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Only these contestants (comma-separated levels, bots, and for Wolf Pack Ace tiers);
    /// default: random, easy, medium, hard, expert, the game's own bots, the house's tiers.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Wolf Pack: the Ace tier the pilot levels fly against.
    #[arg(long, default_value = "veteran")]
    ace: String,
    /// Wolf Pack: the pilot level (every pilot) the Ace tiers fight.
    #[arg(long, default_value = "medium")]
    pilot: String,
    /// Base seed: the same seed gives the same ladder whatever the thread count.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Also write an HTML report with the ladder plotted to FILE.
    #[arg(long, value_name = "FILE")]
    report: Option<std::path::PathBuf>,
    /// Also write the ladder as a Markdown section to FILE (docs/bot-ladder.md is these
    /// sections, one per game: scripts/bot-ladder.sh).
    #[arg(long, value_name = "FILE")]
    markdown: Option<std::path::PathBuf>,
}

pub fn run(args: LadderArgs) -> anyhow::Result<ExitCode> {
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let terminal = std::io::stderr().is_terminal();
    let bar = terminal.then(|| {
        let b = ProgressBar::new(0);
        b.set_style(
            ProgressStyle::with_template("{spinner} {pos}/{len} games {wide_bar} {per_sec} eta {eta}")
                .expect("valid template"),
        );
        b
    });
    // Off a terminal, a line every 5%.
    let last = std::sync::atomic::AtomicU64::new(0);
    let progress = |done: u64, total: u64| match &bar {
        Some(b) => {
            b.set_length(total);
            b.set_position(done);
        }
        None => {
            let step = (total / 20).max(1);
            if done.is_multiple_of(step) || done == total {
                let prev = last.fetch_max(done, std::sync::atomic::Ordering::Relaxed);
                if prev < done {
                    eprintln!("ladder: {done}/{total} games");
                }
            }
        }
    };
    let report = args.game.visit(Ladder { args: &args, threads, progress: &progress })??;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let players = players_of(args.game, args.players);
    if let Some(path) = &args.report {
        let html = crate::report::ladder_html(&report, args.game.title(), players);
        std::fs::write(path, html).with_context(|| format!("writing the report to {}", path.display()))?;
        eprintln!("report written to {}", path.display());
    }
    if let Some(path) = &args.markdown {
        let md = markdown(&report, args.game.title(), players, &args);
        std::fs::write(path, md).with_context(|| format!("writing {}", path.display()))?;
        eprintln!("markdown written to {}", path.display());
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        write!(out, "{}", render(&report, args.game.title(), players))?;
    }
    let aborted: u64 = report.fixtures.iter().map(|f| f.aborted).sum();
    Ok(if aborted > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn players_of(game: GameKind, players: Option<u8>) -> u8 {
    struct Default;
    impl GameVisitor for Default {
        type Out = u8;
        fn visit<G: Entry>(self) -> u8 {
            G::DEFAULT_PLAYERS
        }
    }
    players.unwrap_or_else(|| game.visit(Default))
}

struct Ladder<'a> {
    args: &'a LadderArgs,
    threads: usize,
    progress: &'a (dyn Fn(u64, u64) + Sync),
}

impl GameVisitor for Ladder<'_> {
    type Out = anyhow::Result<anyhow::Result<LadderReport>>;
    fn visit<G: Entry>(self) -> Self::Out {
        let opts = plan::<G>(self.args, self.threads)?;
        Ok(sim::ladder::run::<G>(&opts, self.progress).map_err(anyhow::Error::msg))
    }
}

/// The contestants and fixtures of a game's ladder: every pair of levels and bots, seats
/// alternating; for a game with house tiers (Wolf Pack), the pilot levels against one fixed
/// tier and the tiers against one fixed pilot level.
fn plan<G: Entry>(args: &LadderArgs, threads: usize) -> anyhow::Result<LadderOptions<G::Config>> {
    let players = args.players.unwrap_or(G::DEFAULT_PLAYERS);
    let config = G::config(players).map_err(anyhow::Error::msg)?;
    let wanted = |name: &str| args.only.is_empty() || args.only.iter().any(|o| o == name);
    let mut bots: Vec<String> = LEVELS.iter().map(|s| s.to_string()).collect();
    bots.extend(G::bot_names().iter().filter(|b| !["random", "heuristic"].contains(b)).map(|b| b.to_string()));
    bots.retain(|b| wanted(b));
    for o in &args.only {
        // A searching level with its iterations given (`hard@1000`): for finding where a level
        // should sit; it joins the levels' chain by level, then iterations.
        if registry::tuned_level::<G>(o).is_some() && !bots.contains(o) {
            bots.push(o.clone());
            continue;
        }
        let known = bots.contains(o) || G::HOUSE_TIERS.is_some_and(|(_, t)| t.contains(&o.as_str()));
        anyhow::ensure!(known, "{} has no level, bot or tier `{o}` on its ladder", G::TITLE);
    }
    let mut contestants: Vec<Contestant> =
        bots.iter().map(|b| Contestant { name: b.clone(), kind: ContestantKind::Bot }).collect();
    let index = |cs: &[Contestant], name: &str| cs.iter().position(|c| c.name == name);
    let mut fixtures = Vec::new();
    // The levels' chain, weakest first: by level, then (a searching level's) iterations.
    let mut chain: Vec<(usize, u64, usize)> = contestants
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let (name, n) = match registry::level_of::<G>(&c.name) {
                Some((level, search)) => {
                    (level.name(), level.iteration_budget(&search).and_then(|b| b.iterations).unwrap_or(0))
                }
                None => (c.name.as_str(), 0),
            };
            Some((LEVELS.iter().position(|x| *x == name)?, n, i))
        })
        .collect();
    chain.sort();
    let mut chains = vec![chain.into_iter().map(|(_, _, i)| i).collect::<Vec<_>>()];
    match G::HOUSE_TIERS {
        None => {
            for a in 0..contestants.len() {
                for b in a + 1..contestants.len() {
                    fixtures.push(Fixture { config: config.clone(), a, b, seating: Seating::Alternate });
                }
            }
        }
        Some((key, tiers)) => {
            let tiers: Vec<&str> = tiers.iter().copied().filter(|t| wanted(t)).collect();
            anyhow::ensure!(tiers.contains(&args.ace.as_str()), "the fixed tier `{}` is not on the ladder", args.ace);
            let first_tier = contestants.len();
            contestants.extend(tiers.iter().map(|t| Contestant { name: t.to_string(), kind: ContestantKind::House }));
            chains.push((first_tier..contestants.len()).collect());
            let tier_config = |t: &str| -> anyhow::Result<G::Config> {
                let mut c = config.clone();
                G::set_option(&mut c, key, t).map_err(anyhow::Error::msg)?;
                Ok(c)
            };
            let fixed = index(&contestants, &args.ace).expect("checked");
            for a in 0..first_tier {
                fixtures.push(Fixture { config: tier_config(&args.ace)?, a, b: fixed, seating: Seating::Team });
            }
            let pilot = index(&contestants[..first_tier], &args.pilot)
                .with_context(|| format!("the fixed pilot level `{}` is not on the ladder", args.pilot))?;
            for (k, t) in tiers.iter().enumerate() {
                if *t != args.ace {
                    fixtures.push(Fixture {
                        config: tier_config(t)?,
                        a: pilot,
                        b: first_tier + k,
                        seating: Seating::Team,
                    });
                }
            }
        }
    }
    anyhow::ensure!(contestants.len() >= 2, "a ladder needs two contestants");
    let anchor = index(&contestants, "random").unwrap_or(0);
    Ok(LadderOptions { contestants, fixtures, games: args.games, seed: args.seed, threads, chains, anchor })
}

fn signed(x: f64) -> String {
    if x.abs() < 0.5 { "0".to_string() } else { format!("{x:+.0}") }
}

/// An estimate's interval, as the text and the Markdown tables both say it: `-35 to +12`.
fn interval(e: &sim::rating::Estimate) -> String {
    format!("{} to {}", signed(e.lo), signed(e.hi))
}

fn cpu(r: &sim::ladder::Rung) -> String {
    match r.kind {
        ContestantKind::House => "–".to_string(),
        _ if r.decisions == 0 => "–".to_string(),
        _ if r.mean_ms >= 0.1 => format!("{:.1} ms (max {:.0} ms)", r.mean_ms, r.max_ms),
        _ => format!("{:.1} µs", r.mean_ms * 1e3),
    }
}

/// The table for people.
pub fn render(r: &LadderReport, title: &str, players: u8) -> String {
    let mut s = String::new();
    let games: u64 = r.fixtures.iter().map(|f| f.games).sum();
    let _ = writeln!(
        s,
        "{title} ladder, {players} players: {} fixtures × {} games ({games} games), seed {}, {}, {:.1} s",
        r.fixtures.len(),
        r.games_per_fixture,
        r.seed,
        threads(r),
        r.seconds
    );
    let _ = writeln!(s, "ratings: Elo points above `{}` (Bradley-Terry fit), 95% intervals:", anchor_name(r));
    let _ = writeln!(s, "  {:<10} {:>7}  {:<17} {:>7}  CPU per move", "", "rating", "95% CI", "games");
    for g in &r.ladder {
        let ci = interval(&g.rating);
        let _ = writeln!(s, "  {:<10} {:>7}  {:<17} {:>7}  {}", g.name, signed(g.rating.value), ci, g.games, cpu(g));
    }
    if !r.steps.is_empty() {
        let _ = writeln!(s, "adjacent levels (the upper's gap, 95% CI):");
        for st in &r.steps {
            let (gap, ci) = (signed(st.gap.value), interval(&st.gap));
            let flag = if st.separated { "" } else { "  NOT separated" };
            let _ = writeln!(s, "  {:>8} over {:<8} {gap:>6} ({ci}){flag}", st.upper, st.lower);
        }
    }
    let _ = writeln!(s, "fixtures (pairwise results from the finishing order):");
    for f in &r.fixtures {
        let draws = if f.draws > 0 { format!(", {} draws", f.draws) } else { String::new() };
        let _ = writeln!(s, "  {:>8} – {:<8} {:>5} – {:<5} in {} games{draws}", f.a, f.b, f.wins_a, f.wins_b, f.games);
    }
    s
}

/// "1 thread", "4 threads".
fn threads(r: &LadderReport) -> String {
    format!("{} thread{}", r.threads, if r.threads == 1 { "" } else { "s" })
}

fn anchor_name(r: &LadderReport) -> &str {
    r.ladder.iter().find(|g| g.rating.value == 0.0 && g.rating.lo == g.rating.hi).map_or("?", |g| g.name.as_str())
}

/// The ladder as a Markdown section of docs/bot-ladder.md.
fn markdown(r: &LadderReport, title: &str, players: u8, args: &LadderArgs) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "## {title}, {players} players\n");
    let mut cmd = format!(
        "cardtable ladder {} --players {players} --games {} --seed {}",
        args.game.name(),
        args.games,
        args.seed
    );
    if !args.only.is_empty() {
        let _ = write!(cmd, " --only {}", args.only.join(","));
    }
    let _ = writeln!(
        s,
        "`{cmd}`: {} fixtures of {} games, {:.0} s on {}. Ratings in Elo points above `{}`.\n",
        r.fixtures.len(),
        r.games_per_fixture,
        r.seconds,
        threads(r),
        anchor_name(r)
    );
    let _ = writeln!(s, "| level | rating | 95% CI | games | CPU per move: mean (max) |");
    let _ = writeln!(s, "| --- | --: | --- | --: | --: |");
    for g in &r.ladder {
        let (rating, ci) = (signed(g.rating.value), interval(&g.rating));
        let _ = writeln!(s, "| {} | {rating} | {ci} | {} | {} |", g.name, g.games, cpu(g));
    }
    if !r.steps.is_empty() {
        let _ = writeln!(s, "\n| step | gap | 95% CI | separated |");
        let _ = writeln!(s, "| --- | --: | --- | --- |");
        for st in &r.steps {
            let (gap, ci) = (signed(st.gap.value), interval(&st.gap));
            let flag = if st.separated { "yes" } else { "**no**" };
            let _ = writeln!(s, "| {} over {} | {gap} | {ci} | {flag} |", st.upper, st.lower);
        }
    }
    let _ = writeln!(s, "\n<details><summary>Fixtures</summary>\n");
    let _ = writeln!(s, "| a | b | a's wins | b's wins | draws | games |");
    let _ = writeln!(s, "| --- | --- | --: | --: | --: | --: |");
    for f in &r.fixtures {
        let _ = writeln!(s, "| {} | {} | {} | {} | {} | {} |", f.a, f.b, f.wins_a, f.wins_b, f.draws, f.games);
    }
    let _ = writeln!(s, "\n</details>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lists_every_rated_game() {
        let help = ratings_help();
        for (title, rows) in registry::ratings::committed() {
            let line =
                help.lines().find(|l| l.trim_start().starts_with(&title)).unwrap_or_else(|| panic!("{title}: {help}"));
            assert!(rows.iter().all(|r| line.contains(&format!("{} {}", r.level, r.rating))), "{line}");
        }
    }

    fn args(game: &str, only: &[&str], games: u64) -> LadderArgs {
        LadderArgs {
            game: game.parse().unwrap(),
            players: None,
            games,
            only: only.iter().map(|s| s.to_string()).collect(),
            ace: "veteran".into(),
            pilot: "medium".into(),
            seed: 3,
            threads: Some(2),
            json: false,
            report: None,
            markdown: None,
        }
    }

    /// Every pair of a game's contestants is a fixture; Three Kingdoms' own `seed` bot is one.
    #[test]
    fn plans_every_pair_and_named_bots() {
        let tk = plan::<three_kingdoms::ThreeKingdoms>(&args("three-kingdoms", &[], 10), 1).unwrap();
        let names: Vec<&str> = tk.contestants.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["random", "easy", "medium", "hard", "expert", "seed"]);
        assert_eq!(tk.fixtures.len(), 15);
        assert_eq!(tk.chains, vec![vec![0, 1, 2, 3, 4]]);
        let e = plan::<buckshot::Buckshot>(&args("buckshot", &["random", "wizard"], 10), 1).unwrap_err();
        assert!(e.to_string().contains("no level, bot or tier `wizard`"), "{e}");
    }

    /// A searching level with its iterations given joins the chain by level, then
    /// iterations; a malformed one (or `medium@…`, which does not search) is refused.
    #[test]
    fn tuned_levels_join_the_chain() {
        let a = args("sorcery", &["expert", "hard@100000", "medium", "hard", "expert@1"], 10);
        let s = plan::<sorcery::Sorcery>(&a, 1).unwrap();
        let names: Vec<&str> = s.contestants.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["medium", "hard", "expert", "hard@100000", "expert@1"]);
        // medium, hard (its 250), hard@100000, expert@1, expert (its 20,000): a level's
        // iterations order it only among its own level.
        assert_eq!(s.chains, vec![vec![0, 1, 3, 4, 2]]);
        assert_eq!(s.fixtures.len(), 10);
        for bad in ["hard@", "hard@0", "medium@100", "wizard@100", "hard@lots"] {
            let e = plan::<sorcery::Sorcery>(&args("sorcery", &["medium", bad], 10), 1).unwrap_err();
            assert!(e.to_string().contains("no level, bot or tier"), "{bad}: {e}");
        }
    }

    /// Wolf Pack: the pilot levels against the fixed tier, and the other tiers against the
    /// fixed pilot level; one scale for both.
    #[test]
    fn wolfpack_plans_pilots_against_a_fixed_ace_and_tiers_against_fixed_pilots() {
        let wp = plan::<wolfpack::WolfPack>(&args("wolfpack", &[], 10), 1).unwrap();
        let names: Vec<&str> = wp.contestants.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["random", "easy", "medium", "hard", "expert", "rookie", "veteran", "ace"]);
        let pairs: Vec<(usize, usize)> = wp.fixtures.iter().map(|f| (f.a, f.b)).collect();
        assert_eq!(pairs, [(0, 6), (1, 6), (2, 6), (3, 6), (4, 6), (2, 5), (2, 7)]);
        assert!(wp.fixtures.iter().all(|f| f.seating == Seating::Team));
        assert_eq!(wp.chains, vec![vec![0, 1, 2, 3, 4], vec![5, 6, 7]]);
    }

    /// A small Wolf Pack ladder runs, its table and Markdown name every contestant, and the
    /// HTML report is well-formed with the ladder drawn.
    #[test]
    fn a_small_ladder_renders() {
        let a = args("wolfpack", &["random", "easy", "medium", "rookie", "veteran"], 8);
        let opts = plan::<wolfpack::WolfPack>(&a, 2).unwrap();
        let r = sim::ladder::run::<wolfpack::WolfPack>(&opts, &|_, _| {}).unwrap();
        let text = render(&r, "Wolf Pack", 3);
        for name in ["random", "easy", "medium", "rookie", "veteran", "adjacent levels"] {
            assert!(text.contains(name), "{name}: {text}");
        }
        assert!(markdown(&r, "Wolf Pack", 3, &a).contains("| medium |"));
        let html = crate::report::ladder_html(&r, "Wolf Pack", 3);
        let xml = html.strip_prefix("<!DOCTYPE html>\n").expect("a doctype first");
        let doc = roxmltree::Document::parse(xml).unwrap();
        assert!(doc.descendants().any(|n| n.tag_name().name() == "svg"));
    }
}
