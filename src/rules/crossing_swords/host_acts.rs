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

use super::events::Event;
use super::refusal::Refusal;
use super::resolve::winners;
use super::state::{End, EndReason, State};
use super::CrossingSwords;
use crate::rules::{HostAct, Seat};

/// The host's decision when ending a game early: nothing to decide, the VP standings decide
/// (Ruling 31). Any field is refused.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ending {}

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
pub fn end_by_host(state: &State, _ending: Ending) -> Result<HostAct<CrossingSwords>, Refusal> {
    if state.end.is_some() {
        return Err(Refusal::GameOver);
    }
    Ok(finish(state.clone(), EndReason::EndedByHost))
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
