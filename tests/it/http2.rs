//! HTTP/2 with prior knowledge (h2c) on the same port as HTTP/1, over real sockets with
//! hyper's own HTTP/2 client: API calls, many players' event streams multiplexed on one
//! connection (each gets its prompt when a round resolves, and one resumes with
//! `Last-Event-ID`), and the limits: an idle connection, one that never asks anything, the
//! drain on shutdown, the connection and stream caps and the per-address rate limit; and a
//! browser's form, whose `Origin` is checked against the request's `:authority`.

use std::time::Duration;

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::client::conn::http2::SendRequest;
use hyper::{Method, Request, Response, StatusCode, Version};
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::task::JoinHandle;
use tokio::time::{Instant, timeout};

use crate::server_limits::{NEVER, PATIENCE, Served, relaxed, serve};

/// One HTTP/2 connection: its request handle (cloned for each concurrent stream) and the
/// task that drives it, which ends when the connection closes.
struct H2 {
    sender: SendRequest<Full<Bytes>>,
    driver: JoinHandle<hyper::Result<()>>,
    base: String,
}

async fn connect(served: &Served) -> H2 {
    let tcp = TcpStream::connect(served.address).await.unwrap();
    handshake(
        served,
        tcp,
        hyper::client::conn::http2::Builder::new(TokioExecutor::new()),
    )
    .await
}

/// An HTTP/2 connection from the loopback address `from` (another client, as the server sees
/// it).
async fn connect_from(served: &Served, from: &str) -> H2 {
    let tcp = crate::server_limits::connect_from(served, from).await;
    handshake(
        served,
        tcp,
        hyper::client::conn::http2::Builder::new(TokioExecutor::new()),
    )
    .await
}

async fn handshake(
    served: &Served,
    tcp: TcpStream,
    builder: hyper::client::conn::http2::Builder<TokioExecutor>,
) -> H2 {
    let (sender, connection) = builder
        .handshake(TokioIo::new(tcp))
        .await
        .expect("an HTTP/2 handshake");
    H2 {
        sender,
        driver: tokio::spawn(connection),
        base: format!("http://{}", served.address),
    }
}

impl H2 {
    async fn send(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
        body: Option<Value>,
    ) -> Response<Incoming> {
        let mut request = Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let body = match body {
            Some(body) => {
                request = request.header("content-type", "application/json");
                Full::new(Bytes::from(body.to_string()))
            }
            None => Full::new(Bytes::new()),
        };
        let mut sender = self.sender.clone();
        let response = timeout(PATIENCE, sender.send_request(request.body(body).unwrap()))
            .await
            .expect("a response in time")
            .expect("a response");
        assert_eq!(response.version(), Version::HTTP_2, "served over HTTP/2");
        response
    }

    /// A whole JSON response: its status and body.
    async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let response = self.send(method, path, token, &[], body).await;
        let status = response.status();
        let bytes = timeout(PATIENCE, response.into_body().collect())
            .await
            .expect("a body in time")
            .unwrap()
            .to_bytes();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    /// Creates a Crossing Swords lobby named `name`: its status and body.
    async fn create_lobby(&self, name: &str) -> (StatusCode, Value) {
        self.call(
            Method::POST,
            "/api/v1/lobbies",
            None,
            Some(json!({"game": "crossing-swords", "name": name})),
        )
        .await
    }

    async fn events(&self, path: &str, token: Option<&str>, last_event_id: Option<&str>) -> Sse {
        let headers: Vec<(&str, &str)> = last_event_id
            .map(|id| vec![("last-event-id", id)])
            .unwrap_or_default();
        let response = self.send(Method::GET, path, token, &headers, None).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Sse {
            body: response.into_body(),
            buffer: String::new(),
        }
    }

    /// Waits for the server to close the connection; how long that took. (The request
    /// handle is kept meanwhile: hyper's client closes a connection whose handles are gone.)
    async fn closed(self) -> Duration {
        let started = Instant::now();
        let H2 { sender, driver, .. } = self;
        let ended = timeout(PATIENCE, driver)
            .await
            .expect("the server closed the connection in time");
        assert!(ended.is_ok(), "the connection's task did not panic");
        drop(sender);
        started.elapsed()
    }
}

