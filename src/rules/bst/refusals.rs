//! Why the BST rules refuse settings, a join, an order or a host's act: a reason enum whose
//! [`rules::Refusal::code`] is the wire code (422, or 409 where the state rather than the input
//! is wrong). The codes are the ones Crossing Swords speaks where the idea is the same
//! (`nothing-owed`, `game-over`, `invalid-setup`, `not-in-play`, `invalid-ending`...).

use std::fmt;

use super::characters::Character;
use super::moves::BadMove;
use super::state::Step;
use super::tokens::{BadToken, Token, show};
use crate::rules::{self, ROUND_LIMIT, Seat};

/// What is wrong with the settings' `setup` or token lists (api.md "Starting from a position";
/// S1-S4). Each problem keeps its own code, since each names a different rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupProblem {
    /// HP outside 1..=the highest start at the play step (L287): `hp-out-of-range`.
    HpOutOfRange { entry: usize, hp: i64, limit: i64 },
    /// Charges outside 0-5 (L139): `charges-out-of-range`.
    ChargesOutOfRange { entry: usize, charges: i64 },
    /// Poison counters outside 0..=the setup's limit (T2): `poison-out-of-range`.
    PoisonOutOfRange {
        entry: usize,
        poison: i64,
        limit: i64,
    },
    /// A hand over 9 tokens (L138): `hand-too-large`.
    HandTooLarge { entry: usize },
    /// An empty hand at the play step (A35): `empty-hand`.
    EmptyHand { entry: usize },
    /// `setup.round` outside 1..=[`ROUND_LIMIT`]: `invalid-round`.
    RoundOutOfRange { round: u32 },
    /// `setup.round` after the host's `max_rounds`: `invalid-round`.
    RoundPastCap,
    /// More than two setup players (BST is a duel): `too-many-setup-players`.
    TooManyPlayers,
    /// Both players Off-Balance at a reveal (L188, A18): `both-off-balance`.
    BothOffBalance,
    /// A list longer than the 80-token set (S1): `too-many-tokens`.
    TooManyTokens {
        field: &'static str,
        got: usize,
        set: usize,
    },
    /// The pool given twice, in `pool` and `setup.pool`: `conflicting-pools`.
    ConflictingPools,
    /// More copies of a token than the set holds (S1): `too-many-copies`.
    TooManyCopies {
        token: Token,
        got: usize,
        set: usize,
    },
    /// With an explicit pool, hands, pool and discard must hold exactly the 80 tokens (S1):
    /// `tokens-not-accounted`.
    TokensNotAccounted { held: usize },
    /// The pool cannot deal the missing hands and keep a token (A15): `pool-too-short`.
    PoolTooShort { explicit: bool },
    /// HP above the character's start (L287 and the characters' starts): `hp-above-start`.
    HpAboveStart {
        seat: Seat,
        hp: i32,
        character: Character,
    },
    /// A free turn for a character that is no Warpriest (L292): `invalid-setup`.
    FreeTurnNotWarpriest { seat: Seat },
    /// A Piercing Strike set aside without a Channeler opponent, or while Charges are held
    /// (L307): `invalid-setup`.
    SetAsideImpossible { seat: Seat },
}

/// Which count of tokens an answer must hold (A2, A16, A40).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TokenCount {
    /// `overflow`: exactly the tokens over 9 (A16).
    Overflow { need: usize },
    /// `buy-tiebreak`: exactly two (A2).
    BuyBack,
    /// `finishing-extras`: 1 to the character's extras (A40).
    FinishingExtras { max: usize },
}

/// Why a token named in an answer is not one of the step's choices (A2, A25, A33, A34).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NotAChoice {
    /// The buy-back's tokens must match the played token's colour (A2).
    BuyBackColour,
    /// Only the Assassin may Follow-up with a random pool token, while the pool holds one
    /// (L298, A25).
    RandomPool,
    /// The token is not in the list the pick is made from (A33, A34).
    NotPickable(Token),
}

/// What is wrong with the host's ending of a duel (`host_acts.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndingProblem {
    /// `result` names something other than `draw`.
    NotADraw(String),
    /// Neither or both of `result` and `winner`.
    NotExactlyOne,
}

