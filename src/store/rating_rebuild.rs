//! `herald ratings rebuild` in the store (docs/ratings.md, "How the server stores them"):
//! every stored result replayed in the order the finish transactions stored them, folded from
//! nothing with the same `Ratings::apply` the finish runs, compared bit for bit with the stored
//! ratings, and written back. It is a job of the writer (`Store::rebuild_ratings`, in
//! `transact.rs`), like every other write: on SQLite the one writer runs it in a batch,
//! before the batch's lobbies, so that no finish interleaves with it; on PostgreSQL it first
//! locks the `profiles` table against the row locks a rated finish takes (`rating_rows.rs`),
//! so that a finish on another writer either commits before the rebuild reads or reads the
//! rebuilt ratings after it commits.

use std::collections::BTreeMap;

use uuid::Uuid;

use super::StoreError;
use super::rating_writes::{ChangeRow, RatingRow, columns, pg_change, pg_rating};
use super::rating_writes::{sqlite_change, sqlite_rating};
use super::ratings::{ALL, BoardRow, CHANGES, StoredChange, board_row, change_of};
use crate::ratings::{Finish, Pool, RatedResult, Rating, RatingChange, Ratings};

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

/// Every change, in the order the results were stored and each result's order.
fn all_changes() -> String {
    format!("{CHANGES} ORDER BY c.result_seq, c.ordinal")
}

/// PostgreSQL: waits for every rated finish holding its profiles' row locks, and keeps new
/// ones (and new profiles) waiting until the rebuild commits; plain reads go on.
const LOCK_PROFILES: &str = "LOCK TABLE profiles IN EXCLUSIVE MODE";

/// What to write: every rating, every change, and what was found.
struct Replayed {
    ratings: Vec<RatingRow>,
    changes: Vec<ChangeRow>,
    rebuilt: Rebuilt,
}

/// A stored result: its pool, when it ended, and each participant's finish with his seat.
type StoredResult = (Pool, i64, Vec<(Finish<Uuid>, Uuid)>);

/// Folds the stored `changes` (in `seq` and `ordinal` order) from nothing and compares the
/// outcome with the `stored` ratings.
fn replay(changes: Vec<StoredChange>, stored: &[BoardRow]) -> Result<Replayed, StoreError> {
    let mut games: BTreeMap<i64, StoredResult> = BTreeMap::new();
    for change in changes {
        let (_, _, finishes) =
            games
                .entry(change.seq)
                .or_insert((change.pool, change.history.ended_at, Vec::new()));
        let finish = Finish {
            participant: change.profile,
            place: change.place,
        };
        finishes.push((finish, change.history.player));
    }
    let results = games.len();
    let mut ratings = Ratings::new();
    let mut change_rows = Vec::new();
    for (seq, (pool, ended_at, finishes)) in games {
        let (finishes, players): (Vec<_>, Vec<Uuid>) = finishes.into_iter().unzip();
        let result =
            RatedResult::new(pool, ended_at, finishes).map_err(|e| StoreError::Corrupt {
                table: "rating_changes",
                column: "place",
                cause: e.to_string(),
            })?;
        let changes: Vec<RatingChange<Uuid>> = ratings.apply(&result);
        for (ordinal, ((change, finish), player)) in changes
            .iter()
            .zip(result.finishes())
            .zip(players)
            .enumerate()
        {
            change_rows.push(ChangeRow::of(seq, ordinal, change, player, finish.place));
        }
    }
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
    Ok(Replayed {
        ratings: recomputed
            .iter()
            .map(|(profile, rating)| RatingRow::of(*profile, rating))
            .collect(),
        changes: change_rows,
        rebuilt: Rebuilt {
            results,
            ratings: recomputed.len(),
            differing,
        },
    })
}

/// A rating's stored columns as bits: equal exactly when every number is the same float.
fn bits(rating: &Rating) -> (u64, u64, u64, i64, Option<i64>) {
    let (r, d, v, g, l) = columns(rating);
    (r.to_bits(), d.to_bits(), v.to_bits(), g, l)
}

fn read_all<T>(
    conn: &rusqlite::Connection,
    sql: &str,
    each: impl Fn(&rusqlite::Row<'_>) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    let mut statement = conn.prepare(sql)?;
    let mut rows = statement.query([])?;
    let mut read = Vec::new();
    while let Some(row) = rows.next()? {
        read.push(each(row)?);
    }
    Ok(read)
}

/// The rebuild on SQLite, in the writer's transaction.
pub(super) fn rebuild_sqlite(conn: &rusqlite::Connection) -> Result<Rebuilt, StoreError> {
    let changes = read_all(conn, &all_changes(), |row| change_of(row))?;
    let stored = read_all(conn, ALL, |row| board_row(row))?;
    let replayed = replay(changes, &stored)?;
    conn.execute_batch("DELETE FROM ratings; DELETE FROM rating_changes;")?;
    for row in &replayed.ratings {
        sqlite_rating(conn, row)?;
    }
    for row in &replayed.changes {
        sqlite_change(conn, row)?;
    }
    Ok(replayed.rebuilt)
}

/// The rebuild on PostgreSQL, in the writer's transaction.
pub(super) async fn rebuild_pg(conn: &mut sqlx::AnyConnection) -> Result<Rebuilt, StoreError> {
    sqlx::query(LOCK_PROFILES).execute(&mut *conn).await?;
    let changes = sqlx::query(sqlx::AssertSqlSafe(all_changes()))
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(change_of)
        .collect::<Result<Vec<_>, _>>()?;
    let stored = sqlx::query(ALL)
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(board_row)
        .collect::<Result<Vec<_>, _>>()?;
    let replayed = replay(changes, &stored)?;
    sqlx::query("DELETE FROM ratings")
        .execute(&mut *conn)
        .await?;
    sqlx::query("DELETE FROM rating_changes")
        .execute(&mut *conn)
        .await?;
    for row in &replayed.ratings {
        pg_rating(conn, row).await?;
    }
    for row in &replayed.changes {
        pg_change(conn, row).await?;
    }
    Ok(replayed.rebuilt)
}
