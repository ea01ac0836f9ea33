//! The boss bots (docs/bots.md, "The boss bots"): two profiles of kind bot that the server
//! owns, `herald-random` and `herald-greedy`, each entered in every game's ladder and played in
//! the process by the reference strategy it is named after (`bots/bosses.rs` answers their
//! prompts). They have no key and no owner: no request acts for them.

use uuid::Uuid;

use super::super::names::name_key;
use super::super::{GameKind, Host};
use crate::error::AppError;
use crate::games::Strategy;
use crate::store::{ProfileKind, ProfileRow};

/// The bosses: each one's handle and the strategy that plays it.
pub const BOSSES: [(&str, Strategy); 2] = [
    ("herald-random", Strategy::Random),
    ("herald-greedy", Strategy::Greedy),
];

/// A boss bot, as the process plays it.
#[derive(Clone, Debug)]
pub struct Boss {
    pub profile: Uuid,
    pub handle: String,
    pub strategy: Strategy,
}

impl Host {
    /// Makes the boss profiles unless they exist (an insert that does nothing when the handle
    /// is taken, so several processes starting at once make each once) and enters each in
    /// every game's ladder. A handle a person took first is not a boss: that boss is left out
    /// and the operator told.
    pub async fn ensure_bosses(&self) -> Result<Vec<Boss>, AppError> {
        let now = self.store.clock().now_millis();
        let mut bosses = Vec::new();
        for (handle, strategy) in BOSSES {
            let wanted = ProfileRow {
                id: Uuid::new_v4(),
                handle: handle.to_string(),
                handle_key: name_key(handle),
                kind: ProfileKind::Bot,
                owner: None,
                owner_handle: None,
                created_at: now,
            };
            let Some(profile) = self.store.ensure_boss_profile(&wanted).await? else {
                return Err(AppError::Internal(format!("boss {handle}: not stored")));
            };
            if profile.kind != ProfileKind::Bot || profile.owner.is_some() {
                tracing::error!(
                    handle,
                    "a profile that is not the server's holds a boss's handle: that boss does not play"
                );
                continue;
            }
            for kind in GameKind::ALL {
                self.store.enter_ladder(kind.id(), profile.id, now).await?;
            }
            bosses.push(Boss {
                profile: profile.id,
                handle: profile.handle,
                strategy,
            });
        }
        Ok(bosses)
    }
}
