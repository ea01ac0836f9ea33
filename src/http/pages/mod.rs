//! Server-rendered pages and forms for people (`docs/web.md`). Every page is a typed
//! askama template that is itself the response; every form POSTs, is checked against CSRF,
//! and answers with a 303 to the page to look at next, or with the same form again and a
//! message. Handlers only translate between HTTP and the [`crate::host::Host`].

mod challenge_forms;
mod challenge_lines;
mod chart;
pub mod chips;
mod create_form;
mod deadline;
mod director_webhooks;
pub mod error;
mod fallback_form;
mod gates_form;
mod home;
mod host_actions;
mod host_controls;
mod host_excuse;
mod host_panel;
mod host_seats;
mod host_webhooks;
mod ladder_page;
mod leaderboard;
mod lobby;
mod lobby_detail;
mod mail_form;
mod mail_section;
mod mail_sign_in;
mod me_page;
mod my_games;
mod my_seats;
mod ordered;
mod passkeys;
mod play;
pub mod posts;
mod profile_page;
pub mod prompt_form;
mod rating_cells;
mod round;
mod round_block;
mod rounds_list;
pub mod rules_page;
mod seat_badge;
mod seat_claim;
mod seat_hold;
mod seat_labels;
pub mod session;
mod session_slide;
mod sign_in_routes;
mod sign_in_ways;
mod signed_in;
pub mod table;
mod talk;
mod tournament_director;
mod tournament_entry;
mod tournament_form;
mod tournament_lines;
mod tournament_list;
mod tournament_page;
mod unsubscribe;
mod vacation_form;
mod vacation_shown;
pub mod waiting;
mod webhooks_section;
mod whole_game;

use axum::Router;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, LOCATION, SET_COOKIE};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use uuid::Uuid;

use super::AppState;
use crate::error::AppError;
pub use error::PageError;

/// What the layout needs to make a page follow its lobby's events.
#[derive(Clone, Debug)]
pub struct Live {
    pub lobby: Uuid,
    /// The last event the page already reflects; the script ignores events up to it.
    pub after: i64,
    /// With JavaScript off, reload every 30 s: only a page with nothing on it to fill in. A
    /// reload throws away what was typed or ticked, and on a page that answers a form (a
    /// refusal, a webhook's secret shown once) it would GET the form's address instead.
    pub refresh: bool,
}

