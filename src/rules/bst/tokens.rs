//! Tokens: the 80-token set, colours and the `R7` notation (rulings S1, L137, A39).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A token's colour. Red is Blood (Strikes), Blue is Tears (Defenses), Yellow is Sweat
/// (Utility); a Wildcard counts as the most beneficial colour in every check at once (L181-L186, A39).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Colour {
    /// Red, letter `R`: +2 damage on a winning Strike (L182).
    Red,
    /// Yellow, letter `Y`: +1 draw on a winning Power-up (L184).
    Yellow,
    /// Blue, letter `B`: +1 heal on a winning Defense (L183).
    Blue,
    /// Wildcard, letter `W`: every colour where it helps its owner (L186, A39).
    Wild,
}

impl Colour {
    /// All four colours, in notation order.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Yellow, Colour::Blue, Colour::Wild];

    /// How many copies of each number the 80-token set holds in this colour: 4 Blue, 3 Red,
    /// 2 Yellow, 1 Wildcard (S1, L137).
    pub const fn copies(self) -> usize {
        match self {
            Colour::Red => 3,
            Colour::Yellow => 2,
            Colour::Blue => 4,
            Colour::Wild => 1,
        }
    }

    /// The notation letter (`R`, `Y`, `B`, `W`).
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Yellow => 'Y',
            Colour::Blue => 'B',
            Colour::Wild => 'W',
        }
    }

    /// The colour's name for the log.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Yellow => "yellow",
            Colour::Blue => "blue",
            Colour::Wild => "wildcard",
        }
    }
}

/// One token: a colour and a number from 3 to 10. Invalid tokens cannot be built (the fields
/// are private and [`Token::new`] checks the range).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Token {
    colour: Colour,
    number: u8,
}

impl Token {
    /// The lowest token number (L137).
    pub const MIN: u8 = 3;
    /// The highest token number (L137).
    pub const MAX: u8 = 10;

    /// A token, if `number` is within 3-10.
    pub const fn new(colour: Colour, number: u8) -> Option<Token> {
        if number >= Self::MIN && number <= Self::MAX {
            Some(Token { colour, number })
        } else {
            None
        }
    }

    /// The printed colour.
    pub const fn colour(self) -> Colour {
        self.colour
    }

    /// The printed number.
    pub const fn number(self) -> u8 {
        self.number
    }

    /// The number as a signed amount of damage or healing.
    pub const fn value(self) -> i32 {
        self.number as i32
    }

    /// Counts as Red: Red or Wildcard (L182, L186, A39).
    pub const fn is_red(self) -> bool {
        matches!(self.colour, Colour::Red | Colour::Wild)
    }

    /// Counts as Blue: Blue or Wildcard (L183, L186, A39).
    pub const fn is_blue(self) -> bool {
        matches!(self.colour, Colour::Blue | Colour::Wild)
    }

    /// Counts as Yellow: Yellow or Wildcard (L184, L186, A39).
    pub const fn is_yellow(self) -> bool {
        matches!(self.colour, Colour::Yellow | Colour::Wild)
    }

    /// Whether this token matches `played` for the Sentinel's buy-back: same colour, or either
    /// is a Wildcard (A2, A39).
    pub fn matches_colour_of(self, played: Token) -> bool {
        self.colour == Colour::Wild || played.colour == Colour::Wild || self.colour == played.colour
    }

    /// The 80-token set in a fixed canonical order: numbers 3-10, and for each number its
    /// Red, Yellow, Blue and Wildcard copies (S1, L137).
    pub fn full_set() -> Vec<Token> {
        let mut set = Vec::with_capacity(80);
        for number in Self::MIN..=Self::MAX {
            for colour in Colour::ALL {
                for _ in 0..colour.copies() {
                    set.push(Token { colour, number });
                }
            }
        }
        set
    }
}

/// Every token's notation, by colour (in [`Colour::ALL`]'s order) and number less
/// [`Token::MIN`]: written from this table, a token costs no formatting (a duel's state, log,
/// pools and prompts name dozens of tokens on every step).
const CODES: [[&str; 8]; 4] = [
    ["R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10"],
    ["Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "Y10"],
    ["B3", "B4", "B5", "B6", "B7", "B8", "B9", "B10"],
    ["W3", "W4", "W5", "W6", "W7", "W8", "W9", "W10"],
];

impl Token {
    /// The token's notation: its colour letter and its number, `R7`, `W10` (api.md).
    pub const fn code(self) -> &'static str {
        let colour = match self.colour {
            Colour::Red => 0,
            Colour::Yellow => 1,
            Colour::Blue => 2,
            Colour::Wild => 3,
        };
        CODES[colour][(self.number - Self::MIN) as usize]
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Why a token code did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadToken(pub String);

impl fmt::Display for BadToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a token: a colour letter R, Y, B or W followed by a number from 3 to 10",
            self.0
        )
    }
}