/// One server-sent event.
#[derive(Debug, Clone, PartialEq)]
struct Event {
    id: String,
    kind: String,
    data: Value,
}

/// An event stream read over HTTP/2.
struct Sse {
    body: Incoming,
    buffer: String,
}

impl Sse {
    /// The next event (keep-alive comments skipped); `None` when the stream ends.
    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut event = Event {
                    id: String::new(),
                    kind: String::new(),
                    data: Value::Null,
                };
                for line in block.lines() {
                    if let Some(id) = line.strip_prefix("id: ") {
                        event.id = id.to_string();
                    } else if let Some(kind) = line.strip_prefix("event: ") {
                        event.kind = kind.to_string();
                    } else if let Some(data) = line.strip_prefix("data: ") {
                        event.data = serde_json::from_str(data).unwrap_or(Value::Null);
                    }
                }
                if event.kind.is_empty() {
                    continue;
                }
                return Some(event);
            }
            let frame = timeout(PATIENCE, self.body.frame())
                .await
                .expect("an event in time");
            match frame {
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        self.buffer.push_str(&String::from_utf8_lossy(&data));
                    }
                }
                Some(Err(_)) | None => return None,
            }
        }
    }

    /// Events up to and including the first prompt for `round`.
    async fn until_prompt(&mut self, round: u64) -> Vec<Event> {
        let mut seen = Vec::new();
        loop {
            let event = self
                .next()
                .await
                .expect("the stream ended before the prompt");
            let done = event.kind == "prompt" && event.data["prompt"]["round"] == round;
            seen.push(event);
            if done {
                return seen;
            }
        }
    }
}

