//! The six characters and their numeric and permission changes (§3.5, L276-L317).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::moves::Move;

/// A character, chosen at join (api.md `character`, default `sellsword`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Character {
    /// The Wandering Sellsword: core rules, 75 HP (L278-L280).
    #[default]
    Sellsword,
    /// The Phalanx Sentinel: 85 HP, tie-break buy-back, Piercing +3, no Follow-ups, no
    /// Lightning or Evasion (L281-L287, A2).
    Sentinel,
    /// The Devout Warpriest: 60 HP, heals when Gathering Power, revives once at 5 Charges,
    /// Finishing costs 2 and takes one extra token (L288-L294, A20, A21).
    Warpriest,
    /// The Unrelenting Assassin: 70 HP, random pool Follow-ups, Red Follow-ups set Off-Balance,
    /// poisoning Counter-Attack without damage, Power-up gains 1 (L295-L302, A25, A26).
    Assassin,
    /// The Mystic Channeler: 65 HP, steals a Charge on Power-up, sets aside Piercing Strike,
    /// Dashing bonus, no Finishing, Standard -2 (L303-L310, A27-A29).
    Channeler,
    /// The Poison-Quilled Razorbeast: 80 HP, poisoning Counter-Attack and Lightning, Red
    /// Counter-Attack bonus, no Evasion or Finishing, Dashing costs 2 (L311-L317, A30).
    Razorbeast,
}

impl Character {
    /// All six characters.
    pub const ALL: [Character; 6] = [
        Character::Sellsword,
        Character::Sentinel,
        Character::Warpriest,
        Character::Assassin,
        Character::Channeler,
        Character::Razorbeast,
    ];

    /// The wire id (api.md).
    pub const fn id(self) -> &'static str {
        match self {
            Character::Sellsword => "sellsword",
            Character::Sentinel => "sentinel",
            Character::Warpriest => "warpriest",
            Character::Assassin => "assassin",
            Character::Channeler => "channeler",
            Character::Razorbeast => "razorbeast",
        }
    }

    /// Starting HP, which is also the heal cap (S2, A22): 75 +10/-15/-5/-10/+5.
    pub const fn start_hp(self) -> i32 {
        match self {
            Character::Sellsword => 75,
            Character::Sentinel => 85,
            Character::Warpriest => 60,
            Character::Assassin => 70,
            Character::Channeler => 65,
            Character::Razorbeast => 80,
        }
    }

    /// Whether the character may use `m` at all (T6 (i)): the Sentinel has no Lightning or
    /// Evasion (L287), the Channeler no Finishing (L309), the Razorbeast no Evasion or
    /// Finishing (L316).
    pub const fn can_use(self, m: Move) -> bool {
        !matches!(
            (self, m),
            (Character::Sentinel, Move::LightningStrike | Move::Evasion)
                | (Character::Channeler, Move::FinishingStrike)
                | (Character::Razorbeast, Move::Evasion | Move::FinishingStrike)
        )
    }

    /// The cost of `m` for this character (T7): Warpriest Finishing 2 (L293), Razorbeast
    /// Dashing 2 (L317), otherwise the printed cost.
    pub const fn cost(self, m: Move) -> u8 {
        let changed = matches!(
            (self, m),
            (Character::Warpriest, Move::FinishingStrike)
                | (Character::Razorbeast, Move::DashingStrike)
        );
        if changed { 2 } else { m.base_cost() }
    }

    /// How many extra tokens a winning Finishing Strike may add: 2, the Warpriest 1 (L237,
    /// L294, A40).
    pub const fn finishing_extras(self) -> usize {
        match self {
            Character::Warpriest => 1,
            Character::Sellsword
            | Character::Sentinel
            | Character::Assassin
            | Character::Channeler
            | Character::Razorbeast => 2,
        }
    }
}

impl fmt::Display for Character {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Character {
    type Err = String;

    /// Parses a wire id such as `razorbeast`.
    fn from_str(s: &str) -> Result<Character, String> {
        Character::ALL
            .into_iter()
            .find(|c| c.id() == s)
            .ok_or_else(|| s.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starting_hp_follows_the_character_list_s3_5() {
        let hp: Vec<i32> = Character::ALL.iter().map(|c| c.start_hp()).collect();
        assert_eq!(hp, [75, 85, 60, 70, 65, 80]);
    }

    #[test]
    fn character_bans_and_costs_follow_l287_l293_l309_l316_l317() {
        assert!(!Character::Sentinel.can_use(Move::LightningStrike));
        assert!(!Character::Razorbeast.can_use(Move::FinishingStrike));
        assert!(Character::Warpriest.can_use(Move::Evasion));
        assert_eq!(Character::Warpriest.cost(Move::FinishingStrike), 2);
        assert_eq!(Character::Razorbeast.cost(Move::DashingStrike), 2);
        assert_eq!(Character::Sellsword.cost(Move::FinishingStrike), 3);
    }
}
