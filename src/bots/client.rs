//! A small client of Herald's JSON API, as a bot author would write one.

use std::time::Duration;

use axum::body::Bytes;
use futures_util::StreamExt;
use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};

/// An error talking to Herald: the HTTP status (0 for a transport error) and the message.
#[derive(Debug, thiserror::Error)]
#[error("{status}: {message}")]
pub struct ClientError {
    pub status: u16,
    pub code: String,
    pub message: String,
}

impl ClientError {
    /// A failure below HTTP: no status.
    pub fn transport(error: impl std::fmt::Display) -> ClientError {
        ClientError {
            status: 0,
            code: "transport".into(),
            message: error.to_string(),
        }
    }

    /// An error response: its status and the `{"error": {"code", "message"}}` body.
    pub fn from_response(status: u16, body: &[u8]) -> ClientError {
        let value = parsed(body);
        ClientError {
            status,
            code: value["error"]["code"].as_str().unwrap_or("").to_string(),
            message: value["error"]["message"]
                .as_str()
                .unwrap_or("no message")
                .to_string(),
        }
    }
}

impl From<reqwest::Error> for ClientError {
    fn from(error: reqwest::Error) -> ClientError {
        ClientError::transport(error)
    }
}

/// Herald's API at one base URL.
#[derive(Clone, Debug)]
pub struct Api {
    http: Client,
    base: String,
}

impl Api {
    pub fn new(base: &str) -> Api {
        crate::tls::install_crypto_provider();
        let http = Client::builder()
            .pool_max_idle_per_host(1024)
            .timeout(Duration::from_secs(60))
            .build()
            .expect("an HTTP client without TLS always builds");
        Api {
            http,
            base: base.trim_end_matches('/').to_string(),
        }
    }

    async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<Value, ClientError> {
        Ok(parsed(&self.call_bytes(method, path, token, body).await?))
    }

