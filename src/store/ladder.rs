//! The ladder's rows (docs/bots.md, "The ladder"): who is entered in which game's ladder, and
//! the rounds the server paired with their games. A round is written whole or not at all, in
//! one transaction keyed by the instant its interval began: the insert that finds the key
//! taken writes nothing, so a round is paired once whatever the processes or the ticks.

use std::collections::BTreeMap;

use uuid::Uuid;

use super::columns::Columns;
use super::{Store, StoreError};

/// A bot entered in a game's ladder, with what pairing needs of its profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderEntryRow {
    pub profile: Uuid,
    pub handle: String,
    /// The bot's owner; None for the server's own boss bots.
    pub owner: Option<Uuid>,
    pub entered_at: i64,
}

/// One ladder game: its lobby (drawn before the lobby exists) and its seats' profiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderGameRow {
    pub lobby: Uuid,
    pub round_at: i64,
    pub game: String,
    /// The profiles in seat order.
    pub seats: Vec<Uuid>,
    /// Whether the lobby stands started.
    pub made: bool,
}

const ENTRIES: &str = "SELECT e.profile_id, e.entered_at, p.handle, p.owner_id \
    FROM ladder_entries e JOIN profiles p ON p.id = e.profile_id \
    WHERE e.game = $1 ORDER BY e.entered_at, e.profile_id";

/// A bot's ladder games not over: those not made yet, and those whose lobby has not finished
/// (a lobby the retention sweep deleted was finished).
const BUSY: &str = "SELECT s.profile_id, COUNT(*) AS games FROM ladder_seats s \
    JOIN ladder_games g ON g.lobby_id = s.lobby_id \
    LEFT JOIN lobbies l ON l.id = g.lobby_id \
    WHERE g.made = 0 OR l.status IN ('signups', 'closed', 'running') \
    GROUP BY s.profile_id";

/// The columns a game is read from, one row per seat.
macro_rules! games {
    () => {
        "SELECT g.lobby_id, g.round_at, g.game, g.made, s.seat, s.profile_id \
         FROM ladder_games g JOIN ladder_seats s ON s.lobby_id = g.lobby_id "
    };
}
const UNMADE: &str = concat!(
    games!(),
    "WHERE g.made = 0 ORDER BY g.round_at, g.lobby_id, s.seat"
);
const LATEST: &str = concat!(
    games!(),
    "WHERE g.lobby_id IN (SELECT lobby_id FROM ladder_games WHERE game = $1 \
     ORDER BY round_at DESC, lobby_id LIMIT $2) ORDER BY g.round_at DESC, g.lobby_id, s.seat"
);

/// Rows of [`games!`] gathered into games, in the order they came.
fn games_of(rows: &[sqlx::any::AnyRow]) -> Result<Vec<LadderGameRow>, StoreError> {
    let mut games: Vec<LadderGameRow> = Vec::new();
    for row in rows {
        let row = Columns::of("ladder_games", row);
        let lobby = row.uuid("lobby_id")?;
        let profile = row.uuid("profile_id")?;
        match games.last_mut() {
            Some(game) if game.lobby == lobby => game.seats.push(profile),
            _ => games.push(LadderGameRow {
                lobby,
                round_at: row.int("round_at")?,
                game: row.text("game")?,
                seats: vec![profile],
                made: row.int("made")? != 0,
            }),
        }
    }
    Ok(games)
}

