//! The scheduler's read: the lobbies whose clocks need it soonest. It walks the partial index
//! on `lobbies.wake_at` (migration 0003) from its start, so it costs the same with ten lobbies
//! or ten thousand.

use sqlx::Row;
use uuid::Uuid;

use super::Store;
use super::rows::uuid;

impl Store {
    /// Up to `limit` lobbies with a clock, soonest first: (id, wake_at in unix ms).
    pub async fn upcoming(&self, limit: i64) -> Result<Vec<(Uuid, i64)>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT id, wake_at FROM lobbies WHERE wake_at IS NOT NULL ORDER BY wake_at LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((uuid(r.try_get(0)?)?, r.try_get(1)?)))
            .collect()
    }
}
