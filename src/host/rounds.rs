//! The published history: resolved rounds, each with its revealed orders, its log and the
//! pools after it.

use serde::Serialize;
use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::auth::{Caller, identify};
use super::engine::{self, from_stored, merge, rng_for, to_json};
use super::{Host, with_game};
use crate::error::AppError;
use crate::rules::{Game, Seat};
use crate::store::{Snapshot, Status, StepRow};

/// One line of the round list.
#[derive(Debug, Serialize)]
pub struct RoundSummary {
    pub round: u32,
    pub steps: Vec<String>,
    pub resolved_at: i64,
}

/// One resolved round.
#[derive(Debug, Serialize)]
pub struct RoundView {
    pub round: u32,
    /// Every order revealed in the round, step by step: `{"step", "player": {"id","name"}, "order"}`.
    pub orders: Vec<Value>,
    /// The round's log: structured entries, each with a `text` line.
    pub log: Vec<Value>,
    /// Every player's public pools after the round (and the public table).
    pub pools: Value,
    pub resolved_at: i64,
    /// Each of the round's steps with its chained digest (docs/fairness.md):
    /// `{"step", "digest", "previous_digest"}`.
    pub digests: Vec<Value>,
}

/// A round is resolved once the game has moved past it (or ended in it).
pub(crate) fn is_resolved(snapshot: &Snapshot, round: u32) -> bool {
    match snapshot.lobby.status {
        Status::Finished => round <= snapshot.lobby.round,
        Status::Running => round < snapshot.lobby.round,
        Status::Signups | Status::Closed => false,
    }
}

impl Host {
    /// The steps of the running round that have already resolved, as published so far.
    pub(crate) async fn current_round(
        &self,
        snapshot: &Snapshot,
    ) -> Result<Option<Value>, AppError> {
        let lobby = &snapshot.lobby;
        if lobby.status != Status::Running || lobby.step_seq == 0 {
            return Ok(None);
        }
        // Known in memory when this process wrote the lobby last; otherwise read.
        let read;
        let steps = match snapshot.round_steps.known() {
            Some(steps) => steps,
            None => {
                read = self.store.steps(lobby.id, Some(lobby.round)).await?;
                &read[..]
            }
        };
        if steps.is_empty() {
            return Ok(None);
        }
        Ok(Some(json!({
            "round": lobby.round,
            "orders": revealed_orders(steps)?,
            "log": visible_log(steps, None)?,
        })))
    }

    /// The resolved rounds, oldest first.
    pub async fn rounds(&self, id: Uuid) -> Result<Vec<RoundSummary>, AppError> {
        let snapshot = self.snapshot(id).await?;
        let steps = self.store.steps(id, None).await?;
        let mut rounds: Vec<RoundSummary> = Vec::new();
        for step in steps
            .into_iter()
            .filter(|s| is_resolved(&snapshot, s.round))
        {
            match rounds.last_mut() {
                Some(last) if last.round == step.round => {
                    last.steps.push(step.step);
                    last.resolved_at = step.resolved_at;
                }
                _ => rounds.push(RoundSummary {
                    round: step.round,
                    steps: vec![step.step],
                    resolved_at: step.resolved_at,
                }),
            }
        }
        Ok(rounds)
    }

    /// One resolved round; 404 until it has resolved. With a player's token, that player's
    /// private log entries (BST: the tokens they drew) are included.
    pub async fn round(
        &self,
        id: Uuid,
        round: u32,
        token: Option<&str>,
    ) -> Result<RoundView, AppError> {
        let snapshot = self.snapshot(id).await?;
        let not_found = || {
            AppError::not_found(
                "round-not-resolved",
                format!("Round {round} has not resolved (yet)."),
            )
        };
        if !is_resolved(&snapshot, round) {
            return Err(not_found());
        }
        let viewer_seat = match token {
            Some(token) => match identify(&snapshot, &self.presented(Some(token)).await?)? {
                Caller::Player(player) => Some(player.seat),
                Caller::Host => None,
            },
            None => None,
        };
        let steps = self.store.steps(id, Some(round)).await?;
        if steps.is_empty() {
            return Err(not_found());
        }
        round_view(&steps, viewer_seat)
    }
}

/// A resolved round from its steps (at least one), with `viewer`'s private log lines.
pub(crate) fn round_view(steps: &[StepRow], viewer: Option<usize>) -> Result<RoundView, AppError> {
    let last = &steps[steps.len() - 1];
    Ok(RoundView {
        round: last.round,
        orders: revealed_orders(steps)?,
        log: visible_log(steps, viewer)?,
        pools: from_stored(&last.pools)?,
        resolved_at: last.resolved_at,
        digests: steps
            .iter()
            .map(|s| {
                json!({"step": s.step, "digest": s.digest,
                       "previous_digest": s.previous_digest})
            })
            .collect(),
    })
}

pub(crate) fn revealed_orders(steps: &[StepRow]) -> Result<Vec<Value>, AppError> {
    let mut orders = Vec::new();
    for step in steps {
        for entry in from_stored::<Vec<Value>>(&step.revealed)? {
            let mut entry = entry;
            if let Value::Object(map) = &mut entry {
                map.insert("step".into(), json!(step.step));
            }
            orders.push(entry);
        }
    }
    Ok(orders)
}

/// The log entries `viewer` may read: the public ones, and their own private ones. Each step's
/// lines are led by the substitutions filed with it (a substitute is logged in its round, as a
/// kick is).
pub(crate) fn visible_log(
    steps: &[StepRow],
    viewer: Option<usize>,
) -> Result<Vec<Value>, AppError> {
    let mut log = Vec::new();
    for step in steps {
        log.extend(super::substitutes::log_entries(step)?);
        for entry in from_stored::<Vec<Value>>(&step.log)? {
            let private_to = entry.get("private_to_seat").and_then(Value::as_u64);
            match private_to {
                None => log.push(entry),
                Some(seat) if Some(seat) == viewer.map(|s| s as u64) => log.push(entry),
                Some(_) => {}
            }
        }
    }
    Ok(log)
}

impl Host {
    /// Every player's public pools at the start of the game (round 0 of the charts), as a
    /// round's `pools` holds them after it: recomputed from the settings, the entrants and the
    /// seed's opening stream as the start made them. Only the public pools leave this call.
    /// None before the start.
    pub async fn start_pools(&self, id: Uuid) -> Result<Option<Value>, AppError> {
        let snapshot = self.snapshot(id).await?;
        if !matches!(snapshot.lobby.status, Status::Running | Status::Finished) {
            return Ok(None);
        }
        let kind = snapshot.lobby.game_kind()?;
        with_game!(kind, G => start_pools_of::<G>(&snapshot))
    }
}

fn start_pools_of<G: Game>(snapshot: &Snapshot) -> Result<Option<Value>, AppError> {
    let settings = engine::settings::<G>(snapshot)?;
    let entrants = engine::entrants::<G>(&snapshot.players)?;
    let Ok(state) = G::start(&settings, &entrants, &mut rng_for(snapshot.lobby.seed, 0)) else {
        return Ok(None);
    };
    let mut players = Vec::with_capacity(snapshot.players.len());
    for player in snapshot.players.iter() {
        let seat = Seat(player.seat);
        let mut entry = Map::new();
        entry.insert("id".into(), json!(player.id));
        entry.insert("name".into(), json!(player.name));
        entry.insert("alive".into(), json!(G::alive(&state, seat)));
        merge(&mut entry, to_json(&G::pools(&state, seat))?);
        players.push(Value::Object(entry));
    }
    Ok(Some(json!({ "players": players })))
}
