//! The one line of text each log event reads as (its `Display`): names, not ids, and the
//! arithmetic spelled out, e.g. "Ann's Strike on Bob: 3, Focused ×2+1 = 7, Block −2 = 5 damage".

use std::fmt;

use super::arithmetic::{Step, ZeroReason};
use super::events::{EndReason, PassReason, PlayerRef};
use super::events::{Event, MendAmount};
use super::halt::HaltFate;
use super::moves::Category;

fn names(players: &[PlayerRef]) -> String {
    match players {
        [] => "nobody".to_owned(),
        [one] => one.name.clone(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(|p| p.name.as_str()).collect();
            format!("{} and {}", init.join(", "), last.name)
        }
    }
}

fn signed(v: i64) -> String {
    if v < 0 {
        format!("−{}", -v)
    } else {
        v.to_string()
    }
}

fn zero_label(reason: ZeroReason) -> &'static str {
    match reason {
        ZeroReason::Dodged => "Dodge",
        ZeroReason::Riposted => "Riposte",
    }
}

fn write_step(f: &mut fmt::Formatter<'_>, step: &Step, victim: &PlayerRef) -> fmt::Result {
    match step {
        Step::Focused { result } => write!(f, ", Focused ×2+1 = {}", signed(*result)),
        Step::Taunting { result } => write!(f, ", Taunting +1 = {}", signed(*result)),
        Step::DefenseIgnored { ignored, zero } => {
            let mut labels: Vec<&str> = zero.iter().map(|z| zero_label(*z)).collect();
            labels.extend(ignored.iter().map(|r| r.label()));
            write!(
                f,
                ", {victim}'s Defense cannot reduce Assail ({} ignored)",
                labels.join(", ")
            )
        }
        Step::Zeroed { reason } => write!(f, ", {} = 0", zero_label(*reason)),
        Step::Reduced { by, result } => {
            write!(f, ", {} −{} = {}", by.label(), by.amount(), signed(*result))
        }
        Step::Floored => write!(f, ", floored at 0"),
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Passed { player, reason } => {
                let why = match reason {
                    PassReason::NoOrder => "no order",
                    PassReason::ConflictingOrders => "conflicting orders",
                    PassReason::UnknownTarget => "unknown target",
                    PassReason::DeadTarget => "dead target",
                    PassReason::SelfTarget => "may not target himself",
                };
                write!(f, "{player} passes ({why})")
            }
            Event::Defaulted { player, mv } => write!(
                f,
                "{player} sent no order and plays {} on himself (missing_move)",
                mv.title()
            ),
            Event::HaltResolved {
                halter,
                target,
                fate,
                target_move,
            } => {
                let what = match (fate, target_move.map(|m| (m, m.category()))) {
                    (HaltFate::VoidMutual, _) => "is void: they Halted each other".to_owned(),
                    (HaltFate::VoidCycle, _) => "is void: an unbroken Halt cycle".to_owned(),
                    (HaltFate::CycleFired, _) => {
                        "fires: an unbroken Halt cycle, and every Halt in it fires".to_owned()
                    }
                    (HaltFate::Negated, _) => "is negated by a Halt on the Halter".to_owned(),
                    (HaltFate::Effective, Some((m, Category::Action))) => {
                        format!("takes effect against {target}'s {}", m.title())
                    }
                    (HaltFate::Effective, Some((m, Category::Attack | Category::Defense))) => {
                        format!("does nothing: {target} played {}, not an Action", m.title())
                    }
                    (HaltFate::Effective, None) => {
                        format!("does nothing: {target} passed")
                    }
                };
                write!(f, "{halter}'s Halt on {target} {what}")
            }
            Event::ActionNegated { player, mv, by } => write!(
                f,
                "{player}'s {} is negated by {}'s Halt",
                mv.title(),
                names(by)
            ),
            Event::HaltDamage {
                halter,
                target,
                damage,
            } => write!(f, "{halter}'s Halt deals {damage} damage to {target}"),
            Event::Mended {
                mender,
                target,
                amount,
                hp,
                vp,
                capped,
            } => {
                let why = match amount {
                    MendAmount::Plain => "",
                    MendAmount::Focused => " (Focused last turn)",
                };
                let cap = if *capped { ", capped at 20" } else { "" };
                write!(
                    f,
                    "{mender}'s Mend heals {target} {hp} HP{why}{cap}; {mender} gains {vp} VP"
                )
            }
            Event::CardDamage {
                attacker,
                victim,
                card,
                base,
                steps,
                damage,
            } => {
                write!(f, "{attacker}'s {} on {victim}: {base}", card.title())?;
                for step in steps {
                    write_step(f, step, victim)?;
                }
                match steps.last() {
                    Some(Step::Floored | Step::DefenseIgnored { .. }) => {
                        write!(f, " = {damage} damage")
                    }
                    Some(Step::Focused { .. } | Step::Taunting { .. })
                    | Some(Step::Zeroed { .. } | Step::Reduced { .. })
                    | None => write!(f, " damage"),
                }
            }
            Event::BlockReflection {
                blocker,
                attacker,
                damage,
            } => write!(
                f,
                "{blocker}'s Block reflects {damage} damage to {attacker}"
            ),
            Event::RiposteCounter {
                riposter,
                attacker,
                damage,
            } => write!(
                f,
                "{riposter}'s Riposte deals {damage} damage to {attacker}"
            ),
            Event::LungeBonus {
                target,
                lunger,
                trigger,
                focused,
                damage,
            } => {
                let more = if *focused {
                    format!(" plus 6 MORE ({lunger} was Focused on {target})")
                } else {
                    String::new()
                };
                write!(
                    f,
                    "{target} damaged the Lunging {lunger} ({trigger}): 3 additional damage{more} = {damage} damage to {lunger}"
                )
            }
            Event::CountersMoved {
                victim,
                hp,
                damage,
                overkill,
                full_credit,
                shares,
            } => {
                let parts: Vec<String> = shares
                    .iter()
                    .map(|s| {
                        if *overkill {
                            format!("{} {} of {}", s.damager, s.counters, s.damage)
                        } else {
                            format!("{} {}", s.damager, s.counters)
                        }
                    })
                    .collect();
                if *overkill && *full_credit {
                    write!(
                        f,
                        "{victim} takes {damage} damage with only {hp} HP: overkill, full credit from the supply: {}",
                        parts.join(", ")
                    )
                } else if *overkill {
                    write!(
                        f,
                        "{victim} takes {damage} damage with only {hp} HP: overkill, counters split {}",
                        parts.join(", ")
                    )
                } else {
                    write!(
                        f,
                        "{victim} loses {damage} HP, counters to {}",
                        parts.join(", ")
                    )
                }
            }
            Event::AssailCapped {
                assailer,
                counters,
                credited,
                discarded,
            } => write!(
                f,
                "{assailer}'s Assail won {counters} counters: {credited} VP kept, {discarded} leave the game"
            ),
            Event::AssailReturned {
                assailer,
                counters,
                credited,
                returned,
            } => {
                let parts: Vec<String> = returned
                    .iter()
                    .map(|r| format!("{} {}", r.victim, r.counters))
                    .collect();
                write!(
                    f,
                    "{assailer}'s Assail won {counters} counters: {credited} VP kept, the rest go back: {}",
                    parts.join(", ")
                )
            }
            Event::TauntSteal {
                taunter,
                target,
                pool,
                taunters,
                stolen,
            } => write!(
                f,
                "{taunter}'s Taunt steals {stolen} VP from {target} ({pool} VP at the start of the turn, {taunters} Taunter(s))"
            ),
            Event::Died { player } => write!(f, "{player} dies"),
            Event::Kicked { player, hp, vp } => write!(
                f,
                "The host removes {player} from the game: {hp} HP counters leave the game; {player} keeps {vp} VP"
            ),
            Event::Converted { player, hp } => write!(
                f,
                "{player} is the last one standing and moves {hp} HP to VP"
            ),
            Event::ConvertedAtCap { player, hp } => write!(
                f,
                "{player} survives the last round and moves {hp} HP to VP"
            ),
            Event::GameOver { reason, winners } => {
                let why = match reason {
                    EndReason::LastStanding => "one player left",
                    EndReason::NoSurvivors => "nobody left",
                    EndReason::RoundCap => "the last round was played",
                    EndReason::EndedByHost => "the host ended the game",
                    EndReason::DrawVote => "every player left voted for a draw",
                };
                let verb = if winners.len() > 1 {
                    "share the win"
                } else {
                    "wins"
                };
                write!(f, "Game over ({why}): {} {verb}", names(winners))
            }
        }
    }
}
