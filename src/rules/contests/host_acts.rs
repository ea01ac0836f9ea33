//! What the host's own hand does to a duel. The rulings have none of it; Herald decides as
//! for the other duels (`docs/rules/contests.md`): a substitute keeps the seat, a kick is a
//! forfeit (the other wins), and the host may end the duel as a draw or naming the winner.
//! Either end is at once: the open step's answers are void and every card on the table goes
//! to its owner's discard, so the cards stay accounted for (§3.10).

use serde::Deserialize;

use super::Contests;
use super::events::Event;
use super::refusal::Refusal;
use super::state::{End, EndReason, Lasts, State, Step};
use crate::rules::{HostAct, PlayerId, Seat};

/// The host's decision: `{"result": "draw"}` or `{"winner": "<player id>"}`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    pub result: Option<String>,
    pub winner: Option<String>,
}

/// A substitute plays on at `seat` under `name`.
pub fn rename(state: &State, seat: Seat, name: &str) -> State {
    let mut next = state.clone();
    if let Some(f) = next.fighters.get_mut(seat.0) {
        f.who.name = name.to_owned();
    }
    next
}

/// A forfeit: `seat` loses.
pub fn kick(state: &State, seat: Seat) -> Result<HostAct<Contests>, Refusal> {
    if state.end.is_some() {
        return Err(Refusal::GameOver);
    }
    let Some(f) = state.fighters.get(seat.0) else {
        return Err(Refusal::NothingOwed);
    };
    let log = vec![Event::Forfeited {
        player: f.who.clone(),
    }];
    Ok(end(
        state,
        EndReason::Forfeit,
        Some(State::other(seat)),
        log,
    ))
}

/// The host ends the duel as a draw or with the winner named.
pub fn end_by_host(state: &State, ending: Ending) -> Result<HostAct<Contests>, Refusal> {
    if state.end.is_some() {
        return Err(Refusal::GameOver);
    }
    let winner = match (ending.result.as_deref(), ending.winner.as_deref()) {
        (Some("draw"), None) => None,
        (None, Some(winner)) => Some(
            uuid::Uuid::parse_str(winner)
                .ok()
                .map(PlayerId)
                .and_then(|id| state.fighters.iter().position(|f| f.who.id == id))
                .map(Seat)
                .ok_or_else(|| Refusal::UnknownWinner {
                    got: winner.to_owned(),
                })?,
        ),
        _ => return Err(Refusal::InvalidEnding),
    };
    Ok(end(state, EndReason::EndedByHost, winner, Vec::new()))
}

/// Both players voted for a draw: the duel ends drawn.
pub fn end_by_draw_vote(state: &State) -> Result<HostAct<Contests>, Refusal> {
    if state.end.is_some() {
        return Err(Refusal::GameOver);
    }
    Ok(end(state, EndReason::DrawVote, None, Vec::new()))
}

fn end(
    state: &State,
    reason: EndReason,
    winner: Option<Seat>,
    mut log: Vec<Event>,
) -> HostAct<Contests> {
    let mut next = state.clone();
    let mut lines = std::mem::take(&mut log);
    for f in &mut next.fighters {
        let table = std::mem::take(&mut f.table);
        f.discard.extend(table);
        f.mods.retain(|m| m.lasts == Lasts::Combat);
    }
    next.contest = None;
    next.discard = None;
    next.phase = None;
    next.window = None;
    next.queue.clear();
    next.end = Some(End { reason, winner });
    next.step = Step::Over;
    lines.push(Event::DuelOver {
        reason,
        winner: winner.map(|w| next.fighters[w.0].who.clone()),
        hp: [next.fighters[0].hp, next.fighters[1].hp],
    });
    HostAct {
        state: next,
        log: lines,
    }
}
