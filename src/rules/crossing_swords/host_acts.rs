//! What the host's own hand does to a game of Crossing Swords: a kick and an early end.
//!
//! The seed has no host removing a player; the rulings give the nearest thing, a death
//! (Ruling 30), and the host ending the game (Ruling 31). A kicked player is treated as one
//! who died between turns:
//! - he is out: not alive, owes no order, cannot be targeted (an order already sent against
//!   him passes at R0, `dead-target`), is not hit by Assail, and his Focus and Dodge
//!   carry-overs are cleared (Ruling 30);
//! - he keeps his VP and can still win (Ruling 30: "keeps his VP and can win");
//! - his HP counters leave the game. A dead player is at exactly 0 HP (R12), and nobody
//!   damaged him, so no one may take the counters (G5 moves a counter only to the damager);
//!   giving them to him as VP would reward the absence that got him kicked. So they go, as the
//!   Assail excess goes (Ruling 20), and the invariant of rulings §2.4 gains one term:
//!   Σ(HP+VP) after = before + healed + Mend VP − Assail excess − the HP of kicked players.
//!
//! If the kick leaves one player alive he converts his HP (G6) and the game ends; none is
//! impossible (a running game has two alive). Ending by the host is Ruling 31: no conversion,
//! the most VP wins, ties share (Ruling 32).

use serde::Deserialize;

use super::CrossingSwords;
use super::events::EndReason;
use super::events::Event;
use super::refusal::Refusal;
use super::resolve::winners;
use super::state::{End, State};
use crate::rules::{HostAct, Seat};

/// The host's decision when ending a game early: nothing to decide, the VP standings decide
/// (Ruling 31). The body has the shape every game's ending has (one document schema for the
/// route, which cannot tell the games apart), so a BST-style `result` or `winner` is read and
/// then refused by the rules (422 `invalid-ending`); any other field is malformed.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    /// `draw` in BST; refused here.
    pub result: Option<String>,
    /// A winner in BST; refused here.
    pub winner: Option<String>,
}

/// A substitute plays on at `seat` under `name`: the pools and carry-overs are the seat's.
pub fn rename(state: &State, seat: Seat, name: &str) -> State {
    let mut next = state.clone();
    if let Some(p) = next.players.get_mut(seat.0) {
        p.name = name.to_owned();
    }
    next
}

/// Removes the living player at `seat` as a death by the host's hand (module docs). While two
/// or more stay alive the game goes on and the kick's line waits in `host_log` for the turn's
/// resolution; otherwise the game ends here (R13) and every line is in the act's log.
pub fn kick(state: &State, seat: Seat) -> Result<HostAct<CrossingSwords>, Refusal> {
    if state.end.is_some() {
        return Err(Refusal::GameOver);
    }
    let fighter = state.fighter(seat).ok_or_else(|| Refusal::NotInPlay {
        name: format!("seat {}", seat.0),
    })?;
    if !fighter.alive {
        return Err(Refusal::NotInPlay {
            name: fighter.name.clone(),
        });
    }
    let mut next = state.clone();
    let p = &mut next.players[seat.0];
    let kicked = Event::Kicked {
        player: state.player_ref(seat),
        hp: p.hp,
        vp: p.vp,
    };
    p.hp = 0;
    p.alive = false;
    p.focus = None;
    p.dodge = None;
    next.host_log.push(kicked);
    let living: Vec<Seat> = next.living().collect();
    match living.as_slice() {
        [_, _, ..] => Ok(HostAct {
            state: next,
            log: Vec::new(),
        }),
        [one] => {
            let p = &mut next.players[one.0];
            let hp = p.hp;
            p.vp += hp;
            p.hp = 0;
            let converted = Event::Converted {
                player: next.player_ref(*one),
                hp,
            };
            next.host_log.push(converted);
            Ok(finish(next, EndReason::LastStanding))
        }
        [] => Ok(finish(next, EndReason::NoSurvivors)),
    }
}

/// Ruling 31: the host ends the game; no conversion, the most VP wins, ties share.
pub fn end_by_host(state: &State, ending: Ending) -> Result<HostAct<CrossingSwords>, Refusal> {
    if state.end.is_some() {
        return Err(Refusal::GameOver);
    }
    if ending.result.is_some() || ending.winner.is_some() {
        return Err(Refusal::InvalidEnding);
    }
    Ok(finish(state.clone(), EndReason::EndedByHost))
}

/// Every living player voted for a draw: no conversion, and the living players share the win
/// whatever their VP (the players' own agreement, over Ruling 32's standings).
pub fn end_by_draw_vote(state: &State) -> Result<HostAct<CrossingSwords>, Refusal> {
    if state.end.is_some() {
        return Err(Refusal::GameOver);
    }
    let mut next = state.clone();
    let winners: Vec<Seat> = next.living().collect();
    let mut log = std::mem::take(&mut next.host_log);
    log.push(Event::GameOver {
        reason: EndReason::DrawVote,
        winners: winners.iter().map(|&s| next.player_ref(s)).collect(),
    });
    next.end = Some(End {
        reason: EndReason::DrawVote,
        winners,
    });
    Ok(HostAct { state: next, log })
}

/// Ends the game for `reason` (G7, Ruling 32): the host's lines so far, then the game over.
fn finish(mut state: State, reason: EndReason) -> HostAct<CrossingSwords> {
    let winners = winners(&state);
    let mut log = std::mem::take(&mut state.host_log);
    log.push(Event::GameOver {
        reason,
        winners: winners.iter().map(|&s| state.player_ref(s)).collect(),
    });
    state.end = Some(End { reason, winners });
    HostAct { state, log }
}