/// A refusal from the BST rules; [`rules::Refusal::code`] gives its wire code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// `max_players` other than 2: BST is a duel: `invalid-max-players`.
    InvalidMaxPlayers,
    /// `max_rounds` outside 1..=[`ROUND_LIMIT`]: `invalid-max-rounds`.
    InvalidMaxRounds { got: u32 },
    /// A setup or token list that could not happen: the problem's own code.
    InvalidSetup(SetupProblem),
    /// A token code that is not one of the set (S1): `unknown-token`.
    UnknownToken(BadToken),
    /// A tile name that is not one of the ten (§3.3): `unknown-move`.
    UnknownMove(BadMove),
    /// A join names no character (§3.5): `unknown-character`.
    UnknownCharacter { got: String },
    /// Not exactly two entrants: `wrong-player-count` (a conflict, as the host says it).
    WrongPlayerCount,
    /// The game is over (§2.2): `game-over` (a conflict).
    GameOver,
    /// The seat owes no answer at this step: `nothing-owed` (a conflict).
    NothingOwed,
    /// The answer's fields are not what the step takes (§2.3): `wrong-answer-for-step`.
    WrongAnswerForStep { step: Step, takes: &'static str },
    /// A standing fallback order that is not a play: `wrong-answer-for-step`.
    FallbackNotAPlay,
    /// `{"decline": true}` at a forced step (§2.3): `cannot-decline`.
    CannotDecline { step: Step },
    /// The answer names tokens the hand does not hold: `token-not-in-hand`.
    TokenNotInHand { hand: Vec<Token>, named: Vec<Token> },
    /// Too few or too many tokens for the step: `wrong-number-of-tokens`.
    WrongNumberOfTokens(TokenCount),
    /// A token the step does not offer: `not-a-legal-choice`.
    NotALegalChoice(NotAChoice),
    /// Gather Power takes two tokens of one number (L187): `not-a-pair`.
    NotAPair,
    /// The host cannot remove a seat that is not in the duel: `not-in-play` (a conflict).
    NotInPlay { seat: Seat },
    /// The host's ending names a winner who is no player of the duel: `unknown-winner`.
    UnknownWinner { got: String },
    /// The host's ending is not exactly a draw or a winner: `invalid-ending`.
    InvalidEnding(EndingProblem),
}

impl SetupProblem {
    /// The problem's wire code.
    pub fn code(&self) -> &'static str {
        match self {
            SetupProblem::HpOutOfRange { .. } => "hp-out-of-range",
            SetupProblem::ChargesOutOfRange { .. } => "charges-out-of-range",
            SetupProblem::PoisonOutOfRange { .. } => "poison-out-of-range",
            SetupProblem::HandTooLarge { .. } => "hand-too-large",
            SetupProblem::EmptyHand { .. } => "empty-hand",
            SetupProblem::RoundOutOfRange { .. } | SetupProblem::RoundPastCap => "invalid-round",
            SetupProblem::TooManyPlayers => "too-many-setup-players",
            SetupProblem::BothOffBalance => "both-off-balance",
            SetupProblem::TooManyTokens { .. } => "too-many-tokens",
            SetupProblem::ConflictingPools => "conflicting-pools",
            SetupProblem::TooManyCopies { .. } => "too-many-copies",
            SetupProblem::TokensNotAccounted { .. } => "tokens-not-accounted",
            SetupProblem::PoolTooShort { .. } => "pool-too-short",
            SetupProblem::HpAboveStart { .. } => "hp-above-start",
            SetupProblem::FreeTurnNotWarpriest { .. } | SetupProblem::SetAsideImpossible { .. } => {
                "invalid-setup"
            }
        }
    }
}

