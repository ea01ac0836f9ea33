//! Why the Crossing Swords rules refuse settings, a start or an order.

use std::fmt;

use super::moves::Move;
use super::rulebook::Rulebook;
use crate::rules::{self, ROUND_LIMIT};

/// The most counters a setup may put in one pool (keeps arithmetic far from overflow).
pub const SETUP_POOL_LIMIT: i64 = 1_000_000;

/// What is wrong with a `settings.setup` position (api.md "Starting from a position").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupProblem {
    /// `round` must be 1..=[`ROUND_LIMIT`] (rounds count from 1).
    RoundOutOfRange { round: u32 },
    /// The setup starts after the round cap, so the game would already be over (Ruling 31).
    RoundPastCap { round: u32, max_rounds: u32 },
    /// More entries than the game can seat (G1: up to 16; or the lobby's `max_players`).
    TooManyEntries { entries: usize, max: usize },
    /// Fewer than two living entries: such a game is already over (R13).
    TooFewAlive { alive: usize },
    /// HP and VP are counters and cannot be negative (G5).
    Negative { entry: usize },
    /// A value beyond the one million counters a setup may hold per pool.
    TooLarge { entry: usize },
    /// A dead player is at 0 HP (R12) and a living one above it.
    HpDoesNotFitAlive { entry: usize },
    /// A focus or dodge carry-over names no entry of the setup.
    CarryOverOutOfRange { entry: usize, index: usize },
    /// A dead player keeps no focus or dodge carry-over (Ruling 30).
    CarryOverOnDeadPlayer { entry: usize },
}

/// A refusal from the Crossing Swords rules; [`rules::Refusal::code`] gives its wire code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// `max_players` outside 2..=16 (G1): `invalid-max-players`.
    InvalidMaxPlayers { got: u32 },
    /// `max_rounds` outside 1..=[`ROUND_LIMIT`] (the cap counts turns from 1):
    /// `invalid-max-rounds`.
    InvalidMaxRounds { got: u32 },
    /// A settings key that is no setting of this game: `unknown-setting`.
    UnknownSetting { key: String },
    /// A variant key (§3.1) with a value the rulings do not list: `invalid-setting`.
    InvalidSetting { key: String, problem: String },
    /// A setup that could not happen: `invalid-setup`.
    InvalidSetup(SetupProblem),
    /// The setup lists a different number of players than signed up: `setup-mismatch`.
    SetupMismatch { entries: usize, entrants: usize },
    /// Fewer than two entrants (G1: a melee): `wrong-player-count`, as the host says it.
    TooFewPlayers { got: usize },
    /// More entrants than `max_players` (G1): `wrong-player-count`, as the host says it.
    TooManyPlayers { got: usize, max: usize },
    /// The move is not one of the ten (G2): `unknown-move`.
    UnknownMove { got: String },
    /// The target is not a player of this game: `unknown-target`.
    UnknownTarget { got: String },
    /// The target is dead and cannot be targeted (Ruling 30): `dead-target`.
    DeadTarget { name: String },
    /// This move may not target its own player (Ruling 3): `self-target`.
    SelfTarget { mv: Move },
    /// The seat owes no order now (dead, or the game is over): `nothing-owed` (a conflict),
    /// as the host and BST say it.
    NothingOwed,
    /// The host cannot remove a player who is out already (dead or removed, Ruling 30):
    /// `not-in-play` (a conflict).
    NotInPlay { name: String },
    /// The game is over; the host can neither kick nor end it again: `game-over` (a conflict).
    GameOver,
    /// A join names a character, but everyone starts alike (G2): `no-characters`.
    NoCharacters,
    /// The host's ending names a result or a winner, but the VP standings decide (Ruling 31):
    /// `invalid-ending`.
    InvalidEnding,
}

