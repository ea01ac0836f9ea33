//! The chain of step digests (issue 17), sealed onto every change as it is decided: the acts
//! the change applies are filed with its first resolved step (or kept in the lobby's ledger
//! until one resolves), and each resolved step gets its digest, chained to the one before.

use serde_json::{Value, json};

use super::engine::{from_stored, to_text};
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
            pools: &step.pools,
        };
        step.digest = stored_step_digest(&head, content)
            .map_err(|e| AppError::Internal(format!("a step's text to digest: {e}")))?;
        step.previous_digest = head;
        head = step.digest.clone();
    }
    if let Some(first) = change.resolved.first() {
        ledger.head = Some(head);
        publish_digest(
            change,
            &first.digest.clone(),
            &first.previous_digest.clone(),
        )?;
    }
    change.lobby.fairness = Some(to_text(&ledger)?);
    Ok(())
}

/// Adds the resolved step's digests to its `step-resolved` event.
fn publish_digest(change: &mut Change, digest: &str, previous: &str) -> Result<(), AppError> {
    let kind = EventKind::StepResolved;
    if let Some(event) = change.events.iter_mut().find(|e| e.kind == kind) {
        let mut data: Value = from_stored(&event.data)?;
        data["digest"] = json!(digest);
        data["previous_digest"] = json!(previous);
        event.data = data.to_string();
    }
    Ok(())
}
