//! What a notification says, built from public material only: the event as the public stream
//! carries it, the lobby's public view and a resolved round's public view. Nothing here reads
//! an order before its reveal, a hand, the pool or the seed, because nothing here reads
//! anything the public lobby page does not show. The one private thing a notice may carry is a
//! player's own link, and only in that player's own mail (`mail.rs`).

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;
use uuid::Uuid;

use crate::error::AppError;
use crate::events::EventKind;
use crate::host::Host;
use crate::host::PublicLog;
use crate::store::EventRow;

/// Log lines of a round quoted in its summary; the rest is on the lobby's page.
const SUMMARY_LINES: usize = 12;

/// One notification, whichever channel carries it.
#[derive(Clone, Debug)]
pub struct Notice {
    /// The event kind (the stream's name), or `test`.
    pub kind: String,
    pub lobby_id: Uuid,
    pub lobby_name: String,
    /// One line.
    pub title: String,
    /// A few lines (a round's log, the standings); may be long: each format cuts it to fit.
    pub text: String,
    /// The lobby's public page, when the operator named the public URL.
    pub link: Option<String>,
    /// The event as the public stream carries it (`{"seq", "data"}`), or None (null) for a
    /// test.
    pub event: Option<NoticeEvent>,
}

/// An event in a notice: its sequence number and its data as stored (public, as the stream
/// sends it).
#[derive(Clone, Debug, Serialize)]
pub struct NoticeEvent {
    pub data: Box<RawValue>,
    pub seq: i64,
}

impl Notice {
    /// A host's test message.
    pub fn test(lobby_id: Uuid, lobby_name: &str, link: Option<String>) -> Notice {
        Notice {
            kind: "test".into(),
            lobby_id,
            lobby_name: lobby_name.to_string(),
            title: format!("Test message from Herald for {lobby_name}"),
            text: "The host sent this to check that notifications arrive.".into(),
            link,
            event: None,
        }
    }
}

/// Builds the notice for `event` of lobby `lobby_id`; `player` is the seat a player's own
/// notification is for (whether an answer is due from it). The lobby is read as it stands
/// (`Host::lobby_facts`); the whole public view is built only for a game's end, whose
/// standings it gives.
pub async fn build(
    host: &Host,
    lobby_id: Uuid,
    event: &EventRow,
    player: Option<Uuid>,
    link: Option<String>,
) -> Result<Notice, AppError> {
    let facts = host.lobby_facts(lobby_id, player).await?;
    let data: Value = serde_json::from_str(&event.data).unwrap_or(Value::Null);
    let name = |value: &Value| -> String {
        value
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("a player")
            .to_string()
    };
    let lobby = facts.name.clone();
    let owes = facts.player_owes;
    let round = data.get("round").and_then(Value::as_u64);
    let step = data.get("step").and_then(Value::as_str).unwrap_or("");
    let (title, text) = match EventKind::parse(&event.kind) {
        Some(EventKind::PlayerJoined) => (
            format!(
                "{} joined {lobby}",
                name(data.get("player").unwrap_or(&data))
            ),
            format!("{} of {} seats taken.", facts.seats_taken, facts.capacity),
        ),
        Some(EventKind::Started | EventKind::StepResolved) if owes => (
            format!("Your answer is due in {lobby}"),
            format!(
                "Round {}, step {step}: your answer is due.",
                round.unwrap_or(0)
            ),
        ),
        Some(EventKind::Started) => (
            format!("{lobby} has started"),
            format!("Round {}, step {step}.", round.unwrap_or(1)),
        ),
        Some(EventKind::StepResolved) => (
            format!("A step resolved in {lobby}"),
            format!("Round {}: {step} resolved.", round.unwrap_or(0)),
        ),
        Some(EventKind::RoundResolved) => {
            let round = round.unwrap_or(0) as u32;
            (
                format!("Round {round} of {lobby} is out"),
                summary(&host.public_log(lobby_id, round, SUMMARY_LINES).await?),
            )
        }
        Some(EventKind::DeadlineApproaching) => (
            format!("The deadline in {lobby} is near"),
            format!(
                "Round {}, step {step}: answers are due by {}.",
                round.unwrap_or(0),
                data.get("deadline_at")
                    .and_then(Value::as_str)
                    .unwrap_or("")
            ),
        ),
        Some(EventKind::Finished | EventKind::EndedByHost) => {
            let view = host.lobby(lobby_id).await?;
            (
                format!("{lobby} is over"),
                standings(&view.players, view.result.as_ref()),
            )
        }
        // The kinds a channel may ask for that need no more than their name, and a kind this
        // build does not know (a row written by a newer one).
        Some(
            EventKind::SignupsClosed
            | EventKind::SignupsReopened
            | EventKind::Submitted
            | EventKind::PlayerReplaced
            | EventKind::PlayerKicked
            | EventKind::PlayerLeft
            | EventKind::DeadlineSet
            | EventKind::Paused
            | EventKind::Resumed,
        )
        | None => (format!("{lobby}: {}", event.kind), String::new()),
    };
    Ok(Notice {
        kind: event.kind.clone(),
        lobby_id,
        lobby_name: lobby,
        title,
        text,
        link,
        event: Some(NoticeEvent {
            // The stored data is JSON the writer wrote; should it not be, the notice says null.
            data: RawValue::from_string(event.data.clone())
                .unwrap_or_else(|_| RawValue::NULL.to_owned()),
            seq: event.seq,
        }),
    })
}

/// The first lines of a resolved round's public log.
fn summary(log: &PublicLog) -> String {
    let mut summary = log.first.join("\n");
    if log.lines > log.first.len() {
        summary.push_str(&format!(
            "\n… and {} more lines on the lobby's page.",
            log.lines - log.first.len()
        ));
    }
    summary
}

/// The players in their order on the public page, with the result as the public view says it.
fn standings(players: &[Value], result: Option<&Value>) -> String {
    let mut lines: Vec<String> = players
        .iter()
        .map(|p| {
            let alive = match p.get("alive").and_then(Value::as_bool) {
                Some(false) => " (out)",
                _ => "",
            };
            format!(
                "- {}{alive}",
                p.get("name").and_then(Value::as_str).unwrap_or("?")
            )
        })
        .collect();
    if let Some(result) = result {
        lines.push(format!("Result: {result}"));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_quotes_the_first_lines_and_counts_the_rest() {
        let log = PublicLog {
            first: vec!["Ann strikes Bob.".into(), "Bob falls.".into()],
            lines: 5,
        };
        assert_eq!(
            summary(&log),
            "Ann strikes Bob.\nBob falls.\n… and 3 more lines on the lobby's page."
        );
        let whole = PublicLog {
            first: vec!["Ann rests.".into()],
            lines: 1,
        };
        assert_eq!(summary(&whole), "Ann rests.");
    }
}
