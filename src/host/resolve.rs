//! Resolving a step: the rules' resolution of the step's orders, turned into what the lobby's
//! transaction writes (the reveal, the log, the pools after, the events, the next state).
//! Called inside that transaction, by whatever completes the step.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Value, json};

use super::controls::{KickReason, write_kick};
use super::engine::{LogEntry, public_pools, rng_for, to_canonical_text, to_json, to_text};
use super::missed_turns::policy_kicks;
use super::receipts::Seal;
use super::round_logs::KEPT_LINES;
use super::timing::{self, Timing};
use crate::error::AppError;
use crate::events::{EventKind, Named, StepResolved};
use crate::fairness::act::{Act, SeatOrder};
use crate::fairness::order_commitment;
use crate::rules::{Event as _, Game, HostAct, Seat};
use crate::store::{
    Change, LobbyPatch, NewEvent, NewStep, PlayerPatch, PublicLog, Snapshot, Status, StepClock,
};

/// The name under which a round's opening (its events before any order falls due) is filed.
pub const ROUND_OPENING: &str = "opening";

/// The name under which the host's act that ended a game (a kick, an early end) is filed as
/// the round's last step.
pub const HOST_STEP: &str = "host";

/// A step's log as stored (the host's lines, then the game's events; canonical, so that the
/// step's digest hashes it as it is), and its public lines as a notice quotes them
/// (`round_logs.rs`).
fn log_of<E: crate::rules::Event>(
    host: Vec<Value>,
    events: &[E],
) -> Result<(String, PublicLog), AppError> {
    let entries: Vec<LogEntry<E>> = events.iter().map(LogEntry::of).collect();
    let mut public = PublicLog::default();
    // The host's lines are everyone's.
    for text in host.iter().filter_map(|line| line.get("text")?.as_str()) {
        public.push(text, KEPT_LINES);
    }
    for text in entries.iter().filter_map(LogEntry::public_text) {
        public.push(text, KEPT_LINES);
    }
    let log = match host.is_empty() {
        true => to_canonical_text(&entries)?,
        false => {
            let mut all = host;
            for entry in &entries {
                all.push(to_json(entry)?);
            }
            to_canonical_text(&all)?
        }
    };
    Ok((log, public))
}

/// What closed a step.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Closing {
    /// The last owed answer arrived.
    Answered,
    /// Its deadline passed.
    Deadline,
    /// The host resolved it now.
    Host,
}

/// Where a revealed order came from (`source` in a round's reveal).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Source {
    Order,
    Fallback,
    Default,
}

impl Source {
    fn as_str(self) -> &'static str {
        match self {
            Source::Order => "order",
            Source::Fallback => "fallback",
            Source::Default => "default",
        }
    }
}

/// An owed seat that sent nothing: what it plays instead, and that line of the log.
#[derive(Clone, Debug)]
pub(super) struct Filled {
    pub seat: Seat,
    pub source: Source,
    /// The order in words (`Block on Ann`, `Pass`).
    pub text: String,
}

/// The host's own lines at the head of a step's log: how the step closed, what each missing
/// player played instead, and who the missed-turn policy removes after it (`kicked`: seat and
/// misses in a row).
fn host_lines(
    snapshot: &Snapshot,
    closing: Closing,
    filled: &[Filled],
    kicked: &[(usize, i64)],
) -> Vec<Value> {
    let mut lines = Vec::new();
    match closing {
        Closing::Answered => {}
        Closing::Deadline => lines.push(json!({
            "kind": "deadline-passed",
            "text": "The deadline passed before every order was in.",
        })),
        Closing::Host => lines.push(json!({
            "kind": "resolved-by-host",
            "text": "The host resolved this step before every order was in.",
        })),
    }
    for filled in filled {
        let who = &snapshot.players[filled.seat.0];
        let text = match filled.source {
            Source::Fallback => format!("{}'s fallback order: {}", who.name, filled.text),
            Source::Order | Source::Default => {
                format!("{} sent no order: {}", who.name, filled.text)
            }
        };
        lines.push(json!({
            "kind": "order-missing",
            "player": {"id": who.id, "name": who.name},
            "source": filled.source.as_str(),
            "text": text,
        }));
    }
    for (seat, misses) in kicked {
        let who = &snapshot.players[*seat];
        lines.push(json!({
            "kind": "missed-turns",
            "player": {"id": who.id, "name": who.name},
            "text": match misses {
                1 => format!("{} missed a step and is removed from the game.", who.name),
                n => format!("{} missed {n} steps in a row and is removed from the game.", who.name),
            },
        }));
    }
    lines
}