impl Store {
    /// Enters `profile` in `game`'s ladder; false if it was already entered.
    pub async fn enter_ladder(
        &self,
        game: &str,
        profile: Uuid,
        at: i64,
    ) -> Result<bool, StoreError> {
        let mut conn = self.pool.acquire().await?;
        let done = sqlx::query(
            "INSERT INTO ladder_entries (game, profile_id, entered_at) VALUES ($1, $2, $3) \
             ON CONFLICT (game, profile_id) DO NOTHING",
        )
        .bind(game)
        .bind(profile.to_string())
        .bind(at)
        .execute(&mut *conn)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Takes `profile` out of `game`'s ladder; false if it was not entered.
    pub async fn leave_ladder(&self, game: &str, profile: Uuid) -> Result<bool, StoreError> {
        let mut conn = self.pool.acquire().await?;
        let done = sqlx::query("DELETE FROM ladder_entries WHERE game = $1 AND profile_id = $2")
            .bind(game)
            .bind(profile.to_string())
            .execute(&mut *conn)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The bots entered in `game`'s ladder, first entered first.
    pub async fn ladder_entries(&self, game: &str) -> Result<Vec<LadderEntryRow>, StoreError> {
        let rows = self
            .within(async {
                Ok(sqlx::query(ENTRIES)
                    .bind(game)
                    .fetch_all(&self.pool)
                    .await?)
            })
            .await?;
        rows.iter()
            .map(|row| {
                let row = Columns::of("ladder_entries", row);
                Ok(LadderEntryRow {
                    profile: row.uuid("profile_id")?,
                    handle: row.text("handle")?,
                    owner: row
                        .text_or_null("owner_id")?
                        .map(|text| Uuid::parse_str(&text).map_err(|e| row.corrupt("owner_id", e)))
                        .transpose()?,
                    entered_at: row.int("entered_at")?,
                })
            })
            .collect()
    }

    /// How many ladder games each bot has in progress, in every game (bots with none are
    /// left out).
    pub async fn ladder_busy(&self) -> Result<BTreeMap<Uuid, u32>, StoreError> {
        let rows = self
            .within(async { Ok(sqlx::query(BUSY).fetch_all(&self.pool).await?) })
            .await?;
        rows.iter()
            .map(|row| {
                let row = Columns::of("ladder_seats", row);
                Ok((row.uuid("profile_id")?, row.count("games")?))
            })
            .collect()
    }

    /// Writes the round of the interval that began at `round_at` with its `games`, all or
    /// nothing; false (nothing written) if that round was already paired.
    pub async fn create_ladder_round(
        &self,
        round_at: i64,
        paired_at: i64,
        games: &[LadderGameRow],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO ladder_rounds (round_at, paired_at) VALUES ($1, $2) \
             ON CONFLICT (round_at) DO NOTHING",
        )
        .bind(round_at)
        .bind(paired_at)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted == 0 {
            return Ok(false);
        }
        for game in games {
            sqlx::query(
                "INSERT INTO ladder_games (lobby_id, round_at, game, made) VALUES ($1, $2, $3, 0)",
            )
            .bind(game.lobby.to_string())
            .bind(round_at)
            .bind(&game.game)
            .execute(&mut *tx)
            .await?;
            for (seat, profile) in game.seats.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO ladder_seats (lobby_id, seat, profile_id) VALUES ($1, $2, $3)",
                )
                .bind(game.lobby.to_string())
                .bind(i64::try_from(seat).unwrap_or(i64::MAX))
                .bind(profile.to_string())
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The ladder games whose lobbies are not made yet, oldest first.
    pub async fn unmade_ladder_games(&self) -> Result<Vec<LadderGameRow>, StoreError> {
        let rows = self
            .within(async { Ok(sqlx::query(UNMADE).fetch_all(&self.pool).await?) })
            .await?;
        games_of(&rows)
    }

    /// Marks ladder game `lobby` made: its lobby stands started.
    pub async fn ladder_game_made(&self, lobby: Uuid) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        sqlx::query("UPDATE ladder_games SET made = 1 WHERE lobby_id = $1")
            .bind(lobby.to_string())
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// `game`'s latest `limit` ladder games, newest round first.
    pub async fn latest_ladder_games(
        &self,
        game: &str,
        limit: i64,
    ) -> Result<Vec<LadderGameRow>, StoreError> {
        let rows = self
            .within(async {
                Ok(sqlx::query(LATEST)
                    .bind(game)
                    .bind(limit)
                    .fetch_all(&self.pool)
                    .await?)
            })
            .await?;
        games_of(&rows)
    }

    /// How many rounds were paired (the ladder's tests count them).
    pub async fn ladder_rounds(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS rounds FROM ladder_rounds")
            .fetch_one(&self.pool)
            .await?;
        Columns::of("ladder_rounds", &row).int("rounds")
    }

    /// The server's own bot profile `boss` (no owner, no key), made if no profile holds its
    /// handle yet; returns the profile that holds the handle, which the caller checks is the
    /// server's (a person may have taken the handle first).
    pub async fn ensure_boss_profile(
        &self,
        boss: &super::ProfileRow,
    ) -> Result<Option<super::ProfileRow>, StoreError> {
        let mut conn = self.pool.acquire().await?;
        sqlx::query(
            "INSERT INTO profiles (id, handle, handle_key, kind, owner_id, created_at) \
             VALUES ($1, $2, $3, $4, NULL, $5) ON CONFLICT (handle_key) DO NOTHING",
        )
        .bind(boss.id.to_string())
        .bind(&boss.handle)
        .bind(&boss.handle_key)
        .bind(boss.kind.as_str())
        .bind(boss.created_at)
        .execute(&mut *conn)
        .await?;
        drop(conn);
        self.profile_by_handle(&boss.handle_key).await
    }
}
