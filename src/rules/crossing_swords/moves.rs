//! The ten moves, their categories and their canonical notation (rulings §1, Ruling 1, Ruling 3).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::rules::PlayerId;

/// A move's category, exactly as printed in the seed ("(Attack)", "(Defense)", "(Action)").
/// Focus, Taunt and Defense modify only Attack-card damage (Ruling 9); Halt triggers only on an
/// Action (Ruling 5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Strike, Lunge, Assail.
    Attack,
    /// Dodge, Block, Riposte.
    Defense,
    /// Taunt, Focus, Mend, Halt.
    Action,
}

/// One of the ten moves every player may choose from every turn, as often as he likes
/// (G2, G3, Ruling 1). Spoken on the wire in kebab-case (`strike`, ..., `halt`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Move {
    /// Attack: 3 damage to the declared target (S).
    Strike,
    /// Attack: 5 damage to the declared target, with the drawback of R7 (L, Rulings 13-16).
    Lunge,
    /// Attack: 1 damage to every other living player; the declared target's Defense cannot
    /// reduce his share; at most 8 VP from it per turn (AS, Rulings 17-20).
    Assail,
    /// Defense: the target's Attacks deal 0 to you, all others 3 less; next turn the target's
    /// Attacks deal you 3 less (D, Ruling 21).
    Dodge,
    /// Defense: every Attack deals you 2 less; reflect 2 to the target if he attacks you (B, Ruling 22).
    Block,
    /// Defense: the target's Attack on you deals 0 and you deal him 3 (R, Ruling 23).
    Riposte,
    /// Action: steal up to 3 VP from the target; every Attack on you deals 1 more (T, Rulings 24-26).
    Taunt,
    /// Action: next turn your Attack on the target deals 2x+1; enables Mend's 7 (F, Rulings 10-12).
    Focus,
    /// Action: the target gains 3 HP (7 after your own Focus); you gain 1 VP (M, Rulings 27-28).
    Mend,
    /// Action: if the target plays an Action, deal him 3 and negate it; mutual Halts do nothing
    /// (H, Rulings 5-8).
    Halt,
}

/// The three Attack cards, with their printed base damage (S, L, AS).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Attack {
    /// Strike, base 3 (S).
    Strike,
    /// Lunge, base 5 (L).
    Lunge,
    /// Assail, base 1 to each victim (AS).
    Assail,
}

impl Attack {
    /// The printed damage before any modifier (S: 3, L: 5, AS: 1), R5.
    pub fn base(self) -> u32 {
        match self {
            Attack::Strike => 3,
            Attack::Lunge => 5,
            Attack::Assail => 1,
        }
    }

    /// The move this Attack card is.
    pub fn as_move(self) -> Move {
        match self {
            Attack::Strike => Move::Strike,
            Attack::Lunge => Move::Lunge,
            Attack::Assail => Move::Assail,
        }
    }
}

impl Move {
    /// All ten moves in the seed's order (G2).
    pub const ALL: [Move; 10] = [
        Move::Strike,
        Move::Lunge,
        Move::Assail,
        Move::Dodge,
        Move::Block,
        Move::Riposte,
        Move::Taunt,
        Move::Focus,
        Move::Mend,
        Move::Halt,
    ];

    /// The category printed in the seed (§1).
    pub fn category(self) -> Category {
        match self {
            Move::Strike | Move::Lunge | Move::Assail => Category::Attack,
            Move::Dodge | Move::Block | Move::Riposte => Category::Defense,
            Move::Taunt | Move::Focus | Move::Mend | Move::Halt => Category::Action,
        }
    }

    /// The Attack card this move is, if it is one (R5).
    pub fn attack(self) -> Option<Attack> {
        match self {
            Move::Strike => Some(Attack::Strike),
            Move::Lunge => Some(Attack::Lunge),
            Move::Assail => Some(Attack::Assail),
            Move::Dodge
            | Move::Block
            | Move::Riposte
            | Move::Taunt
            | Move::Focus
            | Move::Mend
            | Move::Halt => None,
        }
    }

    /// Whether the move may name its own player as target (Ruling 3): Dodge, Block, Riposte,
    /// Focus and Mend may; Strike, Lunge, Assail, Taunt and Halt must name another player.
    pub fn may_target_self(self) -> bool {
        match self {
            Move::Dodge | Move::Block | Move::Riposte | Move::Focus | Move::Mend => true,
            Move::Strike | Move::Lunge | Move::Assail | Move::Taunt | Move::Halt => false,
        }
    }

    /// The canonical notation (`strike`, ..., `halt`), as on the wire and in case files.
    pub fn as_str(self) -> &'static str {
        match self {
            Move::Strike => "strike",
            Move::Lunge => "lunge",
            Move::Assail => "assail",
            Move::Dodge => "dodge",
            Move::Block => "block",
            Move::Riposte => "riposte",
            Move::Taunt => "taunt",
            Move::Focus => "focus",
            Move::Mend => "mend",
            Move::Halt => "halt",
        }
    }

    /// The move's name as printed in the seed, for log lines ("Strike").
    pub fn title(self) -> &'static str {
        match self {
            Move::Strike => "Strike",
            Move::Lunge => "Lunge",
            Move::Assail => "Assail",
            Move::Dodge => "Dodge",
            Move::Block => "Block",
            Move::Riposte => "Riposte",
            Move::Taunt => "Taunt",
            Move::Focus => "Focus",
            Move::Mend => "Mend",
            Move::Halt => "Halt",
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A move name that is not one of the ten (`unknown-move`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownMove(pub String);

impl FromStr for Move {
    type Err = UnknownMove;

    /// Parses the canonical notation exactly (lower-case kebab, as the API fixes it).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Move::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| UnknownMove(s.to_owned()))
    }
}

/// An order as sent: `{"move": "strike", "target": "<player id>"}` (G3). The host strips
/// `round` and `step` first; any other field is refused.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderBody {
    /// The move's canonical name.
    #[serde(rename = "move")]
    pub mv: String,
    /// The target's player id (a UUID), as text.
    pub target: String,
}

/// A checked order: a move and a living target legal for it at the start of the turn
/// (G3, Ruling 3). Serialized as `{"move": "strike", "target": "<player id>"}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    /// The move played.
    #[serde(rename = "move")]
    pub mv: Move,
    /// The declared target (G3).
    pub target: PlayerId,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_round_trips_through_its_canonical_notation() {
        for m in Move::ALL {
            assert_eq!(m.to_string().parse::<Move>(), Ok(m));
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(json, format!("\"{}\"", m.as_str()));
        }
    }

    #[test]
    fn an_unknown_or_capitalised_move_name_is_refused() {
        assert!("Strike".parse::<Move>().is_err());
        assert!("parry".parse::<Move>().is_err());
    }

    #[test]
    fn ruling_3_attacks_taunt_and_halt_may_not_target_oneself() {
        let own: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|m| m.may_target_self())
            .collect();
        assert_eq!(
            own,
            [
                Move::Dodge,
                Move::Block,
                Move::Riposte,
                Move::Focus,
                Move::Mend
            ]
        );
    }
}
