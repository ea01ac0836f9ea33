//! The pages' face of [`AppError`]: the same status and sentence as the JSON API, rendered as
//! an HTML page. Internal details stay in the log.

use askama::Template;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::Live;
use crate::error::AppError;

/// An error met while serving a page.
#[derive(Debug)]
pub struct PageError(pub AppError);

impl From<AppError> for PageError {
    fn from(error: AppError) -> PageError {
        PageError(error)
    }
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    title: String,
    live: Option<Live>,
    status: u16,
    message: String,
}

/// An error page for a bare status, for errors that no handler described (a rejection of
/// axum's own, rewritten at the boundary).
pub fn status_page(status: StatusCode) -> Response {
    let reason = status.canonical_reason().unwrap_or("Error");
    let page = ErrorPage {
        title: reason.to_string(),
        live: None,
        status: status.as_u16(),
        message: format!("This request could not be served ({reason})."),
    };
    match page.render() {
        Ok(html) => (status, axum::response::Html(html)).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "error page failed to render");
            status.into_response()
        }
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let error = self.0;
        if let AppError::Internal(detail) = &error {
            tracing::error!(%detail, "internal error");
        }
        let status = error.status();
        let page = ErrorPage {
            title: status.canonical_reason().unwrap_or("Error").to_string(),
            live: None,
            status: status.as_u16(),
            message: error.public_message(),
        };
        let mut response = match page.render() {
            Ok(html) => (status, axum::response::Html(html)).into_response(),
            Err(e) => {
                tracing::error!(error = %e, "error page failed to render");
                (status, error.public_message()).into_response()
            }
        };
        if let Some(seconds) = error.retry_after() {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}
