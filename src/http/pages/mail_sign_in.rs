//! Codes by mail on the pages (docs/identity.md, "A sign-in code by mail"), all plain forms:
//! a signed-in profile adds an address by typing back the code sent to it; "send me a sign-in
//! code" answers with the same page whether or not a profile has the address, and the code
//! typed there signs the browser in. No page shows an address: the code's page carries only
//! the attempt's id.

use std::net::IpAddr;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::{Extensions, HeaderMap};
use axum::response::{IntoResponse, Response};

use super::session::{CheckedForm, Transport};
use super::signed_in::{session_cookie, session_of, signed_out};
use super::{Live, PageError, PagePath, again, see_other};
use crate::host::mail_sign_in::{CODE_MINUTES, CodeAsked};
use crate::http::AppState;
use crate::http::client::peer;
use crate::notify::sign_in_mail::{CodeFor, send_code};

/// The page to type a code on.
#[derive(Template, WebTemplate)]
#[template(path = "mail_code.html")]
pub struct CodePage {
    pub title: String,
    pub live: Option<Live>,
    pub csrf: String,
    pub said: String,
    pub action: &'static str,
    pub button: &'static str,
    pub attempt: String,
    pub error: Option<String>,
}

impl CodePage {
    fn sign_in(csrf: String, attempt: String) -> CodePage {
        CodePage {
            title: "Your sign-in code".into(),
            live: None,
            csrf,
            said: format!(
                "If a profile has this address, a code is on its way to it. Type it here: it \
                 works once, for {CODE_MINUTES} minutes."
            ),
            action: "/me/code/sign-in",
            button: "Sign in",
            attempt,
            error: None,
        }
    }

    fn confirm(csrf: String, attempt: String) -> CodePage {
        CodePage {
            title: "Confirm your address".into(),
            live: None,
            csrf,
            said: format!(
                "A code is on its way to the address. Type it here to add the address to your \
                 profile: it works once, for {CODE_MINUTES} minutes."
            ),
            action: "/me/mail/confirm",
            button: "Confirm the address",
            attempt,
            error: None,
        }
    }
}

/// Who asks, as the limits count clients: the client's address (an IPv6 client by its /64),
/// or one bucket for requests that came through no connection.
fn client(app: &AppState, headers: &HeaderMap, extensions: &Extensions) -> String {
    match peer(extensions) {
        Some(peer) => {
            let address: IpAddr = app.edge.exposure.client_of(peer, headers);
            crate::http::rate::key(address).to_string()
        }
        None => "in-process".into(),
    }
}

fn sent(app: &AppState, asked: CodeAsked, what: CodeFor) -> String {
    if let Some(mail) = asked.mail {
        send_code(app.host.notify_settings(), mail, what);
    }
    asked.attempt.to_string()
}

/// POST /me/code: "send me a sign-in code".
pub async fn ask_sign_in(
    State(app): State<AppState>,
    headers: HeaderMap,
    extensions: Extensions,
    form: CheckedForm,
) -> Result<CodePage, PageError> {
    let client = client(&app, &headers, &extensions);
    let asked = app
        .host
        .ask_sign_in_code(form.get("address"), &client)
        .await?;
    let attempt = sent(&app, asked, CodeFor::SignIn);
    Ok(CodePage::sign_in(form.get("csrf").to_owned(), attempt))
}

/// POST /me/code/sign-in: the code typed; right, the browser is signed in.
pub async fn sign_in(
    State(app): State<AppState>,
    transport: Transport,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let attempt = form.get("attempt").to_owned();
    match app.host.sign_in_with_code(&attempt, form.get("code")).await {
        Ok(started) => Ok(see_other(
            "/me",
            &[session_cookie(&started.secret, transport)],
        )),
        Err(error) => {
            let page = CodePage::sign_in(form.get("csrf").to_owned(), attempt);
            Ok(again(error, |message| CodePage {
                error: Some(message),
                ..page
            }))
        }
    }
}

/// POST /me/mail: a code to confirm an address for this browser's profile.
pub async fn ask_confirm(
    State(app): State<AppState>,
    headers: HeaderMap,
    extensions: Extensions,
    form: CheckedForm,
) -> Result<CodePage, PageError> {
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    let client = client(&app, &headers, &extensions);
    let asked = app
        .host
        .ask_confirm_code(session.profile.id, form.get("address"), &client)
        .await?;
    let attempt = sent(&app, asked, CodeFor::Confirm);
    Ok(CodePage::confirm(form.get("csrf").to_owned(), attempt))
}

/// POST /me/mail/confirm: the code typed; right, the address is the profile's.
pub async fn confirm(
    State(app): State<AppState>,
    headers: HeaderMap,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    let attempt = form.get("attempt").to_owned();
    match app
        .host
        .confirm_mail(session.profile.id, &attempt, form.get("code"))
        .await
    {
        Ok(()) => Ok(see_other("/me", &[])),
        Err(error) => {
            let page = CodePage::confirm(form.get("csrf").to_owned(), attempt);
            Ok(again(error, |message| CodePage {
                error: Some(message),
                ..page
            })
            .into_response())
        }
    }
}

/// POST /me/mail/{id}/remove: removes an address of this browser's profile.
pub async fn remove(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    app.host.remove_mail(session.profile.id, &id).await?;
    Ok(see_other("/me", &[]))
}
