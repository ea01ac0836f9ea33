//! What the notifications section shows (`templates/host_webhooks.html`), on a lobby's host
//! panel and on a tournament director's: the webhooks with their latest attempts, the events a
//! webhook may ask for in words, and (a lobby's) whether mail is on. Its forms are handled in
//! `host_webhooks.rs` and `director_webhooks.rs`.

use serde_json::{Map, Value};

use super::session::CheckedForm;
use crate::error::AppError;
use crate::events::EventKind;
use crate::host::WebhookView;
use crate::host::tournaments::news::{FINISHED, ROUND_STARTED, TOURNAMENT_EVENTS};
use crate::http::AppState;

/// What the section shows.
pub struct WebhooksSection {
    /// Whose webhooks they are.
    pub whose: Whose,
    /// Where its forms post (`…/webhooks`, and `…/webhooks/{id}/test` and so on).
    pub action: String,
    pub webhooks: Vec<WebhookView>,
    /// The events a webhook may ask for, each with its label and whether it is ticked.
    pub events: Vec<EventChoice>,
    /// A lobby's: whether players can give an email address on this server.
    pub mail_on: Option<bool>,
    /// The add form's refusal, shown beside it, with the address as typed.
    pub add_error: Option<String>,
    pub add_url: String,
    /// The webhook a test was just sent to.
    pub tested: Option<String>,
}

/// What a host or a director asked for in the section's forms.
pub enum Action {
    Add,
    Test(String),
    Enable(String),
    Delete(String),
}

impl Action {
    /// The webhook a test is sent to, which the panel marks once it is on its way.
    pub fn tested(&self) -> Option<String> {
        match self {
            Action::Test(hook) => Some(hook.clone()),
            Action::Add | Action::Enable(_) | Action::Delete(_) => None,
        }
    }
}

/// The add form as the API's body: its address, format and ticked events.
pub fn new_webhook(form: &CheckedForm) -> Map<String, Value> {
    let mut body = Map::new();
    body.insert("url".into(), form.get("url").trim().into());
    body.insert("format".into(), form.get("format").into());
    let events: Vec<Value> = form
        .fields
        .iter()
        .filter(|(k, _)| k == "events")
        .map(|(_, v)| Value::from(v.as_str()))
        .collect();
    body.insert("events".into(), Value::Array(events));
    body
}

/// Whose news a section's webhooks carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whose {
    Lobby,
    Tournament,
}

impl std::fmt::Display for Whose {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Whose::Lobby => "lobby",
            Whose::Tournament => "tournament",
        })
    }
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

/// A tournament's event as the director reads it on the form and in the attempts' list.
fn tournament_event_label(name: &str) -> &'static str {
    match name {
        ROUND_STARTED => "A round is paired (its games with their links, the byes, the deadline)",
        FINISHED => "The tournament is over (the final standings, with the winner)",
        "test" => "A test message",
        _ => "An event this server no longer sends",
    }
}

impl WebhooksSection {
    /// A lobby's section, for its host.
    pub async fn of(app: &AppState, id: uuid::Uuid, token: &str) -> Result<Self, AppError> {
        Ok(WebhooksSection {
            whose: Whose::Lobby,
            action: format!("/lobbies/{id}/host/webhooks"),
            webhooks: app.host.webhooks(id, Some(token)).await?,
            events: crate::store::outbox::NOTIFIABLE
                .into_iter()
                .map(|kind| EventChoice {
                    key: kind.as_str(),
                    label: in_words(kind),
                    checked: ticked(kind),
                })
                .collect(),
            mail_on: Some(app.host.notify_settings().mail_on()),
            add_error: None,
            add_url: String::new(),
            tested: None,
        })
    }

    /// A tournament's section, for its director: both its events ticked until he chooses.
    pub async fn of_tournament(
        app: &AppState,
        id: uuid::Uuid,
        token: &str,
    ) -> Result<Self, AppError> {
        Ok(WebhooksSection {
            whose: Whose::Tournament,
            action: format!("/tournaments/{id}/director/webhooks"),
            webhooks: app.host.tournament_webhooks(id, Some(token)).await?,
            events: TOURNAMENT_EVENTS
                .into_iter()
                .map(|key| EventChoice {
                    key,
                    label: tournament_event_label(key),
                    checked: true,
                })
                .collect(),
            mail_on: None,
            add_error: None,
            add_url: String::new(),
            tested: None,
        })
    }

    /// An event's stored name in words, as this section's owner names its events.
    pub fn label(&self, name: &str) -> String {
        match self.whose {
            Whose::Tournament => tournament_event_label(name).to_owned(),
            Whose::Lobby => event_label(name),
        }
    }

    /// Whether the section opens unfolded: something in it needs the host's eye.
    pub fn needs_attention(&self) -> bool {
        self.add_error.is_some()
            || self.tested.is_some()
            || self.webhooks.iter().any(|hook| !hook.enabled)
    }
}
