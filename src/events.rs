//! The kinds of event a lobby publishes, in one enum, and the typed payloads of the busiest
//! ones. The host files events by [`EventKind`]; the feed wakes turn listeners by
//! [`EventKind::is_turn`]; the event streams accept and send exactly [`EventKind::ALL`];
//! `static/herald.js` listens to the same list and the OpenAPI document names the same kinds
//! (tests hold both to this enum: `tests/it/event_kinds.rs`).

use std::fmt;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// One kind of public event, as its `event:` line names it on the stream.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    PlayerJoined,
    SignupsClosed,
    Started,
    Submitted,
    StepResolved,
    RoundResolved,
    Finished,
    PlayerReplaced,
    PlayerKicked,
    PlayerLeft,
    SignupsReopened,
    EndedByHost,
    DeadlineSet,
    DeadlineApproaching,
    Paused,
    Resumed,
    /// A table-talk message (docs/table-talk.md): on the lobby stream only when it is to
    /// everyone; a private one only on its sender's and recipients' player streams.
    Message,
}

impl EventKind {
    /// Every kind, in the order the documents list them.
    pub const ALL: [EventKind; 17] = [
        EventKind::PlayerJoined,
        EventKind::SignupsClosed,
        EventKind::Started,
        EventKind::Submitted,
        EventKind::StepResolved,
        EventKind::RoundResolved,
        EventKind::Finished,
        EventKind::PlayerReplaced,
        EventKind::PlayerKicked,
        EventKind::PlayerLeft,
        EventKind::SignupsReopened,
        EventKind::EndedByHost,
        EventKind::DeadlineSet,
        EventKind::DeadlineApproaching,
        EventKind::Paused,
        EventKind::Resumed,
        EventKind::Message,
    ];

    /// The kind's name on the wire and in the database (`step-resolved`).
    pub const fn as_str(self) -> &'static str {
        match self {
            EventKind::PlayerJoined => "player-joined",
            EventKind::SignupsClosed => "signups-closed",
            EventKind::Started => "started",
            EventKind::Submitted => "submitted",
            EventKind::StepResolved => "step-resolved",
            EventKind::RoundResolved => "round-resolved",
            EventKind::Finished => "finished",
            EventKind::PlayerReplaced => "player-replaced",
            EventKind::PlayerKicked => "player-kicked",
            EventKind::PlayerLeft => "player-left",
            EventKind::SignupsReopened => "signups-reopened",
            EventKind::EndedByHost => "ended-by-host",
            EventKind::DeadlineSet => "deadline-set",
            EventKind::DeadlineApproaching => "deadline-approaching",
            EventKind::Paused => "paused",
            EventKind::Resumed => "resumed",
            EventKind::Message => "message",
        }
    }

    /// The kind named `text`, if it is one.
    pub fn parse(text: &str) -> Option<EventKind> {
        EventKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == text)
    }

    /// Whether the event marks a turn of the game: a stream asked only for turns and prompts
    /// wakes for these and for nothing else (so not for each submission).
    pub const fn is_turn(self) -> bool {
        match self {
            EventKind::SignupsClosed
            | EventKind::Started
            | EventKind::StepResolved
            | EventKind::RoundResolved
            | EventKind::Finished => true,
            // The host's hand: a kick takes a seat out of the step, an early end finishes the
            // game, reopened sign-ups undo `signups-closed`.
            EventKind::PlayerKicked | EventKind::EndedByHost | EventKind::SignupsReopened => true,
            // A seat's token changed hands or a sign-up went: a player stream holding the old
            // token must hear it to end.
            EventKind::PlayerReplaced | EventKind::PlayerLeft => true,
            EventKind::PlayerJoined
            | EventKind::Submitted
            | EventKind::DeadlineSet
            | EventKind::DeadlineApproaching
            | EventKind::Paused
            | EventKind::Resumed
            | EventKind::Message => false,
        }
    }

    /// Whether a destination may subscribe to the kind (docs/notifications.md): every kind but
    /// `submitted`, which comes once per order: noise for a channel, and the most frequent
    /// event, so the writers skip it without a look at the outbox.
    /// A message is not either: a private one must reach no channel (its text and recipients
    /// are secret until the game ends, docs/table-talk.md), and a public one is talk, not a turn.
    pub const fn notifiable(self) -> bool {
        match self {
            EventKind::Submitted | EventKind::Message => false,
            EventKind::PlayerJoined
            | EventKind::SignupsClosed
            | EventKind::Started
            | EventKind::StepResolved
            | EventKind::RoundResolved
            | EventKind::Finished
            | EventKind::PlayerReplaced
            | EventKind::PlayerKicked
            | EventKind::PlayerLeft
            | EventKind::SignupsReopened
            | EventKind::EndedByHost
            | EventKind::DeadlineSet
            | EventKind::DeadlineApproaching
            | EventKind::Paused
            | EventKind::Resumed => true,
        }
    }

    /// Whether a player stream must look again at what its player owes after this event: a
    /// new step may owe them an answer, and a seat's new token or a removed sign-up may mean
    /// the stream's token is no longer the player's.
    pub const fn may_change_prompt(self) -> bool {
        matches!(
            self,
            EventKind::Started
                | EventKind::StepResolved
                | EventKind::PlayerReplaced
                | EventKind::PlayerLeft
        )
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A player as events name them: id and name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Named<'a> {
    pub id: Uuid,
    #[serde(borrow)]
    pub name: std::borrow::Cow<'a, str>,
}

