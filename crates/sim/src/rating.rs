//! Bradley-Terry ratings from pairwise results, on the Elo scale, with 95% intervals from the
//! Fisher information. Pure arithmetic: no games, no randomness.
//!
//! The model: player `i` beats player `j` with probability `1 / (1 + exp(θ_j − θ_i))`. The
//! strengths `θ` are fitted by maximum likelihood with Hunter's MM iteration (2004), a draw
//! counting as half a win to each side, and reported in Elo points (`400 / ln 10` of `θ`, so
//! 100 points more is a 64% expected score). One player, the anchor, is held at 0.
//!
//! A pair where one side won every game has no finite maximum (the gap could be any size), so
//! each pair that played also counts `prior_draws` virtual games split evenly (a weak prior
//! toward equality; 1 draw is the usual choice). It pulls a one-sided pair's gap to a finite,
//! large value and barely moves a pair with hundreds of games.
//!
//! Intervals: the inverse of the observed Fisher information of `θ` (the anchor's row and
//! column removed) is the covariance of the estimates; a rating's interval is ±1.96 standard
//! errors, and the gap between two players uses the variance of the difference,
//! `Var θ_i + Var θ_j − 2 Cov(θ_i, θ_j)`, so two players measured against each other and
//! against the same third get the benefit of the shared games.

use serde::Serialize;

/// Elo points per unit of `θ`.
pub const ELO: f64 = 400.0 / std::f64::consts::LN_10;
/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.96;

/// The games between two players: `a`'s wins, `b`'s wins and draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Pairwise {
    pub a: usize,
    pub b: usize,
    pub wins_a: f64,
    pub wins_b: f64,
    pub draws: f64,
}

impl Pairwise {
    pub fn games(&self) -> f64 {
        self.wins_a + self.wins_b + self.draws
    }
}

/// A fitted ladder: ratings in Elo points (the anchor at 0) and their covariance (points²).
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub ratings: Vec<f64>,
    pub cov: Vec<Vec<f64>>,
    /// Whether the MM iteration converged (to 1e-10 in `θ`).
    pub converged: bool,
}

/// A value with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Fit {
    /// Player `i`'s rating with its interval (relative to the anchor).
    pub fn rating(&self, i: usize) -> Estimate {
        let se = self.cov[i][i].max(0.0).sqrt();
        let v = self.ratings[i];
        Estimate { value: v, lo: v - Z95 * se, hi: v + Z95 * se }
    }

    /// How many points `i` is above `j`, with its interval.
    pub fn gap(&self, i: usize, j: usize) -> Estimate {
        let var = self.cov[i][i] + self.cov[j][j] - 2.0 * self.cov[i][j];
        let se = var.max(0.0).sqrt();
        let v = self.ratings[i] - self.ratings[j];
        Estimate { value: v, lo: v - Z95 * se, hi: v + Z95 * se }
    }
}

/// The expected score of a player `gap` Elo points above its opponent.
pub fn expected_score(gap: f64) -> f64 {
    1.0 / (1.0 + (-gap / ELO).exp())
}

