//! R3, R5-R7: the damage ledger (Halt damage, Attack cards, Block and Riposte counters, Lunge
//! drawback). Every amount is ledgered first and applied together in R8 (Ruling 4).

use super::arithmetic::{Reduction, Step, ZeroReason};
use super::events::Event;
use super::moves::{Attack, Move};
use super::rulebook::FocusAssail;
use super::turn::Turn;
use crate::rules::Seat;

/// Where a ledgered damage comes from. Only [`Source::Card`] damage is ever modified (Ruling 9).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// An effective Halt on an Action player: fixed 3 (R3).
    Halt,
    /// An Attack card, after R5's modifiers.
    Card(Attack),
    /// Block reflection: fixed 2 (R6, Ruling 22).
    Reflection,
    /// Riposte counter: fixed 3 (R6, Ruling 23).
    Counter,
    /// Lunge drawback: fixed 3, or 9 after the Lunger's Focus on the target (R7, Rulings 13-16).
    LungeBonus,
}

/// One ledgered damage from one player to another.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Who deals it (and receives the counters, G5).
    pub from: Seat,
    /// Who takes it.
    pub to: Seat,
    /// How much (may be 0 for an Attack card, kept for the log).
    pub amount: u32,
    /// What dealt it.
    pub source: Source,
}

/// Computes one Attack card's damage to one victim, with its arithmetic (R5).
///
/// Variants (§3.2): `focus_assail = any` doubles the Focus target's share of any Assail that
/// hits him (Ruling 10); `taunt_before_focus` adds Taunt's +1 before the ×2+1 (Ruling 11);
/// `assail_targets_all` lets every Assail victim's Riposte zero his share (Ruling 19), while
/// the declared target keeps Ruling 18.
pub fn card_damage(turn: &Turn<'_>, x: Seat, attack: Attack, t: Seat, v: Seat) -> (u32, Vec<Step>) {
    let rules = &turn.state.rules;
    let mut steps = Vec::new();
    let mut d = i64::from(attack.base());
    let focus = turn.state.players[x.0].focus;
    let focused = match rules.focus_assail {
        FocusAssail::Declared => focus == Some(t) && v == t,
        FocusAssail::Any => focus == Some(v),
    };
    let taunting = turn.taunting(v);
    let taunt = |d: &mut i64, steps: &mut Vec<Step>| {
        if taunting {
            *d += 1;
            steps.push(Step::Taunting { result: *d });
        }
    };
    if rules.taunt_before_focus {
        taunt(&mut d, &mut steps);
    }
    if focused {
        d = 2 * d + 1;
        steps.push(Step::Focused { result: d });
    }
    if !rules.taunt_before_focus {
        taunt(&mut d, &mut steps);
    }
    let defense = turn.defense(v);
    let zero = match defense {
        Some((Move::Dodge, dt)) if dt == x => Some(ZeroReason::Dodged),
        Some((Move::Riposte, rt)) if rt == x && turn.targets(x, v) => Some(ZeroReason::Riposted),
        Some(_) | None => None,
    };
    let mut reductions = Vec::new();
    match defense {
        Some((Move::Dodge, dt)) if dt != x => reductions.push(Reduction::Dodge),
        Some((Move::Block, _)) => reductions.push(Reduction::Block),
        Some(_) | None => {}
    }
    if turn.state.players[v.0].dodge == Some(x) {
        reductions.push(Reduction::DodgeCarryOver);
    }
    if attack == Attack::Assail && v == t {
        if zero.is_some() || !reductions.is_empty() {
            steps.push(Step::DefenseIgnored {
                ignored: reductions,
                zero,
            });
        }
        return (u32::try_from(d).unwrap_or(0), steps);
    }
    if let Some(reason) = zero {
        steps.push(Step::Zeroed { reason });
        return (0, steps);
    }
    for by in reductions {
        d -= i64::from(by.amount());
        steps.push(Step::Reduced { by, result: d });
    }
    if d < 0 {
        steps.push(Step::Floored);
        d = 0;
    }
    (u32::try_from(d).unwrap_or(0), steps)
}

/// The victims of an Attack card: its declared target, or for Assail every living player
/// but the Assailer (AS, Ruling 17; `assail_self` adds him, §3.2), in seat order.
pub fn victims(turn: &Turn<'_>, x: Seat, attack: Attack, t: Seat) -> Vec<Seat> {
    turn.seats()
        .filter(|&v| turn.state.is_victim(x, attack, t, v))
        .collect()
}

/// R6: the fixed counter damage a Block (2) or Riposte (3) deals its target when the target
/// played an Attack card declared at the defender, even one that dealt 0 (Rulings 22, 23);
/// with `assail_targets_all`, an Assail that hits the defender counts too (Ruling 19, §3.2).
pub fn counter_hit(turn: &Turn<'_>, v: Seat) -> Option<Hit> {
    let (mv, x) = turn.defense(v)?;
    if x == v || !turn.targets(x, v) {
        return None;
    }
    let (amount, source) = match mv {
        Move::Block => (2, Source::Reflection),
        Move::Riposte => (3, Source::Counter),
        Move::Dodge
        | Move::Strike
        | Move::Lunge
        | Move::Assail
        | Move::Taunt
        | Move::Focus
        | Move::Mend
        | Move::Halt => return None,
    };
    Some(Hit {
        from: v,
        to: x,
        amount,
        source,
    })
}

/// R7: if the Lunge's target has dealt the Lunger more than 0 so far this turn (R3, R5, R6),
/// he deals a fixed 3 more, or 9 if the Lunger had Focused on him (Rulings 13-16). Returns
/// the damage that triggered it and the bonus. A self-Lunge (`self_attacks`, §3.2) that
/// damages its own Lunger triggers its own bonus: the test is the same ledger sum.
pub fn lunge_bonus(turn: &Turn<'_>, ledger: &[Hit], x: Seat) -> Option<(u32, Hit)> {
    let (attack, t) = turn.attack(x)?;
    if attack != Attack::Lunge {
        return None;
    }
    let dealt: u32 = ledger
        .iter()
        .filter(|h| h.from == t && h.to == x)
        .map(|h| h.amount)
        .sum();
    if dealt == 0 {
        return None;
    }
    let focused = turn.state.players[x.0].focus == Some(t);
    let amount = if focused { 9 } else { 3 };
    Some((
        dealt,
        Hit {
            from: t,
            to: x,
            amount,
            source: Source::LungeBonus,
        },
    ))
}

/// R5-R7 in order: every Attack card's damage to each victim with its arithmetic, then Block
/// reflections and Riposte counters, then Lunge drawbacks tested on everything ledgered so far
/// except other bonuses (Ruling 15). Appends to the ledger and the log.
pub fn ledger_attacks(turn: &Turn<'_>, ledger: &mut Vec<Hit>, events: &mut Vec<Event>) {
    let who = |s: Seat| turn.state.player_ref(s);
    // R5: Attack-card damage, with its arithmetic.
    for x in turn.seats() {
        let Some((attack, t)) = turn.attack(x) else {
            continue;
        };
        for v in victims(turn, x, attack, t) {
            let (amount, steps) = card_damage(turn, x, attack, t, v);
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
        if let Some(hit) = counter_hit(turn, v) {
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
        .filter_map(|x| lunge_bonus(turn, ledger, x))
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
}
