//! Challenges between profiles (docs/bots.md, "Challenges"). A challenge belongs to no lobby
//! until it is accepted, so its rows are written outside any lobby's transaction, as profile
//! rows are. Each write rings the profiles it concerns (`bells.rs`), here and, on PostgreSQL,
//! in the other processes through an announcement in the same transaction.

use uuid::Uuid;

use super::columns::Columns;
use super::{Backend, Store, StoreError};

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: Uuid,
    pub from: Uuid,
    pub to: Uuid,
    pub game: String,
    /// The lobby settings asked for, as JSON text.
    pub settings: String,
    pub created_at: i64,
    pub state: ChallengeState,
    pub lobby: Option<Uuid>,
}

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeState {
    Open,
    Accepted,
    Declined,
}

impl ChallengeState {
    pub const fn as_str(self) -> &'static str {
        match self {
            ChallengeState::Open => "open",
            ChallengeState::Accepted => "accepted",
            ChallengeState::Declined => "declined",
        }
    }

    fn parse(text: &str) -> Option<ChallengeState> {
        [
            ChallengeState::Open,
            ChallengeState::Accepted,
            ChallengeState::Declined,
        ]
        .into_iter()
        .find(|state| state.as_str() == text)
    }
}

/// The columns a challenge is read from.
macro_rules! columns {
    () => {
        "SELECT id, from_profile, to_profile, game, settings, created_at, state, lobby_id \
         FROM challenges "
    };
}
const BY_ID: &str = concat!(columns!(), "WHERE id = $1");
const OPEN_TO: &str = concat!(
    columns!(),
    "WHERE to_profile = $1 AND state = 'open' AND created_at > $2 ORDER BY created_at, id"
);
const FROM: &str = concat!(
    columns!(),
    "WHERE from_profile = $1 ORDER BY created_at DESC, id LIMIT $2"
);
const SETTLE: &str = "UPDATE challenges SET state = $1, lobby_id = $2 WHERE id = $3 \
    AND state = 'open' AND created_at > $4 RETURNING from_profile, to_profile";

fn challenge_of(row: &sqlx::any::AnyRow) -> Result<ChallengeRow, StoreError> {
    let row = Columns::of("challenges", row);
    Ok(ChallengeRow {
        id: row.uuid("id")?,
        from: row.uuid("from_profile")?,
        to: row.uuid("to_profile")?,
        game: row.text("game")?,
        settings: row.text("settings")?,
        created_at: row.int("created_at")?,
        state: row.word("state", ChallengeState::parse)?,
        lobby: row
            .text_or_null("lobby_id")?
            .map(|text| Uuid::parse_str(&text).map_err(|_| row.corrupt("lobby_id", &text)))
            .transpose()?,
    })
}

impl Store {
    /// Stores a new open challenge and rings its opponent.
    pub async fn create_challenge(&self, challenge: &ChallengeRow) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO challenges (id, from_profile, to_profile, game, settings, created_at, \
             state, lobby_id) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)",
        )
        .bind(challenge.id.to_string())
        .bind(challenge.from.to_string())
        .bind(challenge.to.to_string())
        .bind(&challenge.game)
        .bind(&challenge.settings)
        .bind(challenge.created_at)
        .bind(ChallengeState::Open.as_str())
        .execute(&mut *tx)
        .await?;
        self.ring_in(&mut tx, &[challenge.to]).await?;
        tx.commit().await?;
        self.feed.bells().ring(challenge.to);
        Ok(())
    }

    /// The challenge `id`, if there is one.
    pub async fn challenge(&self, id: Uuid) -> Result<Option<ChallengeRow>, StoreError> {
        let row = self
            .within(async {
                Ok(sqlx::query(BY_ID)
                    .bind(id.to_string())
                    .fetch_optional(&self.pool)
                    .await?)
            })
            .await?;
        row.as_ref().map(challenge_of).transpose()
    }

    /// The open challenges to `profile` made after `since` (older ones have lapsed), oldest
    /// first.
    pub async fn challenges_to(
        &self,
        profile: Uuid,
        since: i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let rows = self
            .within(async {
                Ok(sqlx::query(OPEN_TO)
                    .bind(profile.to_string())
                    .bind(since)
                    .fetch_all(&self.pool)
                    .await?)
            })
            .await?;
        rows.iter().map(challenge_of).collect()
    }

    /// The latest `limit` challenges `profile` made, in any state, newest first.
    pub async fn challenges_from(
        &self,
        profile: Uuid,
        limit: i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let rows = self
            .within(async {
                Ok(sqlx::query(FROM)
                    .bind(profile.to_string())
                    .bind(limit)
                    .fetch_all(&self.pool)
                    .await?)
            })
            .await?;
        rows.iter().map(challenge_of).collect()
    }

    /// Moves challenge `id` from open (made after `since`) to `state`, with `lobby`; false if
    /// it was not open any more (answered meanwhile, or lapsed). Rings both profiles.
    pub async fn settle_challenge(
        &self,
        id: Uuid,
        since: i64,
        state: ChallengeState,
        lobby: Option<Uuid>,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query(SETTLE)
            .bind(state.as_str())
            .bind(lobby.map(|lobby| lobby.to_string()))
            .bind(id.to_string())
            .bind(since)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(row) = row else {
            return Ok(false);
        };
        let row = Columns::of("challenges", &row);
        let profiles = [row.uuid("from_profile")?, row.uuid("to_profile")?];
        self.ring_in(&mut tx, &profiles).await?;
        tx.commit().await?;
        for profile in profiles {
            self.feed.bells().ring(profile);
        }
        Ok(true)
    }

    /// Records the lobby an accepted challenge made.
    pub async fn challenge_lobby(&self, id: Uuid, lobby: Uuid) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        sqlx::query("UPDATE challenges SET lobby_id = $1 WHERE id = $2")
            .bind(lobby.to_string())
            .bind(id.to_string())
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Puts an accepted challenge back to open: its lobby could not be made.
    pub async fn reopen_challenge(&self, id: Uuid) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        sqlx::query("UPDATE challenges SET state = 'open', lobby_id = NULL WHERE id = $1")
            .bind(id.to_string())
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Rings `profiles` in the other processes once `tx` commits (PostgreSQL).
    async fn ring_in(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        profiles: &[Uuid],
    ) -> Result<(), StoreError> {
        match self.backend {
            Backend::Postgres => {
                super::pg_listen::announce_profiles(tx, &self.process, profiles).await
            }
            Backend::Sqlite => Ok(()),
        }
    }
}
