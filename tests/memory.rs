//! The server's heap, counted: after 10,000 lobbies have each had an event stream and every
//! stream has closed, the bytes allocated are back at the figure from before the streams.
//!
//! A test binary of its own, with one test, because it counts every allocation of the
//! process (through `stats_alloc` as the global allocator): any other test running beside it
//! would blur the figure. It runs on SQLite; the feed it measures is the same on PostgreSQL
//! (and `tests/it/store_memory.rs` counts the feed's entries on both backends).

use std::alloc::System;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use stats_alloc::{INSTRUMENTED_SYSTEM, StatsAlloc};
use tokio::sync::watch;
use tower::ServiceExt;

use herald::host::Host;
use herald::store::Store;
use herald::{AppState, app};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

const LOBBIES: usize = 10_000;

/// Bytes allocated and not yet freed, by the whole process (a reallocation's growth or
/// shrinkage is already counted in these two totals).
fn live_bytes() -> i64 {
    let stats = GLOBAL.stats();
    stats.bytes_allocated as i64 - stats.bytes_deallocated as i64
}

async fn call(router: &axum::Router, request: Request<Body>) -> axum::response::Response {
    router.clone().oneshot(request).await.unwrap()
}

#[tokio::test]
async fn memory_returns_to_its_baseline_after_ten_thousand_lobbies_had_and_closed_streams() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("m.db").display());
    let store = Store::connect(&url).await.unwrap();
    let (_stop, shutdown) = watch::channel(false);
    let router = app(AppState::new(Host::new(store.clone()), shutdown));
    let create = || {
        let body = r#"{"game": "crossing-swords", "name": "Memory"}"#;
        Request::post("/api/v1/lobbies")
            .header("content-type", "application/json")
            .body(Body::from(body))
            .unwrap()
    };
    let mut lobbies = Vec::with_capacity(LOBBIES);
    while lobbies.len() < LOBBIES {
        // A few hundred at a time, so that they share group commits.
        let wave = futures_util::future::join_all((0..250).map(|_| call(&router, create())));
        for response in wave.await {
            assert_eq!(response.status(), StatusCode::CREATED);
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            let created: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            lobbies.push(created["id"].as_str().unwrap().to_string());
        }
    }
    let stream = |lobby: &str| {
        Request::get(format!("/api/v1/lobbies/{lobby}/events"))
            .body(Body::empty())
            .unwrap()
    };
    let open_all = || async {
        let mut open = Vec::with_capacity(LOBBIES);
        for lobby in &lobbies {
            let response = call(&router, stream(lobby)).await;
            assert_eq!(response.status(), StatusCode::OK);
            open.push(response);
        }
        open
    };
    // One crowd of streams comes and goes before the baseline, so that what is measured is
    // what a crowd leaves behind, not first-use growth (the lobby cache filling, the
    // runtime's and the allocator's own tables reaching their working size).
    drop(open_all().await);
    let baseline = live_bytes();

    let open = open_all().await;
    let with_streams = live_bytes();
    assert_eq!(store.feed().lobbies_held(), LOBBIES);
    drop(open);
    let after = live_bytes();
    assert_eq!(store.feed().lobbies_held(), 0);

    let per_stream = (with_streams - baseline) / LOBBIES as i64;
    let left = after - baseline;
    eprintln!(
        "live heap: baseline {baseline} B; {LOBBIES} open streams +{} B ({per_stream} B each); \
         all closed: {left:+} B",
        with_streams - baseline
    );
    // The open streams cost kilobytes each, so the measure can see them; once closed, less
    // than 16 bytes a lobby may stay (allocator-level noise such as a grown buffer), where
    // keeping the feed's channels cost about 6 KB each.
    assert!(per_stream > 1_000, "the measure sees the streams");
    assert!(
        left < 16 * LOBBIES as i64,
        "{left} bytes left behind by {LOBBIES} closed streams"
    );
}
