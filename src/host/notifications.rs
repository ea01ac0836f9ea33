//! The host's lobby webhooks and a player's own notifications (docs/notifications.md): who may
//! set what, what is checked before anything is stored, and what each is shown. An address
//! (a URL or an email) is never shown back to anyone once stored: the host sees a webhook's
//! scheme and host only, a player whether an address is set.

use serde::Serialize;
use serde_json::{Map, Value};
use uuid::Uuid;

use super::Host;
use super::auth::{Presented, require_host, require_player};
use super::delivery::Channel;
use super::guard::{Guard, Refusal};
use super::sign;
use super::timing::rfc3339;
use crate::error::AppError;
use crate::events::EventKind;
use crate::store::outbox::NOTIFIABLE;
use crate::store::{AttemptRow, NewTarget, Owner, Scope, TargetRow};

/// Webhooks one lobby may have.
pub const MAX_WEBHOOKS: usize = 10;
/// The longest URL or address accepted.
pub const MAX_ADDRESS_CHARS: usize = 2048;
/// The longest email address (RFC 5321's path limit less its brackets).
pub const MAX_EMAIL_CHARS: usize = 254;
/// Attempts shown per webhook.
const SHOWN_ATTEMPTS: i64 = 20;
/// What a player hears about when they do not say.
pub const PLAYER_DEFAULT_EVENTS: [EventKind; 5] = [
    EventKind::Started,
    EventKind::StepResolved,
    EventKind::DeadlineApproaching,
    EventKind::RoundResolved,
    EventKind::Finished,
];

/// A webhook just added: its id, and the signing secret (shown this once, `standard` only).
#[derive(Debug, Serialize)]
pub struct WebhookCreated {
    pub id: Uuid,
    pub secret: Option<String>,
}

/// A webhook as its host sees it.
#[derive(Debug, Serialize)]
pub struct WebhookView {
    pub id: Uuid,
    pub format: String,
    /// The URL's scheme and host only: the rest may be the receiver's secret (Discord's is).
    pub target: String,
    pub events: Vec<String>,
    pub enabled: bool,
    pub created_at: String,
    /// The latest attempts, newest first.
    pub deliveries: Vec<AttemptView>,
}

#[derive(Debug, Serialize)]
pub struct AttemptView {
    pub delivery_id: String,
    pub event: String,
    pub attempt: i64,
    pub at: String,
    /// The receiver's HTTP status, or null when none came back.
    pub status: Option<i64>,
    pub error: Option<String>,
}

/// A player's own notifications, as the player sees them (never the addresses themselves).
#[derive(Debug, Serialize)]
pub struct MyNotifications {
    pub email: bool,
    pub webhook: bool,
    pub events: Vec<String>,
    /// The signing secret of the webhook just set (Standard Webhooks), shown this once.
    pub secret: Option<String>,
}

impl Host {
    fn guard(&self) -> Guard {
        Guard {
            allow_private: self.notify.allow_private,
        }
    }

    /// Adds a webhook to the lobby (host only).
    pub async fn add_webhook(
        &self,
        id: Uuid,
        token: Option<&str>,
        mut body: Map<String, Value>,
    ) -> Result<WebhookCreated, AppError> {
        let snapshot = self.snapshot(id).await?;
        require_host(&snapshot, &Presented::new(token))?;
        let held = self.store.targets(id, None).await?.len();
        self.add_target(Owner::Lobby(id), held, &mut body, &lobby_events())
            .await
    }

    /// Adds a webhook for `owner`, a lobby's host or a tournament's director already
    /// authorised, which holds `held` webhooks now: the body read against the events `offered`,
    /// the address guarded, the cap kept, the signing secret made (shown this once).
    pub(super) async fn add_target(
        &self,
        owner: Owner,
        held: usize,
        body: &mut Map<String, Value>,
        offered: &[&str],
    ) -> Result<WebhookCreated, AppError> {
        let (url, channel, events) = webhook_request(body, offered)?;
        self.check_target(&url).await?;
        if held >= MAX_WEBHOOKS {
            let whose = match owner {
                Owner::Lobby(_) => "A lobby",
                Owner::Tournament(_) => "A tournament",
            };
            return Err(AppError::rejected(
                "too-many-webhooks",
                format!("{whose} has at most {MAX_WEBHOOKS} webhooks; delete one first."),
            ));
        }
        let secret = (channel == Channel::Standard).then(sign::new_secret);
        let target = NewTarget {
            id: Uuid::new_v4(),
            owner,
            player_id: None,
            channel: channel.as_str(),
            address: url,
            secret: secret.clone(),
            kinds: events,
        };
        self.store
            .insert_target(&target, self.store.clock().now_millis())
            .await?;
        Ok(WebhookCreated {
            id: target.id,
            secret,
        })
    }

