//! Passkeys on the pages (docs/identity.md, "Passkeys"): the script on `/me`
//! (`static/passkeys.js`) begins a ceremony, hands its options to the browser's WebAuthn, and
//! sends the answer back; signing in with one sets the same session cookie a key's link does.
//! The ceremony routes answer JSON (only the script calls them), and their errors are the
//! pages' HTML error pages, whose sentence the script shows; revoking is a plain form.
//! With no relying party configured the ceremonies are 404 `passkeys-off` (a passkey made
//! before can still be revoked).

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::header::SET_COOKIE;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::session::{CheckedForm, Transport};
use super::signed_in::{session_cookie, session_of, signed_out};
use super::{PageError, PagePath, see_other};
use crate::error::AppError;
use crate::host::passkeys::{Begun, Passkeys};
use crate::http::AppState;

fn relying_party(app: &AppState) -> Result<&Passkeys, AppError> {
    app.edge.passkeys.as_ref().ok_or_else(|| {
        AppError::not_found(
            "passkeys-off",
            "This server has no public URL configured, so it offers no passkeys.",
        )
    })
}

fn begun(begun: Begun) -> Response {
    Json(json!({"ceremony": begun.ceremony, "options": begun.options})).into_response()
}

/// POST /me/passkeys/begin: the options to make a passkey for this browser's profile.
pub async fn begin_registration(
    State(app): State<AppState>,
    headers: HeaderMap,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let rp = relying_party(&app)?;
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    Ok(begun(
        app.host
            .begin_passkey_registration(rp, &session.profile)
            .await?,
    ))
}

/// POST /me/passkeys/finish: stores the passkey the browser made.
pub async fn finish_registration(
    State(app): State<AppState>,
    headers: HeaderMap,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let rp = relying_party(&app)?;
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    app.host
        .finish_passkey_registration(
            rp,
            session.profile.id,
            form.get("ceremony"),
            form.get("credential"),
        )
        .await?;
    Ok(Json(json!({"to": "/me"})).into_response())
}

/// POST /me/passkeys/sign-in/begin: the options to sign in as `handle` with a passkey.
pub async fn begin_sign_in(
    State(app): State<AppState>,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let rp = relying_party(&app)?;
    Ok(begun(
        app.host
            .begin_passkey_sign_in(rp, form.get("handle"))
            .await?,
    ))
}

/// POST /me/passkeys/sign-in/finish: checks the passkey's answer and signs this browser in.
pub async fn finish_sign_in(
    State(app): State<AppState>,
    transport: Transport,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let rp = relying_party(&app)?;
    let started = app
        .host
        .finish_passkey_sign_in(rp, form.get("ceremony"), form.get("credential"))
        .await?;
    let mut response = Json(json!({"to": "/me"})).into_response();
    response
        .headers_mut()
        .append(SET_COOKIE, session_cookie(&started.secret, transport));
    Ok(response)
}

/// POST /me/passkeys/{id}/revoke: removes a passkey of this browser's profile.
pub async fn revoke(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    app.host.remove_passkey(session.profile.id, &id).await?;
    Ok(see_other("/me", &[]))
}
