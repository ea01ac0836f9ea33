//! Why the Scale of Styles rules refuse settings, a join, a start, an order or a host's act.

use std::fmt;

use super::rulebook::Rulebook;
use super::scale::Technique;
use crate::rules::{self, ROUND_LIMIT};

/// The sides a combat die may have (Ruling 25: d4 d6 d8 d10 d12).
pub const COMBAT_SIDES: [u8; 5] = [4, 6, 8, 10, 12];
/// The most XP a fighter may carry in (keeps the arithmetic far from overflow).
pub const XP_LIMIT: i64 = 1_000_000;
/// The most stamina a fighter may have (S13 suggests 12; a host may vary it).
pub const STAMINA_LIMIT: i64 = 1_000;
/// What is wrong with a `settings.setup` position (rulings §3.5); `entry` counts from 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupProblem {
    /// `round` must be 1..=[`ROUND_LIMIT`].
    RoundOutOfRange { round: u32 },
    /// The setup starts after `max_rounds`, so the match would already be over (Ruling 23).
    RoundPastCap { round: u32, max_rounds: u32 },
    /// A duel has two fighters (§1.3).
    TooManyEntries { entries: usize },
    /// A code in a deck or discard names no card.
    UnknownCard { entry: usize, got: String },
    /// Deck and discard together are not exactly the fighter's pack (§3.5).
    NotThePack { entry: usize },
    /// A deck is never empty at the start of a round (R1, Ruling 30).
    EmptyDeck { entry: usize },
    /// Wounds must be below stamina, or the fighter would be out already (§3.5).
    WoundsNotBelowStamina { entry: usize },
    /// A per-fighter value out of range (the same checks as a join's).
    Fighter {
        entry: usize,
        problem: FighterProblem,
    },
}

/// A per-fighter value out of range, at a join or in a setup (S-1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FighterProblem {
    /// The Level is 0-11 (T3, Ruling 21).
    Level { got: i64 },
    /// XP carried in is 0..=[`XP_LIMIT`] (Ruling 21).
    Xp { got: i64 },
    /// Stamina is 1..=[`STAMINA_LIMIT`] (Ruling 22).
    Stamina { got: i64 },
    /// The combat dice are two of d4 d6 d8 d10 d12 (Ruling 25).
    CombatDice { got: Vec<i64> },
}

/// A refusal from the Scale of Styles rules; [`rules::Refusal::code`] gives its wire code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// `max_players` other than 2 (§1.3): `invalid-max-players`.
    InvalidMaxPlayers { got: u32 },
    /// `max_rounds` outside 1..=[`ROUND_LIMIT`]: `invalid-max-rounds`.
    InvalidMaxRounds { got: u32 },
    /// A key that is no setting of this game: `unknown-setting`.
    UnknownSetting { key: String },
    /// A variant key (§5.1) with a value the rulings do not list: `invalid-setting`.
    InvalidSetting { key: String, problem: String },
    /// A `dice` value that fits no die, or not the die it falls on (§3.5): `invalid-dice`.
    InvalidDice { index: usize, value: i64, sides: u8 },
    /// A setup that could not happen (§3.5): `invalid-setup`.
    InvalidSetup(SetupProblem),
    /// A join's fighter value out of range (S-1): `invalid-fighter`.
    InvalidFighter(FighterProblem),
    /// A join names a character; fighters differ only by their values: `no-characters`.
    NoCharacters,
    /// A start with other than two players (§1.3): `wrong-player-count` (a conflict).
    WrongPlayerCount { got: usize },
    /// The seat owes no answer now: `nothing-owed` (a conflict).
    NothingOwed,
    /// The body answers another step (`cards` at `play`, ...): `wrong-answer-for-step`.
    WrongAnswerForStep {
        step: &'static str,
        expected: &'static str,
    },
    /// The `play` step cannot be declined; every owed fighter plays a card: `cannot-decline`.
    CannotDecline,
    /// A code that names no card: `unknown-card`.
    UnknownCard { got: String },
    /// A card not in this fighter's pack (a Joker beyond `jokers`): `not-in-pack`.
    NotInPack { card: String },
    /// A plan that lists a card twice (§3.3): `duplicate-card`.
    DuplicateCard { card: String },
    /// A played card outside the window (R2, §3.3): `not-in-window`.
    NotInWindow { card: String, window: Vec<String> },
    /// A text that names no technique: `unknown-technique`.
    UnknownTechnique { got: String },
    /// A technique beyond the shift's reach (R6, Ruling 4): `out-of-reach`.
    OutOfReach {
        technique: Technique,
        legal: Vec<Technique>,
    },
    /// The match is over: `game-over` (a conflict).
    GameOver,
    /// The host named a winner who is not in this duel: `unknown-winner`.
    UnknownWinner { got: String },
    /// The host's ending is neither a draw nor one winner: `invalid-ending`.
    InvalidEnding,
}

