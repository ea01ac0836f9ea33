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
    };
    let mut settings = Map::new();
    if !sent.max_players.is_empty() {
        match sent.max_players.parse::<u64>() {
            Ok(n) => {
                settings.insert("max_players".into(), json!(n));
            }
            Err(_) => {
                let message = "The most players must be a whole number (or left empty).";
                let page = home_page(&app, csrf, &game, sent, Some(message.into())).await?;
                return Ok((axum::http::StatusCode::UNPROCESSABLE_ENTITY, page).into_response());
            }
        }
    }
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
