//! My games on the home page, and carrying them to another device (`docs/web.md`).
//!
//! A browser that creates, joins or opens a private link to a lobby gets a personal key in
//! the `herald_me` cookie (HttpOnly, SameSite=Lax, Secure over HTTPS, `Path=/`); the host
//! remembers the lobby and role under the key's hash. The key is shown only on the carry page,
//! which a person asks for with a button, as a link (`/my-games/as/<key>`) to open on another
//! device; the request log redacts it as it does private links. Forgetting clears the cookie
//! on this device.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::Response;

use super::session::{CheckedForm, Transport, cookie};
use super::{Live, PageError, PagePath, base_url, see_other};
use crate::error::AppError;
use crate::games::telling::in_utc;
use crate::host::auth::new_token;
use crate::host::my_games::{MyGame, MyRole, MyTurn, seat_mark, well_formed_key};
use crate::http::AppState;

pub const MY_KEY_COOKIE: &str = "herald_me";
/// As long as the lobbies' identity cookies: a game can run for months.
const MY_KEY_MAX_AGE: u64 = 180 * 24 * 3600;

/// This browser's personal key, if its cookie holds a well-formed one.
fn key_of(headers: &HeaderMap) -> Option<&str> {
    cookie(headers, MY_KEY_COOKIE).filter(|key| well_formed_key(key))
}

