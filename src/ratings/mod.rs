//! Ratings: the pure arithmetic and rules of who is rated (`docs/ratings.md`). Glicko-2 rates
//! the duels, Weng-Lin the melee, one pool per game and kind; ratings are a fold over
//! results in the order the games ended, so the finish transaction and a rebuild from stored
//! results reach the same values. No I/O, clock, database or random numbers: the integration
//! feeds results and stores what comes back. The systems' arithmetic is the crate
//! `skillratings`'.

mod board;
mod fair;
mod fold;
pub mod glicko2;
mod pool;
mod rating;
mod result;
pub mod weng_lin;
mod words;

pub use board::{Limit, LimitError};
pub use fair::{Binder, Ending, FinishedGame, SeatEnd, SeatRecord, Unrated};
pub use fold::Ratings;
pub use glicko2::{Glicko2, Score};
pub use pool::{Kind, MixedKinds, Pool, PoolError, System};
pub use rating::{EntryChange, Rating, RatingChange, RatingEntry, RatingError, Shown, Skill};
pub use result::{DuelOutcome, Finish, RatedResult, ResultError};
pub use weng_lin::WengLin;
