//! One turn, R0-R13 in the fixed order of rulings §2.2 (Ruling 4: everything is simultaneous;
//! the only sequencing is the step order).

use super::counters::{assail_cap, split, taunt_share};
use super::damage::{Hit, Source, card_damage, counter_hit, lunge_bonus, victims};
use super::events::{Event, MendAmount, Share};
use super::moves::{Attack, Move, Order};
use super::state::{End, EndReason, State};
use super::turn::{Play, Turn};
use crate::rules::Seat;

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
    let mut events = Vec::new();
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

    // R0: passes.
    for s in turn.seats() {
        match turn.plays[s.0] {
            Play::Pass(reason) => events.push(Event::Passed {
                player: who(s),
                reason,
            }),
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

    // R4: heals, before damage (Rulings 27-28).
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
            hp[x.0] += heal;
            vp[m.0] += 1;
            events.push(Event::Mended {
                mender: who(m),
                target: who(x),
                amount,
                hp: heal,
                vp: 1,
            });
        }
    }

    // R5: Attack-card damage, with its arithmetic.
    for x in turn.seats() {
        let Some((attack, t)) = turn.attack(x) else {
            continue;
        };
        for v in victims(&turn, x, attack, t) {
            let (amount, steps) = card_damage(&turn, x, attack, t, v);
            ledger.push(Hit {
                from: x,
                to: v,
                amount,
                source: Source::Card(attack),
            });
            events.push(Event::CardDamage {
                attacker: who(x),
                victim: who(v),
                card: attack.as_move(),
                base: attack.base(),
                steps,
                damage: amount,
            });
        }
    }

    // R6: Block reflections and Riposte counters (fixed).
    for v in turn.seats() {
        if let Some(hit) = counter_hit(&turn, v) {
            ledger.push(hit);
            events.push(match hit.source {
                Source::Reflection => Event::BlockReflection {
                    blocker: who(hit.from),
                    attacker: who(hit.to),
                    damage: hit.amount,
                },
                Source::Counter | Source::Halt | Source::Card(_) | Source::LungeBonus => {
                    Event::RiposteCounter {
                        riposter: who(hit.from),
                        attacker: who(hit.to),
                        damage: hit.amount,
                    }
                }
            });
        }
    }

    // R7: Lunge drawbacks, tested on R3-R6 damage only (bonuses never trigger bonuses).
    let bonuses: Vec<(u32, Hit)> = turn
        .seats()
        .filter_map(|x| lunge_bonus(&turn, &ledger, x))
        .collect();
    for (trigger, hit) in bonuses {
        ledger.push(hit);
        events.push(Event::LungeBonus {
            target: who(hit.from),
            lunger: who(hit.to),
            trigger,
            focused: hit.amount == 9,
            damage: hit.amount,
        });
    }

    // R8: move counters, split on overkill (G5, Ruling 29).
    let n = state.players.len();
    let mut assail_counters = vec![0u32; n];
    let mut other_counters = vec![0u32; n];
    for v in turn.seats() {
        let hits: Vec<&Hit> = ledger.iter().filter(|h| h.to == v).collect();
        let damages: Vec<(Seat, u32)> = turn
            .seats()
            .map(|j| {
                (
                    j,
                    hits.iter().filter(|h| h.from == j).map(|h| h.amount).sum(),
                )
            })
            .filter(|(_, d)| *d > 0)
            .collect();
        let total: u32 = damages.iter().map(|(_, d)| d).sum();
        if total == 0 {
            continue;
        }
        let hv = hp[v.0];
        let shares = split(hv, &damages);
        let overkill = total > hv;
        hp[v.0] -= total.min(hv);
        let mut log = Vec::new();
        for (&(j, damage), &counters) in damages.iter().zip(&shares) {
            // Card damage first, then the Lunge bonus (R8): only Assail counters are capped.
            let assail: u32 = hits
                .iter()
                .filter(|h| h.from == j && h.source == Source::Card(Attack::Assail))
                .map(|h| h.amount)
                .sum();
            let to_assail = counters.min(assail);
            assail_counters[j.0] += to_assail;
            other_counters[j.0] += counters - to_assail;
            log.push(Share {
                damager: who(j),
                damage,
                counters,
            });
        }
        events.push(Event::CountersMoved {
            victim: who(v),
            hp: hv,
            damage: total,
            overkill,
            shares: log,
        });
    }

    // R9: the Assail cap, then VP credit (Ruling 20).
    for x in turn.seats() {
        let (credited, discarded) = assail_cap(assail_counters[x.0]);
        vp[x.0] += credited + other_counters[x.0];
        if discarded > 0 {
            events.push(Event::AssailCapped {
                assailer: who(x),
                counters: assail_counters[x.0],
                credited,
                discarded,
            });
        }
    }

    // R10: Taunt steals from the start-of-turn snapshot (R1, Rulings 24-25).
    for y in turn.seats() {
        let taunters: Vec<Seat> = turn
            .seats()
            .filter(|&s| turn.active(s) == Some((Move::Taunt, y)))
            .collect();
        if taunters.is_empty() {
            continue;
        }
        let pool = state.players[y.0].vp;
        let stolen = taunt_share(pool, taunters.len());
        for &t in &taunters {
            vp[t.0] += stolen;
            vp[y.0] -= stolen;
            events.push(Event::TauntSteal {
                taunter: who(t),
                target: who(y),
                pool,
                taunters: u32::try_from(taunters.len()).unwrap_or(u32::MAX),
                stolen,
            });
        }
    }

    // R11: carry-overs for next turn; R12: deaths.
    let mut next = state.clone();
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
        [_, _, ..] if next.max_rounds == Some(next.round) => Some(EndReason::RoundCap),
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

/// G7, Ruling 32: every player, dead or alive, with the most VP; ties share the win.
pub fn winners(state: &State) -> Vec<Seat> {
    let best = state.players.iter().map(|p| p.vp).max().unwrap_or(0);
    (0..state.players.len())
        .map(Seat)
        .filter(|s| state.players[s.0].vp == best)
        .collect()
}