/// Fits `n` players' ratings from `results`, holding `anchor` at 0, with `prior_draws` virtual
/// drawn games added to every pair that played (see the module's documentation). Players that
/// are not connected to the anchor by games keep 0 and an infinite variance.
///
/// # Panics
/// If a result names a player `>= n` or `anchor >= n`.
pub fn fit(n: usize, results: &[Pairwise], anchor: usize, prior_draws: f64) -> Fit {
    assert!(anchor < n, "anchor {anchor} of {n} players");
    // Games and (half-)wins of each pair, the prior included.
    let mut games = vec![vec![0.0f64; n]; n];
    let mut wins = vec![0.0f64; n];
    for r in results {
        assert!(r.a < n && r.b < n, "a result between {} and {} of {n} players", r.a, r.b);
        if r.a == r.b || r.games() <= 0.0 {
            continue;
        }
        let g = r.games() + prior_draws;
        games[r.a][r.b] += g;
        games[r.b][r.a] += g;
        wins[r.a] += r.wins_a + 0.5 * (r.draws + prior_draws);
        wins[r.b] += r.wins_b + 0.5 * (r.draws + prior_draws);
    }
    let connected = reachable(&games, anchor);
    // MM: γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j), then rescaled so that γ_anchor = 1.
    let mut gamma = vec![1.0f64; n];
    let mut converged = false;
    for _ in 0..100_000 {
        let mut next = gamma.clone();
        for i in (0..n).filter(|&i| connected[i]) {
            let denom: f64 = (0..n).filter(|&j| games[i][j] > 0.0).map(|j| games[i][j] / (gamma[i] + gamma[j])).sum();
            if denom > 0.0 {
                next[i] = (wins[i] / denom).max(1e-300);
            }
        }
        let scale = next[anchor];
        for g in &mut next {
            *g /= scale;
        }
        let change = (0..n).map(|i| (next[i].ln() - gamma[i].ln()).abs()).fold(0.0, f64::max);
        gamma = next;
        if change < 1e-10 {
            converged = true;
            break;
        }
    }
    let theta: Vec<f64> = (0..n).map(|i| if connected[i] { gamma[i].ln() } else { 0.0 }).collect();
    // The observed information: I_ii = Σ_j n_ij p_ij (1 − p_ij), I_ij = −n_ij p_ij (1 − p_ij).
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor && connected[i]).collect();
    let mut info = vec![vec![0.0f64; free.len()]; free.len()];
    for (x, &i) in free.iter().enumerate() {
        for j in 0..n {
            if games[i][j] <= 0.0 {
                continue;
            }
            let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
            let w = games[i][j] * p * (1.0 - p);
            info[x][x] += w;
            if let Some(y) = free.iter().position(|&k| k == j) {
                info[x][y] -= w;
            }
        }
    }
    let inv = invert(info).unwrap_or_else(|| vec![vec![f64::INFINITY; free.len()]; free.len()]);
    let mut cov = vec![vec![0.0f64; n]; n];
    for i in 0..n {
        if !connected[i] {
            cov[i][i] = f64::INFINITY;
        }
    }
    for (x, &i) in free.iter().enumerate() {
        for (y, &j) in free.iter().enumerate() {
            cov[i][j] = inv[x][y] * ELO * ELO;
        }
    }
    Fit { ratings: theta.iter().map(|t| t * ELO).collect(), cov, converged }
}

