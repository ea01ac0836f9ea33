//! What the transaction that finishes a rated lobby writes about ratings (docs/ratings.md,
//! "How the server stores them"): it reads the seats' first binders with their ratings in
//! the game's pools (one query), rates the result with `ratings::Ratings::apply`, and writes
//! the ratings, the result and every change, all in the lobby's own transaction, so that a
//! game is rated exactly when it is finished.

use std::collections::BTreeMap;

use uuid::Uuid;

use super::StoreError;
use super::columns::{Columns, Stored};
use super::profile_rows::ProfileKind;
use crate::games::GameKind;
use crate::ratings::{
    Binder, Ending, FinishedGame, Kind, Pool, RatedResult, Rating, RatingChange, Ratings, SeatEnd,
    SeatRecord, Unrated,
};

/// What a change that finishes a rated lobby tells the store: the store finds who is rated.
#[derive(Clone, Debug)]
pub struct RatedFinish {
    pub game: GameKind,
    pub ending: Ending,
    /// When the game ended (the change's instant, milliseconds since the Unix epoch).
    pub ended_at: i64,
    /// Every seat's player id and place in the final standings, in seat order.
    pub places: Vec<(Uuid, u32)>,
}

/// The seats' bound holdings, oldest first, each with its profile's rating in the game's
/// pool of its kind (a profile is of one kind, so it has at most one pool per game).
const BINDERS: &str = "SELECT g.player_id, g.profile_id, p.kind, g.ended_seq, \
    r.pool, r.rating, r.deviation, r.volatility, r.games, r.last_game_at \
    FROM profile_games g JOIN profiles p ON p.id = g.profile_id \
    LEFT JOIN ratings r ON r.profile_id = g.profile_id AND r.game = $1 \
    WHERE g.lobby_id = $2 AND g.binding = 'bound' ORDER BY g.bound_at, g.profile_id";

/// PostgreSQL: the rated profiles' rows locked (in one order), so that two lobbies finishing
/// at once with a player in common rate him one after the other, each from the other's
/// result; the second one's `rated_results.seq` is then the later.
const LOCK_PROFILES: &str = "SELECT id FROM profiles WHERE id IN \
    (SELECT profile_id FROM profile_games WHERE lobby_id = $1 AND binding = 'bound') \
    ORDER BY id FOR UPDATE";

const UPSERT_RATING: &str = "INSERT INTO ratings \
    (profile_id, pool, game, rating, deviation, volatility, games, last_game_at) \
    VALUES ($1, $2, $3, $4, $5, NULLIF($6, -1.0), $7, $8) ON CONFLICT (profile_id, pool) DO UPDATE SET \
    rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, \
    games = excluded.games, last_game_at = excluded.last_game_at";

const INSERT_RESULT: &str =
    "INSERT INTO rated_results (lobby_id, pool, ended_at) VALUES ($1, $2, $3) RETURNING seq";

const INSERT_CHANGE: &str = "INSERT INTO rating_changes \
    (result_seq, ordinal, profile_id, player_id, place, before_rating, before_deviation, \
    before_volatility, before_games, before_last_game_at, after_rating, after_deviation, \
    after_volatility, after_games) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, NULLIF($8, -1.0), $9, $10, $11, $12, NULLIF($13, -1.0), $14)";

/// One bound holding of the lobby, as [`BINDERS`] reads it.
struct Holding {
    player: Uuid,
    profile: Uuid,
    kind: Kind,
    replaced: bool,
    /// His rating in the game's pool of his kind, if he has one.
    rating: Option<Rating>,
}

