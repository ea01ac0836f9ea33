//! R5, Ruling 11: the steps of an Attack card's arithmetic and what they name (the reductions,
//! why a card dealt 0), as the damage ledger applies them and the log records them.

use serde::{Deserialize, Serialize};

/// A reduction of Attack-card damage (R5; D, B, Ruling 21).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reduction {
    /// The victim Dodges someone else: −3 (D).
    Dodge,
    /// The victim Blocks: −2 (B).
    Block,
    /// The victim Dodged this attacker last turn: −3 (D, Ruling 21).
    DodgeCarryOver,
}

impl Reduction {
    /// How much it takes off.
    pub fn amount(self) -> u32 {
        match self {
            Reduction::Dodge => 3,
            Reduction::Block => 2,
            Reduction::DodgeCarryOver => 3,
        }
    }

    /// Its name in a log line.
    pub fn label(self) -> &'static str {
        match self {
            Reduction::Dodge => "Dodge",
            Reduction::Block => "Block",
            Reduction::DodgeCarryOver => "Dodge carry-over",
        }
    }
}

/// Why an Attack card dealt 0 outright (R5, Ruling 11).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ZeroReason {
    /// The victim Dodges this attacker: "deal no damage to you" (D).
    Dodged,
    /// The victim Ripostes this attacker, whose card is aimed at him: "reduced to zero" (R).
    Riposted,
}

/// One step of an Attack card's arithmetic, in the order applied (R5, Ruling 11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum Step {
    /// The attacker Focused on this declared target last turn: 2×d+1 (F, Ruling 10).
    Focused { result: i64 },
    /// The victim is Taunting: +1 (T, Ruling 26).
    Taunting { result: i64 },
    /// Assail on its declared target: these Defense effects do not reduce it (AS, Ruling 18).
    DefenseIgnored {
        ignored: Vec<Reduction>,
        zero: Option<ZeroReason>,
    },
    /// Set to 0 outright (D, R).
    Zeroed { reason: ZeroReason },
    /// A reduction subtracted (may go below 0 before the floor).
    Reduced { by: Reduction, result: i64 },
    /// The floor at 0 (Ruling 11: a negative result never heals).
    Floored,
}
