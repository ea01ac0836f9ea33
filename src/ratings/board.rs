//! The leaderboard's length (`docs/ratings.md`, "Leaderboards"): `?limit=` takes 1 to 200.

use std::str::FromStr;

use serde::Deserialize;

/// How many entries a leaderboard shows: 1 to 200, [`Limit::DEFAULT`] when not asked. Reads
/// from a number (a query's `limit`) through serde, refusing one out of range.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(try_from = "u32")]
pub struct Limit(u8);

/// A `limit` outside 1-200, or not a number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("limit is a whole number from {min} to {max}", min = Limit::MIN.0, max = Limit::MAX.0)]
pub struct LimitError;

impl LimitError {
    /// The machine-readable code of the refusal (a 422).
    pub const CODE: &'static str = "bad-limit";
}

impl Limit {
    pub const MIN: Limit = Limit(1);
    pub const MAX: Limit = Limit(200);
    /// A page of a leaderboard when no `limit` is asked for.
    pub const DEFAULT: Limit = Limit(50);

    pub fn new(limit: u32) -> Result<Limit, LimitError> {
        match u8::try_from(limit) {
            Ok(n) if (Limit::MIN.0..=Limit::MAX.0).contains(&n) => Ok(Limit(n)),
            _ => Err(LimitError),
        }
    }

    pub fn get(self) -> usize {
        usize::from(self.0)
    }
}

impl Default for Limit {
    fn default() -> Limit {
        Limit::DEFAULT
    }
}

impl FromStr for Limit {
    type Err = LimitError;

    fn from_str(text: &str) -> Result<Limit, LimitError> {
        text.parse::<u32>()
            .map_err(|_| LimitError)
            .and_then(Limit::new)
    }
}

impl TryFrom<u32> for Limit {
    type Error = LimitError;

    fn try_from(limit: u32) -> Result<Limit, LimitError> {
        Limit::new(limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_is_1_to_200() {
        assert_eq!(Limit::new(0), Err(LimitError));
        assert_eq!(Limit::new(1).unwrap().get(), 1);
        assert_eq!(Limit::new(200).unwrap().get(), 200);
        assert_eq!(Limit::new(201), Err(LimitError));
        assert_eq!(Limit::new(256 + 5), Err(LimitError));
        assert_eq!("25".parse::<Limit>().unwrap().get(), 25);
        assert_eq!("-1".parse::<Limit>(), Err(LimitError));
        assert_eq!("ten".parse::<Limit>(), Err(LimitError));
        assert_eq!(Limit::default().get(), 50);
        assert_eq!(serde_json::from_str::<Limit>("7").unwrap().get(), 7);
        assert!(serde_json::from_str::<Limit>("500").is_err());
    }
}
