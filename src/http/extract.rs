//! Extractors that answer bad input in Herald's error format (never axum's plain-text
//! rejections): JSON object bodies, bearer tokens, lobby ids.

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::StatusCode;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use serde::Deserialize;
use serde::de::{DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use uuid::Uuid;

use crate::error::AppError;

/// The largest request body Herald reads, but for a fork's (see [`FORK_BODY_LIMIT`]).
pub const BODY_LIMIT: usize = 64 * 1024;

/// The largest body of `POST /api/v1/lobbies` that carries a whole archive to fork from. Only
/// the archive may take the room above [`BODY_LIMIT`] (see [`CreationBody`]).
pub const FORK_BODY_LIMIT: usize = 4 * 1024 * 1024;

/// The most a request may send before it is read: [`FORK_BODY_LIMIT`] for creating a lobby
/// through the API (whether it forks is known only once the body is read), [`BODY_LIMIT`] for
/// everything else.
pub fn body_limit(method: &axum::http::Method, path: &str) -> usize {
    match (method, path) {
        (&axum::http::Method::POST, "/api/v1/lobbies") => FORK_BODY_LIMIT,
        _ => BODY_LIMIT,
    }
}

/// A JSON object body. Not JSON → 400 `malformed-json`; JSON but not an object → 400
/// `invalid-body`; larger than `LIMIT` (the route's own [`axum::extract::DefaultBodyLimit`],
/// named here for the error) → 413.
pub struct JsonObject<const LIMIT: usize = BODY_LIMIT>(pub Map<String, Value>);

impl<S: Send + Sync, const LIMIT: usize> FromRequest<S> for JsonObject<LIMIT> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<JsonObject<LIMIT>, AppError> {
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            body_error(rejection, LIMIT, "The request body could not be read.")
        })?;
        match json_value(&bytes)? {
            Value::Object(map) => Ok(JsonObject(map)),
            _ => Err(not_an_object()),
        }
    }
}

/// `bytes` as one JSON value, read as [`Strict`] reads it.
fn json_value(bytes: &[u8]) -> Result<Value, AppError> {
    match serde_json::from_slice::<Strict>(bytes) {
        Ok(Strict(value)) => Ok(value),
        // `Strict` takes every kind of value, so the only data error is its own.
        Err(e) if e.is_data() => Err(AppError::malformed(
            "duplicate-key",
            format!("The request body is ambiguous: {e}."),
        )),
        Err(e) => Err(malformed_json(e)),
    }
}

fn malformed_json(error: serde_json::Error) -> AppError {
    AppError::malformed(
        "malformed-json",
        format!("The request body is not valid JSON: {error}."),
    )
}

fn not_an_object() -> AppError {
    AppError::malformed("invalid-body", "The request body must be a JSON object.")
}

/// The body of `POST /api/v1/lobbies`: a JSON object read as [`JsonObject`] reads one, but for
/// its `fork` member, which is kept as text for the host to read straight into an archive.
///
/// The body is first only scanned (every member's text found, nothing built from it), so that
/// its size can be judged before any tree is: a body without a fork is held to [`BODY_LIMIT`]
/// like every other, and so is each member of one with a fork but the fork itself. Reading a
/// few megabytes of settings into a tree, copying it and reading it again took a hundred times
/// the body's size before the rules could count a single entry.
pub struct CreationBody {
    /// Every member but `fork`.
    pub fields: Map<String, Value>,
    /// The `fork` member's text, if there is one.
    pub fork: Option<Box<RawValue>>,
}

impl<S: Send + Sync> FromRequest<S> for CreationBody {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<CreationBody, AppError> {
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            body_error(
                rejection,
                FORK_BODY_LIMIT,
                "The request body could not be read.",
            )
        })?;
        let members = members(&bytes)?;
        let forks = members.iter().any(|(key, _)| key == "fork");
        if !forks && bytes.len() > BODY_LIMIT {
            return Err(AppError::TooLarge { limit: BODY_LIMIT });
        }
        let mut body = CreationBody {
            fields: Map::new(),
            fork: None,
        };
        for (key, raw) in members {
            if key == "fork" {
                body.fork = Some(raw.to_owned());
            } else if raw.get().len() > BODY_LIMIT {
                return Err(AppError::TooLarge { limit: BODY_LIMIT });
            } else {
                body.fields.insert(key, json_value(raw.get().as_bytes())?);
            }
        }
        Ok(body)
    }
}

/// The members of the JSON object `bytes`, each value as its text: the whole is checked to be
/// JSON, but nothing is built from it beyond the keys.
pub fn members(bytes: &[u8]) -> Result<Vec<(String, &RawValue)>, AppError> {
    let members = match serde_json::from_slice::<Members>(bytes) {
        Ok(Members(members)) => members,
        Err(e) if e.is_data() => return Err(not_an_object()),
        Err(e) => return Err(malformed_json(e)),
    };
    // Refused as [`Strict`] refuses one deeper down.
    let mut seen = std::collections::BTreeSet::new();
    if let Some((key, _)) = members.iter().find(|(key, _)| !seen.insert(key.as_str())) {
        return Err(AppError::malformed(
            "duplicate-key",
            format!("The request body is ambiguous: {key:?} appears twice in one object."),
        ));
    }
    Ok(members)
}

