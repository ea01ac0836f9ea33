//! Entering and withdrawing from a tournament's page (docs/tournaments.md, "The pages"): the
//! browser's signed-in profile enters or withdraws, as its profile key would through the API.
//! Each form POSTs and answers with a 303 to the page, or the page again with the reason.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;

use super::session::{CheckedForm, Csrf};
use super::signed_in::{session_of, signed_out};
use super::tournament_page::{TournamentPage, tournament_page};
use super::{PageError, PagePath, again, see_other};
use crate::error::AppError;
use crate::http::AppState;
use crate::http::api::tournament_id;

/// The page again after `error`, with no reload: it answers a form.
async fn refused(
    app: &AppState,
    headers: &HeaderMap,
    csrf: String,
    id: uuid::Uuid,
    error: AppError,
) -> Result<Response, PageError> {
    let page = tournament_page(app, headers, csrf, id).await?;
    Ok(again(error, |message| TournamentPage {
        error: Some(message),
        refresh: false,
        ..page
    }))
}

/// POST /tournaments/{id}/enter.
pub async fn enter(
    State(app): State<AppState>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    PagePath(id): PagePath<String>,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let id = tournament_id(&id)?;
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    match app.host.enter_tournament_as(id, session.profile).await {
        Ok(()) => Ok(see_other(&format!("/tournaments/{id}#entry"), &[])),
        Err(error) => refused(&app, &headers, csrf, id, error).await,
    }
}

/// POST /tournaments/{id}/withdraw: while games are played it forfeits the one in
/// progress, so it needs the "I am sure" box (`confirm=yes`).
pub async fn withdraw(
    State(app): State<AppState>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    PagePath(id): PagePath<String>,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let id = tournament_id(&id)?;
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    let running = app.host.tournament(id).await?.status == "running";
    let withdrawn = match running && form.get("confirm") != "yes" {
        true => Err(AppError::rejected(
            "unconfirmed",
            "Tick \u{201c}I am sure\u{201d} to withdraw: your game in progress is lost by forfeit.",
        )),
        false => {
            app.host
                .withdraw_from_tournament_as(id, session.profile)
                .await
        }
    };
    match withdrawn {
        Ok(()) => Ok(see_other(&format!("/tournaments/{id}#entry"), &[])),
        Err(error) => refused(&app, &headers, csrf, id, error).await,
    }
}