impl FromStr for Token {
    type Err = BadToken;

    /// Parses the API notation: a colour letter and a number, `R7`, `W10` (api.md).
    fn from_str(s: &str) -> Result<Token, BadToken> {
        let bad = || BadToken(s.to_owned());
        let mut chars = s.chars();
        let letter = chars.next().ok_or_else(bad)?;
        let colour = Colour::ALL
            .into_iter()
            .find(|c| c.letter() == letter)
            .ok_or_else(bad)?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
            return Err(bad());
        }
        let number: u8 = digits.parse().map_err(|_| bad())?;
        Token::new(colour, number).ok_or_else(bad)
    }
}

impl Serialize for Token {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Token {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Token, D::Error> {
        d.deserialize_str(TokenVisitor)
    }
}

/// Reads a token's notation where the text holds it, without a `String` of its own.
struct TokenVisitor;

impl serde::de::Visitor<'_> for TokenVisitor {
    type Value = Token;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a token such as \"R7\"")
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Token, E> {
        s.parse().map_err(E::custom)
    }
}

/// Shows a list of tokens as `B3 R7` for the log.
pub fn show(tokens: &[Token]) -> String {
    if tokens.is_empty() {
        return "nothing".to_owned();
    }
    tokens
        .iter()
        .map(Token::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Removes one copy of each of `tokens` from `hand`, if the hand holds them all (counting
/// repeats); otherwise leaves the hand unchanged and answers false.
pub fn take_all(hand: &mut Vec<Token>, tokens: &[Token]) -> bool {
    let mut rest = hand.clone();
    for t in tokens {
        match rest.iter().position(|h| h == t) {
            Some(i) => {
                rest.remove(i);
            }
            None => return false,
        }
    }
    *hand = rest;
    true
}

/// Whether `hand` holds every one of `tokens`, counting repeats.
pub fn holds_all(hand: &[Token], tokens: &[Token]) -> bool {
    let mut rest = hand.to_vec();
    take_all(&mut rest, tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_set_holds_eighty_tokens_ten_of_each_number_s1() {
        let set = Token::full_set();
        assert_eq!(set.len(), 80);
        for n in 3..=10 {
            assert_eq!(set.iter().filter(|t| t.number() == n).count(), 10);
        }
        let count = |c| set.iter().filter(|t| t.colour() == c).count();
        assert_eq!(
            (
                count(Colour::Blue),
                count(Colour::Red),
                count(Colour::Yellow),
                count(Colour::Wild)
            ),
            (32, 24, 16, 8)
        );
    }

    #[test]
    fn token_codes_round_trip_and_bad_codes_are_refused_api_md() {
        for t in Token::full_set() {
            assert_eq!(t.code(), format!("{}{}", t.colour().letter(), t.number()));
            assert_eq!(t.to_string().parse::<Token>(), Ok(t));
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(json, format!("\"{}\"", t.code()));
            assert_eq!(serde_json::from_str::<Token>(&json).unwrap(), t);
        }
        // JSON may escape any character: the notation is read from the unescaped text.
        assert_eq!(
            serde_json::from_str::<Token>(r#""\u0052\u0037""#).unwrap(),
            Token::new(Colour::Red, 7).unwrap()
        );
        assert!(serde_json::from_str::<Token>(r#""R2""#).is_err());
        assert!(serde_json::from_str::<Token>("7").is_err());
        for bad in [
            "", "R", "R2", "R11", "X5", "r5", "R05x", "R+5", "W100", "B 3",
        ] {
            assert!(bad.parse::<Token>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_wildcard_counts_as_every_colour_a39() {
        let w = Token::new(Colour::Wild, 5).unwrap();
        assert!(w.is_red() && w.is_blue() && w.is_yellow());
        let r = Token::new(Colour::Red, 5).unwrap();
        assert!(r.is_red() && !r.is_blue() && !r.is_yellow());
        let b = Token::new(Colour::Blue, 9).unwrap();
        assert!(w.matches_colour_of(b) && b.matches_colour_of(w) && !r.matches_colour_of(b));
    }
}