fn holding_of(row: &Columns<'_, impl Stored + ?Sized>) -> Result<Holding, StoreError> {
    let kind = match row.word("kind", ProfileKind::parse)? {
        ProfileKind::Human => Kind::Humans,
        ProfileKind::Bot => Kind::Bots,
    };
    let rating = match row.text_or_null("pool")? {
        Some(pool) => {
            let pool: Pool = pool.parse().map_err(|e| row.corrupt("pool", e))?;
            let rating = Rating::from_columns(
                pool,
                row.real("rating")?,
                row.real("deviation")?,
                row.real_or_null("volatility")?,
                row.count("games")?,
                row.int_or_null("last_game_at")?,
            )
            .map_err(|e| row.corrupt("rating", e))?;
            Some(rating)
        }
        None => None,
    };
    Ok(Holding {
        player: row.uuid("player_id")?,
        profile: row.uuid("profile_id")?,
        kind,
        replaced: row.int_or_null("ended_seq")?.is_some(),
        rating,
    })
}

/// A game to rate: its result, the stored ratings it starts from, and each rated profile's
/// seat (player id).
struct Decided {
    result: RatedResult<Uuid>,
    ratings: Ratings<Uuid>,
    seats: BTreeMap<Uuid, Uuid>,
}

/// The result to rate and the stored ratings it starts from, or why the game is unrated.
/// A seat rates its first binder; one a substitute replaced placed last (behind everyone who
/// played on: in a duel, a loss; docs/ratings.md, "Who is rated").
fn decide(finish: &RatedFinish, holdings: Vec<Holding>) -> Result<Decided, Unrated> {
    let mut first: BTreeMap<Uuid, &Holding> = BTreeMap::new();
    for holding in &holdings {
        first.entry(holding.player).or_insert(holding);
    }
    let last = u32::try_from(finish.places.len()).unwrap_or(u32::MAX);
    let seats = finish
        .places
        .iter()
        .map(|(player, place)| {
            let holding = first.get(player);
            SeatRecord {
                binder: holding.map(|h| Binder {
                    participant: h.profile,
                    kind: h.kind,
                }),
                end: match holding {
                    Some(h) if h.replaced => SeatEnd::Replaced {
                        place_when_left: last,
                    },
                    _ => SeatEnd::Held { place: *place },
                },
            }
        })
        .collect();
    let result = FinishedGame {
        game: finish.game,
        rated: true,
        ending: finish.ending,
        ended_at: finish.ended_at,
        seats,
    }
    .rated_result()?;
    let pool = result.pool();
    let ratings = first
        .values()
        .filter_map(|h| {
            h.rating
                .filter(|r| r.pool() == pool)
                .map(|r| (h.profile, r))
        })
        .collect();
    let seats = first.values().map(|h| (h.profile, h.player)).collect();
    Ok(Decided {
        result,
        ratings,
        seats,
    })
}

/// The columns of a rating: rating, deviation, volatility, games, last game. A Weng-Lin
/// rating has no volatility: it is bound as -1 and stored as NULL by the statements'
/// `NULLIF`, because sqlx's Any driver binds a NULL double as a 4-byte float, and PostgreSQL
/// then prepares the statement for float4 and refuses the 8-byte value of the next use.
pub(super) fn columns(rating: &Rating) -> (f64, f64, f64, i64, Option<i64>) {
    let entry = rating.entry();
    (
        entry.rating,
        entry.deviation,
        entry.volatility.unwrap_or(-1.0),
        i64::from(entry.games),
        rating.last_game_at(),
    )
}

fn unrated(lobby: &str, why: Unrated) {
    match why {
        Unrated::Invalid(_) => tracing::warn!(lobby, %why, "a rated game could not be rated"),
        _ => tracing::debug!(lobby, %why, "a rated lobby finished unrated"),
    }
}

