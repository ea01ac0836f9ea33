//! A participant's rating in one pool, what the API shows of it (a rating entry), and a game's
//! change to it (`docs/ratings.md`, "Entries and changes").

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::glicko2::Glicko2;
use super::pool::{Pool, System};
use super::weng_lin::WengLin;

/// The numbers of a rating, in its pool's system.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Skill {
    Glicko2(Glicko2),
    WengLin(WengLin),
}

impl Skill {
    /// Everyone's first rating in a pool of `system`.
    pub fn start(system: System) -> Skill {
        match system {
            System::Glicko2 => Skill::Glicko2(Glicko2::START),
            System::WengLin => Skill::WengLin(WengLin::START),
        }
    }

    fn system(self) -> System {
        match self {
            Skill::Glicko2(_) => System::Glicko2,
            Skill::WengLin(_) => System::WengLin,
        }
    }
}

/// One participant's rating in one pool: everything the fold keeps between games, so that
/// the stored ratings plus the next result give exactly what a rebuild gives. Stored as the
/// columns of its [`RatingEntry`] and [`Rating::last_game_at`], read back by
/// [`Rating::from_columns`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rating {
    pool: Pool,
    skill: Skill,
    games: u32,
    /// When the participant's last rated game in this pool ended (milliseconds since the Unix
    /// epoch): Glicko-2's idle growth runs from there.
    last_game_at: Option<i64>,
}

/// Stored columns that do not make a rating of their pool.
#[derive(Copy, Clone, Debug, PartialEq, thiserror::Error)]
pub enum RatingError {
    #[error("a Glicko-2 rating has a volatility, a Weng-Lin rating none")]
    Volatility,
    #[error("a rating's numbers are finite and its deviation positive")]
    NotFinite,
}

impl Rating {
    /// A newcomer's rating in `pool`: no games yet.
    pub fn start(pool: Pool) -> Rating {
        Rating {
            pool,
            skill: Skill::start(pool.system()),
            games: 0,
            last_game_at: None,
        }
    }

    /// A rating read back from the columns it was stored as (those of its [`RatingEntry`]
    /// and [`Rating::last_game_at`]): `volatility` is present exactly in a Glicko-2 pool.
    pub fn from_columns(
        pool: Pool,
        rating: f64,
        deviation: f64,
        volatility: Option<f64>,
        games: u32,
        last_game_at: Option<i64>,
    ) -> Result<Rating, RatingError> {
        let finite = rating.is_finite() && deviation.is_finite() && deviation > 0.0;
        if !finite || volatility.is_some_and(|v| !v.is_finite()) {
            return Err(RatingError::NotFinite);
        }
        let skill = match (pool.system(), volatility) {
            (System::Glicko2, Some(volatility)) => Skill::Glicko2(Glicko2 {
                rating,
                deviation,
                volatility,
            }),
            (System::WengLin, None) => Skill::WengLin(WengLin {
                mu: rating,
                sigma: deviation,
            }),
            (System::Glicko2, None) | (System::WengLin, Some(_)) => {
                return Err(RatingError::Volatility);
            }
        };
        Ok(Rating {
            pool,
            skill,
            games,
            last_game_at,
        })
    }

    /// The rating after a game that ended at `ended_at` left it at `skill`. The system
    /// cannot change: the fold only hands back what the pool's system computed.
    pub(super) fn after_game(self, skill: Skill, ended_at: i64) -> Rating {
        debug_assert_eq!(skill.system(), self.pool.system());
        Rating {
            skill,
            games: self.games + 1,
            last_game_at: Some(ended_at),
            ..self
        }
    }

    pub fn pool(&self) -> Pool {
        self.pool
    }

    pub fn skill(&self) -> Skill {
        self.skill
    }

    /// The rated games played in this pool.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// When the last of them ended (milliseconds since the Unix epoch); `None` before the first.
    pub fn last_game_at(&self) -> Option<i64> {
        self.last_game_at
    }

    /// Provisional: a Glicko-2 deviation of 110 or more, a Weng-Lin σ above 4.
    pub fn is_provisional(&self) -> bool {
        match self.skill {
            Skill::Glicko2(g) => g.is_provisional(),
            Skill::WengLin(w) => w.is_provisional(),
        }
    }