    /// The lobby's webhooks with their latest attempts (host only).
    pub async fn webhooks(
        &self,
        id: Uuid,
        token: Option<&str>,
    ) -> Result<Vec<WebhookView>, AppError> {
        let snapshot = self.snapshot(id).await?;
        require_host(&snapshot, &Presented::new(token))?;
        self.webhook_views(self.store.targets(id, None).await?)
            .await
    }

    /// Deletes a webhook (host only); 404 if the lobby has no such webhook.
    pub async fn delete_webhook(
        &self,
        id: Uuid,
        token: Option<&str>,
        webhook: &str,
    ) -> Result<(), AppError> {
        let snapshot = self.snapshot(id).await?;
        require_host(&snapshot, &Presented::new(token))?;
        let webhook = webhook_id(webhook)?;
        if !self.store.delete_target(Owner::Lobby(id), webhook).await? {
            return Err(unknown_webhook("lobby", webhook));
        }
        Ok(())
    }

    /// Queues a test message to a webhook (host only); its delivery id.
    pub async fn test_webhook(
        &self,
        id: Uuid,
        token: Option<&str>,
        webhook: &str,
    ) -> Result<String, AppError> {
        let target = self.host_webhook(id, token, webhook).await?;
        self.queue_test(&target).await
    }

    /// Queues a test message to a host's or a director's webhook; its delivery id.
    pub(super) async fn queue_test(&self, target: &TargetRow) -> Result<String, AppError> {
        let queued = self
            .store
            .queue_test(target, self.store.clock().now_millis())
            .await?;
        self.outbox.notify_one();
        Ok(queued)
    }

    /// Enables a host's or a director's webhook again and shows it.
    pub(super) async fn enable_target(&self, target: TargetRow) -> Result<WebhookView, AppError> {
        self.store.enable_target(target.owner, target.id).await?;
        let mut views = self
            .webhook_views(vec![TargetRow {
                enabled: true,
                ..target
            }])
            .await?;
        views
            .pop()
            .ok_or_else(|| AppError::Internal("a webhook's view".into()))
    }

    /// Each webhook with its latest attempts.
    pub(super) async fn webhook_views(
        &self,
        targets: Vec<TargetRow>,
    ) -> Result<Vec<WebhookView>, AppError> {
        let mut views = Vec::with_capacity(targets.len());
        for target in targets {
            let attempts = self
                .store
                .attempts_of(target.owner.scope(), target.id, SHOWN_ATTEMPTS)
                .await?;
            views.push(webhook_view(target, attempts));
        }
        Ok(views)
    }

    /// Enables a webhook a dead delivery disabled (host only).
    pub async fn enable_webhook(
        &self,
        id: Uuid,
        token: Option<&str>,
        webhook: &str,
    ) -> Result<WebhookView, AppError> {
        let target = self.host_webhook(id, token, webhook).await?;
        self.enable_target(target).await
    }

    async fn host_webhook(
        &self,
        id: Uuid,
        token: Option<&str>,
        webhook: &str,
    ) -> Result<TargetRow, AppError> {
        let snapshot = self.snapshot(id).await?;
        require_host(&snapshot, &Presented::new(token))?;
        let webhook = webhook_id(webhook)?;
        match self.store.target(Scope::Lobby, webhook).await? {
            Some(target) if target.owner == Owner::Lobby(id) && target.player_id.is_none() => {
                Ok(target)
            }
            _ => Err(unknown_webhook("lobby", webhook)),
        }
    }

    /// Sets the player's own notifications, replacing any earlier ones (player only).
    pub async fn set_my_notifications(
        &self,
        id: Uuid,
        token: Option<&str>,
        mut body: Map<String, Value>,
    ) -> Result<MyNotifications, AppError> {
        let snapshot = self.snapshot(id).await?;
        let player = require_player(&snapshot, &self.presented(token).await?)?.id;
        let email = take_optional_text(&mut body, "email")?;
        let webhook = take_optional_text(&mut body, "webhook_url")?;
        let events = match take_events(&mut body, &lobby_events())? {
            Some(events) => events,
            None => PLAYER_DEFAULT_EVENTS
                .iter()
                .map(|e| e.as_str().to_string())
                .collect(),
        };
        no_more_fields(&body)?;
        let mut targets = Vec::new();
        if let Some(email) = email {
            self.check_email(&email)?;
            targets.push(player_target(
                id,
                player,
                Channel::Mail,
                email,
                None,
                &events,
            ));
        }
        let mut secret = None;
        if let Some(url) = webhook {
            self.check_target(&url).await?;
            secret = Some(sign::new_secret());
            targets.push(player_target(
                id,
                player,
                Channel::Standard,
                url,
                secret.clone(),
                &events,
            ));
        }
        self.store
            .replace_player_targets(id, player, &targets, self.store.clock().now_millis())
            .await?;
        Ok(MyNotifications {
            email: targets.iter().any(|t| t.channel == "mail"),
            webhook: secret.is_some(),
            events,
            secret,
        })
    }

