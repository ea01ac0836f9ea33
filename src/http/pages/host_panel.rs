//! The host panel: who the game waits for and who has answered, the links to share, closing
//! sign-ups, starting the game, the clock (extend, pause, resume, resolve now; their handlers:
//! `host_actions.rs`), and the controls over people and the game's end (their handlers:
//! `host_controls.rs`). Only the browser holding the lobby's host cookie sees it.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use serde::Deserialize;
use uuid::Uuid;

use super::deadline::{DeadlineLine, reminder_warning};
use super::host_seats::{Remind, SeatControl, seats};
use super::lobby::status_label;
use super::round::collecting;
use super::seat_labels::SeatLabels;
use super::session::{Csrf, Tokens};
use super::table::{PoolsTable, PublicPlayer};
use super::waiting::waiting_line;
use super::{Live, PageError, PagePath, base_url, lobby_id};
use crate::error::AppError;
use crate::games::telling::FinalResult;
use crate::games::{GameUi, with_game};
use crate::http::AppState;
use crate::store::Status;

/// The sign-up announcement to copy into the forum thread, until the game starts.
fn announcement(
    base: &str,
    lobby: &crate::host::views::LobbyView,
) -> Option<super::posts::Exports> {
    use super::lobby::{timing_in_words, variants};
    use super::posts::{Exports, Links};
    if !matches!(lobby.status, Status::Signups | Status::Closed) {
        return None;
    }
    let mut settings = variants(lobby);
    settings.extend(timing_in_words(lobby));
    let links = Links { base, lobby };
    Some(Exports::of(&super::posts::announcement(&links, &settings)))
}

/// The status line as the host reads it: once sign-ups are closed it is the host who starts.
fn host_status_label(lobby: &crate::host::views::LobbyView) -> String {
    match lobby.status {
        Status::Closed => "Sign-ups closed: start the game when you are ready".into(),
        _ => status_label(lobby),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "host.html")]
pub struct HostPage {
    pub title: String,
    /// The leaderboards of a rated lobby (`leaderboard.rs`); none when unrated.
    pub boards: Vec<super::leaderboard::PoolLink>,
    pub live: Option<Live>,
    pub csrf: String,
    pub lobby_id: String,
    pub status_label: String,
    pub share_link: String,
    pub private_link: String,
    pub can_close: bool,
    pub can_start: bool,
    pub can_reopen: bool,
    /// Before the start: each sign-up can be removed.
    pub before_start: bool,
    /// While the game runs: substitutes, new links, kicks and the end.
    pub running: bool,
    pub finished: bool,
    /// Once it is over: who won and why ("Winner: Ann (round cap).").
    pub result: Option<String>,
    /// The sign-up announcement for the forum, before the start.
    pub announcement: Option<super::posts::Exports>,
    /// A duel ends with the host's draw or winner (BST); a melee by its standings.
    pub duel: bool,
    pub players: Vec<SeatControl>,
    /// Who the open step waits for ("Waiting for Dan's orders."), while the game runs.
    pub waiting: Option<String>,
    pub created: bool,
    pub table: PoolsTable,
    pub show_orders: bool,
    pub error: Option<String>,
    pub paused: bool,
    pub deadline: Option<DeadlineLine>,
    /// Said when the lobby's reminders can never fire for its deadlines.
    pub reminder_warning: Option<String>,
    /// The notifications section (`webhooks_section.rs`).
    pub notifications: super::webhooks_section::WebhooksSection,
    /// A webhook's signing secret, shown once on the page that added it.
    pub new_secret: Option<String>,
    /// Players away now or soon (docs/identity.md, "Vacations").
    pub aways: Vec<String>,
}

#[derive(Deserialize)]
pub struct Flags {
    created: Option<String>,
    /// The webhook a test was just sent to.
    tested: Option<String>,
}

/// The host's token from the cookie, if it is this lobby's host token; 401 otherwise.
pub(super) async fn host_token(
    app: &AppState,
    id: Uuid,
    headers: &HeaderMap,
) -> Result<String, PageError> {
    let tokens = Tokens::of(headers, id);
    let viewer = app.host.viewer(id, tokens.host.as_deref(), None).await?;
    match (viewer.is_host, tokens.host) {
        (true, Some(token)) => Ok(token),
        _ => Err(PageError(AppError::unauthenticated(
            "host-only",
            "This page is for the lobby's host. Open the private link you were given when you created the lobby.",
        ))),
    }
}

