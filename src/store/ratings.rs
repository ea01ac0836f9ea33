//! Reading ratings (a pool's entries, a profile's ratings and history, a lobby's changes) and
//! rebuilding them from the stored results (docs/ratings.md, "How the server stores them").
//! The finish transaction's writes are in `rating_rows.rs`.

use std::collections::BTreeMap;

use uuid::Uuid;

use super::columns::{Columns, Stored};
use super::rating_rows::{ChangeRow, columns, game_id, insert_change, upsert_rating};
use super::{Store, StoreError};
use crate::ratings::{Finish, Pool, RatedResult, Rating, RatingChange, Ratings};

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

/// What a rebuild found and did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rebuilt {
    /// The stored results replayed.
    pub results: usize,
    /// The ratings written.
    pub ratings: usize,
    /// Stored ratings whose recomputed value differed (bit for bit) or that were missing or
    /// extra: zero when the stored ratings are the fold of the stored results.
    pub differing: usize,
}

const POOL: &str = "SELECT r.profile_id, p.handle, r.pool, r.rating, r.deviation, r.volatility, \
    r.games, r.last_game_at FROM ratings r JOIN profiles p ON p.id = r.profile_id \
    WHERE r.pool = $1";

const OF_PROFILE: &str = "SELECT r.profile_id, p.handle, r.pool, r.rating, r.deviation, \
    r.volatility, r.games, r.last_game_at FROM ratings r JOIN profiles p ON p.id = r.profile_id \
    WHERE r.profile_id = $1 ORDER BY r.pool";

const ALL: &str = "SELECT r.profile_id, p.handle, r.pool, r.rating, r.deviation, r.volatility, \
    r.games, r.last_game_at FROM ratings r JOIN profiles p ON p.id = r.profile_id";

/// Changes with their results, by `$WHERE`.
const CHANGES: &str = "SELECT c.result_seq, c.ordinal, c.profile_id, c.player_id, c.place, \
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

fn board_row(row: &sqlx::any::AnyRow) -> Result<BoardRow, StoreError> {
    let row = Columns::of("ratings", row);
    Ok(BoardRow {
        profile: row.uuid("profile_id")?,
        handle: row.text("handle")?,
        rating: rating_of(&row)?,
    })
}

/// A stored change row: its result's order, place and both ratings.
struct StoredChange {
    seq: i64,
    pool: Pool,
    place: u32,
    profile: Uuid,
    history: ChangeHistoryRow,
}

fn change_of(row: &sqlx::any::AnyRow) -> Result<StoredChange, StoreError> {
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

    /// Recomputes every rating from the stored results, in the order they were stored (the
    /// order the games ended), and writes the ratings and every change's before and after in
    /// one transaction. Run with the server stopped (on SQLite the file is the process's own).
    pub async fn rebuild_ratings(&self) -> Result<Rebuilt, StoreError> {
        let mut tx = self.pool.begin().await?;
        let sql = format!("{CHANGES} ORDER BY c.result_seq, c.ordinal");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .fetch_all(&mut *tx)
            .await?;
        let mut games: BTreeMap<i64, StoredResult> = BTreeMap::new();
        for row in &rows {
            let change = change_of(row)?;
            let (_, _, finishes) = games.entry(change.seq).or_insert((
                change.pool,
                change.history.ended_at,
                Vec::new(),
            ));
            let finish = Finish {
                participant: change.profile,
                place: change.place,
            };
            finishes.push((finish, change.history.player));
        }
        let mut results = Vec::with_capacity(games.len());
        for (seq, (pool, ended_at, finishes)) in games {
            let players: Vec<Uuid> = finishes.iter().map(|(_, p)| *p).collect();
            let finishes = finishes.into_iter().map(|(f, _)| f).collect();
            let result =
                RatedResult::new(pool, ended_at, finishes).map_err(|e| StoreError::Corrupt {
                    table: "rating_changes",
                    column: "place",
                    cause: e.to_string(),
                })?;
            results.push((seq, result, players));
        }
        let mut ratings = Ratings::new();
        let mut change_rows = Vec::new();
        for (seq, result, players) in &results {
            let changes: Vec<RatingChange<Uuid>> = ratings.apply(result);
            for (ordinal, ((change, finish), player)) in changes
                .iter()
                .zip(result.finishes())
                .zip(players)
                .enumerate()
            {
                change_rows.push(ChangeRow::of(*seq, ordinal, change, *player, finish.place));
            }
        }
        let stored: Vec<BoardRow> = sqlx::query(ALL)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(board_row)
            .collect::<Result<_, _>>()?;
        let mut recomputed: Vec<(Uuid, Rating)> = Vec::new();
        for pool in ratings.pools().collect::<Vec<_>>() {
            recomputed.extend(ratings.pool(pool).map(|(p, r)| (*p, *r)));
        }
        let same = |row: &BoardRow| {
            ratings
                .get(row.rating.pool(), &row.profile)
                .is_some_and(|r| bits(r) == bits(&row.rating))
        };
        let differing = stored.iter().filter(|row| !same(row)).count()
            + recomputed.len().saturating_sub(stored.len());
        sqlx::query("DELETE FROM ratings").execute(&mut *tx).await?;
        sqlx::query("DELETE FROM rating_changes")
            .execute(&mut *tx)
            .await?;
        for (profile, rating) in &recomputed {
            let pool = rating.pool();
            let (profile, pool_name) = (profile.to_string(), pool.to_string());
            upsert_rating(
                &mut tx,
                &profile,
                &pool_name,
                game_id(pool.game),
                columns(rating),
            )
            .await?;
        }
        for row in &change_rows {
            insert_change(&mut tx, row).await?;
        }
        tx.commit().await?;
        Ok(Rebuilt {
            results: results.len(),
            ratings: recomputed.len(),
            differing,
        })
    }
}

/// A stored result: its pool, when it ended, and each participant's finish with his seat.
type StoredResult = (Pool, i64, Vec<(Finish<Uuid>, Uuid)>);

/// A rating's stored columns as bits: equal exactly when every number is the same float.
fn bits(rating: &Rating) -> (u64, u64, u64, i64, Option<i64>) {
    let (r, d, v, g, l) = columns(rating);
    (r.to_bits(), d.to_bits(), v.to_bits(), g, l)
}
