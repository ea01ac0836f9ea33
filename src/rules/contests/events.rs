//! The duel's log (rulings §3.7's reveal, §3.8): one typed event per thing that happened,
//! each with a line a person can follow. Everything is public once its step resolves, except
//! a drawn card, which only its owner sees; an unlost die and a face-down card first appear
//! in the contest's reveal (K4).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::ids::{Attribute, Card, Counted, Phase, Wish};
use super::orders::Action;
use super::state::{EndReason, Lasts, PlayerRef};
use crate::rules::{self, Audience, Seat};

/// One combatant's cards in a contest's reveal (K4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardsPlayed {
    pub down: Option<Card>,
    pub up: Vec<Card>,
    /// Cancelled by the opponent's No Way!.
    pub cancelled: Vec<Card>,
    /// Discarded without effect (L15).
    pub irrelevant: Vec<Card>,
}

/// One entry of the log, serialized with a `kind` tag.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Event {
    /// §3.1: round `round` begins.
    RoundBegan { round: u32 },
    /// W1: a window order revealed.
    WindowOrder {
        player: PlayerRef,
        wish: Option<Wish>,
        action: Option<Action>,
    },
    /// W3: a window card cancelled by No Way!.
    ActionCancelled { player: PlayerRef, card: Card },
    /// A window action that had no effect (W8: Dis-arm or Point Blank Shot before a phase
    /// that is not Melee).
    ActionVoid { player: PlayerRef, action: Action },
    /// W3: Backstab!'s discarded card.
    BackstabDiscard { player: PlayerRef, card: Card },
    /// W4: a flight failed; 1 damage.
    FlightFailed { player: PlayerRef, hp: u32 },
    /// W4, E3: a combatant escaped (none: both fled at once).
    Escaped { player: Option<PlayerRef> },
    /// W5-W9: the phases the window queued, in order.
    PhasesQueued { phases: Vec<Phase> },
    /// W7-W8: a window action took effect.
    ActionTook { player: PlayerRef, action: Action },
    /// P0: a phase begins (`phase_count` counts it).
    PhaseBegan {
        round: u32,
        phase: Phase,
        phase_count: u32,
    },
    /// §2.6: a combatant drew (public: that he drew).
    Drew { player: PlayerRef, hand_size: usize },
    /// §2.6: which card was drawn, for its owner.
    DrewCard {
        player: PlayerRef,
        seat: Seat,
        card: Card,
    },
    /// P1-P2: a declaration revealed and paid.
    Declared {
        player: PlayerRef,
        what: String,
        energy_paid: u32,
        hp_paid: u32,
    },
    /// P3-P4: the order and each one's attacks.
    AttackOrder { first: PlayerRef, attacks: [u32; 2] },
    /// §3.4: a contest opens.
    ContestOpened {
        contest: u32,
        what: String,
        challenger: PlayerRef,
        defender: PlayerRef,
        counted: Counted,
        guesses: [u32; 2],
    },
    /// K2: the guesses, the lost dice and whether each has a card face down.
    GuessesRevealed {
        contest: u32,
        /// The two combatants, in seat order: every pair below is in this order.
        players: [PlayerRef; 2],
        guesses: [Vec<u8>; 2],
        lost: [Option<u8>; 2],
        face_down: [bool; 2],
    },
    /// K4-K5: everything: dice, cards, ratings and totals.
    ContestRevealed {
        contest: u32,
        /// The two combatants, in seat order.
        players: [PlayerRef; 2],
        dice: [u8; 2],
        lost: [bool; 2],
        cards: [CardsPlayed; 2],
        ratings: [u32; 2],
        totals: [u32; 2],
    },
    /// K6: a tie-break.
    TieBreak {
        contest: u32,
        /// The two combatants, in seat order.
        players: [PlayerRef; 2],
        tie: u32,
        dice: [u8; 2],
        guesses: [Vec<u8>; 2],
        lost: [bool; 2],
    },
    /// K5-K6: who won the contest.
    ContestWon {
        contest: u32,
        winner: PlayerRef,
        challenger_won: bool,
    },
    /// A1-A3: an attack hit for `damage` (0 when reduced to nothing).
    Hit {
        attacker: PlayerRef,
        target: PlayerRef,
        what: String,
        damage: u32,
        hp: u32,
    },
    /// A1-A3: an attack failed.
    Missed { attacker: PlayerRef, what: String },
    /// A1: Mend healed.
    Healed {
        player: PlayerRef,
        healed: u32,
        hp: u32,
    },
    /// A7: an extra spell its caster could not pay.
    SpellLost { player: PlayerRef },
    /// §2.5: a modifier starts.
    Modified {
        player: PlayerRef,
        attribute: Attribute,
        amount: i32,
        lasts: Lasts,
        source: String,
    },
    /// Ruling 42: a Make Funny Faces surcharge until the end of `until`.
    Surcharged { player: PlayerRef, until: u32 },
    /// A4: Am I good or what? grants one more attack.
    Encore { player: PlayerRef },
    /// A5: the cards Kick below the waist made him discard.
    KickDiscard { player: PlayerRef, cards: Vec<Card> },
    /// The host removed a combatant: he forfeits.
    Forfeited { player: PlayerRef },
    /// §3.6: the duel is over (winner none: a draw).
    DuelOver {
        reason: EndReason,
        winner: Option<PlayerRef>,
        hp: [u32; 2],
    },
}