impl rules::Refusal for Refusal {
    fn code(&self) -> &'static str {
        match self {
            Refusal::InvalidMaxPlayers { .. } => "invalid-max-players",
            Refusal::InvalidMaxRounds { .. } => "invalid-max-rounds",
            Refusal::UnknownSetting { .. } => "unknown-setting",
            Refusal::InvalidSetting { .. } => "invalid-setting",
            Refusal::InvalidDice { .. } => "invalid-dice",
            Refusal::InvalidSetup(_) => "invalid-setup",
            Refusal::InvalidFighter(_) => "invalid-fighter",
            Refusal::NoCharacters => "no-characters",
            Refusal::WrongPlayerCount { .. } => "wrong-player-count",
            Refusal::NothingOwed => "nothing-owed",
            Refusal::WrongAnswerForStep { .. } => "wrong-answer-for-step",
            Refusal::CannotDecline => "cannot-decline",
            Refusal::UnknownCard { .. } => "unknown-card",
            Refusal::NotInPack { .. } => "not-in-pack",
            Refusal::DuplicateCard { .. } => "duplicate-card",
            Refusal::NotInWindow { .. } => "not-in-window",
            Refusal::UnknownTechnique { .. } => "unknown-technique",
            Refusal::OutOfReach { .. } => "out-of-reach",
            Refusal::GameOver => "game-over",
            Refusal::UnknownWinner { .. } => "unknown-winner",
            Refusal::InvalidEnding => "invalid-ending",
        }
    }

    fn is_conflict(&self) -> bool {
        match self {
            Refusal::WrongPlayerCount { .. } | Refusal::NothingOwed | Refusal::GameOver => true,
            Refusal::InvalidMaxPlayers { .. }
            | Refusal::InvalidMaxRounds { .. }
            | Refusal::UnknownSetting { .. }
            | Refusal::InvalidSetting { .. }
            | Refusal::InvalidDice { .. }
            | Refusal::InvalidSetup(_)
            | Refusal::InvalidFighter(_)
            | Refusal::NoCharacters
            | Refusal::WrongAnswerForStep { .. }
            | Refusal::CannotDecline
            | Refusal::UnknownCard { .. }
            | Refusal::NotInPack { .. }
            | Refusal::DuplicateCard { .. }
            | Refusal::NotInWindow { .. }
            | Refusal::UnknownTechnique { .. }
            | Refusal::OutOfReach { .. }
            | Refusal::UnknownWinner { .. }
            | Refusal::InvalidEnding => false,
        }
    }
}

fn ids(techniques: &[Technique]) -> String {
    let ids: Vec<&str> = techniques.iter().map(|t| t.id()).collect();
    ids.join(", ")
}

