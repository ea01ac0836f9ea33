//! A finished rated game as the fold reads it (`docs/ratings.md`, "The fold"): its pool, when
//! it ended, and each rated participant's place.

use super::pool::{Pool, System};

/// One rated participant's place in a game's final standings: 1 is first, equal places tie.
/// A duel's winner is 1 and its loser 2; a drawn duel places both 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finish<P> {
    pub participant: P,
    pub place: u32,
}

/// A duel's result, from its first side's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DuelOutcome {
    FirstWon,
    SecondWon,
    Draw,
}

/// A game to rate: checked when made, so that rating it cannot fail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedResult<P> {
    pool: Pool,
    ended_at: i64,
    finishes: Vec<Finish<P>>,
}

/// Why a result cannot be rated as given: each is a fault in what the integration fed, not a
/// rating rule (those are [`super::Unrated`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResultError {
    #[error("a rated game has at least two rated participants, not {0}")]
    TooFew(usize),
    #[error("a participant is rated once per game")]
    Twice,
    #[error("places count from 1")]
    PlaceZero,
    #[error("a duel's pool rates exactly two participants, not {0}")]
    NotADuel(usize),
}

impl<P: PartialEq> RatedResult<P> {
    /// The game of `pool` that ended at `ended_at` (milliseconds since the Unix epoch) with
    /// these places. At least two participants, each once, places from 1; exactly two in a
    /// Glicko-2 pool.
    pub fn new(
        pool: Pool,
        ended_at: i64,
        finishes: Vec<Finish<P>>,
    ) -> Result<RatedResult<P>, ResultError> {
        if finishes.len() < 2 {
            return Err(ResultError::TooFew(finishes.len()));
        }
        if pool.system() == System::Glicko2 && finishes.len() != 2 {
            return Err(ResultError::NotADuel(finishes.len()));
        }
        if finishes.iter().any(|f| f.place == 0) {
            return Err(ResultError::PlaceZero);
        }
        let twice = finishes
            .iter()
            .enumerate()
            .any(|(i, f)| finishes[..i].iter().any(|g| g.participant == f.participant));
        if twice {
            return Err(ResultError::Twice);
        }
        Ok(RatedResult {
            pool,
            ended_at,
            finishes,
        })
    }

    /// A duel between `first` and `second`.
    pub fn duel(
        pool: Pool,
        ended_at: i64,
        first: P,
        second: P,
        outcome: DuelOutcome,
    ) -> Result<RatedResult<P>, ResultError> {
        let (a, b) = match outcome {
            DuelOutcome::FirstWon => (1, 2),
            DuelOutcome::SecondWon => (2, 1),
            DuelOutcome::Draw => (1, 1),
        };
        RatedResult::new(
            pool,
            ended_at,
            vec![
                Finish {
                    participant: first,
                    place: a,
                },
                Finish {
                    participant: second,
                    place: b,
                },
            ],
        )
    }
}

impl<P> RatedResult<P> {
    pub fn pool(&self) -> Pool {
        self.pool
    }

    /// When the game ended (milliseconds since the Unix epoch).
    pub fn ended_at(&self) -> i64 {
        self.ended_at
    }

    /// The rated participants with their places, as given.
    pub fn finishes(&self) -> &[Finish<P>] {
        &self.finishes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use crate::ratings::Kind;

    fn finish(participant: u8, place: u32) -> Finish<u8> {
        Finish { participant, place }
    }

    #[test]
    fn a_result_that_cannot_be_rated_is_refused_when_made() {
        let melee = Pool::new(GameKind::CrossingSwords, Kind::Humans);
        let duel = Pool::new(GameKind::Bst, Kind::Humans);
        assert_eq!(
            RatedResult::new(melee, 0, vec![finish(1, 1)]),
            Err(ResultError::TooFew(1))
        );
        assert_eq!(
            RatedResult::new(melee, 0, vec![finish(1, 1), finish(2, 2), finish(1, 3)]),
            Err(ResultError::Twice)
        );
        assert_eq!(
            RatedResult::new(melee, 0, vec![finish(1, 0), finish(2, 1)]),
            Err(ResultError::PlaceZero)
        );
        assert_eq!(
            RatedResult::new(duel, 0, vec![finish(1, 1), finish(2, 2), finish(3, 3)]),
            Err(ResultError::NotADuel(3))
        );
        assert!(RatedResult::new(melee, 0, vec![finish(1, 1), finish(2, 2), finish(3, 2)]).is_ok());
        let drawn = RatedResult::duel(duel, 5, 1u8, 2, DuelOutcome::Draw).unwrap();
        assert_eq!(drawn.finishes(), [finish(1, 1), finish(2, 1)]);
        let lost = RatedResult::duel(duel, 5, 1u8, 2, DuelOutcome::SecondWon).unwrap();
        assert_eq!(lost.finishes(), [finish(1, 2), finish(2, 1)]);
    }
}
