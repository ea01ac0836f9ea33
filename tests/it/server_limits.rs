//! The server's limits over real sockets (loopback, port 0): idle, slow-header and missing-body
//! connections are closed after their (small, configured) timeouts, a client over the
//! connection cap is told 503 at once, an oversized declared body is refused before it is
//! sent, and a shutdown with a half-sent request ends within the drain time. One client address
//! (127.0.0.2, 127.0.0.3: loopback has them all) holds no more than its share of connections,
//! and a client that stops reading is closed after the write timeout.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio::time::{Instant, timeout};

use herald::Options;
use herald::host::Host;
use herald::store::Store;

/// Long enough that no test waits for it: a limit a test does not look at.
pub const NEVER: Duration = Duration::from_secs(60);
/// The bound on every wait in these tests (only a hang reaches it).
pub const PATIENCE: Duration = Duration::from_secs(10);

/// A server on a loopback port with `options`; stop it with the sender, await the handle.
pub struct Served {
    pub address: std::net::SocketAddr,
    pub stop: oneshot::Sender<()>,
    pub done: JoinHandle<std::io::Result<()>>,
    _dir: tempfile::TempDir,
}

pub async fn serve(options: Options) -> Served {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("h.db").display());
    let store = Store::connect(&url).await.unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let done = tokio::spawn(herald::serve_with(
        listener,
        Host::new(store),
        options,
        async move {
            let _ = stopped.await;
        },
    ));
    Served {
        address,
        stop,
        done,
        _dir: dir,
    }
}

/// Options with every timeout out of the way but the ones a test sets.
pub fn relaxed() -> Options {
    let mut options = Options::default();
    options.limits.header_timeout = NEVER;
    options.limits.body_timeout = NEVER;
    options.limits.idle_timeout = NEVER;
    options.limits.drain_timeout = NEVER;
    options
}

/// Reads until the server closes the connection (EOF or reset); what it sent, as text.
pub async fn read_until_closed(stream: &mut TcpStream) -> String {
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match timeout(PATIENCE, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return String::from_utf8_lossy(&all).into_owned(),
            Ok(Ok(n)) => all.extend_from_slice(&buf[..n]),
            Err(_) => panic!(
                "the connection was still open after {PATIENCE:?}; got {:?}",
                String::from_utf8_lossy(&all)
            ),
        }
    }
}

/// Reads one response (head and a Content-Length body, or up to a chunked body's end).
pub async fn read_response(stream: &mut TcpStream) -> String {
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&all).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let head = text[..end].to_ascii_lowercase();
            let body = &text[end + 4..];
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            match length {
                Some(n) if body.len() >= n => return text,
                None if body.ends_with("0\r\n\r\n") => return text,
                _ => {}
            }
        }
        match timeout(PATIENCE, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return text,
            Ok(Ok(n)) => all.extend_from_slice(&buf[..n]),
            Err(_) => panic!("no whole response within {PATIENCE:?}: {text:?}"),
        }
    }
}

