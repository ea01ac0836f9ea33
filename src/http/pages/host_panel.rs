//! The host panel: the links to share, closing sign-ups, starting the game, the clock (extend,
//! pause, resume, resolve now), and the controls over people and the game's end (their
//! handlers: `host_controls.rs`). Only the browser holding the lobby's host cookie sees it.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use uuid::Uuid;

use super::deadline::DeadlineLine;
use super::lobby::status_label;
use super::round::collecting;
use super::session::{CheckedForm, Csrf, Tokens};
use super::table::{PoolsTable, PublicPlayer};
use super::{Live, PageError, PagePath, again, base_url, lobby_id, see_other};
use crate::error::AppError;
use crate::games::{GameUi, with_game};
use crate::http::AppState;
use crate::store::Status;

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
    /// A duel ends with the host's draw or winner (BST); a melee by its standings.
    pub duel: bool,
    pub players: Vec<SeatControl>,
    pub created: bool,
    pub table: PoolsTable,
    pub show_orders: bool,
    pub error: Option<String>,
    pub paused: bool,
    pub deadline: Option<DeadlineLine>,
    /// The notifications section (`webhooks_section.rs`).
    pub notifications: super::webhooks_section::WebhooksSection,
    /// A webhook's signing secret, shown once on the page that added it.
    pub new_secret: Option<String>,
}

/// One seat, as its controls name it.
pub struct SeatControl {
    pub id: String,
    pub name: String,
    pub alive: bool,
    /// The profile holding the seat, if any.
    pub profile: Option<super::seat_badge::SeatBadge>,
}

#[derive(Deserialize)]
pub struct Flags {
    created: Option<String>,
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
    let bound = app.host.seat_profiles_shown(id).await?;
    Ok(HostPage {
        title: format!("Host: {}", lobby.name),
        // Never reloaded by itself: it always has a form to fill in, and it answers forms.
        live: Some(Live {
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
        duel: with_game!(lobby.game, G => G::DUEL),
        players: PublicPlayer::all(&lobby.players)
            .into_iter()
            .map(|p| SeatControl {
                profile: super::seat_badge::SeatBadge::of(&bound, &p.id),
                id: p.id,
                name: p.name,
                alive: p.alive,
            })
            .collect(),
        created,
        table: PoolsTable::of(lobby.game, &lobby.players, collecting(&lobby)),
        show_orders: collecting(&lobby),
        error,
        paused: lobby.paused,
        deadline: DeadlineLine::of(&lobby),
        notifications: super::webhooks_section::WebhooksSection::of(app, id, &token).await?,
        new_secret: None,
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
    host_page(&app, id, &headers, csrf, flags.created.is_some(), None).await
}

/// What the host asked for on the panel.
enum Action {
    CloseSignups,
    Start,
    Extend,
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
host_action!(pause, Action::Pause);
host_action!(resume, Action::Resume);
host_action!(resolve_now, Action::ResolveNow);
