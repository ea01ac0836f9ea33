//! The host panel's own buttons: close sign-ups, start, and the clock (extend, pause, resume,
//! resolve now). Each runs through the host, then goes back to the panel (303), or shows the
//! panel again with the reason and its status.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use uuid::Uuid;

use super::host_panel::{HostPage, host_page, host_token};
use super::session::{CheckedForm, Csrf};
use super::{PageError, PagePath, again, lobby_id, see_other};
use crate::error::AppError;
use crate::host::timing::rfc3339;
use crate::http::AppState;

/// What the host asked for on the panel.
enum Action {
    CloseSignups,
    Start,
    Extend,
    /// A deadline for a step that has none (a lobby created without one).
    SetDeadline,
    Pause,
    Resume,
    ResolveNow,
}

impl Action {
    /// Does it, with the host's token and the posted form.
    async fn run(
        self,
        app: &AppState,
        id: Uuid,
        token: &str,
        form: &CheckedForm,
    ) -> Result<(), AppError> {
        let token = Some(token);
        match self {
            Action::CloseSignups => app.host.close_signups(id, token).await.map(drop),
            Action::Start => app.host.start(id, token).await.map(drop),
            Action::Extend => {
                let minutes: u64 = form.get("minutes").trim().parse().map_err(|_| {
                    AppError::rejected(
                        "invalid-extend-seconds",
                        "Give the minutes as a whole number.",
                    )
                })?;
                let mut body = serde_json::Map::new();
                body.insert("extend_seconds".into(), minutes.saturating_mul(60).into());
                app.host.set_deadline(id, token, body).await.map(drop)
            }
            Action::SetDeadline => {
                let minutes = in_minutes(form.get("hours"), form.get("minutes"))?;
                let at = app.host.clock().now_millis() + (minutes as i64) * 60_000;
                let mut body = serde_json::Map::new();
                body.insert("deadline_at".into(), rfc3339(at).into());
                app.host.set_deadline(id, token, body).await.map(drop)
            }
            Action::Pause => app.host.pause(id, token).await.map(drop),
            Action::Resume => app.host.resume(id, token).await.map(drop),
            Action::ResolveNow => {
                // The one control that cannot be undone asks for a tick first.
                if form.get("confirm") != "yes" {
                    return Err(AppError::malformed(
                        "confirmation-needed",
                        "Tick the box to confirm: resolving now cannot be undone.",
                    ));
                }
                app.host.resolve_now(id, token).await.map(drop)
            }
        }
    }
}

/// Hours and minutes from the panel's form as minutes, from 1 minute to 30 days.
fn in_minutes(hours: &str, minutes: &str) -> Result<u64, AppError> {
    let refused = || {
        AppError::rejected(
            "invalid-deadline",
            "Give the deadline as whole hours and minutes, from 1 minute to 30 days.",
        )
    };
    let part = |text: &str| match text.trim() {
        "" => Ok(0),
        text => text.parse::<u64>().map_err(|_| refused()),
    };
    let total = part(hours)?
        .saturating_mul(60)
        .saturating_add(part(minutes)?);
    match (1..=30 * 24 * 60).contains(&total) {
        true => Ok(total),
        false => Err(refused()),
    }
}

/// Runs a host action; on success back to the panel (303), on refusal the panel again with
/// the reason and its status.
async fn act(
    app: AppState,
    id: String,
    headers: HeaderMap,
    csrf: String,
    form: CheckedForm,
    action: Action,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let token = host_token(&app, id, &headers).await?;
    match action.run(&app, id, &token, &form).await {
        Ok(()) => Ok(see_other(&format!("/lobbies/{id}/host"), &[])),
        Err(error) => {
            let page = host_page(&app, id, &headers, csrf, false, None).await?;
            Ok(again(error, |message| HostPage {
                error: Some(message),
                ..page
            }))
        }
    }
}

/// A POST handler of the panel for one [`Action`].
macro_rules! host_action {
    ($name:ident, $action:expr) => {
        pub async fn $name(
            State(app): State<AppState>,
            PagePath(id): PagePath<String>,
            headers: HeaderMap,
            Csrf(csrf): Csrf,
            form: CheckedForm,
        ) -> Result<Response, PageError> {
            act(app, id, headers, csrf, form, $action).await
        }
    };
}

host_action!(close_signups, Action::CloseSignups);
host_action!(start_game, Action::Start);
host_action!(extend, Action::Extend);
host_action!(set_deadline, Action::SetDeadline);
host_action!(pause, Action::Pause);
host_action!(resume, Action::Resume);
host_action!(resolve_now, Action::ResolveNow);
