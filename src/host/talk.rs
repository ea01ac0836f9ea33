//! Table talk (docs/table-talk.md): messages between the players of a running game, in the
//! lobby's press mode, and who may read which. A message is written with the `message` event
//! that announces it, in one change of the lobby (so under its compare-and-swap: never after
//! the game ended, never half-written). Before the reveal a private message is readable only by
//! its sender and recipients; once the game is over, with `press_reveal`, by everyone.

use serde::Serialize;
use uuid::Uuid;

use super::auth::{Caller, identify, require_player};
use super::names::clean_text;
use super::talk_settings::Press;
use super::timing::{Timing, rfc3339};
use super::{Host, engine::to_json};
use crate::error::AppError;
use crate::events::{EventKind, Message, Recipients};
use crate::store::{Change, MessageRow, NewEvent, NewMessage, PlayerRow, Snapshot, Status};

/// The longest message, in characters once trimmed.
pub const MAX_MESSAGE_CHARS: usize = 2_000;

/// A message as it is read (`GET /api/v1/lobbies/{id}/messages`, the pages, the archive).
pub use crate::fairness::archive::ArchivedMessage as MessageView;

/// The messages one reader may read, oldest first.
#[derive(Debug, Serialize)]
pub struct MessagesView {
    /// The lobby's press mode.
    pub press: Press,
    /// True once every message is readable by everyone (the game is over, with
    /// `press_reveal`).
    pub revealed: bool,
    pub messages: Vec<MessageView>,
}

/// A sent message's acknowledgement: it is durably stored when this is sent.
#[derive(Debug, Serialize)]
pub struct Sent {
    pub id: Uuid,
    pub at: String,
}

impl Host {
    /// Sends `text` from the token's player to `to`, in the lobby's press mode, while the game
    /// runs. Refused, with nothing written: 422 `invalid-text` or `invalid-recipients`, 403
    /// `press-forbidden`, 409 `not-started` or `game-over`, 429 past the player's allowance.
    pub async fn send_message(
        &self,
        id: Uuid,
        token: Option<&str>,
        to: Recipients,
        text: &str,
    ) -> Result<Sent, AppError> {
        let text = clean_text(text, MAX_MESSAGE_CHARS, "message")?;
        let presented = self.presented(token).await?;
        let message = Uuid::new_v4();
        let at = self.store.clock().now_millis();
        let limits = self.talk.clone();
        let sender = self
            .change(id, move |snapshot| {
                let player = require_player(snapshot, &presented)?;
                let change = message_change(snapshot, player, message, to, text, at)?;
                limits.check(id, player.id, at)?;
                Ok((change, player.id))
            })
            .await?;
        // Counted once committed, so that a refused or failed message costs no allowance.
        // (Two messages of one player in flight at once are both checked before either is
        // counted: the limit is a brake on floods, not an exact quota.)
        self.talk.count(id, sender, at);
        Ok(Sent {
            id: message,
            at: rfc3339(at),
        })
    }

    /// The messages the token's holder may read: everyone the public ones; a player also those
    /// they sent or received; everyone all of them once the game is over with `press_reveal`.
    /// The host's token reads what everyone reads.
    pub async fn messages(&self, id: Uuid, token: Option<&str>) -> Result<MessagesView, AppError> {
        let presented = self.presented(token).await?;
        let snapshot = self.snapshot(id).await?;
        let reader = match token {
            None => None,
            Some(_) => match identify(&snapshot, &presented)? {
                Caller::Host => None,
                Caller::Player(player) => Some(player.id),
            },
        };
        let settings = Timing::parse(&snapshot.lobby.timing)?.talk();
        let revealed = revealed(&snapshot, settings.press_reveal);
        let rows = match settings.press {
            // A lobby without press has no messages to read.
            Press::None => Vec::new(),
            Press::Public | Press::Full => self.store.messages(id).await?,
        };
        let messages = readable(&rows, reader, revealed)?;
        Ok(MessagesView {
            press: settings.press,
            revealed,
            messages,
        })
    }

    /// The messages an archive holds: those everyone may read now.
    pub(super) async fn archived_messages(
        &self,
        snapshot: &Snapshot,
    ) -> Result<Vec<MessageView>, AppError> {
        let settings = Timing::parse(&snapshot.lobby.timing)?.talk();
        if settings.press == Press::None {
            return Ok(Vec::new());
        }
        let rows = self.store.messages(snapshot.lobby.id).await?;
        readable(&rows, None, revealed(snapshot, settings.press_reveal))
    }

