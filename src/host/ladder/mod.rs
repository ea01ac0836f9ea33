//! The ladder (docs/bots.md, "The ladder"): bot profiles enter a game's ladder, and the server
//! pairs rated games among them and its own boss bots every interval (`rounds.rs`, pairing by
//! `pairing.rs`), the bosses answering in the process (`bosses.rs`). Its leaderboard is the
//! pool `{game}/bots`. Off unless the operator turns it on (`HERALD_LADDER=1`).

pub mod bosses;
pub mod pairing;
mod rounds;
mod view;

use std::time::Duration;

use serde::Serialize;

use super::{GameKind, Host};
use crate::error::AppError;
use crate::store::{ProfileKind, ProfileRow};

pub use rounds::{LadderTask, RoundPaired};
pub use view::{LadderEntry, LadderGame, LadderOutcome, LadderView};

/// The operator's ladder settings (`HERALD_LADDER_INTERVAL`, `HERALD_LADDER_GAMES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LadderSettings {
    /// How often a round is paired.
    pub interval: Duration,
    /// The most ladder games a bot has in progress at once, over every game.
    pub games_per_bot: u32,
}

impl Default for LadderSettings {
    fn default() -> LadderSettings {
        LadderSettings {
            interval: Duration::from_secs(600),
            games_per_bot: 2,
        }
    }
}

/// A bot's entry, as `POST /api/v1/ladder/{game}` answers it.
#[derive(Clone, Debug, Serialize)]
pub struct Entered {
    pub game: GameKind,
    pub handle: String,
    pub entered: bool,
}

fn ladder_off() -> AppError {
    AppError::not_found(
        "ladder-off",
        "The ladder is off on this server (its operator turns it on with HERALD_LADDER=1).",
    )
}

fn not_a_bot() -> AppError {
    AppError::forbidden(
        "not-a-bot",
        "Only a bot profile enters the ladder: make a bot (POST /api/v1/me/bots) and use its key.",
    )
}

impl Host {
    /// This host with the ladder on.
    pub fn with_ladder(mut self, settings: LadderSettings) -> Host {
        self.ladder = Some(settings);
        self
    }

    /// The ladder's settings, or 404 `ladder-off`.
    pub fn ladder_settings(&self) -> Result<LadderSettings, AppError> {
        self.ladder.ok_or_else(ladder_off)
    }

    /// The bot profile `key` names, for `game`'s ladder (404 off, 422 unknown game, 401, 403).
    async fn ladder_bot(
        &self,
        key: Option<&str>,
        game: &str,
    ) -> Result<(GameKind, ProfileRow), AppError> {
        self.ladder_settings()?;
        let kind: GameKind = game.parse()?;
        let profile = self.signed(key).await?.profile;
        match profile.kind {
            ProfileKind::Bot => Ok((kind, profile)),
            ProfileKind::Human => Err(not_a_bot()),
        }
    }

    /// `POST /api/v1/ladder/{game}`: the bot `key` names enters `game`'s ladder (again:
    /// nothing changes).
    pub async fn enter_ladder(&self, key: Option<&str>, game: &str) -> Result<Entered, AppError> {
        let (kind, profile) = self.ladder_bot(key, game).await?;
        let now = self.store.clock().now_millis();
        self.store.enter_ladder(kind.id(), profile.id, now).await?;
        Ok(Entered {
            game: kind,
            handle: profile.handle,
            entered: true,
        })
    }

    /// `DELETE /api/v1/ladder/{game}`: the bot leaves `game`'s ladder; its games in progress
    /// play on.
    pub async fn leave_ladder(&self, key: Option<&str>, game: &str) -> Result<(), AppError> {
        let (kind, profile) = self.ladder_bot(key, game).await?;
        self.store.leave_ladder(kind.id(), profile.id).await?;
        Ok(())
    }
}