/// See [`members`].
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Members<'de>, D::Error> {
        struct Scan;
        impl<'de> Visitor<'de> for Scan {
            type Value = Members<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'de>, A::Error> {
                let mut members = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    members.push((key, map.next_value::<&'de RawValue>()?));
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(Scan)
    }
}

/// One member's text read as a value, as [`JsonObject`] reads a body.
pub fn member_value(raw: &RawValue) -> Result<Value, AppError> {
    json_value(raw.get().as_bytes())
}

/// A JSON object body that may be left out: an empty body reads as `{}` (a control whose
/// body is usually empty, e.g. ending a Crossing Swords game). Otherwise as [`JsonObject`].
pub struct OptionalJsonObject(pub Map<String, Value>);

impl<S: Send + Sync> FromRequest<S> for OptionalJsonObject {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<OptionalJsonObject, AppError> {
        let empty = req
            .headers()
            .get(axum::http::header::CONTENT_LENGTH)
            .is_some_and(|length| length == "0")
            || axum::body::HttpBody::size_hint(req.body()).exact() == Some(0);
        if empty {
            return Ok(OptionalJsonObject(Map::new()));
        }
        let JsonObject::<BODY_LIMIT>(map) = JsonObject::from_request(req, state).await?;
        Ok(OptionalJsonObject(map))
    }
}

/// A JSON value as the API reads every body.
///
/// A key given twice in one object is refused: JSON leaves its meaning open and serde keeps
/// the last one silently, so a client's tooling (or a proxy that inspects bodies) and Herald
/// could each read a different request from the same bytes.
///
/// Every number with no fractional part (`2.0`, `1e3`) is the integer it is. JSON has one
/// number type, and the document's `"type": "integer"` (JSON Schema) accepts `2.0`, so the
/// server must too; serde would refuse a float where it reads an integer. Both are done while
/// the text is read, so no second tree is built.
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Strict, D::Error> {
        deserializer.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Strict;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Strict, E> {
        Ok(Strict(Value::Null))
    }

    fn visit_bool<E>(self, b: bool) -> Result<Strict, E> {
        Ok(Strict(Value::Bool(b)))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Strict, E> {
        Ok(Strict(Value::from(n)))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Strict, E> {
        Ok(Strict(Value::from(n)))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Strict, E> {
        if f.fract() == 0.0 && f.abs() < 9.0e15 {
            // Exact below 2^53, so the cast loses nothing.
            return Ok(Strict(Value::from(f as i64)));
        }
        // JSON text holds no NaN or infinity, so every float it holds is a number.
        Ok(Strict(
            serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
        ))
    }

    fn visit_str<E>(self, s: &str) -> Result<Strict, E> {
        Ok(Strict(Value::String(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Strict, E> {
        Ok(Strict(Value::String(s)))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Strict(Value::Array(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format_args!(
                    "{key:?} appears twice in one object"
                )));
            }
            let Strict(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Strict(Value::Object(object)))
    }
}

/// What a body that could not be read becomes: 413 over the limit, 408 when it did not arrive
/// in time (the server's body timeout), 400 otherwise.
pub fn body_error(rejection: BytesRejection, limit: usize, unreadable: &str) -> AppError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return AppError::TooLarge { limit };
    }
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(&rejection);
    while let Some(error) = cause {
        if error.is::<tower_http::timeout::TimeoutError>() {
            return AppError::BodyTimeout;
        }
        cause = error.source();
    }
    AppError::malformed("unreadable-body", unreadable.to_owned())
}

/// Path parameters. A path that does not decode (percent-escapes that are not UTF-8) names
/// nothing: 404 in Herald's error format, never axum's plain-text 400.
pub struct ApiPath<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for ApiPath<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<ApiPath<T>, AppError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(ApiPath(value)),
            Err(rejection) => Err(path_error(rejection)),
        }
    }
}

fn path_error(rejection: PathRejection) -> AppError {
    match rejection {
        PathRejection::FailedToDeserializePathParams(error) => AppError::not_found(
            "not-found",
            format!(
                "There is nothing at this address: {}.",
                error.body_text().trim_end_matches('.')
            ),
        ),
        PathRejection::MissingPathParams(error) => {
            AppError::Internal(format!("a route without its parameters: {error}"))
        }
        other => AppError::Internal(format!("path: {other}")),
    }
}

/// The bearer token, if the request carries one.
pub struct Token(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for Token {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Token, AppError> {
        let Some(header) = parts.headers.get(AUTHORIZATION) else {
            return Ok(Token(None));
        };
        let token = header
            .to_str()
            .ok()
            .and_then(|h| h.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                AppError::unauthenticated(
                    "missing-token",
                    "The Authorization header must read \"Bearer <token>\".",
                )
            })?;
        Ok(Token(Some(token.to_string())))
    }
}

impl Token {
    pub fn as_deref(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

/// Parses a lobby id from the path: anything that is not a UUID names no lobby (404).
pub fn lobby_id(raw: &str) -> Result<Uuid, AppError> {
    Uuid::parse_str(raw)
        .map_err(|_| AppError::not_found("unknown-lobby", format!("There is no lobby {raw:?}.")))
}

/// Parses a round number from the path: anything that is not one names no round (404).
pub fn round_number(raw: &str) -> Result<u32, AppError> {
    raw.parse().map_err(|_| {
        AppError::not_found("round-not-resolved", format!("There is no round {raw:?}."))
    })
}
