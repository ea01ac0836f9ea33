//! The unsubscribe link of a player's mail: works without a login, since its token (one per
//! mail, stored hashed) is the proof. A GET shows a button (mail scanners fetch links, and must
//! not unsubscribe anyone by looking); the POST unsubscribes, as does a mail client's one-click
//! POST (RFC 8058), which carries no CSRF token: the link's token stands in for one.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, State};
use axum::response::IntoResponse;

use super::PageError;
use crate::http::AppState;

#[derive(Template, WebTemplate)]
#[template(path = "unsubscribe.html")]
pub struct UnsubscribePage {
    pub title: String,
    pub live: Option<super::Live>,
    /// None: the question; Some(true): done; Some(false): the link is unknown or used.
    pub done: Option<bool>,
}

pub async fn ask(Path(_token): Path<String>) -> impl IntoResponse {
    UnsubscribePage {
        title: "Stop these mails".into(),
        live: None,
        done: None,
    }
}

pub async fn unsubscribe(
    State(app): State<AppState>,
    Path(token): Path<String>,
) -> Result<impl IntoResponse, PageError> {
    let done = app.host.unsubscribe(&token).await?;
    Ok(UnsubscribePage {
        title: "Stop these mails".into(),
        live: None,
        done: Some(done),
    })
}
