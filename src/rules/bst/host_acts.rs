//! What the host's own hand does to a BST duel: a kick and an early end. The rulings have
//! neither (a duel ends by KO, pool exhaustion or the host's round cap, §2.2); Herald decides
//! (`docs/rules/bst.md`, "The host's hand"):
//! - a kick is a forfeit: the kicked player loses and the opponent wins, whatever the HP;
//! - the host may end the duel as a draw or name the winner; nothing is compared.
//!
//! Either ends the game at once: the open step's answers are void, the table stays as it is
//! (the 80 tokens are still all accounted for), and the log says what the host did.

use serde::Deserialize;

use super::Bst;
use super::events::BstEvent;
use super::refusals::BstRefusal;
use super::state::{EndReason, Finish, State};
use crate::rules::{HostAct, PlayerId, Seat};

/// The host's decision when ending a duel early: `{"result": "draw"}` or
/// `{"winner": "<player id>"}`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    /// `draw`.
    pub result: Option<String>,
    /// The winner's player id.
    pub winner: Option<String>,
}

/// A substitute plays on at `seat` under `name`: hand, HP and everything else stay.
pub fn rename(state: &State, seat: Seat, name: &str) -> State {
    let mut next = state.clone();
    if let Some(p) = next.players.get_mut(seat.0) {
        p.who.name = name.to_owned();
    }
    next
}

fn game_over() -> BstRefusal {
    BstRefusal::conflict("game-over", "the game is over")
}

/// A forfeit: the player at `seat` loses, the opponent wins.
pub fn kick(state: &State, seat: Seat) -> Result<HostAct<Bst>, BstRefusal> {
    if state.finish.is_some() {
        return Err(game_over());
    }
    if seat.0 > 1 {
        return Err(BstRefusal::new("unknown-player", "no such seat"));
    }
    let forfeited = BstEvent::Forfeited {
        player: state.players[seat.0].who.clone(),
    };
    Ok(finish(
        state,
        vec![State::other(seat.0)],
        EndReason::Forfeit,
        vec![forfeited],
    ))
}

/// The host ends the duel as a draw or with the winner named.
pub fn end_by_host(state: &State, ending: Ending) -> Result<HostAct<Bst>, BstRefusal> {
    if state.finish.is_some() {
        return Err(game_over());
    }
    let winners = match (ending.result.as_deref(), ending.winner.as_deref()) {
        (Some("draw"), None) => Vec::new(),
        (None, Some(winner)) => {
            let seat = uuid::Uuid::parse_str(winner)
                .ok()
                .map(PlayerId)
                .and_then(|id| state.players.iter().position(|p| p.who.id == id))
                .ok_or_else(|| {
                    BstRefusal::new(
                        "unknown-player",
                        format!("'{winner}' is not the id of a player in this duel"),
                    )
                })?;
            vec![seat]
        }
        (Some(other), None) => {
            return Err(BstRefusal::new(
                "invalid-ending",
                format!("\"result\" can only be \"draw\", not {other:?}; or name a \"winner\""),
            ));
        }
        (None, None) | (Some(_), Some(_)) => {
            return Err(BstRefusal::new(
                "invalid-ending",
                "end a duel with {\"result\": \"draw\"} or {\"winner\": \"<player id>\"}, one of the two",
            ));
        }
    };
    Ok(finish(state, winners, EndReason::EndedByHost, Vec::new()))
}

fn finish(
    state: &State,
    winners: Vec<usize>,
    reason: EndReason,
    mut log: Vec<BstEvent>,
) -> HostAct<Bst> {
    let mut next = state.clone();
    log.push(BstEvent::GameOver {
        winners: winners.iter().map(|&w| next.players[w].who.clone()).collect(),
        reason: reason.id().to_owned(),
        hp: [next.players[0].hp, next.players[1].hp],
    });
    next.finish = Some(Finish { winners, reason });
    next.pending = None;
    next.ops.clear();
    HostAct { state: next, log }
}
