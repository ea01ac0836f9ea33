//! A lobby's public page (status, pools, who has submitted, the reveals, the result), the join
//! form, and the private link that makes a browser someone in a lobby.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::Map;

use super::deadline::{DeadlineLine, settings_in_words};
use super::my_games::{remember, seat_mark_cookie};
use super::posts::{self, Exports, Links};
use super::prompt_form::Field;
use super::round::{collecting, latest};
use super::round_block::{RoundBlock, round_name, so_far};
use super::session::{CheckedForm, Csrf, Role, Transport, identity_cookie};
use super::signed_in::session_of;
use super::table::{PoolsTable, Standings, heading, names, show};
use super::waiting::{step_phrase, waiting_line};
use super::{Live, PageError, PagePath, again, base_url, lobby_id, see_other};
use crate::error::AppError;
use crate::games::{GameUi, with_game};
use crate::host::GameKind;
use crate::host::my_games::MyRole;
use crate::host::views::LobbyView;
use crate::http::AppState;
use crate::http::rate::{Admitted, Joins};
use crate::rules::Game;
use crate::store::Status;

/// How many of the latest rounds' reveals the lobby page shows.
pub const RECENT_ROUNDS: usize = 3;
/// How many of the latest rounds the lobby page's charts cover.
pub const CHART_ROUNDS: usize = 8;

#[derive(Template, WebTemplate)]
#[template(path = "lobby.html")]
pub struct LobbyPage {
    pub title: String,
    /// The leaderboards of a rated lobby (`leaderboard.rs`); none when unrated.
    pub boards: Vec<super::leaderboard::PoolLink>,
    pub live: Option<Live>,
    pub csrf: String,
    pub lobby_id: String,
    pub game_title: &'static str,
    pub status: &'static str,
    pub status_label: String,
    pub signups_open: bool,
    /// Sign-ups are open but every seat is taken: no join form, say so.
    pub full: bool,
    /// Who the game waits for ("Waiting for Dan's orders."), while it runs.
    pub waiting: Option<String>,
    pub table: PoolsTable,
    /// The game's public table (BST: pool size, discard pile), as (heading, value) lines.
    pub table_facts: Vec<(String, String)>,
    pub show_orders: bool,
    pub result: Option<Standings>,
    /// The latest rounds, newest first (at most [`RECENT_ROUNDS`]).
    pub history: Vec<RoundBlock>,
    /// How many older rounds are on the rounds page instead.
    pub older_rounds: usize,
    /// HP and VP over the rounds, as pictures with their numbers.
    pub charts: Vec<super::chart::Chart>,
    /// The running round's reveals so far.
    pub so_far: Option<RoundBlock>,
    pub you: Option<String>,
    pub is_host: bool,
    pub join_name: String,
    pub join_fields: Vec<Field>,
    pub join_error: Option<String>,
    /// The handle a signed-in browser joins as (docs/identity.md, "Signing in").
    pub joining_as: Option<String>,
    pub exports: Exports,
    /// What the pools table shows ("Pools after round 2").
    pub pools_title: String,
    /// The sign-up announcement, before the start.
    pub announcement: Option<Exports>,
    /// The final standings, once the game is over.
    pub standings_export: Option<Exports>,
    pub seed: Option<String>,
    /// The commitment to the seed made before the first order (docs/fairness.md).
    pub seed_commitment: Option<String>,
    /// The rule variants that differ from the default game, in words (rulings §3.1).
    pub variants: Vec<String>,
    /// The deadline settings in words (docs/deadlines.md).
    pub timing: Vec<String>,
    pub deadline: Option<DeadlineLine>,
    /// The table talk everyone may read (docs/table-talk.md).
    pub talk: Vec<super::talk::Line>,
}

#[derive(Template, WebTemplate)]
#[template(path = "join.html")]
pub struct JoinPage {
    pub title: String,
    pub live: Option<Live>,
    pub csrf: String,
    pub lobby_id: String,
    pub signups_open: bool,
    pub full: bool,
    pub join_name: String,
    pub join_fields: Vec<Field>,
    pub join_error: Option<String>,
    /// The handle a signed-in browser joins as.
    pub joining_as: Option<String>,
}

/// What a game asks at sign-up besides the name (BST: the character).
pub fn join_fields(game: GameKind) -> Vec<Field> {
    with_game!(game, G => G::join_fields())
}

/// The lobby's non-default rule variants in words, each naming its ruling ("Halt cycles all
/// fire (Ruling 7)"), as the game puts them.
pub fn variants(lobby: &LobbyView) -> Vec<String> {
    with_game!(lobby.game, G => {
        serde_json::from_value::<<G as Game>::Settings>(lobby.settings.clone())
            .map(|s| G::variants(&s))
            .unwrap_or_default()
    })
}