    /// Removes the player's own notifications (player only).
    pub async fn clear_my_notifications(
        &self,
        id: Uuid,
        token: Option<&str>,
    ) -> Result<(), AppError> {
        let snapshot = self.snapshot(id).await?;
        let player = require_player(&snapshot, &self.presented(token).await?)?.id;
        self.store
            .replace_player_targets(id, player, &[], self.store.clock().now_millis())
            .await?;
        Ok(())
    }

    /// The events the player's mail is for, or None when they gave no address (player only).
    /// The address itself stays with the delivery worker.
    pub async fn my_mail(
        &self,
        id: Uuid,
        token: Option<&str>,
    ) -> Result<Option<Vec<String>>, AppError> {
        let snapshot = self.snapshot(id).await?;
        let player = require_player(&snapshot, &self.presented(token).await?)?.id;
        Ok(self
            .store
            .targets(id, Some(player))
            .await?
            .into_iter()
            .find(|t| t.channel == Channel::Mail.as_str())
            .map(|t| t.kinds))
    }

    /// Gives or replaces the player's mail address for `events`, leaving their webhook as it
    /// is (player only). Without `email` the address already given is kept, so a player can
    /// change what they hear about without typing (or being shown) it again.
    pub async fn set_my_mail(
        &self,
        id: Uuid,
        token: Option<&str>,
        email: Option<String>,
        events: Vec<String>,
    ) -> Result<(), AppError> {
        let snapshot = self.snapshot(id).await?;
        let player = require_player(&snapshot, &self.presented(token).await?)?.id;
        let mut body = Map::new();
        body.insert("events".into(), Value::from(events));
        let events = take_events(&mut body, &lobby_events())?.unwrap_or_default();
        let email = match email {
            Some(email) => {
                self.check_email(&email)?;
                email
            }
            None => self
                .store
                .targets(id, Some(player))
                .await?
                .into_iter()
                .find(|t| t.channel == Channel::Mail.as_str())
                .map(|t| t.address)
                .ok_or_else(|| {
                    AppError::rejected("no-email", "Give the email address to send mail to.")
                })?,
        };
        let target = player_target(id, player, Channel::Mail, email, None, &events);
        self.store
            .replace_player_mail(id, player, Some(&target), self.store.clock().now_millis())
            .await?;
        Ok(())
    }

    /// Deletes the player's mail address, leaving their webhook as it is (player only).
    pub async fn clear_my_mail(&self, id: Uuid, token: Option<&str>) -> Result<(), AppError> {
        let snapshot = self.snapshot(id).await?;
        let player = require_player(&snapshot, &self.presented(token).await?)?.id;
        self.store
            .replace_player_mail(id, player, None, self.store.clock().now_millis())
            .await?;
        Ok(())
    }

    /// Mail must be on and `email` an address (RFC 5321's length, lettre's syntax).
    fn check_email(&self, email: &str) -> Result<(), AppError> {
        if !self.notify.mail_on() {
            return Err(AppError::rejected(
                "mail-off",
                "This server sends no mail (its operator set no SMTP relay).",
            ));
        }
        if email.chars().count() > MAX_EMAIL_CHARS || email.parse::<lettre::Address>().is_err() {
            return Err(AppError::rejected(
                "invalid-email",
                "That is not an email address.",
            ));
        }
        Ok(())
    }

    /// Deletes the mail destination an unsubscribe link names; false if the link is unknown.
    pub async fn unsubscribe(&self, token: &str) -> Result<bool, AppError> {
        Ok(self
            .store
            .unsubscribe(&super::auth::hash_token(token))
            .await?)
    }

    /// A URL's form and every address it resolves to, before anything is stored.
    pub(super) async fn check_target(&self, url: &str) -> Result<(), AppError> {
        if url.chars().count() > MAX_ADDRESS_CHARS {
            return Err(AppError::rejected(
                "invalid-url",
                format!("The URL is too long: at most {MAX_ADDRESS_CHARS} characters."),
            ));
        }
        match self.guard().check_url(url).await {
            Ok(_) => Ok(()),
            Err(refusal @ Refusal::Forbidden { .. }) => Err(AppError::rejected(
                "forbidden-target",
                format!("Herald does not send there: {refusal}."),
            )),
            Err(refusal) => Err(AppError::rejected(
                "invalid-url",
                format!("That URL cannot be used: {refusal}."),
            )),
        }
    }
}