impl fmt::Display for FighterProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FighterProblem::Level { got } => write!(f, "level must be 0 to 11 (T3), not {got}"),
            FighterProblem::Xp { got } => write!(f, "xp must be 0 to {XP_LIMIT}, not {got}"),
            FighterProblem::Stamina { got } => {
                write!(f, "stamina must be 1 to {STAMINA_LIMIT}, not {got}")
            }
            FighterProblem::CombatDice { got } => write!(
                f,
                "combat_dice must be two dice of {COMBAT_SIDES:?} sides (e.g. [6, 8]), not {got:?}"
            ),
        }
    }
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::RoundOutOfRange { round } => write!(
                f,
                "setup.round must be between 1 and {ROUND_LIMIT}, not {round}"
            ),
            SetupProblem::RoundPastCap { round, max_rounds } => write!(
                f,
                "setup.round {round} is after the last round (max_rounds {max_rounds})"
            ),
            SetupProblem::TooManyEntries { entries } => {
                write!(f, "setup.players lists {entries} fighters; a duel has 2")
            }
            SetupProblem::UnknownCard { entry, got } => {
                write!(
                    f,
                    "setup.players[{entry}]: '{got}' is not a card of the pack"
                )
            }
            SetupProblem::NotThePack { entry } => write!(
                f,
                "setup.players[{entry}]: deck and discard together must be exactly the fighter's pack (52 cards and the Jokers), each card once"
            ),
            SetupProblem::EmptyDeck { entry } => write!(
                f,
                "setup.players[{entry}].deck is empty; a deck is never empty when a round begins"
            ),
            SetupProblem::WoundsNotBelowStamina { entry } => write!(
                f,
                "setup.players[{entry}].wounds must be below the fighter's stamina"
            ),
            SetupProblem::Fighter { entry, problem } => {
                write!(f, "setup.players[{entry}].{problem}")
            }
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::InvalidMaxPlayers { got } => write!(
                f,
                "max_players: the Scale of Styles is a duel of exactly 2, not {got}"
            ),
            Refusal::InvalidMaxRounds { got } => write!(
                f,
                "max_rounds must be between 1 and {ROUND_LIMIT}, not {got}"
            ),
            Refusal::UnknownSetting { key } => write!(
                f,
                "'{key}' is not a Scale of Styles setting; the settings are max_players, max_rounds, seed, dice, setup and the variant keys {}",
                Rulebook::KEYS.join(", ")
            ),
            Refusal::InvalidSetting { key, problem } => {
                write!(f, "the setting {key} is not valid: {problem}")
            }
            Refusal::InvalidDice {
                index,
                value,
                sides,
            } => write!(
                f,
                "dice[{index}] is {value}, which a d{sides} cannot show (8 dice a round: P1's combat dice, d10, d12, then P2's)"
            ),
            Refusal::InvalidSetup(problem) => write!(f, "impossible setup: {problem}"),
            Refusal::InvalidFighter(problem) => write!(f, "{problem}"),
            Refusal::NoCharacters => write!(
                f,
                "the Scale of Styles has no characters: join with level, xp, stamina and combat_dice"
            ),
            Refusal::WrongPlayerCount { got } => write!(
                f,
                "the Scale of Styles is a duel of exactly 2 players, not {got}"
            ),
            Refusal::NothingOwed => write!(f, "you owe no answer now"),
            Refusal::WrongAnswerForStep { step, expected } => {
                write!(f, "the {step} step is answered with {expected}")
            }
            Refusal::CannotDecline => {
                write!(f, "a card must be played; the play step cannot be declined")
            }
            Refusal::UnknownCard { got } => write!(
                f,
                "'{got}' is not a card: write the rank and the suit (9H, 10D, QS, AC) or JK1, JK2"
            ),
            Refusal::NotInPack { card } => write!(f, "{card} is not in your pack"),
            Refusal::DuplicateCard { card } => write!(f, "{card} is listed twice"),
            Refusal::NotInWindow { card, window } => write!(
                f,
                "{card} is not one of the cards you may play now: {}",
                window.join(", ")
            ),
            Refusal::UnknownTechnique { got } => write!(
                f,
                "'{got}' is not a technique: all-out-attack, mixed-offense, mixed-defense, iron-defense"
            ),
            Refusal::OutOfReach { technique, legal } => write!(
                f,
                "{} is beyond your shift; you may answer {}",
                technique.id(),
                ids(legal)
            ),
            Refusal::GameOver => write!(f, "the match is over"),
            Refusal::UnknownWinner { got } => {
                write!(f, "'{got}' is not the id of a player in this duel")
            }
            Refusal::InvalidEnding => write!(
                f,
                "end a duel with {{\"result\": \"draw\"}} or {{\"winner\": \"<player id>\"}}, one of the two"
            ),
        }
    }
}
