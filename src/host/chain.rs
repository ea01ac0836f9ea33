//! The chain of step digests (docs/fairness.md), sealed onto every change as it is decided: the acts
//! the change applies are filed with its first resolved step (or kept in the lobby's ledger
//! until one resolves), and each resolved step gets its digest, chained to the one before.

use super::engine::to_text;
use crate::error::AppError;
use crate::events::EventKind;
use crate::fairness::act::Ledger;
use crate::fairness::{StoredStep, seed_commitment, stored_step_digest};
use crate::store::{Change, LobbyRow, Snapshot};

/// The lobby's seed commitment; None for a lobby created before commitments existed.
pub fn commitment_of(lobby: &LobbyRow) -> Option<String> {
    lobby
        .seed_salt
        .as_deref()
        .map(|salt| seed_commitment(lobby.seed, salt))
}

/// Files `change`'s acts and digests its resolved steps; see the module's documentation.
pub(super) fn seal(snapshot: &Snapshot, change: &mut Change) -> Result<(), AppError> {
    if change.acts.is_empty() && change.resolved.is_empty() {
        return Ok(());
    }
    let mut ledger = Ledger::read(&snapshot.lobby.fairness);
    ledger.pending.append(&mut change.acts);
    if change.draw_vote.is_some() {
        ledger.draw_vote = change.draw_vote;
    }
    // The chain starts from the seed's commitment, so that the first step is bound to it.
    let mut head = ledger
        .head
        .clone()
        .or_else(|| commitment_of(&snapshot.lobby))
        .unwrap_or_default();
    for (i, step) in change.resolved.iter_mut().enumerate() {
        let acts = match i {
            0 => std::mem::take(&mut ledger.pending),
            _ => Vec::new(),
        };
        step.acts = to_text(&acts)?;
        let content = StoredStep {
            round: step.round,
            step: &step.step,
            revealed: &step.revealed,
            log: &step.log,
            public_log: step.digested_log.as_deref(),
            pools: &step.pools,
        };
        step.digest = stored_step_digest(&head, content)
            .map_err(|e| AppError::Internal(format!("a step's text to digest: {e}")))?;
        step.previous_digest = head;
        head = step.digest.clone();
    }
    if !change.resolved.is_empty() {
        ledger.head = Some(head);
        publish_digests(change)?;
    }
    change.lobby.fairness = Some(to_text(&ledger)?);
    Ok(())
}

/// Adds each resolved step's digests to its `step-resolved` event, as its last two members.
/// A change files one such event per step it resolves, in the order it files the steps; a
/// round's opening and the host's closing step have none. (One change resolves several
/// steps when the rules play the next ones with nobody asked.) The event's text is spliced,
/// not parsed and written again: this runs for every step, inside the writer, and the
/// digests are hex, which JSON writes as it is.
fn publish_digests(change: &mut Change) -> Result<(), AppError> {
    let kind = EventKind::StepResolved;
    let mut steps = change.resolved.iter().filter(|step| step.announced);
    for event in change.events.iter_mut().filter(|e| e.kind == kind) {
        let Some(step) = steps.next() else {
            break;
        };
        event.data = with_digests(&event.data, &step.digest, &step.previous_digest)?;
    }
    Ok(())
}

/// `data` (a JSON object with at least one member) with `digest` and `previous_digest` added.
fn with_digests(data: &str, digest: &str, previous: &str) -> Result<String, AppError> {
    let hex = |text: &str| text.bytes().all(|b| b.is_ascii_hexdigit());
    let body = data
        .trim_end()
        .strip_suffix('}')
        .filter(|body| body.trim_start().len() > 1 && hex(digest) && hex(previous))
        .ok_or_else(|| AppError::Internal(format!("a step-resolved event to seal: {data}")))?;
    let mut text = String::with_capacity(data.len() + digest.len() + previous.len() + 32);
    text.push_str(body);
    text.push_str(",\"digest\":\"");
    text.push_str(digest);
    text.push_str("\",\"previous_digest\":\"");
    text.push_str(previous);
    text.push_str("\"}");
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn the_digests_spliced_into_a_step_resolved_event_read_back_as_its_members() {
        let data =
            r#"{"round":3,"step":"main","next_round":4,"next_step":"main","timed_out":false}"#;
        let (digest, previous) = ("ab".repeat(32), "cd".repeat(32));
        let sealed: Value =
            serde_json::from_str(&with_digests(data, &digest, &previous).unwrap()).unwrap();
        let mut expected: Value = serde_json::from_str(data).unwrap();
        expected["digest"] = json!(digest);
        expected["previous_digest"] = json!(previous);
        assert_eq!(sealed, expected);
        // The first step of a lobby made before seed commitments chains to nothing.
        let first: Value = serde_json::from_str(&with_digests(data, &digest, "").unwrap()).unwrap();
        assert_eq!(first["previous_digest"], json!(""));
    }

    #[test]
    fn an_event_that_is_not_an_object_with_members_is_refused_not_spliced() {
        let digest = "ab".repeat(32);
        for data in ["{}", "[1]", "", "{\"round\":1"] {
            assert!(with_digests(data, &digest, &digest).is_err(), "{data}");
        }
        assert!(with_digests("{\"round\":1}", "not\"hex", &digest).is_err());
    }
}