impl rules::Refusal for Refusal {
    fn code(&self) -> &'static str {
        match self {
            Refusal::InvalidMaxPlayers { .. } => "invalid-max-players",
            Refusal::InvalidMaxRounds { .. } => "invalid-max-rounds",
            Refusal::UnknownSetting { .. } => "unknown-setting",
            Refusal::InvalidSetting { .. } => "invalid-setting",
            Refusal::InvalidSetup(_) => "invalid-setup",
            Refusal::SetupMismatch { .. } => "setup-mismatch",
            Refusal::TooFewPlayers { .. } | Refusal::TooManyPlayers { .. } => "wrong-player-count",
            Refusal::UnknownMove { .. } => "unknown-move",
            Refusal::UnknownTarget { .. } => "unknown-target",
            Refusal::DeadTarget { .. } => "dead-target",
            Refusal::SelfTarget { .. } => "self-target",
            Refusal::NothingOwed => "nothing-owed",
            Refusal::NotInPlay { .. } => "not-in-play",
            Refusal::GameOver => "game-over",
            Refusal::NoCharacters => "no-characters",
            Refusal::InvalidEnding => "invalid-ending",
        }
    }

    fn is_conflict(&self) -> bool {
        match self {
            Refusal::NothingOwed
            | Refusal::NotInPlay { .. }
            | Refusal::GameOver
            | Refusal::TooFewPlayers { .. }
            | Refusal::TooManyPlayers { .. } => true,
            Refusal::InvalidMaxPlayers { .. }
            | Refusal::InvalidMaxRounds { .. }
            | Refusal::UnknownSetting { .. }
            | Refusal::InvalidSetting { .. }
            | Refusal::InvalidSetup(_)
            | Refusal::SetupMismatch { .. }
            | Refusal::UnknownMove { .. }
            | Refusal::UnknownTarget { .. }
            | Refusal::DeadTarget { .. }
            | Refusal::SelfTarget { .. }
            | Refusal::NoCharacters
            | Refusal::InvalidEnding => false,
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
            SetupProblem::TooManyEntries { entries, max } => {
                write!(
                    f,
                    "setup.players lists {entries} players but at most {max} can play"
                )
            }
            SetupProblem::TooFewAlive { alive } => write!(
                f,
                "setup.players has {alive} living player(s); a game needs at least 2"
            ),
            SetupProblem::Negative { entry } => {
                write!(f, "setup.players[{entry}].hp and .vp must not be negative")
            }
            SetupProblem::TooLarge { entry } => write!(
                f,
                "setup.players[{entry}].hp and .vp must be at most {SETUP_POOL_LIMIT}"
            ),
            SetupProblem::HpDoesNotFitAlive { entry } => write!(
                f,
                "setup.players[{entry}].hp: a dead player has 0 HP and a living one more"
            ),
            SetupProblem::CarryOverOutOfRange { entry, index } => write!(
                f,
                "setup.players[{entry}].focus or .dodge names seat {index}, which is not in the setup"
            ),
            SetupProblem::CarryOverOnDeadPlayer { entry } => write!(
                f,
                "setup.players[{entry}] is dead and cannot carry a focus or dodge"
            ),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::InvalidMaxPlayers { got } => {
                write!(f, "max_players must be between 2 and 16, not {got}")
            }
            Refusal::InvalidMaxRounds { got } => {
                write!(
                    f,
                    "max_rounds must be between 1 and {ROUND_LIMIT}, not {got}"
                )
            }
            Refusal::UnknownSetting { key } => write!(
                f,
                "'{key}' is not a Crossing Swords setting; the settings are max_players, max_rounds, setup and the variant keys {}",
                Rulebook::KEYS.join(", ")
            ),
            Refusal::InvalidSetting { key, problem } => {
                write!(f, "the setting {key} is not valid: {problem}")
            }
            Refusal::InvalidSetup(problem) => write!(f, "impossible setup: {problem}"),
            Refusal::SetupMismatch { entries, entrants } => write!(
                f,
                "the setup lists {entries} players but {entrants} signed up"
            ),
            Refusal::TooFewPlayers { got } => {
                write!(f, "Crossing Swords needs at least 2 players, not {got}")
            }
            Refusal::TooManyPlayers { got, max } => {
                write!(f, "{got} players signed up but at most {max} may play")
            }
            Refusal::UnknownMove { got } => write!(
                f,
                "'{got}' is not a move; the moves are strike, lunge, assail, dodge, block, riposte, taunt, focus, mend, halt"
            ),
            Refusal::UnknownTarget { got } => {
                write!(f, "'{got}' is not the id of a player in this game")
            }
            Refusal::DeadTarget { name } => write!(f, "{name} is dead and cannot be targeted"),
            Refusal::SelfTarget { mv } => {
                write!(f, "{} must target another player, not yourself", mv.title())
            }
            Refusal::NothingOwed => write!(f, "you owe no order now"),
            Refusal::NotInPlay { name } => write!(f, "{name} is already out of the game"),
            Refusal::GameOver => write!(f, "the game is over"),
            Refusal::NoCharacters => write!(
                f,
                "Crossing Swords has no characters: everyone starts alike, so join with a name only"
            ),
            Refusal::InvalidEnding => write!(
                f,
                "a Crossing Swords game ends on its VP standings (Ruling 31): send no result or winner"
            ),
        }
    }
}