impl rules::Refusal for Refusal {
    fn code(&self) -> &'static str {
        match self {
            Refusal::InvalidMaxPlayers => "invalid-max-players",
            Refusal::InvalidMaxRounds { .. } => "invalid-max-rounds",
            Refusal::InvalidSetup(problem) => problem.code(),
            Refusal::UnknownToken(_) => "unknown-token",
            Refusal::UnknownMove(_) => "unknown-move",
            Refusal::UnknownCharacter { .. } => "unknown-character",
            Refusal::WrongPlayerCount => "wrong-player-count",
            Refusal::GameOver => "game-over",
            Refusal::NothingOwed => "nothing-owed",
            Refusal::WrongAnswerForStep { .. } | Refusal::FallbackNotAPlay => {
                "wrong-answer-for-step"
            }
            Refusal::CannotDecline { .. } => "cannot-decline",
            Refusal::TokenNotInHand { .. } => "token-not-in-hand",
            Refusal::WrongNumberOfTokens(_) => "wrong-number-of-tokens",
            Refusal::NotALegalChoice(_) => "not-a-legal-choice",
            Refusal::NotAPair => "not-a-pair",
            Refusal::NotInPlay { .. } => "not-in-play",
            Refusal::UnknownWinner { .. } => "unknown-winner",
            Refusal::InvalidEnding(_) => "invalid-ending",
        }
    }

    fn is_conflict(&self) -> bool {
        match self {
            Refusal::WrongPlayerCount
            | Refusal::GameOver
            | Refusal::NothingOwed
            | Refusal::NotInPlay { .. } => true,
            Refusal::InvalidMaxPlayers
            | Refusal::InvalidMaxRounds { .. }
            | Refusal::InvalidSetup(_)
            | Refusal::UnknownToken(_)
            | Refusal::UnknownMove(_)
            | Refusal::UnknownCharacter { .. }
            | Refusal::WrongAnswerForStep { .. }
            | Refusal::FallbackNotAPlay
            | Refusal::CannotDecline { .. }
            | Refusal::TokenNotInHand { .. }
            | Refusal::WrongNumberOfTokens(_)
            | Refusal::NotALegalChoice(_)
            | Refusal::NotAPair
            | Refusal::UnknownWinner { .. }
            | Refusal::InvalidEnding(_) => false,
        }
    }
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::HpOutOfRange { entry, hp, limit } => write!(
                f,
                "setup.players[{entry}].hp (player {}) must be between 1 and {limit} at the play step, not {hp}",
                entry + 1
            ),
            SetupProblem::ChargesOutOfRange { entry, charges } => write!(
                f,
                "setup.players[{entry}].charges (player {}) must be 0-5 (L139), not {charges}",
                entry + 1
            ),
            SetupProblem::PoisonOutOfRange {
                entry,
                poison,
                limit,
            } => write!(
                f,
                "setup.players[{entry}].poison (player {}) must be between 0 and {limit}, not {poison}",
                entry + 1
            ),
            SetupProblem::HandTooLarge { entry } => write!(
                f,
                "setup.players[{entry}].hand (player {}) holds more than 9 tokens (L138)",
                entry + 1
            ),
            SetupProblem::EmptyHand { entry } => write!(
                f,
                "setup.players[{entry}].hand (player {}) is empty, which cannot happen at the play step (A35)",
                entry + 1
            ),
            SetupProblem::RoundOutOfRange { round } => write!(
                f,
                "setup.round must be between 1 and {ROUND_LIMIT}, not {round}"
            ),
            SetupProblem::RoundPastCap => f.write_str("setup.round is beyond max_rounds"),
            SetupProblem::TooManyPlayers => {
                f.write_str("setup.players: a BST setup has at most two players")
            }
            SetupProblem::BothOffBalance => {
                f.write_str("both players cannot be Off-Balance at a reveal (L188, A18)")
            }
            SetupProblem::TooManyTokens { field, got, set } => {
                write!(f, "{field} lists {got} tokens; the set has {set} (S1)")
            }
            SetupProblem::ConflictingPools => {
                f.write_str("give the pool either in `pool` or in `setup.pool`, not both")
            }
            SetupProblem::TooManyCopies { token, got, set } => {
                write!(f, "{token} appears {got} times; the set has {set} (S1)")
            }
            SetupProblem::TokensNotAccounted { held } => write!(
                f,
                "hands, pool and discard hold {held} tokens; with an explicit pool they must hold exactly the 80-token set (S1)"
            ),
            SetupProblem::PoolTooShort { explicit: true } => {
                f.write_str("the pool must deal the missing hands and still hold a token (A15)")
            }
            SetupProblem::PoolTooShort { explicit: false } => {
                f.write_str("no tokens would be left in the pool (A15)")
            }
            SetupProblem::HpAboveStart {
                seat,
                hp,
                character,
            } => write!(
                f,
                "player {}'s HP {hp} is above the {character}'s start of {}",
                seat.0 + 1,
                character.start_hp()
            ),
            SetupProblem::FreeTurnNotWarpriest { seat } => write!(
                f,
                "player {} is not a Warpriest, so cannot have a free turn (L292)",
                seat.0 + 1
            ),
            SetupProblem::SetAsideImpossible { seat } => write!(
                f,
                "player {}'s Piercing Strike can be set aside only by a Channeler while they hold no Charge (L307)",
                seat.0 + 1
            ),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::InvalidMaxPlayers => {
                f.write_str("max_players: BST is always played by exactly 2 players")
            }
            Refusal::InvalidMaxRounds { got } => write!(
                f,
                "max_rounds must be between 1 and {ROUND_LIMIT}, not {got}"
            ),
            Refusal::InvalidSetup(problem) => problem.fmt(f),
            Refusal::UnknownToken(bad) => bad.fmt(f),
            Refusal::UnknownMove(bad) => bad.fmt(f),
            Refusal::UnknownCharacter { got } => write!(
                f,
                "`{got}` is not a character: sellsword, sentinel, warpriest, assassin, channeler, razorbeast"
            ),
            Refusal::WrongPlayerCount => f.write_str("BST needs exactly 2 players"),
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::NothingOwed => f.write_str("you owe no answer at this step"),
            Refusal::WrongAnswerForStep { step, takes } => {
                write!(f, "the {step} step takes {takes}")
            }
            Refusal::FallbackNotAPlay => {
                f.write_str("a fallback order is a play: a `move` and a `token`")
            }
            Refusal::CannotDecline { step } => write!(f, "the {step} step is not optional"),
            Refusal::TokenNotInHand { hand, named } => write!(
                f,
                "your hand ({}) does not hold {}",
                show(hand),
                show(named)
            ),
            Refusal::WrongNumberOfTokens(TokenCount::Overflow { need }) => {
                write!(f, "discard exactly {need} token(s) to get down to 9")
            }
            Refusal::WrongNumberOfTokens(TokenCount::BuyBack) => {
                f.write_str("the buy-back takes exactly two tokens (A2)")
            }
            Refusal::WrongNumberOfTokens(TokenCount::FinishingExtras { max }) => {
                write!(f, "add 1 to {max} token(s), or decline (A40)")
            }
            Refusal::NotALegalChoice(NotAChoice::BuyBackColour) => f.write_str(
                "both tokens must match the colour of the token you played (A2)",
            ),
            Refusal::NotALegalChoice(NotAChoice::RandomPool) => f.write_str(
                "only the Assassin may Follow-up with a random pool token (L298)",
            ),
            Refusal::NotALegalChoice(NotAChoice::NotPickable(token)) => {
                write!(f, "{token} is not among the tokens you may pick")
            }
            Refusal::NotAPair => {
                f.write_str("Gather Power takes two tokens of the same number (L187)")
            }
            Refusal::NotInPlay { seat } => write!(f, "seat {} is not in this duel", seat.0),
            Refusal::UnknownWinner { got } => {
                write!(f, "'{got}' is not the id of a player in this duel")
            }
            Refusal::InvalidEnding(EndingProblem::NotADraw(other)) => write!(
                f,
                "\"result\" can only be \"draw\", not {other:?}; or name a \"winner\""
            ),
            Refusal::InvalidEnding(EndingProblem::NotExactlyOne) => f.write_str(
                "end a duel with {\"result\": \"draw\"} or {\"winner\": \"<player id>\"}, one of the two",
            ),
        }
    }
}

impl From<BadToken> for Refusal {
    fn from(bad: BadToken) -> Refusal {
        Refusal::UnknownToken(bad)
    }
}

impl From<BadMove> for Refusal {
    fn from(bad: BadMove) -> Refusal {
        Refusal::UnknownMove(bad)
    }
}

impl From<SetupProblem> for Refusal {
    fn from(problem: SetupProblem) -> Refusal {
        Refusal::InvalidSetup(problem)
    }
}