    /// The id of the player whose token this is, for their event stream: 401 for a token the
    /// lobby does not know, 403 for the host's.
    pub async fn player_id(&self, id: Uuid, token: Option<&str>) -> Result<Uuid, AppError> {
        let presented = self.presented(token).await?;
        let snapshot = self.snapshot(id).await?;
        Ok(require_player(&snapshot, &presented)?.id)
    }
}

/// Whether every message of the lobby is readable by everyone now.
pub(super) fn revealed(snapshot: &Snapshot, press_reveal: bool) -> bool {
    press_reveal && snapshot.lobby.status == Status::Finished
}

/// The rows `reader` (None: anyone) may read, as views.
pub(super) fn readable(
    rows: &[MessageRow],
    reader: Option<Uuid>,
    revealed: bool,
) -> Result<Vec<MessageView>, AppError> {
    Ok(readable_numbered(rows, reader, revealed)?
        .into_iter()
        .map(|(_, view)| view)
        .collect())
}

/// [`readable`], each view with its message's number.
pub(super) fn readable_numbered(
    rows: &[MessageRow],
    reader: Option<Uuid>,
    revealed: bool,
) -> Result<Vec<(i64, MessageView)>, AppError> {
    let mut views = Vec::new();
    for row in rows {
        let to = match &row.recipients {
            None => Recipients::All(crate::events::AllPlayers::All),
            Some(list) => Recipients::Players(
                serde_json::from_str(list)
                    .map_err(|e| AppError::Internal(format!("stored recipients: {e}")))?,
            ),
        };
        if revealed || to.readable_by(row.sender, reader) {
            views.push((
                row.seq,
                MessageView {
                    id: row.id,
                    from: row.sender,
                    to,
                    at: rfc3339(row.sent_at),
                    text: row.text.clone(),
                },
            ));
        }
    }
    Ok(views)
}

/// The change that sends a checked message, or why the lobby refuses it.
fn message_change(
    snapshot: &Snapshot,
    player: &PlayerRow,
    id: Uuid,
    to: Recipients,
    text: String,
    at: i64,
) -> Result<Change, AppError> {
    match snapshot.lobby.status {
        Status::Running => {}
        Status::Signups | Status::Closed => {
            return Err(AppError::conflict(
                "not-started",
                "Messages can be sent only while the game runs; it has not started.",
            ));
        }
        Status::Finished => return Err(AppError::conflict("game-over", "The game is over.")),
    }
    let press = Timing::parse(&snapshot.lobby.timing)?.talk().press;
    press.allows(&to)?;
    let recipients = match &to {
        Recipients::All(_) => None,
        Recipients::Players(list) => {
            check_recipients(snapshot, player, list)?;
            Some(to_json(list)?.to_string())
        }
    };
    let event = Message {
        id,
        from: player.id,
        to,
        at: rfc3339(at).into(),
        text: text.as_str().into(),
    };
    let data = serde_json::to_string(&event).map_err(|e| AppError::Internal(e.to_string()))?;
    let change = Change {
        // The message is numbered by this, the change's first event.
        events: vec![NewEvent {
            kind: EventKind::Message,
            data,
        }],
        message: Some(NewMessage {
            id,
            sender: player.id,
            recipients,
            text,
            sent_at: at,
        }),
        ..Change::default()
    };
    Ok(change)
}

/// A private message's recipients: one or more seated players of the lobby (eliminated or
/// not: docs/table-talk.md), each once, never the sender.
fn check_recipients(
    snapshot: &Snapshot,
    sender: &PlayerRow,
    list: &[Uuid],
) -> Result<(), AppError> {
    let refuse = |why: String| AppError::rejected("invalid-recipients", why);
    if list.is_empty() {
        return Err(refuse(
            "\"to\" must be \"all\" or a list of one or more player ids.".into(),
        ));
    }
    for (n, recipient) in list.iter().enumerate() {
        if *recipient == sender.id {
            return Err(refuse("You cannot send a message to yourself.".into()));
        }
        if list[..n].contains(recipient) {
            return Err(refuse(format!("Player {recipient} is named twice.")));
        }
        if !snapshot.players.iter().any(|p| p.id == *recipient) {
            return Err(refuse(format!(
                "There is no player {recipient} in this lobby."
            )));
        }
    }
    Ok(())
}