/// The lobby's deadline settings in words, the main step named as the game names it.
pub fn timing_in_words(lobby: &LobbyView) -> Vec<String> {
    let main = with_game!(lobby.game, G => G::MAIN_ANSWERS);
    settings_in_words(lobby, main)
}

pub fn status_label(lobby: &LobbyView) -> String {
    match (lobby.status, lobby.round) {
        (Status::Signups, _) => format!(
            "Sign-ups open: {} of {} seats taken",
            lobby.players.len(),
            lobby.capacity
        ),
        (Status::Closed, _) => "Sign-ups closed; waiting for the host to start".into(),
        (Status::Running, Some(round)) => {
            let name = round_name(round, lobby.max_rounds);
            match lobby.step.as_deref() {
                Some(step) => format!("{name}: {}", step_phrase(lobby.game, step)),
                None => name,
            }
        }
        (Status::Finished, _) => "Finished".into(),
        (Status::Running, None) => "Running".into(),
    }
}

pub async fn show_lobby(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
) -> Result<LobbyPage, PageError> {
    let id = lobby_id(&id)?;
    let after = app.host.last_event_seq(id).await?;
    let lobby = app.host.lobby(id).await?;
    let (viewer, hold) = super::seat_hold::viewer_of(&app, id, &headers).await?;
    let player_token = hold.as_ref().map(super::seat_hold::SeatHold::credential);
    // Only the rounds the page shows are read: the latest reveals and the charts' rounds.
    let record = latest(&app, &lobby, player_token, CHART_ROUNDS.max(RECENT_ROUNDS)).await?;
    let labels = record.labels;
    let mut history = record.blocks;
    let resolved = app.host.rounds(id).await?.len();
    // The charts too cover the latest rounds; the whole game's are on the rounds page.
    let charted = &history[history.len().saturating_sub(CHART_ROUNDS)..];
    // The charts start from the pools before round 1 when they cover the whole game.
    let start = match charted.len() < resolved {
        true => None,
        false => app
            .host
            .start_pools(id)
            .await?
            .map(|pools| RoundBlock::start(&pools, &lobby, &labels)),
    };
    let mut charts = super::chart::charts(lobby.game, start.as_ref(), charted);
    if charted.len() < resolved {
        for chart in &mut charts {
            chart.title = format!("{} (the last {CHART_ROUNDS} rounds)", chart.title);
        }
    }
    // The latest rounds inline, the older ones on their own page (`/lobbies/{id}/rounds`): the
    // page weighs about the same at round 60 as at round 6 (docs/performance.md).
    history.reverse();
    let older_rounds = resolved.saturating_sub(RECENT_ROUNDS);
    history.truncate(RECENT_ROUNDS);
    let table = PoolsTable::of(lobby.game, &lobby.players, collecting(&lobby))
        .relabeled(&labels)
        .seen(
            viewer.player.as_ref().map(|p| p.id.to_string()).as_deref(),
            lobby.status == Status::Finished,
        );
    let names = names(&lobby.players);
    let result = lobby
        .result
        .as_ref()
        .map(|r| Standings::of(lobby.game, r, &names, &labels));
    let base = base_url(&headers);
    let links = Links {
        base: &base,
        lobby: &lobby,
    };
    let exports = Exports::of(&posts::pools(&links, &table));
    let before_start = matches!(lobby.status, Status::Signups | Status::Closed);
    let mut settings = variants(&lobby);
    settings.extend(timing_in_words(&lobby));
    let announcement = before_start.then(|| Exports::of(&posts::announcement(&links, &settings)));
    let standings_export = result
        .as_ref()
        .map(|r| Exports::of(&posts::standings(&links, r)));
    let pools_title = posts::pools_title(&lobby);
    let full = lobby.players.len() >= lobby.capacity;
    // The page offers the join form to a visitor who is not in yet (the template's test).
    let join_form = lobby.status == Status::Signups && viewer.player.is_none() && !full;
    let talk = super::talk::public_lines(&app, id, &names).await?;
    Ok(LobbyPage {
        deadline: DeadlineLine::of(&lobby),
        title: lobby.name.clone(),
        boards: super::leaderboard::lobby_boards(
            lobby.game,
            &lobby.settings,
            lobby.result.as_ref(),
        ),
        // A finished game has no news to wait for: no live updates, no "updates itself".
        live: (lobby.status != Status::Finished).then_some(Live {
            lobby: id,
            after,
            refresh: !join_form,
        }),
        csrf,
        lobby_id: id.to_string(),
        game_title: lobby.game.title(),
        status: lobby.status.as_str(),
        status_label: status_label(&lobby),
        signups_open: lobby.status == Status::Signups,
        full,
        waiting: waiting_line(&lobby, viewer.player.as_ref().map(|p| p.name.as_str())),
        show_orders: collecting(&lobby),
        table,
        table_facts: lobby
            .table
            .iter()
            .map(|(k, v)| (heading(lobby.game, k), show(v, &names)))
            .collect(),
        result,
        history,
        older_rounds,
        charts,
        so_far: so_far(&lobby, &labels),
        you: viewer.player.map(|p| p.name),
        is_host: viewer.is_host,
        join_name: String::new(),
        join_fields: join_fields(lobby.game),
        join_error: None,
        joining_as: match join_form {
            true => signed_in_handle(&app, &headers).await?,
            false => None,
        },
        exports,
        pools_title,
        announcement,
        standings_export,
        seed: lobby.seed.clone(),
        seed_commitment: lobby.seed_commitment.clone(),
        variants: variants(&lobby),
        timing: timing_in_words(&lobby),
        talk,
    })
}

