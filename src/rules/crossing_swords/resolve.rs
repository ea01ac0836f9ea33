//! One turn, R0-R13 in the fixed order of rulings §2.2 (Ruling 4: everything is simultaneous;
//! the only sequencing is the step order).

use super::counters::settle;
use super::damage::{Hit, Source, ledger_attacks};
use super::events::EndReason;
use super::events::{Event, MendAmount};
use super::moves::{Move, Order};
use super::rulebook::Tiebreak;
use super::state::{End, State};
use super::turn::{Play, Turn};
use crate::rules::{ROUND_LIMIT, Seat};

/// The result of one turn: the next state, the orders revealed in seat order, the log.
pub struct Resolved {
    /// The state after R13.
    pub state: State,
    /// Every valid order, in seat order (G4: "he reveals all of the moves and targets").
    pub revealed: Vec<(Seat, Order)>,
    /// What happened, step by step.
    pub events: Vec<Event>,
}

/// Resolves one turn. The `orders` are indexed by seat, so their order does not matter. A game
/// already over is returned unchanged.
pub fn resolve(state: &State, orders: &[(Seat, Order)]) -> Resolved {
    if state.end.is_some() {
        return Resolved {
            state: state.clone(),
            revealed: Vec::new(),
            events: Vec::new(),
        };
    }
    let turn = Turn::new(state, orders);
    let who = |s: Seat| state.player_ref(s);
    // What the host did since the orders fell due leads the turn's log.
    let mut events = state.host_log.clone();
    let revealed: Vec<(Seat, Order)> = turn
        .seats()
        .filter_map(|s| {
            turn.card(s).map(|(mv, t)| {
                let order = Order {
                    mv,
                    target: state.players[t.0].id,
                };
                (s, order)
            })
        })
        .collect();

    // R0: passes, and the fixed moves of `missing_move` (Ruling 2, §3.2).
    for s in turn.seats() {
        match turn.plays[s.0] {
            Play::Pass(reason) => events.push(Event::Passed {
                player: who(s),
                reason,
            }),
            Play::Default { mv } => events.push(Event::Defaulted { player: who(s), mv }),
            Play::Out | Play::Card { .. } => {}
        }
    }

    // R2: the fate of every Halt, then the Actions it negates.
    for s in turn.seats() {
        if let (Some(fate), Some(t)) = (turn.graph.fates[s.0], turn.halts[s.0]) {
            events.push(Event::HaltResolved {
                halter: who(s),
                target: who(t),
                fate,
                target_move: turn.card(t).map(|(mv, _)| mv),
            });
        }
    }
    for s in turn.seats() {
        let by = turn.negated_by(s);
        if let (false, Some((mv, _))) = (by.is_empty(), turn.card(s)) {
            events.push(Event::ActionNegated {
                player: who(s),
                mv,
                by: by.into_iter().map(who).collect(),
            });
        }
    }

    // R3: Halt damage, 3 from each effective Halt on an Action player (Ruling 9).
    let mut ledger: Vec<Hit> = Vec::new();
    for y in turn.seats() {
        for x in turn.negated_by(y) {
            ledger.push(Hit {
                from: x,
                to: y,
                amount: 3,
                source: Source::Halt,
            });
            events.push(Event::HaltDamage {
                halter: who(x),
                target: who(y),
                damage: 3,
            });
        }
    }

    // R4: heals, before damage (Rulings 27-28), never above 20 with `heal_cap` (Ruling 28).
    let mut hp: Vec<u32> = state.players.iter().map(|p| p.hp).collect();
    let mut vp: Vec<u32> = state.players.iter().map(|p| p.vp).collect();
    for m in turn.seats() {
        if let Some((Move::Mend, x)) = turn.active(m) {
            let amount = match state.players[m.0].focus {
                Some(_) => MendAmount::Focused,
                None => MendAmount::Plain,
            };
            let heal = match amount {
                MendAmount::Focused => 7,
                MendAmount::Plain => 3,
            };
            let healed = state.rules.heal_cap.heal(hp[x.0], heal) - hp[x.0];
            hp[x.0] += healed;
            vp[m.0] += 1;
            events.push(Event::Mended {
                mender: who(m),
                target: who(x),
                amount,
                hp: healed,
                vp: 1,
                capped: healed < heal,
            });
        }
    }

    // R5-R7: Attack cards, counters, Lunge drawbacks.
    ledger_attacks(&turn, &mut ledger, &mut events);

    // R8-R10: move counters, Assail cap, Taunt steals.
    settle(&turn, &ledger, &mut hp, &mut vp, &mut events);

    // R11: carry-overs for next turn; R12: deaths.
    let mut next = state.clone();
    next.host_log.clear();
    for s in turn.seats() {
        let p = &mut next.players[s.0];
        p.hp = hp[s.0];
        p.vp = vp[s.0];
        if !p.alive {
            continue;
        }
        p.focus = match turn.active(s) {
            Some((Move::Focus, t)) => Some(t),
            Some(_) | None => None,
        };
        p.dodge = match turn.defense(s) {
            Some((Move::Dodge, t)) => Some(t),
            Some(_) | None => None,
        };
        if p.hp == 0 {
            p.alive = false;
            p.focus = None;
            p.dodge = None;
            events.push(Event::Died { player: who(s) });
        }
    }

    // R13: end check and scoring.
    let living: Vec<Seat> = next.living().collect();
    let reason = match living.as_slice() {
        [] => Some(EndReason::NoSurvivors),
        [one] => {
            let p = &mut next.players[one.0];
            events.push(Event::Converted {
                player: who(*one),
                hp: p.hp,
            });
            p.vp += p.hp;
            p.hp = 0;
            Some(EndReason::LastStanding)
        }
        // Ruling 31's stall guard, and the same end after ROUND_LIMIT when the host set none.
        [_, _, ..] if next.round >= next.max_rounds.unwrap_or(ROUND_LIMIT) => {
            // Ruling 31: no conversion at the cap, unless `convert_at_cap` (§3.2).
            if next.rules.convert_at_cap {
                for &s in &living {
                    let p = &mut next.players[s.0];
                    events.push(Event::ConvertedAtCap {
                        player: who(s),
                        hp: p.hp,
                    });
                    p.vp += p.hp;
                    p.hp = 0;
                }
            }
            Some(EndReason::RoundCap)
        }
        [_, _, ..] => None,
    };
    match reason {
        Some(reason) => {
            let winners = winners(&next);
            events.push(Event::GameOver {
                reason,
                winners: winners.iter().map(|&s| who(s)).collect(),
            });
            next.end = Some(End { reason, winners });
        }
        None => next.round += 1,
    }
    Resolved {
        state: next,
        revealed,
        events,
    }
}

