//! `cardtable sim GAME --report FILE`: a balance report as one self-contained HTML file. The
//! charts are inline SVG drawn with `plotters` (no scripts, no fonts, nothing fetched), the
//! figures are in tables beside them, and every rate carries its 95% Wilson interval.

use plotters::coord::ranged1d::{SegmentValue, SegmentedCoord};
use plotters::coord::types::{RangedCoordf64, RangedCoordusize};
use plotters::prelude::*;
use sim::ladder::LadderReport;
use sim::{Detail, SimReport};
use std::collections::BTreeMap;
use std::fmt::Write;

/// What the report says about the batch besides the simulator's figures.
pub struct Context<'a> {
    pub title: &'a str,
    /// Seats at the table (the house's included).
    pub seats: usize,
    /// The line-up, in entry order.
    pub bots: &'a [String],
}

/// The 95% Wilson score interval of `wins` in `n`, as fractions.
pub fn wilson(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (w, n, z) = (wins as f64, n as f64, 1.96f64);
    let p = w / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One bar of a rate chart: a label, `wins` of `n`.
struct Rate {
    label: String,
    wins: u64,
    n: u64,
}

impl Rate {
    fn pct(&self) -> f64 {
        if self.n == 0 { 0.0 } else { 100.0 * self.wins as f64 / self.n as f64 }
    }

    fn ci_pct(&self) -> (f64, f64) {
        let (lo, hi) = wilson(self.wins, self.n);
        (100.0 * lo, 100.0 * hi)
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const BAR: RGBColor = RGBColor(0x3b, 0x6e, 0xa8);
const SHARE: RGBColor = RGBColor(0xc0, 0x39, 0x2b);
const GRID: RGBColor = RGBColor(0xdd, 0xe1, 0xe6);
const FONT: &str = "sans-serif";

/// Horizontal bars of win rates with their 95% intervals, and a red line at `share` (the
/// rate a seat would have if nothing favoured it), in percent.
fn rate_chart(rates: &[Rate], share: Option<f64>, x_desc: &str) -> String {
    let n = rates.len().max(1);
    if rates.is_empty() {
        return String::new();
    }
    let top = rates.iter().map(|r| r.ci_pct().1).fold(share.unwrap_or(0.0), f64::max);
    let x_max = ((top / 10.0).ceil() * 10.0 + 5.0).clamp(10.0, 100.0);
    let labels = rates.iter().map(|r| r.label.clone()).collect();
    rows_chart(labels, 0f64..x_max, x_desc, &|x| format!("{x:.0}%"), |chart, row| {
        let _ = chart.draw_series(rates.iter().enumerate().map(|(i, r)| {
            let mut bar = Rectangle::new(
                [(0.0, SegmentValue::Exact(row(i))), (r.pct(), SegmentValue::Exact(row(i) + 1))],
                BAR.mix(0.85).filled(),
            );
            bar.set_margin(7, 7, 0, 0);
            bar
        }));
        let _ = chart.draw_series(rates.iter().enumerate().map(|(i, r)| {
            let (lo, hi) = r.ci_pct();
            ErrorBar::new_horizontal(SegmentValue::CenterOf(row(i)), lo, r.pct(), hi, BLACK.stroke_width(2), 10)
        }));
        if let Some(s) = share {
            let _ = chart.draw_series(LineSeries::new(
                [(s, SegmentValue::Exact(0)), (s, SegmentValue::Exact(n))],
                SHARE.stroke_width(2),
            ));
        }
    })
}

/// A chart with one row per label (the first on top, segments count from the bottom) over `x`:
/// the frame, the labels and the grid of the rate and ladder charts. `draw` draws the rows,
/// given the segment of the i-th label.
fn rows_chart(
    labels: Vec<String>,
    x: std::ops::Range<f64>,
    x_desc: &str,
    x_label: &dyn Fn(&f64) -> String,
    draw: impl FnOnce(&mut RowsChart<'_, '_>, &dyn Fn(usize) -> usize),
) -> String {
    let n = labels.len();
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(4);
    let label_px = (longest as u32 * 8 + 16).clamp(60, 320);
    let height = 70 + 34 * n as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, height)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let Ok(mut chart) = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(38)
            .y_label_area_size(label_px)
            // An integer range includes its end: `0..n - 1` is n segments.
            .build_cartesian_2d(x, (0..n - 1).into_segmented())
        else {
            return svg_error();
        };
        let row = |i: usize| n - 1 - i;
        let bottom_up: Vec<String> = labels.into_iter().rev().collect();
        let _ = chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .bold_line_style(GRID)
            .y_labels(n)
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => bottom_up.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .x_desc(x_desc)
            .x_label_formatter(x_label)
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 14))
            .draw();
        draw(&mut chart, &row);
        let _ = root.present();
    }
    svg
}