pub fn routes(state: &AppState) -> Router<AppState> {
    let pages = Router::new()
        .route("/", get(home::show_home))
        // The create form posts here; a GET (a bookmark, a reload after an error) goes home.
        .route(
            "/lobbies",
            get(async || see_other("/", &[])).post(home::create_lobby),
        )
        .route("/lobbies/{id}", get(lobby::show_lobby))
        .route(
            "/lobbies/{id}/join",
            get(lobby::show_join).post(lobby::join_lobby),
        )
        .route("/lobbies/{id}/as/{token}", get(lobby::continue_as))
        .route("/lobbies/{id}/host", get(host_panel::show_host_panel))
        .route(
            "/lobbies/{id}/host/close-signups",
            post(host_actions::close_signups),
        )
        .route("/lobbies/{id}/host/start", post(host_actions::start_game))
        .route("/lobbies/{id}/host/webhooks", post(host_webhooks::add))
        .route(
            "/lobbies/{id}/host/webhooks/{webhook_id}/test",
            post(host_webhooks::test),
        )
        .route(
            "/lobbies/{id}/host/webhooks/{webhook_id}/enable",
            post(host_webhooks::enable),
        )
        .route(
            "/lobbies/{id}/host/webhooks/{webhook_id}/delete",
            post(host_webhooks::delete),
        )
        .route("/lobbies/{id}/host/extend", post(host_actions::extend))
        .route(
            "/lobbies/{id}/host/set-deadline",
            post(host_actions::set_deadline),
        )
        .route("/lobbies/{id}/host/pause", post(host_actions::pause))
        .route("/lobbies/{id}/host/resume", post(host_actions::resume))
        .route(
            "/lobbies/{id}/host/resolve-now",
            post(host_actions::resolve_now),
        )
        .route(
            "/lobbies/{id}/play/fallback",
            post(fallback_form::set_fallback),
        )
        .route(
            "/lobbies/{id}/play/fallback/remove",
            post(fallback_form::clear_fallback),
        )
        .route(
            "/lobbies/{id}/host/reopen-signups",
            post(host_controls::reopen_signups),
        )
        .route("/lobbies/{id}/host/end", post(host_controls::end_game))
        .route(
            "/lobbies/{id}/host/players/{player}/remove",
            post(host_controls::remove_signup),
        )
        .route(
            "/lobbies/{id}/host/players/{player}/replace",
            post(host_controls::replace_player),
        )
        .route(
            "/lobbies/{id}/host/players/{player}/reissue",
            post(host_controls::reissue_link),
        )
        .route(
            "/lobbies/{id}/host/players/{player}/kick",
            post(host_controls::kick_player),
        )
        .route(
            "/lobbies/{id}/host/players/{player}/remind",
            post(host_controls::remind_player),
        )
        .route(
            "/lobbies/{id}/play/talk",
            get(talk::show_talk).post(talk::send_message),
        )
        .route("/lobbies/{id}/leave", post(play::leave_lobby))
        .route("/lobbies/{id}/play/claim", post(seat_claim::claim_seat))
        .route(
            "/lobbies/{id}/host/players/{player}/excuse",
            post(host_excuse::excuse_miss),
        )
        .route("/lobbies/{id}/play/mail", post(mail_form::set_mail))
        .route("/lobbies/{id}/play/mail/stop", post(mail_form::stop_mail))
        .route(
            "/lobbies/{id}/play",
            get(play::show_play).post(play::submit_order),
        )
        .route("/lobbies/{id}/rounds/{round}", get(round::show_round))
        .route("/lobbies/{id}/rounds", get(rounds_list::show_rounds))
        .route("/lobbies/{id}/export", get(whole_game::show_whole_game))
        .route("/rules/{game}", get(rules_page::show_rules))
        .route("/my-games/carry", post(my_games::show_carry_link))
        .route("/my-games/as/{key}", get(my_games::carry_here))
        .route("/my-games/forget", post(my_games::forget))
        .route("/me", get(me_page::show_me))
        .route("/me/as/{key}", get(me_page::sign_in))
        .route("/me/profile", post(me_page::make_profile))
        .route("/me/link", post(me_page::new_link))
        .route("/me/keys/{id}/revoke", post(me_page::revoke_key))
        .route("/me/sessions/{id}/revoke", post(me_page::revoke_session))
        .route("/me/sign-out", post(me_page::sign_out))
        .route("/me/vacation", post(vacation_form::declare))
        .route("/me/vacation/end", post(vacation_form::end))
        .route("/u/{handle}", get(profile_page::show_profile))
        .route("/u/{handle}/challenge", post(challenge_forms::challenge))
        .route("/me/challenges/{id}/accept", post(challenge_forms::accept))
        .route(
            "/me/challenges/{id}/decline",
            post(challenge_forms::decline),
        )
        .merge(sign_in_routes::routes())
        .route(
            "/tournaments",
            get(tournament_list::show_tournaments).post(tournament_form::create_tournament),
        )
        .route("/tournaments/new", get(tournament_form::show_form))
        .route("/tournaments/{id}", get(tournament_page::show_tournament))
        .route("/tournaments/{id}/stamp", get(tournament_page::show_stamp))
        .route("/tournaments/{id}/enter", post(tournament_entry::enter))
        .route(
            "/tournaments/{id}/withdraw",
            post(tournament_entry::withdraw),
        )
        .route(
            "/tournaments/{id}/as/{token}",
            get(tournament_director::continue_as_director),
        )
        .route(
            "/tournaments/{id}/director",
            get(tournament_director::show_director),
        )
        .route(
            "/tournaments/{id}/director/next-round",
            post(tournament_director::start_next_round),
        )
        .route(
            "/tournaments/{id}/director/webhooks",
            post(director_webhooks::add),
        )
        .route(
            "/tournaments/{id}/director/webhooks/{webhook_id}/test",
            post(director_webhooks::test),
        )
        .route(
            "/tournaments/{id}/director/webhooks/{webhook_id}/enable",
            post(director_webhooks::enable),
        )
        .route(
            "/tournaments/{id}/director/webhooks/{webhook_id}/delete",
            post(director_webhooks::delete),
        )
        .route("/ratings/{game}/{kind}", get(leaderboard::show_leaderboard))
        .route("/ladder/{game}", get(ladder_page::show_ladder))
        // Layers run outside in: the CSRF layer settles the transport the slide's cookie needs.
        .layer(middleware::from_fn_with_state(
            state.clone(),
            session_slide::slide_session_cookie,
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            session::issue_csrf,
        ));
    Router::new()
        .route("/static/herald.css", get(stylesheet))
        .route("/static/herald.js", get(script))
        .route("/static/passkeys.js", get(passkeys_script))
        .route(
            "/unsubscribe/{token}",
            get(unsubscribe::ask).post(unsubscribe::unsubscribe),
        )
        .merge(pages)
}

