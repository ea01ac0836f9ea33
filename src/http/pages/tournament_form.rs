//! The form that creates a tournament, `/tournaments/new` (docs/tournaments.md, "The pages"):
//! the game, the name, the format and its numbers, the forbidden pairs, and the settings of
//! every lobby it will create, read by the same code as the lobby form's. It calls the host as
//! `POST /api/v1/tournaments` does; its creator becomes the director and lands on the panel.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::create_form;
use super::home::{CreateForm, GameOption, GameSet, game_set};
use super::session::{CheckedForm, Csrf, Transport};
use super::tournament_director::director_cookie;
use super::{Live, PageError, again, see_other};
use crate::error::AppError;
use crate::host::GameKind;
use crate::host::tournaments::NewTournament;
use crate::http::AppState;
use crate::http::rate::{Admitted, CreatesLobby};
use crate::tournament::Format;

/// The formats offered: (the API's spelling, the words on the form; the melee's are followed
/// by the games it fits, [`format_words`]).
const FORMATS: [(Format, &str, &str); 4] = [
    (Format::Swiss, "swiss", "Swiss: duels paired by score"),
    (
        Format::RoundRobin,
        "round-robin",
        "Round robin: every pair meets once",
    ),
    (Format::Knockout, "knockout", "Knockout: losers are out"),
    (Format::Melee, "melee", "Melee: boards of many players"),
];

/// A format's words on the form. A melee seats boards of more than two, so it fits the
/// registered games that are not duels ([`crate::games::GameUi::DUEL`]), which it names.
fn format_words(format: Format, words: &str) -> String {
    match format {
        Format::Melee => {
            let melees: Vec<&str> = GameKind::ALL
                .into_iter()
                .filter(|game| !game.is_duel())
                .map(GameKind::title)
                .collect();
            format!("{words} ({})", crate::games::telling::listed(&melees))
        }
        Format::Swiss | Format::RoundRobin | Format::Knockout => words.to_owned(),
    }
}

/// What the form holds (sent back when it is refused).
#[derive(Default)]
pub struct TournamentForm {
    pub game: String,
    pub format: String,
    pub rounds: String,
    pub board_size: String,
    /// One pair a line, two handles separated by a comma.
    pub forbidden_pairs: String,
    pub auto_rounds: bool,
    /// The name and the lobby settings, as the lobby form names them.
    pub lobby: CreateForm,
}

/// An optional whole number of the form, or what is wrong with it in words.
fn whole(text: &str, label: &str) -> Result<Option<i64>, String> {
    match text.trim() {
        "" => Ok(None),
        text => text
            .parse::<i64>()
            .map(Some)
            .map_err(|_| format!("“{label}” must be a whole number.")),
    }
}

impl TournamentForm {
    fn read(form: &CheckedForm) -> TournamentForm {
        TournamentForm {
            game: form.get("game").to_owned(),
            format: form.get("format").to_owned(),
            rounds: form.get("rounds").trim().to_owned(),
            board_size: form.get("board_size").trim().to_owned(),
            forbidden_pairs: form.get("forbidden_pairs").to_owned(),
            auto_rounds: form.get("auto_rounds") == "true",
            lobby: CreateForm::read(form),
        }
    }

    /// The API's request for this form, or what is wrong in words. A number the format does
    /// not use is left out, so that a field left filled in after a change of format is no
    /// mistake.
    fn request(&self, kind: Option<GameKind>) -> Result<NewTournament, String> {
        let Some((format, _, _)) = FORMATS.iter().find(|(_, v, _)| *v == self.format) else {
            return Err("Choose a format from the list.".into());
        };
        let rounds = match format {
            Format::Swiss | Format::Melee => whole(&self.rounds, "Rounds")?,
            Format::RoundRobin | Format::Knockout => None,
        };
        let board_size = match format {
            Format::Melee => whole(&self.board_size, "Board size")?,
            _ => None,
        };
        let mut pairs = Vec::new();
        for (n, line) in self.forbidden_pairs.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match line.split(',').map(str::trim).collect::<Vec<_>>()[..] {
                [a, b] if !a.is_empty() && !b.is_empty() => pairs.push([a.into(), b.into()]),
                _ => {
                    return Err(format!(
                        "Forbidden pairs, line {}: write two handles separated by a comma, like “Ann, Bob”.",
                        n + 1
                    ));
                }
            }
        }
        Ok(NewTournament {
            game: self.game.clone(),
            name: self.lobby.name.clone(),
            format: *format,
            rounds,
            board_size,
            settings: Some(self.lobby.settings(kind)?),
            forbidden_pairs: (!pairs.is_empty()).then_some(pairs),
            auto_rounds: Some(self.auto_rounds),
        })
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "tournament_new.html")]
pub struct TournamentFormPage {
    pub title: String,
    pub live: Option<Live>,
    pub csrf: String,
    pub games: Vec<GameOption>,
    /// (value, words, selected).
    pub formats: Vec<(&'static str, String, bool)>,
    pub form: TournamentForm,
    pub game_sets: Vec<GameSet>,
    pub error: Option<String>,
}

fn form_page(csrf: String, form: TournamentForm, error: Option<String>) -> TournamentFormPage {
    TournamentFormPage {
        title: "A new tournament".into(),
        live: None,
        csrf,
        games: GameOption::all(&form.game),
        formats: FORMATS
            .iter()
            .map(|(format, value, words)| {
                (*value, format_words(*format, words), *value == form.format)
            })
            .collect(),
        game_sets: GameKind::ALL
            .iter()
            .map(|g| game_set(*g, &form.lobby.game_fields))
            .collect(),
        form,
        error,
    }
}

/// A refusal of the host in the form's words: its field names become the labels read.
fn in_form_words(kind: Option<GameKind>, message: &str) -> String {
    let message = message
        .replace("\"rounds\"", "“Rounds”")
        .replace("\"board_size\"", "“Board size”");
    match kind {
        Some(kind) => create_form::in_form_words(kind, &message),
        None => message,
    }
}

/// GET /tournaments/new.
pub async fn show_form(Csrf(csrf): Csrf) -> TournamentFormPage {
    form_page(csrf, TournamentForm::default(), None)
}

/// POST /tournaments: creates the tournament, sets the director's cookie, 303 to the panel;
/// or the form again, filled in as sent, with what is wrong.
pub async fn create_tournament(
    State(app): State<AppState>,
    admitted: Result<Admitted<CreatesLobby>, AppError>,
    Csrf(csrf): Csrf,
    transport: Transport,
    form: CheckedForm,
) -> Result<Response, PageError> {
    admitted?;
    let sent = TournamentForm::read(&form);
    let kind = sent.game.parse::<GameKind>().ok();
    let new = match sent.request(kind) {
        Ok(new) => new,
        Err(message) => {
            let page = form_page(csrf, sent, Some(message));
            return Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response());
        }
    };
    match app.host.create_tournament(new).await {
        Ok(created) => Ok(see_other(
            &format!("/tournaments/{}/director?created=1", created.id),
            &[director_cookie(
                created.id,
                &created.director_token,
                transport,
            )],
        )),
        Err(error) => Ok(again(error, |message| {
            form_page(csrf, sent, Some(in_form_words(kind, &message)))
        })),
    }
}
