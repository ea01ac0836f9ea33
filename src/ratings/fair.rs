//! Who is rated, and whether a game is (`docs/ratings.md`, "Who is rated"): the fair-edge
//! rules that need no store, as decisions over what the integration knows of a finished
//! game's seats.

use crate::games::GameKind;

use super::pool::{Kind, Pool};
use super::result::{Finish, RatedResult, ResultError};

/// How a game came to its end, as the rating rules tell them apart.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it (a knock-out, the last round, a draw vote).
    Rules,
    /// The host ended it and named a result (a duel's winner or draw, the melee's standings).
    HostWithResult,
    /// The host ended it without a result: nothing to rate.
    HostWithoutResult,
    /// Every opponent of the last player standing was kicked out: a win nobody played for.
    KickOut,
}

/// The profile rated for a seat: its first binder, bound before the game started (a claim
/// after the start is history only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binder<P> {
    pub participant: P,
    pub kind: Kind,
}

/// How the binder's time in the seat ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SeatEnd {
    /// He played it to the end and the seat finished at `place` (1 first, equal places tie).
    Held { place: u32 },
    /// A substitute took the seat; the binder is rated at the place the standings gave him
    /// then, and the substitute not at all.
    Replaced { place_when_left: u32 },
}

impl SeatEnd {
    fn place(self) -> u32 {
        match self {
            SeatEnd::Held { place } => place,
            SeatEnd::Replaced { place_when_left } => place_when_left,
        }
    }
}

/// One seat of a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRecord<P> {
    /// The seat's first binder, or none (a seat nobody bound before the start rates nobody).
    pub binder: Option<Binder<P>>,
    pub end: SeatEnd,
}

/// A finished game as the rating rules look at it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame<P> {
    pub game: GameKind,
    /// The lobby's `rated` setting.
    pub rated: bool,
    pub ending: Ending,
    /// When it ended (milliseconds since the Unix epoch): its place in the fold.
    pub ended_at: i64,
    pub seats: Vec<SeatRecord<P>>,
}

/// Why a finished game changes no rating.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unrated {
    #[error("the lobby was not rated")]
    NotRated,
    #[error("the host ended the game without a result")]
    NoResult,
    #[error("the game ended by a kick-out of every opponent")]
    KickOut,
    #[error("humans and bots played each other")]
    MixedKinds,
    #[error("fewer than two seats had a rated player")]
    TooFewRated,
    /// The seats break a rule of every rated result (a profile in two seats): a fault in
    /// what was fed, to be logged.
    #[error("the seats cannot be rated: {0}")]
    Invalid(ResultError),
}

