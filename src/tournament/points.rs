//! Points counted exactly: a duel scores whole and half points and Sonneborn-Berger adds half of
//! a drawn opponent's score, so every figure is a whole number of quarter points. Counting in
//! quarters keeps the standings' comparisons exact (no floating-point ties broken by rounding).

use std::fmt;
use std::iter::Sum;
use std::ops::Add;

use serde::{Serialize, Serializer};

/// A number of points, held as quarter points; shown and serialised as a number (`2.5`, `3`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points {
    quarters: u64,
}

impl Points {
    pub const ZERO: Points = Points { quarters: 0 };
    /// A draw, and the late entrant's point for the rounds he missed.
    pub const HALF: Points = Points { quarters: 2 };
    /// A win, a forfeit win and a pairing bye.
    pub const ONE: Points = Points { quarters: 4 };

    /// `n` whole points (a melee's VP).
    pub fn whole(n: u64) -> Points {
        Points {
            quarters: n.saturating_mul(4),
        }
    }

    /// `quarters` quarter points.
    #[cfg(test)]
    pub(crate) const fn from_quarters(quarters: u64) -> Points {
        Points { quarters }
    }

    /// Half of these points, rounded down to a quarter: a drawn opponent's share in
    /// Sonneborn-Berger (exact for duel scores, which are whole halves).
    pub fn half(self) -> Points {
        Points {
            quarters: self.quarters / 2,
        }
    }

    /// The points in quarter points, the unit the Swiss pairing's score differences use.
    pub fn quarters(self) -> u64 {
        self.quarters
    }

    /// The points as a number (exact: quarters are binary fractions).
    pub fn as_f64(self) -> f64 {
        self.quarters as f64 / 4.0
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points {
            quarters: self.quarters.saturating_add(other.quarters),
        }
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

/// `3`, `2.5`, `3.75`: the fewest decimals that say it exactly.
impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.quarters / 4;
        match self.quarters % 4 {
            0 => write!(f, "{whole}"),
            1 => write!(f, "{whole}.25"),
            2 => write!(f, "{whole}.5"),
            _ => write!(f, "{whole}.75"),
        }
    }
}

impl Serialize for Points {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.quarters % 4 {
            0 => serializer.serialize_u64(self.quarters / 4),
            _ => serializer.serialize_f64(self.as_f64()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_show_the_fewest_exact_decimals() {
        let shown: Vec<String> = (0..6).map(|q| Points { quarters: q }.to_string()).collect();
        assert_eq!(shown, ["0", "0.25", "0.5", "0.75", "1", "1.25"]);
        assert_eq!(Points::whole(7).to_string(), "7");
        assert_eq!(
            serde_json::to_string(&(Points::ONE + Points::HALF)).unwrap(),
            "1.5"
        );
        assert_eq!(serde_json::to_string(&Points::whole(3)).unwrap(), "3");
        assert_eq!(Points::whole(3).half(), Points { quarters: 6 });
    }
}
