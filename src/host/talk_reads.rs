//! A player's table talk as conversations (docs/table-talk.md, "Pages"): the public channel and
//! one conversation per correspondent, each with what the player has not read yet.
//!
//! A message to everyone is in the public channel. A private message is, for its sender, in the
//! conversation with each of its recipients, and for a recipient, in the conversation with its
//! sender: a conversation is what two players said to each other.

use serde::Serialize;
use uuid::Uuid;

use super::Host;
use super::auth::require_player;
use super::talk::{MessageView, readable, readable_numbered, revealed};
use super::talk_settings::Press;
use super::timing::Timing;
use crate::error::AppError;
use crate::events::Recipients;
use crate::store::MessageRow;

/// The public channel's key in the read marks.
pub const PUBLIC: &str = "all";

/// One conversation as a player sees it.
#[derive(Clone, Debug, Serialize)]
pub struct Conversation {
    /// [`PUBLIC`], or the correspondent's player id.
    pub key: String,
    /// Its messages, oldest first, with their numbers.
    pub messages: Vec<(i64, MessageView)>,
    /// Messages of others after the player's read mark.
    pub unread: usize,
}

/// A player's table talk.
#[derive(Clone, Debug, Serialize)]
pub struct Talk {
    pub press: Press,
    pub you: Uuid,
    /// Whether the game runs (messages can be sent).
    pub open: bool,
    /// The public channel first, then one conversation per other player in seat order (full
    /// press only).
    pub conversations: Vec<Conversation>,
}

impl Talk {
    pub fn unread(&self) -> usize {
        self.conversations.iter().map(|c| c.unread).sum()
    }
}

impl Host {
    /// The token's player's conversations, or None where the lobby has no press. 401/403 as
    /// for `me`.
    pub async fn talk(&self, id: Uuid, token: &str) -> Result<Option<Talk>, AppError> {
        let presented = self.presented(Some(token)).await?;
        let snapshot = self.snapshot(id).await?;
        let you = require_player(&snapshot, &presented)?.id;
        let settings = Timing::parse(&snapshot.lobby.timing)?.talk();
        if settings.press == Press::None {
            return Ok(None);
        }
        let rows: Vec<MessageRow> = self.store.messages(id).await?;
        let marks = self.store.read_marks(id, you).await?;
        // What the player reads as a player, not what the reveal opens: another pair's talk is
        // on the lobby page once it is everyone's.
        let views = readable_numbered(&rows, Some(you), false)?;
        let mut keys = vec![PUBLIC.to_owned()];
        if settings.press == Press::Full {
            keys.extend(
                snapshot
                    .players
                    .iter()
                    .filter(|p| p.id != you)
                    .map(|p| p.id.to_string()),
            );
        }
        let conversations = keys
            .into_iter()
            .map(|key| {
                let seen = marks
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map_or(0, |(_, seq)| *seq);
                let messages: Vec<(i64, MessageView)> = views
                    .iter()
                    .filter(|(_, m)| in_conversation(m, you, &key))
                    .cloned()
                    .collect();
                let unread = messages
                    .iter()
                    .filter(|(seq, m)| *seq > seen && m.from != you)
                    .count();
                Conversation {
                    key,
                    messages,
                    unread,
                }
            })
            .collect();
        Ok(Some(Talk {
            press: settings.press,
            you,
            open: snapshot.lobby.status == crate::store::Status::Running,
            conversations,
        }))
    }

    /// Marks the token's player's conversation `key` read up to message `seq`.
    pub async fn mark_read(
        &self,
        id: Uuid,
        token: &str,
        key: &str,
        seq: i64,
    ) -> Result<(), AppError> {
        let you = self.player_id(id, Some(token)).await?;
        Ok(self.store.mark_read(id, you, key, seq).await?)
    }

    /// The messages everyone may read now, for the lobby's public pages.
    pub async fn public_messages(&self, id: Uuid) -> Result<Vec<MessageView>, AppError> {
        let snapshot = self.snapshot(id).await?;
        let settings = Timing::parse(&snapshot.lobby.timing)?.talk();
        if settings.press == Press::None {
            return Ok(Vec::new());
        }
        let rows = self.store.messages(id).await?;
        readable(&rows, None, revealed(&snapshot, settings.press_reveal))
    }
}

/// Whether `message`, which `you` may read, belongs to the conversation `key`.
fn in_conversation(message: &MessageView, you: Uuid, key: &str) -> bool {
    match &message.to {
        Recipients::All(_) => key == PUBLIC,
        Recipients::Players(to) if message.from == you => to.iter().any(|p| p.to_string() == key),
        Recipients::Players(_) => message.from.to_string() == key,
    }
}
