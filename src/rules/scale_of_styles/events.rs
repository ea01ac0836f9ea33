//! The round log (rulings §3.4): one typed event per thing that happened, each with a line a
//! person can follow. Everything here is public once its step resolves, except the cards a
//! hidden strip took (`stripped_cards=hidden`, Ruling 17), which only their owner sees.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cards::Card;
use super::scale::Technique;
use crate::rules::{self, Audience, PlayerId, Seat};

/// What the end check reads of a round (§3.2): each fighter's cards left after the play, and
/// the damage he received.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Exchange {
    pub left: [usize; 2],
    pub damage: [u32; 2],
}

/// One entry of a round's log, serialized with a `kind` tag.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Event {
    /// S-3: both battle plans are in place; round 1 begins.
    PlansLaid,
    /// R1: a new round begins.
    RoundBegan { round: u32 },
    /// R3: a played card, revealed with its starting technique and Reaction Speed (R5).
    /// `chosen` is false when the server played the only card of a one-card window.
    Played {
        player: PlayerRef,
        card: Card,
        technique: Technique,
        speed: Option<u8>,
        chosen: bool,
    },
    /// R4-R5: a fighter's four dice (combat dice, d10, d12) and his Initiative.
    Rolled {
        player: PlayerRef,
        dice: [u8; 4],
        combat_dice: [u8; 2],
        initiative: u8,
    },
    /// R6: equal Initiatives; nobody shifts (S7, Ruling 5).
    EqualInitiative { initiative: u8 },
    /// R6: the reactor may shift `diff` steps from `from`, to any of `legal`.
    Reacts {
        player: PlayerRef,
        diff: u8,
        from: Technique,
        legal: Vec<Technique>,
    },
    /// R6: the reactor's final technique (`to == from`: he kept it).
    Shifted {
        player: PlayerRef,
        from: Technique,
        to: Technique,
    },
    /// R7: a fighter's final technique, combat values and scores.
    Scored {
        player: PlayerRef,
        technique: Technique,
        hi: u8,
        lo: u8,
        attack: u32,
        defense: u32,
    },
    /// R8-R9 with `end=deck`: the damage received and the cards it stripped off the top
    /// (none listed when `stripped_cards=hidden`: only `count`).
    Struck {
        player: PlayerRef,
        damage: u32,
        stripped: Option<Vec<Card>>,
        count: usize,
        deck_size: usize,
    },
    /// R9 with `stripped_cards=hidden`: which cards were stripped, for their owner only.
    StrippedUnseen {
        player: PlayerRef,
        seat: Seat,
        cards: Vec<Card>,
    },
    /// R8-R9 with `end=stamina`: the damage received, added to the wounds (Ruling 22).
    Wounded {
        player: PlayerRef,
        damage: u32,
        wounds: u32,
        stamina: u32,
    },
    /// R10: a fighter is out (deck empty or wounds at stamina), with his margin.
    Out { player: PlayerRef, margin: i64 },
    /// The host removed a fighter: he forfeits.
    Forfeited { player: PlayerRef },
    /// The match is over: the winner (none: a draw), the margins and the victor's award.
    MatchOver {
        reason: EndReason,
        winner: Option<PlayerRef>,
        margins: [i64; 2],
        award: Option<Award>,
    },
}

impl rules::Event for Event {
    fn audience(&self) -> Audience {
        match self {
            Event::StrippedUnseen { seat, .. } => Audience::Only(*seat),
            Event::PlansLaid
            | Event::RoundBegan { .. }
            | Event::Played { .. }
            | Event::Rolled { .. }
            | Event::EqualInitiative { .. }
            | Event::Reacts { .. }
            | Event::Shifted { .. }
            | Event::Scored { .. }
            | Event::Struck { .. }
            | Event::Wounded { .. }
            | Event::Out { .. }
            | Event::Forfeited { .. }
            | Event::MatchOver { .. } => Audience::Everyone,
        }
    }

    fn opens_round(&self) -> Option<u32> {
        match self {
            Event::RoundBegan { round } => Some(*round),
            Event::PlansLaid
            | Event::Played { .. }
            | Event::Rolled { .. }
            | Event::EqualInitiative { .. }
            | Event::Reacts { .. }
            | Event::Shifted { .. }
            | Event::Scored { .. }
            | Event::Struck { .. }
            | Event::StrippedUnseen { .. }
            | Event::Wounded { .. }
            | Event::Out { .. }
            | Event::Forfeited { .. }
            | Event::MatchOver { .. } => None,
        }
    }
}

fn list(cards: &[Card]) -> String {
    let codes: Vec<String> = cards.iter().map(Card::to_string).collect();
    codes.join(" ")
}

