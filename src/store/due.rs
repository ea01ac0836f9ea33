//! The scheduler's reads: which lobbies' clocks are due, and when the next one is. Both use
//! the partial index on `lobbies.wake_at` (migration 0003), so they cost the same with ten
//! lobbies or ten thousand.

use sqlx::Row;
use uuid::Uuid;

use super::Store;
use super::rows::uuid;

impl Store {
    /// The earliest instant any lobby's clock needs the scheduler (unix ms), if any.
    pub async fn next_wake(&self) -> Result<Option<i64>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT wake_at FROM lobbies WHERE wake_at IS NOT NULL ORDER BY wake_at LIMIT 1",
        )
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| r.try_get(0)).transpose()
    }

    /// Up to `limit` lobbies whose clocks are due at `now`, the most overdue first.
    pub async fn due_lobbies(&self, now: i64, limit: i64) -> Result<Vec<Uuid>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT id FROM lobbies WHERE wake_at IS NOT NULL AND wake_at <= $1 \
             ORDER BY wake_at LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| uuid(r.try_get(0)?)).collect()
    }
}
