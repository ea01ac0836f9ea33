//! Reading a lobby's table-talk messages (docs/table-talk.md), and each player's read marks.
//! Messages are written with the change that announces them (`Change::message`); who may read
//! which is the host's business. A read mark is the player's own bookkeeping, not the lobby's
//! state, so it is written straight to its table rather than through the lobby's writer.

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

impl Store {
    /// How far `player` has read each conversation: (conversation, last message number seen).
    pub async fn read_marks(
        &self,
        lobby: Uuid,
        player: Uuid,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = self
            .within(async {
                Ok(sqlx::query(sql::READ_MARKS)
                    .bind(lobby.to_string())
                    .bind(player.to_string())
                    .fetch_all(&self.pool)
                    .await?)
            })
            .await?;
        rows.iter()
            .map(|row| {
                let row = super::columns::Columns::of("message_reads", row);
                Ok((row.text("conversation")?, row.int("seen_seq")?))
            })
            .collect()
    }

    /// Marks `conversation` read by `player` up to message number `seq` (never back).
    pub async fn mark_read(
        &self,
        lobby: Uuid,
        player: Uuid,
        conversation: &str,
        seq: i64,
    ) -> Result<(), StoreError> {
        self.within(async {
            sqlx::query(sql::MARK_READ)
                .bind(lobby.to_string())
                .bind(player.to_string())
                .bind(conversation)
                .bind(seq)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
        .await
    }
}
