//! The host panel's notifications section (`templates/host_webhooks.html`): the lobby's
//! webhooks with their latest attempts, and the forms to add one, send a test, re-enable a
//! disabled one and delete one. The handlers run the same host calls as the API.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;

use super::host_panel::{HostPage, host_page, host_token};
use super::session::{CheckedForm, Csrf};
use super::webhooks_section::{Action, new_webhook};
use super::{PageError, PagePath, again, lobby_id, see_other};
use crate::http::AppState;

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
    let host = &app.host;
    let adding = matches!(action, Action::Add);
    let tested = action.tested();
    let done = match action {
        Action::Add => {
            let body = new_webhook(&form);
            host.add_webhook(id, Some(&token), body)
                .await
                .map(|created| created.secret)
        }
        Action::Test(hook) => host
            .test_webhook(id, Some(&token), &hook)
            .await
            .map(|_| None),
        Action::Enable(hook) => host
            .enable_webhook(id, Some(&token), &hook)
            .await
            .map(|_| None),
        Action::Delete(hook) => host
            .delete_webhook(id, Some(&token), &hook)
            .await
            .map(|_| None),
    };
    match done {
        // The secret is shown this once, on the page that answers the form.
        Ok(Some(secret)) => {
            let page = host_page(&app, id, &headers, csrf, false, None).await?;
            Ok(axum::response::IntoResponse::into_response(HostPage {
                new_secret: Some(secret),
                ..page
            }))
        }
        // A test says on the panel that it is on its way, beside its webhook.
        Ok(None) => match tested {
            Some(hook) => Ok(see_other(
                &format!("/lobbies/{id}/host?tested={hook}#webhook-{hook}"),
                &[],
            )),
            None => Ok(see_other(&format!("/lobbies/{id}/host#notifications"), &[])),
        },
        // A refused address is said beside its field, the address kept as typed.
        Err(error) if adding => {
            let mut page = host_page(&app, id, &headers, csrf, false, None).await?;
            page.notifications.add_url = form.get("url").trim().to_owned();
            Ok(again(error, |message| {
                page.notifications.add_error = Some(message);
                page
            }))
        }
        Err(error) => {
            let page = host_page(&app, id, &headers, csrf, false, None).await?;
            Ok(again(error, |message| HostPage {
                error: Some(message),
                ..page
            }))
        }
    }
}

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
