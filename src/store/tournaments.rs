//! Tournaments' rows (docs/tournaments.md, "How the server keeps them"): the tournament, its
//! entrants, its rounds and their games. Read whole ([`Store::tournament`]); written by
//! [`Store::write_tournament`], one transaction guarded by the tournament's version, so that a
//! decision taken on one read is applied whole or not at all. The one exception is a game's
//! result, which is written once (`result IS NULL`) by whoever sees its lobby finish first.

use uuid::Uuid;

use super::columns::Columns;
use super::{Store, StoreError};

/// A tournament's own row.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    pub id: Uuid,
    pub game: String,
    pub name: String,
    pub format: String,
    pub rounds_asked: i64,
    pub board_size: i64,
    pub settings: String,
    pub forbidden: String,
    pub auto_rounds: bool,
    pub director_hash: String,
    pub status: String,
    pub round: i64,
    pub rounds_total: i64,
    pub created_at: i64,
    pub version: i64,
}

/// One entrant: `entry` is his entry order and the core's entrant id.
#[derive(Clone, Debug, PartialEq)]
pub struct EntrantRow {
    pub entry: i64,
    pub profile: Uuid,
    pub handle: String,
    pub rating: Option<f64>,
    pub first_round: i64,
    pub withdrawn: bool,
}

/// A paired round.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRoundRow {
    pub round: i64,
    pub byes: String,
    pub started_at: i64,
    pub closed_at: Option<i64>,
}

/// A game of a round, in its lobby.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentGameRow {
    pub lobby: Uuid,
    pub round: i64,
    pub ordinal: i64,
    pub players: String,
    pub result: Option<String>,
}

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRecord {
    pub tournament: TournamentRow,
    pub entrants: Vec<EntrantRow>,
    pub rounds: Vec<TournamentRoundRow>,
    pub games: Vec<TournamentGameRow>,
}

/// One write of a tournament's change.
#[derive(Clone, Debug)]
pub enum TournamentWrite {
    /// The tournament's status, last round started and rounds total.
    Progress {
        status: String,
        round: i64,
        rounds_total: i64,
    },
    Enter(EntrantRow),
    /// Entrant `entry`'s rating for seeding, frozen when entries close.
    Rating {
        entry: i64,
        rating: Option<f64>,
    },
    Withdraw {
        entry: i64,
    },
    /// An entrant leaves during entries, leaving no row.
    Leave {
        entry: i64,
    },
    Round(TournamentRoundRow),
    Game(TournamentGameRow),
    /// A game's result, unless it already has one.
    Result {
        lobby: Uuid,
        result: String,
    },
    /// An event of the tournament's own (`round-started`, `finished`) with its data, and the
    /// deliveries its webhooks are owed (`tournament_news.rs`): its seq is the version this
    /// change writes.
    News {
        kind: &'static str,
        data: String,
    },
}

const INSERT: &str = "INSERT INTO tournaments (id, game, name, format, rounds_asked, board_size, \
    settings, forbidden, auto_rounds, director_hash, status, round, rounds_total, created_at, \
    version) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)";

const LIST: &str = "SELECT id, game, name, format, rounds_asked, board_size, settings, \
    forbidden, auto_rounds, director_hash, status, round, rounds_total, created_at, version \
    FROM tournaments ORDER BY created_at DESC, id LIMIT $1";

const ONE: &str = "SELECT id, game, name, format, rounds_asked, board_size, settings, \
    forbidden, auto_rounds, director_hash, status, round, rounds_total, created_at, version \
    FROM tournaments WHERE id = $1";

const ENTRANTS: &str = "SELECT e.entry, e.profile_id, p.handle, e.rating, e.first_round, \
    e.withdrawn FROM tournament_entrants e JOIN profiles p ON p.id = e.profile_id \
    WHERE e.tournament_id = $1 ORDER BY e.entry";

const ROUNDS: &str = "SELECT round, byes, started_at, closed_at FROM tournament_rounds \
    WHERE tournament_id = $1 ORDER BY round";

const GAMES: &str = "SELECT lobby_id, round, ordinal, players, result FROM tournament_games \
    WHERE tournament_id = $1 ORDER BY round, ordinal";

const BUMP: &str = "UPDATE tournaments SET version = version + 1 WHERE id = $1 AND version = $2";

