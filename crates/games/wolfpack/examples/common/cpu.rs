//! The examples' clock: the process's CPU time, so a loaded machine skews a figure less than
//! wall time would.

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
