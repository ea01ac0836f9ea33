//! A player's table talk (docs/table-talk.md, "Pages"): the public channel and a conversation
//! per correspondent, each with its unread count, and the form to write in it (POST, then 303
//! back to the conversation). Opening a conversation marks it read. Works without JavaScript:
//! the form is a plain POST, and the conversation list's links open the others.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use uuid::Uuid;

use super::seat_hold::player_token;
use super::session::{CheckedForm, Csrf};
use super::table::names;
use super::{PageError, PagePath, again, lobby_id, see_other};
use crate::error::AppError;
use crate::events::{AllPlayers, Recipients};
use crate::host::talk_reads::{PUBLIC, Talk};
use crate::http::AppState;

/// One conversation in the list.
pub struct Entry {
    pub key: String,
    pub name: String,
    pub unread: usize,
    pub current: bool,
}

/// One message as the page shows it.
pub struct Line {
    pub from: String,
    pub mine: bool,
    pub at: String,
    pub text: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "talk.html")]
pub struct TalkPage {
    pub title: String,
    /// No live updates: a swap would throw away what is being typed.
    pub live: Option<super::Live>,
    pub csrf: String,
    pub lobby_id: String,
    pub entries: Vec<Entry>,
    /// The open conversation's key and its correspondent's name ("everyone" for the channel).
    pub with: String,
    pub with_name: String,
    pub lines: Vec<Line>,
    /// Whether messages can be sent (the game runs).
    pub open: bool,
    pub typed: String,
    pub error: Option<String>,
}

/// The messages everyone may read, as the lobby page shows them (`Ann to Bob`, `Ann to
/// everyone`): the public ones, and all of them once the game is over with `press_reveal`.
pub(super) async fn public_lines(
    app: &AppState,
    id: Uuid,
    names: &super::table::Names,
) -> Result<Vec<Line>, AppError> {
    let name = |id: &Uuid| {
        names
            .get(&id.to_string())
            .cloned()
            .unwrap_or_else(|| "a player".into())
    };
    Ok(app
        .host
        .public_messages(id)
        .await?
        .into_iter()
        .map(|m| Line {
            from: match &m.to {
                Recipients::All(_) => format!("{} to everyone", name(&m.from)),
                Recipients::Players(to) => format!(
                    "{} to {}",
                    name(&m.from),
                    to.iter().map(name).collect::<Vec<_>>().join(", ")
                ),
            },
            mine: false,
            at: m.at.replace('T', " ").chars().take(16).collect(),
            text: m.text,
        })
        .collect())
}

/// `?with=all` or `?with=<player id>`: the conversation to open (the public channel if none).
#[derive(serde::Deserialize)]
pub struct With {
    with: Option<String>,
}

/// The page for the conversation `with`, marking it read.
async fn talk_page(
    app: &AppState,
    id: Uuid,
    headers: &HeaderMap,
    csrf: String,
    with: &str,
) -> Result<TalkPage, PageError> {
    let token = player_token(app, id, headers).await?;
    let talk: Talk = app.host.talk(id, &token).await?.ok_or_else(|| {
        AppError::not_found("no-press", "This game is played without table talk.")
    })?;
    let lobby = app.host.lobby(id).await?;
    let names = names(&lobby.players);
    let name_of = |key: &str| match key {
        PUBLIC => "everyone".to_owned(),
        key => names.get(key).cloned().unwrap_or_else(|| "a player".into()),
    };
    let conversation = talk
        .conversations
        .iter()
        .find(|c| c.key == with)
        .ok_or_else(|| {
            AppError::not_found(
                "unknown-conversation",
                "There is no such conversation here.",
            )
        })?;
    if let Some((seq, _)) = conversation.messages.last() {
        app.host.mark_read(id, &token, with, *seq).await?;
    }
    let you = talk.you.to_string();
    Ok(TalkPage {
        title: format!("{}: table talk", lobby.name),
        live: None,
        csrf,
        lobby_id: id.to_string(),
        entries: talk
            .conversations
            .iter()
            .map(|c| Entry {
                key: c.key.clone(),
                name: name_of(&c.key),
                // The open one is read now.
                unread: if c.key == with { 0 } else { c.unread },
                current: c.key == with,
            })
            .collect(),
        with: with.to_owned(),
        with_name: name_of(with),
        lines: conversation
            .messages
            .iter()
            .map(|(_, m)| Line {
                from: name_of(&m.from.to_string()),
                mine: m.from.to_string() == you,
                at: m.at.replace('T', " ").chars().take(16).collect(),
                text: m.text.clone(),
            })
            .collect(),
        open: talk.open,
        typed: String::new(),
        error: None,
    })
}

pub async fn show_talk(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    with: Result<Query<With>, QueryRejection>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
) -> Result<TalkPage, PageError> {
    let Query(with) = with.map_err(|e| AppError::malformed("invalid-query", e.body_text()))?;
    let id = lobby_id(&id)?;
    talk_page(
        &app,
        id,
        &headers,
        csrf,
        with.with.as_deref().unwrap_or(PUBLIC),
    )
    .await
}

pub async fn send_message(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    posted: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = player_token(&app, id, &headers).await?;
    let with = posted.get("to").to_owned();
    let to = match with.as_str() {
        PUBLIC => Ok(Recipients::All(AllPlayers::All)),
        key => key
            .parse::<Uuid>()
            .map(|player| Recipients::Players(vec![player]))
            .map_err(|_| AppError::malformed("invalid-body", "Choose whom to write to.")),
    };
    let text = posted.get("text");
    let result = match to {
        Ok(to) => app
            .host
            .send_message(id, Some(&token), to, text)
            .await
            .map(|_| ()),
        Err(error) => Err(error),
    };
    match result {
        Ok(()) => Ok(see_other(
            &format!("/lobbies/{id}/play/talk?with={with}#latest"),
            &[],
        )),
        Err(error) => {
            let shown = if with.parse::<Uuid>().is_ok() {
                with.as_str()
            } else {
                PUBLIC
            };
            let page = talk_page(&app, id, &headers, csrf, shown).await?;
            Ok(again(error, |message| TalkPage {
                error: Some(message),
                typed: text.to_owned(),
                ..page
            }))
        }
    }
}
