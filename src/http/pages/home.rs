//! The home page: open lobbies, games in progress, finished games, and the form that creates a
//! lobby (its creator becomes the host and lands on the host panel).

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use super::create_form::{self, Input};
use super::deadline::span_in_words;
use super::lobby_detail::detail;
use super::my_games::{MyLine, my_lines, remember};
use super::session::{CheckedForm, Csrf, Role, Transport, identity_cookie};
use super::{Live, PageError, again, see_other};
use crate::error::AppError;
use crate::host::GameKind;
use crate::host::my_games::MyRole;
use crate::host::views::LobbySummary;
use crate::http::AppState;
use crate::http::rate::{Admitted, CreatesLobby};
use crate::store::Status;

pub struct GameOption {
    pub id: &'static str,
    pub title: &'static str,
    pub selected: bool,
}

impl GameOption {
    /// Every hosted game as a choice, `selected` (a game's id) chosen.
    pub fn all(selected: &str) -> Vec<GameOption> {
        GameKind::ALL
            .iter()
            .map(|g| GameOption {
                id: g.id(),
                title: g.title(),
                selected: g.id() == selected,
            })
            .collect()
    }
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
    /// The main step's deadline, as hours and minutes (both empty: no deadline).
    pub deadline_hours: String,
    pub deadline_minutes: String,
    /// Every other step's deadline (both empty: the main step's).
    pub decision_hours: String,
    pub decision_minutes: String,
    /// How long before the deadline players are reminded (both empty: the server's default,
    /// a day and an hour before).
    pub reminder_hours: String,
    pub reminder_minutes: String,
    /// Missed steps in a row before a kick (empty: never).
    pub miss_limit: String,
    /// Keep the lobby off the public lists.
    pub unlisted: bool,
    /// The press mode (`none`, `public`, `full`; docs/table-talk.md).
    pub press: String,
    /// Keep private messages private after the game (`press_reveal` false).
    pub press_private: bool,
    /// Name the players by pseudonyms until the end (`anonymous`; docs/table-talk.md).
    pub anonymous: bool,
    /// Who may join (`gates_form.rs`).
    pub gates: super::gates_form::GatesForm,
    /// Each game's settings as sent, by field name (`crossing-swords.max_rounds`).
    pub game_fields: std::collections::BTreeMap<String, String>,
}