/// The status, the lower-cased head and the JSON body of a response's text.
pub fn parse(response: &str) -> (u16, String, Value) {
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((response, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = body.trim();
    let json = body
        .find('{')
        .and_then(|start| body.rfind('}').map(|end| &body[start..=end]))
        .and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or(Value::Null);
    (status, head.to_ascii_lowercase(), json)
}

async fn connect(served: &Served) -> TcpStream {
    TcpStream::connect(served.address).await.unwrap()
}

/// A connection from the loopback address `from` (say `127.0.0.2`): another client, as the
/// server sees it.
pub async fn connect_from(served: &Served, from: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(served.address).await.unwrap()
}

/// Polls with `ask` (a fresh request each time) until it is answered `status`; panics after
/// `PATIENCE`. For a place that frees once the server has closed a connection.
async fn until_answered<F, Fut>(status: u16, mut ask: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = u16>,
{
    let deadline = Instant::now() + PATIENCE;
    loop {
        if ask().await == status {
            return;
        }
        assert!(Instant::now() < deadline, "never answered {status}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Creates a lobby over `stream` (kept alive) and asks for its event stream on it.
async fn open_event_stream(stream: &mut TcpStream) -> String {
    let body = r#"{"game":"crossing-swords","name":"Stream"}"#;
    let request = format!(
        "POST /api/v1/lobbies HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let (status, _, created) = parse(&read_response(stream).await);
    assert_eq!(status, 201);
    let lobby = created["id"].as_str().unwrap();
    let request = format!("GET /api/v1/lobbies/{lobby}/events HTTP/1.1\r\nHost: t\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut buf = [0u8; 4096];
    let n = timeout(PATIENCE, stream.read(&mut buf))
        .await
        .unwrap()
        .unwrap();
    String::from_utf8_lossy(&buf[..n]).to_ascii_lowercase()
}

const GET_LOBBIES: &[u8] = b"GET /api/v1/lobbies HTTP/1.1\r\nHost: t\r\n\r\n";

#[tokio::test]
async fn an_idle_connection_is_closed_after_the_idle_timeout_even_after_a_request() {
    let mut options = relaxed();
    options.limits.idle_timeout = Duration::from_millis(300);
    let served = serve(options).await;

    let mut silent = connect(&served).await;
    let opened = Instant::now();
    assert_eq!(read_until_closed(&mut silent).await, "");
    assert!(opened.elapsed() >= Duration::from_millis(300), "not before");

    let mut kept = connect(&served).await;
    kept.write_all(GET_LOBBIES).await.unwrap();
    let (status, _, _) = parse(&read_response(&mut kept).await);
    assert_eq!(status, 200);
    assert_eq!(read_until_closed(&mut kept).await, "", "closed once idle");
}

#[tokio::test]
async fn a_slow_request_head_is_closed_after_the_header_timeout() {
    let mut options = relaxed();
    options.limits.header_timeout = Duration::from_millis(300);
    let served = serve(options).await;
    let mut slow = connect(&served).await;
    slow.write_all(b"GET /api/v1/lobbies HTTP/1.1\r\nHost: t\r\n")
        .await
        .unwrap();
    let started = Instant::now();
    read_until_closed(&mut slow).await;
    assert!(
        started.elapsed() >= Duration::from_millis(250),
        "not before"
    );

    // A head that arrives in time is served, on a connection that then waits (idle: never).
    let mut prompt = connect(&served).await;
    prompt.write_all(GET_LOBBIES).await.unwrap();
    let (status, _, _) = parse(&read_response(&mut prompt).await);
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_body_that_never_comes_gets_408_and_the_connection_is_closed() {
    let mut options = relaxed();
    options.limits.body_timeout = Duration::from_millis(300);
    let served = serve(options).await;
    let mut stream = connect(&served).await;
    stream
        .write_all(b"POST /api/v1/lobbies HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"game\"")
        .await
        .unwrap();
    let response = read_until_closed(&mut stream).await;
    let (status, head, body) = parse(&response);
    assert_eq!(status, 408, "{response}");
    assert!(head.contains("content-type: application/json"), "{head}");
    assert_eq!(body["error"]["code"], "body-timeout");
}

#[tokio::test]
async fn an_oversized_declared_body_is_refused_with_413_before_it_is_sent() {
    let served = serve(relaxed()).await;
    for (path, json) in [("/api/v1/lobbies", true), ("/lobbies", false)] {
        let mut stream = connect(&served).await;
        let request =
            format!("POST {path} HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let response = read_until_closed(&mut stream).await;
        let (status, head, body) = parse(&response);
        assert_eq!(status, 413, "{response}");
        if json {
            assert_eq!(body["error"]["code"], "body-too-large");
        } else {
            assert!(head.contains("content-type: text/html"), "{head}");
        }
    }
}

#[tokio::test]
async fn over_the_connection_cap_a_client_is_told_503_at_once_and_served_once_a_slot_frees() {
    let mut options = relaxed();
    options.limits.max_connections = 2;
    options.limits.connection_reserve = 2;
    let served = serve(options).await;
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut stream = connect(&served).await;
        stream.write_all(GET_LOBBIES).await.unwrap();
        let (status, _, _) = parse(&read_response(&mut stream).await);
        assert_eq!(status, 200);
        held.push(stream);
    }

    let mut extra = connect(&served).await;
    extra.write_all(GET_LOBBIES).await.unwrap();
    let response = read_until_closed(&mut extra).await;
    let (status, head, body) = parse(&response);
    assert_eq!(status, 503, "{response}");
    assert!(head.contains("content-type: application/json"), "{head}");
    assert!(head.contains("retry-after:"), "{head}");
    assert!(head.contains("x-content-type-options: nosniff"), "{head}");
    assert_eq!(body["error"]["code"], "server-busy");

    // A page request over the cap gets the page.
    let mut page = connect(&served).await;
    page.write_all(b"GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        .await
        .unwrap();
    let (status, head, _) = parse(&read_until_closed(&mut page).await);
    assert_eq!(status, 503);
    assert!(head.contains("content-type: text/html"), "{head}");

    drop(held.pop());
    let deadline = Instant::now() + PATIENCE;
    loop {
        let mut stream = connect(&served).await;
        stream.write_all(GET_LOBBIES).await.unwrap();
        let (status, _, _) = parse(&read_response(&mut stream).await);
        if status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "the freed slot was never reused");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn shutdown_with_a_half_sent_request_ends_within_the_drain_time() {
    let mut options = relaxed();
    options.limits.drain_timeout = Duration::from_millis(300);
    let served = serve(options).await;
    let mut half = connect(&served).await;
    half.write_all(b"POST /api/v1/lobbies HTTP/1.1\r\nHost: t\r\nContent-Len")
        .await
        .unwrap();
    let mut streaming = connect(&served).await;
    let head = open_event_stream(&mut streaming).await;
    assert!(head.contains("text/event-stream"), "{head}");
    let mut idle = connect(&served).await;
    idle.write_all(GET_LOBBIES).await.unwrap();
    read_response(&mut idle).await;
    // Every connection is accepted before the stop.
    tokio::time::sleep(Duration::from_millis(50)).await;

    // The half-sent head would hold the server for the header timeout (NEVER); the drain
    // time closes it well within PATIENCE.
    served.stop.send(()).unwrap();
    timeout(PATIENCE, served.done)
        .await
        .expect("the server stopped within the drain time")
        .unwrap()
        .unwrap();
    assert_eq!(read_until_closed(&mut half).await, "");
    read_until_closed(&mut idle).await;
    read_until_closed(&mut streaming).await;
}

#[tokio::test]
async fn an_event_stream_outlives_the_idle_timeout_but_counts_against_the_cap() {
    let mut options = relaxed();
    options.limits.idle_timeout = Duration::from_millis(200);
    options.limits.max_connections = 1;
    let served = serve(options).await;
    let mut stream = connect(&served).await;
    let head = open_event_stream(&mut stream).await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("text/event-stream"), "{head}");
    let mut buf = [0u8; 4096];

    // Three idle timeouts later the stream is still open: a read waits rather than ends.
    let still_open = timeout(Duration::from_millis(600), async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return false,
                Ok(_) => {}
            }
        }
    })
    .await
    .is_err();
    assert!(still_open, "the stream was closed as if idle");

    let mut other = connect(&served).await;
    other.write_all(GET_LOBBIES).await.unwrap();
    let (status, _, _) = parse(&read_until_closed(&mut other).await);
    assert_eq!(status, 503, "the stream holds the only slot");
}

#[tokio::test]
async fn a_path_that_is_not_utf8_gets_the_json_error_over_the_wire() {
    let served = serve(relaxed()).await;
    let mut stream = connect(&served).await;
    stream
        .write_all(b"GET /api/v1/lobbies/%ff%fe HTTP/1.1\r\nHost: t\r\n\r\n")
        .await
        .unwrap();
    let (status, head, body) = parse(&read_response(&mut stream).await);
    assert_eq!(status, 404);
    assert!(head.contains("content-type: application/json"), "{head}");
    assert_eq!(body["error"]["code"], "not-found");
}

#[tokio::test]
async fn one_address_holds_no_more_than_its_share_of_connections_and_others_are_served() {
    let mut options = relaxed();
    options.limits.max_connections_per_client = Some(2);
    let served = serve(options).await;
    // 127.0.0.2 holds an event stream and a kept-alive connection: its share.
    let mut stream = connect_from(&served, "127.0.0.2").await;
    let head = open_event_stream(&mut stream).await;
    assert!(head.contains("text/event-stream"), "{head}");
    let mut kept = connect_from(&served, "127.0.0.2").await;
    kept.write_all(GET_LOBBIES).await.unwrap();
    assert_eq!(parse(&read_response(&mut kept).await).0, 200);

    let mut extra = connect_from(&served, "127.0.0.2").await;
    extra.write_all(GET_LOBBIES).await.unwrap();
    let response = read_until_closed(&mut extra).await;
    let (status, head, body) = parse(&response);
    assert_eq!(status, 503, "{response}");
    assert!(head.contains("content-type: application/json"), "{head}");
    assert!(head.contains("retry-after:"), "{head}");
    assert_eq!(body["error"]["code"], "client-busy");

    // Another address is served, and 127.0.0.2 gets its place back once it closes one.
    let mut other = connect_from(&served, "127.0.0.3").await;
    other.write_all(GET_LOBBIES).await.unwrap();
    assert_eq!(parse(&read_response(&mut other).await).0, 200);
    drop(kept);
    until_answered(200, || async {
        let mut again = connect_from(&served, "127.0.0.2").await;
        again.write_all(GET_LOBBIES).await.unwrap();
        parse(&read_response(&mut again).await).0
    })
    .await;
}

#[tokio::test]
async fn a_client_that_stops_reading_is_closed_after_the_write_timeout() {
    let mut options = relaxed();
    options.limits.write_timeout = Duration::from_millis(300);
    options.limits.max_connections = 1;
    let served = serve(options).await;
    // A client with a small receive buffer asks for far more than the sockets can hold (the
    // OpenAPI document, 64 times over) and reads none of it.
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stalled = socket.connect(served.address).await.unwrap();
    const ASKED: usize = 64;
    let request = "GET /api/v1/openapi.json HTTP/1.1\r\nHost: t\r\n\r\n".repeat(ASKED);
    stalled.write_all(request.as_bytes()).await.unwrap();

    // It holds the only slot until the write timeout closes it; then another client is served.
    until_answered(200, || async {
        let mut other = connect(&served).await;
        other.write_all(GET_LOBBIES).await.unwrap();
        parse(&read_response(&mut other).await).0
    })
    .await;
    let mut got = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match timeout(PATIENCE, stalled.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => panic!("the stalled connection is still open"),
        }
    }
    let answered = String::from_utf8_lossy(&got)
        .matches("HTTP/1.1 200")
        .count();
    assert!(answered < ASKED, "all {answered} were answered");
}

#[tokio::test]
async fn a_request_head_that_does_not_arrive_in_time_is_told_408_before_the_close() {
    let mut options = relaxed();
    options.limits.header_timeout = Duration::from_millis(300);
    let served = serve(options).await;
    // Slowloris: a head begun and never ended. The API gets JSON, a page's path a page.
    for (begun, json) in [
        (
            &b"GET /api/v1/lobbies HTTP/1.1\r\nHost: t\r\nX-Slow: 1"[..],
            true,
        ),
        (&b"GET /lobbies HTTP/1.1\r\nHo"[..], false),
        (&b"GE"[..], true),
    ] {
        let mut slow = connect(&served).await;
        slow.write_all(begun).await.unwrap();
        let response = read_until_closed(&mut slow).await;
        let (status, head, body) = parse(&response);
        assert_eq!(status, 408, "{response}");
        assert!(head.contains("connection: close"), "{head}");
        if json {
            assert!(head.contains("content-type: application/json"), "{head}");
            assert_eq!(body["error"]["code"], "head-timeout");
        } else {
            assert!(head.contains("content-type: text/html"), "{head}");
        }
    }
    // (A connection that sent nothing is closed without a word, after the idle timeout: it
    // asked nothing. See the idle test above.)
}