fn player_target(
    lobby: Uuid,
    player: Uuid,
    channel: Channel,
    address: String,
    secret: Option<String>,
    events: &[String],
) -> NewTarget {
    NewTarget {
        id: Uuid::new_v4(),
        owner: Owner::Lobby(lobby),
        player_id: Some(player),
        channel: channel.as_str(),
        address,
        secret,
        kinds: events.to_vec(),
    }
}

pub(super) fn webhook_view(target: TargetRow, attempts: Vec<AttemptRow>) -> WebhookView {
    WebhookView {
        id: target.id,
        format: target.channel,
        target: redacted(&target.address),
        events: target.kinds,
        enabled: target.enabled,
        created_at: rfc3339(target.created_at),
        deliveries: attempts
            .into_iter()
            .map(|a| AttemptView {
                delivery_id: a.delivery_id,
                event: a.kind,
                attempt: a.attempt,
                at: rfc3339(a.at),
                status: a.status,
                error: a.error,
            })
            .collect(),
    }
}

/// `scheme://host[:port]/…`: enough to recognise a webhook, nothing of its path or query.
fn redacted(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(url) => format!(
            "{}://{}{}/…",
            url.scheme(),
            url.host_str().unwrap_or(""),
            url.port().map(|p| format!(":{p}")).unwrap_or_default()
        ),
        Err(_) => "…".into(),
    }
}

pub(super) fn webhook_id(text: &str) -> Result<Uuid, AppError> {
    Uuid::parse_str(text).map_err(|_| {
        AppError::not_found("unknown-webhook", format!("There is no webhook {text:?}."))
    })
}

/// `whose`: "lobby" or "tournament".
pub(super) fn unknown_webhook(whose: &str, id: Uuid) -> AppError {
    AppError::not_found(
        "unknown-webhook",
        format!("This {whose} has no webhook {id}."),
    )
}

/// The events a lobby's destinations may ask for, by the streams' names.
fn lobby_events() -> Vec<&'static str> {
    NOTIFIABLE.map(EventKind::as_str).to_vec()
}

/// A webhook to add, read from its body: its URL, its format, and the events it wants among
/// `offered` (`{"url", "format", "events"}`, nothing else).
pub(super) fn webhook_request(
    body: &mut Map<String, Value>,
    offered: &[&str],
) -> Result<(String, Channel, Vec<String>), AppError> {
    let url = take_text(body, "url")?;
    let channel = match take_text(body, "format")?.as_str() {
        "discord" => Channel::Discord,
        "standard" => Channel::Standard,
        other => {
            return Err(AppError::rejected(
                "invalid-format",
                format!("Unknown format {other:?}: \"discord\" or \"standard\"."),
            ));
        }
    };
    let events = take_events(body, offered)?
        .ok_or_else(|| AppError::malformed("invalid-body", "The body needs an \"events\" list."))?;
    no_more_fields(body)?;
    Ok((url, channel, events))
}

fn take_text(body: &mut Map<String, Value>, field: &str) -> Result<String, AppError> {
    take_optional_text(body, field)?.ok_or_else(|| {
        AppError::malformed(
            "invalid-body",
            format!("The body needs a \"{field}\" field."),
        )
    })
}

/// A string field, or None when absent or null.
fn take_optional_text(
    body: &mut Map<String, Value>,
    field: &str,
) -> Result<Option<String>, AppError> {
    match body.remove(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(AppError::malformed(
            "invalid-body",
            format!("\"{field}\" must be a string."),
        )),
    }
}

/// The `events` list: at least one, each among `offered`; duplicates dropped.
fn take_events(
    body: &mut Map<String, Value>,
    offered: &[&str],
) -> Result<Option<Vec<String>>, AppError> {
    let items = match body.remove("events") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(items)) => items,
        Some(_) => {
            return Err(AppError::malformed(
                "invalid-body",
                "\"events\" must be a list of event names.",
            ));
        }
    };
    let mut events = Vec::new();
    for item in items {
        let Value::String(name) = item else {
            return Err(AppError::malformed(
                "invalid-body",
                "\"events\" must be a list of event names.",
            ));
        };
        if !offered.contains(&name.as_str()) {
            return Err(AppError::rejected(
                "unknown-event",
                format!(
                    "No notification is sent for {name:?}; the events are: {}.",
                    offered.join(", ")
                ),
            ));
        }
        if !events.contains(&name) {
            events.push(name);
        }
    }
    if events.is_empty() {
        return Err(AppError::rejected(
            "no-events",
            "Name at least one event to be told about.",
        ));
    }
    events.sort();
    Ok(Some(events))
}

fn no_more_fields(body: &Map<String, Value>) -> Result<(), AppError> {
    match body.keys().next() {
        Some(field) => Err(AppError::malformed(
            "invalid-body",
            format!("Unknown field {field:?}."),
        )),
        None => Ok(()),
    }
}