fn reason_text(reason: EndReason) -> &'static str {
    match reason {
        EndReason::KnockOut => "a fighter is out",
        EndReason::DoubleKnockOut => "both fighters are out",
        EndReason::DecksExhausted => "a deck ran out",
        EndReason::RoundCap => "the last round was played",
        EndReason::Forfeit => "forfeit",
        EndReason::EndedByHost => "ended by the host",
        EndReason::DrawVote => "both voted for a draw",
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::PlansLaid => write!(f, "Both battle plans are laid; round 1 begins"),
            Event::RoundBegan { round } => write!(f, "Round {round} begins"),
            Event::Played {
                player,
                card,
                technique,
                speed,
                chosen,
            } => {
                let how = if *chosen { "plays" } else { "draws" };
                match speed {
                    Some(rs) => write!(f, "{player} {how} {card}: {technique}, speed {rs}"),
                    None => write!(f, "{player} {how} {card}: a Signature Move, {technique}"),
                }
            }
            Event::Rolled {
                player,
                dice,
                combat_dice,
                initiative,
            } => write!(
                f,
                "{player} rolls d{} {}, d{} {}, d10 {}, d12 {}: Initiative {initiative}",
                combat_dice[0], dice[0], combat_dice[1], dice[1], dice[2], dice[3]
            ),
            Event::EqualInitiative { initiative } => {
                write!(f, "Initiatives are equal ({initiative}): nobody shifts")
            }
            Event::Reacts {
                player,
                diff,
                from,
                legal,
            } => {
                let names: Vec<&str> = legal.iter().map(|t| t.title()).collect();
                write!(
                    f,
                    "{player} seizes the initiative and may shift {diff} from {from}: {}",
                    names.join(", ")
                )
            }
            Event::Shifted { player, from, to } if from == to => {
                write!(f, "{player} keeps {from}")
            }
            Event::Shifted { player, from, to } => {
                write!(f, "{player} shifts from {from} to {to}")
            }
            Event::Scored {
                player,
                technique,
                hi,
                lo,
                attack,
                defense,
            } => write!(
                f,
                "{player} fights in {technique} ({hi}/{lo}): Attack {attack}, Defense {defense}"
            ),
            Event::Struck {
                player,
                damage,
                stripped,
                count,
                deck_size,
            } => match stripped {
                Some(cards) if !cards.is_empty() => write!(
                    f,
                    "{player} takes {damage} damage and loses {}; {deck_size} cards left",
                    list(cards)
                ),
                Some(_) | None if *count == 0 => {
                    write!(f, "{player} takes {damage} damage; {deck_size} cards left")
                }
                Some(_) | None => write!(
                    f,
                    "{player} takes {damage} damage and loses {count} cards unseen; {deck_size} cards left"
                ),
            },
            Event::StrippedUnseen { player, cards, .. } => {
                write!(f, "{player}'s stripped cards: {}", list(cards))
            }
            Event::Wounded {
                player,
                damage,
                wounds,
                stamina,
            } => write!(
                f,
                "{player} takes {damage} damage: {wounds} wounds of {stamina}"
            ),
            Event::Out { player, margin } => write!(f, "{player} is out (margin {margin})"),
            Event::Forfeited { player } => write!(f, "{player} forfeits the match"),
            Event::MatchOver {
                reason,
                winner,
                award,
                ..
            } => match (winner, award) {
                (Some(w), Some(a)) => write!(
                    f,
                    "{w} wins ({}) and earns {} XP: Level {}, XP {}",
                    reason_text(*reason),
                    a.earned,
                    a.level,
                    a.xp
                ),
                (Some(w), None) => write!(f, "{w} wins ({})", reason_text(*reason)),
                (None, _) => write!(f, "The match is a draw ({})", reason_text(*reason)),
            },
        }
    }
}

/// A player as named in the log: id and display name, so each line stands alone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRef {
    /// The player's id.
    pub id: PlayerId,
    /// The name shown to others.
    pub name: String,
}

impl std::fmt::Display for PlayerRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

/// Why the match ended (§3.2, and the host's hand).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// Exactly one fighter is out (T9, Ruling 22): the other wins.
    KnockOut,
    /// Both are out in the same round: the margin decides, or a draw (Ruling 19).
    DoubleKnockOut,
    /// `end=stamina` and a deck ran out with nobody out: the margin decides (Ruling 22).
    DecksExhausted,
    /// The `max_rounds` round (or Herald's round limit) was played: points decide (Ruling 23).
    RoundCap,
    /// The host removed a fighter: the other wins.
    Forfeit,
    /// The host ended the match, naming the winner or a draw.
    EndedByHost,
    /// Both voted for a draw with their orders.
    DrawVote,
}

/// The victor's experience award (T10, Rulings 20 and 21).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Award {
    /// XP earned: the J, Q and K left in his deck.
    pub earned: u32,
    /// His Level after the award.
    pub level: u8,
    /// His XP after the award.
    pub xp: u32,
}
