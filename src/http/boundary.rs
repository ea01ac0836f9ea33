//! What every request and every response passes through, whichever route answers (the
//! catch-all 404 and the static files included):
//! - a declared `Content-Length` over the body limit is answered 413 at once, before any of
//!   the body is read, and the connection is closed;
//! - every error has Herald's shape: the JSON error under `/api`, an HTML page elsewhere
//!   (a rejection that slipped past an extractor is rewritten, never shown as plain text);
//! - the security headers: no sniffing, no framing, no referrer (private links live in page
//!   addresses), a content security policy, and `no-store` unless the route chose a cache.

use axum::extract::Request;
use axum::http::header::{
    CACHE_CONTROL, CONNECTION, CONTENT_LENGTH, CONTENT_SECURITY_POLICY, CONTENT_TYPE,
    REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::extract::body_limit;
use super::pages::{PageError, error::status_page};
use crate::error::AppError;

/// The policy for pages: everything from Herald itself (the stylesheet and `herald.js`), no
/// inline script or style, forms post only here, no framing.
const PAGE_POLICY: &str =
    "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/// The policy for everything that is not a page (JSON, event streams, static files).
const OTHER_POLICY: &str = "default-src 'none'; frame-ancestors 'none'";

pub async fn boundary(request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/");
    let limit = body_limit(request.method(), request.uri().path());
    let response = if declared_length(request.headers()).is_some_and(|n| n > limit as u64) {
        let mut response = render(api, AppError::TooLarge { limit });
        // The body is never read, so the connection cannot carry another request.
        response
            .headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
        response
    } else {
        let response = next.run(request).await;
        if response.status().is_client_error() || response.status().is_server_error() {
            in_our_shape(response, api)
        } else {
            response
        }
    };
    with_security_headers(response)
}

fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

fn render(api: bool, error: AppError) -> Response {
    if api {
        error.into_response()
    } else {
        PageError(error).into_response()
    }
}

fn content_type_is(response: &Response, prefix: &str) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with(prefix))
}

/// An error response as Herald's error: kept if it already is one, rebuilt from its status
/// otherwise (axum's own rejections are plain text). Headers such as `Allow` are kept.
fn in_our_shape(response: Response, api: bool) -> Response {
    let status = response.status();
    let shaped = if api {
        content_type_is(&response, "application/json")
    } else {
        content_type_is(&response, "text/html")
    };
    if shaped {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    let fresh = if api {
        let reason = status.canonical_reason().unwrap_or("Error");
        let code = reason.to_ascii_lowercase().replace(' ', "-");
        let message = format!("The request could not be served: {reason}.");
        (
            status,
            axum::Json(json!({"error": {"code": code, "message": message}})),
        )
            .into_response()
    } else {
        status_page(status)
    };
    let (fresh_parts, body) = fresh.into_parts();
    for name in [CONTENT_TYPE, CONTENT_LENGTH] {
        parts.headers.remove(&name);
        if let Some(value) = fresh_parts.headers.get(&name) {
            parts.headers.insert(name, value.clone());
        }
    }
    Response::from_parts(parts, body)
}

/// The answer to a connection over the cap (503, JSON under `/api`, a page elsewhere), with
/// the headers of every response; the server closes the connection after it.
pub fn busy(path: &str) -> Response {
    let mut response = refusal(path, AppError::Busy);
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}

/// `error` as the server's own answer to a request no route sees (a limit of the connection's:
/// a cap, a client's share): JSON under `/api`, a page elsewhere, with the headers of every
/// response.
pub fn refusal(path: &str, error: AppError) -> Response {
    with_security_headers(render(path.starts_with("/api/"), error))
}

fn with_security_headers(mut response: Response) -> Response {
    let page = content_type_is(&response, "text/html");
    let headers = response.headers_mut();
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(if page { PAGE_POLICY } else { OTHER_POLICY }),
    );
    if !headers.contains_key(CACHE_CONTROL) {
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}
