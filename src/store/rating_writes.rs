//! The rows a rating writes, as both engines bind them (docs/ratings.md, "How the server
//! stores them"): a profile's rating in a pool and one change of a rated game. The finish
//! transaction (`rating_rows.rs`) and the rebuild (`rating_rebuild.rs`) write through these,
//! and both run in the writer's transaction.

use uuid::Uuid;

use super::StoreError;
use crate::games::GameKind;
use crate::ratings::{Rating, RatingChange};

const UPSERT_RATING: &str = "INSERT INTO ratings \
    (profile_id, pool, game, rating, deviation, volatility, games, last_game_at) \
    VALUES ($1, $2, $3, $4, $5, NULLIF($6, -1.0), $7, $8) ON CONFLICT (profile_id, pool) DO UPDATE SET \
    rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, \
    games = excluded.games, last_game_at = excluded.last_game_at";

const INSERT_CHANGE: &str = "INSERT INTO rating_changes \
    (result_seq, ordinal, profile_id, player_id, place, before_rating, before_deviation, \
    before_volatility, before_games, before_last_game_at, after_rating, after_deviation, \
    after_volatility, after_games) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, NULLIF($8, -1.0), $9, $10, $11, $12, NULLIF($13, -1.0), $14)";

/// A rating's columns: rating, deviation, volatility, games, last game.
pub(super) type RatingColumns = (f64, f64, f64, i64, Option<i64>);

/// The columns of a rating. A Weng-Lin rating has no volatility: it is bound as -1 and stored
/// as NULL by the statements' `NULLIF`, because sqlx's Any driver binds a NULL double as a
/// 4-byte float, and PostgreSQL then prepares the statement for float4 and refuses the 8-byte
/// value of the next use.
pub(super) fn columns(rating: &Rating) -> RatingColumns {
    let entry = rating.entry();
    (
        entry.rating,
        entry.deviation,
        entry.volatility.unwrap_or(-1.0),
        i64::from(entry.games),
        rating.last_game_at(),
    )
}

/// One row of `ratings`, as both engines bind it.
pub(super) struct RatingRow {
    pub profile: String,
    pub pool: String,
    pub game: &'static str,
    pub columns: RatingColumns,
}

impl RatingRow {
    pub(super) fn of(profile: Uuid, rating: &Rating) -> RatingRow {
        RatingRow {
            profile: profile.to_string(),
            pool: rating.pool().to_string(),
            game: game_id(rating.pool().game),
            columns: columns(rating),
        }
    }

    /// The rating `change` leaves in `pool` of `game`.
    pub(super) fn after(change: &ChangeRow, pool: &str, game: &'static str) -> RatingRow {
        RatingRow {
            profile: change.profile.clone(),
            pool: pool.to_string(),
            game,
            columns: change.after,
        }
    }
}

/// One row of `rating_changes`, as both engines bind it.
pub(super) struct ChangeRow {
    pub seq: i64,
    pub ordinal: i64,
    pub profile: String,
    pub player: String,
    pub place: i64,
    pub before: RatingColumns,
    pub after: RatingColumns,
}

impl ChangeRow {
    pub(super) fn of(
        seq: i64,
        ordinal: usize,
        change: &RatingChange<Uuid>,
        player: Uuid,
        place: u32,
    ) -> ChangeRow {
        ChangeRow {
            seq,
            ordinal: ordinal as i64,
            profile: change.participant.to_string(),
            player: player.to_string(),
            place: i64::from(place),
            before: columns(&change.before),
            after: columns(&change.after),
        }
    }
}

/// Writes a profile's rating in a pool on SQLite (the writer's transaction).
pub(super) fn sqlite_rating(
    conn: &rusqlite::Connection,
    row: &RatingRow,
) -> Result<(), StoreError> {
    let (r, d, v, g, l) = row.columns;
    conn.prepare_cached(UPSERT_RATING)?
        .execute(rusqlite::params![
            row.profile,
            row.pool,
            row.game,
            r,
            d,
            v,
            g,
            l
        ])?;
    Ok(())
}

/// Writes one `rating_changes` row on SQLite (the writer's transaction).
pub(super) fn sqlite_change(
    conn: &rusqlite::Connection,
    row: &ChangeRow,
) -> Result<(), StoreError> {
    let (br, bd, bv, bg, bl) = row.before;
    let (r, d, v, g, _) = row.after;
    conn.prepare_cached(INSERT_CHANGE)?
        .execute(rusqlite::params![
            row.seq,
            row.ordinal,
            row.profile,
            row.player,
            row.place,
            br,
            bd,
            bv,
            bg,
            bl,
            r,
            d,
            v,
            g
        ])?;
    Ok(())
}

/// Writes a profile's rating in a pool on PostgreSQL (the writer's transaction).
pub(super) async fn pg_rating(
    conn: &mut sqlx::AnyConnection,
    row: &RatingRow,
) -> Result<(), StoreError> {
    let (r, d, v, g, l) = row.columns;
    sqlx::query(UPSERT_RATING)
        .bind(&row.profile)
        .bind(&row.pool)
        .bind(row.game)
        .bind(r)
        .bind(d)
        .bind(v)
        .bind(g)
        .bind(l)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Writes one `rating_changes` row on PostgreSQL (the writer's transaction).
pub(super) async fn pg_change(
    conn: &mut sqlx::AnyConnection,
    row: &ChangeRow,
) -> Result<(), StoreError> {
    let (br, bd, bv, bg, bl) = row.before;
    let (r, d, v, g, _) = row.after;
    sqlx::query(INSERT_CHANGE)
        .bind(row.seq)
        .bind(row.ordinal)
        .bind(&row.profile)
        .bind(&row.player)
        .bind(row.place)
        .bind(br)
        .bind(bd)
        .bind(bv)
        .bind(bg)
        .bind(bl)
        .bind(r)
        .bind(d)
        .bind(v)
        .bind(g)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// A game's id as its pools name it.
pub(super) fn game_id(game: GameKind) -> &'static str {
    crate::games::with_game!(game, G => <G as crate::rules::Game>::ID)
}