    /// What the leaderboard ranks by, highest first: the Glicko-2 rating, Weng-Lin's μ − 3σ.
    pub fn score(&self) -> f64 {
        match self.skill {
            Skill::Glicko2(g) => g.rating,
            Skill::WengLin(w) => w.conservative(),
        }
    }

    /// The rating for people: `1500?`, `1723`, `18.4`, `0.0?` (see [`Shown`]).
    pub fn shown(&self) -> Shown {
        Shown {
            score: self.score(),
            system: self.skill.system(),
            provisional: self.is_provisional(),
        }
    }

    /// The rating as the API shows it.
    pub fn entry(&self) -> RatingEntry {
        let (rating, deviation, volatility) = match self.skill {
            Skill::Glicko2(g) => (g.rating, g.deviation, Some(g.volatility)),
            Skill::WengLin(w) => (w.mu, w.sigma, None),
        };
        RatingEntry {
            pool: self.pool,
            rating,
            deviation,
            volatility,
            games: self.games,
            provisional: self.is_provisional(),
        }
    }

    /// The leaderboard's order: settled ratings before provisional ones, then the higher
    /// [`Rating::score`] first, then more games first. Ratings equal in all three compare
    /// equal (the leaderboard then orders by participant).
    pub fn board_order(&self, other: &Rating) -> Ordering {
        self.is_provisional()
            .cmp(&other.is_provisional())
            .then_with(|| other.score().total_cmp(&self.score()))
            .then_with(|| other.games.cmp(&self.games))
    }
}

/// A rating as people read it: the Glicko-2 rating rounded to a whole number, Weng-Lin's
/// μ − 3σ to one decimal, with `?` after it while provisional.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Shown {
    pub(super) score: f64,
    pub(super) system: System,
    pub(super) provisional: bool,
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.system {
            System::Glicko2 => write!(f, "{:.0}", self.score)?,
            System::WengLin => write!(f, "{:.1}", self.score)?,
        }
        match self.provisional {
            true => f.write_str("?"),
            false => Ok(()),
        }
    }
}

/// A rating entry as the API shows it: `{"pool", "rating", "deviation", "volatility",
/// "games", "provisional"}`. Weng-Lin's `rating` is μ, its `deviation` σ, its `volatility`
/// null.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingEntry {
    pub pool: Pool,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: Option<f64>,
    pub games: u32,
    pub provisional: bool,
}

/// What one rated game did to one participant's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange<P> {
    pub participant: P,
    /// The rating as it stood before the game (as stored: Glicko-2's idle growth is part of
    /// the change).
    pub before: Rating,
    pub after: Rating,
}

impl<P> RatingChange<P> {
    /// The change as the API shows it; the integration adds the seat's `player` and the
    /// profile's `handle` beside it (`#[serde(flatten)]`).
    pub fn entries(&self) -> EntryChange {
        EntryChange {
            before: self.before.entry(),
            after: self.after.entry(),
        }
    }
}

