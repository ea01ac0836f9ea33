//! The session cookie lives as long as the session (docs/identity.md, "Signing in"). The
//! server slides a session's end 90 days on as the browser uses it, but a cookie set once at
//! sign-in would still be dropped by the browser 90 days after it: so when a page request
//! slides the session, its response sends the cookie again with its full age. A session
//! slides at most once an hour, so nearly every page sends no cookie at all.

use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::http::header::SET_COOKIE;
use axum::middleware::Next;
use axum::response::Response;

use super::session::Transport;
use super::signed_in::{SESSION_COOKIE, session_cookie, session_secret};
use crate::http::AppState;

/// Middleware for the pages, inside the one that settles the [`Transport`]: slides the
/// browser's session if it is due, and then sends its cookie again, unless the page itself
/// set or cleared it (a sign-in or a sign-out answers for the cookie).
pub async fn slide_session_cookie(
    State(app): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let secret = session_secret(request.headers()).map(str::to_owned);
    let transport = request.extensions().get::<Transport>().copied();
    let slid = match &secret {
        Some(secret) => app
            .host
            .slide_session(secret)
            .await
            .unwrap_or_else(|error| {
                // The page still answers: a session that did not slide this time slides on a
                // later request.
                tracing::warn!(%error, "a session could not be slid");
                false
            }),
        None => false,
    };
    let mut response = next.run(request).await;
    if let (true, Some(secret), Some(transport)) = (slid, secret, transport)
        && !sets_session_cookie(response.headers())
    {
        response
            .headers_mut()
            .append(SET_COOKIE, session_cookie(&secret, transport));
    }
    response
}

/// Whether a response already sets (or clears) the session cookie.
fn sets_session_cookie(headers: &HeaderMap) -> bool {
    let prefix = format!("{SESSION_COOKIE}=");
    headers
        .get_all(SET_COOKIE)
        .iter()
        .any(|value| value.as_bytes().starts_with(prefix.as_bytes()))
}
