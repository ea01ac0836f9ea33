//! Resolving a step: the rules' resolution of the step's orders, turned into what the lobby's
//! transaction writes (the reveal, the log, the pools after, the events, the next state).
//! Called inside that transaction, by whatever completes the step.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Value, json};

use super::engine::{LogEntry, public_pools, rng_for, to_canonical_text, to_json, to_text};
use super::missed_turns::policy_kicks;
use super::receipts::Seal;
use super::round_logs::{KEPT_LINES, notice_line};
use super::timing::{self, Timing};
use super::votes;
use crate::error::AppError;
use crate::events::{Deadline, EventKind, Finished, Named, RoundResolved, StepResolved};
use crate::fairness::act::{Act, SeatOrder, Vote};
use crate::fairness::jcs::CanonicalList;
use crate::fairness::order_commitment;
use crate::rules::{Event as _, Game, HostAct, Resolution, Seat};
use crate::store::{
    Change, LobbyPatch, NewEvent, NewStep, PlayerPatch, PlayerRow, PublicLog, Snapshot, Status,
    StepClock,
};

pub use crate::fairness::publish::{HOST_STEP, ROUND_OPENING};

/// A step's log as written by the host: as stored (the host's lines, then the game's events;
/// canonical, so that the step's digest hashes it as it is), its public entries as the digest
/// hashes them when some entry is private, and its public lines as a notice quotes them
/// (`round_logs.rs`).
struct WrittenLog {
    log: String,
    digested: Option<String>,
    public: PublicLog,
}

/// Writes a step's log ([`WrittenLog`]). Each entry is written canonically on its own: a
/// canonical array is its canonical elements between brackets, so the stored log and its
/// public part are joined from the same texts, and the digest never reads the log back.
fn log_of<E: crate::rules::Event>(host: Vec<Value>, events: &[E]) -> Result<WrittenLog, AppError> {
    let written = |e: serde_json::Error| AppError::Internal(format!("serialize: {e}"));
    let mut public = PublicLog::default();
    let mut entries = CanonicalList::default();
    // Whether each entry is everyone's; the host's lines are.
    let mut everyones = Vec::with_capacity(host.len() + events.len());
    for line in &host {
        if let Some(text) = line.get("text").and_then(Value::as_str) {
            public.push_with(KEPT_LINES, || notice_line(text));
        }
        entries.push(line).map_err(written)?;
        everyones.push(true);
    }
    for event in events {
        let entry = LogEntry::of(event);
        // A notice quotes the line in words, as the pages show it, its rule ids left out.
        if entry.public_text().is_some() {
            public.push_with(KEPT_LINES, || notice_line(&event.words()));
        }
        entries.push(&entry).map_err(written)?;
        everyones.push(entry.public_text().is_some());
    }
    let log = canonical_array(entries.elements());
    let digested = match everyones.iter().all(|everyone| *everyone) {
        true => None,
        false => Some(canonical_array(
            entries
                .elements()
                .zip(everyones.iter().copied())
                .filter_map(|(text, everyone)| everyone.then_some(text)),
        )),
    };
    Ok(WrittenLog {
        log,
        digested,
        public,
    })
}

/// The canonical JSON array of elements that are canonical JSON texts.
fn canonical_array<'a>(elements: impl Iterator<Item = &'a str> + Clone) -> String {
    let len: usize = elements.clone().map(|e| e.len() + 1).sum();
    let mut text = String::with_capacity(len + 2);
    text.push('[');
    for (i, element) in elements.enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(element);
    }
    text.push(']');
    text
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
    /// Nobody was asked: the rules play the step alone ([`Game::unasked`]).
    Unasked,
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
        Closing::Answered | Closing::Unasked => {}
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
/// against the receipt. Every entry has its `vote` (docs/table-talk.md, "End votes"): the
/// one sealed with a sent order, null for any other.
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
        let vote = match (source, seal) {
            (Source::Order, Some((_, seal))) => seal.vote,
            _ => None,
        };
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
            vote,
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
                vote: None,
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
    /// The vote sent with the order; null when none.
    vote: Option<Vote>,
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
                binding: None,
                names: None,
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
    let clock = match over::<G>(state) {
        true => Default::default(),
        false => {
            let timing = Timing::parse(&snapshot.lobby.timing)?;
            timing::opened(&timing, G::step(state), G::MAIN_STEP, now)
        }
    };
    if let Some(deadline_at) = clock.deadline_at {
        change.events.push(NewEvent {
            kind: EventKind::DeadlineSet,
            data: to_text(&Deadline {
                round: G::round(state),
                step: Cow::Borrowed(G::step(state)),
                deadline_at: Some(Cow::Owned(timing::rfc3339(deadline_at))),
            })?,
        });
    }
    change.lobby.clock = Some(clock);
    Ok(())
}

