//! Creating a tournament (docs/api.md, "Tournaments"): its format's numbers checked, its lobby
//! settings checked as a lobby's would be, and its director's token drawn (shown once).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use uuid::Uuid;

use super::super::auth::{hash_token, new_token};
use super::super::{GameKind, Host, clean_name, name_key, with_game};
use super::TournamentView;
use crate::error::AppError;
use crate::rules::Game;
use crate::store::TournamentRow;
use crate::tournament::Format;

/// The body of `POST /api/v1/tournaments`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTournament {
    pub game: String,
    pub name: String,
    pub format: Format,
    /// Swiss and melee: 1-20.
    #[serde(default)]
    pub rounds: Option<i64>,
    /// Melee: 2-16.
    #[serde(default)]
    pub board_size: Option<i64>,
    #[serde(default)]
    pub settings: Option<Map<String, Value>>,
    #[serde(default)]
    pub forbidden_pairs: Option<Vec<[String; 2]>>,
    /// The server starts each next round when the last game of a round finishes.
    #[serde(default)]
    pub auto_rounds: Option<bool>,
}

/// A tournament just created: its director's token is shown this once.
#[derive(Debug, Serialize)]
pub struct TournamentCreated {
    pub id: Uuid,
    pub director_token: String,
    pub tournament: TournamentView,
}

fn rejected(code: &'static str, message: impl Into<String>) -> AppError {
    AppError::rejected(code, message)
}

impl Host {
    pub async fn create_tournament(
        &self,
        new: NewTournament,
    ) -> Result<TournamentCreated, AppError> {
        let kind: GameKind = new.game.parse()?;
        let name = clean_name(&new.name, "tournament name")?;
        let rounds_asked = match (new.format, new.rounds) {
            (Format::Swiss | Format::Melee, Some(n)) if (1..=20).contains(&n) => n,
            (Format::Swiss | Format::Melee, _) => {
                return Err(rejected(
                    "invalid-rounds",
                    "A Swiss or a melee needs \"rounds\": 1 to 20.",
                ));
            }
            (Format::RoundRobin | Format::Knockout, None) => 0,
            (Format::RoundRobin | Format::Knockout, Some(_)) => {
                return Err(rejected(
                    "invalid-rounds",
                    "A round robin's or a knockout's rounds follow from its entrants: leave \"rounds\" out.",
                ));
            }
        };
        let settings = Value::Object(new.settings.unwrap_or_default());
        // Checked now as a lobby's would be, so that no round fails to create its games.
        let (checked, _, _) = super::super::lobby::split_settings(kind, settings.clone())?;
        let (min, capacity) = with_game!(kind, G => {
            let settings = super::super::engine::from_stored::<Value>(&checked)?;
            let (settings, _) = super::super::engine::check_settings::<G>(settings)?;
            (G::min_players(&settings), G::capacity(&settings))
        });
        let board_size = match (new.format, new.board_size) {
            (Format::Melee, Some(n)) if (2..=16).contains(&n) => {
                if usize::try_from(n).unwrap_or(usize::MAX) > capacity {
                    return Err(rejected(
                        "invalid-board-size",
                        format!("A game of {} seats at most {capacity}.", kind.id()),
                    ));
                }
                n
            }
            (Format::Melee, _) => {
                return Err(rejected(
                    "invalid-board-size",
                    "A melee needs \"board_size\": 2 to 16.",
                ));
            }
            (_, None) => 2,
            (_, Some(_)) => {
                return Err(rejected(
                    "invalid-board-size",
                    "Only a melee has boards: leave \"board_size\" out.",
                ));
            }
        };
        if new.format != Format::Melee && (min > 2 || capacity < 2) {
            return Err(rejected(
                "not-a-duel",
                format!(
                    "{} is not played by two: its tournaments are melees.",
                    kind.id()
                ),
            ));
        }
        if new.format == Format::Melee && min > 2 {
            return Err(rejected(
                "invalid-board-size",
                format!("{} needs {min} players at a board.", kind.id()),
            ));
        }
        let mut forbidden = Vec::new();
        for [a, b] in new.forbidden_pairs.unwrap_or_default() {
            let (a, b) = (
                clean_name(&a, "forbidden pair's handle")?,
                clean_name(&b, "forbidden pair's handle")?,
            );
            if name_key(&a) == name_key(&b) {
                return Err(rejected(
                    "invalid-forbidden-pair",
                    format!("A forbidden pair names two players, not {a} twice."),
                ));
            }
            forbidden.push([name_key(&a), name_key(&b)]);
        }
        let director_token = new_token();
        let row = TournamentRow {
            id: Uuid::new_v4(),
            game: kind.id().to_string(),
            name,
            format: super::super::engine::to_json(&new.format)?
                .as_str()
                .unwrap_or_default()
                .to_string(),
            rounds_asked,
            board_size,
            settings: super::super::engine::to_text(&settings)?,
            forbidden: super::super::engine::to_text(&forbidden)?,
            auto_rounds: new.auto_rounds.unwrap_or(false),
            director_hash: hash_token(&director_token),
            status: "entries".into(),
            round: 0,
            rounds_total: rounds_asked,
            created_at: self.store.clock().now_millis(),
            version: 0,
        };
        self.store.create_tournament(&row).await?;
        let tournament = self.tournament(row.id).await?;
        Ok(TournamentCreated {
            id: row.id,
            director_token,
            tournament,
        })
    }
}