fn tournament_of(row: &sqlx::any::AnyRow) -> Result<TournamentRow, StoreError> {
    let row = Columns::of("tournaments", row);
    Ok(TournamentRow {
        id: row.uuid("id")?,
        game: row.text("game")?,
        name: row.text("name")?,
        format: row.text("format")?,
        rounds_asked: row.int("rounds_asked")?,
        board_size: row.int("board_size")?,
        settings: row.text("settings")?,
        forbidden: row.text("forbidden")?,
        auto_rounds: row.int("auto_rounds")? != 0,
        director_hash: row.text("director_hash")?,
        status: row.text("status")?,
        round: row.int("round")?,
        rounds_total: row.int("rounds_total")?,
        created_at: row.int("created_at")?,
        version: row.int("version")?,
    })
}

impl Store {
    /// Stores a new tournament.
    pub async fn create_tournament(&self, t: &TournamentRow) -> Result<(), StoreError> {
        self.within(async {
            sqlx::query(INSERT)
                .bind(t.id.to_string())
                .bind(&t.game)
                .bind(&t.name)
                .bind(&t.format)
                .bind(t.rounds_asked)
                .bind(t.board_size)
                .bind(&t.settings)
                .bind(&t.forbidden)
                .bind(i64::from(t.auto_rounds))
                .bind(&t.director_hash)
                .bind(&t.status)
                .bind(t.round)
                .bind(t.rounds_total)
                .bind(t.created_at)
                .bind(t.version)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
        .await
    }

    /// The newest tournaments first.
    pub async fn list_tournaments(&self, limit: i64) -> Result<Vec<TournamentRow>, StoreError> {
        let rows = self
            .within(async { Ok(sqlx::query(LIST).bind(limit).fetch_all(&self.pool).await?) })
            .await?;
        rows.iter().map(tournament_of).collect()
    }

    /// A tournament with its entrants, rounds and games, or None.
    pub async fn tournament(&self, id: Uuid) -> Result<Option<TournamentRecord>, StoreError> {
        let id = id.to_string();
        let (row, entrants, rounds, games) = self
            .within(async {
                // One snapshot of all four tables: the reads share a transaction.
                let mut tx = self.pool.begin().await?;
                let row = sqlx::query(ONE).bind(&id).fetch_optional(&mut *tx).await?;
                let entrants = sqlx::query(ENTRANTS).bind(&id).fetch_all(&mut *tx).await?;
                let rounds = sqlx::query(ROUNDS).bind(&id).fetch_all(&mut *tx).await?;
                let games = sqlx::query(GAMES).bind(&id).fetch_all(&mut *tx).await?;
                tx.commit().await?;
                Ok((row, entrants, rounds, games))
            })
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let entrants = entrants
            .iter()
            .map(|r| {
                let r = Columns::of("tournament_entrants", r);
                Ok(EntrantRow {
                    entry: r.int("entry")?,
                    profile: r.uuid("profile_id")?,
                    handle: r.text("handle")?,
                    rating: r.real_or_null("rating")?,
                    first_round: r.int("first_round")?,
                    withdrawn: r.int("withdrawn")? != 0,
                })
            })
            .collect::<Result<_, StoreError>>()?;
        let rounds = rounds
            .iter()
            .map(|r| {
                let r = Columns::of("tournament_rounds", r);
                Ok(TournamentRoundRow {
                    round: r.int("round")?,
                    byes: r.text("byes")?,
                    started_at: r.int("started_at")?,
                    closed_at: r.int_or_null("closed_at")?,
                })
            })
            .collect::<Result<_, StoreError>>()?;
        let games = games
            .iter()
            .map(|r| {
                let r = Columns::of("tournament_games", r);
                Ok(TournamentGameRow {
                    lobby: r.uuid("lobby_id")?,
                    round: r.int("round")?,
                    ordinal: r.int("ordinal")?,
                    players: r.text("players")?,
                    result: r.text_or_null("result")?,
                })
            })
            .collect::<Result<_, StoreError>>()?;
        Ok(Some(TournamentRecord {
            tournament: tournament_of(&row)?,
            entrants,
            rounds,
            games,
        }))
    }

    /// The tournament a lobby plays a game of, if any.
    pub async fn tournament_of_lobby(&self, lobby: Uuid) -> Result<Option<Uuid>, StoreError> {
        let row = self
            .within(async {
                Ok(
                    sqlx::query("SELECT tournament_id FROM tournament_games WHERE lobby_id = $1")
                        .bind(lobby.to_string())
                        .fetch_optional(&self.pool)
                        .await?,
                )
            })
            .await?;
        row.map(|r| Columns::of("tournament_games", &r).uuid("tournament_id"))
            .transpose()
    }

    /// Applies `writes` to tournament `id` in one transaction if its version is still
    /// `version` (and moves it on); false, with nothing written, if it moved.
    pub async fn write_tournament(
        &self,
        id: Uuid,
        version: i64,
        writes: &[TournamentWrite],
    ) -> Result<bool, StoreError> {
        let id = id.to_string();
        let stamp = Stamp {
            seq: version + 1,
            now: self.clock.now_millis(),
        };
        self.within(async {
            let mut tx = self.pool.begin().await?;
            let bumped = sqlx::query(BUMP)
                .bind(&id)
                .bind(version)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if bumped == 0 {
                return Ok(false);
            }
            for write in writes {
                apply(&mut tx, &id, write, stamp).await?;
            }
            tx.commit().await?;
            Ok(true)
        })
        .await
    }

    /// Writes a game's result unless it has one; true if this call wrote it.
    pub async fn record_tournament_result(
        &self,
        lobby: Uuid,
        result: &str,
    ) -> Result<bool, StoreError> {
        self.within(async {
            let mut conn = self.pool.acquire().await?;
            Ok(result_write(&mut conn, lobby, result).await? > 0)
        })
        .await
    }

    /// Marks round `round` of tournament `id` closed at `at`, once; true if this call did.
    pub async fn close_tournament_round(
        &self,
        id: Uuid,
        round: i64,
        at: i64,
    ) -> Result<bool, StoreError> {
        self.within(async {
            let closed = sqlx::query(
                "UPDATE tournament_rounds SET closed_at = $1 \
                 WHERE tournament_id = $2 AND round = $3 AND closed_at IS NULL",
            )
            .bind(at)
            .bind(id.to_string())
            .bind(round)
            .execute(&self.pool)
            .await?
            .rows_affected();
            Ok(closed > 0)
        })
        .await
    }
}

async fn result_write(
    conn: &mut sqlx::AnyConnection,
    lobby: Uuid,
    result: &str,
) -> Result<u64, StoreError> {
    Ok(sqlx::query(
        "UPDATE tournament_games SET result = $1 WHERE lobby_id = $2 AND result IS NULL",
    )
    .bind(result)
    .bind(lobby.to_string())
    .execute(&mut *conn)
    .await?
    .rows_affected())
}

/// What a change's news is stamped with: its seq (the version the change writes) and when.
#[derive(Clone, Copy, Debug)]
struct Stamp {
    seq: i64,
    now: i64,
}

async fn apply(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    write: &TournamentWrite,
    stamp: Stamp,
) -> Result<(), StoreError> {
    let query = match write {
        TournamentWrite::Progress {
            status,
            round,
            rounds_total,
        } => sqlx::query(
            "UPDATE tournaments SET status = $1, round = $2, rounds_total = $3 WHERE id = $4",
        )
        .bind(status.clone())
        .bind(*round)
        .bind(*rounds_total)
        .bind(id.to_string()),
        TournamentWrite::Enter(e) => sqlx::query(
            "INSERT INTO tournament_entrants (tournament_id, entry, profile_id, rating, \
             first_round, withdrawn) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id.to_string())
        .bind(e.entry)
        .bind(e.profile.to_string())
        .bind(e.rating)
        .bind(e.first_round)
        .bind(i64::from(e.withdrawn)),
        TournamentWrite::Rating { entry, rating } => sqlx::query(
            "UPDATE tournament_entrants SET rating = $1 WHERE tournament_id = $2 AND entry = $3",
        )
        .bind(*rating)
        .bind(id.to_string())
        .bind(*entry),
        TournamentWrite::Withdraw { entry } => sqlx::query(
            "UPDATE tournament_entrants SET withdrawn = 1 WHERE tournament_id = $1 AND entry = $2",
        )
        .bind(id.to_string())
        .bind(*entry),
        TournamentWrite::Leave { entry } => {
            sqlx::query("DELETE FROM tournament_entrants WHERE tournament_id = $1 AND entry = $2")
                .bind(id.to_string())
                .bind(*entry)
        }
        TournamentWrite::Round(r) => sqlx::query(
            "INSERT INTO tournament_rounds (tournament_id, round, byes, started_at, closed_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id.to_string())
        .bind(r.round)
        .bind(r.byes.clone())
        .bind(r.started_at)
        .bind(r.closed_at),
        TournamentWrite::Game(g) => sqlx::query(
            "INSERT INTO tournament_games (lobby_id, tournament_id, round, ordinal, players, \
             result) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(g.lobby.to_string())
        .bind(id.to_string())
        .bind(g.round)
        .bind(g.ordinal)
        .bind(g.players.clone())
        .bind(g.result.clone()),
        TournamentWrite::Result { lobby, result } => {
            result_write(tx, *lobby, result).await?;
            return Ok(());
        }
        TournamentWrite::News { kind, data } => {
            super::tournament_news::publish(tx, id, stamp.seq, kind, data, stamp.now).await?;
            return Ok(());
        }
    };
    query.execute(&mut **tx).await?;
    Ok(())
}