/// The revealed orders, each with its source; an owed seat the rules let pass with no order at
/// all (Crossing Swords Ruling 2) shows as `"order": null` from its default. A player's own
/// order shows its nonce and commitment (`seals`, by player; the commitment as kept when the order
/// was accepted, or computed for an order stored before that), so that its author can check it
/// against the receipt.
///
/// Written straight to its stored, canonical text from typed entries: building each entry as
/// a `Value` first cost the writer more than the rest of the reveal.
fn reveal<G: Game>(
    snapshot: &Snapshot,
    (round, step): (u32, &str),
    revealed: &[(Seat, G::Order)],
    (filled, seals): (&[Filled], &[(uuid::Uuid, Seal)]),
) -> Result<String, AppError> {
    let source_of = |seat: Seat| {
        filled
            .iter()
            .find(|f| f.seat == seat)
            .map_or(Source::Order, |f| f.source)
    };
    let named = |seat: Seat| {
        let who = &snapshot.players[seat.0];
        Named {
            id: who.id,
            name: Cow::Borrowed(&who.name),
        }
    };
    let mut entries: Vec<(Seat, Revealed<'_, G::Order>)> = Vec::with_capacity(revealed.len());
    for (seat, order) in revealed {
        let player = named(*seat);
        let source = source_of(*seat);
        let seal = seals.iter().find(|(id, _)| *id == player.id);
        let (commitment, nonce) = match (source, seal) {
            (Source::Order, Some((_, seal))) => {
                let commitment = match &seal.commitment {
                    Some(kept) => Cow::Borrowed(kept.as_str()),
                    // An order stored before commitments were kept.
                    None => Cow::Owned(order_commitment(
                        &to_json(order)?,
                        round,
                        step,
                        player.id,
                        &seal.nonce,
                    )),
                };
                (Some(commitment), Some(seal.nonce.as_str()))
            }
            _ => (None, None),
        };
        let entry = Revealed {
            commitment,
            nonce,
            order: Some(order),
            player,
            source: source.as_str(),
        };
        entries.push((*seat, entry));
    }
    for f in filled {
        if !revealed.iter().any(|(seat, _)| *seat == f.seat) {
            let entry = Revealed {
                commitment: None,
                nonce: None,
                order: None,
                player: named(f.seat),
                source: f.source.as_str(),
            };
            entries.push((f.seat, entry));
        }
    }
    entries.sort_by_key(|(seat, _)| *seat);
    let entries: Vec<Revealed<'_, G::Order>> = entries.into_iter().map(|(_, e)| e).collect();
    to_canonical_text(&entries)
}

/// One revealed order as stored. The members are declared in JCS's order, so that the
/// canonical writer finds them sorted; the order itself is sorted as it is written.
#[derive(Serialize)]
struct Revealed<'a, O> {
    #[serde(skip_serializing_if = "Option::is_none")]
    commitment: Option<Cow<'a, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nonce: Option<&'a str>,
    /// None (`null`) for an owed seat the rules let pass with no order.
    order: Option<&'a O>,
    player: Named<'a>,
    source: &'static str,
}

/// Missed-turn counts after a step: a seat that sent nothing counts one more, one that
/// answered starts again from 0 (only changed counts are written).
fn miss_counts(snapshot: &Snapshot, owed: &[Seat], filled: &[Filled]) -> Vec<PlayerPatch> {
    let mut patches = Vec::new();
    for seat in owed {
        let player = &snapshot.players[seat.0];
        let missed = filled.iter().any(|f| f.seat == *seat);
        let misses = if missed { player.misses + 1 } else { 0 };
        if misses != player.misses {
            patches.push(PlayerPatch {
                id: player.id,
                fallback: None,
                misses: Some(misses),
            });
        }
    }
    patches
}

/// The clock of the step that `state` has open, and its `deadline-set` event if it has one.
pub(super) fn open_clock<G: Game>(
    snapshot: &Snapshot,
    state: &G::State,
    now: i64,
    change: &mut Change,
) -> Result<(), AppError> {
    let finished = G::owes(state).is_empty();
    let clock = match finished {
        true => Default::default(),
        false => {
            let timing = Timing::parse(&snapshot.lobby.timing)?;
            timing::opened(&timing, G::step(state), G::MAIN_STEP, now)
        }
    };
    if let Some(deadline_at) = clock.deadline_at {
        change.events.push(NewEvent {
            kind: EventKind::DeadlineSet,
            data: json!({"round": G::round(state), "step": G::step(state),
                         "deadline_at": timing::rfc3339(deadline_at)})
            .to_string(),
        });
    }
    change.lobby.clock = Some(clock);
    Ok(())
}

