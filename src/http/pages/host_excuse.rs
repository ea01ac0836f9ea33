//! The host's excuse on the panel (docs/identity.md, "Reliability"): each miss of a bound
//! seat in the last 7 days (listed by `host_seats.rs`), with a reason the player will read.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;

use super::host_controls::back;
use super::session::{CheckedForm, Csrf};
use super::{PageError, PagePath, lobby_id};
use crate::error::AppError;
use crate::http::AppState;

/// POST /lobbies/{id}/host/players/{player_id}/excuse: `round`, `step`, `reason`.
pub async fn excuse_miss(
    State(app): State<AppState>,
    PagePath((id, player)): PagePath<(String, String)>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = super::host_panel::host_token(&app, id, &headers).await?;
    let excused = async {
        let round = form.get("round").parse::<u32>().map_err(|_| {
            AppError::malformed("invalid-body", "The round must be a round number.")
        })?;
        let step = form.get("step").to_owned();
        let reason = Some(form.get("reason")).filter(|r| !r.trim().is_empty());
        app.host
            .excuse(id, Some(&token), player.clone(), (round, step), reason)
            .await
    };
    let result = excused.await.map(|_| ());
    back(&app, id, &headers, csrf, result).await
}
