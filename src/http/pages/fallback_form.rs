//! The fallback order form on a player's page: set (or replace) and remove. It is the main
//! step's order form, posted here; the order is stored without its round and step.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;

use super::play::after_action;
use super::prompt_form::{form_for, order_body};
use super::seat_hold::player_token;
use super::session::{CheckedForm, Csrf};
use super::{PageError, lobby_id};
use crate::error::AppError;
use crate::http::AppState;

pub async fn set_fallback(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    posted: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = player_token(&app, id, &headers).await?;
    let lobby = app.host.lobby(id).await?;
    let me = app.host.me(id, Some(&token)).await?;
    let attempt = match &me.prompt_value()? {
        Some(prompt) if prompt["step"] == lobby.game.main_step() => {
            form_for(lobby.game, lobby.max_rounds, prompt, None)
                .and_then(|form| order_body(&form, &posted))
        }
        Some(_) | None => Err(AppError::conflict(
            "nothing-owed",
            "A fallback order is set from a round's order form; there is none open for you now.",
        )),
    };
    let result = match attempt {
        Ok(mut body) => {
            body.remove("round");
            body.remove("step");
            app.host
                .set_fallback(id, Some(&token), body)
                .await
                .map(drop)
        }
        Err(error) => Err(error),
    };
    after_action(
        &app,
        id,
        &headers,
        csrf,
        result,
        &format!("/lobbies/{id}/play#fallback"),
    )
    .await
}

pub async fn clear_fallback(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = player_token(&app, id, &headers).await?;
    let result = app.host.clear_fallback(id, Some(&token)).await;
    after_action(
        &app,
        id,
        &headers,
        csrf,
        result,
        &format!("/lobbies/{id}/play#fallback"),
    )
    .await
}