/// Which players are linked to `from` by games.
fn reachable(games: &[Vec<f64>], from: usize) -> Vec<bool> {
    let mut seen = vec![false; games.len()];
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(i) = stack.pop() {
        for (j, &g) in games[i].iter().enumerate() {
            if g > 0.0 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen
}

/// The inverse of a symmetric positive-definite matrix by Gauss-Jordan elimination with
/// partial pivoting; `None` if it is singular.
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut inv: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, pivot);
        inv.swap(col, pivot);
        let d = m[col][col];
        for k in 0..n {
            m[col][k] /= d;
            inv[col][k] /= d;
        }
        for row in 0..n {
            if row != col {
                let f = m[row][col];
                if f != 0.0 {
                    for k in 0..n {
                        m[row][k] -= f * m[col][k];
                        inv[row][k] -= f * inv[col][k];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: usize, b: usize, wins_a: f64, wins_b: f64) -> Pairwise {
        Pairwise { a, b, wins_a, wins_b, draws: 0.0 }
    }

    fn close(x: f64, y: f64, tol: f64) -> bool {
        (x - y).abs() < tol
    }

    /// 75 wins in 100: odds of 3, a gap of 400·log10(3) = 190.85 points; the variance of `θ` is
    /// 1 / (n p (1 − p)) = 1 / 18.75, a standard error of 0.2309, 40.1 points.
    #[test]
    fn two_players_known_gap_and_interval() {
        let f = fit(2, &[pair(0, 1, 25.0, 75.0)], 0, 0.0);
        assert!(f.converged);
        assert_eq!(f.ratings[0], 0.0);
        assert!(close(f.ratings[1], 400.0 * 3f64.log10(), 1e-6), "{:?}", f.ratings);
        let se = (1.0 / 18.75f64).sqrt() * ELO;
        let g = f.gap(1, 0);
        assert!(close(g.hi - g.value, Z95 * se, 1e-6) && close(g.value - g.lo, Z95 * se, 1e-6), "{g:?}");
        assert!(close(se, 40.1, 0.05), "{se}");
        // The anchor's own interval is a point.
        assert_eq!(f.rating(0), Estimate { value: 0.0, lo: 0.0, hi: 0.0 });
        assert!(close(expected_score(g.value), 0.75, 1e-9));
    }

    /// A consistent three-player ladder is recovered exactly: B beats A at odds 2, C beats B at
    /// odds 2, C beats A at odds 4.
    #[test]
    fn a_transitive_ladder_is_recovered() {
        let r = [pair(0, 1, 100.0, 200.0), pair(1, 2, 100.0, 200.0), pair(0, 2, 60.0, 240.0)];
        let f = fit(3, &r, 0, 0.0);
        let step = 400.0 * 2f64.log10();
        assert!(close(f.ratings[1], step, 1e-6) && close(f.ratings[2], 2.0 * step, 1e-6), "{:?}", f.ratings);
        // The games between 0 and 2 also inform 1 − 0: narrower than 1 − 0's games alone.
        let alone = fit(2, &[pair(0, 1, 100.0, 200.0)], 0, 0.0).gap(1, 0);
        let g = f.gap(1, 0);
        assert!(g.hi - g.lo < alone.hi - alone.lo, "{g:?} {alone:?}");
        // Anchoring elsewhere moves the ratings, not the gaps.
        let f2 = fit(3, &r, 2, 0.0);
        assert!(close(f2.gap(1, 0).value, g.value, 1e-6) && close(f2.gap(1, 0).hi, g.hi, 1e-6));
    }

    /// Draws are half a win each: 50 wins, 50 losses and any number of draws is a gap of 0.
    #[test]
    fn draws_and_a_one_sided_pair() {
        let f = fit(2, &[Pairwise { a: 0, b: 1, wins_a: 50.0, wins_b: 50.0, draws: 30.0 }], 0, 0.0);
        assert!(close(f.ratings[1], 0.0, 1e-9));
        // 40 wins and no loss: without a prior the gap runs away; one virtual draw makes it
        // 40.5 to 0.5, odds of 81, 763 points.
        let f = fit(2, &[pair(0, 1, 0.0, 40.0)], 0, 1.0);
        assert!(f.converged);
        assert!(close(f.ratings[1], 400.0 * 81f64.log10(), 1e-4), "{:?}", f.ratings);
        assert!(f.gap(1, 0).lo > 0.0);
    }

    /// A player with no games linked to the anchor is left unrated, with an infinite interval.
    #[test]
    fn unconnected_players_are_unrated() {
        let f = fit(4, &[pair(0, 1, 10.0, 20.0), pair(2, 3, 5.0, 5.0)], 0, 1.0);
        assert_eq!(f.ratings[2], 0.0);
        assert!(f.rating(3).hi.is_infinite() || f.rating(3).hi.is_nan());
        assert!(f.ratings[1] > 0.0 && f.rating(1).hi.is_finite());
    }

    #[test]
    fn inverse_of_a_known_matrix() {
        let inv = invert(vec![vec![4.0, 7.0], vec![2.0, 6.0]]).unwrap();
        let want = [[0.6, -0.7], [-0.2, 0.4]];
        for i in 0..2 {
            for j in 0..2 {
                assert!(close(inv[i][j], want[i][j], 1e-12), "{inv:?}");
            }
        }
        assert!(invert(vec![vec![1.0, 2.0], vec![2.0, 4.0]]).is_none());
    }
}
