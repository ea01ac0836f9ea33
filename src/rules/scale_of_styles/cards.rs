//! The cards: each fighter's own pack of 52 cards and up to two Jokers (T1, Ruling 12), the
//! notation `9H`, `10D`, `QS`, `AC`, `JK1`, and what a card means when played (§4, Rulings 7
//! and 8): its starting technique and its Reaction Speed.

use std::fmt;
use std::str::FromStr;

use rand::seq::SliceRandom;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::scale::Technique;
use crate::rules::GameRng;

/// A suit, in the canonical order of S-2 (C, D, H, S).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
}

impl Suit {
    /// The four suits in canonical order (S-2).
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The notation letter.
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    /// Black cards (♣ ♠) start in Mixed Defense, red ones (♥ ♦) in Mixed Offense (S5, T4,
    /// Ruling 7).
    pub const fn starting_technique(self) -> Technique {
        match self {
            Suit::Clubs | Suit::Spades => Technique::MixedDefense,
            Suit::Diamonds | Suit::Hearts => Technique::MixedOffense,
        }
    }
}

/// A rank, in canonical order (A, 2-10, J, Q, K); its number is 1 to 13.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    /// The Ace.
    pub const ACE: Rank = Rank(1);

    /// Every rank in canonical order.
    pub fn all() -> impl Iterator<Item = Rank> {
        (1..=13).map(Rank)
    }

    /// J, Q and K: face cards, which take their Reaction Speed from the Level (T4) and are
    /// worth 1 XP each in the victor's deck (T10, Ruling 20). Aces and Jokers are not.
    pub const fn is_face(self) -> bool {
        self.0 > 10
    }

    /// 1 for the Ace, 2-10 for the pips, 11-13 for J, Q, K.
    pub const fn number(self) -> u8 {
        self.0
    }

    fn code(self) -> &'static str {
        const CODES: [&str; 13] = [
            "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ];
        CODES[usize::from(self.0 - 1)]
    }
}

/// One card of a fighter's pack. The derived order is the canonical order of S-2: suits C,
/// D, H, S, each A to K, then JK1, JK2 (used only to make shuffles reproducible).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Card {
    /// A standard card.
    Suited { suit: Suit, rank: Rank },
    /// A Joker, numbered 1 or 2 (`JK1`, `JK2`): a Signature Move (T8, S15).
    Joker(u8),
}

impl Card {
    /// A fighter's whole pack, in canonical order: 52 cards and `jokers` Jokers (S-2, Ruling 12).
    pub fn pack(jokers: u8) -> Vec<Card> {
        let mut pack: Vec<Card> = Suit::ALL
            .into_iter()
            .flat_map(|suit| Rank::all().map(move |rank| Card::Suited { suit, rank }))
            .collect();
        pack.extend((1..=jokers).map(Card::Joker));
        pack
    }

    /// The technique the card starts the fighter in: black MD, red MO, a Joker MO (Ruling 7).
    pub const fn starting_technique(self) -> Technique {
        match self {
            Card::Suited { suit, .. } => suit.starting_technique(),
            Card::Joker(_) => Technique::MixedOffense,
        }
    }

    /// Whether this is a J, Q or K (T10, Ruling 20).
    pub const fn is_face(self) -> bool {
        match self {
            Card::Suited { rank, .. } => rank.is_face(),
            Card::Joker(_) => false,
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Suited { suit, rank } => write!(f, "{}{}", rank.code(), suit.letter()),
            Card::Joker(n) => write!(f, "JK{n}"),
        }
    }
}

/// A code that names no card: the text as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCard(pub String);

impl fmt::Display for UnknownCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a card: write the rank and the suit (9H, 10D, QS, AC) or JK1, JK2",
            self.0
        )
    }
}

impl FromStr for Card {
    type Err = UnknownCard;