/// Whether the game is over at `state`: nobody owes an answer, and the open step is not one
/// the rules play with nobody asked ([`Game::unasked`]).
fn over<G: Game>(state: &G::State) -> bool {
    G::owes(state).is_empty() && !G::unasked(state)
}

/// Resolves the open step with `orders` (one per owed seat that plays an order, in seat
/// order; `filled` says which of them stand in for a missing answer, and which seats send
/// none; `seals` are the sent orders' nonces and commitments, by player) and adds to `change`
/// what that writes: the events, the resolved step (and the next round's opening), the
/// missed-turn counts, every step after it that the rules play with nobody asked, the next
/// step's clock and the lobby's new state. Whoever calls it does so inside the lobby's
/// transaction, so a step resolves exactly once.
pub(super) fn resolve_step<G: Game>(
    snapshot: &Snapshot,
    state: &G::State,
    orders: &[(Seat, G::Order)],
    (closing, filled): (Closing, &[Filled]),
    seals: &[(uuid::Uuid, Seal)],
    now: i64,
    change: &mut Change,
) -> Result<(), AppError> {
    let round = G::round(state);
    let missing = |seat: Seat| filled.iter().any(|f| f.seat == seat);
    let unanimous = votes::unanimous::<G>(snapshot, state, missing, seals);
    let agreed = votes::agreed_round::<G>(snapshot, state, unanimous).filter(|r| *r == round);
    let resolution = resolve_by_rules::<G>(snapshot, state, orders, change)?;
    let misses = miss_counts(snapshot, &G::owes(state), filled);
    // The round is over and its players agreed a draw: the game ends here, nobody is kicked.
    let vote_ends =
        agreed.is_some() && !over::<G>(&resolution.state) && G::round(&resolution.state) > round;
    let kicks = match over::<G>(&resolution.state) || vote_ends {
        true => Vec::new(),
        false => policy_kicks::<G>(snapshot, &resolution.state, &misses)?,
    };
    let kicked: Vec<(usize, i64)> = kicks.iter().map(|k| (k.seat, k.misses)).collect();
    let at = (G::round(state), G::step(state));
    // The bound seats' record of this step, in this same transaction (docs/identity.md,
    // "Reliability"); nothing for a lobby without profiles but a look at each owed seat.
    let step_seq = snapshot.lobby.step_seq + change.resolved.len() as i64;
    let sources = G::owes(state).into_iter().map(|seat| {
        let source = filled
            .iter()
            .find(|f| f.seat == seat)
            .map(|f| f.source.as_str());
        (seat.0, source)
    });
    let owed = super::reliability::owed_records(&snapshot.players, sources, (step_seq, at.0, at.1));
    change.records.extend(owed);
    file_step::<G>(
        snapshot,
        at,
        &resolution,
        (closing, filled, &kicked),
        seals,
        change,
    )?;
    change.players.extend(misses);
    if vote_ends {
        return end_by_vote::<G>(snapshot, &resolution.state, change);
    }
    // An agreement whose round goes on waits in the ledger for the round's end.
    change.draw_vote = agreed;
    // The missed-turn policy acts on the resolved state (the next step's owed seats), in
    // this same transaction: exactly once, with the host's kick's effects.
    let mut next = resolution.state;
    for kick in kicks {
        let player = &snapshot.players[kick.seat];
        let reason = KickReason::MissedTurns(kick.misses);
        match write_kick::<G>(snapshot, player, reason, kick.act, change)? {
            Some(state) => next = state,
            None => return Ok(()),
        }
    }
    match play_unasked_agreed::<G>(snapshot, next, agreed, change)? {
        Some(next) => settle::<G>(snapshot, &next, now, change),
        None => Ok(()),
    }
}