/// One row of `rating_changes`, as both engines bind it.
pub(super) struct ChangeRow {
    pub seq: i64,
    pub ordinal: i64,
    pub profile: String,
    pub player: String,
    pub place: i64,
    pub before: (f64, f64, f64, i64, Option<i64>),
    pub after: (f64, f64, f64, i64, Option<i64>),
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

/// The changes of `decided` with their rows, in the result's order.
fn change_rows(seq: i64, decided: &Decided, changes: &[RatingChange<Uuid>]) -> Vec<ChangeRow> {
    changes
        .iter()
        .zip(decided.result.finishes())
        .enumerate()
        .map(|(ordinal, (change, finish))| {
            let player = decided
                .seats
                .get(&change.participant)
                .copied()
                .unwrap_or_default();
            ChangeRow::of(seq, ordinal, change, player, finish.place)
        })
        .collect()
}

/// Rates `finish` of lobby `lobby` on SQLite, inside the writer's transaction.
pub(super) fn write_sqlite(
    conn: &rusqlite::Connection,
    lobby: &str,
    finish: &RatedFinish,
) -> Result<(), StoreError> {
    let game = game_id(finish.game);
    let mut statement = conn.prepare_cached(BINDERS)?;
    let mut rows = statement.query(rusqlite::params![game, lobby])?;
    let mut holdings = Vec::new();
    while let Some(row) = rows.next()? {
        holdings.push(holding_of(&Columns::of("ratings", row))?);
    }
    drop(rows);
    let mut decided = match decide(finish, holdings) {
        Ok(decided) => decided,
        Err(why) => {
            unrated(lobby, why);
            return Ok(());
        }
    };
    let changes = decided.ratings.apply(&decided.result);
    let pool = decided.result.pool().to_string();
    let seq: i64 = conn.prepare_cached(INSERT_RESULT)?.query_row(
        rusqlite::params![lobby, pool, decided.result.ended_at()],
        |row| row.get(0),
    )?;
    for row in change_rows(seq, &decided, &changes) {
        let (r, d, v, g, l) = row.after;
        conn.prepare_cached(UPSERT_RATING)?
            .execute(rusqlite::params![row.profile, pool, game, r, d, v, g, l])?;
        sqlite_change(conn, &row)?;
    }
    Ok(())
}

/// Writes one `rating_changes` row on SQLite.
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

/// Rates `finish` of lobby `lobby` on PostgreSQL, inside the batch's transaction.
pub(super) async fn write_pg(
    conn: &mut sqlx::AnyConnection,
    lobby: &str,
    finish: &RatedFinish,
) -> Result<(), StoreError> {
    let game = game_id(finish.game);
    sqlx::query(LOCK_PROFILES)
        .bind(lobby)
        .fetch_all(&mut *conn)
        .await?;
    let rows = sqlx::query(BINDERS)
        .bind(game)
        .bind(lobby)
        .fetch_all(&mut *conn)
        .await?;
    let holdings = rows
        .iter()
        .map(|row| holding_of(&Columns::of("ratings", row)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut decided = match decide(finish, holdings) {
        Ok(decided) => decided,
        Err(why) => {
            unrated(lobby, why);
            return Ok(());
        }
    };
    let changes = decided.ratings.apply(&decided.result);
    let pool = decided.result.pool().to_string();
    let row = sqlx::query(INSERT_RESULT)
        .bind(lobby)
        .bind(&pool)
        .bind(decided.result.ended_at())
        .fetch_one(&mut *conn)
        .await?;
    let seq = Columns::of("rated_results", &row).int("seq")?;
    for row in change_rows(seq, &decided, &changes) {
        upsert_rating(conn, &row.profile, &pool, game, row.after).await?;
        insert_change(conn, &row).await?;
    }
    Ok(())
}

/// Writes a profile's rating in a pool through sqlx: PostgreSQL's finish and the rebuild on
/// either backend.
pub(super) async fn upsert_rating(
    conn: &mut sqlx::AnyConnection,
    profile: &str,
    pool: &str,
    game: &str,
    (r, d, v, g, l): (f64, f64, f64, i64, Option<i64>),
) -> Result<(), StoreError> {
    sqlx::query(UPSERT_RATING)
        .bind(profile)
        .bind(pool)
        .bind(game)
        .bind(r)
        .bind(d)
        .bind(v)
        .bind(g)
        .bind(l)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Writes one `rating_changes` row through sqlx: PostgreSQL's finish and the rebuild on either
/// backend.
pub(super) async fn insert_change(
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
