//! A tournament's news for its director's webhooks (docs/notifications.md, "Tournament
//! webhooks"): the event the change that pairs a round writes (`round-started`), and the one the
//! change that finishes the tournament writes (`finished`). Each is written by that change's own
//! versioned transaction (`TournamentWrite::News`), with the deliveries it owes, so a round
//! paired once is announced once, whoever paired it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::super::engine;
use super::super::timing::{Timing, rfc3339};
use super::handle_of;
use crate::error::AppError;
use crate::store::{TournamentRecord, TournamentWrite};
use crate::tournament::{Format, StandingRow};

/// The event a round's pairing writes.
pub const ROUND_STARTED: &str = "round-started";
/// The event the tournament's end writes.
pub const FINISHED: &str = "finished";
/// The events a tournament's webhook may ask for, in the order the panel lists them.
pub const TOURNAMENT_EVENTS: [&str; 2] = [ROUND_STARTED, FINISHED];

/// `round-started`: the round's games with their lobbies, its byes and its deadline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundStarted {
    pub round: i64,
    pub rounds_total: i64,
    pub format: Format,
    pub games: Vec<PairedGame>,
    /// The handles of those who sit this round out.
    pub byes: Vec<String>,
    /// When the round's first answers are due (RFC 3339), counted from the pairing by the
    /// tournament's `deadline_seconds`; null when its games have no deadline.
    pub deadline_at: Option<String>,
}

/// One game of a paired round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairedGame {
    pub lobby: Uuid,
    /// The players in seat order: handles, or in an anonymous tournament the seats'
    /// pseudonyms ("Player 1", …), since a handle tied to a seat would unmask it before the
    /// game is over (docs/table-talk.md, "Anonymous games").
    pub players: Vec<String>,
}

/// `finished`: the final standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentFinished {
    pub standings: Vec<FinalPlace>,
}

/// One line of the final standings, as the tournament's view has it: points and tie-breaks
/// are JSON numbers as the view writes them (whole ones as integers, halves as `1.5`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinalPlace {
    pub rank: u32,
    pub handle: String,
    pub points: serde_json::Number,
    pub tiebreaks: BTreeMap<String, serde_json::Number>,
}

fn internal(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(format!("tournament news: {e}"))
}

/// The news of round `round`, paired at `paired_at` into `games` (entries in seat order, each
/// with its lobby) and `byes`.
pub(super) fn round_started(
    record: &TournamentRecord,
    round: i64,
    rounds_total: i64,
    games: &[(Uuid, Vec<u64>)],
    byes: &[u64],
    paired_at: i64,
) -> Result<TournamentWrite, AppError> {
    let t = &record.tournament;
    let timing = timing_of(&t.settings)?;
    let anonymous = timing.is_anonymous();
    let games = games
        .iter()
        .map(|(lobby, entries)| PairedGame {
            lobby: *lobby,
            players: entries
                .iter()
                .enumerate()
                .map(|(seat, entry)| match anonymous {
                    true => format!("Player {}", seat + 1),
                    false => handle_of(record, *entry),
                })
                .collect(),
        })
        .collect();
    let news = RoundStarted {
        round,
        rounds_total,
        format: super::record::format_of(&t.format)?,
        games,
        byes: byes.iter().map(|e| handle_of(record, *e)).collect(),
        deadline_at: timing.deadline_seconds.map(|seconds| {
            let millis = i64::try_from(seconds).unwrap_or(i64::MAX / 2000) * 1000;
            rfc3339(paired_at.saturating_add(millis))
        }),
    };
    Ok(TournamentWrite::News {
        kind: ROUND_STARTED,
        data: serde_json::to_string(&news).map_err(internal)?,
    })
}

/// The news of the tournament's end: its final standings.
pub(super) fn finished(standings: &[StandingRow]) -> Result<TournamentWrite, AppError> {
    let standings = standings
        .iter()
        .map(|row| serde_json::to_value(row).and_then(serde_json::from_value::<FinalPlace>))
        .collect::<Result<Vec<_>, _>>()
        .map_err(internal)?;
    let news = TournamentFinished { standings };
    Ok(TournamentWrite::News {
        kind: FINISHED,
        data: serde_json::to_string(&news).map_err(internal)?,
    })
}

/// The lobby settings every game of the tournament is created with, as their timing reads
/// them (the deadline, anonymity).
fn timing_of(settings: &str) -> Result<Timing, AppError> {
    let mut raw: serde_json::Value = engine::from_stored(settings)?;
    Timing::split_from(&mut raw)
}