impl rules::Event for Event {
    fn audience(&self) -> Audience {
        match self {
            Event::DrewCard { seat, .. } => Audience::Only(*seat),
            _ => Audience::Everyone,
        }
    }

    fn opens_round(&self) -> Option<u32> {
        match self {
            Event::RoundBegan { round } => Some(*round),
            _ => None,
        }
    }
}

fn cards(list: &[Card]) -> String {
    list.iter().map(|c| c.id()).collect::<Vec<_>>().join(", ")
}

/// Die faces as a list in words: "2, 5 or 6".
fn faces(list: &[u8]) -> String {
    let words: Vec<String> = list.iter().map(u8::to_string).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.concat(),
    }
}

fn die(face: u8, lost: bool) -> String {
    match lost {
        true => format!("{face} (guessed: 0)"),
        false => face.to_string(),
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::RoundBegan { round } => write!(f, "Round {round} begins."),
            Event::WindowOrder {
                player,
                wish,
                action,
            } => {
                let action = action.as_ref().map_or("no action".into(), Action::words);
                match wish {
                    Some(w) => write!(f, "{player} wishes {w}, {action}."),
                    None => write!(f, "{player}: {action}."),
                }
            }
            Event::ActionCancelled { player, card } => {
                write!(f, "No Way! cancels {player}'s {card}.")
            }
            Event::ActionVoid { player, action } => write!(
                f,
                "{player}'s {} has no effect: the next phase is not Melee.",
                action.words()
            ),
            Event::BackstabDiscard { player, card } => {
                write!(f, "{player} discards {card} for Backstab!.")
            }
            Event::FlightFailed { player, hp } => {
                write!(f, "{player} fails to flee and takes 1 damage ({hp} HP).")
            }
            Event::Escaped { player: Some(p) } => write!(f, "{p} escapes."),
            Event::Escaped { player: None } => write!(f, "Both flee: the combat ends."),
            Event::PhasesQueued { phases } => {
                let names: Vec<&str> = phases.iter().map(|p| p.id()).collect();
                write!(f, "Next: {}.", names.join(", then "))
            }
            Event::ActionTook { player, action } => {
                write!(f, "{player}'s {} takes effect.", action.words())
            }
            Event::PhaseBegan {
                round,
                phase,
                phase_count,
            } => write!(f, "Round {round}: phase {phase_count}, {phase}."),
            Event::Drew { player, hand_size } => {
                write!(f, "{player} draws a card ({hand_size} in hand).")
            }
            Event::DrewCard { player, card, .. } => write!(f, "{player} drew {card}."),
            Event::Declared {
                player,
                what,
                energy_paid,
                hp_paid,
            } => write!(
                f,
                "{player} declares {what} (pays {energy_paid} energy, {hp_paid} HP)."
            ),
            Event::AttackOrder { first, attacks } => write!(
                f,
                "{first} attacks first; attacks {} and {}.",
                attacks[0], attacks[1]
            ),
            Event::ContestOpened {
                contest,
                what,
                challenger,
                defender,
                counted,
                guesses,
            } => write!(
                f,
                "Contest {contest}: {challenger}'s {what} against {defender}, {counted}; guesses {} and {}.",
                guesses[0], guesses[1]
            ),
            Event::GuessesRevealed {
                contest,
                players,
                guesses,
                lost,
                face_down,
            } => {
                write!(f, "Contest {contest}:")?;
                for (player, guessed) in players.iter().zip(guesses) {
                    match guessed.is_empty() {
                        true => write!(f, " {player} makes no guess;")?,
                        false => write!(f, " {player} guesses {};", faces(guessed))?,
                    }
                }
                let lost: Vec<String> = players
                    .iter()
                    .zip(lost)
                    .filter_map(|(player, face)| face.map(|d| format!("{player}'s {d}")))
                    .collect();
                match lost.is_empty() {
                    true => f.write_str(" no die is guessed")?,
                    false => write!(f, " guessed and lost: {}", lost.join(" and "))?,
                }
                for (player, down) in players.iter().zip(face_down) {
                    if *down {
                        write!(f, "; {player} has a card face down")?;
                    }
                }
                f.write_str(".")
            }
            Event::ContestRevealed {
                contest,
                players,
                dice,
                lost,
                cards: played,
                ratings,
                totals,
            } => {
                write!(
                    f,
                    "Contest {contest}: {} {} + {} = {} against {} {} + {} = {}",
                    players[0],
                    ratings[0],
                    die(dice[0], lost[0]),
                    totals[0],
                    players[1],
                    ratings[1],
                    die(dice[1], lost[1]),
                    totals[1]
                )?;
                for (player, p) in players.iter().zip(played) {
                    let mut all: Vec<Card> = p.down.into_iter().collect();
                    all.extend(&p.up);
                    if !all.is_empty() {
                        write!(f, "; {player} played {}", cards(&all))?;
                    }
                    if !p.cancelled.is_empty() {
                        write!(f, " (cancelled: {})", cards(&p.cancelled))?;
                    }
                    if !p.irrelevant.is_empty() {
                        write!(f, " (no effect: {})", cards(&p.irrelevant))?;
                    }
                }
                f.write_str(".")
            }
            Event::TieBreak {
                contest,
                players,
                tie,
                dice,
                lost,
                ..
            } => write!(
                f,
                "Contest {contest}, tie-break {tie}: {} {} against {} {}.",
                players[0],
                die(dice[0], lost[0]),
                players[1],
                die(dice[1], lost[1])
            ),
            Event::ContestWon {
                contest, winner, ..
            } => write!(f, "Contest {contest}: {winner} wins."),
            Event::Hit {
                attacker,
                target,
                what,
                damage,
                hp,
            } => write!(
                f,
                "{attacker}'s {what} hits {target} for {damage} ({hp} HP left)."
            ),
            Event::Missed { attacker, what } => write!(f, "{attacker}'s {what} has no effect."),
            Event::Healed { player, healed, hp } => {
                write!(f, "{player} mends {healed} ({hp} HP).")
            }
            Event::SpellLost { player } => {
                write!(f, "{player} cannot pay the extra spell: it is lost.")
            }
            Event::Modified {
                player,
                attribute,
                amount,
                lasts,
                source,
            } => write!(
                f,
                "{player}: {amount:+} {attribute} from {source}, for the {}.",
                match lasts {
                    Lasts::Combat => "combat",
                    Lasts::Phase => "phase",
                }
            ),
            Event::Surcharged { player, until } => write!(
                f,
                "{player} pays 1 more energy per use until the end of round {until}."
            ),
            Event::Encore { player } => write!(f, "{player} gains one more attack."),
            Event::KickDiscard {
                player,
                cards: list,
            } => {
                write!(f, "{player} discards {}.", cards(list))
            }
            Event::Forfeited { player } => write!(f, "{player} is removed and forfeits."),
            Event::DuelOver { reason, winner, hp } => {
                let reason = match reason {
                    EndReason::Defeated => "defeated",
                    EndReason::Escaped => "escaped",
                    EndReason::Ended => "ended",
                    EndReason::PhaseCap => "phase-cap",
                    EndReason::Forfeit => "forfeit",
                    EndReason::EndedByHost => "ended by the host",
                    EndReason::DrawVote => "both voted for a draw",
                };
                match winner {
                    Some(w) => write!(f, "{w} wins ({reason}); HP {} / {}.", hp[0], hp[1]),
                    None => write!(f, "A draw ({reason}); HP {} / {}.", hp[0], hp[1]),
                }
            }
        }
    }
}
