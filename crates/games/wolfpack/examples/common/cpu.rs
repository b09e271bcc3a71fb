//! The examples' clock and report: the process's CPU time, so a loaded machine skews a figure
//! less than wall time would.

/// User plus system time of this process so far, in seconds (`/proc/self/stat` fields 14 and
/// 15, in clock ticks of 100 a second; 0 where there is no `/proc`).
pub fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    // After the ")" the state is field 3, so utime (14) and stime (15) are at 11 and 12.
    (ticks(11) + ticks(12)) / 100.0
}

/// Prints `label: GAMES games, DETAIL M moves/game; CPU c s: g games/s, m moves/s (wall w s)`
/// for the games played since `cpu0` (from [`cpu_seconds`]) and `start`.
pub fn report(label: &str, detail: &str, games: u64, moves: usize, cpu0: f64, start: std::time::Instant) {
    let (cpu, wall) = (cpu_seconds() - cpu0, start.elapsed().as_secs_f64());
    println!(
        "{label}: {games} games, {detail}{:.1} moves/game; CPU {cpu:.2} s: {:.0} games/s, {:.0} moves/s (wall {wall:.2} s)",
        moves as f64 / games as f64,
        games as f64 / cpu.max(1e-9),
        moves as f64 / cpu.max(1e-9),
    );
}
