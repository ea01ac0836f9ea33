//! Weng-Lin for the melee (`docs/ratings.md`, "Weng-Lin"): the Bradley-Terry model with full
//! pairing (every player compared with every other), each player a team of one, ranked by
//! the final standings with equal places tied. The arithmetic is the crate `skillratings`'
//! multi-team function; Herald sets its parameters.

use serde::{Deserialize, Serialize};
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// β, the skill difference that makes a win about 2 in 3 likely: 25/6.
pub const BETA: f64 = 25.0 / 6.0;

/// κ, the floor under the factor that shrinks σ² in one game, so that σ never collapses:
/// 0.0001 (the crate's default is 0.000001).
pub const KAPPA: f64 = 0.0001;

/// A rating with σ above this is provisional.
pub const PROVISIONAL_SIGMA: f64 = 4.0;

/// A Weng-Lin rating: the skill estimate μ and its uncertainty σ.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WengLin {
    pub mu: f64,
    pub sigma: f64,
}

impl WengLin {
    /// Everyone's first rating: μ 25, σ 25/3.
    pub const START: WengLin = WengLin {
        mu: 25.0,
        sigma: 25.0 / 3.0,
    };

    /// Whether the rating is still provisional: σ above 4.
    pub fn is_provisional(self) -> bool {
        self.sigma > PROVISIONAL_SIGMA
    }

    /// What the leaderboard ranks by: μ − 3σ, a skill the player is very likely above (0 for a
    /// newcomer).
    pub fn conservative(self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

/// One rated game: each player's rating before it and place in the final standings (1 is
/// first; equal places tie), in any order; the ratings after it, in the same order.
pub fn melee(players: &[(WengLin, u32)]) -> Vec<WengLin> {
    let teams: Vec<[WengLinRating; 1]> = players
        .iter()
        .map(|(rating, _)| {
            [WengLinRating {
                rating: rating.mu,
                uncertainty: rating.sigma,
            }]
        })
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(players)
        .map(|(team, (_, place))| (&team[..], MultiTeamOutcome::new(*place as usize)))
        .collect();
    let config = WengLinConfig {
        beta: BETA,
        uncertainty_tolerance: KAPPA,
    };
    weng_lin_multi_team(&ranked, &config)
        .into_iter()
        .map(|team| WengLin {
            mu: team[0].rating,
            sigma: team[0].uncertainty,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64) {
        assert!(
            (actual - expected).abs() <= 1e-5,
            "{actual} is not {expected}"
        );
    }

    /// Three newcomers; A first, B and C tied second. Worked by hand from Weng and Lin's
    /// Bradley-Terry full pairing (their Algorithm 1), one player per team:
    /// - every pair: c² = 2β² + σᵢ² + σ_q² = 2·625/36 + 2·625/9 = 3125/18, c = 13.176157;
    ///   σ²/c² = (625/9)/(3125/18) = 2/5; σ²/c = 69.444444 / 13.176157 = 5.270463; between
    ///   equal μ, p = e^(μ/c) / (e^(μ/c) + e^(μ/c)) = ½.
    /// - γ = σ/c = √(2/5) = 0.632456, so each opponent adds η = γ·(σ²/c²)·p(1 − p)
    ///   = 0.632456 × 0.4 × 0.25 = 0.0632456 to Δ, whatever the result: Δ = 0.1264911 for
    ///   each of the three, and σ'² = σ²·max(1 − Δ, κ) = 69.444444 × 0.8735089 = 60.660341,
    ///   σ' = 7.788475.
    /// - Ω = Σ σ²/c · (s − p), s = 1 above, ½ tied, 0 below: A beats both, Ω = 2 × 5.270463 ×
    ///   ½ = 5.270463, μ' = 30.270463; B loses to A and ties C, Ω = 5.270463 × (0 − ½) +
    ///   5.270463 × (½ − ½) = −2.635231, μ' = 22.364769; C the same.
    #[test]
    fn three_newcomers_with_a_tie_for_second_match_the_hand_arithmetic() {
        let after = melee(&[
            (WengLin::START, 1),
            (WengLin::START, 2),
            (WengLin::START, 2),
        ]);
        close(after[0].mu, 30.270463);
        close(after[1].mu, 22.364769);
        close(after[2].mu, 22.364769);
        for rating in &after {
            close(rating.sigma, 7.788475);
        }
    }

    #[test]
    fn places_are_read_by_rank_not_by_position_in_the_list() {
        let after = melee(&[(WengLin::START, 2), (WengLin::START, 1)]);
        // Two newcomers: Ω = ±5.270463 × ½, Δ = 0.0632456, σ' = √(69.444444 × 0.9367544).
        close(after[1].mu, 25.0 + 2.635231);
        close(after[0].mu, 25.0 - 2.635231);
        close(after[0].sigma, (69.444_444_4_f64 * 0.936_754_4).sqrt());
    }

    #[test]
    fn a_tie_between_equals_moves_no_mu() {
        let after = melee(&[(WengLin::START, 1), (WengLin::START, 1)]);
        close(after[0].mu, 25.0);
        close(after[1].mu, 25.0);
        assert!(after[0].sigma < WengLin::START.sigma);
    }

    #[test]
    fn an_upset_moves_more_than_the_expected_result() {
        let strong = WengLin {
            mu: 35.0,
            sigma: 3.0,
        };
        let weak = WengLin {
            mu: 20.0,
            sigma: 3.0,
        };
        let expected = melee(&[(strong, 1), (weak, 2)]);
        let upset = melee(&[(strong, 2), (weak, 1)]);
        assert!(strong.mu - upset[0].mu > expected[0].mu - strong.mu);
    }

    /// κ = 0.0001 floors the factor on σ²: a very uncertain player among fifteen certain ones
    /// of the same μ gathers Δ ≈ 15 × ¼ > 1, so σ' = σ·√κ = σ / 100 (with the crate's default
    /// κ it would be σ / 1000).
    #[test]
    fn kappa_keeps_sigma_from_collapsing() {
        let unsure = WengLin {
            mu: 25.0,
            sigma: 1000.0,
        };
        let sure = WengLin {
            mu: 25.0,
            sigma: 0.01,
        };
        let mut players = vec![(unsure, 1)];
        players.extend((2..=16).map(|place| (sure, place)));
        let after = melee(&players);
        close(after[0].sigma, 10.0);
    }

    #[test]
    fn provisional_above_a_sigma_of_4_and_ranked_by_mu_minus_3_sigma() {
        assert!(WengLin::START.is_provisional());
        assert!(
            WengLin {
                mu: 30.0,
                sigma: 4.01
            }
            .is_provisional()
        );
        assert!(
            !WengLin {
                mu: 30.0,
                sigma: 4.0
            }
            .is_provisional()
        );
        close(WengLin::START.conservative(), 0.0);
        close(
            WengLin {
                mu: 30.0,
                sigma: 2.0,
            }
            .conservative(),
            24.0,
        );
    }
}
