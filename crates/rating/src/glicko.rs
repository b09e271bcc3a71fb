//! The Glicko-2 update (Glickman, "Example of the Glicko-2 system", 2013), steps 1 to 8.

use std::f64::consts::PI;
use std::fmt;

/// Glicko-2's scale factor between the Glicko scale (1500, 350) and its own (0, 2.01).
const SCALE: f64 = 173.7178;
/// The convergence tolerance of the volatility iteration (the paper's ε).
const EPSILON: f64 = 0.000_001;

/// The rating of a newcomer: the paper's defaults.
pub const INITIAL_R: f64 = 1500.0;
/// The deviation of a newcomer, and the most idle time can raise a deviation to.
pub const INITIAL_RD: f64 = 350.0;
/// The volatility of a newcomer.
pub const INITIAL_VOL: f64 = 0.06;
/// The system constant τ: how much volatility may change in one period. Glickman suggests 0.3
/// to 1.2; 0.5 is his example's and lichess's choice.
pub const TAU: f64 = 0.5;
/// A rating whose deviation is above this is provisional (shown "1523?"), as on lichess.
pub const PROVISIONAL_RD: f64 = 110.0;

/// A Glicko-2 rating on the Glicko scale: `r` (mean, 1500 for a newcomer), `rd` (rating
/// deviation, 350 for a newcomer) and `vol` (volatility σ).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub r: f64,
    pub rd: f64,
    pub vol: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating::NEW
    }
}

impl Rating {
    /// A newcomer's rating: 1500, RD 350, σ 0.06.
    pub const NEW: Rating = Rating { r: INITIAL_R, rd: INITIAL_RD, vol: INITIAL_VOL };

    /// While the deviation is above [`PROVISIONAL_RD`] (110), the rating is shown with a "?".
    pub fn is_provisional(&self) -> bool {
        self.rd > PROVISIONAL_RD
    }

    /// The rating as people read it: the mean rounded, "?" after it while provisional
    /// ("1523?", "1710"). The same as `to_string()`.
    pub fn display(&self) -> String {
        self.to_string()
    }

    /// The expected score of `self` against `other` (0 to 1), counting `other`'s uncertainty
    /// as Glicko-2 does (the paper's E).
    pub fn expected(&self, other: &Rating) -> f64 {
        let (mu, _) = self.to_g2();
        let (mu_j, phi_j) = other.to_g2();
        expect(mu, mu_j, phi_j)
    }

    fn to_g2(self) -> (f64, f64) {
        ((self.r - INITIAL_R) / SCALE, self.rd / SCALE)
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.0}{}", self.r, if self.is_provisional() { "?" } else { "" })
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn expect(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// One rating period for `player`: its results against `results`' opponents (their ratings as
/// they were at the start of the period) with scores 1 (win), 0.5 (draw) or 0 (loss), under the
/// system constant `tau` ([`TAU`]). With no results, only the deviation grows (step 6 alone,
/// as [`decay`] with one period).
pub fn update(player: Rating, results: &[(Rating, f64)], tau: f64) -> Rating {
    if results.is_empty() {
        return decay(player, 1.0);
    }
    let (mu, phi) = player.to_g2();
    // Steps 3 and 4: the estimated variance v and the improvement Δ.
    let (mut inv_v, mut sum) = (0.0, 0.0);
    for (opp, score) in results {
        let (mu_j, phi_j) = opp.to_g2();
        let (gj, e) = (g(phi_j), expect(mu, mu_j, phi_j));
        inv_v += gj * gj * e * (1.0 - e);
        sum += gj * (score - e);
    }
    let v = 1.0 / inv_v;
    let delta = v * sum;
    // Step 5: the new volatility.
    let vol = new_volatility(phi, player.vol, v, delta, tau);
    // Steps 6 and 7: the new deviation and mean.
    let phi_star = (phi * phi + vol * vol).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * sum;
    // Step 8: back to the Glicko scale.
    Rating { r: mu_new * SCALE + INITIAL_R, rd: phi_new * SCALE, vol }
}

/// Step 5 of the paper: σ' by the Illinois algorithm on f(x) = 0.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > EPSILON {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            (big_a, fa) = (big_b, fb);
        } else {
            fa /= 2.0;
        }
        (big_b, fb) = (c, fc);
    }
    (big_a / 2.0).exp()
}

/// `periods` rating periods without games (fractions allowed): the deviation grows as
/// φ' = √(φ² + periods·σ²), never above [`INITIAL_RD`]; mean and volatility stay.
pub fn decay(player: Rating, periods: f64) -> Rating {
    if periods <= 0.0 {
        return player;
    }
    let (_, phi) = player.to_g2();
    let phi_new = (phi * phi + periods.max(0.0) * player.vol * player.vol).sqrt();
    Rating { rd: (phi_new * SCALE).min(INITIAL_RD.max(player.rd)), ..player }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(r: f64, rd: f64) -> Rating {
        Rating { r, rd, vol: INITIAL_VOL }
    }

    /// The worked example of Glickman's paper: a 1500/200/0.06 player beats a 1400/30 player
    /// and loses to 1550/100 and 1700/300, τ = 0.5.
    #[test]
    fn reproduces_the_papers_example() {
        let player = r(1500.0, 200.0);
        let results = [(r(1400.0, 30.0), 1.0), (r(1550.0, 100.0), 0.0), (r(1700.0, 300.0), 0.0)];
        let new = update(player, &results, 0.5);
        assert!((new.r - 1464.06).abs() < 0.01, "r' = {}", new.r);
        assert!((new.rd - 151.52).abs() < 0.01, "RD' = {}", new.rd);
        assert!((new.vol - 0.05999).abs() < 0.000_01, "σ' = {}", new.vol);
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let player = r(1500.0, 200.0);
        let idle = update(player, &[], TAU);
        assert_eq!((idle.r, idle.vol), (1500.0, INITIAL_VOL));
        // The paper's step 6 alone: φ' = √(φ² + σ²) = √(1.1513² + 0.06²) → RD' ≈ 200.27.
        assert!((idle.rd - 200.27).abs() < 0.01, "RD' = {}", idle.rd);
        assert_eq!(decay(player, 1.0), idle);
        assert!(decay(player, 1e6).rd <= INITIAL_RD, "idle time never raises RD above 350");
        assert_eq!(decay(player, 0.0), player);
    }

    #[test]
    fn winning_raises_losing_lowers_and_games_narrow_the_deviation() {
        let (me, them) = (Rating::NEW, r(1500.0, 30.0));
        let won = update(me, &[(them, 1.0)], TAU);
        let lost = update(me, &[(them, 0.0)], TAU);
        let drew = update(me, &[(them, 0.5)], TAU);
        assert!(won.r > 1500.0 && lost.r < 1500.0, "{won:?} {lost:?}");
        assert!((drew.r - 1500.0).abs() < 1e-9, "{drew:?}");
        assert!(won.rd < INITIAL_RD && lost.rd < INITIAL_RD);
    }

    #[test]
    fn provisional_above_110_and_shown_with_a_question_mark() {
        assert!(Rating::NEW.is_provisional());
        assert_eq!(Rating { r: 1523.4, rd: 110.5, vol: 0.06 }.display(), "1523?");
        assert!(!r(1710.2, 110.0).is_provisional());
        assert_eq!(r(1710.2, 110.0).to_string(), "1710");
    }

    #[test]
    fn expected_score_is_a_half_between_equals() {
        assert!((Rating::NEW.expected(&Rating::NEW) - 0.5).abs() < 1e-12);
        assert!(r(1700.0, 30.0).expected(&r(1500.0, 30.0)) > 0.7);
    }
}
