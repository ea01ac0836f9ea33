//! Who took whose seat, and in which round: read from the acts the host files with each step
//! (`Act::Rename`, docs/fairness.md) and from those not filed yet. A substitution is part of
//! the public record (docs/web.md, "Substitutes"): the round it happened in gets a log line,
//! and the pages show the substitute as "Eve (for Bob)".

use serde_json::{Value, json};
use uuid::Uuid;

use super::Host;
use super::engine::from_stored;
use crate::error::AppError;
use crate::fairness::act::{Act, Ledger};
use crate::store::{Snapshot, StepRow};

/// One substitution: `name` took the seat of `player` (its id stays) from `previous`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Substitute {
    /// The round it happened in: that of the step it was filed with, or the running round.
    pub round: u32,
    pub player: Uuid,
    pub seat: usize,
    pub name: String,
    pub previous: String,
}

/// The renames among a step's acts, as (seat, name, previous).
fn renames(acts: &[Act]) -> impl Iterator<Item = (usize, &str, &str)> {
    acts.iter().filter_map(|act| match act {
        Act::Rename {
            seat,
            name,
            previous,
        } => Some((*seat, name.as_str(), previous.as_str())),
        Act::Resolve { .. } | Act::Kick { .. } | Act::End { .. } | Act::DrawVote => None,
    })
}

/// The log entries of the substitutions filed with `step` (they happened before it resolved,
/// so they lead its lines). Only names: a substitution keeps no secret.
pub(crate) fn log_entries(step: &StepRow) -> Result<Vec<Value>, AppError> {
    let acts: Vec<Act> = from_stored(&step.acts)?;
    Ok(renames(&acts)
        .map(|(seat, name, previous)| {
            json!({
                "kind": "substituted",
                "seat": seat,
                "name": name,
                "previous_name": previous,
                "text": format!("{name} replaces {previous} as a substitute."),
            })
        })
        .collect())
}

/// Every substitution of the lobby, oldest first: those filed with `steps` (all the lobby's
/// steps, oldest first), then those since the last step.
pub(crate) fn of(snapshot: &Snapshot, steps: &[StepRow]) -> Result<Vec<Substitute>, AppError> {
    let mut found = Vec::new();
    let mut add = |round: u32, acts: &[Act]| {
        for (seat, name, previous) in renames(acts) {
            if let Some(player) = snapshot.players.iter().find(|p| p.seat == seat) {
                found.push(Substitute {
                    round,
                    player: player.id,
                    seat,
                    name: name.to_owned(),
                    previous: previous.to_owned(),
                });
            }
        }
    };
    for step in steps {
        add(step.round, &from_stored::<Vec<Act>>(&step.acts)?);
    }
    add(
        snapshot.lobby.round,
        &Ledger::read(&snapshot.lobby.fairness).pending,
    );
    Ok(found)
}

/// `name`, holder of `player`'s seat, with those who held it before: "Eve (for Bob)", "Fay
/// (for Bob, Eve)" (docs/web.md, "Substitutes"). A name the seat had first, or one of a seat
/// never taken over, stays as it is. Every telling of the record names a seat so: the pages,
/// the posts and the notices.
pub fn seat_label(substitutes: &[Substitute], player: Uuid, name: &str) -> String {
    let mut held: Vec<&str> = Vec::new();
    for sub in substitutes.iter().filter(|s| s.player == player) {
        if held.is_empty() {
            held.push(&sub.previous);
        }
        held.push(&sub.name);
    }
    // The latest holder of a name, should a seat come back to an earlier one.
    match held.iter().rposition(|n| *n == name) {
        Some(at) if at > 0 => format!("{name} (for {})", held[..at].join(", ")),
        Some(_) | None => name.to_owned(),
    }
}

impl Host {
    /// Every substitution of lobby `id`, oldest first.
    pub async fn substitutes(&self, id: Uuid) -> Result<Vec<Substitute>, AppError> {
        let snapshot = self.snapshot(id).await?;
        let steps = self.store.steps(id, None).await?;
        of(&snapshot, &steps)
    }
}
