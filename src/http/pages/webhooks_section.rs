//! What the host panel's notifications section shows (`templates/host_webhooks.html`): the
//! lobby's webhooks with their latest attempts, the events a webhook may ask for in words, and
//! whether mail is on. Its forms are handled in `host_webhooks.rs`.

use crate::error::AppError;
use crate::events::EventKind;
use crate::host::WebhookView;
use crate::http::AppState;

/// What the section shows.
pub struct WebhooksSection {
    pub webhooks: Vec<WebhookView>,
    /// The events a webhook may ask for, each with its label and whether it is ticked.
    pub events: Vec<EventChoice>,
    /// Whether players can give an email address on this server.
    pub mail_on: bool,
    /// The add form's refusal, shown beside it, with the address as typed.
    pub add_error: Option<String>,
    pub add_url: String,
    /// The webhook a test was just sent to.
    pub tested: Option<String>,
}

/// One event of the add form.
pub struct EventChoice {
    pub key: &'static str,
    pub label: &'static str,
    pub checked: bool,
}

/// An event as the host reads it on the form and in the attempts' list.
pub fn in_words(kind: EventKind) -> &'static str {
    match kind {
        EventKind::PlayerJoined => "A player joins",
        EventKind::SignupsClosed => "Sign-ups close",
        EventKind::Started => "The game starts",
        EventKind::Submitted => "A player sends an answer",
        EventKind::StepResolved => "A step resolves",
        EventKind::RoundResolved => "A round's results are out (with the next deadline)",
        EventKind::Finished => "The game is over (with the winner)",
        EventKind::PlayerReplaced => "A substitute takes a seat",
        EventKind::PlayerKicked => "A player is removed",
        EventKind::PlayerLeft => "A player leaves before the start",
        EventKind::SignupsReopened => "Sign-ups reopen",
        EventKind::EndedByHost => "The host ends the game",
        EventKind::DeadlineSet => "A deadline is set or moved",
        EventKind::DeadlineApproaching => "A deadline is near (with who is missing)",
        EventKind::Paused => "The clock is paused",
        EventKind::Resumed => "The clock runs again",
        EventKind::Message => "A player writes to the table",
    }
}

/// An event's stored name in words (a name this build does not know stays as it is).
pub fn event_label(name: &str) -> String {
    match EventKind::parse(name) {
        Some(kind) => in_words(kind).to_owned(),
        None if name == "test" => "A test message".to_owned(),
        None => name.to_owned(),
    }
}

/// The events ticked on a new webhook's form until the host chooses: the game's turns.
fn ticked(kind: EventKind) -> bool {
    matches!(
        kind,
        EventKind::Started
            | EventKind::RoundResolved
            | EventKind::DeadlineApproaching
            | EventKind::Finished
    )
}

impl WebhooksSection {
    pub async fn of(app: &AppState, id: uuid::Uuid, token: &str) -> Result<Self, AppError> {
        Ok(WebhooksSection {
            webhooks: app.host.webhooks(id, Some(token)).await?,
            events: crate::store::outbox::NOTIFIABLE
                .into_iter()
                .map(|kind| EventChoice {
                    key: kind.as_str(),
                    label: in_words(kind),
                    checked: ticked(kind),
                })
                .collect(),
            mail_on: app.host.notify_settings().mail_on(),
            add_error: None,
            add_url: String::new(),
            tested: None,
        })
    }

    /// Whether the section opens unfolded: something in it needs the host's eye.
    pub fn needs_attention(&self) -> bool {
        self.add_error.is_some()
            || self.tested.is_some()
            || self.webhooks.iter().any(|hook| !hook.enabled)
    }
}
