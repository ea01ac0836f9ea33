//! Forking from an archive (docs/fairness.md, "Forking"): the settings of a new game that starts at the
//! position after round `n` of an archived one, found by re-adjudicating the archive with the
//! pure rules once it has been checked. Pure, like the rest of this module; the host stores
//! the result (`host::lobby`).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use super::FORMATS_READ;
use super::archive::Archive;
use super::replay::Replay;
use super::verify::{Mismatch, verify};
use crate::games::{GameKind, with_game};
use crate::rules::{ForkRefusal, Game};

/// Where a forked lobby came from: published in its settings as `forked_from`, and kept to
/// check that each player takes the seat as the archive's entrant held it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForkOrigin {
    /// The archived lobby.
    pub lobby: Uuid,
    pub name: String,
    /// The round after which the new game starts.
    pub round: u32,
    /// Each archived seat's join choice (BST: the character), in seat order: the player who
    /// takes that seat must make the same choice, or the position would not be the archive's.
    pub joins: Vec<Value>,
}

/// Why an archive cannot be forked. Every one is the client's to fix (a 422).
#[derive(Clone, Debug, PartialEq)]
pub enum ForkError {
    /// Not a `herald-archive/1` document, or an unknown game.
    Unreadable(String),
    /// The archive is of another game than the lobby asked for.
    GameMismatch { archive: String, asked: String },
    /// A check failed at or before the fork's round.
    Forged(Mismatch),
    /// The game is still running: its seed and acts are published only at its end, and the
    /// replay needs both.
    NotFinal,
    /// `round` is not a round the archive resolved.
    RoundUnavailable { round: u32, last: u32 },
    /// The rules cannot start a game at that position.
    Refused(ForkRefusal),
}

impl ForkError {
    /// The machine-readable code (documented in the OpenAPI document).
    pub fn code(&self) -> &'static str {
        match self {
            ForkError::Unreadable(_) => "archive-unreadable",
            ForkError::GameMismatch { .. } => "fork-game-mismatch",
            ForkError::Forged(_) => "archive-forged",
            ForkError::NotFinal => "archive-not-final",
            ForkError::RoundUnavailable { .. } => "fork-round-unavailable",
            ForkError::Refused(ForkRefusal::Unsupported { .. }) => "fork-unsupported",
            ForkError::Refused(ForkRefusal::Finished { .. }) => "fork-game-over",
            ForkError::Refused(ForkRefusal::NotASetup { .. }) => "fork-not-a-setup",
        }
    }

    /// A sentence for people.
    pub fn message(&self) -> String {
        match self {
            ForkError::Unreadable(why) => format!("The archive cannot be read: {why}."),
            ForkError::GameMismatch { archive, asked } => {
                format!("The archive is a {archive} game, not {asked}.")
            }
            ForkError::Forged(m) => format!("The archive does not verify: {m}."),
            ForkError::NotFinal => "The archive is of a running game: the replay needs the seed \
                 and the acts, which are published when the game is over."
                .into(),
            ForkError::RoundUnavailable { round, last } => format!(
                "Round {round} is not a resolved round of the archive (rounds 1 to {last})."
            ),
            ForkError::Refused(refusal) => format!("The game cannot be forked: {refusal}."),
        }
    }
}

/// What a fork starts from: the new game's settings (with its `setup`) and its origin.
#[derive(Clone, Debug)]
pub struct Forked {
    pub settings: Value,
    pub origin: ForkOrigin,
}

/// Reads, checks and replays the archive `text` up to the end of `round`; `game` is the game
/// the new lobby asks for. The text is read straight into the archive's types: an archive may
/// be megabytes, and a tree of the whole would cost many times that.
pub fn fork(text: &str, game: &str, round: u32) -> Result<Forked, ForkError> {
    let archive: Archive = serde_json::from_str(text)
        .map_err(|e| ForkError::Unreadable(format!("not a Herald archive: {e}")))?;
    if !FORMATS_READ.contains(&archive.format.as_str()) {
        return Err(ForkError::Unreadable(format!(
            "unknown archive format {:?} (this server reads {})",
            archive.format,
            FORMATS_READ.join(", ")
        )));
    }
    if archive.game != game {
        return Err(ForkError::GameMismatch {
            archive: archive.game.clone(),
            asked: game.to_owned(),
        });
    }
    let kind: GameKind = archive
        .game
        .parse()
        .map_err(|_| ForkError::Unreadable(format!("unknown game {:?}", archive.game)))?;
    let seed = final_seed(&archive)?;
    let last = archive.steps.iter().map(|s| s.round).max().unwrap_or(0);
    if round == 0 || round > last {
        return Err(ForkError::RoundUnavailable { round, last });
    }
    let report = verify(&archive).map_err(|e| ForkError::Unreadable(e.0))?;
    // What happened after the fork's round does not matter to the fork: a later mismatch
    // (or a truncated tail) leaves the position after `round` proven.
    if let Some(m) = report.mismatches.into_iter().find(|m| m.round <= round) {
        return Err(ForkError::Forged(m));
    }
    let settings = with_game!(kind, G => settings_after::<G>(&archive, seed, (round, last))?);
    let origin = ForkOrigin {
        lobby: archive.lobby.id,
        name: archive.lobby.name.clone(),
        round,
        joins: archive.entrants.iter().map(|e| e.join.clone()).collect(),
    };
    Ok(Forked { settings, origin })
}

/// The published seed of a finished game whose every step carries its acts.
fn final_seed(archive: &Archive) -> Result<u64, ForkError> {
    let complete = archive.steps.iter().all(|s| s.acts.is_some());
    match (archive.status == "finished", &archive.seed, complete) {
        (true, Some(seed), true) => seed
            .parse()
            .map_err(|_| ForkError::Unreadable(format!("{seed:?} is not a seed"))),
        _ => Err(ForkError::NotFinal),
    }
}

/// Replays every act filed with the steps of rounds up to `round` (the resolution of the
/// round's last step is filed with that step), then asks the rules for the setup.
fn settings_after<G: Game>(
    archive: &Archive,
    seed: u64,
    (round, last): (u32, u32),
) -> Result<Value, ForkError> {
    let forged = |detail: String| {
        ForkError::Forged(Mismatch {
            round: 0,
            step: "start".into(),
            field: "replay",
            detail,
        })
    };
    let mut replay = Replay::<G>::start(archive, seed).map_err(forged)?;
    for step in archive.steps.iter().filter(|s| s.round <= round) {
        for act in step.acts.iter().flatten() {
            replay.apply(act).map_err(forged)?;
        }
    }
    let settings: G::Settings = serde_json::from_value(archive.settings.clone())
        .map_err(|e| ForkError::Unreadable(format!("the settings are not {}'s: {e}", G::ID)))?;
    let forked = G::fork_settings(replay.state(), &settings).map_err(ForkError::Refused)?;
    if G::round(replay.state()) <= round {
        return Err(ForkError::RoundUnavailable { round, last });
    }
    serde_json::to_value(forked).map_err(|e| ForkError::Unreadable(e.to_string()))
}
