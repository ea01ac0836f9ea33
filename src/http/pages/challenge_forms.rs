//! Challenges on the pages (docs/bots.md, "Challenges"): a signed-in person challenges a
//! profile (a bot, another person) from its page, `/u/{handle}`; `/me` lists the challenges to
//! the profile with Accept and Decline, and those it made with where each stands. An accepted
//! challenge's game is played at once from its lobby's pages, the seat being the profile's
//! (`play.rs`, [`super::play::SeatHold::Profile`]). Forms POST and answer with a 303 or the
//! page again; all of it works with JavaScript off.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::Map;

use super::me_page::{me_page, session_of, signed_out};
use super::profile_page::{ProfilePage, profile_page};
use super::session::CheckedForm;
use super::{PageError, PagePath, again, see_other};
use crate::host::GameKind;
use crate::host::challenges::{ChallengeView, SentChallenge, SentState};
use crate::http::AppState;

/// The challenge form on another profile's page, for a signed-in visitor.
pub struct ChallengeOffer {
    /// Each game's id and title, in the registry's order.
    pub games: Vec<(&'static str, &'static str)>,
    /// Why the last challenge from this form was refused.
    pub error: Option<String>,
}

impl ChallengeOffer {
    pub fn new() -> ChallengeOffer {
        ChallengeOffer {
            games: GameKind::ALL
                .into_iter()
                .map(|kind| (kind.id(), kind.title()))
                .collect(),
            error: None,
        }
    }
}

/// One challenge to the profile, with its Accept and Decline forms.
pub struct ReceivedLine {
    pub id: String,
    pub from: String,
    pub game: String,
}

/// One challenge the profile made, and where it stands.
pub struct SentLine {
    pub to: String,
    pub game: String,
    pub state: &'static str,
    /// The game's lobby, once accepted.
    pub lobby: Option<String>,
}

/// The challenges section of `/me`.
pub struct ChallengesShown {
    pub received: Vec<ReceivedLine>,
    pub sent: Vec<SentLine>,
}

fn game_title(id: &str) -> String {
    id.parse::<GameKind>()
        .map_or_else(|_| id.to_owned(), |kind| kind.title().to_owned())
}

impl ChallengesShown {
    pub fn of(received: &[ChallengeView], sent: &[SentChallenge]) -> ChallengesShown {
        ChallengesShown {
            received: received
                .iter()
                .map(|c| ReceivedLine {
                    id: c.id.to_string(),
                    from: c.from.clone(),
                    game: game_title(&c.game),
                })
                .collect(),
            sent: sent
                .iter()
                .map(|c| SentLine {
                    to: c.to.clone(),
                    game: game_title(&c.game),
                    state: match c.state {
                        SentState::Waiting => "waiting for an answer",
                        SentState::Accepted(_) => "accepted",
                        SentState::Declined => "declined",
                        SentState::Lapsed => "not answered within a day",
                    },
                    lobby: match c.state {
                        SentState::Accepted(lobby) => Some(lobby.to_string()),
                        SentState::Waiting | SentState::Declined | SentState::Lapsed => None,
                    },
                })
                .collect(),
        }
    }
}

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