/// G7, Ruling 32: every player, dead or alive, with the most VP; ties share the win. With
/// `tiebreak = survivor_first` (§3.2) the living among them win, if any is alive.
pub fn winners(state: &State) -> Vec<Seat> {
    let best = state.players.iter().map(|p| p.vp).max().unwrap_or(0);
    let tied: Vec<Seat> = (0..state.players.len())
        .map(Seat)
        .filter(|s| state.players[s.0].vp == best)
        .collect();
    let alive: Vec<Seat> = tied
        .iter()
        .copied()
        .filter(|s| state.players[s.0].alive)
        .collect();
    match state.rules.tiebreak {
        Tiebreak::SurvivorFirst if !alive.is_empty() => alive,
        Tiebreak::SurvivorFirst | Tiebreak::Share => tied,
    }
}

/// Whether `a` ranks above `b` in the standings: more VP, or (`survivor_first`, Ruling 32)
/// the same VP and alive while `b` is dead.
pub fn ranks_above(state: &State, a: Seat, b: Seat) -> bool {
    let (pa, pb) = (&state.players[a.0], &state.players[b.0]);
    pa.vp > pb.vp
        || (state.rules.tiebreak == Tiebreak::SurvivorFirst
            && pa.vp == pb.vp
            && pa.alive
            && !pb.alive)
}