fn key_cookie(key: &str, transport: Transport) -> HeaderValue {
    let secure = if transport.https { "; Secure" } else { "" };
    let text = format!(
        "{MY_KEY_COOKIE}={key}; Path=/; Max-Age={MY_KEY_MAX_AGE}; HttpOnly; SameSite=Lax{secure}"
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

fn forget_key_cookie() -> HeaderValue {
    HeaderValue::from_static("herald_me=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
}

/// Remembers `role` in `lobby` under this browser's key, making a key if it has none; the
/// cookie to set comes back for a new key. The lobby change it follows has already been made,
/// so a failure here is logged (without the key) and the person goes on without the entry.
pub async fn remember(
    app: &AppState,
    headers: &HeaderMap,
    transport: Transport,
    lobby: uuid::Uuid,
    role: MyRole,
) -> Vec<HeaderValue> {
    let (key, fresh) = match key_of(headers) {
        Some(key) => (key.to_owned(), false),
        None => (new_token(), true),
    };
    match app.host.remember_game(&key, lobby, role).await {
        Ok(()) if fresh => vec![key_cookie(&key, transport)],
        Ok(()) => Vec::new(),
        Err(error) => {
            tracing::warn!(%lobby, error = %error.public_message(), "could not remember a game under a personal key");
            Vec::new()
        }
    }
}

/// Forgets `role` in `lobby` under this browser's key (a player who left). Like
/// [`remember`], it follows a change already made: a failure is logged and passed over.
pub async fn forget_here(app: &AppState, headers: &HeaderMap, lobby: uuid::Uuid, role: MyRole) {
    let Some(key) = key_of(headers) else {
        return;
    };
    if let Err(error) = app.host.forget_game(key, lobby, role).await {
        tracing::warn!(%lobby, error = %error.public_message(), "could not forget a game under a personal key");
    }
}

/// The cookie that marks which seat of `lobby` this browser plays ([`seat_mark`]), for the
/// home page's "your turn". `Path=/`, unlike the token's cookie: the home page must read it,
/// and it opens nothing.
pub fn seat_mark_cookie(lobby: uuid::Uuid, token: &str, transport: Transport) -> HeaderValue {
    let secure = if transport.https { "; Secure" } else { "" };
    let text = format!(
        "{}={}; Path=/; Max-Age={MY_KEY_MAX_AGE}; HttpOnly; SameSite=Lax{secure}",
        seat_mark_name(lobby),
        seat_mark(token)
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// Clears the seat mark of `lobby` (a player who left).
pub fn forget_seat_mark_cookie(lobby: uuid::Uuid) -> HeaderValue {
    let text = format!(
        "{}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax",
        seat_mark_name(lobby)
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

fn seat_mark_name(lobby: uuid::Uuid) -> String {
    format!("herald_seat_{}", lobby.simple())
}

/// One of my games as the home page shows it.
pub struct MyLine {
    pub name: String,
    pub href: String,
    pub game: &'static str,
    pub role: &'static str,
    pub detail: String,
    /// The open step waits for this browser's answer: the badge, with the deadline if there is
    /// one ("your turn, due 2026-12-01 18:00 UTC").
    pub turn: Option<String>,
    /// The lobby, and when it was made: the list's order after the turns is newest first.
    pub lobby: uuid::Uuid,
    pub created_at: i64,
}

/// The badge of a turn: "your turn", with its deadline if the step has one.
pub fn turn_words(turn: &MyTurn) -> String {
    match &turn.deadline_at {
        Some(at) => format!("your turn, due {}", in_utc(at)),
        None => "your turn".to_owned(),
    }
}

/// The order of my games: those that wait for an answer first, then the newest lobby first.
pub fn in_order(lines: &mut [MyLine]) {
    lines.sort_by_key(|line| (line.turn.is_none(), std::cmp::Reverse(line.created_at)));
}

/// This browser's games for the home page (none without a key), those whose step waits for
/// this browser's answer first.
pub async fn my_lines(app: &AppState, headers: &HeaderMap) -> Result<Vec<MyLine>, PageError> {
    let Some(key) = key_of(headers) else {
        return Ok(Vec::new());
    };
    let games = app.host.my_games(key).await?;
    let marks: Vec<(uuid::Uuid, String)> = games
        .iter()
        .filter(|g| g.role == MyRole::Player)
        .filter_map(|g| {
            let mark = cookie(headers, &seat_mark_name(g.lobby.id))?;
            Some((g.lobby.id, mark.to_owned()))
        })
        .collect();
    let turns = app.host.my_turns(&marks).await?;
    let mut lines: Vec<MyLine> = games
        .iter()
        .map(|game| {
            let turn = turns
                .iter()
                .find(|t| t.lobby == game.lobby.id && game.role == MyRole::Player)
                .map(turn_words);
            MyLine {
                turn,
                ..my_line(game)
            }
        })
        .collect();
    in_order(&mut lines);
    Ok(lines)
}

pub fn my_line(game: &MyGame) -> MyLine {
    let id = game.lobby.id;
    let (role, href) = match game.role {
        MyRole::Host => ("you host", format!("/lobbies/{id}/host")),
        MyRole::Player => ("you play", format!("/lobbies/{id}/play")),
    };
    MyLine {
        name: game.lobby.name.clone(),
        href,
        game: game.lobby.game.title(),
        role,
        detail: super::lobby_detail::detail(&game.lobby),
        turn: None,
        lobby: id,
        created_at: game.lobby.created_at,
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "my_games_carry.html")]
pub struct CarryPage {
    pub title: String,
    pub live: Option<Live>,
    pub link: String,
}

/// POST /my-games/carry: the link that carries this browser's games to another device.
pub async fn show_carry_link(
    State(app): State<AppState>,
    headers: HeaderMap,
    _form: CheckedForm,
) -> Result<CarryPage, PageError> {
    let key = match key_of(&headers) {
        Some(key) if app.host.key_known(key).await? => key,
        _ => return Err(no_games()),
    };
    Ok(CarryPage {
        title: "Carry my games to another device".into(),
        live: None,
        link: format!("{}/my-games/as/{key}", base_url(&headers)),
    })
}

fn no_games() -> PageError {
    PageError(AppError::not_found(
        "no-games",
        "This browser remembers no games yet: create or join one first.",
    ))
}

/// GET /my-games/as/{key}: this device takes up the key (keeping its own games under it).
pub async fn carry_here(
    State(app): State<AppState>,
    PagePath(key): PagePath<String>,
    headers: HeaderMap,
    transport: Transport,
) -> Result<Response, PageError> {
    if !well_formed_key(&key) || !app.host.key_known(&key).await? {
        return Err(PageError(AppError::not_found(
            "unknown-key",
            "This link carries no games: it may have been mistyped. Open the link again from the device that has your games.",
        )));
    }
    if let Some(old) = key_of(&headers).filter(|old| *old != key) {
        app.host.merge_games(old, &key).await?;
    }
    Ok(see_other(
        "/?carried=1#my-games",
        &[key_cookie(&key, transport)],
    ))
}

/// POST /my-games/forget: this browser no longer shows its games (other devices keep them).
pub async fn forget(_form: CheckedForm) -> Response {
    see_other("/", &[forget_key_cookie()])
}