/// The handle of the profile this browser is signed in as, if it is.
async fn signed_in_handle(
    app: &AppState,
    headers: &HeaderMap,
) -> Result<Option<String>, PageError> {
    Ok(session_of(app, headers).await?.map(|s| s.profile.handle))
}

pub async fn show_join(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
) -> Result<JoinPage, PageError> {
    let id = lobby_id(&id)?;
    let lobby = app.host.lobby(id).await?;
    let mut page = join_page(&lobby, csrf, String::new(), None);
    page.joining_as = signed_in_handle(&app, &headers).await?;
    Ok(page)
}

fn join_page(lobby: &LobbyView, csrf: String, name: String, error: Option<String>) -> JoinPage {
    JoinPage {
        title: format!("Join {}", lobby.name),
        live: None,
        csrf,
        lobby_id: lobby.id.to_string(),
        signups_open: lobby.status == Status::Signups,
        full: lobby.status == Status::Signups && lobby.players.len() >= lobby.capacity,
        join_name: name,
        join_fields: join_fields(lobby.game),
        join_error: error,
        joining_as: None,
    }
}

pub async fn join_lobby(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    admitted: Result<Admitted<Joins>, AppError>,
    Csrf(csrf): Csrf,
    transport: Transport,
    headers: HeaderMap,
    form: CheckedForm,
) -> Result<Response, PageError> {
    admitted?;
    let id = lobby_id(&id)?;
    let lobby = app.host.lobby(id).await?;
    let name = form.get("name").to_owned();
    let mut fields = Map::new();
    let mut unreadable = None;
    for field in join_fields(lobby.game) {
        let value = form.get(&field.name);
        if !value.is_empty() {
            match field.read(value) {
                Ok(value) => {
                    fields.insert(field.name.clone(), value);
                }
                Err(problem) => unreadable = Some(problem),
            }
        }
    }
    // A signed-in browser joins as its profile: the seat is bound to it, through the
    // lobby's gates; an empty name is then the handle.
    let session = session_of(&app, &headers).await?;
    let joining_as = session.as_ref().map(|s| s.profile.handle.clone());
    let joining = match (unreadable, session) {
        (Some(problem), _) => Err(AppError::rejected("invalid-answer", problem)),
        (None, Some(session)) => {
            let name = Some(name.as_str()).filter(|n| !n.trim().is_empty());
            app.host
                .join_with(id, name, fields, Some(session.profile))
                .await
        }
        (None, None) => app.host.join(id, &name, fields).await,
    };
    match joining {
        Ok(joined) => {
            let mut cookies = vec![
                identity_cookie(id, Role::Player, &joined.player_token, transport),
                seat_mark_cookie(id, &joined.player_token, transport),
            ];
            cookies.extend(remember(&app, &headers, transport, id, MyRole::Player).await);
            Ok(see_other(&format!("/lobbies/{id}/play?joined=1"), &cookies))
        }
        Err(error) => Ok(again(error, |message| JoinPage {
            joining_as,
            ..join_page(&lobby, csrf, name, Some(message))
        })),
    }
}

/// The private link: remembers the token in this browser, then goes to the host panel or the
/// player's page. A token this lobby does not know is a 404 (the link is wrong or stale).
pub async fn continue_as(
    State(app): State<AppState>,
    PagePath((id, token)): PagePath<(String, String)>,
    transport: Transport,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let id = lobby_id(&id)?;
    let viewer = app.host.viewer(id, Some(&token), Some(&token)).await?;
    let (role, mine, page) = if viewer.is_host {
        (Role::Host, MyRole::Host, "host")
    } else if viewer.player.is_some() {
        (Role::Player, MyRole::Player, "play")
    } else {
        return Err(PageError(AppError::not_found(
            "unknown-token",
            "This private link does not belong to this lobby. Ask whoever sent it for a new one.",
        )));
    };
    let mut cookies = vec![identity_cookie(id, role, &token, transport)];
    if mine == MyRole::Player {
        cookies.push(seat_mark_cookie(id, &token, transport));
    }
    cookies.extend(remember(&app, &headers, transport, id, mine).await);
    Ok(super::see_other_from_private_link(
        &format!("/lobbies/{id}/{page}"),
        &cookies,
    ))
}