/// `{"before", "after"}`, each a [`RatingEntry`]: one element of a result's
/// `rating_changes` without its `player` and `handle`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntryChange {
    pub before: RatingEntry,
    pub after: RatingEntry,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::games::GameKind;
    use crate::ratings::Kind;

    fn duels() -> Pool {
        Pool::new(GameKind::Bst, Kind::Humans)
    }

    fn melee() -> Pool {
        Pool::new(GameKind::CrossingSwords, Kind::Bots)
    }

    #[test]
    fn a_newcomer_shows_1500_question_mark_and_a_melee_newcomer_0_0_question_mark() {
        assert_eq!(Rating::start(duels()).shown().to_string(), "1500?");
        assert_eq!(Rating::start(melee()).shown().to_string(), "0.0?");
        let settled = Rating::from_columns(duels(), 1723.4, 62.0, Some(0.06), 30, Some(9)).unwrap();
        assert_eq!(settled.shown().to_string(), "1723");
        let melee = Rating::from_columns(melee(), 30.0, 3.5, None, 12, Some(9)).unwrap();
        assert_eq!(melee.shown().to_string(), "19.5");
    }

    #[test]
    fn an_entry_is_the_contracts_json() {
        let entry = Rating::start(duels()).entry();
        assert_eq!(
            serde_json::to_value(&entry).unwrap(),
            json!({"pool": "bst/humans", "rating": 1500.0, "deviation": 350.0,
                   "volatility": 0.06, "games": 0, "provisional": true})
        );
        let entry = Rating::start(melee()).entry();
        assert_eq!(
            serde_json::to_value(&entry).unwrap(),
            json!({"pool": "crossing-swords/bots", "rating": 25.0, "deviation": 25.0 / 3.0,
                   "volatility": null, "games": 0, "provisional": true})
        );
        let back: RatingEntry =
            serde_json::from_value(serde_json::to_value(&entry).unwrap()).unwrap();
        assert_eq!(back, entry);
    }

    /// `rating_changes: [{"player", "handle", "before", "after"}]`: the integration's element
    /// is its seat and handle with the change flattened beside them.
    #[test]
    fn a_change_flattens_into_a_rating_changes_element() {
        #[derive(Serialize)]
        struct Element<'a> {
            player: &'a str,
            handle: &'a str,
            #[serde(flatten)]
            change: EntryChange,
        }
        let before = Rating::start(duels());
        let after = before.after_game(Skill::Glicko2(Glicko2::START), 7);
        let change = RatingChange {
            participant: 3u8,
            before,
            after,
        };
        let element = serde_json::to_value(Element {
            player: "p",
            handle: "ann",
            change: change.entries(),
        })
        .unwrap();
        let keys: Vec<&str> = element
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys.len(), 4);
        for key in ["player", "handle", "before", "after"] {
            assert!(keys.contains(&key), "{key}");
        }
        assert_eq!(element["before"]["games"], 0);
        assert_eq!(element["after"]["games"], 1);
    }

    #[test]
    fn stored_columns_read_back_only_as_a_rating_of_their_pool() {
        let rating = Rating::from_columns(duels(), 1600.0, 80.0, Some(0.059), 4, Some(5)).unwrap();
        let entry = rating.entry();
        let again = Rating::from_columns(
            entry.pool,
            entry.rating,
            entry.deviation,
            entry.volatility,
            entry.games,
            rating.last_game_at(),
        )
        .unwrap();
        assert_eq!(again, rating);
        assert_eq!(
            Rating::from_columns(duels(), 1600.0, 80.0, None, 4, None),
            Err(RatingError::Volatility)
        );
        assert_eq!(
            Rating::from_columns(melee(), 25.0, 8.0, Some(0.06), 4, None),
            Err(RatingError::Volatility)
        );
        assert_eq!(
            Rating::from_columns(melee(), f64::NAN, 8.0, None, 4, None),
            Err(RatingError::NotFinite)
        );
        assert_eq!(
            Rating::from_columns(melee(), 25.0, 0.0, None, 4, None),
            Err(RatingError::NotFinite)
        );
    }

    #[test]
    fn the_board_puts_settled_ratings_first_then_the_higher_score() {
        let at = |rating, deviation, games| {
            Rating::from_columns(duels(), rating, deviation, Some(0.06), games, None).unwrap()
        };
        let settled_low = at(1400.0, 60.0, 20);
        let provisional_high = at(2000.0, 200.0, 2);
        let settled_high = at(1800.0, 60.0, 20);
        let mut board = [provisional_high, settled_low, settled_high];
        board.sort_by(Rating::board_order);
        assert_eq!(board, [settled_high, settled_low, provisional_high]);
        // Weng-Lin ranks by μ − 3σ: 30 ± 3 (21) below 26 ± 1 (23).
        let wide = Rating::from_columns(melee(), 30.0, 3.0, None, 9, None).unwrap();
        let narrow = Rating::from_columns(melee(), 26.0, 1.0, None, 9, None).unwrap();
        assert_eq!(narrow.board_order(&wide), Ordering::Less);
    }
}