const CSS: &str = include_str!("../../../static/herald.css");
const JS: &str = include_str!("../../../static/herald.js");

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (
                CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            ),
        ],
        body,
    )
        .into_response()
}

async fn stylesheet() -> Response {
    asset("text/css; charset=utf-8", CSS)
}

async fn script() -> Response {
    asset("text/javascript; charset=utf-8", JS)
}

/// The passkey ceremonies' script, loaded only by `/me` where passkeys are on.
async fn passkeys_script() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        include_str!("../../../static/passkeys.js"),
    )
}

/// Path parameters of a page; a path that does not decode is an HTML 404 (see
/// [`crate::http::extract::ApiPath`]).
pub struct PagePath<T>(pub T);

impl<T, S> axum::extract::FromRequestParts<S> for PagePath<T>
where
    T: serde::de::DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = PageError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<PagePath<T>, PageError> {
        let crate::http::extract::ApiPath(value) =
            crate::http::extract::ApiPath::from_request_parts(parts, state).await?;
        Ok(PagePath(value))
    }
}

/// Parses a lobby id from a page path (anything else names no lobby: 404).
pub fn lobby_id(raw: &str) -> Result<Uuid, PageError> {
    Ok(crate::http::extract::lobby_id(raw)?)
}

/// A 303 See Other to `location`, setting the given cookies (POST-redirect-GET).
pub fn see_other(location: &str, cookies: &[HeaderValue]) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(LOCATION, value);
    }
    for cookie in cookies {
        response.headers_mut().append(SET_COOKIE, cookie.clone());
    }
    response
}

/// [`see_other`] from a private link (a seat's, the host's, a director's): the link's address
/// holds its token, so the redirect tells no one where it came from.
pub fn see_other_from_private_link(location: &str, cookies: &[HeaderValue]) -> Response {
    let mut response = see_other(location, cookies);
    response.headers_mut().insert(
        axum::http::header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// A form shown again after `error`, with that error's status (4xx; 500 stays an error page).
pub fn again<T: IntoResponse>(error: AppError, page: impl FnOnce(String) -> T) -> Response {
    if matches!(error, AppError::Internal(_)) {
        return PageError(error).into_response();
    }
    let status = error.status();
    // The rules write a refusal for any count ("discard exactly 2 token(s)"); a page says it
    // with the count's own plural.
    let message = crate::games::telling::counted(&error.public_message());
    (status, page(message)).into_response()
}

/// The absolute base of links to share (`http://host:port`), from the request's Host header
/// and its `X-Forwarded-Proto`, which the session layer has settled ([`session::issue_csrf`]).
pub fn base_url(headers: &axum::http::HeaderMap) -> String {
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("localhost");
    let scheme = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .filter(|p| *p == "https")
        .unwrap_or("http");
    format!("{scheme}://{host}")
}
