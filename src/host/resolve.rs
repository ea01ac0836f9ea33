//! Resolving a step: the rules' resolution of the step's orders, turned into what the lobby's
//! transaction writes (the reveal, the log, the pools after, the events, the next state).
//! Called inside that transaction, by whatever completes the step.

use serde_json::{Value, json};

use super::engine::{LogEntry, public_pools, rng_for, to_json, to_text};
use crate::error::AppError;
use crate::rules::{Event as _, Game, Seat};
use crate::store::{Change, LobbyPatch, NewEvent, NewStep, Snapshot, Status};

/// The name under which a round's opening (its events before any order falls due) is filed.
pub const ROUND_OPENING: &str = "opening";

/// The name under which the host's act that ended a game (a kick, an early end) is filed as
/// the round's last step.
pub const HOST_STEP: &str = "host";

fn log_of<E: crate::rules::Event>(events: &[E]) -> Result<String, AppError> {
    let entries: Vec<LogEntry<E>> = events.iter().map(LogEntry::of).collect();
    to_text(&entries)
}

/// Resolves the open step with `orders` (one per owed seat, in seat order) and adds to
/// `change` what that writes: the events, the resolved step (and the next round's opening),
/// and the lobby's new state. Whoever calls it does so inside the lobby's transaction, so a
/// step resolves exactly once.
pub(super) fn resolve_step<G: Game>(
    snapshot: &Snapshot,
    state: &G::State,
    orders: &[(Seat, G::Order)],
    change: &mut Change,
) -> Result<(), AppError> {
    let lobby = &snapshot.lobby;
    let (round, step) = (G::round(state), G::step(state));
    let rng_stream = u64::try_from(lobby.step_seq).unwrap_or(0) + 1;
    let resolution = G::resolve(state, orders, &mut rng_for(lobby.seed, rng_stream));
    let next = resolution.state;
    let revealed = resolution
        .revealed
        .iter()
        .map(|(seat, order)| {
            let who = &snapshot.players[seat.0];
            Ok(json!({"player": {"id": who.id, "name": who.name}, "order": to_json(order)?}))
        })
        .collect::<Result<Vec<_>, AppError>>()?;
    let finished = G::owes(&next).is_empty();
    let (next_round, next_step) = (G::round(&next), G::step(&next));
    change.events.push(NewEvent {
        kind: "step-resolved",
        data:
            json!({"round": round, "step": step, "next_round": next_round, "next_step": next_step})
                .to_string(),
    });
    if finished || next_round > round {
        change.events.push(NewEvent {
            kind: "round-resolved",
            data: json!({"round": round}).to_string(),
        });
    }
    if finished {
        let result = G::outcome(&next).map(|o| to_json(&o)).transpose()?;
        change.events.push(NewEvent {
            kind: "finished",
            data: json!({"result": result}).to_string(),
        });
    }
    let pools = public_pools::<G>(&next, &snapshot.players)?.to_string();
    // Events from the opening of a new round on (BST: the next turn's draw and poison) are
    // that round's, filed as its opening step.
    let split = resolution
        .events
        .iter()
        .position(|e| e.opens_round().is_some_and(|r| r > round))
        .unwrap_or(resolution.events.len());
    let (this_step, opening) = resolution.events.split_at(split);
    change.resolved.push(NewStep {
        round,
        step: step.to_string(),
        revealed: Value::Array(revealed).to_string(),
        log: log_of(this_step)?,
        pools: pools.clone(),
    });
    if let Some(opened) = opening.first().and_then(|e| e.opens_round()) {
        change.resolved.push(NewStep {
            round: opened,
            step: ROUND_OPENING.to_string(),
            revealed: "[]".into(),
            log: log_of(opening)?,
            pools,
        });
    }
    change.lobby = LobbyPatch {
        status: finished.then_some(Status::Finished),
        state: Some(to_text(&next)?),
        round: Some(next_round),
        step: Some(next_step.to_string()),
    };
    Ok(())
}

/// Adds to `change` what a host's act that ended the game writes: its lines as the round's
/// last step (no orders revealed: the open step's orders are void and are deleted unread),
/// `round-resolved` and `finished`, and the finished state. Inside the lobby's transaction.
pub(super) fn finish_by_host<G: Game>(
    snapshot: &Snapshot,
    act: &crate::rules::HostAct<G>,
    change: &mut Change,
) -> Result<(), AppError> {
    let next = &act.state;
    let round = G::round(next);
    change.resolved.push(NewStep {
        round,
        step: HOST_STEP.to_string(),
        revealed: "[]".into(),
        log: log_of(&act.log)?,
        pools: public_pools::<G>(next, &snapshot.players)?.to_string(),
    });
    let result = G::outcome(next).map(|o| to_json(&o)).transpose()?;
    change.events.push(NewEvent {
        kind: "round-resolved",
        data: json!({"round": round}).to_string(),
    });
    change.events.push(NewEvent {
        kind: "finished",
        data: json!({"result": result}).to_string(),
    });
    change.lobby = LobbyPatch {
        status: Some(Status::Finished),
        state: Some(to_text(next)?),
        round: Some(round),
        step: Some(G::step(next).to_string()),
    };
    Ok(())
}