pub(super) async fn host_page(
    app: &AppState,
    id: Uuid,
    headers: &HeaderMap,
    csrf: String,
    created: bool,
    error: Option<String>,
) -> Result<HostPage, PageError> {
    let token = host_token(app, id, headers).await?;
    let after = app.host.last_event_seq(id).await?;
    let lobby = app.host.lobby(id).await?;
    let base = base_url(headers);
    let labels = SeatLabels::of(&app.host.substitutes(id).await?);
    let misses = app.host.misses(id).await?;
    // Only a seat the open step waits for can be reminded.
    let marks = match lobby.status {
        Status::Running => app.host.reminder_marks(id).await?,
        Status::Signups | Status::Closed | Status::Finished => Default::default(),
    };
    let bound = app.host.seat_profiles_shown(id).await?;
    // Only a lobby with bound seats has a record to excuse or players who may be away.
    let (excusable, aways) = match bound.is_empty() {
        true => (Vec::new(), Vec::new()),
        false => (
            app.host.excusable(id).await?,
            app.host.lobby_aways(id).await?,
        ),
    };
    Ok(HostPage {
        title: format!("Host: {}", lobby.name),
        boards: super::leaderboard::lobby_boards(
            lobby.game,
            &lobby.settings,
            lobby.result.as_ref(),
        ),
        // Never reloaded by itself: it always has a form to fill in, and it answers forms.
        // A finished game has no news to wait for.
        live: (lobby.status != Status::Finished).then_some(Live {
            lobby: id,
            after,
            refresh: false,
        }),
        csrf,
        lobby_id: id.to_string(),
        status_label: host_status_label(&lobby),
        share_link: format!("{base}/lobbies/{id}"),
        private_link: format!("{base}/lobbies/{id}/as/{token}"),
        can_close: lobby.status == Status::Signups,
        can_start: matches!(lobby.status, Status::Signups | Status::Closed),
        can_reopen: lobby.status == Status::Closed,
        before_start: matches!(lobby.status, Status::Signups | Status::Closed),
        running: lobby.status == Status::Running,
        finished: lobby.status == Status::Finished,
        result: lobby
            .result
            .as_ref()
            .and_then(FinalResult::read)
            .map(|r| r.relabeled(|id, name| labels.label_of(id, name)).headline()),
        announcement: announcement(&base, &lobby),
        duel: with_game!(lobby.game, G => G::DUEL),
        players: seats(&PublicPlayer::all(&lobby.players), &misses, &labels)
            .into_iter()
            .map(|mut seat| {
                seat.profile = super::seat_badge::SeatBadge::of(&bound, &seat.id);
                seat.excusable = super::host_seats::of_player(&excusable, &seat.id);
                seat.remind = Remind::of(&seat, &marks);
                seat
            })
            .collect(),
        waiting: waiting_line(&lobby, None),
        created,
        table: PoolsTable::of(lobby.game, &lobby.players, collecting(&lobby)).relabeled(&labels),
        show_orders: collecting(&lobby),
        error,
        paused: lobby.paused,
        deadline: DeadlineLine::of(&lobby),
        reminder_warning: reminder_warning(&lobby),
        notifications: super::webhooks_section::WebhooksSection::of(app, id, &token).await?,
        new_secret: None,
        aways: super::vacation_shown::away_lines(&aways),
    })
}

pub async fn show_host_panel(
    State(app): State<AppState>,
    PagePath(id): PagePath<String>,
    flags: Result<Query<Flags>, QueryRejection>,
    headers: HeaderMap,
    Csrf(csrf): Csrf,
) -> Result<HostPage, PageError> {
    let Query(flags) = flags.map_err(|e| AppError::malformed("invalid-query", e.body_text()))?;
    let id = lobby_id(&id)?;
    let mut page = host_page(&app, id, &headers, csrf, flags.created.is_some(), None).await?;
    page.notifications.tested = flags.tested;
    Ok(page)
}
