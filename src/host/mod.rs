//! The game-agnostic host: lobbies, sign-ups, starting, secret orders and resolving steps.
//! It is the only layer that calls both the rules and the store; handlers call it.

pub mod auth;
mod controls;
pub mod engine;
pub mod games;
mod lobby;
pub mod names;
pub mod pages;
mod play;
mod resolve;
mod rounds;
mod signups;
pub mod views;

use uuid::Uuid;

use crate::error::AppError;
use crate::store::{Committed, Snapshot, Store, TransactError};
pub use games::GameKind;
pub(crate) use games::with_game;
pub use lobby::Joined;
pub use rounds::{RoundSummary, RoundView};

pub use names::{MAX_NAME_CHARS, clean_name, name_key};

/// The host: the rules of each game over a store. (Listeners hear of commits from the
/// store's feed, which the writers fill in commit order.)
#[derive(Clone, Debug)]
pub struct Host {
    store: Store,
}

impl Host {
    pub fn new(store: Store) -> Host {
        Host { store }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The lobby's snapshot, or 404.
    async fn snapshot(&self, id: Uuid) -> Result<std::sync::Arc<Snapshot>, AppError> {
        self.store
            .snapshot(id)
            .await?
            .ok_or_else(|| lobby_not_found(id))
    }

    /// Runs a state change and wakes the lobby's listeners once it is committed.
    async fn change<T: Send + 'static>(
        &self,
        id: Uuid,
        decide: impl FnOnce(&Snapshot) -> Result<(crate::store::Change, T), AppError> + Send + 'static,
    ) -> Result<T, AppError> {
        Ok(self.commit(id, decide).await?.value)
    }

    /// [`Host::change`], answering with what the commit published (its instant included).
    async fn commit<T: Send + 'static>(
        &self,
        id: Uuid,
        decide: impl FnOnce(&Snapshot) -> Result<(crate::store::Change, T), AppError> + Send + 'static,
    ) -> Result<Committed<T>, AppError> {
        match self.store.transact(id, decide).await {
            Ok(committed) => Ok(committed),
            Err(TransactError::NotFound) => Err(lobby_not_found(id)),
            Err(TransactError::Refused(error)) => Err(error),
            Err(TransactError::Conflict) => Err(AppError::conflict(
                "concurrent-change",
                "The lobby changed while your request was being handled; nothing was stored. Please retry.",
            )),
            Err(TransactError::Database(error)) => Err(error.into()),
        }
    }
}

pub fn lobby_not_found(id: Uuid) -> AppError {
    AppError::not_found("unknown-lobby", format!("There is no lobby {id}."))
}