#[cfg(test)]
mod tests {
    use rand_chacha::rand_core::SeedableRng;
    use uuid::Uuid;

    use super::super::{Join, Move, Order, Settings};
    use super::*;
    use crate::rules::{Entrant, Game, GameRng, PlayerId, Refusal as _};

    fn started(players: usize) -> State {
        let entrants: Vec<Entrant<Join>> = (0..players)
            .map(|i| Entrant {
                id: PlayerId(Uuid::from_u128(i as u128 + 1)),
                name: ["Ann", "Bob", "Cid", "Dan"][i].to_owned(),
                join: Join,
            })
            .collect();
        let settings = Settings::default();
        CrossingSwords::start(&settings, &entrants, &mut GameRng::seed_from_u64(1)).unwrap()
    }

    #[test]
    fn a_kicked_player_is_out_keeps_his_vp_and_his_hp_leaves_the_game_ruling_30() {
        let mut state = started(3);
        state.players[1].vp = 6;
        state.players[1].hp = 11;
        state.players[1].focus = Some(Seat(0));
        let act = kick(&state, Seat(1)).unwrap();
        assert!(
            act.log.is_empty(),
            "the game goes on: the line waits for the turn"
        );
        let bob = &act.state.players[1];
        assert_eq!((bob.alive, bob.hp, bob.vp, bob.focus), (false, 0, 6, None));
        assert_eq!(CrossingSwords::owes(&act.state), [Seat(0), Seat(2)]);
        assert_eq!(
            act.state.host_log,
            [Event::Kicked {
                player: state.player_ref(Seat(1)),
                hp: 11,
                vp: 6
            }]
        );
        let again = kick(&act.state, Seat(1)).unwrap_err();
        assert_eq!((again.code(), again.is_conflict()), ("not-in-play", true));
    }

    #[test]
    fn the_kick_leads_the_turns_log_and_an_order_against_the_kicked_passes_r0() {
        let state = started(3);
        let act = kick(&state, Seat(2)).unwrap();
        let orders = [
            (
                Seat(0),
                Order {
                    mv: Move::Strike,
                    target: state.players[2].id,
                },
            ),
            (
                Seat(1),
                Order {
                    mv: Move::Strike,
                    target: state.players[0].id,
                },
            ),
        ];
        let res = CrossingSwords::resolve(&act.state, &orders, &mut GameRng::seed_from_u64(1));
        assert!(
            matches!(res.events[0], Event::Kicked { .. }),
            "{:?}",
            res.events
        );
        assert!(res.events.iter().any(|e| matches!(
            e,
            Event::Passed {
                reason: super::super::PassReason::DeadTarget,
                ..
            }
        )));
        assert!(res.state.host_log.is_empty());
        assert_eq!(res.state.players[0].hp, 17);
    }

    #[test]
    fn a_kick_that_leaves_one_standing_ends_the_game_with_his_conversion_ruling_31() {
        let mut state = started(2);
        state.players[0].vp = 9;
        state.players[1].hp = 4;
        state.players[1].vp = 3;
        let act = kick(&state, Seat(0)).unwrap();
        let outcome = CrossingSwords::outcome(&act.state).unwrap();
        assert_eq!(outcome.reason, EndReason::LastStanding);
        // Bob converts his 4 HP (G6): 7 VP against the kicked Ann's 9, who keeps hers and wins.
        assert_eq!(act.state.players[1].vp, 7);
        assert_eq!(outcome.winners, [state.players[0].id]);
        assert!(matches!(
            act.log[..],
            [
                Event::Kicked { .. },
                Event::Converted { hp: 4, .. },
                Event::GameOver { .. }
            ]
        ));
        assert!(CrossingSwords::owes(&act.state).is_empty());
        assert_eq!(kick(&act.state, Seat(1)).unwrap_err(), Refusal::GameOver);
    }

    #[test]
    fn the_host_ends_without_conversion_and_ties_share_ruling_31_and_32() {
        let mut state = started(3);
        state.players[0].vp = 5;
        state.players[2].vp = 5;
        let act = end_by_host(&state, Ending::default()).unwrap();
        let outcome = CrossingSwords::outcome(&act.state).unwrap();
        assert_eq!(outcome.reason, EndReason::EndedByHost);
        assert_eq!(outcome.winners, [state.players[0].id, state.players[2].id]);
        assert_eq!(act.state.players[1].hp, 20, "no conversion");
        assert_eq!(
            end_by_host(&act.state, Ending::default()).unwrap_err(),
            Refusal::GameOver
        );
        let chosen: Ending = serde_json::from_str(r#"{"winner": "x"}"#).unwrap();
        assert_eq!(
            end_by_host(&state, chosen).unwrap_err(),
            Refusal::InvalidEnding
        );
        assert!(serde_json::from_str::<Ending>(r#"{"loser": "x"}"#).is_err());
    }

    #[test]
    fn an_earlier_kick_is_logged_when_the_host_ends_the_game() {
        let state = started(3);
        let kicked = kick(&state, Seat(0)).unwrap().state;
        let act = end_by_host(&kicked, Ending::default()).unwrap();
        assert!(matches!(
            act.log[..],
            [Event::Kicked { .. }, Event::GameOver { .. }]
        ));
        assert!(act.state.host_log.is_empty());
    }

    #[test]
    fn a_substitute_plays_on_under_his_own_name() {
        let state = started(2);
        let next = rename(&state, Seat(1), "Zed");
        assert_eq!(next.players[1].name, "Zed");
        assert_eq!(next.players[1].id, state.players[1].id);
        assert_eq!(
            CrossingSwords::prompt(&next, Seat(0)).unwrap().players[1].name,
            "Zed"
        );
    }
}
