//! Why the Contests rules refuse settings, a build, a start, an order or a host's act
//! (§3.7's last paragraph, §5.1, §3.9).

use std::fmt;

use crate::rules;

/// A refusal from the Contests rules; [`rules::Refusal::code`] gives its wire code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A key that is no setting of this game (§5.1): `unknown-setting`.
    UnknownSetting { key: String },
    /// A variant key out of its range (§5.1): `invalid-setting`.
    InvalidSetting { key: String, problem: String },
    /// `max_players` other than 2 (§1.3): `invalid-max-players`.
    InvalidMaxPlayers { got: u32 },
    /// A `decks` hook that is not each combatant's 17 cards (§3.9): `invalid-decks`.
    InvalidDecks { problem: String },
    /// A `default_dice` value outside 1-6 (§3.9): `invalid-default-dice`.
    InvalidDefaultDice { index: usize, value: i64 },
    /// A `setup` that could not happen (§3.9): `invalid-setup`.
    InvalidSetup { problem: String },
    /// A build the rules do not allow (§2.1): `invalid-build`.
    InvalidBuild { problem: String },
    /// A start with other than two players (§1.3): `wrong-player-count` (a conflict).
    WrongPlayerCount { got: usize },
    /// The seat owes no answer now: `nothing-owed` (a conflict).
    NothingOwed,
    /// The duel is over: `game-over` (a conflict).
    GameOver,
    /// An order for another contest or tie-break (§3.1): `wrong-contest` (a conflict).
    WrongContest { expected: String },
    /// An order at `set`, `face-up`, `tie` or `discard` that names no contest (§3.1):
    /// `missing-contest`.
    MissingContest,
    /// The body answers another step: `wrong-answer-for-step`.
    WrongAnswerForStep {
        step: &'static str,
        expected: &'static str,
    },
    /// A name that is no card, ability, spell, phase or wish of §4: `unknown-id`.
    UnknownId { what: &'static str, got: String },
    /// A wish the step does not allow (W0): `invalid-wish`.
    InvalidWish { wish: String, allowed: String },
    /// A `next` order without a wish (W0): `missing-wish`.
    MissingWish,
    /// A card not in the hand: `not-in-hand`.
    NotInHand { card: String },
    /// A card listed twice: `duplicate-card`.
    DuplicateCard { card: String },
    /// An ability the build lacks: `not-in-build`.
    NotInBuild { ability: String },
    /// A window action or a declaration not legal now (W0, P1): `not-now`.
    NotNow { what: String, why: String },
    /// A monster may not end, flee or teleport away (Ruling 15): `monster`.
    Monster { what: &'static str },
    /// A cost he cannot pay (§2.2): `cannot-afford`.
    CannotAfford { cost: u32, energy: u32 },
    /// A die outside 1-6 (K1): `invalid-die`.
    InvalidDie { got: i64 },
    /// A `set` or `tie` without a die: `missing-die`.
    MissingDie,
    /// A guess outside 1-6 (K1): `invalid-guess`.
    InvalidGuess { got: i64 },
    /// A guess listed twice (K1): `duplicate-guess`.
    DuplicateGuess { got: i64 },
    /// More guesses than allowed (§2.4): `too-many-guesses`.
    TooManyGuesses { got: usize, allowed: u32 },
    /// A Gift of Fury amount below 0 (P1): `invalid-fury`.
    InvalidFury { got: i64 },
    /// A `discard` that does not name two cards (A5): `discard-two`.
    DiscardTwo { got: usize },
    /// The host named a winner who is not in this duel: `unknown-winner`.
    UnknownWinner { got: String },
    /// The host's ending is neither a draw nor one winner: `invalid-ending`.
    InvalidEnding,
}

impl rules::Refusal for Refusal {
    fn code(&self) -> &'static str {
        match self {
            Refusal::UnknownSetting { .. } => "unknown-setting",
            Refusal::InvalidSetting { .. } => "invalid-setting",
            Refusal::InvalidMaxPlayers { .. } => "invalid-max-players",
            Refusal::InvalidDecks { .. } => "invalid-decks",
            Refusal::InvalidDefaultDice { .. } => "invalid-default-dice",
            Refusal::InvalidSetup { .. } => "invalid-setup",
            Refusal::InvalidBuild { .. } => "invalid-build",
            Refusal::WrongPlayerCount { .. } => "wrong-player-count",
            Refusal::NothingOwed => "nothing-owed",
            Refusal::GameOver => "game-over",
            Refusal::WrongContest { .. } => "wrong-contest",
            Refusal::MissingContest => "missing-contest",
            Refusal::WrongAnswerForStep { .. } => "wrong-answer-for-step",
            Refusal::UnknownId { .. } => "unknown-id",
            Refusal::InvalidWish { .. } => "invalid-wish",
            Refusal::MissingWish => "missing-wish",
            Refusal::NotInHand { .. } => "not-in-hand",
            Refusal::DuplicateCard { .. } => "duplicate-card",
            Refusal::NotInBuild { .. } => "not-in-build",
            Refusal::NotNow { .. } => "not-now",
            Refusal::Monster { .. } => "monster",
            Refusal::CannotAfford { .. } => "cannot-afford",
            Refusal::InvalidDie { .. } => "invalid-die",
            Refusal::MissingDie => "missing-die",
            Refusal::InvalidGuess { .. } => "invalid-guess",
            Refusal::DuplicateGuess { .. } => "duplicate-guess",
            Refusal::TooManyGuesses { .. } => "too-many-guesses",
            Refusal::InvalidFury { .. } => "invalid-fury",
            Refusal::DiscardTwo { .. } => "discard-two",
            Refusal::UnknownWinner { .. } => "unknown-winner",
            Refusal::InvalidEnding => "invalid-ending",
        }
    }

    /// §3.7: an order for another round, step, contest or tie-break, or from a player who
    /// owes nothing, is a conflict (409); a start with other than two players too (§1.3).
    fn is_conflict(&self) -> bool {
        matches!(
            self,
            Refusal::WrongPlayerCount { .. }
                | Refusal::NothingOwed
                | Refusal::GameOver
                | Refusal::WrongContest { .. }
        )
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::UnknownSetting { key } => write!(
                f,
                "'{key}' is not a Contests setting; the settings are the variant keys hp, energy, points, max_abilities, base_guesses, max_ties, max_phases, opening_hand, hand_limit, escape_result, cap_result, initiator and the hooks seed, decks, default_dice, setup"
            ),
            Refusal::InvalidSetting { key, problem } => {
                write!(f, "the setting {key} is not valid: {problem}")
            }
            Refusal::InvalidMaxPlayers { got } => {
                write!(f, "max_players: Contests is a duel of exactly 2, not {got}")
            }
            Refusal::InvalidDecks { problem } => write!(f, "decks: {problem}"),
            Refusal::InvalidDefaultDice { index, value } => {
                write!(f, "default_dice[{index}] is {value}; a die shows 1 to 6")
            }
            Refusal::InvalidSetup { problem } => write!(f, "impossible setup: {problem}"),
            Refusal::InvalidBuild { problem } => write!(f, "build: {problem}"),
            Refusal::WrongPlayerCount { got } => {
                write!(f, "Contests is a duel of exactly 2 players, not {got}")
            }
            Refusal::NothingOwed => write!(f, "you owe no answer now"),
            Refusal::GameOver => write!(f, "the duel is over"),
            Refusal::WrongContest { expected } => {
                write!(
                    f,
                    "that order is for another contest; the open one is {expected}"
                )
            }
            Refusal::MissingContest => {
                write!(f, "name the contest this order answers (\"contest\": k)")
            }
            Refusal::WrongAnswerForStep { step, expected } => {
                write!(f, "the {step} step is answered with {expected}")
            }
            Refusal::UnknownId { what, got } => write!(f, "'{got}' is not a {what} of the duel"),
            Refusal::InvalidWish { wish, allowed } => {
                write!(
                    f,
                    "the wish {wish} is not allowed now; you may wish {allowed}"
                )
            }
            Refusal::MissingWish => write!(f, "a next order holds a wish"),
            Refusal::NotInHand { card } => write!(f, "{card} is not in your hand"),
            Refusal::DuplicateCard { card } => write!(f, "{card} is listed twice"),
            Refusal::NotInBuild { ability } => write!(f, "your build has no {ability}"),
            Refusal::NotNow { what, why } => write!(f, "{what} is not possible now: {why}"),
            Refusal::Monster { what } => write!(f, "a monster may not {what}"),
            Refusal::CannotAfford { cost, energy } => {
                write!(f, "that costs {cost} energy and you have {energy}")
            }
            Refusal::InvalidDie { got } => write!(f, "a die shows 1 to 6, not {got}"),
            Refusal::MissingDie => write!(f, "set a die, 1 to 6"),
            Refusal::InvalidGuess { got } => write!(f, "a guess is 1 to 6, not {got}"),
            Refusal::DuplicateGuess { got } => write!(f, "the guess {got} is listed twice"),
            Refusal::TooManyGuesses { got, allowed } => {
                write!(f, "{got} guesses; you may name at most {allowed}")
            }
            Refusal::InvalidFury { got } => {
                write!(f, "fury is the energy spent, 0 or more, not {got}")
            }
            Refusal::DiscardTwo { got } => write!(f, "discard exactly two cards, not {got}"),
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
