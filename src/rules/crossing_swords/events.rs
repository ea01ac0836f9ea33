//! The turn log: one typed event per thing that happened, each with a line a person can follow.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::damage::{Step, ZeroReason};
use super::halt::HaltFate;
use super::moves::Move;
use super::state::{EndReason, PlayerRef};
use super::turn::PassReason;
use crate::rules;

/// How much a Mend healed (M, Ruling 28).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MendAmount {
    /// 3 HP: the Mender had no un-negated Focus last turn.
    Plain,
    /// 7 HP: the Mender Focused last turn, on anyone (Ruling 12).
    Focused,
}

/// One damager's part of a victim's counters (R8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Share {
    /// Who dealt the damage.
    pub damager: PlayerRef,
    /// His total ledgered damage to this victim.
    pub damage: u32,
    /// The counters he receives (less than `damage` only on overkill, Ruling 29).
    pub counters: u32,
}

/// One entry of a turn's log. Serialized with a `kind` tag; every audience is Everyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Event {
    /// R0, Ruling 2: a living player without a valid order passes.
    Passed {
        player: PlayerRef,
        reason: PassReason,
    },
    /// R2: what became of a Halt.
    HaltResolved {
        halter: PlayerRef,
        target: PlayerRef,
        fate: HaltFate,
    },
    /// R2.4, Ruling 8: an Action lost its whole effect to effective Halts.
    ActionNegated {
        player: PlayerRef,
        #[serde(rename = "move")]
        mv: Move,
        by: Vec<PlayerRef>,
    },
    /// R3: an effective Halt deals a fixed 3 to its Action-playing target.
    HaltDamage {
        halter: PlayerRef,
        target: PlayerRef,
        damage: u32,
    },
    /// R4: a Mend heals its target and gives the Mender 1 VP (Rulings 27-28).
    Mended {
        mender: PlayerRef,
        target: PlayerRef,
        amount: MendAmount,
        hp: u32,
        vp: u32,
    },
    /// R5: one Attack card's damage to one victim, with its arithmetic (Ruling 11).
    CardDamage {
        attacker: PlayerRef,
        victim: PlayerRef,
        card: Move,
        base: u32,
        steps: Vec<Step>,
        damage: u32,
    },
    /// R6: a Block reflects a fixed 2 to its target (Ruling 22).
    BlockReflection {
        blocker: PlayerRef,
        attacker: PlayerRef,
        damage: u32,
    },
    /// R6: a Riposte counters its target for a fixed 3 (Ruling 23).
    RiposteCounter {
        riposter: PlayerRef,
        attacker: PlayerRef,
        damage: u32,
    },
    /// R7: the Lunge target damaged the Lunger, so he deals 3 (or 9) more (Rulings 13-16).
    LungeBonus {
        target: PlayerRef,
        lunger: PlayerRef,
        trigger: u32,
        focused: bool,
        damage: u32,
    },
    /// R8: a victim's counters move to his damagers (G5; split on overkill, Ruling 29).
    CountersMoved {
        victim: PlayerRef,
        hp: u32,
        damage: u32,
        overkill: bool,
        shares: Vec<Share>,
    },
    /// R9: an Assailer won more than 8 counters; the excess leaves the game (Ruling 20).
    AssailCapped {
        assailer: PlayerRef,
        counters: u32,
        credited: u32,
        discarded: u32,
    },
    /// R10: an active Taunt steals from the target's start-of-turn VP (Rulings 24-25).
    TauntSteal {
        taunter: PlayerRef,
        target: PlayerRef,
        pool: u32,
        taunters: u32,
        stolen: u32,
    },
    /// R12: a player at 0 HP is out (Ruling 30).
    Died { player: PlayerRef },
    /// R13, G6: the last player standing moves all his HP to VP.
    Converted { player: PlayerRef, hp: u32 },
    /// R13: the game is over; the most VP wins, ties share (G7, Rulings 31-32).
    GameOver {
        reason: EndReason,
        winners: Vec<PlayerRef>,
    },
}

impl rules::Event for Event {}

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
            Event::HaltResolved {
                halter,
                target,
                fate,
            } => {
                let what = match fate {
                    HaltFate::VoidMutual => "is void: they Halted each other",
                    HaltFate::VoidCycle => "is void: an unbroken Halt cycle",
                    HaltFate::Negated => "is negated by a Halt on the Halter",
                    HaltFate::Effective => "takes effect",
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
            } => {
                let why = match amount {
                    MendAmount::Plain => "",
                    MendAmount::Focused => " (Focused last turn)",
                };
                write!(
                    f,
                    "{mender}'s Mend heals {target} {hp} HP{why}; {mender} gains {vp} VP"
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
                if *overkill {
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
            Event::Converted { player, hp } => write!(
                f,
                "{player} is the last one standing and moves {hp} HP to VP"
            ),
            Event::GameOver { reason, winners } => {
                let why = match reason {
                    EndReason::LastStanding => "one player left",
                    EndReason::NoSurvivors => "nobody left",
                    EndReason::RoundCap => "the last round was played",
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
