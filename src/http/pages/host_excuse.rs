//! The host's excuse on the panel (docs/identity.md, "Reliability"): each miss of a bound
//! seat in the last 7 days, with a reason the player will read, under the seat it belongs to.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use uuid::Uuid;

use super::host_controls::back;
use super::session::{CheckedForm, Csrf};
use super::{PageError, PagePath, lobby_id};
use crate::error::AppError;
use crate::host::timing::rfc3339;
use crate::http::AppState;
use crate::store::MissRow;

/// A miss the host may still excuse, as the seat's controls list it.
pub struct ExcusableMiss {
    pub round: u32,
    pub step: String,
    /// When it resolved.
    pub at: String,
}

/// The misses of `player` among a lobby's excusable ones, oldest first.
pub fn of_player(misses: &[MissRow], player: &str) -> Vec<ExcusableMiss> {
    let Ok(player) = Uuid::parse_str(player) else {
        return Vec::new();
    };
    misses
        .iter()
        .filter(|m| m.player == player)
        .map(|m| ExcusableMiss {
            round: m.round,
            step: m.step.clone(),
            at: rfc3339(m.due_at),
        })
        .collect()
}

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