    fn from_str(text: &str) -> Result<Card, UnknownCard> {
        let unknown = || UnknownCard(text.to_owned());
        match text {
            "JK1" => return Ok(Card::Joker(1)),
            "JK2" => return Ok(Card::Joker(2)),
            _ => {}
        }
        let (rank, suit) = text
            .split_at_checked(text.len().saturating_sub(1))
            .ok_or_else(unknown)?;
        let suit = Suit::ALL
            .into_iter()
            .find(|s| suit.len() == 1 && suit.starts_with(s.letter()))
            .ok_or_else(unknown)?;
        let rank = Rank::all().find(|r| r.code() == rank).ok_or_else(unknown)?;
        Ok(Card::Suited { suit, rank })
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// How an Ace reads as a Reaction Speed: 1 (its number, the default) or 11 (Ruling 8,
/// variant `ace_speed`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum AceSpeed {
    #[default]
    One,
    Eleven,
}

/// A card's Reaction Speed (T4, Ruling 8): 2-10 their pip value, an Ace 1 (or 11 with
/// `ace_speed=11`), J/Q/K the fighter's Level; a Joker has none (its Initiative is 2, T8).
pub fn reaction_speed(card: Card, level: u8, ace: AceSpeed) -> Option<u8> {
    match card {
        Card::Joker(_) => None,
        Card::Suited { rank, .. } if rank.is_face() => Some(level),
        Card::Suited { rank, .. } if rank == Rank::ACE => Some(match ace {
            AceSpeed::One => 1,
            AceSpeed::Eleven => 11,
        }),
        Card::Suited { rank, .. } => Some(rank.number()),
    }
}

/// The cards of `pack` not in `used`, shuffled from canonical order with the game's RNG.
pub fn shuffled_rest(pack: &[Card], used: &[Card], rng: &mut GameRng) -> Vec<Card> {
    let mut rest: Vec<Card> = pack.iter().filter(|c| !used.contains(c)).copied().collect();
    rest.shuffle(rng);
    rest
}

/// The deck a plan makes (S-3): the listed cards on top in order, then the rest of the pack
/// shuffled with the game's RNG.
pub fn plan_deck(pack: &[Card], listed: &[Card], rng: &mut GameRng) -> Vec<Card> {
    let mut deck = listed.to_vec();
    deck.extend(shuffled_rest(pack, listed, rng));
    deck
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_of_the_pack_reads_back_from_its_code_in_canonical_order() {
        let pack = Card::pack(2);
        assert_eq!(pack.len(), 54);
        let codes: Vec<String> = pack.iter().map(Card::to_string).collect();
        assert_eq!(&codes[..3], ["AC", "2C", "3C"]);
        assert_eq!(&codes[51..], ["KS", "JK1", "JK2"]);
        for card in &pack {
            assert_eq!(card.to_string().parse::<Card>(), Ok(*card));
        }
        let mut sorted = pack.clone();
        sorted.sort();
        assert_eq!(
            sorted, pack,
            "the derived order is the canonical order (S-2)"
        );
        for bad in ["", "1H", "11S", "JK3", "9X", "h9", "10", "QSS", "JK"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn ruling_8_reaction_speed_pips_ace_faces_and_jokers() {
        let rs = |code: &str, level| reaction_speed(code.parse().unwrap(), level, AceSpeed::One);
        assert_eq!(rs("9H", 0), Some(9));
        assert_eq!(rs("AD", 0), Some(1));
        assert_eq!(rs("KH", 0), Some(0));
        assert_eq!(rs("QS", 11), Some(11));
        assert_eq!(rs("JK1", 5), None);
        let ace = reaction_speed("AS".parse().unwrap(), 3, AceSpeed::Eleven);
        assert_eq!(ace, Some(11));
    }

    #[test]
    fn ruling_7_black_starts_mixed_defense_red_and_jokers_mixed_offense() {
        let start = |code: &str| code.parse::<Card>().unwrap().starting_technique();
        assert_eq!(start("5C"), Technique::MixedDefense);
        assert_eq!(start("JS"), Technique::MixedDefense);
        assert_eq!(start("9H"), Technique::MixedOffense);
        assert_eq!(start("10D"), Technique::MixedOffense);
        assert_eq!(start("JK2"), Technique::MixedOffense);
    }
}