/// Resolves the open step with `orders` (one per owed seat that plays an order, in seat
/// order; `filled` says which of them stand in for a missing answer, and which seats send
/// none; `seals` are the sent orders' nonces and commitments, by player) and adds to `change`
/// what that writes: the events, the resolved step (and the next round's opening), the missed-turn counts, the next step's clock and the lobby's new state.
/// Whoever calls it does so inside the lobby's transaction, so a step resolves exactly once.
pub(super) fn resolve_step<G: Game>(
    snapshot: &Snapshot,
    state: &G::State,
    orders: &[(Seat, G::Order)],
    (closing, filled): (Closing, &[Filled]),
    seals: &[(uuid::Uuid, Seal)],
    now: i64,
    change: &mut Change,
) -> Result<(), AppError> {
    let lobby = &snapshot.lobby;
    let (round, step) = (G::round(state), G::step(state));
    let mut played = Vec::with_capacity(orders.len());
    for (seat, order) in orders {
        played.push(SeatOrder {
            seat: seat.0,
            order: to_json(order)?,
        });
    }
    change.acts.push(Act::Resolve { orders: played });
    let rng_stream = u64::try_from(lobby.step_seq).unwrap_or(0) + 1;
    let resolution = G::resolve(state, orders, &mut rng_for(lobby.seed, rng_stream));
    let next = resolution.state;
    let revealed = reveal::<G>(
        snapshot,
        (round, step),
        &resolution.revealed,
        (filled, seals),
    )?;
    let finished = G::owes(&next).is_empty();
    let misses = miss_counts(snapshot, &G::owes(state), filled);
    let kicks = match finished {
        true => Vec::new(),
        false => policy_kicks::<G>(snapshot, &next, &misses)?,
    };
    let kicked: Vec<(usize, i64)> = kicks.iter().map(|k| (k.seat, k.misses)).collect();
    let (next_round, next_step) = (G::round(&next), G::step(&next));
    change.events.push(NewEvent {
        kind: EventKind::StepResolved,
        data: to_text(&StepResolved {
            round,
            step: Cow::Borrowed(step),
            next_round,
            next_step: Cow::Borrowed(next_step),
            timed_out: closing != Closing::Answered,
        })?,
    });
    if finished || next_round > round {
        change.events.push(NewEvent {
            kind: EventKind::RoundResolved,
            data: json!({"round": round}).to_string(),
        });
    }
    if finished {
        let result = G::outcome(&next).map(|o| to_json(&o)).transpose()?;
        change.events.push(NewEvent {
            kind: EventKind::Finished,
            data: json!({"result": result}).to_string(),
        });
    }
    let pools = to_canonical_text(&public_pools::<G>(&next, &snapshot.players))?;
    // Events from the opening of a new round on (BST: the next turn's draw and poison) are
    // that round's, filed as its opening step.
    let split = resolution
        .events
        .iter()
        .position(|e| e.opens_round().is_some_and(|r| r > round))
        .unwrap_or(resolution.events.len());
    let (this_step, opening) = resolution.events.split_at(split);
    let (log, public) = log_of(host_lines(snapshot, closing, filled, &kicked), this_step)?;
    change.resolved.push(NewStep {
        round,
        step: step.to_string(),
        revealed,
        log,
        pools: pools.clone(),
        public: Some(public),
        ..NewStep::default()
    });
    if let Some(opened) = opening.first().and_then(|e| e.opens_round()) {
        let (log, public) = log_of(Vec::new(), opening)?;
        change.resolved.push(NewStep {
            round: opened,
            step: ROUND_OPENING.to_string(),
            revealed: "[]".into(),
            log,
            pools,
            public: Some(public),
            ..NewStep::default()
        });
    }
    change.players.extend(misses);
    // The missed-turn policy acts on the resolved state (the next step's owed seats), in
    // this same transaction: exactly once, with the host's kick's effects.
    let mut next = next;
    for kick in kicks {
        let player = &snapshot.players[kick.seat];
        let reason = KickReason::MissedTurns(kick.misses);
        match write_kick::<G>(snapshot, player, reason, kick.act, change)? {
            Some(state) => next = state,
            None => return Ok(()),
        }
    }
    change.lobby = LobbyPatch {
        status: finished.then_some(Status::Finished),
        state: Some(to_text(&next)?),
        round: Some(G::round(&next)),
        step: Some(G::step(&next).to_string()),
        clock: None,
        fairness: None,
    };
    open_clock::<G>(snapshot, &next, now, change)
}

/// Adds to `change` what a host's act that ended the game writes: its lines as the round's
/// last step (no orders revealed: the open step's orders are void and are deleted unread),
/// `round-resolved` and `finished`, and the finished state. Inside the lobby's transaction.
pub(super) fn finish_by_host<G: Game>(
    snapshot: &Snapshot,
    act: &HostAct<G>,
    change: &mut Change,
) -> Result<(), AppError> {
    let next = &act.state;
    let round = G::round(next);
    let (log, public) = log_of(Vec::new(), &act.log)?;
    change.resolved.push(NewStep {
        round,
        step: HOST_STEP.to_string(),
        revealed: "[]".into(),
        log,
        pools: to_canonical_text(&public_pools::<G>(next, &snapshot.players))?,
        public: Some(public),
        ..NewStep::default()
    });
    let result = G::outcome(next).map(|o| to_json(&o)).transpose()?;
    change.events.push(NewEvent {
        kind: EventKind::RoundResolved,
        data: json!({"round": round}).to_string(),
    });
    change.events.push(NewEvent {
        kind: EventKind::Finished,
        data: json!({"result": result}).to_string(),
    });
    change.lobby = LobbyPatch {
        status: Some(Status::Finished),
        state: Some(to_text(next)?),
        round: Some(round),
        step: Some(G::step(next).to_string()),
        // A finished game has no deadline.
        clock: Some(StepClock::default()),
        fairness: None,
    };
    Ok(())
}