/// Ends the game at `state`, a round's end in which every living player voted a draw: the
/// rules' end, recorded as its act, filed as the host's closing step.
fn end_by_vote<G: Game>(
    snapshot: &Snapshot,
    state: &G::State,
    change: &mut Change,
) -> Result<(), AppError> {
    let act = G::end_by_draw_vote(state).map_err(super::engine::refused)?;
    change.acts.push(Act::DrawVote);
    finish_by_host::<G>(snapshot, &act, change)
}

/// Plays every step from `state` on that the rules play with nobody asked ([`Game::unasked`]),
/// each resolved with no orders and filed exactly as a step the players answered (its own
/// act, random stream, reveal, log, pools and digest), so that every resolved round is
/// published the same way whatever resolved it. Returns the first state that asks somebody
/// (or is over). Shared by the start and every resolution.
pub(super) fn play_unasked<G: Game>(
    snapshot: &Snapshot,
    state: G::State,
    change: &mut Change,
) -> Result<G::State, AppError> {
    play_unasked_agreed::<G>(snapshot, state, None, change)?
        .ok_or_else(|| AppError::Internal("a game ended by a vote nobody cast".into()))
}

/// [`play_unasked`] in a round whose players agreed a draw (`agreed`, its number): when an
/// unasked step ends that round, the game ends there by the vote (None is returned).
fn play_unasked_agreed<G: Game>(
    snapshot: &Snapshot,
    mut state: G::State,
    agreed: Option<u32>,
    change: &mut Change,
) -> Result<Option<G::State>, AppError> {
    while G::unasked(&state) {
        let resolution = resolve_by_rules::<G>(snapshot, &state, &[], change)?;
        let at = (G::round(&state), G::step(&state));
        file_step::<G>(
            snapshot,
            at,
            &resolution,
            (Closing::Unasked, &[], &[]),
            &[],
            change,
        )?;
        state = resolution.state;
        let round_over = agreed.is_some_and(|round| G::round(&state) > round);
        if round_over && !over::<G>(&state) {
            end_by_vote::<G>(snapshot, &state, change)?;
            return Ok(None);
        }
    }
    if let (Some(round), false) = (agreed, over::<G>(&state)) {
        change.draw_vote = (G::round(&state) == round).then_some(round);
    }
    Ok(Some(state))
}

/// The lobby's new state, round, step and status after the steps `change` files, and the
/// open step's clock.
pub(super) fn settle<G: Game>(
    snapshot: &Snapshot,
    next: &G::State,
    now: i64,
    change: &mut Change,
) -> Result<(), AppError> {
    change.lobby = LobbyPatch {
        status: over::<G>(next).then_some(Status::Finished),
        state: Some(to_text(next)?),
        round: Some(G::round(next)),
        step: Some(G::step(next).to_string()),
        clock: None,
        fairness: None,
    };
    open_clock::<G>(snapshot, next, now, change)
}

/// The rules' resolution of the open step of `state` with `orders`, recorded as an act. It
/// draws from the random stream of the step it is filed as: the lobby's steps so far and
/// those `change` has filed before it, plus one (the deal is stream 0), as the replay counts.
fn resolve_by_rules<G: Game>(
    snapshot: &Snapshot,
    state: &G::State,
    orders: &[(Seat, G::Order)],
    change: &mut Change,
) -> Result<Resolution<G>, AppError> {
    let lobby = &snapshot.lobby;
    let mut played = Vec::with_capacity(orders.len());
    for (seat, order) in orders {
        played.push(SeatOrder {
            seat: seat.0,
            order: to_json(order)?,
        });
    }
    change.acts.push(Act::Resolve { orders: played });
    let filed = lobby.step_seq + i64::try_from(change.resolved.len()).unwrap_or(0);
    let rng_stream = u64::try_from(filed).unwrap_or(0) + 1;
    Ok(G::resolve(
        state,
        orders,
        &mut rng_for(lobby.seed, rng_stream),
    ))
}

