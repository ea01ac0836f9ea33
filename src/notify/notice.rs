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
use crate::events::{Deadline, EventKind, Membership, RoundResolved, Started, StepResolved};
use crate::games::telling::{FinalResult, answers_due, in_utc, listed, round_name};
use crate::host::Host;
use crate::host::LobbyFacts;
use crate::host::PublicLog;
use crate::host::substitutes::{Substitute, seat_label};
use crate::store::{EventRow, Owner};

/// Log lines of a round quoted in its summary; the rest is on the lobby's page.
const SUMMARY_LINES: usize = 12;

/// One notification, whichever channel carries it.
#[derive(Clone, Debug)]
pub struct Notice {
    /// The event kind (the stream's name, or a tournament's event), or `test`.
    pub kind: String,
    /// The lobby or the tournament it tells about.
    pub subject: Owner,
    /// Its name.
    pub name: String,
    /// One line.
    pub title: String,
    /// A few lines (a round's log, the standings); may be long: each format cuts it to fit.
    pub text: String,
    /// The lobby's (or the tournament's) public page, when the operator named the public URL.
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
    /// A host's (or a director's) test message.
    pub fn test(subject: Owner, name: &str, link: Option<String>) -> Notice {
        let who = match subject {
            Owner::Lobby(_) => "host",
            Owner::Tournament(_) => "director",
        };
        Notice {
            kind: "test".into(),
            subject,
            name: name.to_string(),
            title: format!("Test message from Herald for {name}"),
            text: format!("The {who} sent this to check that notifications arrive."),
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
    let lobby = facts.name.clone();
    let owes = facts.player_owes;
    let data = event.data.as_str();
    // Each kind's data is read as the type the host writes it as; data that does not read so
    // (a row written by another build) gets the plain title, as an unknown kind does.
    let plain = || (format!("{lobby}: {}", event.kind), String::new());
    let (title, text) = match EventKind::parse(&event.kind) {
        Some(EventKind::PlayerJoined) => match read::<Membership>(data) {
            Some(joined) => (
                format!("{} joined {lobby}", joined.player.name),
                format!("{} of {} seats taken.", facts.seats_taken, facts.capacity),
            ),
            None => plain(),
        },
        Some(kind @ (EventKind::Started | EventKind::StepResolved)) => {
            let named = |round| round_name(round, facts.max_rounds);
            match (step_named(kind, data, owes), kind) {
                (Some((round, step)), _) if owes => (
                    format!("Your answer is due in {lobby}"),
                    format!("{}, step {step}: your answer is due.", named(round)),
                ),
                (Some((round, step)), EventKind::Started) => (
                    format!("{lobby} has started"),
                    format!("{}, step {step}.", named(round)),
                ),
                (Some((round, step)), _) => (
                    format!("A step resolved in {lobby}"),
                    format!("{}: {step} resolved.", named(round)),
                ),
                (None, _) => plain(),
            }
        }
        Some(EventKind::RoundResolved) => match read::<RoundResolved>(data) {
            Some(RoundResolved { round }) => {
                let mut text = summary(&host.public_log(lobby_id, round, SUMMARY_LINES).await?);
                if let Some(next) = next_round_due(&facts, round) {
                    text.push_str("\n\n");
                    text.push_str(&next);
                }
                (
                    format!(
                        "{lobby}: {} is out",
                        round_name(round, facts.max_rounds).to_lowercase()
                    ),
                    text,
                )
            }
            None => plain(),
        },
        Some(EventKind::DeadlineApproaching) => match read::<Deadline>(data) {
            Some(due) => {
                let mut text = format!(
                    "{}, step {}: answers are due by {}.",
                    round_name(due.round, facts.max_rounds),
                    due.step,
                    due.deadline_at.as_deref().map(in_utc).unwrap_or_default()
                );
                let view = host.lobby(lobby_id).await?;
                let missing = waiting_for(&view.players);
                if !missing.is_empty() {
                    text.push_str(&format!("\nStill missing: {}.", listed(&missing)));
                }
                (format!("The deadline in {lobby} is near"), text)
            }
            None => plain(),
        },
        Some(EventKind::Finished | EventKind::EndedByHost) => {
            let view = host.lobby(lobby_id).await?;
            match view.result.as_ref().and_then(FinalResult::read) {
                Some(result) => {
                    // A substitute is named for the seat they took, as on the pages.
                    let substitutes = host.substitutes(lobby_id).await?;
                    let result = result.relabeled(|id, name| seat_label(&substitutes, id, name));
                    (
                        format!("{lobby} is over. {}", result.headline()),
                        result.in_words(),
                    )
                }
                None => (
                    format!("{lobby} is over"),
                    ended_without_result(&view.players, &host.substitutes(lobby_id).await?),
                ),
            }
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
        | None => plain(),
        // Never owed to a channel (`EventKind::notifiable`); were one built, it would name the
        // kind and nothing of the message (docs/table-talk.md).
        Some(EventKind::Message) => plain(),
    };
    Ok(Notice {
        kind: event.kind.clone(),
        subject: Owner::Lobby(lobby_id),
        name: lobby,
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

/// The round and step a `started` or `step-resolved` notice names: the step that opened, for a
/// reader whose answer it is due from (`owes`); otherwise the step that resolved.
fn step_named(kind: EventKind, data: &str, owes: bool) -> Option<(u32, String)> {
    match kind {
        EventKind::Started => read::<Started>(data).map(|s| (s.round, s.step.into_owned())),
        EventKind::StepResolved => read::<StepResolved>(data).map(|s| match owes {
            true => (s.next_round, s.next_step.into_owned()),
            false => (s.round, s.step.into_owned()),
        }),
        _ => None,
    }
}

/// An event's stored data as the type its kind is written as.
fn read<'a, T: serde::Deserialize<'a>>(data: &'a str) -> Option<T> {
    serde_json::from_str(data).ok()
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

/// The line every forum host adds to a round's news, when the game has moved on to the round
/// after `resolved`.
fn next_round_due(facts: &LobbyFacts, resolved: u32) -> Option<String> {
    let next = facts.round.filter(|r| *r == resolved + 1)?;
    Some(answers_due(
        facts.main_answers,
        next,
        facts.max_rounds,
        facts.deadline_at.as_deref(),
    ))
}

/// The names of the players an answer is due from and not in, from the public view.
fn waiting_for(players: &[Value]) -> Vec<&str> {
    #[derive(serde::Deserialize)]
    struct Seat<'a> {
        name: &'a str,
        #[serde(default)]
        owes: bool,
        #[serde(default)]
        submitted: bool,
    }
    players
        .iter()
        .filter_map(|p| <Seat<'_> as serde::Deserialize>::deserialize(p).ok())
        .filter(|p| p.owes && !p.submitted)
        .map(|p| p.name)
        .collect()
}

/// A game the host ended without a result: the players in their order on the public page,
/// each substitute named for the seat they took.
fn ended_without_result(players: &[Value], substitutes: &[Substitute]) -> String {
    let mut lines = vec!["The host ended the game without a winner.".to_owned()];
    lines.extend(players.iter().map(|p| {
        let alive = match p.get("alive").and_then(Value::as_bool) {
            Some(false) => " (out)",
            _ => "",
        };
        let name = p.get("name").and_then(Value::as_str).unwrap_or("?");
        let name = match p.get("id").and_then(Value::as_str).map(str::parse) {
            Some(Ok(id)) => seat_label(substitutes, id, name),
            _ => name.to_owned(),
        };
        format!("- {name}{alive}")
    }));
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

    /// A player told that their answer is due after a step resolved is told the step that
    /// opened, not the one that closed; anyone else hears which step resolved.
    #[test]
    fn a_step_resolved_notice_names_the_step_due_to_the_player_who_owes_it() {
        let data = r#"{"round":3,"step":"play","next_round":3,"next_step":"follow-up","timed_out":false,"digest":"ab","previous_digest":"cd"}"#;
        let kind = EventKind::StepResolved;
        assert_eq!(step_named(kind, data, true), Some((3, "follow-up".into())));
        assert_eq!(step_named(kind, data, false), Some((3, "play".into())));
        let started = r#"{"round":1,"step":"orders"}"#;
        assert_eq!(
            step_named(EventKind::Started, started, true),
            Some((1, "orders".into()))
        );
        // Data that is not what the kind is written as names no step: the plain title.
        assert_eq!(step_named(kind, r#"{"round":"x"}"#, true), None);
        assert_eq!(step_named(EventKind::Paused, "{}", true), None);
    }
}