/// What [`rows_chart`] draws on: x a number, y a row.
type RowsChart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, SegmentedCoord<RangedCoordusize>>>;

/// A histogram of `counts` (value → games), in at most 40 bins.
fn histogram(counts: &BTreeMap<u64, u64>, x_desc: &str) -> String {
    let (Some(&lo), Some(&hi)) = (counts.keys().next(), counts.keys().next_back()) else {
        return String::new();
    };
    let width = (hi - lo) / 40 + 1;
    let bins = (hi - lo) / width + 1;
    let mut binned = vec![0u64; bins as usize];
    for (&v, &c) in counts {
        binned[((v - lo) / width) as usize] += c;
    }
    let top = binned.iter().copied().max().unwrap_or(1).max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 300)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let Ok(mut chart) = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((0..bins - 1).into_segmented(), 0u64..top + top / 10 + 1)
        else {
            return svg_error();
        };
        let _ = chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .bold_line_style(GRID)
            .x_labels(12)
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(b) | SegmentValue::Exact(b) => {
                    let start = lo + b * width;
                    if width == 1 { start.to_string() } else { format!("{start}–{}", start + width - 1) }
                }
                SegmentValue::Last => String::new(),
            })
            .x_desc(x_desc)
            .y_desc("games")
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .draw();
        let _ = chart.draw_series(
            Histogram::vertical(&chart)
                .style(BAR.mix(0.85).filled())
                .margin(2)
                .data(binned.iter().enumerate().map(|(b, &c)| (b as u64, c))),
        );
        let _ = root.present();
    }
    svg
}

fn svg_error() -> String {
    "<p>(chart could not be drawn)</p>".to_string()
}

/// A table of rates: label, wins, of, rate, 95% interval, plus any extra columns.
fn rate_table(head: &str, rates: &[Rate], extra: Option<(&str, &[u64])>) -> String {
    let mut s = String::from("<table><thead><tr>");
    let _ = write!(s, "<th>{}</th>", esc(head));
    if let Some((h, _)) = extra {
        let _ = write!(s, "<th class=\"n\">{}</th>", esc(h));
    }
    s.push_str("<th class=\"n\">games</th><th class=\"n\">wins</th><th class=\"n\">win rate</th><th class=\"n\">95% CI</th></tr></thead><tbody>");
    for (i, r) in rates.iter().enumerate() {
        let (lo, hi) = r.ci_pct();
        let _ = write!(s, "<tr><td>{}</td>", esc(&r.label));
        if let Some((_, col)) = extra {
            let _ = write!(s, "<td class=\"n\">{}</td>", col.get(i).copied().unwrap_or(0));
        }
        let _ = write!(
            s,
            "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:.1}%</td><td class=\"n\">{lo:.1}–{hi:.1}%</td></tr>",
            r.n,
            r.wins,
            r.pct()
        );
    }
    s.push_str("</tbody></table>");
    s
}

