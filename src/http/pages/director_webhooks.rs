//! The director panel's notifications section (`templates/host_webhooks.html`, shared with a
//! lobby's host panel): the tournament's webhooks and the forms to add one, send a test,
//! re-enable and delete one. The handlers run the same host calls as the API.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use super::session::{CheckedForm, Csrf};
use super::tournament_director::{DirectorPage, director_page, director_token};
use super::webhooks_section::{Action, new_webhook};
use super::{PageError, PagePath, again, see_other};
use crate::http::AppState;
use crate::http::api::tournament_id;

async fn act(
    app: AppState,
    id: String,
    headers: HeaderMap,
    csrf: String,
    form: CheckedForm,
    action: Action,
) -> Result<Response, PageError> {
    let id = tournament_id(&id)?;
    let token = director_token(&app, id, &headers).await?;
    let host = &app.host;
    let adding = matches!(action, Action::Add);
    let tested = action.tested();
    let done = match action {
        Action::Add => {
            let body = new_webhook(&form);
            host.add_tournament_webhook(id, Some(&token), body)
                .await
                .map(|created| created.secret)
        }
        Action::Test(hook) => host
            .test_tournament_webhook(id, Some(&token), &hook)
            .await
            .map(|_| None),
        Action::Enable(hook) => host
            .enable_tournament_webhook(id, Some(&token), &hook)
            .await
            .map(|_| None),
        Action::Delete(hook) => host
            .delete_tournament_webhook(id, Some(&token), &hook)
            .await
            .map(|_| None),
    };
    match done {
        // The secret is shown this once, on the page that answers the form.
        Ok(Some(secret)) => {
            let page = director_page(&app, id, &headers, csrf).await?;
            Ok(DirectorPage {
                new_secret: Some(secret),
                ..page
            }
            .into_response())
        }
        // A test says on the panel that it is on its way, beside its webhook.
        Ok(None) => match tested {
            Some(hook) => Ok(see_other(
                &format!("/tournaments/{id}/director?tested={hook}#webhook-{hook}"),
                &[],
            )),
            None => Ok(see_other(
                &format!("/tournaments/{id}/director#notifications"),
                &[],
            )),
        },
        // A refused address is said beside its field, the address kept as typed.
        Err(error) if adding => {
            let mut page = director_page(&app, id, &headers, csrf).await?;
            page.notifications.add_url = form.get("url").trim().to_owned();
            Ok(again(error, |message| {
                page.notifications.add_error = Some(message);
                page
            }))
        }
        Err(error) => {
            let page = director_page(&app, id, &headers, csrf).await?;
            Ok(again(error, |message| DirectorPage {
                error: Some(message),
                ..page
            }))
        }
    }
}

/// POST /tournaments/{id}/director/webhooks.
pub async fn add(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
    form: CheckedForm,
) -> Result<Response, PageError> {
    act(app, id, headers, csrf, form, Action::Add).await
}

/// A POST handler for one webhook's action.
macro_rules! webhook_action {
    ($name:ident, $action:expr) => {
        pub async fn $name(
            State(app): State<AppState>,
            PagePath((id, hook)): PagePath<(String, String)>,
            headers: HeaderMap,
            Csrf(csrf): Csrf,
            form: CheckedForm,
        ) -> Result<Response, PageError> {
            act(app, id, headers, csrf, form, $action(hook)).await
        }
    };
}

webhook_action!(test, Action::Test);
webhook_action!(enable, Action::Enable);
webhook_action!(delete, Action::Delete);