    /// The response body of a successful call as it came, for a caller that reads only part
    /// of it (the load generator): parsing a whole 16-player view into a `Value` tree cost more
    /// than the request.
    async fn call_bytes(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<Bytes, ClientError> {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request.send().await?;
        let status = response.status();
        let bytes = response.bytes().await?;
        if status.is_success() {
            return Ok(bytes);
        }
        Err(ClientError::from_response(status.as_u16(), &bytes))
    }

    /// Creates a lobby: (id, host token).
    pub async fn create_lobby(
        &self,
        game: &str,
        name: &str,
        settings: Value,
    ) -> Result<(String, String), ClientError> {
        let body = json!({"game": game, "name": name, "settings": settings});
        let created = self
            .call(Method::POST, "/api/v1/lobbies", None, Some(&body))
            .await?;
        Ok((text(&created["id"]), text(&created["host_token"])))
    }

    /// Joins a lobby: (player id, player token).
    pub async fn join(&self, lobby: &str, body: Value) -> Result<(String, String), ClientError> {
        self.join_as(lobby, None, body).await
    }

    /// Joins a lobby with a profile key, binding the seat: (player id, player token).
    pub async fn join_with_key(
        &self,
        lobby: &str,
        key: &str,
        body: Value,
    ) -> Result<(String, String), ClientError> {
        self.join_as(lobby, Some(key), body).await
    }

    async fn join_as(
        &self,
        lobby: &str,
        key: Option<&str>,
        body: Value,
    ) -> Result<(String, String), ClientError> {
        let joined = self
            .call(
                Method::POST,
                &format!("/api/v1/lobbies/{lobby}/players"),
                key,
                Some(&body),
            )
            .await?;
        Ok((text(&joined["player_id"]), text(&joined["player_token"])))
    }

    /// Creates a profile: its key (shown this once).
    pub async fn create_profile(&self, handle: &str) -> Result<String, ClientError> {
        let body = json!({"handle": handle});
        let created = self
            .call(Method::POST, "/api/v1/profiles", None, Some(&body))
            .await?;
        Ok(text(&created["key"]))
    }

    /// Adds a webhook to a lobby (host).
    pub async fn add_webhook(
        &self,
        lobby: &str,
        host_token: &str,
        body: Value,
    ) -> Result<Value, ClientError> {
        self.call(
            Method::POST,
            &format!("/api/v1/lobbies/{lobby}/webhooks"),
            Some(host_token),
            Some(&body),
        )
        .await
    }

    pub async fn start(&self, lobby: &str, host_token: &str) -> Result<Value, ClientError> {
        self.call(
            Method::POST,
            &format!("/api/v1/lobbies/{lobby}/start"),
            Some(host_token),
            None,
        )
        .await
    }

    /// The public lobby view.
    pub async fn lobby(&self, lobby: &str) -> Result<Value, ClientError> {
        Ok(parsed(&self.lobby_json(lobby).await?))
    }

    /// The player's private `me` view.
    pub async fn me(&self, lobby: &str, token: &str) -> Result<Value, ClientError> {
        Ok(parsed(&self.me_json(lobby, token).await?))
    }

    /// The public lobby view's JSON text.
    pub async fn lobby_json(&self, lobby: &str) -> Result<Bytes, ClientError> {
        self.call_bytes(Method::GET, &format!("/api/v1/lobbies/{lobby}"), None, None)
            .await
    }

    /// The private `me` view's JSON text.
    pub async fn me_json(&self, lobby: &str, token: &str) -> Result<Bytes, ClientError> {
        self.call_bytes(
            Method::GET,
            &format!("/api/v1/lobbies/{lobby}/me"),
            Some(token),
            None,
        )
        .await
    }

    pub async fn submit(
        &self,
        lobby: &str,
        token: &str,
        order: &Value,
    ) -> Result<Value, ClientError> {
        self.call(
            Method::POST,
            &format!("/api/v1/lobbies/{lobby}/orders"),
            Some(token),
            Some(order),
        )
        .await
    }

    /// Opens the player's event stream (`me/events`), resuming after `last_event_id`, with
    /// only the event kinds in `only` (comma-separated) if given.
    pub async fn player_events(
        &self,
        lobby: &str,
        token: &str,
        last_event_id: Option<&str>,
        only: Option<&str>,
    ) -> Result<EventStream, ClientError> {
        let path = format!("/api/v1/lobbies/{lobby}/me/events");
        self.stream(&path, Some(token), last_event_id, only).await
    }

    /// Opens a profile's stream over all its seats (`/api/v1/me/events`) with its key.
    pub async fn profile_events(&self, key: &str) -> Result<EventStream, ClientError> {
        self.stream("/api/v1/me/events", Some(key), None, None)
            .await
    }

    /// Accepts challenge `id` with the challenged profile's key; returns the lobby's id.
    pub async fn accept_challenge(&self, key: &str, id: &str) -> Result<String, ClientError> {
        let reply = self
            .call(
                Method::POST,
                &format!("/api/v1/challenges/{id}/accept"),
                Some(key),
                Some(&Value::Object(serde_json::Map::new())),
            )
            .await?;
        Ok(text(&reply["lobby"]))
    }

    /// Opens the lobby's public event stream, resuming after `last_event_id`.
    pub async fn lobby_events(
        &self,
        lobby: &str,
        last_event_id: Option<&str>,
        only: Option<&str>,
    ) -> Result<EventStream, ClientError> {
        let path = format!("/api/v1/lobbies/{lobby}/events");
        self.stream(&path, None, last_event_id, only).await
    }

    async fn stream(
        &self,
        path: &str,
        token: Option<&str>,
        last_event_id: Option<&str>,
        only: Option<&str>,
    ) -> Result<EventStream, ClientError> {
        let mut url = format!("{}{path}", self.base);
        if let Some(only) = only {
            url.push('?');
            url.push_str(
                &form_urlencoded::Serializer::new(String::new())
                    .append_pair("events", only)
                    .finish(),
            );
        }
        let mut request = self.http.get(url).timeout(Duration::from_secs(24 * 3600));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(id) = last_event_id {
            request = request.header("Last-Event-ID", id);
        }
        let response = request.send().await?;
        if response.status() != StatusCode::OK {
            let status = response.status().as_u16();
            let body = response.bytes().await.unwrap_or_default();
            return Err(ClientError::from_response(status, &body));
        }
        Ok(EventStream {
            body: Box::pin(response.bytes_stream()),
            buffer: String::new(),
        })
    }
}

/// A response body as JSON (null if it is not JSON).
fn parsed(body: &[u8]) -> Value {
    serde_json::from_slice(body).unwrap_or(Value::Null)
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_string()
}

/// One server-sent event.
#[derive(Debug, Clone)]
pub struct ServerEvent {
    pub id: String,
    pub kind: String,
    /// The data as sent: JSON text.
    pub text: String,
}

impl ServerEvent {
    /// The data, parsed (null if it is not JSON).
    pub fn data(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }
}

type ByteStream =
    std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<axum::body::Bytes>> + Send>>;

/// A parsed `text/event-stream`.
pub struct EventStream {
    body: ByteStream,
    buffer: String,
}

impl EventStream {
    /// The next event; None when the stream ends.
    pub async fn next(&mut self) -> Option<ServerEvent> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                if let Some(event) = parse_block(&block) {
                    return Some(event);
                }
                continue;
            }
            let chunk = self.body.next().await?.ok()?;
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }
}

/// Parses one event block; None for comments (keep-alives).
pub fn parse_block(block: &str) -> Option<ServerEvent> {
    let mut event = ServerEvent {
        id: String::new(),
        kind: String::new(),
        text: String::new(),
    };
    let mut data = String::new();
    for line in block.lines() {
        if let Some(v) = line.strip_prefix("id:") {
            event.id = v.trim().to_string();
        } else if let Some(v) = line.strip_prefix("event:") {
            event.kind = v.trim().to_string();
        } else if let Some(v) = line.strip_prefix("data:") {
            data.push_str(v.strip_prefix(' ').unwrap_or(v));
        }
    }
    if event.kind.is_empty() {
        return None;
    }
    event.text = data;
    Some(event)
}