fn mean_and_spread(counts: &BTreeMap<u64, u64>) -> (f64, u64, u64, u64) {
    let n: u64 = counts.values().sum();
    let mean = counts.iter().map(|(v, c)| *v as f64 * *c as f64).sum::<f64>() / n.max(1) as f64;
    let quantile = |q: f64| {
        let target = (q * n as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (v, c) in counts {
            seen += c;
            if seen >= target {
                return *v;
            }
        }
        0
    };
    (mean, quantile(0.1), quantile(0.5), quantile(0.9))
}

/// The whole report.
pub fn html(r: &SimReport, d: &Detail, cx: &Context) -> String {
    let games = r.games;
    let share = 100.0 / cx.seats.max(1) as f64;
    let mut body = String::new();
    let line_up = cx.bots.join(", ");
    let _ = write!(
        body,
        "<h1>{} — balance report</h1><p class=\"lead\">{games} games, {} seats, line-up <b>{}</b> (rotating one seat \
per game), seed {}. Every rate is shown with its 95% Wilson confidence interval (the black whiskers); the red \
line is a fair share of 1/{} = {share:.1}%.</p>",
        esc(cx.title),
        cx.seats,
        esc(&line_up),
        r.seed,
        cx.seats
    );
    if r.aborted > 0 {
        let _ = write!(body, "<p class=\"warn\">{} games ran past the step limit and were abandoned.</p>", r.aborted);
    }

    // Seats.
    let seats: Vec<Rate> =
        r.wins.iter().enumerate().map(|(i, &w)| Rate { label: format!("seat {}", i + 1), wins: w, n: games }).collect();
    body.push_str("<section><h2>Win rate by seat</h2>");
    body.push_str(&rate_chart(&seats, Some(share), "games won"));
    body.push_str(&rate_table("seat", &seats, None));
    if r.no_winner > 0 {
        let _ = write!(
            body,
            "<p>No winner in {} games ({:.1}%): draws, or a co-operative side that lost.</p>",
            r.no_winner,
            100.0 * r.no_winner as f64 / games.max(1) as f64
        );
    }
    body.push_str("</section>");

    // First player.
    if let Some(first) = seats.first() {
        let (lo, hi) = first.ci_pct();
        let verdict = if lo > share {
            "an advantage: the interval lies above a fair share"
        } else if hi < share {
            "a disadvantage: the interval lies below a fair share"
        } else {
            "no advantage these games can show: the interval contains a fair share"
        };
        let _ = write!(
            body,
            "<section><h2>First-player advantage</h2><p>The first seat won <b>{:.1}%</b> of games (95% CI \
{lo:.1}–{hi:.1}%) against a fair share of {share:.1}%: {verdict}. Because the line-up rotates, every bot sat \
first equally often.</p></section>",
            first.pct()
        );
    }

    // Bots and levels, merged by name.
    let mut by_name: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for (key, &w) in &r.wins_by_bot {
        let name = key.split_once(':').map_or(key.as_str(), |(_, n)| n).to_string();
        let e = by_name.entry(name).or_default();
        e.0 += w;
        e.1 += games;
    }
    let mut bots: Vec<Rate> = Vec::new();
    for name in cx.bots {
        if let Some((w, n)) = by_name.remove(name) {
            bots.push(Rate { label: name.clone(), wins: w, n });
        }
    }
    if !bots.is_empty() {
        body.push_str(
            "<section><h2>Win rate by bot or level</h2><p>Each entry of the line-up plays every game; \
a name that appears several times is counted over all its seats.</p>",
        );
        body.push_str(&rate_chart(&bots, Some(share), "seat-games won"));
        body.push_str(&rate_table("bot or level", &bots, None));
        body.push_str("</section>");
    }

    // Lengths.
    body.push_str("<section><h2>Game length</h2>");
    let lengths = std::iter::once(("moves", &d.moves))
        .chain(d.metrics.iter().filter(|(k, _)| !k.ends_with("_wins")).map(|(k, v)| (*k, v)));
    for (name, counts) in lengths {
        if counts.is_empty() {
            continue;
        }
        let (mean, p10, p50, p90) = mean_and_spread(counts);
        let _ = write!(
            body,
            "<h3>{}</h3><p>mean {mean:.1}, median {p50}, 10th–90th percentile {p10}–{p90}</p>",
            esc(&format!("{name} per game"))
        );
        body.push_str(&histogram(counts, name));
    }
    body.push_str("</section>");

    // The game's own figures.
    for (figure, groups) in &d.tags {
        let rates: Vec<Rate> =
            groups.iter().map(|(g, c)| Rate { label: g.clone(), wins: c.wins, n: c.seat_games }).collect();
        let occurrences: Vec<u64> = groups.values().map(|c| c.occurrences).collect();
        let mut title = figure.to_string();
        if let Some(f) = title.get_mut(..1) {
            f.make_ascii_uppercase();
        }
        let _ = write!(
            body,
            "<section><h2>{}</h2><p>For each group: how often it came up, in how many seat-games, and how \
often those seats won the game.</p>",
            esc(&title)
        );
        body.push_str(&rate_chart(&rates, None, "seat-games won"));
        body.push_str(&rate_table("group", &rates, Some(("times", &occurrences))));
        body.push_str("</section>");
    }

    format!(
        "<!DOCTYPE html>\n<html lang=\"en\" xmlns=\"http://www.w3.org/1999/xhtml\"><head><meta charset=\"utf-8\"/>\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/><title>{} balance report</title>\
<style>{STYLE}</style></head><body><main>{body}<footer>cardtable sim, {:.1} s on {} thread(s)</footer></main>\
</body></html>\n",
        esc(cx.title),
        r.seconds,
        r.threads
    )
}

/// Each rung of a ladder as a dot at its rating with its 95% interval, strongest on top.
fn ladder_chart(r: &LadderReport) -> String {
    let rungs = &r.ladder;
    let n = rungs.len();
    if n == 0 {
        return String::new();
    }
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let lo = rungs.iter().map(|g| finite(g.rating.lo)).fold(0.0, f64::min);
    let hi = rungs.iter().map(|g| finite(g.rating.hi)).fold(0.0, f64::max);
    let pad = ((hi - lo) * 0.05).max(20.0);
    let (x0, x1) = (((lo - pad) / 50.0).floor() * 50.0, ((hi + pad) / 50.0).ceil() * 50.0);
    let labels = rungs.iter().map(|g| g.name.clone()).collect();
    rows_chart(labels, x0..x1, "rating (Elo points, 95% interval)", &|x| format!("{x:.0}"), |chart, row| {
        let _ = chart.draw_series(rungs.iter().enumerate().map(|(i, g)| {
            let (l, h) = (g.rating.lo.max(x0), g.rating.hi.min(x1));
            ErrorBar::new_horizontal(SegmentValue::CenterOf(row(i)), l, g.rating.value, h, BLACK.stroke_width(2), 10)
        }));
        let _ = chart.draw_series(
            rungs
                .iter()
                .enumerate()
                .map(|(i, g)| Circle::new((g.rating.value, SegmentValue::CenterOf(row(i))), 6, BAR.filled())),
        );
        let _ = chart.draw_series(LineSeries::new(
            [(0.0, SegmentValue::Exact(0)), (0.0, SegmentValue::Exact(n))],
            SHARE.stroke_width(2),
        ));
    })
}

/// `cardtable ladder --report FILE`: the ladder plotted, its table, the adjacent steps and the
/// fixtures.
pub fn ladder_html(r: &LadderReport, title: &str, players: u8) -> String {
    let mut body = String::new();
    let games: u64 = r.fixtures.iter().map(|f| f.games).sum();
    let anchor = r.ladder.iter().find(|g| g.rating.lo == g.rating.hi).map_or("?", |g| g.name.as_str());
    let _ = write!(
        body,
        "<h1>{} — bot ladder</h1><p class=\"lead\">{players} players; {} fixtures of {} games ({games} games), seed {}. \
Ratings are Elo points above <b>{}</b> (the red line) from a Bradley-Terry fit of the pairwise results; the \
whiskers are 95% intervals ({}; {} virtual draw per pair).</p>",
        esc(title),
        r.fixtures.len(),
        r.games_per_fixture,
        r.seed,
        esc(anchor),
        esc(r.intervals),
        r.prior_draws
    );
    body.push_str("<section><h2>Ladder</h2>");
    body.push_str(&ladder_chart(r));
    body.push_str("<table><thead><tr><th>level</th><th class=\"n\">rating</th><th class=\"n\">95% CI</th><th class=\"n\">games</th><th class=\"n\">CPU per move (mean / max)</th></tr></thead><tbody>");
    for g in &r.ladder {
        let cpu = if g.decisions == 0 { "–".to_string() } else { format!("{:.3} / {:.1} ms", g.mean_ms, g.max_ms) };
        let _ = write!(
            body,
            "<tr><td>{}</td><td class=\"n\">{:+.0}</td><td class=\"n\">{:+.0} to {:+.0}</td><td class=\"n\">{}</td><td class=\"n\">{cpu}</td></tr>",
            esc(&g.name),
            g.rating.value,
            g.rating.lo,
            g.rating.hi,
            g.games
        );
    }
    body.push_str("</tbody></table></section>");
    if !r.steps.is_empty() {
        body.push_str("<section><h2>Adjacent levels</h2><p>How far each level is above the one below it; separated when the whole interval is above zero.</p><table><thead><tr><th>step</th><th class=\"n\">gap</th><th class=\"n\">95% CI</th><th>separated</th></tr></thead><tbody>");
        for st in &r.steps {
            let _ = write!(
                body,
                "<tr><td>{} over {}</td><td class=\"n\">{:+.0}</td><td class=\"n\">{:+.0} to {:+.0}</td><td>{}</td></tr>",
                esc(&st.upper),
                esc(&st.lower),
                st.gap.value,
                st.gap.lo,
                st.gap.hi,
                if st.separated { "yes" } else { "no" }
            );
        }
        body.push_str("</tbody></table></section>");
    }
    body.push_str("<section><h2>Fixtures</h2><p>Pairwise results from the finishing order: a seat among the winners beats a seat that is not.</p><table><thead><tr><th>a</th><th>b</th><th class=\"n\">a's wins</th><th class=\"n\">b's wins</th><th class=\"n\">draws</th><th class=\"n\">games</th></tr></thead><tbody>");
    for f in &r.fixtures {
        let _ = write!(
            body,
            "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            esc(&f.a),
            esc(&f.b),
            f.wins_a,
            f.wins_b,
            f.draws,
            f.games
        );
    }
    body.push_str("</tbody></table></section>");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\" xmlns=\"http://www.w3.org/1999/xhtml\"><head><meta charset=\"utf-8\"/>\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/><title>{} bot ladder</title>\
<style>{STYLE}</style></head><body><main>{body}<footer>cardtable ladder, {:.1} s on {} thread(s)</footer></main>\
</body></html>\n",
        esc(title),
        r.seconds,
        r.threads
    )
}

const STYLE: &str = "body{margin:0;background:#f4f5f7;color:#1d2430;font:15px/1.45 system-ui,sans-serif}\
main{max-width:800px;margin:0 auto;padding:24px 16px 48px}h1{font-size:26px;margin:0 0 8px}\
h2{font-size:19px;margin:0 0 8px}h3{font-size:16px;margin:16px 0 4px}.lead{color:#3d4656}\
section{background:#fff;border-radius:8px;padding:16px 18px;margin:16px 0;box-shadow:0 1px 3px rgba(0,0,0,.08)}\
svg{display:block;max-width:100%;height:auto}table{border-collapse:collapse;margin-top:8px;width:100%}\
th,td{padding:4px 8px;border-bottom:1px solid #e3e6ea;text-align:left}td.n,th.n{text-align:right;\
font-variant-numeric:tabular-nums}th{font-weight:600;background:#f7f8fa}.warn{color:#a11}\
footer{color:#6b7380;font-size:13px;margin-top:24px}";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_brackets_the_rate() {
        let (lo, hi) = wilson(60, 100);
        assert!(lo < 0.6 && 0.6 < hi && (0.50..0.51).contains(&lo) && (0.69..0.70).contains(&hi), "{lo} {hi}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }
}
