//! Setting up a game in the process, for any registered game (`herald simulate`, `herald
//! arena`): its settings read and checked as the host checks a lobby's, each seat's join choice
//! (given, or drawn from the game's own join form), and each seat's result read from the
//! game's outcome. Generic over [`Game`] and [`GameUi`]: a new game needs nothing here.

use rand::RngExt;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::games::GameUi;
use crate::rules::{Entrant, Game, PlayerId, SettingsError};

/// How many draws from the join form a seat gets before a run gives up: a game whose form
/// offers combinations the rules refuse (none does today) may take a few.
const JOIN_TRIES: usize = 64;

/// The settings object `raw`, read and checked as a lobby's would be.
pub fn settings<G: Game>(raw: Value) -> Result<G::Settings, String> {
    let settings = G::parse_settings(raw).map_err(|e| match e {
        SettingsError::Malformed(why) => format!("the settings are malformed: {why}"),
        SettingsError::Refused(refusal) => format!("the rules refuse the settings: {refusal}"),
    })?;
    G::check_settings(&settings).map_err(|r| format!("the rules refuse the settings: {r}"))?;
    Ok(settings)
}

/// How many players a run seats: `asked`, or the fewest the game starts with.
pub fn players<G: Game>(settings: &G::Settings, asked: Option<usize>) -> Result<usize, String> {
    let (least, most) = (G::min_players(settings), G::capacity(settings));
    let players = asked.unwrap_or(least);
    match (least..=most).contains(&players) {
        true => Ok(players),
        false => Err(format!(
            "{} seats {least} to {most} players with these settings, not {players}",
            G::ID
        )),
    }
}

/// A seat's join choice, checked by the rules, with its label for the reports (the chosen
/// values, as the join form names them).
#[derive(Clone, Debug)]
pub struct Joined<J> {
    pub join: J,
    pub label: String,
}

/// The join choice `body` (a join request's game fields), checked by the rules.
pub fn join<G: Game>(settings: &G::Settings, body: &Value) -> Result<Joined<G::Join>, String> {
    let typed: G::JoinBody = serde_json::from_value(body.clone())
        .map_err(|e| format!("the join choice {body} is malformed: {e}"))?;
    let join = G::check_join(settings, typed)
        .map_err(|r| format!("the rules refuse the join choice {body}: {r}"))?;
    Ok(Joined {
        join,
        label: label(body),
    })
}

/// A join choice drawn uniformly from each field of the game's join form (as a person would
/// pick from its lists), redrawn while the rules refuse the combination.
pub fn random_join<G: GameUi>(
    settings: &G::Settings,
    rng: &mut impl rand::Rng,
) -> Result<Joined<G::Join>, String> {
    let fields = G::join_fields();
    let mut last = String::new();
    for _ in 0..JOIN_TRIES {
        let mut body = Map::new();
        for field in fields.iter().filter(|f| !f.multiple) {
            let choices: Vec<&str> = field
                .groups
                .iter()
                .flat_map(|g| &g.choices)
                .map(|c| c.value.as_str())
                .collect();
            if !choices.is_empty() {
                let value = choices[rng.random_range(0..choices.len())];
                // As the join form posts it: a JSON-valued field (`Field::json`) parsed.
                body.insert(field.name.clone(), field.read(value)?);
            }
        }
        match join::<G>(settings, &Value::Object(body)) {
            Ok(joined) => return Ok(joined),
            Err(why) => last = why,
        }
    }
    Err(format!(
        "no join choice drawn from the join form was accepted: {last}"
    ))
}

/// A join body in a few words: its values, in the order of its fields ("-" when it has none).
fn label(body: &Value) -> String {
    let words: Vec<String> = match body {
        Value::Object(fields) => fields
            .values()
            .map(|v| match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect(),
        Value::Null => Vec::new(),
        other => vec![other.to_string()],
    };
    match words.is_empty() {
        true => "-".into(),
        false => words.join(" / "),
    }
}

/// The players of a game in the process: seat `n` is player `n + 1` (a fixed id, so that a
/// game replays from its seed alone) named `names[n]`.
pub fn entrants<J: Clone>(names: &[String], joins: &[J]) -> Vec<Entrant<J>> {
    names
        .iter()
        .zip(joins)
        .enumerate()
        .map(|(seat, (name, join))| Entrant {
            id: PlayerId(uuid::Uuid::from_u128(seat as u128 + 1)),
            name: name.clone(),
            join: join.clone(),
        })
        .collect()
}

/// How a game ended for one seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SeatResult {
    /// The only winner.
    Won,
    /// Nobody won, or the seat shares the win with others.
    Drew,
    Lost,
}

/// Every result names its winners (the API's `result.winners`), whatever else it holds.
#[derive(Deserialize)]
struct Winners {
    winners: Vec<PlayerId>,
}

/// Each seat's result, in seat order, from the finished game's outcome; None while the game
/// is not over.
pub fn results<G: Game>(state: &G::State, ids: &[PlayerId]) -> Option<Vec<SeatResult>> {
    let outcome = serde_json::to_value(G::outcome(state)?).ok()?;
    let Winners { winners } = Winners::deserialize(&outcome).ok()?;
    Some(
        ids.iter()
            .map(|id| match (winners.contains(id), winners.len()) {
                (true, 1) => SeatResult::Won,
                (true, _) | (false, 0) => SeatResult::Drew,
                (false, _) => SeatResult::Lost,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_join_is_labelled_by_its_values() {
        assert_eq!(label(&json!({"character": "sellsword"})), "sellsword");
        assert_eq!(label(&json!({"a": "6 8", "b": 3})), "6 8 / 3");
        assert_eq!(label(&json!({})), "-");
    }
}
