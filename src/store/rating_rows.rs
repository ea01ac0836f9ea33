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
use super::rating_writes::{
    ChangeRow, RatingRow, game_id, pg_change, pg_rating, sqlite_change, sqlite_rating,
};
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

/// The seats' bound holdings, each with its profile's rating in the game's pool of its kind
/// (a profile is of one kind, so it has at most one pool per game). Put oldest first by
/// [`oldest_first`] rather than by an `ORDER BY`, which would have the database sort them.
const BINDERS: &str = "SELECT g.player_id, g.profile_id, p.kind, g.bound_at, g.ended_seq, \
    r.pool, r.rating, r.deviation, r.volatility, r.games, r.last_game_at \
    FROM profile_games g JOIN profiles p ON p.id = g.profile_id \
    LEFT JOIN ratings r ON r.profile_id = g.profile_id AND r.game = $1 \
    WHERE g.lobby_id = $2 AND g.binding = 'bound'";

/// PostgreSQL: the rated profiles' rows locked (in one order), so that two lobbies finishing
/// at once with a player in common rate him one after the other, each from the other's
/// result; the second one's `rated_results.seq` is then the later.
///
/// `FOR NO KEY UPDATE`, not `FOR UPDATE`: a lobby's transaction has by then written rows
/// that refer to its players' profiles (an owed step, a holding), and each such foreign key
/// holds its profile's row `FOR KEY SHARE`, which only `FOR UPDATE` waits for. Two lobbies
/// with a player in common finishing at once on two processes would each wait for the other's
/// reference to him: a deadlock. No-key locks still wait for each other, so the ratings stay
/// one after the other.
const LOCK_PROFILES: &str = "SELECT id FROM profiles WHERE id IN \
    (SELECT profile_id FROM profile_games WHERE lobby_id = $1 AND binding = 'bound') \
    ORDER BY id FOR NO KEY UPDATE";

const INSERT_RESULT: &str =
    "INSERT INTO rated_results (lobby_id, pool, ended_at) VALUES ($1, $2, $3) RETURNING seq";

/// One bound holding of the lobby, as [`BINDERS`] reads it.
struct Holding {
    player: Uuid,
    profile: Uuid,
    kind: Kind,
    bound_at: i64,
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
        bound_at: row.int("bound_at")?,
        replaced: row.int_or_null("ended_seq")?.is_some(),
        rating,
    })
}

/// The holdings oldest first, and of two bound at one instant the lower profile id first (a
/// `Uuid` orders as its text does), so that a seat's first binder is the same on every
/// backend and in every rebuild.
fn oldest_first(mut holdings: Vec<Holding>) -> Vec<Holding> {
    holdings.sort_unstable_by_key(|h| (h.bound_at, h.profile));
    holdings
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
    let holdings = oldest_first(holdings);
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

fn unrated(lobby: &str, why: Unrated) {
    match why {
        Unrated::Invalid(_) => tracing::warn!(lobby, %why, "a rated game could not be rated"),
        _ => tracing::debug!(lobby, %why, "a rated lobby finished unrated"),
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

/// Rates `finish` of lobby `lobby` on SQLite, inside the writer's transaction. Kept out of
/// line (it runs once per game) so that an instruction count can name its whole cost
/// (`scripts/writer-instructions.sh`, docs/performance.md).
#[inline(never)]
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
        sqlite_rating(conn, &RatingRow::after(&row, &pool, game))?;
        sqlite_change(conn, &row)?;
    }
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
        pg_rating(conn, &RatingRow::after(&row, &pool, game)).await?;
        pg_change(conn, &row).await?;
    }
    Ok(())
}
