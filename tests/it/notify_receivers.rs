//! Real HTTP receivers for the notification tests, each an axum server on 127.0.0.1 started
//! by the test: one that accepts, fails N times first, answers 429 with `Retry-After`, never
//! answers (slow), answers once the test opens its gate, or redirects; and the settings the
//! tests deliver with.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

/// How a receiver answers.
#[derive(Clone, Debug)]
pub enum Behaviour {
    Accept,
    /// 503 for the first n requests, then 204.
    FailFirst(usize),
    /// 429 with `Retry-After: secs` for the first n requests, then 204.
    TooMany {
        first: usize,
        retry_after: u64,
    },
    /// Never answers.
    Hang,
    /// Holds every request until the gate's value is true, then 204.
    Gate(tokio::sync::watch::Receiver<bool>),
    /// 302 to this location.
    Redirect(String),
}

/// One request a receiver got.
#[derive(Clone, Debug)]
pub struct Received {
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Received {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }

    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }
}

#[derive(Clone)]
struct Shared {
    behaviour: Behaviour,
    hits: Arc<AtomicUsize>,
    got: Arc<Mutex<Vec<Received>>>,
}

/// A running receiver; it stops when dropped.
pub struct Receiver {
    pub url: String,
    got: Arc<Mutex<Vec<Received>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    pub async fn start(behaviour: Behaviour) -> Receiver {
        let shared = Shared {
            behaviour,
            hits: Arc::default(),
            got: Arc::default(),
        };
        let got = shared.got.clone();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a receiver");
        let url = format!(
            "http://{}/hook?key=receiver-secret",
            listener.local_addr().unwrap()
        );
        let router = Router::new().fallback(receive).with_state(shared);
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Receiver { url, got, task }
    }

    /// What it got so far.
    pub fn got(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }

    /// Waits (at most 10 s of real time) until it has got `n` requests, and returns them.
    pub async fn wait_for(&self, n: usize) -> Vec<Received> {
        eventually(&format!("{n} requests at {}", self.url), || {
            self.got().len() >= n
        })
        .await;
        self.got()
    }
}

async fn receive(State(shared): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    let hit = shared.hits.fetch_add(1, Ordering::SeqCst);
    shared.got.lock().unwrap().push(Received { headers, body });
    match &shared.behaviour {
        Behaviour::Accept => StatusCode::NO_CONTENT.into_response(),
        Behaviour::FailFirst(n) if hit < *n => StatusCode::SERVICE_UNAVAILABLE.into_response(),
        Behaviour::FailFirst(_) => StatusCode::NO_CONTENT.into_response(),
        Behaviour::TooMany { first, retry_after } if hit < *first => (
            StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, retry_after.to_string())],
        )
            .into_response(),
        Behaviour::TooMany { .. } => StatusCode::NO_CONTENT.into_response(),
        Behaviour::Hang => std::future::pending().await,
        Behaviour::Gate(gate) => {
            let mut gate = gate.clone();
            let _ = gate.wait_for(|open| *open).await;
            StatusCode::NO_CONTENT.into_response()
        }
        Behaviour::Redirect(to) => {
            (StatusCode::FOUND, [(header::LOCATION, to.clone())]).into_response()
        }
    }
}

/// A URL on 127.0.0.1 where nothing listens.
pub async fn down_url() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{address}/hook")
}

/// The settings the tests deliver with: loopback allowed (the receivers live there), a short
/// timeout for the slow receiver, links on a made-up public URL.
pub fn settings() -> herald::notify::Settings {
    herald::notify::Settings {
        allow_private: true,
        timeout: Duration::from_secs(1),
        public_url: Some("http://herald.test".into()),
        ..herald::notify::Settings::default()
    }
}

/// Waits until `done` holds, polling; fails the test after 10 s of real time. (This waits for
/// work under way, never for a deadline: the tests move the clock for those.)
pub async fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Gives the worker a moment to do what it should not (used to check nothing more arrives).
pub async fn settle() {
    tokio::time::sleep(Duration::from_millis(300)).await;
}
