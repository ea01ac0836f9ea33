//! The one error type at Herald's boundary: each variant is an HTTP meaning, carrying a
//! kebab-case code and a sentence for a person. Internal errors are logged, never shown.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// An error as a client sees it.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// 400: the request is malformed (not JSON, wrong shape or types).
    #[error("{message}")]
    Malformed { code: &'static str, message: String },
    /// 401: no token, or a token this lobby does not know.
    #[error("{message}")]
    Unauthenticated { code: &'static str, message: String },
    /// 403: a token of the wrong role.
    #[error("{message}")]
    Forbidden { code: &'static str, message: String },
    /// 404: no such lobby or round (yet).
    #[error("{message}")]
    NotFound { code: &'static str, message: String },
    /// 409: the lobby is in the wrong state for this request.
    #[error("{message}")]
    Conflict { code: &'static str, message: String },
    /// 413: the body is larger than Herald accepts.
    #[error("the request body is too large (at most {limit} bytes)")]
    TooLarge { limit: usize },
    /// 408: the request's body did not arrive in time.
    #[error("the request body did not arrive in time")]
    BodyTimeout,
    /// 408: the request's head (its line and headers) did not arrive in time.
    #[error("the request's line and headers did not arrive in time")]
    HeadTimeout,
    /// 422: well-formed but not allowed (by the rules or by Herald's limits).
    #[error("{message}")]
    Rejected { code: &'static str, message: String },
    /// 429: this client address has used its allowance for now.
    #[error("too many requests from your address; wait {retry_after} s and try again")]
    TooManyRequests { retry_after: u64 },
    /// 503: the server is serving as many connections as it may.
    #[error("the server is busy; try again in a moment")]
    Busy,
    /// 503: this client address holds its share of the server's connections or requests in
    /// flight (the server serves others meanwhile).
    #[error(
        "your address already holds its share of this server's connections or requests in flight; close some (an event stream you no longer read, say) and try again"
    )]
    ClientBusy,
    /// 503: the database cannot be reached right now (restarting, failing over); nothing was
    /// changed. The detail goes to the log only.
    #[error("the database is unavailable for a moment; try again")]
    Unavailable(String),
    /// 503: the database's storage is full (SQLite's "database or disk is full", PostgreSQL's
    /// SQLSTATE 53100); nothing was changed, and the same request succeeds once space is freed.
    /// The detail goes to the log, once per interval (`store::report_storage_full`).
    #[error("the server's storage is full; try again later")]
    StorageFull(String),
    /// 500: a fault of ours. The detail goes to the log only.
    #[error("internal error: {0}")]
    Internal(String),
}

impl AppError {
    pub fn malformed(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::Malformed {
            code,
            message: message.into(),
        }
    }
    pub fn unauthenticated(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::Unauthenticated {
            code,
            message: message.into(),
        }
    }
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::Forbidden {
            code,
            message: message.into(),
        }
    }
    pub fn not_found(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::NotFound {
            code,
            message: message.into(),
        }
    }
    pub fn conflict(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::Conflict {
            code,
            message: message.into(),
        }
    }
    pub fn rejected(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::Rejected {
            code,
            message: message.into(),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            AppError::Malformed { .. } => StatusCode::BAD_REQUEST,
            AppError::Unauthenticated { .. } => StatusCode::UNAUTHORIZED,
            AppError::Forbidden { .. } => StatusCode::FORBIDDEN,
            AppError::NotFound { .. } => StatusCode::NOT_FOUND,
            AppError::Conflict { .. } => StatusCode::CONFLICT,
            AppError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::BodyTimeout | AppError::HeadTimeout => StatusCode::REQUEST_TIMEOUT,
            AppError::Rejected { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            AppError::Busy
            | AppError::ClientBusy
            | AppError::Unavailable(_)
            | AppError::StorageFull(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            AppError::Malformed { code, .. }
            | AppError::Unauthenticated { code, .. }
            | AppError::Forbidden { code, .. }
            | AppError::NotFound { code, .. }
            | AppError::Conflict { code, .. }
            | AppError::Rejected { code, .. } => code,
            AppError::TooLarge { .. } => "body-too-large",
            AppError::BodyTimeout => "body-timeout",
            AppError::HeadTimeout => "head-timeout",
            AppError::TooManyRequests { .. } => "rate-limited",
            AppError::Busy => "server-busy",
            AppError::ClientBusy => "client-busy",
            AppError::Unavailable(_) => "database-unavailable",
            AppError::StorageFull(_) => "storage-full",
            AppError::Internal(_) => "internal",
        }
    }

    /// The headers an error carries besides its body: when to come back after a 429 or 503.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            AppError::TooManyRequests { retry_after } => Some(*retry_after),
            AppError::Busy | AppError::ClientBusy | AppError::Unavailable(_) => Some(1),
            // Space is freed by an operator, not in a second.
            AppError::StorageFull(_) => Some(STORAGE_FULL_RETRY_AFTER),
            _ => None,
        }
    }

    /// The sentence shown to the client (never the detail of an internal error).
    pub fn public_message(&self) -> String {
        match self {
            AppError::Internal(_) => {
                "Something went wrong on our side; nothing was changed. Please try again.".into()
            }
            AppError::Unavailable(_) => {
                "The database is unavailable for a moment; please try again.".into()
            }
            AppError::StorageFull(_) => {
                "The server's storage is full; nothing was changed. Please try again later.".into()
            }
            other => other.to_string(),
        }
    }
}

/// A database that cannot be reached is a 503 (try again); any other database error is a
/// fault of ours, a 500. The cause goes to the log either way.
impl From<sqlx::Error> for AppError {
    fn from(error: sqlx::Error) -> AppError {
        match crate::store::sqlx_unavailable(&error) {
            true => AppError::Unavailable(format!("database: {error}")),
            false => AppError::Internal(format!("database: {error}")),
        }
    }
}

/// A store error is a fault of ours whatever its cause (a corrupt stored row included): a 500,
/// its cause in the log; except a database that cannot be reached for now, or whose storage is
/// full, a 503. A full storage is noted here, where a request meets it, so that it is
/// reported (once per interval) whichever store path refused.
impl From<crate::store::StoreError> for AppError {
    fn from(error: crate::store::StoreError) -> AppError {
        if error.is_storage_full() {
            crate::store::report_storage_full(&error);
            return AppError::StorageFull(format!("store: {error}"));
        }
        match error.is_unavailable() {
            true => AppError::Unavailable(format!("store: {error}")),
            false => AppError::Internal(format!("store: {error}")),
        }
    }
}

/// The `Retry-After` of a 503 `storage-full`, in seconds.
const STORAGE_FULL_RETRY_AFTER: u64 = 30;

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        match &self {
            AppError::Internal(detail) => tracing::error!(%detail, "internal error"),
            AppError::Unavailable(detail) => tracing::warn!(%detail, "database unavailable"),
            _ => {}
        }
        let body = json!({"error": {"code": self.code(), "message": self.public_message()}});
        let mut response = (self.status(), Json(body)).into_response();
        if let Some(seconds) = self.retry_after() {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}
