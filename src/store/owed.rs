//! The reliability record as stored (docs/identity.md, "Reliability"): the steps profiles'
//! bound seats owed (`owed_steps`, written by the lobby's own transaction in
//! `profile_rows.rs`), read back for a profile or a lobby, and the host's excuse.

use uuid::Uuid;

use super::columns::Columns;
use super::profile_rows::{Excuse, Outcome};
use super::{Store, StoreError};

/// A step a profile's bound seat owed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwedRow {
    pub lobby: Uuid,
    pub player: Uuid,
    pub step_seq: i64,
    pub round: u32,
    pub step: String,
    pub due_at: i64,
    pub outcome: Outcome,
    /// Who excused it, for an excused step.
    pub excused_by: Option<Excuse>,
    /// The host's reason for an excuse (shown to the player only).
    pub reason: Option<String>,
}

/// A miss of a lobby's bound seat, as the host's panel lists it to excuse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissRow {
    pub player: Uuid,
    pub round: u32,
    pub step: String,
    pub due_at: i64,
}

const OWED: &str = "SELECT lobby_id, player_id, step_seq, round, step, due_at, outcome, \
    excused_by, excuse_reason FROM owed_steps WHERE profile_id = $1 AND due_at >= $2 \
    ORDER BY due_at, lobby_id, step_seq";

const MISSES: &str = "SELECT player_id, round, step, due_at FROM owed_steps \
    WHERE lobby_id = $1 AND outcome = 'missed' AND due_at >= $2 ORDER BY step_seq, player_id";

const EXCUSE: &str = "UPDATE owed_steps SET outcome = 'excused', excused_by = 'host', \
    excuse_reason = $1 WHERE lobby_id = $2 AND player_id = $3 AND round = $4 AND step = $5 \
    AND outcome = 'missed'";

const OWED_AT: &str = "SELECT outcome, due_at FROM owed_steps \
    WHERE lobby_id = $1 AND player_id = $2 AND round = $3 AND step = $4";

fn owed_of(row: &sqlx::any::AnyRow) -> Result<OwedRow, StoreError> {
    let row = Columns::of("owed_steps", row);
    let excused_by = match row.text_or_null("excused_by")? {
        Some(text) => Some(Excuse::parse(&text).ok_or_else(|| row.corrupt("excused_by", &text))?),
        None => None,
    };
    Ok(OwedRow {
        lobby: row.uuid("lobby_id")?,
        player: row.uuid("player_id")?,
        step_seq: row.int("step_seq")?,
        round: row.count("round")?,
        step: row.text("step")?,
        due_at: row.int("due_at")?,
        outcome: row.word("outcome", Outcome::parse)?,
        excused_by,
        reason: row.text_or_null("excuse_reason")?,
    })
}

impl Store {
    /// The steps `profile`'s bound seats owed that resolved at or after `since`, oldest first.
    pub async fn owed_steps(&self, profile: Uuid, since: i64) -> Result<Vec<OwedRow>, StoreError> {
        let rows = sqlx::query(OWED)
            .bind(profile.to_string())
            .bind(since)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(owed_of).collect()
    }

    /// The unexcused misses of lobby `lobby`'s bound seats that resolved at or after `since`.
    pub async fn lobby_misses(&self, lobby: Uuid, since: i64) -> Result<Vec<MissRow>, StoreError> {
        let rows = sqlx::query(MISSES)
            .bind(lobby.to_string())
            .bind(since)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| {
                let row = Columns::of("owed_steps", row);
                Ok(MissRow {
                    player: row.uuid("player_id")?,
                    round: row.count("round")?,
                    step: row.text("step")?,
                    due_at: row.int("due_at")?,
                })
            })
            .collect()
    }

    /// How `player` of `lobby` answered `(round, step)` and when it resolved; None when its
    /// record holds no such step.
    pub async fn owed_step(
        &self,
        lobby: Uuid,
        player: Uuid,
        (round, step): (u32, &str),
    ) -> Result<Option<(Outcome, i64)>, StoreError> {
        let row = sqlx::query(OWED_AT)
            .bind(lobby.to_string())
            .bind(player.to_string())
            .bind(i64::from(round))
            .bind(step)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let row = Columns::of("owed_steps", &row);
        Ok(Some((
            row.word("outcome", Outcome::parse)?,
            row.int("due_at")?,
        )))
    }

    /// The host excuses the miss of `player` at `(round, step)` of `lobby`, for `reason`;
    /// false if it is not (or no longer) a miss.
    pub async fn excuse_step(
        &self,
        lobby: Uuid,
        player: Uuid,
        (round, step): (u32, &str),
        reason: &str,
    ) -> Result<bool, StoreError> {
        let excused = sqlx::query(EXCUSE)
            .bind(reason)
            .bind(lobby.to_string())
            .bind(player.to_string())
            .bind(i64::from(round))
            .bind(step)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(excused > 0)
    }
}
