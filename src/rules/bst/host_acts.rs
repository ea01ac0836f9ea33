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
use super::refusals::{EndingProblem, Refusal};
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

/// A forfeit: the player at `seat` loses, the opponent wins.
pub fn kick(state: &State, seat: Seat) -> Result<HostAct<Bst>, Refusal> {
    if state.finish.is_some() {
        return Err(Refusal::GameOver);
    }
    if seat.0 > 1 {
        return Err(Refusal::NotInPlay { seat });
    }
    let forfeited = BstEvent::Forfeited {
        player: state.players[seat.0].who.clone(),
    };
    Ok(finish(
        state,
        vec![State::other(seat)],
        EndReason::Forfeit,
        vec![forfeited],
    ))
}

/// The host ends the duel as a draw or with the winner named.
pub fn end_by_host(state: &State, ending: Ending) -> Result<HostAct<Bst>, Refusal> {
    if state.finish.is_some() {
        return Err(Refusal::GameOver);
    }
    let winners = match (ending.result.as_deref(), ending.winner.as_deref()) {
        (Some("draw"), None) => Vec::new(),
        (None, Some(winner)) => {
            let seat = uuid::Uuid::parse_str(winner)
                .ok()
                .map(PlayerId)
                .and_then(|id| state.players.iter().position(|p| p.who.id == id))
                .ok_or_else(|| Refusal::UnknownWinner {
                    got: winner.to_owned(),
                })?;
            vec![Seat(seat)]
        }
        (Some(other), None) => {
            return Err(Refusal::InvalidEnding(EndingProblem::NotADraw(
                other.to_owned(),
            )));
        }
        (None, None) | (Some(_), Some(_)) => {
            return Err(Refusal::InvalidEnding(EndingProblem::NotExactlyOne));
        }
    };
    Ok(finish(state, winners, EndReason::EndedByHost, Vec::new()))
}

/// Both players voted for a draw: the duel ends drawn.
pub fn end_by_draw_vote(state: &State) -> Result<HostAct<Bst>, Refusal> {
    if state.finish.is_some() {
        return Err(Refusal::GameOver);
    }
    Ok(finish(state, Vec::new(), EndReason::DrawVote, Vec::new()))
}

fn finish(
    state: &State,
    winners: Vec<Seat>,
    reason: EndReason,
    mut log: Vec<BstEvent>,
) -> HostAct<Bst> {
    let mut next = state.clone();
    log.push(BstEvent::GameOver {
        winners: winners
            .iter()
            .map(|w| next.players[w.0].who.clone())
            .collect(),
        reason,
        hp: [next.players[0].hp, next.players[1].hp],
    });
    next.finish = Some(Finish { winners, reason });
    next.pending = None;
    next.ops.clear();
    HostAct { state: next, log }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::super::{Character, Join, Settings};
    use super::*;
    use crate::rules::{Entrant, Game, GameRng, Refusal as _};

    fn started() -> State {
        let entrants: Vec<Entrant<Join>> = (0..2)
            .map(|i| Entrant {
                id: PlayerId(uuid::Uuid::from_u128(i as u128 + 1)),
                name: format!("P{}", i + 1),
                join: Join {
                    character: Character::Sellsword,
                },
            })
            .collect();
        Bst::start(
            &Settings::default(),
            &entrants,
            &mut GameRng::seed_from_u64(3),
        )
        .unwrap()
    }

    fn ending(result: Option<&str>, winner: Option<&str>) -> Ending {
        Ending {
            result: result.map(str::to_owned),
            winner: winner.map(str::to_owned),
        }
    }

    #[test]
    fn a_kick_is_a_forfeit_the_opponent_wins_whatever_the_hp() {
        let mut state = started();
        state.players[1].hp = 1;
        let act = kick(&state, Seat(0)).unwrap();
        let outcome = Bst::outcome(&act.state).unwrap();
        assert_eq!(outcome.reason.to_string(), "forfeit");
        assert_eq!(outcome.winners, [state.players[1].who.id]);
        assert!(Bst::owes(&act.state).is_empty());
        assert!(!Bst::alive(&act.state, Seat(0)) && Bst::alive(&act.state, Seat(1)));
        assert!(matches!(
            act.log[..],
            [BstEvent::Forfeited { .. }, BstEvent::GameOver { .. }]
        ));
        assert_eq!(
            act.state.all_tokens(),
            state.all_tokens(),
            "every token stays"
        );
        assert_eq!(kick(&act.state, Seat(1)).unwrap_err().code(), "game-over");
    }

    #[test]
    fn the_host_declares_a_draw_or_names_the_winner() {
        let state = started();
        let draw = end_by_host(&state, ending(Some("draw"), None)).unwrap();
        let outcome = Bst::outcome(&draw.state).unwrap();
        assert_eq!(
            (outcome.reason.to_string().as_str(), outcome.winners.len()),
            ("ended-by-host", 0)
        );
        let p2 = state.players[1].who.id.to_string();
        let won = end_by_host(&state, ending(None, Some(&p2))).unwrap();
        assert_eq!(
            Bst::outcome(&won.state).unwrap().winners,
            [state.players[1].who.id]
        );
        assert!(
            end_by_host(&draw.state, ending(Some("draw"), None))
                .unwrap_err()
                .is_conflict()
        );
    }

    #[test]
    fn an_ending_that_is_not_exactly_a_draw_or_a_known_winner_is_refused() {
        let state = started();
        let code = |e: Ending| end_by_host(&state, e).unwrap_err().code();
        assert_eq!(code(ending(None, None)), "invalid-ending");
        assert_eq!(code(ending(Some("win"), None)), "invalid-ending");
        let p1 = state.players[0].who.id.to_string();
        assert_eq!(code(ending(Some("draw"), Some(&p1))), "invalid-ending");
        assert_eq!(code(ending(None, Some("nobody"))), "unknown-winner");
    }

    #[test]
    fn a_substitute_keeps_the_hand() {
        let state = started();
        let next = rename(&state, Seat(0), "Sub");
        assert_eq!(next.players[0].who.name, "Sub");
        assert_eq!(next.players[0].hand, state.players[0].hand);
    }
}
