//! The mail form on a player's page (`docs/notifications.md` "Mail from the
//! player's page"): give or replace an address, choose what to hear about, stop. The address
//! is never shown back, not even to its owner: the page says only that mail is on and for what.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;

use super::mail_section::events_of;
use super::play::{PlayPage, after_action, play_page};
use super::seat_hold::player_token;
use super::session::{CheckedForm, Csrf};
use super::{PageError, PagePath, again, lobby_id, see_other};
use crate::http::AppState;

/// `POST /lobbies/{id}/play/mail`: `email` (empty keeps the address already given) and the
/// ticked `events`.
pub async fn set_mail(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    posted: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = player_token(&app, id, &headers).await?;
    let typed = posted.get("email").trim().to_owned();
    let ticked = posted.all("events");
    let email = (!typed.is_empty()).then(|| typed.clone());
    let result = match events_of(&ticked) {
        Ok(events) => app.host.set_my_mail(id, Some(&token), email, events).await,
        Err(error) => Err(error),
    };
    match result {
        Ok(()) => Ok(see_other(
            &format!("/lobbies/{id}/play?mail=saved#mail"),
            &[],
        )),
        Err(error) => {
            let shown = match error.code() {
                "invalid-email" => typed,
                _ => String::new(),
            };
            let page = play_page(&app, id, &headers, csrf, None).await?;
            Ok(again(error, |message| PlayPage {
                mail: page.mail.refused(message, shown, &ticked),
                ..page
            }))
        }
    }
}

/// `POST /lobbies/{id}/play/mail/stop`: deletes the address.
pub async fn stop_mail(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = player_token(&app, id, &headers).await?;
    let result = app.host.clear_my_mail(id, Some(&token)).await;
    let to = format!("/lobbies/{id}/play?mail=stopped#mail");
    after_action(&app, id, &headers, csrf, result, &to).await
}