/// A deadline given as hours and minutes: None when both are empty, else whole seconds.
fn deadline(hours: &str, minutes: &str, what: &str) -> Result<Option<u64>, String> {
    let words =
        format!("{what} in hours and minutes must be given as whole numbers (or both left empty).");
    let hours = number(hours).map_err(|_| words.clone())?;
    let minutes = number(minutes).map_err(|_| words)?;
    if hours.is_none() && minutes.is_none() {
        return Ok(None);
    }
    let total = hours
        .unwrap_or(0)
        .saturating_mul(60)
        .saturating_add(minutes.unwrap_or(0));
    if !(1..=MOST_MINUTES).contains(&total) {
        return Err(format!(
            "{what} must be from 1 minute to 30 days (720 hours)."
        ));
    }
    Ok(Some(total * 60))
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
    /// The create form's fields as posted (the lobby form's, and the tournament form's lobby
    /// settings, which share their names).
    pub(super) fn read(form: &CheckedForm) -> CreateForm {
        CreateForm {
            name: form.get("name").to_owned(),
            deadline_hours: form.get("deadline_hours").trim().to_owned(),
            deadline_minutes: form.get("deadline_minutes").trim().to_owned(),
            decision_hours: form.get("decision_hours").trim().to_owned(),
            decision_minutes: form.get("decision_minutes").trim().to_owned(),
            reminder_hours: form.get("reminder_hours").trim().to_owned(),
            reminder_minutes: form.get("reminder_minutes").trim().to_owned(),
            miss_limit: form.get("miss_limit").trim().to_owned(),
            unlisted: form.get("unlisted") == "true",
            press: form.get("press").to_owned(),
            press_private: form.get("press_private") == "true",
            anonymous: form.get("anonymous") == "true",
            gates: super::gates_form::GatesForm::read(|name| form.get(name)),
            game_fields: form
                .fields
                .iter()
                .filter(|(k, _)| k.contains('.'))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        }
    }

    /// The settings the form asks for (the chosen game's, the deadlines, `miss_limit`,
    /// `unlisted`), or what is wrong in words.
    pub(super) fn settings(&self, game: Option<GameKind>) -> Result<Map<String, Value>, String> {
        let mut settings = match game {
            Some(game) => create_form::game_settings(game, |name| {
                self.game_fields.get(name).cloned().unwrap_or_default()
            })?,
            None => Map::new(),
        };
        if let Some(seconds) =
            deadline(&self.deadline_hours, &self.deadline_minutes, "The deadline")?
        {
            settings.insert("deadline_seconds".into(), json!(seconds));
        }
        if let Some(seconds) = deadline(
            &self.decision_hours,
            &self.decision_minutes,
            "The deadline for other decisions",
        )? {
            settings.insert("decision_deadline_seconds".into(), json!(seconds));
        }
        if let Some(seconds) =
            deadline(&self.reminder_hours, &self.reminder_minutes, "The reminder")?
        {
            let longest = ["deadline_seconds", "decision_deadline_seconds"]
                .iter()
                .filter_map(|k| settings.get(*k).and_then(Value::as_u64))
                .max();
            match longest {
                None => return Err("A reminder needs a deadline to come before: give the deadline too, or leave the reminder empty.".into()),
                // A reminder as long as the whole time given never fires (docs/deadlines.md).
                Some(longest) if seconds >= longest => {
                    return Err(format!(
                        "The reminder ({} before) can never fire: the deadline is {}. Make it shorter, or leave it empty.",
                        span_in_words(seconds),
                        span_in_words(longest)
                    ));
                }
                Some(_) => {
                    settings.insert("reminder_seconds".into(), json!([seconds]));
                }
            }
        }
        if self.unlisted {
            settings.insert("unlisted".into(), json!(true));
        }
        match self.press.as_str() {
            "" | "none" => {}
            mode @ ("public" | "full") => {
                settings.insert("press".into(), json!(mode));
            }
            _ => return Err("Choose a table-talk mode from the list.".into()),
        }
        if self.press_private {
            settings.insert("press_reveal".into(), json!(false));
        }
        if self.anonymous {
            settings.insert("anonymous".into(), json!(true));
        }
        self.gates.insert_into(&mut settings)?;
        let limit = number(&self.miss_limit).ok().flatten();
        match (self.miss_limit.is_empty(), limit) {
            (true, _) => {}
            (false, Some(n)) if (1..=1000).contains(&n) => {
                settings.insert("miss_limit".into(), json!(n));
            }
            (false, _) => {
                return Err(
                    "Missed turns before a kick must be a whole number from 1 to 1000 (or left empty: never)."
                        .into(),
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
    /// Each game's own settings (the chosen game's are sent).
    pub game_sets: Vec<GameSet>,
    pub error: Option<String>,
    /// This browser's own games across lobbies (`my_games.rs`).
    pub mine: Vec<MyLine>,
    /// Just arrived through a carry link.
    pub carried: bool,
    /// Every pool's leaderboard (`leaderboard.rs`).
    pub boards: Vec<super::leaderboard::GameBoards>,
}

fn line(summary: &LobbySummary) -> LobbyLine {
    let detail = detail(summary);
    LobbyLine {
        id: summary.id.to_string(),
        name: summary.name.clone(),
        game: summary.game.title(),
        detail,
    }
}

async fn home_page(
    app: &AppState,
    headers: &HeaderMap,
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
    let mine = my_lines(app, headers).await?;
    let mine = super::my_seats::with_my_seats(app, headers, mine).await?;
    // The tab says how many games wait for this browser, as a mail client's count of unread.
    let title = match mine.iter().filter(|g| g.turn.is_some()).count() {
        0 => "Games".to_owned(),
        1 => "(1) Your turn in 1 game".to_owned(),
        n => format!("({n}) Your turn in {n} games"),
    };
    Ok(HomePage {
        title,
        live: None,
        csrf,
        games: GameOption::all(game),
        open: pick(&[Status::Signups, Status::Closed]),
        running: pick(&[Status::Running]),
        finished: pick(&[Status::Finished]),
        game_sets: GameKind::ALL
            .iter()
            .map(|g| game_set(*g, &form.game_fields))
            .collect(),
        form,
        error,
        mine,
        carried: false,
        boards: super::leaderboard::every_board(app.host.ladder_settings().is_ok()),
    })
}

/// One setting as the template shows it.
pub struct FormSetting {
    pub name: String,
    pub id: String,
    pub label: &'static str,
    /// `choice`, `flag`, `whole`, `words` or `json`.
    pub kind: &'static str,
    /// (value, words, selected) for a choice.
    pub options: Vec<(&'static str, &'static str, bool)>,
    pub value: String,
}

/// A game's settings on the create form, ordinary ones first, the advanced ones folded.
pub struct GameSet {
    pub id: &'static str,
    pub title: &'static str,
    pub plain: Vec<FormSetting>,
    pub advanced: Vec<FormSetting>,
}

pub(super) fn game_set(
    game: GameKind,
    sent: &std::collections::BTreeMap<String, String>,
) -> GameSet {
    let mut set = GameSet {
        id: game.id(),
        title: game.title(),
        plain: Vec::new(),
        advanced: Vec::new(),
    };
    for setting in create_form::settings_of(game) {
        let name = create_form::field_name(game, setting.key);
        let value = sent.get(&name).cloned().unwrap_or_default();
        let (kind, options) = match &setting.input {
            Input::Choice(options) => (
                "choice",
                options
                    .iter()
                    .map(|(v, words)| (*v, *words, *v == value))
                    .collect(),
            ),
            Input::Flag => ("flag", Vec::new()),
            Input::Whole { .. } => ("whole", Vec::new()),
            Input::Words => ("words", Vec::new()),
            Input::Json => ("json", Vec::new()),
        };
        let shown = FormSetting {
            id: name.replace('.', "-"),
            name,
            label: setting.label,
            kind,
            options,
            value,
        };
        match setting.advanced {
            true => set.advanced.push(shown),
            false => set.plain.push(shown),
        }
    }
    set
}

pub async fn show_home(
    State(app): State<AppState>,
    Csrf(csrf): Csrf,
    headers: HeaderMap,
    Query(query): Query<HomeQuery>,
) -> Result<HomePage, PageError> {
    let page = home_page(&app, &headers, csrf, "", CreateForm::default(), None).await?;
    Ok(HomePage {
        carried: query.carried.is_some(),
        ..page
    })
}

/// `?carried=1`: this device has just taken up a carry link.
#[derive(serde::Deserialize)]
pub struct HomeQuery {
    carried: Option<String>,
}

pub async fn create_lobby(
    State(app): State<AppState>,
    admitted: Result<Admitted<CreatesLobby>, AppError>,
    Csrf(csrf): Csrf,
    transport: Transport,
    headers: HeaderMap,
    form: CheckedForm,
) -> Result<Response, PageError> {
    admitted?;
    let game = form.get("game").to_owned();
    let sent = CreateForm::read(&form);
    let kind = game.parse::<GameKind>().ok();
    let settings = match sent.settings(kind) {
        Ok(settings) => settings,
        Err(message) => {
            let page = home_page(&app, &headers, csrf, &game, sent, Some(message)).await?;
            return Ok((axum::http::StatusCode::UNPROCESSABLE_ENTITY, page).into_response());
        }
    };
    match app
        .host
        .create_lobby(&game, &sent.name, Value::Object(settings))
        .await
    {
        Ok(created) => {
            let mut cookies = vec![identity_cookie(
                created.id,
                Role::Host,
                &created.host_token,
                transport,
            )];
            cookies.extend(remember(&app, &headers, transport, created.id, MyRole::Host).await);
            Ok(see_other(
                &format!("/lobbies/{}/host?created=1", created.id),
                &cookies,
            ))
        }
        Err(error) => {
            let page = home_page(&app, &headers, csrf, &game, sent, None).await?;
            Ok(again(error, |message| HomePage {
                error: Some(match kind {
                    Some(kind) => create_form::in_form_words(kind, &message),
                    None => message,
                }),
                ..page
            }))
        }
    }
}
