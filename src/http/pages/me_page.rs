//! Signing in with no password (docs/identity.md, "Signing in"): a profile key's link starts a
//! session in this browser; `/me` makes a profile from this browser's my-games key, shows a
//! sign-in link for another device once, lists the profile's keys and sessions to revoke, and
//! signs out. Every form POSTs; all of it works with JavaScript off.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::Response;

use super::my_games::MY_KEY_COOKIE;
use super::session::{CheckedForm, Transport, cookie};
use super::sign_in_ways::Ways;
use super::signed_in::{session_cookie, session_of, signed_out};
use super::{Live, PageError, PagePath, again, base_url, see_other};
use crate::error::AppError;
use crate::host::my_games::well_formed_key;
use crate::host::timing::rfc3339;
use crate::http::AppState;

fn forget_session_cookie() -> HeaderValue {
    HeaderValue::from_static("herald_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
}

/// One key or session, as listed.
pub struct Line {
    pub id: String,
    pub since: String,
    pub here: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "me.html")]
pub struct MePage {
    pub title: String,
    pub live: Option<Live>,
    pub csrf: String,
    /// None: not signed in (the page offers to make a profile).
    pub handle: Option<String>,
    pub keys: Vec<Line>,
    pub sessions: Vec<Line>,
    /// A sign-in link shown this once.
    pub link: Option<String>,
    pub error: Option<String>,
    pub form_handle: String,
    /// Passkeys and codes by mail, where configured (`sign_in_ways.rs`).
    pub ways: Ways,
    /// The vacation form (signed in; `vacation_form.rs`).
    pub vacation: Option<super::vacation_shown::VacationShown>,
    pub vacation_error: Option<String>,
    /// The challenges to the profile and those it made (signed in; `challenge_forms.rs`).
    pub challenges: Option<super::challenge_lines::ChallengesShown>,
    pub challenge_error: Option<String>,
}

pub(super) async fn me_page(
    app: &AppState,
    headers: &HeaderMap,
    csrf: String,
    link: Option<String>,
) -> Result<MePage, PageError> {
    let session = session_of(app, headers).await?;
    let ways = Ways::for_page(app, session.as_ref().map(|s| s.profile.id), &csrf).await?;
    let mut page = MePage {
        title: "My profile".into(),
        live: None,
        csrf,
        handle: None,
        keys: Vec::new(),
        sessions: Vec::new(),
        link,
        error: None,
        form_handle: String::new(),
        ways,
        vacation: None,
        vacation_error: None,
        challenges: None,
        challenge_error: None,
    };
    if let Some(session) = session {
        let held = app.host.credentials(session.profile.id).await?;
        page.keys = held
            .keys
            .iter()
            .map(|k| Line {
                id: k.id.to_string(),
                since: rfc3339(k.created_at),
                here: false,
            })
            .collect();
        page.sessions = held
            .sessions
            .iter()
            .map(|s| Line {
                id: s.id.to_string(),
                since: rfc3339(s.created_at),
                here: s.id == session.id,
            })
            .collect();
        let vacation = app.host.vacation_of(session.profile.id).await?;
        page.vacation = Some(super::vacation_shown::VacationShown::of(&vacation));
        let received = app.host.challenges_to(session.profile.id).await?;
        let sent = app.host.challenges_from(session.profile.id).await?;
        page.challenges = Some(super::challenge_lines::ChallengesShown::of(
            &received, &sent,
        ));
        page.handle = Some(session.profile.handle);
    }
    Ok(page)
}

/// GET /me.
pub async fn show_me(
    State(app): State<AppState>,
    headers: HeaderMap,
    super::session::Csrf(csrf): super::session::Csrf,
) -> Result<MePage, PageError> {
    me_page(&app, &headers, csrf, None).await
}

/// GET /me/as/{key}: the sign-in link; this browser is signed in from now on.
pub async fn sign_in(
    State(app): State<AppState>,
    PagePath(key): PagePath<String>,
    transport: Transport,
) -> Result<Response, PageError> {
    let started = app.host.sign_in(&key).await.map_err(|_| {
        PageError(AppError::not_found(
            "unknown-key",
            "This sign-in link is not known (it may have been revoked or mistyped).",
        ))
    })?;
    Ok(see_other(
        "/me",
        &[session_cookie(&started.secret, transport)],
    ))
}

/// POST /me/profile: makes a profile named as asked, its first key this browser's my-games
/// key (or a fresh one), signs this browser in and shows the sign-in link once.
pub async fn make_profile(
    State(app): State<AppState>,
    headers: HeaderMap,
    transport: Transport,
    form: CheckedForm,
) -> Result<Response, PageError> {
    let csrf = form.get("csrf").to_owned();
    let handle = form.get("handle").to_owned();
    let my_key = cookie(&headers, MY_KEY_COOKIE).filter(|k| well_formed_key(k));
    match app.host.profile_from_my_key(&handle, my_key).await {
        Ok(created) => {
            let started = app.host.sign_in(&created.key).await?;
            let link = format!("{}/me/as/{}", base_url(&headers), created.key);
            let mut page = me_page(&app, &HeaderMap::new(), csrf, Some(link)).await?;
            page.ways = Ways::for_page(&app, Some(started.profile.id), &page.csrf).await?;
            page.handle = Some(started.profile.handle);
            let mut response = axum::response::IntoResponse::into_response(page);
            response.headers_mut().append(
                axum::http::header::SET_COOKIE,
                session_cookie(&started.secret, transport),
            );
            Ok(response)
        }
        Err(error) => {
            let page = me_page(&app, &headers, csrf, None).await?;
            Ok(again(error, |message| MePage {
                error: Some(message),
                form_handle: handle,
                ..page
            }))
        }
    }
}

/// POST /me/link: a new key for this profile, its sign-in link shown once.
pub async fn new_link(
    State(app): State<AppState>,
    headers: HeaderMap,
    form: CheckedForm,
) -> Result<MePage, PageError> {
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    let key = app.host.new_key_for(session.profile.id).await?;
    let link = format!("{}/me/as/{key}", base_url(&headers));
    me_page(&app, &headers, form.get("csrf").to_owned(), Some(link)).await
}

/// POST /me/keys/{id}/revoke.
pub async fn revoke_key(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    app.host.revoke_key_of(session.profile.id, &id).await?;
    Ok(see_other("/me", &[]))
}

/// POST /me/sessions/{id}/revoke.
pub async fn revoke_session(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    let session = session_of(&app, &headers).await?.ok_or_else(signed_out)?;
    app.host.end_session(session.profile.id, &id).await?;
    Ok(see_other("/me", &[]))
}

/// POST /me/sign-out: ends this browser's session.
pub async fn sign_out(
    State(app): State<AppState>,
    headers: HeaderMap,
    _form: CheckedForm,
) -> Result<Response, PageError> {
    if let Some(session) = session_of(&app, &headers).await? {
        app.host
            .end_session(session.profile.id, &session.id.to_string())
            .await?;
    }
    Ok(see_other("/", &[forget_session_cookie()]))
}
