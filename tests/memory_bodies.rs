//! The heap around hostile lobby creations: a 3.7 MB body listing 230,000 setup entries is
//! refused with a 413 before it is parsed into a tree, the request allocates a small multiple
//! of its own size (where reading it whole, then copying and re-reading the settings, took
//! over 300 MB), and once it is answered the live heap is back where it was.
//!
//! A test binary of its own, with one test, because it counts every allocation of the process
//! (through `stats_alloc` as the global allocator): a test running beside it would blur the
//! figures. The bodies never reach the store, so SQLite alone shows it.

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

/// The figure the public-server probe sent: 230,000 `setup.players` entries, 3.7 MB.
const ENTRIES: usize = 230_000;

/// Bytes allocated and not yet freed, by the whole process.
fn live_bytes() -> i64 {
    let stats = GLOBAL.stats();
    stats.bytes_allocated as i64 - stats.bytes_deallocated as i64
}

/// Bytes allocated so far, freed or not (a reallocation's growth counts): the most the heap
/// can have grown by over a stretch is what this grew by.
fn allocated_bytes() -> i64 {
    GLOBAL.stats().bytes_allocated as i64
}

/// A Crossing Swords creation whose settings list `ENTRIES` players, with `extra` (`,"fork":
/// ...` or nothing) after the settings.
fn hostile_body(extra: &str) -> String {
    let entry = r#"{"hp":20,"vp":0},"#;
    let mut players = entry.repeat(ENTRIES);
    players.pop();
    format!(
        r#"{{"game":"crossing-swords","name":"Big","settings":{{"setup":{{"players":[{players}]}}}}{extra}}}"#
    )
}

async fn send(router: &axum::Router, body: String) -> (StatusCode, serde_json::Value) {
    let request = Request::post("/api/v1/lobbies")
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap())
}

#[tokio::test]
async fn a_lobby_creation_listing_230000_setup_entries_is_refused_without_growing_the_heap() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("m.db").display());
    let store = Store::connect(&url).await.unwrap();
    let (_stop, shutdown) = watch::channel(false);
    let router = app(AppState::new(Host::new(store), shutdown));
    // One ordinary creation first, so that first-use growth (the runtime's, the pool's, the
    // router's) is not counted against the hostile ones.
    let (status, _) = send(
        &router,
        r#"{"game":"crossing-swords","name":"Warm"}"#.to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);

    // Without a fork, and with a fork whose settings carry the list: neither may be read
    // into a tree.
    let fork = r#","fork":{"archive":{},"round":1}"#;
    for (what, extra) in [("a creation", ""), ("a fork", fork)] {
        let body = hostile_body(extra);
        let size = body.len() as i64;
        assert!(size > 3_600_000, "{size} bytes");
        let live_before = live_bytes();
        let allocated_before = allocated_bytes();
        let (status, error) = send(&router, body).await;
        let allocated = allocated_bytes() - allocated_before;
        let left = live_bytes() - live_before;
        eprintln!(
            "{what}: a {size} B body: {status}, allocated {allocated} B while served, \
             {left:+} B live after"
        );
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{what}: {error}");
        assert_eq!(error["error"]["code"], "body-too-large", "{what}: {error}");
        // The body itself is in the request already; reading it may copy it once or twice
        // (chunks into one buffer), but no tree of 230,000 entries is built.
        assert!(
            allocated < 4 * size,
            "{what}: {allocated} bytes allocated for a {size} byte body"
        );
        // The body was the test's, and is gone with the request: the heap is back (a
        // grown buffer of the runtime's may stay).
        assert!(left < 256 * 1024, "{what}: {left} bytes stayed");
    }
}
