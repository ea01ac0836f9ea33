//! The Scale of Styles (the lost figure F, rulings §2): four techniques on a line, each
//! moving the two combat values from Attack to Defense one die at a time.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A technique, by its position on the Scale (Ruling 1: AOA 0, MO 1, MD 2, ID 3; no
/// wrap-around).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Technique {
    /// All-Out Attack: Attack hi + lo, Defense 0 (reachable only by a shift).
    AllOutAttack,
    /// Mixed Offense: Attack hi, Defense lo (red cards, Jokers).
    MixedOffense,
    /// Mixed Defense: Attack lo, Defense hi (black cards).
    MixedDefense,
    /// Iron Defense: Attack 0, Defense hi + lo (reachable only by a shift).
    IronDefense,
}

/// A fighter's Attack and Defense for the round (R7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scores {
    pub attack: u32,
    pub defense: u32,
}

impl Technique {
    /// The Scale in order (Ruling 1).
    pub const ALL: [Technique; 4] = [
        Technique::AllOutAttack,
        Technique::MixedOffense,
        Technique::MixedDefense,
        Technique::IronDefense,
    ];

    /// The position on the Scale, 0-3 (Ruling 1).
    pub const fn position(self) -> u8 {
        match self {
            Technique::AllOutAttack => 0,
            Technique::MixedOffense => 1,
            Technique::MixedDefense => 2,
            Technique::IronDefense => 3,
        }
    }

    /// The API id (`all-out-attack`, ...).
    pub const fn id(self) -> &'static str {
        match self {
            Technique::AllOutAttack => "all-out-attack",
            Technique::MixedOffense => "mixed-offense",
            Technique::MixedDefense => "mixed-defense",
            Technique::IronDefense => "iron-defense",
        }
    }

    /// The technique's name for people.
    pub const fn title(self) -> &'static str {
        match self {
            Technique::AllOutAttack => "All-Out Attack",
            Technique::MixedOffense => "Mixed Offense",
            Technique::MixedDefense => "Mixed Defense",
            Technique::IronDefense => "Iron Defense",
        }
    }

    /// Attack and Defense from the higher and lower combat values (Ruling 2): whole dice,
    /// none lost or counted twice, so Attack + Defense = hi + lo always.
    pub fn scores(self, hi: u8, lo: u8) -> Scores {
        let (hi, lo) = (u32::from(hi), u32::from(lo));
        let (attack, defense) = match self {
            Technique::AllOutAttack => (hi + lo, 0),
            Technique::MixedOffense => (hi, lo),
            Technique::MixedDefense => (lo, hi),
            Technique::IronDefense => (0, hi + lo),
        };
        Scores { attack, defense }
    }

    /// The techniques a reactor may end on from `self` with an Initiative difference of
    /// `diff` (Ruling 4): every technique at distance ≤ `diff`, staying included, in Scale
    /// order.
    pub fn reach(self, diff: u8) -> Vec<Technique> {
        Technique::ALL
            .into_iter()
            .filter(|t| t.position().abs_diff(self.position()) <= diff)
            .collect()
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// A text that names no technique.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTechnique(pub String);

impl FromStr for Technique {
    type Err = UnknownTechnique;

    fn from_str(text: &str) -> Result<Technique, UnknownTechnique> {
        Technique::ALL
            .into_iter()
            .find(|t| t.id() == text)
            .ok_or_else(|| UnknownTechnique(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Technique::*;

    #[test]
    fn ruling_2_attack_plus_defense_is_always_hi_plus_lo() {
        for t in Technique::ALL {
            for (hi, lo) in [(8, 3), (6, 6), (12, 1)] {
                let s = t.scores(hi, lo);
                assert_eq!(s.attack + s.defense, u32::from(hi + lo), "{t:?}");
            }
        }
        assert_eq!(
            AllOutAttack.scores(8, 3),
            Scores {
                attack: 11,
                defense: 0
            }
        );
        assert_eq!(
            MixedOffense.scores(8, 3),
            Scores {
                attack: 8,
                defense: 3
            }
        );
        assert_eq!(
            MixedDefense.scores(8, 3),
            Scores {
                attack: 3,
                defense: 8
            }
        );
        assert_eq!(
            IronDefense.scores(8, 3),
            Scores {
                attack: 0,
                defense: 11
            }
        );
    }

    #[test]
    fn ruling_4_the_reach_table_of_r6() {
        assert_eq!(
            MixedOffense.reach(1),
            [AllOutAttack, MixedOffense, MixedDefense]
        );
        assert_eq!(
            MixedDefense.reach(1),
            [MixedOffense, MixedDefense, IronDefense]
        );
        assert_eq!(MixedOffense.reach(2), Technique::ALL);
        assert_eq!(MixedDefense.reach(2), Technique::ALL);
    }

    #[test]
    fn technique_ids_read_back() {
        for t in Technique::ALL {
            assert_eq!(t.id().parse(), Ok(t));
            assert_eq!(serde_json::to_value(t).unwrap(), t.id());
        }
        assert!("all-out".parse::<Technique>().is_err());
    }
}
