//! Commit-to-delivery latency across processes on PostgreSQL (LISTEN/NOTIFY, `docs/store.md`):
//!
//!     cargo run --release --example listen_latency -- DATABASE_URL [ROUNDS]
//!
//! DATABASE_URL names an existing PostgreSQL database (it gets Herald's tables). Two servers
//! open it, each with its own pool and listener as two processes would have (both in this
//! process, driven in-process without HTTP sockets). A 2-player Crossing Swords game of ROUNDS
//! rounds (default 300, at most 1000) is played on server B, and each lobby's public stream is
//! held on both servers. For every round it times the `step-resolved` event's arrival:
//! - on B's own stream, which its writer publishes right after the commit (the commit);
//! - on A's stream, which hears of it only through B's announcement (the delivery);
//! - from the sending of the order that resolves the step (an upper bound: it includes that
//!   order's request and commit).
//!
//! Prints p50, p99 and the maximum of each, over all rounds but the first ten (warm-up).

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};
use tower::ServiceExt;

use herald::host::Host;
use herald::store::Store;
use herald::{AppState, app};

const WARM_UP: usize = 10;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let Some(url) = args.next() else {
        eprintln!("usage: listen_latency DATABASE_URL [ROUNDS]");
        std::process::exit(2);
    };
    let rounds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(300);
    let (_stop, stopped) = watch::channel(false);
    let server = |store: Store| app(AppState::new(Host::new(store), stopped.clone()));
    let a = server(Store::connect(&url).await.expect("server A"));
    let b = server(Store::connect(&url).await.expect("server B"));

    let lobby = send(
        &b,
        "/api/v1/lobbies",
        None,
        json!({"game": "crossing-swords", "name": "Latency", "settings": {"max_rounds": rounds}}),
    )
    .await;
    let (id, host) = (
        lobby["id"].as_str().unwrap().to_string(),
        lobby["host_token"].as_str().unwrap().to_string(),
    );
    let mut players = Vec::new();
    for name in ["Ann", "Bob"] {
        let joined = send(
            &b,
            &format!("/api/v1/lobbies/{id}/players"),
            None,
            json!({"name": name}),
        )
        .await;
        players.push((
            joined["player_id"].as_str().unwrap().to_string(),
            joined["player_token"].as_str().unwrap().to_string(),
        ));
    }
    let mut on_a = resolutions(&a, &id).await;
    let mut on_b = resolutions(&b, &id).await;
    send(
        &b,
        &format!("/api/v1/lobbies/{id}/start"),
        Some(&host),
        json!({}),
    )
    .await;

    let (mut commit_to_a, mut sent_to_a, mut sent_to_b) = (Vec::new(), Vec::new(), Vec::new());
    for round in 1..=rounds {
        let mut sent = Instant::now();
        for (seat, (_, token)) in players.iter().enumerate() {
            let order = json!({"round": round, "step": "orders", "move": "block", "target": players[1 - seat].0});
            sent = Instant::now();
            send(
                &b,
                &format!("/api/v1/lobbies/{id}/orders"),
                Some(token),
                order,
            )
            .await;
        }
        let (at_a, at_b) = (next(&mut on_a).await, next(&mut on_b).await);
        commit_to_a.push(at_a.saturating_duration_since(at_b));
        sent_to_a.push(at_a - sent);
        sent_to_b.push(at_b - sent);
    }
    let measured = rounds as usize - WARM_UP.min(rounds as usize);
    println!("{measured} rounds measured (of {rounds}; the first {WARM_UP} are warm-up)");
    for (what, mut times) in [
        ("commit (B's stream) to delivery on A", commit_to_a),
        ("order sent to delivery on A", sent_to_a),
        ("order sent to B's own stream", sent_to_b),
    ] {
        let mut times = times.split_off(WARM_UP.min(times.len()));
        times.sort();
        let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
        println!(
            "{what}: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(at(0.50)),
            ms(at(0.99)),
            ms(*times.last().unwrap())
        );
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Sends a JSON request; panics unless it succeeds. Its JSON answer.
async fn send(server: &Router, path: &str, token: Option<&str>, body: Value) -> Value {
    let mut request = Request::post(path).header(header::CONTENT_TYPE, "application/json");
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let response = server
        .clone()
        .oneshot(request.body(Body::from(body.to_string())).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    assert!(
        status.is_success(),
        "{path}: {status} {}",
        String::from_utf8_lossy(&bytes)
    );
    serde_json::from_slice(&bytes).unwrap_or(Value::Null)
}

/// The arrival times of the lobby's `step-resolved` events on `server`'s public stream.
async fn resolutions(server: &Router, lobby: &str) -> mpsc::UnboundedReceiver<Instant> {
    let request = Request::get(format!(
        "/api/v1/lobbies/{lobby}/events?events=step-resolved"
    ));
    let response = server
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let mut body = response.into_body();
    let (tell, arrivals) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut buffer = String::new();
        while let Some(Ok(frame)) = body.frame().await {
            let at = Instant::now();
            if let Ok(data) = frame.into_data() {
                buffer.push_str(&String::from_utf8_lossy(&data));
            }
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                if herald::bots::client::parse_block(&block).is_some() {
                    let _ = tell.send(at);
                }
            }
        }
    });
    arrivals
}

async fn next(arrivals: &mut mpsc::UnboundedReceiver<Instant>) -> Instant {
    tokio::time::timeout(Duration::from_secs(60), arrivals.recv())
        .await
        .expect("a resolution within a minute")
        .expect("the stream goes on")
}
