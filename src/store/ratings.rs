//! Reading ratings: a pool's entries, a profile's ratings and history, a lobby's changes
//! (docs/ratings.md, "How the server stores them"). The finish transaction's writes are in
//! `rating_rows.rs`, the rebuild in `rating_rebuild.rs`; both read their rows as here.

use uuid::Uuid;

use super::columns::{Columns, Stored};
use super::{Store, StoreError};
use crate::ratings::{Pool, Rating};

/// A pool's entry with its profile's handle.
#[derive(Clone, Debug)]
pub struct BoardRow {
    pub profile: Uuid,
    pub handle: String,
    pub rating: Rating,
}

/// One rated game's change to a profile, with its game.
#[derive(Clone, Debug)]
pub struct ChangeHistoryRow {
    pub lobby: Uuid,
    pub player: Uuid,
    pub handle: String,
    pub ended_at: i64,
    pub before: Rating,
    pub after: Rating,
}

const POOL: &str = "SELECT r.profile_id, p.handle, r.pool, r.rating, r.deviation, r.volatility, \
    r.games, r.last_game_at FROM ratings r JOIN profiles p ON p.id = r.profile_id \
    WHERE r.pool = $1";

const OF_PROFILE: &str = "SELECT r.profile_id, p.handle, r.pool, r.rating, r.deviation, \
    r.volatility, r.games, r.last_game_at FROM ratings r JOIN profiles p ON p.id = r.profile_id \
    WHERE r.profile_id = $1 ORDER BY r.pool";

pub(super) const ALL: &str = "SELECT r.profile_id, p.handle, r.pool, r.rating, r.deviation, r.volatility, \
    r.games, r.last_game_at FROM ratings r JOIN profiles p ON p.id = r.profile_id";

/// Changes with their results, by `$WHERE`.
pub(super) const CHANGES: &str = "SELECT c.result_seq, c.ordinal, c.profile_id, c.player_id, c.place, \
    p.handle, x.lobby_id, x.pool, x.ended_at, c.before_rating, c.before_deviation, \
    c.before_volatility, c.before_games, c.before_last_game_at, c.after_rating, \
    c.after_deviation, c.after_volatility, c.after_games \
    FROM rating_changes c JOIN rated_results x ON x.seq = c.result_seq \
    JOIN profiles p ON p.id = c.profile_id";

fn rating_of(row: &Columns<'_, impl Stored + ?Sized>) -> Result<Rating, StoreError> {
    let pool: Pool = row
        .text("pool")?
        .parse()
        .map_err(|e| row.corrupt("pool", e))?;
    Rating::from_columns(
        pool,
        row.real("rating")?,
        row.real("deviation")?,
        row.real_or_null("volatility")?,
        row.count("games")?,
        row.int_or_null("last_game_at")?,
    )
    .map_err(|e| row.corrupt("rating", e))
}

pub(super) fn board_row(row: &(impl Stored + ?Sized)) -> Result<BoardRow, StoreError> {
    let row = Columns::of("ratings", row);
    Ok(BoardRow {
        profile: row.uuid("profile_id")?,
        handle: row.text("handle")?,
        rating: rating_of(&row)?,
    })
}

/// A stored change row: its result's order, place and both ratings.
pub(super) struct StoredChange {
    pub seq: i64,
    pub pool: Pool,
    pub place: u32,
    pub profile: Uuid,
    pub history: ChangeHistoryRow,
}

pub(super) fn change_of(row: &(impl Stored + ?Sized)) -> Result<StoredChange, StoreError> {
    let row = Columns::of("rating_changes", row);
    let pool: Pool = row
        .text("pool")?
        .parse()
        .map_err(|e| row.corrupt("pool", e))?;
    let ended_at = row.int("ended_at")?;
    let corrupt = |e| row.corrupt("before_rating", e);
    let before = Rating::from_columns(
        pool,
        row.real("before_rating")?,
        row.real("before_deviation")?,
        row.real_or_null("before_volatility")?,
        row.count("before_games")?,
        row.int_or_null("before_last_game_at")?,
    )
    .map_err(corrupt)?;
    let after = Rating::from_columns(
        pool,
        row.real("after_rating")?,
        row.real("after_deviation")?,
        row.real_or_null("after_volatility")?,
        row.count("after_games")?,
        Some(ended_at),
    )
    .map_err(|e| row.corrupt("after_rating", e))?;
    Ok(StoredChange {
        seq: row.int("result_seq")?,
        pool,
        place: row.count("place")?,
        profile: row.uuid("profile_id")?,
        history: ChangeHistoryRow {
            lobby: row.uuid("lobby_id")?,
            player: row.uuid("player_id")?,
            handle: row.text("handle")?,
            ended_at,
            before,
            after,
        },
    })
}

impl Store {
    /// Every rating of `pool`, with the handles (the leaderboard orders them).
    pub async fn pool_ratings(&self, pool: Pool) -> Result<Vec<BoardRow>, StoreError> {
        let rows = sqlx::query(POOL)
            .bind(pool.to_string())
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(board_row).collect()
    }

    /// `profile`'s ratings, one per pool it played rated games in.
    pub async fn profile_ratings(&self, profile: Uuid) -> Result<Vec<Rating>, StoreError> {
        let rows = sqlx::query(OF_PROFILE)
            .bind(profile.to_string())
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(board_row(r)?.rating)).collect()
    }

    /// `profile`'s rating changes, newest first.
    pub async fn profile_rating_history(
        &self,
        profile: Uuid,
    ) -> Result<Vec<ChangeHistoryRow>, StoreError> {
        let sql = format!("{CHANGES} WHERE c.profile_id = $1 ORDER BY c.result_seq DESC");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(profile.to_string())
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(change_of(r)?.history)).collect()
    }

    /// The rating changes lobby `lobby`'s finish made, in its result's order (none: unrated).
    pub async fn lobby_rating_changes(
        &self,
        lobby: Uuid,
    ) -> Result<Vec<ChangeHistoryRow>, StoreError> {
        let sql = format!("{CHANGES} WHERE x.lobby_id = $1 ORDER BY c.ordinal");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(lobby.to_string())
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(change_of(r)?.history)).collect()
    }
}
