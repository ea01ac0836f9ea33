//! The ten move tiles, their categories, kebab-case ids and printed costs (L155-L166, T7).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A move's category: Strikes beat Utilities, Utilities beat Defenses, Defenses beat Strikes,
/// with the exceptions of the matrix (L155-L169).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Standard, Piercing, Dashing, Lightning and Finishing Strike.
    Strike,
    /// Guard, Parry, Counter-Attack and Evasion.
    Defense,
    /// Power-up, the only Utility.
    Utility,
}

/// One of the ten move tiles every player holds for the whole game (L134, L153).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Move {
    /// Standard Strike (STD, L205-L209).
    StandardStrike,
    /// Piercing Strike (PRC, L211-L215).
    PiercingStrike,
    /// Dashing Strike (DSH, L217-L224).
    DashingStrike,
    /// Lightning Strike (LTN, L225-L231).
    LightningStrike,
    /// Finishing Strike (FIN, L232-L238).
    FinishingStrike,
    /// Guard (GRD, L241-L247).
    Guard,
    /// Parry (PRY, L255-L260).
    Parry,
    /// Counter-Attack (CTR, L248-L253).
    CounterAttack,
    /// Evasion (EVA, L261-L268).
    Evasion,
    /// Power-up (PWR, L271-L275).
    PowerUp,
}

impl Move {
    /// All ten moves in the order of the matrix rows (§1.1).
    pub const ALL: [Move; 10] = [
        Move::StandardStrike,
        Move::PiercingStrike,
        Move::DashingStrike,
        Move::LightningStrike,
        Move::FinishingStrike,
        Move::Guard,
        Move::Parry,
        Move::CounterAttack,
        Move::Evasion,
        Move::PowerUp,
    ];

    /// The wire id (api.md), e.g. `standard-strike`.
    pub const fn id(self) -> &'static str {
        match self {
            Move::StandardStrike => "standard-strike",
            Move::PiercingStrike => "piercing-strike",
            Move::DashingStrike => "dashing-strike",
            Move::LightningStrike => "lightning-strike",
            Move::FinishingStrike => "finishing-strike",
            Move::Guard => "guard",
            Move::Parry => "parry",
            Move::CounterAttack => "counter-attack",
            Move::Evasion => "evasion",
            Move::PowerUp => "power-up",
        }
    }

    /// The name shown in the log.
    pub const fn name(self) -> &'static str {
        match self {
            Move::StandardStrike => "Standard Strike",
            Move::PiercingStrike => "Piercing Strike",
            Move::DashingStrike => "Dashing Strike",
            Move::LightningStrike => "Lightning Strike",
            Move::FinishingStrike => "Finishing Strike",
            Move::Guard => "Guard",
            Move::Parry => "Parry",
            Move::CounterAttack => "Counter-Attack",
            Move::Evasion => "Evasion",
            Move::PowerUp => "Power-up",
        }
    }

    /// The move's category (L155-L166).
    pub const fn category(self) -> Category {
        match self {
            Move::StandardStrike
            | Move::PiercingStrike
            | Move::DashingStrike
            | Move::LightningStrike
            | Move::FinishingStrike => Category::Strike,
            Move::Guard | Move::Parry | Move::CounterAttack | Move::Evasion => Category::Defense,
            Move::PowerUp => Category::Utility,
        }
    }

    /// The printed cost in Charges before character changes (T7): Dashing 1, Lightning 1,
    /// Finishing 3, Parry 1, Evasion 1, the rest free (L221, L229, L236, L258, L265).
    pub const fn base_cost(self) -> u8 {
        match self {
            Move::DashingStrike | Move::LightningStrike | Move::Parry | Move::Evasion => 1,
            Move::FinishingStrike => 3,
            Move::StandardStrike
            | Move::PiercingStrike
            | Move::Guard
            | Move::CounterAttack
            | Move::PowerUp => 0,
        }
    }

    /// What an illegal play of this move becomes: Standard Strike for a Strike, Guard for a
    /// Defense (T6, L196). Power-up is never illegal, so it stays itself.
    pub const fn replacement(self) -> Move {
        match self.category() {
            Category::Strike => Move::StandardStrike,
            Category::Defense => Move::Guard,
            Category::Utility => Move::PowerUp,
        }
    }

    /// Whether this Strike has a Power Surge option on a win (PRC, DSH, LTN: L215, L222, L230).
    pub const fn surges(self) -> bool {
        matches!(
            self,
            Move::PiercingStrike | Move::DashingStrike | Move::LightningStrike
        )
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown move id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove(pub String);

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a move; the moves are ", self.0)?;
        let ids: Vec<&str> = Move::ALL.iter().map(|m| m.id()).collect();
        f.write_str(&ids.join(", "))
    }
}

impl FromStr for Move {
    type Err = BadMove;

    /// Parses a wire id such as `counter-attack` (api.md).
    fn from_str(s: &str) -> Result<Move, BadMove> {
        Move::ALL
            .into_iter()
            .find(|m| m.id() == s)
            .ok_or_else(|| BadMove(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_ids_round_trip_through_text_and_serde_api_md() {
        for m in Move::ALL {
            assert_eq!(m.id().parse::<Move>(), Ok(m));
            assert_eq!(serde_json::to_value(m).unwrap(), serde_json::json!(m.id()));
        }
        assert!("lightning".parse::<Move>().is_err());
    }

    #[test]
    fn printed_costs_match_t7() {
        let costs: Vec<u8> = Move::ALL.iter().map(|m| m.base_cost()).collect();
        assert_eq!(costs, [0, 0, 1, 1, 3, 0, 1, 0, 1, 0]);
    }

    #[test]
    fn illegal_strikes_become_standard_and_illegal_defenses_become_guard_l196() {
        assert_eq!(Move::FinishingStrike.replacement(), Move::StandardStrike);
        assert_eq!(Move::Evasion.replacement(), Move::Guard);
        assert_eq!(Move::PowerUp.replacement(), Move::PowerUp);
    }
}
