//! The scheduler's read: the lobbies whose clocks need it soonest. It walks the partial index
//! on `lobbies.wake_at` (migration 0003) from its start, so it costs the same with ten lobbies
//! or ten thousand.

use uuid::Uuid;

use super::columns::Columns;
use super::{Store, StoreError};

impl Store {
    /// Up to `limit` lobbies with a clock, soonest first: (id, wake_at in unix ms).
    pub async fn upcoming(&self, limit: i64) -> Result<Vec<(Uuid, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, wake_at FROM lobbies WHERE wake_at IS NOT NULL ORDER BY wake_at LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let row = Columns::of("lobbies", row);
                Ok((row.uuid("id")?, row.int("wake_at")?))
            })
            .collect()
    }
}
