//! The host's reminders as stored (migration 0032, docs/notifications.md "Reminders"): one row
//! per player and step, and one delivery per working destination of the player's own, written
//! together. The reminder's row is inserted first, so that the transaction takes the write lock
//! at once (SQLite) or waits on a racing insert of the same key (PostgreSQL): of two requests
//! at once, the second finds the row and writes nothing.

use std::collections::HashSet;

use uuid::Uuid;

use super::columns::Columns;
use super::{Store, StoreError};

/// A reminder to write: whom, for which step (`step_seq`, with its round and name in words).
#[derive(Clone, Debug)]
pub struct NewReminder {
    pub lobby: Uuid,
    pub player: Uuid,
    pub step_seq: i64,
    pub round: u32,
    pub step: String,
}

/// What writing a reminder came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reminded {
    /// Stored, with a delivery queued to each of `destinations`.
    Queued { destinations: usize },
    /// Nothing written: the player was reminded of this step already.
    Already,
    /// Nothing written: the player has no destination of their own that is enabled.
    Nowhere,
}

const INSERT: &str = "INSERT INTO seat_reminders \
    (lobby_id, player_id, step_seq, round, step, reminded_at) VALUES ($1, $2, $3, $4, $5, $6) \
    ON CONFLICT (lobby_id, step_seq, player_id) DO NOTHING";

/// One delivery per enabled destination of the player's own, whatever events it chose: the
/// reminder is the host's own word to that player, not a game event. Its id names the
/// destination and the step ([`reminder_delivery`]), the same on every attempt. Parameters
/// first appear in order ($1 first), as the outbox's other statements keep them.
const QUEUE: &str = "INSERT INTO notify_outbox \
    (id, target_id, lobby_id, event_seq, kind, status, attempts, next_at, created_at) \
    SELECT t.id || '.reminder-' || $1, t.id, $2, NULL, 'reminder', 'pending', 0, $3, $3 \
    FROM notify_targets t WHERE t.lobby_id = $2 AND t.player_id = $4 AND t.enabled = 1";

/// The delivery kind of a reminder in the outbox.
pub const REMINDER_KIND: &str = "reminder";

/// The step a reminder's delivery id names (`<destination>.reminder-<step_seq>`, as [`QUEUE`]
/// writes it), if it is one.
pub fn reminder_delivery(id: &str) -> Option<i64> {
    id.rsplit_once(".reminder-")?.1.parse().ok()
}

impl Store {
    /// Writes the reminder and its deliveries in one transaction, or nothing at all.
    #[tracing::instrument(skip_all, fields(lobby = %reminder.lobby))]
    pub async fn record_reminder(
        &self,
        reminder: &NewReminder,
        now: i64,
    ) -> Result<Reminded, StoreError> {
        let (lobby, player) = (reminder.lobby.to_string(), reminder.player.to_string());
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(INSERT)
            .bind(&lobby)
            .bind(&player)
            .bind(reminder.step_seq)
            .bind(i64::from(reminder.round))
            .bind(&reminder.step)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        if inserted.rows_affected() == 0 {
            tx.rollback().await?;
            return Ok(Reminded::Already);
        }
        let queued = sqlx::query(QUEUE)
            .bind(reminder.step_seq.to_string())
            .bind(&lobby)
            .bind(now)
            .bind(&player)
            .execute(&mut *tx)
            .await?;
        if queued.rows_affected() == 0 {
            // The row alone would say "reminded" of a reminder that went nowhere.
            tx.rollback().await?;
            return Ok(Reminded::Nowhere);
        }
        tx.commit().await?;
        Ok(Reminded::Queued {
            destinations: queued.rows_affected() as usize,
        })
    }

    /// The round and step, in words, of the reminder of `player` for step `step_seq`.
    pub async fn reminder(
        &self,
        lobby: Uuid,
        player: Uuid,
        step_seq: i64,
    ) -> Result<Option<(u32, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT round, step FROM seat_reminders \
             WHERE lobby_id = $1 AND step_seq = $2 AND player_id = $3",
        )
        .bind(lobby.to_string())
        .bind(step_seq)
        .bind(player.to_string())
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let row = Columns::of("seat_reminders", &row);
        Ok(Some((row.count("round")?, row.text("step")?)))
    }

    /// The players reminded of step `step_seq` of a lobby.
    pub async fn reminded(&self, lobby: Uuid, step_seq: i64) -> Result<HashSet<Uuid>, StoreError> {
        let rows = sqlx::query(
            "SELECT player_id FROM seat_reminders WHERE lobby_id = $1 AND step_seq = $2",
        )
        .bind(lobby.to_string())
        .bind(step_seq)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Columns::of("seat_reminders", row).uuid("player_id"))
            .collect()
    }

    /// The players of a lobby with at least one enabled destination of their own: whom a
    /// reminder can reach. Says nothing of where.
    pub async fn reachable_players(&self, lobby: Uuid) -> Result<HashSet<Uuid>, StoreError> {
        let rows = sqlx::query(
            "SELECT DISTINCT player_id FROM notify_targets \
             WHERE lobby_id = $1 AND player_id IS NOT NULL AND enabled = 1",
        )
        .bind(lobby.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Columns::of("notify_targets", row).uuid("player_id"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reminders_delivery_id_names_its_step_and_no_other_id_does() {
        let target = Uuid::from_u128(7);
        assert_eq!(
            reminder_delivery(&format!("{target}.reminder-12")),
            Some(12)
        );
        assert_eq!(reminder_delivery(&format!("{target}.12")), None);
        assert_eq!(reminder_delivery(&format!("{target}.test-abc")), None);
        assert_eq!(reminder_delivery(&format!("{target}.reminder-x")), None);
    }
}
