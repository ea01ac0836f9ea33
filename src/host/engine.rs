//! Typed glue between stored JSON and a [`Game`]: every function here is generic over the game,
//! pure, and called by the host through `with_game!`.

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::AppError;
use crate::rules::{Entrant, Game, PlayerId, Refusal, SettingsError};
use crate::store::{PlayerRow, Snapshot};

pub use crate::fairness::publish::{LogEntry, PublicPools, rng_for};

pub fn to_json<T: Serialize>(value: &T) -> Result<Value, AppError> {
    serde_json::to_value(value).map_err(|e| AppError::Internal(format!("serialize: {e}")))
}

pub fn to_text<T: Serialize>(value: &T) -> Result<String, AppError> {
    serde_json::to_string(value).map_err(|e| AppError::Internal(format!("serialize: {e}")))
}

/// `value` as canonical JSON (RFC 8785), the form a step's log is stored in so that its
/// digest hashes the stored text (`fairness::stored_step_digest`).
pub fn to_canonical_text<T: Serialize>(value: &T) -> Result<String, AppError> {
    crate::fairness::jcs::to_canonical(value)
        .map_err(|e| AppError::Internal(format!("serialize: {e}")))
}

/// Reads JSON that Herald itself stored (`T` may borrow from `text`); a failure is our fault,
/// not the client's.
pub fn from_stored<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, AppError> {
    serde_json::from_str(text).map_err(|e| AppError::Internal(format!("stored JSON: {e}")))
}

/// Reads a client's JSON value into `T`; a failure is a 400 naming the problem.
pub fn from_client<T: DeserializeOwned>(value: Value, what: &str) -> Result<T, AppError> {
    // The path names the field at fault (`setup.round: invalid value: integer
    // `4294967296`, expected u32`), which serde's own message leaves out.
    serde_path_to_error::deserialize(value).map_err(|e| {
        let at = e.path().to_string();
        let error = e.into_inner();
        let message = match at.as_str() {
            "." => format!("The {what} is not valid: {error}."),
            _ => format!("The {what} is not valid: {at}: {error}."),
        };
        AppError::malformed("invalid-body", message)
    })
}

/// A rules refusal as an HTTP error.
pub fn refused<R: Refusal>(refusal: R) -> AppError {
    let message = refusal.to_string();
    if refusal.is_conflict() {
        AppError::Conflict {
            code: refusal.code(),
            message,
        }
    } else {
        AppError::Rejected {
            code: refusal.code(),
            message,
        }
    }
}

/// Parses and validates settings at lobby creation; returns them normalized for storage.
pub fn check_settings<G: Game>(raw: Value) -> Result<(G::Settings, String), AppError> {
    let settings = G::parse_settings(raw).map_err(|e| match e {
        SettingsError::Malformed(e) => AppError::malformed(
            "invalid-body",
            format!("The settings object is not valid: {e}."),
        ),
        SettingsError::Refused(refusal) => refused(refusal),
    })?;
    G::check_settings(&settings).map_err(refused)?;
    let text = to_text(&settings)?;
    Ok((settings, text))
}

pub fn settings<G: Game>(snapshot: &Snapshot) -> Result<G::Settings, AppError> {
    from_stored(&snapshot.lobby.settings)
}

/// The lobby's game state (None before the start), parsed once per snapshot.
pub fn state<G: Game>(snapshot: &Snapshot) -> Result<Option<Arc<G::State>>, AppError>
where
    G::State: 'static,
{
    snapshot
        .lobby
        .state
        .as_deref()
        .map(|text| snapshot.parsed.get_or_parse(|| from_stored(text)))
        .transpose()
}

pub fn entrants<G: Game>(players: &[PlayerRow]) -> Result<Vec<Entrant<G::Join>>, AppError> {
    players
        .iter()
        .map(|p| {
            Ok(Entrant {
                id: PlayerId(p.id),
                name: p.name.clone(),
                join: from_stored(&p.join_data)?,
            })
        })
        .collect()
}

/// Checks a join request's game fields; returns the stored join choice.
pub fn check_join<G: Game>(
    settings: &G::Settings,
    fields: Map<String, Value>,
) -> Result<String, AppError> {
    let body: G::JoinBody = from_client(Value::Object(fields), "join request")?;
    let join = G::check_join(settings, body).map_err(refused)?;
    to_text(&join)
}

/// [`PublicPools`] of the lobby's players.
pub fn public_pools<'a, G: Game>(
    state: &G::State,
    players: &'a [PlayerRow],
) -> PublicPools<'a, G::Pools, G::Table> {
    crate::fairness::publish::public_pools_of::<G>(
        state,
        players.iter().map(|p| (p.id, p.name.as_str(), p.seat)),
    )
}

/// Copies the fields of `value` (if it is an object) into `into`.
pub fn merge(into: &mut Map<String, Value>, value: Value) {
    if let Value::Object(map) = value {
        into.extend(map);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::bst::events::BstEvent;

    #[test]
    fn a_log_entry_is_the_events_fields_its_text_and_whose_eyes_it_is_for() {
        let turn = BstEvent::TurnBegan { round: 3 };
        let entry: Value = serde_json::from_str(&to_text(&LogEntry::of(&turn)).unwrap()).unwrap();
        assert_eq!(entry["kind"], "turn-began");
        assert_eq!(entry["round"], 3);
        assert_eq!(entry["text"], turn.to_string());
        assert!(entry.get("private_to_seat").is_none(), "{entry}");

        let drew = BstEvent::Drew {
            player: crate::rules::bst::state::PlayerRef {
                id: PlayerId(uuid::Uuid::nil()),
                name: "Ann".into(),
            },
            seat: crate::rules::Seat(1),
            token: "R3".parse().unwrap(),
        };
        let entry: Value = serde_json::from_str(&to_text(&LogEntry::of(&drew)).unwrap()).unwrap();
        assert_eq!(
            (entry["kind"].as_str(), entry["private_to_seat"].as_u64()),
            (Some("drew"), Some(1))
        );
        assert_eq!(entry["token"], "R3");
    }
}
