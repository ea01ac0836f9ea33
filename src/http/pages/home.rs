//! The home page: open lobbies, games in progress, finished games, and the form that creates a
//! lobby (its creator becomes the host and lands on the host panel).

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use super::session::{CheckedForm, Csrf, Role, Transport, identity_cookie};
use super::{Live, PageError, again, see_other};
use crate::error::AppError;
use crate::host::GameKind;
use crate::host::views::LobbySummary;
use crate::http::AppState;
use crate::http::rate::{Admitted, CreatesLobby};
use crate::store::Status;

pub struct GameOption {
    pub id: &'static str,
    pub title: &'static str,
    pub selected: bool,
}

pub struct LobbyLine {
    pub id: String,
    pub name: String,
    pub game: &'static str,
    pub detail: String,
}

/// What the create form holds (sent back when it is refused).
#[derive(Default)]
pub struct CreateForm {
    pub name: String,
    pub max_players: String,
    /// The main step's deadline, as hours and minutes (both empty: no deadline).
    pub deadline_hours: String,
    pub deadline_minutes: String,
    /// Missed steps in a row before a kick (empty: never).
    pub miss_limit: String,
}

/// The longest deadline the form takes, in minutes (30 days, as the API).
const MOST_MINUTES: u64 = 30 * 24 * 60;

/// An optional whole number from the form: empty is None, anything else not a number is Err.
fn number(text: &str) -> Result<Option<u64>, ()> {
    match text.is_empty() {
        true => Ok(None),
        false => text.parse::<u64>().map(Some).map_err(|_| ()),
    }
}

impl CreateForm {
    /// The settings the form asks for (`max_players`, `deadline_seconds`, `miss_limit`), or
    /// what is wrong in words.
    fn settings(&self) -> Result<Map<String, Value>, &'static str> {
        let mut settings = Map::new();
        let max = number(&self.max_players)
            .map_err(|_| "The most players must be a whole number (or left empty).")?;
        if let Some(n) = max {
            settings.insert("max_players".into(), json!(n));
        }
        let words = "The deadline in hours and minutes must be given as whole numbers (or both left empty for no deadline).";
        let hours = number(&self.deadline_hours).map_err(|_| words)?;
        let minutes = number(&self.deadline_minutes).map_err(|_| words)?;
        if hours.is_some() || minutes.is_some() {
            let total = hours
                .unwrap_or(0)
                .saturating_mul(60)
                .saturating_add(minutes.unwrap_or(0));
            if !(1..=MOST_MINUTES).contains(&total) {
                return Err("The deadline must be from 1 minute to 30 days (720 hours).");
            }
            settings.insert("deadline_seconds".into(), json!(total * 60));
        }
        let limit = number(&self.miss_limit).ok().flatten();
        match (self.miss_limit.is_empty(), limit) {
            (true, _) => {}
            (false, Some(n)) if (1..=1000).contains(&n) => {
                settings.insert("miss_limit".into(), json!(n));
            }
            (false, _) => {
                return Err(
                    "Missed turns before a kick must be a whole number from 1 to 1000 (or left empty: never).",
                );
            }
        }
        Ok(settings)
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "home.html")]
pub struct HomePage {
    pub title: String,
    pub live: Option<Live>,
    pub csrf: String,
    pub games: Vec<GameOption>,
    pub open: Vec<LobbyLine>,
    pub running: Vec<LobbyLine>,
    pub finished: Vec<LobbyLine>,
    pub form: CreateForm,
    pub error: Option<String>,
}

fn line(summary: &LobbySummary) -> LobbyLine {
    let detail = match (summary.status, summary.round) {
        (Status::Signups, _) => "sign-ups open".to_string(),
        (Status::Closed, _) => "sign-ups closed, starting soon".to_string(),
        (Status::Running, Some(round)) => format!("round {round}"),
        (Status::Finished, Some(round)) => format!("finished after round {round}"),
        (Status::Running | Status::Finished, None) => summary.status.as_str().to_string(),
    };
    LobbyLine {
        id: summary.id.to_string(),
        name: summary.name.clone(),
        game: summary.game.title(),
        detail,
    }
}

async fn home_page(
    app: &AppState,
    csrf: String,
    game: &str,
    form: CreateForm,
    error: Option<String>,
) -> Result<HomePage, PageError> {
    let lobbies = app.host.list_lobbies(100).await?;
    let pick = |status: &[Status]| -> Vec<LobbyLine> {
        lobbies
            .iter()
            .filter(|l| status.contains(&l.status))
            .map(line)
            .collect()
    };
    Ok(HomePage {
        title: "Games".into(),
        live: None,
        csrf,
        games: GameKind::ALL
            .iter()
            .map(|g| GameOption {
                id: g.id(),
                title: g.title(),
                selected: g.id() == game,
            })
            .collect(),
        open: pick(&[Status::Signups, Status::Closed]),
        running: pick(&[Status::Running]),
        finished: pick(&[Status::Finished]),
        form,
        error,
    })
}

pub async fn show_home(
    State(app): State<AppState>,
    Csrf(csrf): Csrf,
) -> Result<HomePage, PageError> {
    home_page(&app, csrf, "", CreateForm::default(), None).await
}

pub async fn create_lobby(
    State(app): State<AppState>,
    admitted: Result<Admitted<CreatesLobby>, AppError>,
    Csrf(csrf): Csrf,
    transport: Transport,
    form: CheckedForm,
) -> Result<Response, PageError> {
    admitted?;
    let game = form.get("game").to_owned();
    let sent = CreateForm {
        name: form.get("name").to_owned(),
        max_players: form.get("max_players").trim().to_owned(),
        deadline_hours: form.get("deadline_hours").trim().to_owned(),
        deadline_minutes: form.get("deadline_minutes").trim().to_owned(),
        miss_limit: form.get("miss_limit").trim().to_owned(),
    };
    let settings = match sent.settings() {
        Ok(settings) => settings,
        Err(message) => {
            let page = home_page(&app, csrf, &game, sent, Some(message.into())).await?;
            return Ok((axum::http::StatusCode::UNPROCESSABLE_ENTITY, page).into_response());
        }
    };
    match app
        .host
        .create_lobby(&game, &sent.name, Value::Object(settings))
        .await
    {
        Ok(created) => {
            let cookie = identity_cookie(created.id, Role::Host, &created.host_token, transport);
            Ok(see_other(
                &format!("/lobbies/{}/host?created=1", created.id),
                &[cookie],
            ))
        }
        Err(error) => {
            let page = home_page(&app, csrf, &game, sent, None).await?;
            Ok(again(error, |message| HomePage {
                error: Some(message),
                ..page
            }))
        }
    }
}
