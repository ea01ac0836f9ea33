//! The ladder's rounds (docs/bots.md, "How the ladder pairs"): every interval of the store's
//! clock, one round pairs every game's entered bots that have room and writes its games, and
//! then their lobbies are made, rated and started. The round is keyed by the instant its
//! interval began and written in one transaction with its games, so whichever process or tick
//! writes it first pairs it and any other finds it written and pairs nothing. The lobbies are
//! made after, each from the id its row drew, so a process that stopped in between leaves
//! nothing half made: the next tick makes what is left.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use tokio::task::JoinHandle;
use uuid::Uuid;

use super::super::auth::{hash_token, new_token};
use super::super::clean_name;
use super::super::seated_games::Seated;
use super::super::{GameKind, Host};
use super::LadderSettings;
use super::pairing::{self, Candidate, Owner};
use crate::error::AppError;
use crate::ratings::{Kind, Pool, Rating};
use crate::store::LadderGameRow;

/// Each step's deadline in a ladder game: short, so that a silent bot's game ends by its
/// defaults (the host's fallbacks) within minutes, not the ladder's interval.
pub const STEP_SECONDS: u64 = 60;

/// A round this call paired: the instant its interval began and its games.
#[derive(Clone, Debug)]
pub struct RoundPaired {
    pub round_at: i64,
    pub games: Vec<LadderGameRow>,
}

/// The running ladder; dropping it stops the task.
#[derive(Debug)]
pub struct LadderTask {
    task: JoinHandle<()>,
}

impl Drop for LadderTask {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The interval's length in store-clock milliseconds (at least one).
fn interval_ms(settings: LadderSettings) -> i64 {
    i64::try_from(settings.interval.as_millis())
        .unwrap_or(i64::MAX)
        .max(1)
}

/// A ladder lobby's settings, as a create request sends them: rated among bots, unlisted
/// (the ladder's page lists them), with short deadlines and no reminders.
fn lobby_settings() -> Value {
    json!({
        "rated": true,
        "bots": "only",
        "unlisted": true,
        "deadline_seconds": STEP_SECONDS,
        "reminder_seconds": [],
    })
}

impl Host {
    /// Starts this process's ladder: a round at once for the interval now running (unless
    /// one was paired), then one as each interval begins. None when the ladder is off.
    pub fn spawn_ladder(&self) -> Option<LadderTask> {
        let settings = self.ladder?;
        let host = self.clone();
        Some(LadderTask {
            task: tokio::spawn(async move {
                let clock = host.store.clock().clone();
                let every = interval_ms(settings);
                loop {
                    let next = match host.play_ladder_round().await {
                        Ok(_) => {
                            let now = clock.now_millis();
                            now - now.rem_euclid(every) + every
                        }
                        Err(error) => {
                            tracing::warn!(%error, "the ladder's round could not be paired");
                            clock.now_millis() + 5_000
                        }
                    };
                    clock.sleep_until(next).await;
                }
            }),
        })
    }

    /// Pairs the round of the interval the store's clock stands in, unless it was paired
    /// (here or by another process): then None. Either way, makes the lobbies of earlier
    /// rounds' games left unmade.
    pub async fn play_ladder_round(&self) -> Result<Option<RoundPaired>, AppError> {
        let settings = self.ladder_settings()?;
        let now = self.store.clock().now_millis();
        let every = interval_ms(settings);
        let round_at = now - now.rem_euclid(every);
        let games = self
            .pair_ladder(settings, round_at / every % 2 == 1, round_at)
            .await?;
        let paired = self
            .store
            .create_ladder_round(round_at, now, &games)
            .await?;
        self.make_ladder_games(round_at, paired).await?;
        Ok(paired.then_some(RoundPaired { round_at, games }))
    }

    /// Pairs every game's ladder, each bot within its room over all games.
    async fn pair_ladder(
        &self,
        settings: LadderSettings,
        swap: bool,
        round_at: i64,
    ) -> Result<Vec<LadderGameRow>, AppError> {
        let busy = self.store.ladder_busy().await?;
        let mut room: BTreeMap<Uuid, u32> = BTreeMap::new();
        let mut games = Vec::new();
        for kind in GameKind::ALL {
            let pool = Pool::new(kind, Kind::Bots);
            let scores: BTreeMap<Uuid, f64> = self
                .store
                .pool_ratings(pool)
                .await?
                .into_iter()
                .map(|row| (row.profile, row.rating.score()))
                .collect();
            let unrated = Rating::start(pool).score();
            let candidates: Vec<Candidate> = self
                .store
                .ladder_entries(kind.id())
                .await?
                .into_iter()
                .map(|entry| Candidate {
                    profile: entry.profile,
                    owner: entry.owner.map_or(Owner::Server, Owner::Profile),
                    score: scores.get(&entry.profile).copied().unwrap_or(unrated),
                })
                .collect();
            for candidate in &candidates {
                let used = busy.get(&candidate.profile).copied().unwrap_or(0);
                room.entry(candidate.profile)
                    .or_insert_with(|| settings.games_per_bot.saturating_sub(used));
            }
            games.extend(
                pairing::pair(&candidates, &mut room, swap)
                    .into_iter()
                    .map(|seats| LadderGameRow {
                        lobby: Uuid::new_v4(),
                        round_at,
                        game: kind.id().to_string(),
                        seats: seats.to_vec(),
                        made: false,
                    }),
            );
        }
        Ok(games)
    }

    /// Makes the lobbies of the games left unmade: this round's, when this call paired it,
    /// and earlier rounds' (a process stopped between a round and its lobbies). Another
    /// process's round is left to it. A game that fails is tried again at the next round.
    async fn make_ladder_games(&self, round_at: i64, paired: bool) -> Result<(), AppError> {
        for game in self.store.unmade_ladder_games().await? {
            if game.round_at == round_at && !paired {
                continue;
            }
            if let Err(error) = self.make_ladder_game(&game).await {
                tracing::warn!(lobby = %game.lobby, %error, "a ladder game could not be made");
            }
        }
        Ok(())
    }

    async fn make_ladder_game(&self, game: &LadderGameRow) -> Result<(), AppError> {
        let kind: GameKind = game.game.parse()?;
        let mut seats = Vec::new();
        for profile in &game.seats {
            let profile = self.store.profile_by_id(*profile).await?.ok_or_else(|| {
                AppError::Internal(format!("ladder game {}: no profile", game.lobby))
            })?;
            seats.push(Seated {
                profile: profile.id,
                kind: profile.kind,
                handle: profile.handle,
            });
        }
        let handles: Vec<&str> = seats.iter().map(|s| s.handle.as_str()).collect();
        let full = format!("Ladder: {}", handles.join(" v "));
        let name = clean_name(&full, "lobby name").unwrap_or_else(|_| "Ladder game".into());
        // Nobody hosts a ladder game: its host token is drawn and never kept.
        let host_hash = hash_token(&new_token());
        self.ensure_seated_game(kind, game.lobby, name, lobby_settings(), host_hash, &seats)
            .await?;
        self.store.ladder_game_made(game.lobby).await?;
        Ok(())
    }
}
