//! What the host's own hand does to a duel: a substitute, a kick and an early end. The
//! rulings have none of them; Herald decides as for BST (`docs/rules/scale-of-styles.md`):
//! - a kick is a forfeit: the kicked fighter loses and the opponent wins;
//! - the host may end the duel as a draw or name the winner;
//! - the victor of either is awarded XP as any victor (Ruling 20 ties XP to the victory alone).
//!
//! Either ends the match at once: the open step's answers are void, and a card in play
//! between the reveal and the shift goes to its owner's discard so that every card stays
//! accounted for (§3.6).

use serde::Deserialize;

use super::ScaleOfStyles;
use super::ending::{finish, margins};
use super::events::{EndReason, Event};
use super::refusal::Refusal;
use super::state::{Discarded, State, Step};
use crate::rules::{HostAct, PlayerId, Seat};

/// The host's decision: `{"result": "draw"}` or `{"winner": "<player id>"}`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    pub result: Option<String>,
    pub winner: Option<String>,
}

/// A substitute plays on at `seat` under `name`: deck, plan and values stay.
pub fn rename(state: &State, seat: Seat, name: &str) -> State {
    let mut next = state.clone();
    if let Some(f) = next.fighters.get_mut(seat.0) {
        f.who.name = name.to_owned();
    }
    next
}

/// A forfeit: `seat` loses, the opponent wins.
pub fn kick(state: &State, seat: Seat) -> Result<HostAct<ScaleOfStyles>, Refusal> {
    if state.end.is_some() {
        return Err(Refusal::GameOver);
    }
    let Some(fighter) = state.fighter(seat) else {
        return Err(Refusal::NothingOwed);
    };
    let forfeited = Event::Forfeited {
        player: fighter.who.clone(),
    };
    Ok(end(
        state,
        EndReason::Forfeit,
        Some(State::other(seat)),
        vec![forfeited],
    ))
}

/// The host ends the duel as a draw or with the winner named.
pub fn end_by_host(state: &State, ending: Ending) -> Result<HostAct<ScaleOfStyles>, Refusal> {
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
        (Some(_), None) | (None, None) | (Some(_), Some(_)) => return Err(Refusal::InvalidEnding),
    };
    Ok(end(state, EndReason::EndedByHost, winner, Vec::new()))
}

/// Both players voted for a draw: the duel ends drawn.
pub fn end_by_draw_vote(state: &State) -> Result<HostAct<ScaleOfStyles>, Refusal> {
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
) -> HostAct<ScaleOfStyles> {
    let mut next = state.clone();
    if let Step::Shift(clash) = &next.step {
        let cards = [clash.sides[0].card, clash.sides[1].card];
        for (f, card) in next.fighters.iter_mut().zip(cards) {
            f.discard.push(Discarded {
                card,
                stripped: false,
            });
        }
    }
    let margins = margins(&next, None);
    log.push(finish(&mut next, reason, winner, margins));
    HostAct { state: next, log }
}