impl<P: PartialEq> FinishedGame<P> {
    /// The result to fold, or why there is none. Every binder is rated at his seat's place
    /// (the final one, or the one he had when a substitute took over); the pool is the game's
    /// and the binders' one kind.
    pub fn rated_result(self) -> Result<RatedResult<P>, Unrated> {
        if !self.rated {
            return Err(Unrated::NotRated);
        }
        match self.ending {
            Ending::Rules | Ending::HostWithResult => {}
            Ending::HostWithoutResult => return Err(Unrated::NoResult),
            Ending::KickOut => return Err(Unrated::KickOut),
        }
        let kinds = self
            .seats
            .iter()
            .filter_map(|s| s.binder.as_ref().map(|b| b.kind));
        let kind = match Kind::common(kinds) {
            Ok(Some(kind)) => kind,
            Ok(None) => return Err(Unrated::TooFewRated),
            Err(_) => return Err(Unrated::MixedKinds),
        };
        let finishes: Vec<Finish<P>> = self
            .seats
            .into_iter()
            .filter_map(|seat| {
                seat.binder.map(|binder| Finish {
                    participant: binder.participant,
                    place: seat.end.place(),
                })
            })
            .collect();
        if finishes.len() < 2 {
            return Err(Unrated::TooFewRated);
        }
        RatedResult::new(Pool::new(self.game, kind), self.ended_at, finishes)
            .map_err(Unrated::Invalid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(participant: u8, kind: Kind, end: SeatEnd) -> SeatRecord<u8> {
        SeatRecord {
            binder: Some(Binder { participant, kind }),
            end,
        }
    }

    fn held(place: u32) -> SeatEnd {
        SeatEnd::Held { place }
    }

    fn game(ending: Ending, seats: Vec<SeatRecord<u8>>) -> FinishedGame<u8> {
        FinishedGame {
            game: GameKind::CrossingSwords,
            rated: true,
            ending,
            ended_at: 1_000,
            seats,
        }
    }

    fn places(result: &RatedResult<u8>) -> Vec<(u8, u32)> {
        result
            .finishes()
            .iter()
            .map(|f| (f.participant, f.place))
            .collect()
    }

    #[test]
    fn a_game_with_a_result_is_rated_in_its_kinds_pool() {
        let seats = vec![
            seat(1, Kind::Bots, held(2)),
            seat(2, Kind::Bots, held(1)),
            seat(3, Kind::Bots, held(2)),
        ];
        for ending in [Ending::Rules, Ending::HostWithResult] {
            let result = game(ending, seats.clone()).rated_result().unwrap();
            assert_eq!(result.pool().to_string(), "crossing-swords/bots");
            assert_eq!(result.ended_at(), 1_000);
            assert_eq!(places(&result), [(1, 2), (2, 1), (3, 2)]);
        }
    }

    #[test]
    fn the_replaced_binder_is_rated_as_placed_when_he_left_and_his_substitute_not_at_all() {
        let seats = vec![
            seat(1, Kind::Humans, held(1)),
            // Third when he left; the substitute who played the seat on to second is nobody
            // to the ratings.
            seat(2, Kind::Humans, SeatEnd::Replaced { place_when_left: 3 }),
            seat(3, Kind::Humans, held(3)),
        ];
        let result = game(Ending::Rules, seats).rated_result().unwrap();
        assert_eq!(places(&result), [(1, 1), (2, 3), (3, 3)]);
    }

    #[test]
    fn a_seat_nobody_bound_before_the_start_rates_nobody() {
        let unbound = SeatRecord {
            binder: None,
            end: held(1),
        };
        let seats = vec![
            unbound.clone(),
            seat(2, Kind::Humans, held(2)),
            seat(3, Kind::Humans, held(3)),
        ];
        let result = game(Ending::Rules, seats).rated_result().unwrap();
        assert_eq!(places(&result), [(2, 2), (3, 3)]);
        let lonely = vec![unbound.clone(), seat(2, Kind::Humans, held(2))];
        assert_eq!(
            game(Ending::Rules, lonely).rated_result(),
            Err(Unrated::TooFewRated)
        );
        assert_eq!(
            game(Ending::Rules, vec![unbound.clone(), unbound]).rated_result(),
            Err(Unrated::TooFewRated)
        );
    }

    #[test]
    fn unrated_games_say_why() {
        let seats = vec![
            seat(1, Kind::Humans, held(1)),
            seat(2, Kind::Humans, held(2)),
        ];
        let mut unrated = game(Ending::Rules, seats.clone());
        unrated.rated = false;
        assert_eq!(unrated.rated_result(), Err(Unrated::NotRated));
        assert_eq!(
            game(Ending::HostWithoutResult, seats.clone()).rated_result(),
            Err(Unrated::NoResult)
        );
        assert_eq!(
            game(Ending::KickOut, seats).rated_result(),
            Err(Unrated::KickOut)
        );
        let mixed = vec![seat(1, Kind::Humans, held(1)), seat(2, Kind::Bots, held(2))];
        assert_eq!(
            game(Ending::Rules, mixed).rated_result(),
            Err(Unrated::MixedKinds)
        );
        let twice = vec![
            seat(1, Kind::Humans, held(1)),
            seat(1, Kind::Humans, held(2)),
        ];
        assert_eq!(
            game(Ending::Rules, twice).rated_result(),
            Err(Unrated::Invalid(ResultError::Twice))
        );
    }
}
