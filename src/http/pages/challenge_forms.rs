//! Challenges on the pages (docs/bots.md, "Challenges"): a signed-in person challenges a
//! profile (a bot, another person) from its page, `/u/{handle}`; `/me` lists the challenges to
//! the profile with Accept and Decline, and those it made with where each stands. An accepted
//! challenge's game is played at once from its lobby's pages, the seat being the profile's
//! (`seat_hold.rs`, [`super::seat_hold::SeatHold::Profile`]). Forms POST and answer with a 303 or the
//! page again; all of it works with JavaScript off.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::Map;

use super::challenge_lines::ChallengeOffer;
use super::me_page::me_page;
use super::profile_page::{ProfilePage, profile_page};
use super::session::CheckedForm;
use super::signed_in::{session_of, signed_out};
use super::{PageError, PagePath, again, see_other};
use crate::http::AppState;

/// POST /u/{handle}/challenge: the signed-in profile challenges `handle` to the form's game;
/// then `/me`, where the challenge waits for its answer.
pub async fn challenge(
    State(app): State<AppState>,
    PagePath(handle): PagePath<String>,
    headers: HeaderMap,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    let made = app
        .host
        .create_challenge_as(&session.profile, form.get("game"), &handle, Map::new())
        .await;
    match made {
        Ok(_) => Ok(see_other("/me#challenges", &[])),
        Err(error) => {
            let page = profile_page(&app, &headers, &handle, form.get("csrf").to_owned()).await?;
            Ok(again(error, |message| ProfilePage {
                challenge: page.challenge.map(|offer| ChallengeOffer {
                    error: Some(message),
                    ..offer
                }),
                ..page
            }))
        }
    }
}

/// POST /me/challenges/{id}/accept: the game starts, and its player's page opens.
pub async fn accept(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    match app.host.accept_challenge_as(session.profile, &id).await {
        Ok(lobby) => Ok(see_other(&format!("/lobbies/{lobby}/play"), &[])),
        Err(error) => refused(&app, &headers, &form, error).await,
    }
}

/// POST /me/challenges/{id}/decline.
pub async fn decline(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    match app.host.decline_challenge_as(session.profile, &id).await {
        Ok(()) => Ok(see_other("/me#challenges", &[])),
        Err(error) => refused(&app, &headers, &form, error).await,
    }
}

/// `/me` again, saying why an answer was refused (answered already, lapsed, not yours).
async fn refused(
    app: &AppState,
    headers: &HeaderMap,
    form: &CheckedForm,
    error: crate::error::AppError,
) -> Result<Response, PageError> {
    let page = me_page(app, headers, form.get("csrf").to_owned(), None).await?;
    Ok(again(error, |message| super::me_page::MePage {
        challenge_error: Some(message),
        ..page
    }))
}
