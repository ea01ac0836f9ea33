//! The host panel's controls over people and the game's end: remove a sign-up, reopen
//! sign-ups, replace a player, issue a new private link, kick, end the game. Each posts a
//! CSRF-checked form; a kick and an end need the "I am sure" box ticked, checked here, since
//! neither can be undone. A new private link is shown once, on the page answering the POST
//! (a redirect would have to carry the token in its address); everything else redirects back
//! to the panel, or shows the panel again with the reason.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::host_panel::{HostPage, host_page, host_token};
use super::session::{CheckedForm, Csrf};
use super::table::PublicPlayer;
use super::{Live, PageError, PagePath, again, base_url, lobby_id, see_other};
use crate::error::AppError;
use crate::http::AppState;

#[derive(Template, WebTemplate)]
#[template(path = "new_link.html")]
pub struct NewLinkPage {
    pub title: String,
    pub live: Option<Live>,
    pub lobby_id: String,
    pub who: String,
    pub message: String,
    pub link: String,
}

/// After a control: back to the panel (303), or the panel again with the refusal's reason.
pub(super) async fn back(
    app: &AppState,
    id: Uuid,
    headers: &HeaderMap,
    csrf: String,
    done: Result<(), AppError>,
) -> Result<Response, PageError> {
    match done {
        Ok(()) => Ok(see_other(&format!("/lobbies/{id}/host"), &[])),
        Err(error) => {
            let page = host_page(app, id, headers, csrf, false, None).await?;
            Ok(again(error, |message| HostPage {
                error: Some(message),
                ..page
            }))
        }
    }
}

/// The "I am sure" box a kick and an end need (422 without it).
fn confirmed(form: &CheckedForm, what: &str) -> Result<(), AppError> {
    match form.get("confirm") {
        "yes" => Ok(()),
        _ => Err(AppError::rejected(
            "confirmation-needed",
            format!("Tick \"I am sure\" to {what}: it cannot be undone."),
        )),
    }
}

pub async fn remove_signup(
    State(app): State<AppState>,
    PagePath((id, player)): PagePath<(String, String)>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = host_token(&app, id, &headers).await?;
    let done = app.host.remove_player(id, Some(&token), player).await;
    back(&app, id, &headers, csrf, done).await
}

pub async fn reopen_signups(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = host_token(&app, id, &headers).await?;
    let done = app.host.reopen_signups(id, Some(&token)).await.map(|_| ());
    back(&app, id, &headers, csrf, done).await
}

pub async fn kick_player(
    State(app): State<AppState>,
    PagePath((id, player)): PagePath<(String, String)>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = host_token(&app, id, &headers).await?;
    let done = match confirmed(&form, "kick a player") {
        Ok(()) => app.host.kick(id, Some(&token), player).await.map(|_| ()),
        Err(error) => Err(error),
    };
    back(&app, id, &headers, csrf, done).await
}

/// "Remind" on a waiting seat: the host's reminder through the player's own notifications
/// (docs/notifications.md, "Reminders"); nothing to confirm, since the store sends at most one
/// per player and step.
pub async fn remind_player(
    State(app): State<AppState>,
    PagePath((id, player)): PagePath<(String, String)>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = host_token(&app, id, &headers).await?;
    let done = app.host.remind(id, Some(&token), &player).await.map(drop);
    back(&app, id, &headers, csrf, done).await
}

pub async fn end_game(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = host_token(&app, id, &headers).await?;
    // A duel's form names the result: "draw" or the winner's id; a melee's names none.
    let ending: Map<String, Value> = match form.get("result") {
        "" => Map::new(),
        "draw" => json!({"result": "draw"})
            .as_object()
            .cloned()
            .unwrap_or_default(),
        winner => json!({"winner": winner})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    };
    let done = match confirmed(&form, "end the game") {
        Ok(()) => app
            .host
            .end_game(id, Some(&token), ending)
            .await
            .map(|_| ()),
        Err(error) => Err(error),
    };
    back(&app, id, &headers, csrf, done).await
}

pub async fn replace_player(
    State(app): State<AppState>,
    PagePath((id, player)): PagePath<(String, String)>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = host_token(&app, id, &headers).await?;
    let name = form.get("name").to_owned();
    let issued = app
        .host
        .replace_player(id, Some(&token), player, name)
        .await;
    new_link(&app, id, &headers, csrf, issued, "takes the seat").await
}

pub async fn reissue_link(
    State(app): State<AppState>,
    PagePath((id, player)): PagePath<(String, String)>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = host_token(&app, id, &headers).await?;
    let issued = app.host.reissue_token(id, Some(&token), player).await;
    new_link(&app, id, &headers, csrf, issued, "has a new private link").await
}

/// Shows the link a new token makes, once; or the panel again with the refusal.
async fn new_link(
    app: &AppState,
    id: Uuid,
    headers: &HeaderMap,
    csrf: String,
    issued: Result<crate::host::Joined, AppError>,
    what: &str,
) -> Result<Response, PageError> {
    let issued = match issued {
        Ok(issued) => issued,
        Err(error) => return back(app, id, headers, csrf, Err(error)).await,
    };
    let lobby = app.host.lobby(id).await?;
    let who = PublicPlayer::all(&lobby.players)
        .into_iter()
        .find(|p| p.id == issued.player_id.to_string())
        .map(|p| p.name)
        .unwrap_or_default();
    Ok(NewLinkPage {
        title: format!("Host: {}", lobby.name),
        live: None,
        lobby_id: id.to_string(),
        message: format!("{who} {what}."),
        link: format!(
            "{}/lobbies/{id}/as/{}",
            base_url(headers),
            issued.player_token
        ),
        who,
    }
    .into_response())
}