/// Files the step `(round, step)` that `resolution` resolved: its `step-resolved` event (with
/// `round-resolved` and `finished` when it ends the round or the game), the step with its
/// reveal, host lines (how it closed, who sent nothing, who the missed-turn policy removes:
/// `kicked`), log and pools, and the next round's opening when its events open one.
fn file_step<G: Game>(
    snapshot: &Snapshot,
    (round, step): (u32, &str),
    resolution: &Resolution<G>,
    (closing, filled, kicked): (Closing, &[Filled], &[(usize, i64)]),
    seals: &[(uuid::Uuid, Seal)],
    change: &mut Change,
) -> Result<(), AppError> {
    let next = &resolution.state;
    let revealed = reveal::<G>(
        snapshot,
        (round, step),
        &resolution.revealed,
        (filled, seals),
    )?;
    let finished = over::<G>(next);
    let (next_round, next_step) = (G::round(next), G::step(next));
    change.events.push(NewEvent {
        kind: EventKind::StepResolved,
        data: to_text(&StepResolved {
            round,
            step: Cow::Borrowed(step),
            next_round,
            next_step: Cow::Borrowed(next_step),
            timed_out: matches!(closing, Closing::Deadline | Closing::Host),
        })?,
    });
    if finished || next_round > round {
        change.events.push(NewEvent {
            kind: EventKind::RoundResolved,
            data: to_text(&RoundResolved { round })?,
        });
    }
    if finished {
        let result = G::outcome(next).map(|o| to_json(&o)).transpose()?;
        change.events.push(NewEvent {
            kind: EventKind::Finished,
            data: to_text(&Finished { result })?,
        });
    }
    let pools = to_canonical_text(&public_pools::<G>(next, &snapshot.players))?;
    // Events from the opening of a new round on (BST: the next turn's draw and poison) are
    // that round's, filed as its opening step.
    let split = resolution
        .events
        .iter()
        .position(|e| e.opens_round().is_some_and(|r| r > round))
        .unwrap_or(resolution.events.len());
    let (this_step, opening) = resolution.events.split_at(split);
    let written = log_of(host_lines(snapshot, closing, filled, kicked), this_step)?;
    change.resolved.push(NewStep {
        round,
        step: step.to_string(),
        revealed,
        log: written.log,
        digested_log: written.digested,
        pools: pools.clone(),
        public: Some(written.public),
        announced: true,
        ..NewStep::default()
    });
    if let Some(opened) = opening.first().and_then(|e| e.opens_round()) {
        let written = log_of(Vec::new(), opening)?;
        change.resolved.push(NewStep {
            round: opened,
            step: ROUND_OPENING.to_string(),
            revealed: "[]".into(),
            log: written.log,
            digested_log: written.digested,
            pools,
            public: Some(written.public),
            ..NewStep::default()
        });
    }
    Ok(())
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
    let written = log_of(Vec::new(), &act.log)?;
    change.resolved.push(NewStep {
        round,
        step: HOST_STEP.to_string(),
        revealed: "[]".into(),
        log: written.log,
        digested_log: written.digested,
        pools: to_canonical_text(&public_pools::<G>(next, &snapshot.players))?,
        public: Some(written.public),
        ..NewStep::default()
    });
    let result = G::outcome(next).map(|o| to_json(&o)).transpose()?;
    change.events.push(NewEvent {
        kind: EventKind::RoundResolved,
        data: to_text(&RoundResolved { round })?,
    });
    change.events.push(NewEvent {
        kind: EventKind::Finished,
        data: to_text(&Finished { result })?,
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

/// Why a player was kicked (`reason` in `player-kicked`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum KickReason {
    /// The host's `kick`.
    Host,
    /// The missed-turn policy: the player missed this many steps in a row (`miss_limit`).
    MissedTurns(i64),
}

/// Writes a kick the rules have made (`act`, `G::kick` of `player`'s seat) into `change`: the
/// `player-kicked` event and, if the kick ended the game, the end. Returns the state the game
/// goes on in, or None when it ended. Shared by the host's kick and the missed-turn policy,
/// so both have the same effects.
pub(super) fn write_kick<G: Game>(
    snapshot: &Snapshot,
    player: &PlayerRow,
    reason: KickReason,
    act: HostAct<G>,
    change: &mut Change,
) -> Result<Option<G::State>, AppError> {
    let data = match reason {
        KickReason::Host => json!({"player": named(player), "reason": "host"}),
        KickReason::MissedTurns(misses) => {
            json!({"player": named(player), "reason": "missed-turns", "misses": misses})
        }
    };
    change.events.push(NewEvent {
        kind: EventKind::PlayerKicked,
        data: data.to_string(),
    });
    change.acts.push(Act::Kick { seat: player.seat });
    if G::owes(&act.state).is_empty() {
        finish_by_host::<G>(snapshot, &act, change)?;
        return Ok(None);
    }
    Ok(Some(act.state))
}

/// `{"id", "name"}`, as events name a player.
pub(super) fn named(player: &PlayerRow) -> Value {
    json!({"id": player.id, "name": player.name})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fairness::jcs;
    use crate::rules::{Audience, Event};
    use serde_json::json;

    /// A log event with a seat-private variant, as a duel's draw is.
    #[derive(Clone, Debug, Serialize)]
    #[serde(tag = "kind", rename_all = "kebab-case")]
    enum Drawn {
        Struck { by: String },
        Drew { seat: usize, tokens: Vec<String> },
    }

    impl std::fmt::Display for Drawn {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match self {
                Drawn::Struck { by } => write!(f, "{by} strikes \"hard\"."),
                Drawn::Drew { tokens, .. } => write!(f, "You drew {}.", tokens.join(" ")),
            }
        }
    }

    impl Event for Drawn {
        fn audience(&self) -> Audience {
            match self {
                Drawn::Struck { .. } => Audience::Everyone,
                Drawn::Drew { seat, .. } => Audience::Only(Seat(*seat)),
            }
        }
    }

    /// The log joined from its entries' texts is the log written whole, and the public part
    /// the digest hashes is the stored log less its private entries: the digest of the step
    /// is the one an archive's checker computes from the stored log.
    #[test]
    fn a_log_written_entry_by_entry_is_the_canonical_log_and_its_public_part() {
        let host = vec![json!({"kind": "deadline-passed", "text": "The deadline passed."})];
        let events = [
            Drawn::Drew {
                seat: 1,
                tokens: vec!["R7".into(), "W10".into()],
            },
            Drawn::Struck { by: "Ann".into() },
            Drawn::Drew {
                seat: 0,
                tokens: vec!["B3".into()],
            },
        ];
        let written = log_of(host.clone(), &events).unwrap();
        let mut whole = host;
        whole.extend(events.iter().map(|e| to_json(&LogEntry::of(e)).unwrap()));
        let whole = Value::Array(whole);
        assert_eq!(written.log, jcs::canonical(&whole));
        let public = crate::fairness::public_log(&whole);
        assert_eq!(public.as_array().unwrap().len(), 2);
        assert_eq!(
            written.digested.as_deref(),
            Some(jcs::canonical(&public).as_str())
        );
        assert_eq!(
            written.public.first,
            ["The deadline passed.", "Ann strikes \"hard\"."]
        );
        let step = |public_log| crate::fairness::StoredStep {
            round: 1,
            step: "play",
            revealed: "[]",
            log: &written.log,
            public_log,
            pools: "{}",
        };
        assert_eq!(
            crate::fairness::stored_step_digest("prev", step(written.digested.as_deref())).unwrap(),
            crate::fairness::stored_step_digest("prev", step(None)).unwrap()
        );

        // A log with no private entry is hashed as stored; an empty one is `[]`.
        let open = log_of(Vec::new(), &events[1..2]).unwrap();
        assert_eq!(open.digested, None);
        assert_eq!(log_of::<Drawn>(Vec::new(), &[]).unwrap().log, "[]");
    }
}
