//! The lobby page's weight over a long game (docs/performance.md, "Page weight"): a
//! sixteen-player Crossing Swords game played through the API to round 60; the lobby page is
//! measured at round 6 and at round 60 (bytes, gzipped bytes, render time). It must weigh
//! about the same at both (the older rounds are on a page of their own), and a client that
//! accepts gzip gets it gzipped.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use serde_json::json;

use crate::pages_client::Visitor;
use crate::support::{TestApp, sqlite_app};

const PLAYERS: usize = 16;

/// Plays round `round`: every player alive answers from their own prompt, striking the next
/// player on even rounds and mending themselves on odd ones, so that nobody falls before 60.
async fn play_round(app: &TestApp, lobby: &str, seats: &[(String, String)], round: u64) {
    for (i, (me, token)) in seats.iter().enumerate() {
        let view = app
            .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(token))
            .await;
        let prompt = &view.body["prompt"];
        if prompt.is_null() {
            continue;
        }
        let (mv, target) = match round % 2 {
            0 => ("strike", seats[(i + 1) % seats.len()].0.as_str()),
            _ => ("mend", me.as_str()),
        };
        let reply = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/orders"),
                Some(token),
                json!({"round": round, "step": "orders", "move": mv, "target": target}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
    }
    let lobby_view = app.get(&format!("/api/v1/lobbies/{lobby}"), None).await;
    assert!(
        lobby_view.body["round"].as_u64() > Some(round) || lobby_view.body["status"] == "finished",
        "round {round} did not resolve: {}",
        lobby_view.text
    );
}

/// What one lobby page weighs: its size, what a client that accepts gzip receives (and
/// whether it came gzipped), and the median time to render it over five loads.
#[derive(Clone, Copy, Debug)]
struct Weight {
    bytes: usize,
    sent: usize,
    gzipped: bool,
    render: Duration,
}

async fn weigh(app: &TestApp, lobby: &str) -> Weight {
    let path = format!("/lobbies/{lobby}");
    let mut plain = Visitor::new(app);
    let mut times = Vec::new();
    let mut bytes = 0;
    for _ in 0..5 {
        let started = Instant::now();
        let page = plain.get(&path).await;
        times.push(started.elapsed());
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.headers.get("content-encoding").is_none());
        bytes = page.html.len();
    }
    times.sort();
    let mut gzip = Visitor::new(app);
    gzip.extra.push(("accept-encoding", "gzip".into()));
    let packed = gzip.request(axum::http::Method::GET, &path, None).await;
    let gzipped = packed
        .headers
        .get("content-encoding")
        .is_some_and(|v| v.as_bytes() == b"gzip");
    // The body was read as text; its length in bytes is what came over the wire (lossy
    // decoding of gzip can only lengthen it, so read the declared length when there is one).
    let sent = packed
        .headers
        .get("content-length")
        .and_then(|v| v.to_str().ok()?.parse().ok())
        .unwrap_or(packed.html.len());
    Weight {
        bytes,
        sent,
        gzipped,
        render: times[2],
    }
}

#[tokio::test]
async fn the_lobby_page_weighs_the_same_at_round_60_as_at_round_6() {
    let app = sqlite_app().await;
    let (lobby, host) = app
        .create_lobby(
            "crossing-swords",
            json!({"max_players": PLAYERS, "max_rounds": 60}),
        )
        .await;
    let mut seats = Vec::new();
    for i in 0..PLAYERS {
        let name = format!("Player number {i:02} of the long game");
        seats.push(app.join(&lobby, json!({"name": name})).await);
    }
    app.start(&lobby, &host).await;
    let mut at = Vec::new();
    for round in 1..=60u64 {
        play_round(&app, &lobby, &seats, round).await;
        if round == 6 || round == 60 {
            at.push((round, weigh(&app, &lobby).await));
        }
    }
    for (round, w) in &at {
        eprintln!(
            "lobby page at round {round}: {} bytes, {} sent to a gzip client{}, rendered in {:?}",
            w.bytes,
            w.sent,
            if w.gzipped { " (gzipped)" } else { "" },
            w.render
        );
    }
    let (six, sixty) = (at[0].1, at[1].1);
    assert!(
        sixty.bytes * 10 < six.bytes * 13,
        "the page grows with the rounds: {} bytes at round 6, {} at round 60",
        six.bytes,
        sixty.bytes
    );
    assert!(
        six.gzipped && sixty.gzipped && six.sent * 3 < six.bytes,
        "the page is sent gzipped to a client that accepts it: {six:?}"
    );
    // Every round is still one link away.
    let rounds = Visitor::new(&app)
        .get(&format!("/lobbies/{lobby}/rounds"))
        .await;
    assert_eq!(rounds.status, StatusCode::OK);
    for round in [1, 30, 60] {
        assert!(
            rounds
                .html
                .contains(&format!("href=\"/lobbies/{lobby}/rounds/{round}\"")),
            "round {round} is listed"
        );
    }
}
