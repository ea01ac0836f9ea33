//! Who a browser is signed in as (docs/identity.md, "Signing in"): the session cookie, its
//! secret, and the live session it names. Every page that asks who is signed in reads it here.

use axum::http::{HeaderMap, HeaderValue};

use super::PageError;
use super::session::{Transport, cookie};
use crate::error::AppError;
use crate::host::my_games::well_formed_key;
use crate::host::sign_in::{SESSION_MILLIS, Session};
use crate::http::AppState;

/// The cookie that holds a signed-in browser's session secret.
pub const SESSION_COOKIE: &str = "herald_session";

/// The `Set-Cookie` header that keeps a session's secret for as long as the session lasts.
pub fn session_cookie(secret: &str, transport: Transport) -> HeaderValue {
    let secure = if transport.https { "; Secure" } else { "" };
    let age = SESSION_MILLIS / 1000;
    let text =
        format!("{SESSION_COOKIE}={secret}; Path=/; Max-Age={age}; HttpOnly; SameSite=Lax{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// This browser's session secret, if its cookie holds a well-formed one (live or not).
pub fn session_secret(headers: &HeaderMap) -> Option<&str> {
    cookie(headers, SESSION_COOKIE).filter(|s| well_formed_key(s))
}

/// This browser's session, if its cookie names a live one.
pub async fn session_of(app: &AppState, headers: &HeaderMap) -> Result<Option<Session>, PageError> {
    match session_secret(headers) {
        Some(secret) => Ok(app.host.session(secret).await?),
        None => Ok(None),
    }
}

/// The refusal of a page that needs a signed-in browser.
pub fn signed_out() -> PageError {
    PageError(AppError::unauthenticated(
        "signed-out",
        "This browser is not signed in: open your profile's sign-in link first.",
    ))
}