/// Creates a lobby of `players` players over `h2`, seats them and starts it: the lobby and
/// each player's (id, token).
async fn started_lobby(h2: &H2, players: usize) -> (String, Vec<(String, String)>) {
    let (status, created) = h2
        .call(
            Method::POST,
            "/api/v1/lobbies",
            None,
            Some(json!({"game": "crossing-swords", "name": "Multiplexed",
                        "settings": {"max_players": players}})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let lobby = created["id"].as_str().unwrap().to_string();
    let host = created["host_token"].as_str().unwrap().to_string();
    let mut seated = Vec::new();
    for seat in 0..players {
        let (status, joined) = h2
            .call(
                Method::POST,
                &format!("/api/v1/lobbies/{lobby}/players"),
                None,
                Some(json!({"name": format!("Bot {seat}")})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{joined}");
        seated.push((
            joined["player_id"].as_str().unwrap().to_string(),
            joined["player_token"].as_str().unwrap().to_string(),
        ));
    }
    let (status, started) = h2
        .call(
            Method::POST,
            &format!("/api/v1/lobbies/{lobby}/start"),
            Some(&host),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{started}");
    (lobby, seated)
}

#[tokio::test]
async fn api_calls_are_answered_over_http2_with_prior_knowledge() {
    let served = serve(relaxed()).await;
    let h2 = connect(&served).await;
    let (status, created) = h2.create_lobby("Over h2").await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let lobby = created["id"].as_str().unwrap();
    let (status, read) = h2
        .call(Method::GET, &format!("/api/v1/lobbies/{lobby}"), None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(read["name"], "Over h2");

    // Bad input is the same 4xx JSON error as over HTTP/1.
    let (status, error) = h2
        .call(
            Method::POST,
            "/api/v1/lobbies",
            None,
            Some(json!({"game": "no-such-game", "name": "x"})),
        )
        .await;
    assert!(status.is_client_error(), "{status}");
    assert!(error["error"]["code"].is_string(), "{error}");

    // The same port still speaks HTTP/1.1.
    assert_http1_answers(served.address).await;
}

/// A plain HTTP/1.1 request on `address` is answered 200.
async fn assert_http1_answers(address: std::net::SocketAddr) {
    let mut plain = TcpStream::connect(address).await.unwrap();
    plain
        .write_all(b"GET /api/v1/lobbies HTTP/1.1\r\nHost: t\r\n\r\n")
        .await
        .unwrap();
    let response = crate::server_limits::read_response(&mut plain).await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
}

#[tokio::test]
async fn many_players_event_streams_share_one_connection_and_each_gets_its_prompt() {
    const PLAYERS: usize = 12;
    let served = serve(relaxed()).await;
    let h2 = connect(&served).await;
    let (lobby, players) = started_lobby(&h2, PLAYERS).await;
    let path = format!("/api/v1/lobbies/{lobby}/me/events");

    // Every player's own stream, all open at once on the one connection.
    let mut streams = Vec::new();
    for (_, token) in &players {
        streams.push(h2.events(&path, Some(token), None).await);
    }
    for stream in &mut streams {
        let first = stream.until_prompt(1).await;
        assert_eq!(first.last().unwrap().data["prompt"]["step"], "orders");
    }

    // Each player taunts the next; the round resolves once the last order is in, and each
    // stream (still open) brings its player the next round's prompt.
    for (author, (_, token)) in players.iter().enumerate() {
        let target = &players[(author + 1) % PLAYERS].0;
        let (status, reply) = h2
            .call(
                Method::POST,
                &format!("/api/v1/lobbies/{lobby}/orders"),
                Some(token),
                Some(json!({"round": 1, "step": "orders", "move": "taunt", "target": target})),
            )
            .await;
        assert_eq!(status, StatusCode::ACCEPTED, "{reply}");
    }
    let mut missed = Vec::new();
    for (index, stream) in streams.iter_mut().enumerate() {
        let seen = stream.until_prompt(2).await;
        assert!(
            seen.iter().any(|event| event.kind == "round-resolved"),
            "player {index}: {seen:?}"
        );
        if index == 0 {
            missed = seen;
        }
    }

    // A stream reopened with Last-Event-ID (on the same connection, beside the others)
    // gets what came after that event, as over HTTP/1.
    let last_seen = missed.remove(0);
    let mut resumed = h2
        .events(&path, Some(&players[0].1), Some(&last_seen.id))
        .await;
    let replayed = resumed.until_prompt(2).await;
    let kinds = |events: &[Event]| -> Vec<String> {
        events.iter().map(|event| event.kind.clone()).collect()
    };
    assert_eq!(kinds(&replayed), kinds(&missed));
    assert_eq!(replayed.last(), missed.last());
    assert!(!h2.driver.is_finished(), "one connection throughout");
}

#[tokio::test]
async fn an_idle_http2_connection_is_closed_after_the_idle_timeout_but_not_while_it_streams() {
    let mut options = relaxed();
    options.limits.idle_timeout = Duration::from_millis(300);
    let served = serve(options).await;

    let h2 = connect(&served).await;
    let (status, _) = h2.call(Method::GET, "/api/v1/lobbies", None, None).await;
    assert_eq!(status, StatusCode::OK);
    let waited = h2.closed().await;
    assert!(
        waited >= Duration::from_millis(250),
        "not before: {waited:?}"
    );

    // An open event stream is a request in flight: three idle timeouts later the connection
    // still serves; once the client drops (resets) the stream, the connection is idle again.
    let h2 = connect(&served).await;
    let (_, created) = h2.create_lobby("Idle").await;
    let lobby = created["id"].as_str().unwrap();
    let stream = h2
        .events(&format!("/api/v1/lobbies/{lobby}/events"), None, None)
        .await;
    tokio::time::sleep(Duration::from_millis(900)).await;
    assert!(!h2.driver.is_finished(), "closed while a stream was open");
    let (status, _) = h2.call(Method::GET, "/api/v1/lobbies", None, None).await;
    assert_eq!(status, StatusCode::OK);
    drop(stream);
    let waited = h2.closed().await;
    assert!(
        waited >= Duration::from_millis(250),
        "not before: {waited:?}"
    );
}

#[tokio::test]
async fn an_http2_client_that_never_asks_is_closed_after_the_header_timeout() {
    let mut options = relaxed();
    options.limits.header_timeout = Duration::from_millis(300);
    let served = serve(options).await;

    // The preface and nothing more: the server answers with its own SETTINGS frame (so it
    // speaks HTTP/2 here), then closes once the header timeout has passed.
    let mut raw = TcpStream::connect(served.address).await.unwrap();
    raw.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        .await
        .unwrap();
    let started = Instant::now();
    let sent = read_until_closed_bytes(&mut raw).await;
    assert!(
        started.elapsed() >= Duration::from_millis(250),
        "not before"
    );
    assert!(
        sent.len() >= 9 && sent[3] == 0x4,
        "a SETTINGS frame first: {sent:?}"
    );

    // A whole handshake (the client's SETTINGS too) and no request: the same.
    let h2 = connect(&served).await;
    let waited = h2.closed().await;
    assert!(
        waited >= Duration::from_millis(250),
        "not before: {waited:?}"
    );

    // A connection that asks in time is served and then waits (idle: never).
    let h2 = connect(&served).await;
    let (status, _) = h2.call(Method::GET, "/api/v1/lobbies", None, None).await;
    assert_eq!(status, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(600)).await;
    let (status, _) = h2.call(Method::GET, "/api/v1/lobbies", None, None).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "still open after twice the header timeout"
    );
}

/// Reads until the server closes the connection; the raw bytes (HTTP/2 frames are not text).
async fn read_until_closed_bytes(stream: &mut TcpStream) -> Vec<u8> {
    use tokio::io::AsyncReadExt;
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match timeout(PATIENCE, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return all,
            Ok(Ok(n)) => all.extend_from_slice(&buf[..n]),
            Err(_) => panic!("the connection was still open after {PATIENCE:?}"),
        }
    }
}

#[tokio::test]
async fn a_shutdown_ends_http2_event_streams_and_closes_the_connection_without_the_drain_time() {
    let mut options = relaxed();
    options.limits.drain_timeout = NEVER;
    let served = serve(options).await;
    let h2 = connect(&served).await;
    let (_, created) = h2.create_lobby("Drain").await;
    let lobby = created["id"].as_str().unwrap();
    let mut streams = Vec::new();
    for _ in 0..3 {
        let stream = h2
            .events(&format!("/api/v1/lobbies/{lobby}/events"), None, None)
            .await;
        streams.push(stream);
    }

    served.stop.send(()).unwrap();
    timeout(PATIENCE, served.done)
        .await
        .expect("the server stopped well within the drain time (NEVER)")
        .unwrap()
        .unwrap();
    for stream in &mut streams {
        assert!(stream.next().await.is_none(), "the stream ended");
    }
    h2.closed().await;
}

#[tokio::test]
async fn over_the_connection_cap_an_http2_client_is_told_503() {
    let mut options = relaxed();
    options.limits.max_connections = 1;
    options.limits.connection_reserve = 1;
    let served = serve(options).await;
    let held = connect(&served).await;
    let (status, _) = held.call(Method::GET, "/api/v1/lobbies", None, None).await;
    assert_eq!(status, StatusCode::OK);

    let extra = connect(&served).await;
    let (status, body) = extra.call(Method::GET, "/api/v1/lobbies", None, None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["error"]["code"], "server-busy");
    extra.closed().await;
}

#[tokio::test]
async fn the_rate_limit_counts_an_http2_clients_address() {
    let mut options = relaxed();
    options.rates.lobbies_per_minute = 2;
    let served = serve(options).await;
    let h2 = connect(&served).await;
    let create = || h2.create_lobby("Rate");
    for _ in 0..2 {
        assert_eq!(create().await.0, StatusCode::CREATED);
    }
    let (status, body) = create().await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["error"]["code"], "rate-limited");
    // Another connection from the same address shares the allowance.
    let other = connect(&served).await;
    let (status, _) = other.create_lobby("Rate").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn over_the_stream_cap_a_new_http2_stream_is_told_503_until_one_ends() {
    let mut options = relaxed();
    options.limits.max_streams = 2;
    let served = serve(options).await;
    let h2 = connect(&served).await;
    let (_, created) = h2.create_lobby("Capped").await;
    let path = format!("/api/v1/lobbies/{}/events", created["id"].as_str().unwrap());
    let first = h2.events(&path, None, None).await;
    let _second = h2.events(&path, None, None).await;

    // A third stream, on this connection or another, is over the cap.
    for client in [&h2, &connect(&served).await] {
        let (status, body) = client
            .call(Method::GET, "/api/v1/lobbies", None, None)
            .await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert_eq!(body["error"]["code"], "server-busy");
    }

    // Once a stream ends (the client resets it), its place is free again.
    drop(first);
    let deadline = Instant::now() + PATIENCE;
    loop {
        let (status, _) = h2.call(Method::GET, "/api/v1/lobbies", None, None).await;
        if status == StatusCode::OK {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the freed place was never reused"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // HTTP/1 requests take no place: the cap is HTTP/2's.
    assert_http1_answers(served.address).await;
}

/// A form POST over HTTP/2 (the create-lobby form) with `origin`, after fetching the page's
/// CSRF cookie over the same connection: its status.
async fn create_by_form_over_h2(h2: &H2, origin: &str) -> StatusCode {
    let page = h2.send(Method::GET, "/", None, &[], None).await;
    let cookie = page.headers()["set-cookie"].to_str().unwrap().to_owned();
    let token = cookie
        .strip_prefix("herald_csrf=")
        .and_then(|rest| rest.split(';').next())
        .unwrap()
        .to_owned();
    let form = form_urlencoded::Serializer::new(String::new())
        .append_pair("csrf", &token)
        .append_pair("game", "crossing-swords")
        .append_pair("name", "Form over h2")
        .finish();
    let request = Request::builder()
        .method(Method::POST)
        .uri(format!("{}/lobbies", h2.base))
        .header("cookie", format!("herald_csrf={token}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("origin", origin)
        .header("sec-fetch-site", "same-origin")
        .body(Full::new(Bytes::from(form)))
        .unwrap();
    let response = timeout(PATIENCE, h2.sender.clone().send_request(request))
        .await
        .expect("a response in time")
        .expect("a response");
    assert_eq!(response.version(), Version::HTTP_2);
    response.status()
}

#[tokio::test]
async fn a_form_posted_over_http2_is_judged_by_the_requests_authority() {
    // HTTP/2 sends no `Host`: the authority is the request's `:authority`, which a browser's
    // `Origin` matches when the form comes from Herald's own page.
    let served = serve(relaxed()).await;
    let h2 = connect(&served).await;
    let ours = format!("http://{}", served.address);
    assert_eq!(
        create_by_form_over_h2(&h2, &ours).await,
        StatusCode::SEE_OTHER
    );
    assert_eq!(
        create_by_form_over_h2(&h2, "http://evil.example").await,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn one_address_holds_no_more_than_its_share_of_streams_and_others_are_served() {
    let mut options = relaxed();
    options.limits.max_requests_per_client = Some(2);
    let served = serve(options).await;
    let greedy = connect_from(&served, "127.0.0.2").await;
    let (_, created) = greedy.create_lobby("Shared").await;
    let path = format!("/api/v1/lobbies/{}/events", created["id"].as_str().unwrap());
    let _first = greedy.events(&path, None, None).await;
    let _second = greedy.events(&path, None, None).await;

    // A third request from that address, on this connection or another, is over its share.
    for client in [&greedy, &connect_from(&served, "127.0.0.2").await] {
        let (status, body) = client
            .call(Method::GET, "/api/v1/lobbies", None, None)
            .await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert_eq!(body["error"]["code"], "client-busy");
    }
    // Another address is served, streams included.
    let other = connect_from(&served, "127.0.0.3").await;
    let (status, _) = other.call(Method::GET, "/api/v1/lobbies", None, None).await;
    assert_eq!(status, StatusCode::OK);
    let _theirs = other.events(&path, None, None).await;
    let _more = other.events(&path, None, None).await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_share_of_streams() {
    let mut options = relaxed();
    options.limits.max_requests_per_client = Some(2);
    options.exposure.trusted_proxies = vec![herald::http::client::net("127.0.0.1").unwrap()];
    let served = serve(options).await;
    let proxy = connect(&served).await;
    let (_, created) = proxy.create_lobby("Proxied").await;
    let path = format!("/api/v1/lobbies/{}/events", created["id"].as_str().unwrap());
    let stream_for = |client: &'static str| {
        let proxy = &proxy;
        let path = path.clone();
        async move {
            let headers = [("x-forwarded-for", client)];
            proxy.send(Method::GET, &path, None, &headers, None).await
        }
    };
    let mut held = Vec::new();
    for _ in 0..2 {
        let response = stream_for("203.0.113.5").await;
        assert_eq!(response.status(), StatusCode::OK);
        held.push(response);
    }
    let refused = stream_for("203.0.113.5").await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    let served_other = stream_for("203.0.113.6").await;
    assert_eq!(served_other.status(), StatusCode::OK);
}

#[tokio::test]
async fn an_http2_stream_the_client_gives_no_window_is_closed_after_the_write_timeout() {
    let mut options = relaxed();
    options.limits.write_timeout = Duration::from_millis(300);
    let served = serve(options).await;
    let h2 = connect(&served).await;
    let (_, created) = h2.create_lobby("Unread").await;
    let lobby = created["id"].as_str().unwrap();
    let (status, _) = h2
        .call(
            Method::POST,
            &format!("/api/v1/lobbies/{lobby}/players"),
            None,
            Some(json!({"name": "Ann"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);

    // A client that reads its connection (settings, pings) but gives its streams no window:
    // the event stream's history can never be sent.
    let tcp = TcpStream::connect(served.address).await.unwrap();
    let mut builder = hyper::client::conn::http2::Builder::new(TokioExecutor::new());
    builder.initial_stream_window_size(0);
    let stalled = handshake(&served, tcp, builder).await;
    let response = stalled
        .send(
            Method::GET,
            &format!("/api/v1/lobbies/{lobby}/events"),
            None,
            &[],
            None,
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    stalled.closed().await;
    drop(response);

    // Everyone else is served as before.
    let (status, _) = h2.call(Method::GET, "/api/v1/lobbies", None, None).await;
    assert_eq!(status, StatusCode::OK);
}

/// A GET over `h2` whose headers, decoded, add up to about `bytes`: the response, or the
/// connection's error.
async fn get_with_headers_of(h2: &H2, bytes: usize) -> Result<StatusCode, hyper::Error> {
    let value = "v".repeat(10_000);
    let mut request = Request::builder().uri(format!("{}/api/v1/lobbies", h2.base));
    for n in 0..bytes / 10_000 {
        request = request.header(format!("x-big-{n}"), &value);
    }
    let request = request.body(Full::new(Bytes::new())).unwrap();
    let sent = timeout(PATIENCE, h2.sender.clone().send_request(request))
        .await
        .expect("an answer in time");
    sent.map(|response| response.status())
}

#[tokio::test]
async fn an_oversized_http2_header_block_is_answered_431_or_the_connection_closed() {
    // h2 holds the line itself, before hyper or Herald see the request: a header list over
    // the limit (about 417 KB decoded) gets h2's own 431 (no body: h2 writes it), as long as
    // the block fits in the CONTINUATION frames h2 allows for the limit (about 1.25 times
    // it); a larger block, such as 1 MB, closes the connection (GOAWAY ENHANCE_YOUR_CALM).
    // Either way nothing of it reaches a handler and other connections are served.
    let served = serve(relaxed()).await;
    let h2 = connect(&served).await;
    assert_eq!(
        get_with_headers_of(&h2, 450_000).await.ok(),
        Some(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
    );
    let (status, _) = h2.call(Method::GET, "/api/v1/lobbies", None, None).await;
    assert_eq!(status, StatusCode::OK, "the connection still serves");

    let big = connect(&served).await;
    assert!(get_with_headers_of(&big, 1_000_000).await.is_err());
    big.closed().await;

    let (status, _) = h2.call(Method::GET, "/api/v1/lobbies", None, None).await;
    assert_eq!(status, StatusCode::OK);
}
