//! Glicko-2 for the duels (`docs/ratings.md`, "Glicko-2"): Glickman's system with the
//! parameters Herald rates by, each game its own rating period, the idle growth before it.
//! The period's arithmetic is the crate `skillratings`'; the idle growth is applied here
//! around it, since the crate grows a deviation by whole periods only.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// The factor between Glickman's display scale (1500 ± 350) and the internal one, as his
/// paper and the crate use it.
const SCALE: f64 = 173.7178;

/// The rating periods one idle day is worth: the deviation of a player who has not played
/// for a year (365 × 0.21436 ≈ 78 periods) at the start volatility grows from 50 to about 100.
pub const PERIODS_PER_DAY: f64 = 0.21436;

/// τ, which holds back how fast the volatility moves.
pub const TAU: f64 = 0.5;

/// The deviation a rating never grows beyond: a newcomer's.
pub const MAX_DEVIATION: f64 = 350.0;

/// A rating with a deviation at or above this is provisional ("1500?").
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

const MILLIS_PER_DAY: f64 = 86_400_000.0;

/// A Glicko-2 rating on the display scale.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glicko2 {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// A game's result for one side: a win scores 1, a draw ½, a loss 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    /// The other side's score of the same game.
    pub fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }

    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }
}

impl Glicko2 {
    /// Everyone's first rating: 1500, deviation 350, volatility 0.06.
    pub const START: Glicko2 = Glicko2 {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    /// Whether the rating is still provisional: deviation 110 or more.
    pub fn is_provisional(self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating after `idle_millis` without a game: the deviation grows as
    /// φ' = √(φ² + n·σ²) on the internal scale, n = idle days × [`PERIODS_PER_DAY`], up to
    /// [`MAX_DEVIATION`] (a deviation already above it is left as it is). A negative idle time
    /// (results fed out of order) counts as none.
    pub fn grown(self, idle_millis: i64) -> Glicko2 {
        let periods = (idle_millis.max(0) as f64 / MILLIS_PER_DAY) * PERIODS_PER_DAY;
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Glicko2 {
            deviation: grown.min(MAX_DEVIATION.max(self.deviation)),
            ..self
        }
    }

    /// The rating after one rating period in which this player met each opponent of
    /// `games` once with the given score. Herald's periods hold one game each; several are
    /// what Glickman's worked example holds.
    pub fn after_period(self, games: &[(Glicko2, Score)]) -> Glicko2 {
        let games: Vec<(Glicko2Rating, Outcomes)> = games
            .iter()
            .map(|(opponent, score)| (opponent.crate_rating(), score.outcome()))
            .collect();
        let config = Glicko2Config {
            tau: TAU,
            ..Glicko2Config::new()
        };
        let after = glicko2_rating_period(&self.crate_rating(), &games, &config);
        Glicko2 {
            rating: after.rating,
            deviation: after.deviation,
            volatility: after.volatility,
        }
    }

    fn crate_rating(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// One rated duel: both sides' deviations grow with their own idle time to the game's end,
/// then the game is one rating period for each, against the other's grown rating. `first`
/// and `second` are each `(rating before, idle milliseconds)`; `score` is the first side's.
pub fn duel(first: (Glicko2, i64), second: (Glicko2, i64), score: Score) -> (Glicko2, Glicko2) {
    let a = first.0.grown(first.1);
    let b = second.0.grown(second.1);
    (
        a.after_period(&[(b, score)]),
        b.after_period(&[(a, score.reversed())]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 86_400_000;

    fn close(actual: f64, expected: f64, within: f64) {
        assert!(
            (actual - expected).abs() <= within,
            "{actual} is not {expected} ± {within}"
        );
    }

    /// Glickman, "Example of the Glicko-2 system" (2013), section "Example calculation": a
    /// player at 1500/200/0.06 plays 1400/30 (wins), 1550/100 (loses) and 1700/300 (loses) in
    /// one period, τ = 0.5, and ends at 1464.06/151.52/0.05999.
    #[test]
    fn glickmans_worked_example_ends_at_1464_06_151_52_0_05999() {
        let player = Glicko2 {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2 {
            rating,
            deviation,
            volatility: 0.06,
        };
        let after = player.after_period(&[
            (opponent(1400.0, 30.0), Score::Win),
            (opponent(1550.0, 100.0), Score::Loss),
            (opponent(1700.0, 300.0), Score::Loss),
        ]);
        close(after.rating, 1464.06, 0.01);
        close(after.deviation, 151.52, 0.01);
        close(after.volatility, 0.05999, 0.000_01);
    }

    #[test]
    fn idle_time_grows_the_deviation_by_0_21436_periods_a_day() {
        let player = Glicko2 {
            rating: 1700.0,
            deviation: 50.0,
            volatility: 0.06,
        };
        assert_eq!(player.grown(0), player);
        // A year: n = 365 × 0.21436 = 78.2414 periods; φ = 50 / 173.7178 = 0.287823;
        // φ' = √(0.287823² + 78.2414 × 0.06²) = √(0.082842 + 0.281669) = 0.603748, × 173.7178
        // = 104.88.
        let year = player.grown(365 * DAY);
        close(year.deviation, 104.88, 0.01);
        assert_eq!((year.rating, year.volatility), (1700.0, 0.06));
        // Half a day is half of a day's growth on φ².
        let phi2 = |g: Glicko2| (g.deviation / SCALE).powi(2);
        close(
            phi2(player.grown(DAY / 2)) - phi2(player),
            0.5 * PERIODS_PER_DAY * 0.06 * 0.06,
            1e-12,
        );
        // Out-of-order results add nothing.
        assert_eq!(player.grown(-DAY), player);
    }

    #[test]
    fn idle_growth_stops_at_350() {
        let player = Glicko2 {
            rating: 1500.0,
            deviation: 300.0,
            volatility: 0.06,
        };
        // φ = 1.726939; reaching 350 (φ = 2.014762) takes (2.014762² − 1.726939²) / 0.06²
        // = 299.2 periods, 1,396 days: ten years is past it.
        assert_eq!(player.grown(3650 * DAY).deviation, 350.0);
        assert!(player.grown(1000 * DAY).deviation < 350.0);
        assert_eq!(Glicko2::START.grown(3650 * DAY), Glicko2::START);
    }

    #[test]
    fn a_draw_between_equals_moves_neither_rating_and_narrows_both() {
        let (a, b) = duel((Glicko2::START, 0), (Glicko2::START, 0), Score::Draw);
        assert_eq!(a, b);
        close(a.rating, 1500.0, 1e-9);
        assert!(a.deviation < 350.0);
    }

    #[test]
    fn a_win_and_a_loss_mirror_each_other() {
        let (w, l) = duel((Glicko2::START, 0), (Glicko2::START, 0), Score::Win);
        // The crate's own two-player example: 1662 and 1338, deviations 290.
        close(w.rating, 1662.31, 0.01);
        close(l.rating, 1337.69, 0.01);
        close(w.deviation, 290.32, 0.01);
        close(w.rating - 1500.0, 1500.0 - l.rating, 1e-9);
        let (l2, w2) = duel((Glicko2::START, 0), (Glicko2::START, 0), Score::Loss);
        assert_eq!((w2, l2), (w, l));
    }

    #[test]
    fn the_idle_side_plays_with_its_grown_deviation() {
        let settled = Glicko2 {
            rating: 1600.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        let (fresh, _) = duel((settled, 0), (Glicko2::START, 0), Score::Win);
        let (rusty, _) = duel((settled, 400 * DAY), (Glicko2::START, 0), Score::Win);
        // A larger deviation going in means a larger step for the same win.
        assert!(rusty.rating - settled.rating > fresh.rating - settled.rating);
        assert!(rusty.deviation > fresh.deviation);
    }

    #[test]
    fn provisional_from_a_deviation_of_110() {
        let at = |deviation| Glicko2 {
            deviation,
            ..Glicko2::START
        };
        assert!(at(350.0).is_provisional());
        assert!(at(110.0).is_provisional());
        assert!(!at(109.99).is_provisional());
    }
}
