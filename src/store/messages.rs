//! Reading a lobby's table-talk messages (docs/table-talk.md). They are written with the change
//! that announces them (`Change::message`); who may read which is the host's business.

use uuid::Uuid;

use super::rows::MessageRow;
use super::{Store, StoreError, sql};

impl Store {
    /// Every message of a lobby, oldest first.
    pub async fn messages(&self, id: Uuid) -> Result<Vec<MessageRow>, StoreError> {
        let rows = self
            .within(async {
                Ok(sqlx::query(sql::MESSAGES_OF_LOBBY)
                    .bind(id.to_string())
                    .fetch_all(&self.pool)
                    .await?)
            })
            .await?;
        rows.iter().map(MessageRow::read).collect()
    }
}
