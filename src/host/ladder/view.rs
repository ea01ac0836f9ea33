//! A game's ladder as `GET /api/v1/ladder/{game}` and the ladder's page show it: the bots
//! entered with their ratings in the pool `{game}/bots`, and the latest games, running or
//! finished with their outcome.

use std::collections::BTreeMap;

use serde::Serialize;
use uuid::Uuid;

use super::super::{GameKind, Host, with_game};
use crate::error::AppError;
use crate::ratings::{Kind, Pool, Rating};
use crate::store::{LadderGameRow, Status};

/// How many of a ladder's latest games are shown.
pub const GAMES_SHOWN: i64 = 30;

/// `GET /api/v1/ladder/{game}`.
#[derive(Clone, Debug, Serialize)]
pub struct LadderView {
    pub game: GameKind,
    /// The ladder's leaderboard: `GET /api/v1/ratings/{pool}`.
    pub pool: Pool,
    pub interval_seconds: u64,
    pub games_per_bot: u32,
    /// Highest rated first; the unrated at the pool's start rating.
    pub entries: Vec<LadderEntry>,
    /// Newest round first.
    pub games: Vec<LadderGame>,
}

#[derive(Clone, Debug, Serialize)]
pub struct LadderEntry {
    pub handle: String,
    /// The bot's owner's handle; None for a boss bot (the server's).
    pub owner: Option<String>,
    pub boss: bool,
    /// The rating as people read it (`1500?`).
    pub shown: String,
    pub games: u32,
    #[serde(skip)]
    score: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct LadderGame {
    pub lobby: Uuid,
    /// The handles in seat order.
    pub players: Vec<String>,
    #[serde(flatten)]
    pub outcome: LadderOutcome,
}

/// Where a ladder game stands.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum LadderOutcome {
    /// Paired; its lobby is being made.
    Starting,
    Running,
    /// Over: its winners' handles (none, or all of them, for a draw).
    Finished {
        winners: Vec<String>,
    },
    /// Over, and its lobby deleted by the retention sweep.
    Deleted,
}

impl Host {
    /// `game`'s ladder (404 `ladder-off` when off, 422 for an unknown game).
    pub async fn ladder_view(&self, game: &str) -> Result<LadderView, AppError> {
        let settings = self.ladder_settings()?;
        let kind: GameKind = game.parse()?;
        let pool = Pool::new(kind, Kind::Bots);
        let ratings: BTreeMap<Uuid, Rating> = self
            .store
            .pool_ratings(pool)
            .await?
            .into_iter()
            .map(|row| (row.profile, row.rating))
            .collect();
        let mut handles = BTreeMap::new();
        let mut entries = Vec::new();
        for entry in self.store.ladder_entries(kind.id()).await? {
            let rating = ratings
                .get(&entry.profile)
                .cloned()
                .unwrap_or_else(|| Rating::start(pool));
            let owner = match entry.owner {
                Some(owner) => self.store.profile_by_id(owner).await?.map(|o| o.handle),
                None => None,
            };
            handles.insert(entry.profile, entry.handle.clone());
            entries.push(LadderEntry {
                handle: entry.handle,
                boss: entry.owner.is_none(),
                owner,
                shown: rating.shown().to_string(),
                games: rating.games(),
                score: rating.score(),
            });
        }
        entries.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.handle.cmp(&b.handle)));
        let mut games = Vec::new();
        for row in self
            .store
            .latest_ladder_games(kind.id(), GAMES_SHOWN)
            .await?
        {
            games.push(self.ladder_game(&row, &mut handles).await?);
        }
        Ok(LadderView {
            game: kind,
            pool,
            interval_seconds: settings.interval.as_secs(),
            games_per_bot: settings.games_per_bot,
            entries,
            games,
        })
    }

    async fn ladder_game(
        &self,
        row: &LadderGameRow,
        handles: &mut BTreeMap<Uuid, String>,
    ) -> Result<LadderGame, AppError> {
        let mut players = Vec::new();
        for profile in &row.seats {
            if !handles.contains_key(profile) {
                let handle = self.store.profile_by_id(*profile).await?.map(|p| p.handle);
                handles.insert(*profile, handle.unwrap_or_default());
            }
            players.push(handles.get(profile).cloned().unwrap_or_default());
        }
        let outcome = match self.store.snapshot(row.lobby).await? {
            None if row.made => LadderOutcome::Deleted,
            None => LadderOutcome::Starting,
            Some(snapshot) => match snapshot.lobby.status {
                Status::Signups | Status::Closed => LadderOutcome::Starting,
                Status::Running => LadderOutcome::Running,
                Status::Finished => {
                    let kind = snapshot.lobby.game_kind()?;
                    let state = snapshot.lobby.state.as_deref().unwrap_or("null");
                    let places = with_game!(kind, G => super::super::rated::places::<G>(state, &snapshot.players)?);
                    // The seats are in seat order, as the players are.
                    let mut seats: Vec<_> = snapshot.players.iter().collect();
                    seats.sort_by_key(|p| p.seat);
                    let winners = seats
                        .iter()
                        .zip(&players)
                        .filter(|(p, _)| {
                            places.iter().any(|(id, place)| *id == p.id && *place == 1)
                        })
                        .map(|(_, handle)| handle.clone())
                        .collect();
                    LadderOutcome::Finished { winners }
                }
            },
        };
        Ok(LadderGame {
            lobby: row.lobby,
            players,
            outcome,
        })
    }
}
