//! HTTP: the router, shared state and the layers around every request.

pub mod api;
pub mod boundary;
pub mod client;
pub mod extract;
pub mod pages;
pub mod rate;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{Method, Request, StatusCode, Uri};
use axum::response::IntoResponse;
use tokio::sync::watch;
use tower_http::trace::{DefaultOnFailure, TraceLayer};

use crate::error::AppError;
use crate::host::Host;
use client::Exposure;
use rate::{Limiters, RateLimits};

/// What every handler can reach, behind one `Arc`: the router clones its state for every
/// request (and its middleware again), and cloning the parts one by one cost a dozen atomic
/// counts up and down per request, on counters every core shares.
#[derive(Clone, Debug)]
pub struct AppState(Arc<Shared>);

/// The parts of [`AppState`].
#[derive(Debug)]
pub struct Shared {
    pub host: Host,
    /// Flips to true when the server is shutting down, so that endless streams end.
    pub shutdown: watch::Receiver<bool>,
    /// How clients reach Herald and what they may do how often.
    pub edge: Arc<Edge>,
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl AppState {
    /// The state with the default edge: no trusted proxy, the default rate limits.
    pub fn new(host: Host, shutdown: watch::Receiver<bool>) -> AppState {
        AppState::with_edge(
            host,
            shutdown,
            Edge::new(Exposure::default(), &RateLimits::default()),
        )
    }

    /// The state with the operator's edge.
    pub fn with_edge(host: Host, shutdown: watch::Receiver<bool>, edge: Edge) -> AppState {
        AppState(Arc::new(Shared {
            host,
            shutdown,
            edge: Arc::new(edge),
        }))
    }
}

/// The client-facing settings: trusted proxies, the public URL, the rate limiters, and the
/// passkeys' relying party (the public URL's; None: passkeys off).
#[derive(Debug)]
pub struct Edge {
    pub exposure: Exposure,
    pub limiters: Limiters,
    pub passkeys: Option<crate::host::passkeys::Passkeys>,
}

impl Edge {
    pub fn new(exposure: Exposure, rates: &RateLimits) -> Edge {
        let passkeys =
            crate::host::passkeys::Passkeys::for_public_url(exposure.public_url.as_deref())
                .unwrap_or_else(|error| {
                    tracing::warn!(%error, "HERALD_PUBLIC_URL: passkeys are off");
                    None
                });
        Edge {
            exposure,
            limiters: Limiters::new(rates),
            passkeys,
        }
    }
}

/// The whole application as a router: what `main` serves and what tests drive in-process.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(api::routes())
        .merge(pages::routes(&state))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(extract::BODY_LIMIT))
        .layer(axum::middleware::from_fn(boundary::boundary))
        // gzip for a client that accepts it: a long game's lobby page shrinks about eightfold
        // (docs/performance.md, "Page weight"); event streams are never compressed (the
        // default predicate skips `text/event-stream`, so each event is flushed as it comes).
        .layer(tower_http::compression::CompressionLayer::new())
        // A 5xx is logged where it arises, with its cause (`AppError::into_response`, the
        // store's own reports), so the trace layer's line for it is kept to debug: at error it
        // doubled every internal error, and wrote a line per request while the storage was full
        // or the database away, which those report once per interval or as warnings.
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &Request<_>| {
                    tracing::debug_span!("request", method = %request.method(), path = %loggable_path(request.uri().path()))
                })
                .on_failure(DefaultOnFailure::new().level(tracing::Level::DEBUG)),
        )
        .with_state(state)
}

/// The request path as logs may show it: a private link's token (`/lobbies/{id}/as/{token}`)
/// is replaced, and the query string is never included.
fn loggable_path(path: &str) -> String {
    match path.split_once("/as/") {
        Some((before, _token)) => format!("{before}/as/<token>"),
        None => path.to_string(),
    }
}

/// JSON under `/api`, an HTML page elsewhere (a mistyped page address).
async fn not_found(uri: axum::http::Uri) -> axum::response::Response {
    let error = AppError::not_found("not-found", "There is nothing at this address.");
    if uri.path().starts_with("/api/") {
        error.into_response()
    } else {
        pages::PageError(error).into_response()
    }
}

/// 405 as JSON under `/api`, as an HTML page elsewhere.
async fn method_not_allowed(method: Method, uri: Uri) -> axum::response::Response {
    if uri.path().starts_with("/api/") {
        let error = AppError::malformed(
            "method-not-allowed",
            format!("{method} is not allowed here."),
        );
        let mut response = error.into_response();
        *response.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
        response
    } else {
        pages::error::status_page(StatusCode::METHOD_NOT_ALLOWED)
    }
}

#[cfg(test)]
mod tests {
    use super::loggable_path;

    #[test]
    fn a_private_link_token_never_reaches_the_log() {
        let path = "/lobbies/6f1c1c9e-0000-4000-8000-000000000000/as/83ff8900a964ef08";
        assert_eq!(
            loggable_path(path),
            "/lobbies/6f1c1c9e-0000-4000-8000-000000000000/as/<token>"
        );
        assert_eq!(loggable_path("/api/v1/lobbies"), "/api/v1/lobbies");
        // A carry link's personal key (`pages/my_games.rs`) is redacted the same way.
        assert_eq!(
            loggable_path("/my-games/as/0a1b2c3d4e5f"),
            "/my-games/as/<token>"
        );
        // And a tournament's private director link (`pages/tournament_director.rs`).
        assert_eq!(
            loggable_path("/tournaments/6f1c1c9e-0000-4000-8000-000000000000/as/83ff8900"),
            "/tournaments/6f1c1c9e-0000-4000-8000-000000000000/as/<token>"
        );
    }
}
