//! What the host panel's notifications section shows (`templates/host_webhooks.html`): the
//! lobby's webhooks with their latest attempts, the events a webhook may ask for, and whether
//! mail is on. Its forms are handled in `host_webhooks.rs`.

use crate::error::AppError;
use crate::events::EventKind;
use crate::host::WebhookView;
use crate::http::AppState;

/// What the section shows.
pub struct WebhooksSection {
    pub webhooks: Vec<WebhookView>,
    /// The event names a webhook may ask for.
    pub events: Vec<&'static str>,
    /// Whether players can give an email address on this server.
    pub mail_on: bool,
}

impl WebhooksSection {
    pub async fn of(app: &AppState, id: uuid::Uuid, token: &str) -> Result<Self, AppError> {
        Ok(WebhooksSection {
            webhooks: app.host.webhooks(id, Some(token)).await?,
            events: crate::store::outbox::NOTIFIABLE
                .map(EventKind::as_str)
                .to_vec(),
            mail_on: app.host.notify_settings().mail_on(),
        })
    }
}
