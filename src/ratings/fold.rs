//! Ratings as a pure fold over results in the order the games ended (`docs/ratings.md`, "The
//! fold"): the finish transaction folds one result into the stored ratings of its
//! participants, and `herald ratings rebuild` folds every stored result from nothing; both
//! are [`Ratings::apply`], so they reach the same values.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use super::board::Limit;
use super::glicko2::{self, Glicko2, Score};
use super::pool::{Pool, System};
use super::rating::{Rating, RatingChange, Skill};
use super::result::RatedResult;
use super::weng_lin::{self, WengLin};

/// Ratings by pool and participant: all of them (a rebuild), or just those a result needs
/// (the finish transaction loads its participants' stored ratings, applies the result and
/// stores the changes' `after`). A participant without a rating in a pool starts there at
/// [`Rating::start`].
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings<P> {
    pools: BTreeMap<Pool, BTreeMap<P, Rating>>,
}

impl<P: Ord> Default for Ratings<P> {
    fn default() -> Ratings<P> {
        Ratings {
            pools: BTreeMap::new(),
        }
    }
}

impl<P: Ord + Clone> Ratings<P> {
    pub fn new() -> Ratings<P> {
        Ratings::default()
    }

    /// Every rating reached by folding `results`, in the order given (the order the games
    /// ended), from nothing, with every change on the way in that order.
    pub fn rebuild<'a>(
        results: impl IntoIterator<Item = &'a RatedResult<P>>,
    ) -> (Ratings<P>, Vec<RatingChange<P>>)
    where
        P: 'a,
    {
        let mut ratings = Ratings::new();
        let mut changes = Vec::new();
        for result in results {
            changes.extend(ratings.apply(result));
        }
        (ratings, changes)
    }

    /// Puts a stored rating in (under its own pool), handing back the one it replaces.
    pub fn insert(&mut self, participant: P, rating: Rating) -> Option<Rating> {
        self.pools
            .entry(rating.pool())
            .or_default()
            .insert(participant, rating)
    }

    /// `participant`'s rating in `pool`, if he has one.
    pub fn get(&self, pool: Pool, participant: &P) -> Option<&Rating> {
        self.pools.get(&pool)?.get(participant)
    }

    /// Every rating of `pool`, by participant.
    pub fn pool(&self, pool: Pool) -> impl Iterator<Item = (&P, &Rating)> {
        self.pools.get(&pool).into_iter().flatten()
    }

    /// The pools that hold a rating.
    pub fn pools(&self) -> impl Iterator<Item = Pool> + '_ {
        self.pools.keys().copied()
    }

    /// `pool`'s leaderboard: [`Rating::board_order`], then participant, at most `limit`.
    pub fn leaderboard(&self, pool: Pool, limit: Limit) -> Vec<(&P, &Rating)> {
        let mut board: Vec<(&P, &Rating)> = self.pool(pool).collect();
        board.sort_by(|(p, a), (q, b)| a.board_order(b).then_with(|| p.cmp(q)));
        board.truncate(limit.get());
        board
    }

    /// Rates one finished game: every participant's rating in its pool moves, and the
    /// changes come back in the result's order of participants.
    pub fn apply(&mut self, result: &RatedResult<P>) -> Vec<RatingChange<P>> {
        let pool = result.pool();
        let ended_at = result.ended_at();
        let before: Vec<Rating> = result
            .finishes()
            .iter()
            .map(|f| {
                self.get(pool, &f.participant)
                    .copied()
                    .unwrap_or_else(|| Rating::start(pool))
            })
            .collect();
        let idle = |rating: &Rating| ended_at - rating.last_game_at().unwrap_or(ended_at);
        let skills = match pool.system() {
            System::Glicko2 => {
                let places = result.finishes();
                let score = match places[0].place.cmp(&places[1].place) {
                    Ordering::Less => Score::Win,
                    Ordering::Equal => Score::Draw,
                    Ordering::Greater => Score::Loss,
                };
                let side = |rating: &Rating| (glicko2_of(rating), idle(rating));
                let (a, b) = glicko2::duel(side(&before[0]), side(&before[1]), score);
                vec![Skill::Glicko2(a), Skill::Glicko2(b)]
            }
            System::WengLin => {
                let players: Vec<(WengLin, u32)> = before
                    .iter()
                    .zip(result.finishes())
                    .map(|(rating, finish)| (weng_lin_of(rating), finish.place))
                    .collect();
                weng_lin::melee(&players)
                    .into_iter()
                    .map(Skill::WengLin)
                    .collect()
            }
        };
        let mut changes = Vec::with_capacity(before.len());
        for ((finish, before), skill) in result.finishes().iter().zip(before).zip(skills) {
            let after = before.after_game(skill, ended_at);
            self.insert(finish.participant.clone(), after);
            changes.push(RatingChange {
                participant: finish.participant.clone(),
                before,
                after,
            });
        }
        changes
    }
}

// A rating's skill is of its pool's system by construction (`Rating::start`,
// `Rating::from_columns` and the fold itself make no other), and the fold reads each rating
// from the pool it is filed under.
fn glicko2_of(rating: &Rating) -> Glicko2 {
    match rating.skill() {
        Skill::Glicko2(g) => g,
        Skill::WengLin(_) => unreachable!("a Glicko-2 pool holds Glicko-2 ratings"),
    }
}

fn weng_lin_of(rating: &Rating) -> WengLin {
    match rating.skill() {
        Skill::WengLin(w) => w,
        Skill::Glicko2(_) => unreachable!("a Weng-Lin pool holds Weng-Lin ratings"),
    }
}

impl<P: Ord + Clone> FromIterator<(P, Rating)> for Ratings<P> {
    fn from_iter<I: IntoIterator<Item = (P, Rating)>>(ratings: I) -> Ratings<P> {
        let mut all = Ratings::new();
        for (participant, rating) in ratings {
            all.insert(participant, rating);
        }
        all
    }
}
