//! Ratings in the host (docs/ratings.md, "How the server stores them"): a change that finishes
//! a rated lobby carries what the store needs to rate it in the same transaction; the finished
//! lobby's `rating_changes`, a profile's ratings and history, and the leaderboards are read
//! here; and `herald ratings rebuild` recomputes them.

use serde::Serialize;
use uuid::Uuid;

use super::HOST_STEP;
use super::Host;
use super::engine::from_stored;
use super::timing::Timing;
use crate::error::AppError;
use crate::fairness::act::Act;
use crate::games::{GameUi, with_game};
use crate::ratings::{Ending, EntryChange, Limit, Pool, RatingEntry, Ratings};
use crate::store::{Change, ChangeHistoryRow, PlayerRow, RatedFinish, Snapshot, Status};

/// Adds to `change` what the store needs to rate the game, when `change` finishes a rated
/// lobby (every way a game ends passes here: the rules, the host's end, a kick). Decided
/// inside the lobby's transaction, before its acts are filed.
pub(super) fn attach(snapshot: &Snapshot, change: &mut Change, now: i64) -> Result<(), AppError> {
    let finishes =
        change.lobby.status == Some(Status::Finished) && snapshot.lobby.status != Status::Finished;
    if !finishes || !Timing::parse(&snapshot.lobby.timing)?.gates.rated {
        return Ok(());
    }
    let Some(state) = change.lobby.state.as_deref() else {
        return Ok(());
    };
    let game = snapshot.lobby.game_kind()?;
    let places = with_game!(game, G => places::<G>(state, &snapshot.players)?);
    change.rated = Some(RatedFinish {
        game,
        ending: ending_of(change),
        ended_at: now,
        places,
    });
    Ok(())
}

/// How the game in `change` ended: the host's `end` names a result; a game the host's hand
/// finished otherwise was finished by a kick (of every opponent); any other by the rules.
fn ending_of(change: &Change) -> Ending {
    if change.acts.iter().any(|a| matches!(a, Act::End { .. })) {
        Ending::HostWithResult
    } else if change.resolved.iter().any(|s| s.step == HOST_STEP) {
        Ending::KickOut
    } else {
        Ending::Rules
    }
}

/// Every seat's player and final place, in seat order.
pub(super) fn places<G: GameUi>(
    state: &str,
    players: &[PlayerRow],
) -> Result<Vec<(Uuid, u32)>, AppError> {
    let state: G::State = from_stored(state)?;
    let Some(outcome) = G::outcome(&state) else {
        return Ok(Vec::new());
    };
    let places = G::places(&outcome);
    let mut seats: Vec<&PlayerRow> = players.iter().collect();
    seats.sort_by_key(|p| p.seat);
    Ok(seats
        .into_iter()
        .filter_map(|p| {
            places
                .iter()
                .find(|(id, _)| id.0 == p.id)
                .map(|(_, place)| (p.id, *place))
        })
        .collect())
}

/// One element of a finished lobby's `result.rating_changes`.
#[derive(Clone, Debug, Serialize)]
pub struct SeatChange {
    pub player: Uuid,
    pub handle: String,
    #[serde(flatten)]
    pub change: EntryChange,
}

/// One change in a profile's history: the game and the ratings before and after.
#[derive(Clone, Debug, Serialize)]
pub struct HistoryEntry {
    pub lobby: Uuid,
    pub ended_at: String,
    #[serde(flatten)]
    pub change: EntryChange,
}

/// A profile's rating in one pool, with its changes, newest first.
#[derive(Clone, Debug, Serialize)]
pub struct ProfileRating {
    #[serde(flatten)]
    pub entry: RatingEntry,
    pub shown: String,
    pub history: Vec<HistoryEntry>,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, Serialize)]
pub struct BoardEntry {
    pub rank: usize,
    pub handle: String,
    pub shown: String,
    #[serde(flatten)]
    pub entry: RatingEntry,
}

/// `GET /api/v1/ratings/{pool}`.
#[derive(Clone, Debug, Serialize)]
pub struct Leaderboard {
    pub pool: Pool,
    pub entries: Vec<BoardEntry>,
}

fn entry_change(row: &ChangeHistoryRow) -> EntryChange {
    EntryChange {
        before: row.before.entry(),
        after: row.after.entry(),
    }
}

impl Host {
    /// The rating changes a finished rated lobby made (empty otherwise).
    pub async fn rating_changes(&self, lobby: Uuid) -> Result<Vec<SeatChange>, AppError> {
        let rows = self.store.lobby_rating_changes(lobby).await?;
        Ok(rows
            .iter()
            .map(|row| SeatChange {
                player: row.player,
                handle: row.handle.clone(),
                change: entry_change(row),
            })
            .collect())
    }

    /// A profile's ratings, pool by pool, each with its history.
    pub async fn profile_ratings(&self, profile: Uuid) -> Result<Vec<ProfileRating>, AppError> {
        let ratings = self.store.profile_ratings(profile).await?;
        let history = self.store.profile_rating_history(profile).await?;
        Ok(ratings
            .iter()
            .map(|rating| ProfileRating {
                entry: rating.entry(),
                shown: rating.shown().to_string(),
                history: history
                    .iter()
                    .filter(|h| h.after.pool() == rating.pool())
                    .map(|h| HistoryEntry {
                        lobby: h.lobby,
                        ended_at: super::timing::rfc3339(h.ended_at),
                        change: entry_change(h),
                    })
                    .collect(),
            })
            .collect())
    }

    /// `pool`'s leaderboard: highest first, provisional entries last, at most `limit`.
    pub async fn leaderboard(&self, pool: Pool, limit: Limit) -> Result<Leaderboard, AppError> {
        let rows = self.store.pool_ratings(pool).await?;
        let handles: std::collections::BTreeMap<Uuid, String> =
            rows.iter().map(|r| (r.profile, r.handle.clone())).collect();
        let ratings: Ratings<Uuid> = rows.into_iter().map(|r| (r.profile, r.rating)).collect();
        let entries = ratings
            .leaderboard(pool, limit)
            .into_iter()
            .enumerate()
            .map(|(i, (profile, rating))| BoardEntry {
                rank: i + 1,
                handle: handles.get(profile).cloned().unwrap_or_default(),
                shown: rating.shown().to_string(),
                entry: rating.entry(),
            })
            .collect();
        Ok(Leaderboard { pool, entries })
    }
}