/// The `submitted` event's data: who answered which step, never what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submitted<'a> {
    #[serde(borrow)]
    pub player: Named<'a>,
    pub round: u32,
    #[serde(borrow)]
    pub step: std::borrow::Cow<'a, str>,
}

/// The `step-resolved` event's data: the step that closed, the one that opens, and whether
/// it closed before every answer was in (a deadline, or the host's resolve-now).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepResolved<'a> {
    pub round: u32,
    #[serde(borrow)]
    pub step: std::borrow::Cow<'a, str>,
    pub next_round: u32,
    #[serde(borrow)]
    pub next_step: std::borrow::Cow<'a, str>,
    pub timed_out: bool,
}

/// The `player-joined` and `player-left` events' data: who, and how many seats are taken
/// after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Membership<'a> {
    #[serde(borrow)]
    pub player: Named<'a>,
    pub players: usize,
}

/// The `started` event's data: the step the game opens with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Started<'a> {
    pub round: u32,
    #[serde(borrow)]
    pub step: std::borrow::Cow<'a, str>,
}

/// The `deadline-set` and `deadline-approaching` events' data: the open step and its deadline
/// (RFC 3339; null when the host cleared it). Members in the order the stored rows have
/// always had them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deadline<'a> {
    #[serde(borrow)]
    pub deadline_at: Option<std::borrow::Cow<'a, str>>,
    pub round: u32,
    #[serde(borrow)]
    pub step: std::borrow::Cow<'a, str>,
}

/// The `round-resolved` event's data: the round whose log is now public.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResolved {
    pub round: u32,
}

/// The `message` event's data (docs/table-talk.md): who wrote to whom (`to` is `"all"` or the
/// recipients' ids), when, and what. A private one goes only to the player streams of its
/// sender and recipients.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message<'a> {
    pub id: Uuid,
    pub from: Uuid,
    pub to: Recipients,
    #[serde(borrow)]
    pub at: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    pub text: std::borrow::Cow<'a, str>,
}

/// Whom a message is for: everyone, or the players named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Recipients {
    All(AllPlayers),
    Players(Vec<Uuid>),
}

/// The word `"all"`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AllPlayers {
    All,
}

impl Recipients {
    /// Whether `player` (None: someone who is no player) may read a message `from` sent
    /// to these recipients before the reveal.
    pub fn readable_by(&self, from: Uuid, player: Option<Uuid>) -> bool {
        match (self, player) {
            (Recipients::All(_), _) => true,
            (Recipients::Players(_), None) => false,
            (Recipients::Players(to), Some(player)) => player == from || to.contains(&player),
        }
    }
}

/// The `finished` event's data: the game's outcome as the rules state it (null for a game
/// without one, such as one the host ended).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finished {
    pub result: Option<serde_json::Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_reads_back_from_its_name_and_serde_agrees() {
        for kind in EventKind::ALL {
            assert_eq!(EventKind::parse(kind.as_str()), Some(kind));
            assert_eq!(
                serde_json::to_value(kind).unwrap(),
                serde_json::Value::from(kind.as_str())
            );
        }
        assert_eq!(EventKind::parse("prompt"), None);
    }

    /// The typed payloads write what the rows written from `json!` objects always held (their
    /// members sorted), so that an old row reads as the type and a new one reads as before.
    #[test]
    fn the_typed_payloads_write_what_the_stored_rows_always_held() {
        use serde_json::json;
        use std::borrow::Cow;
        let id = Uuid::nil();
        let cases = [
            (
                serde_json::to_string(&Membership {
                    player: Named {
                        id,
                        name: Cow::Borrowed("Ann"),
                    },
                    players: 2,
                }),
                json!({"player": {"id": id, "name": "Ann"}, "players": 2}),
            ),
            (
                serde_json::to_string(&Started {
                    round: 1,
                    step: Cow::Borrowed("orders"),
                }),
                json!({"round": 1, "step": "orders"}),
            ),
            (
                serde_json::to_string(&Deadline {
                    deadline_at: Some(Cow::Borrowed("2026-12-02T18:00:00Z")),
                    round: 2,
                    step: Cow::Borrowed("play"),
                }),
                json!({"round": 2, "step": "play", "deadline_at": "2026-12-02T18:00:00Z"}),
            ),
            (
                serde_json::to_string(&Deadline {
                    deadline_at: None,
                    round: 2,
                    step: Cow::Borrowed("play"),
                }),
                json!({"round": 2, "step": "play", "deadline_at": null}),
            ),
            (
                serde_json::to_string(&RoundResolved { round: 4 }),
                json!({"round": 4}),
            ),
            (
                serde_json::to_string(&Finished {
                    result: Some(json!({"winner": "Ann"})),
                }),
                json!({"result": {"winner": "Ann"}}),
            ),
            (
                serde_json::to_string(&Finished { result: None }),
                json!({"result": null}),
            ),
        ];
        for (typed, stored) in cases {
            assert_eq!(typed.unwrap(), stored.to_string());
        }
        let stored = json!({"player": {"id": id, "name": "Ann"}, "players": 2}).to_string();
        let read: Membership = serde_json::from_str(&stored).unwrap();
        assert_eq!((read.player.name.as_ref(), read.players), ("Ann", 2));
    }
}
