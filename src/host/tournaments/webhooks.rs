//! The director's webhooks on a tournament (docs/notifications.md, "Tournament webhooks"):
//! added, listed with their latest attempts, tested, re-enabled and deleted as a lobby's host's
//! are, through the same checks (`notifications.rs`, `add_target`: the body, the address
//! guard, the cap, the signing secret) and the same outbox machinery; the director's token authorises.

use serde_json::{Map, Value};
use uuid::Uuid;

use super::super::Host;
use super::super::notifications::{WebhookCreated, WebhookView, unknown_webhook, webhook_id};
use super::director;
use super::news::TOURNAMENT_EVENTS;
use crate::error::AppError;
use crate::store::{Owner, Scope, TargetRow};

impl Host {
    /// Adds a webhook to the tournament (director only).
    pub async fn add_tournament_webhook(
        &self,
        id: Uuid,
        token: Option<&str>,
        mut body: Map<String, Value>,
    ) -> Result<WebhookCreated, AppError> {
        director(&self.tournament_record(id).await?, token)?;
        let held = self.store.tournament_targets(id).await?.len();
        self.add_target(Owner::Tournament(id), held, &mut body, &TOURNAMENT_EVENTS)
            .await
    }

    /// The tournament's webhooks with their latest attempts (director only).
    pub async fn tournament_webhooks(
        &self,
        id: Uuid,
        token: Option<&str>,
    ) -> Result<Vec<WebhookView>, AppError> {
        director(&self.tournament_record(id).await?, token)?;
        self.webhook_views(self.store.tournament_targets(id).await?)
            .await
    }

    /// Deletes a webhook of the tournament (director only); 404 if it has no such webhook.
    pub async fn delete_tournament_webhook(
        &self,
        id: Uuid,
        token: Option<&str>,
        webhook: &str,
    ) -> Result<(), AppError> {
        director(&self.tournament_record(id).await?, token)?;
        let webhook = webhook_id(webhook)?;
        if !self
            .store
            .delete_target(Owner::Tournament(id), webhook)
            .await?
        {
            return Err(unknown_webhook("tournament", webhook));
        }
        Ok(())
    }

    /// Queues a test message to a webhook of the tournament (director only); its delivery id.
    pub async fn test_tournament_webhook(
        &self,
        id: Uuid,
        token: Option<&str>,
        webhook: &str,
    ) -> Result<String, AppError> {
        let target = self.director_webhook(id, token, webhook).await?;
        self.queue_test(&target).await
    }

    /// Enables a webhook of the tournament a dead delivery disabled (director only).
    pub async fn enable_tournament_webhook(
        &self,
        id: Uuid,
        token: Option<&str>,
        webhook: &str,
    ) -> Result<WebhookView, AppError> {
        let target = self.director_webhook(id, token, webhook).await?;
        self.enable_target(target).await
    }

    async fn director_webhook(
        &self,
        id: Uuid,
        token: Option<&str>,
        webhook: &str,
    ) -> Result<TargetRow, AppError> {
        director(&self.tournament_record(id).await?, token)?;
        let webhook = webhook_id(webhook)?;
        match self.store.target(Scope::Tournament, webhook).await? {
            Some(target) if target.owner == Owner::Tournament(id) => Ok(target),
            _ => Err(unknown_webhook("tournament", webhook)),
        }
    }
}
