//! A full disk (docs/store.md, "Errors"): the server binary on a SQLite file in a small tmpfs
//! the test mounts answers every write `503 storage-full` with `Retry-After` while the disk is
//! full, writes nothing of what it refused, logs the condition once per interval rather than
//! once per request, and accepts orders again as soon as space is freed.
//!
//! Mounting a tmpfs needs root (as the test machine runs); elsewhere the test says it is
//! skipped, as the PostgreSQL runs do without their database.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::server_binary::start_binary_in;
use crate::server_limits::PATIENCE;

/// A tmpfs of a few megabytes mounted over a directory, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(at: &Path) -> Option<Tmpfs> {
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=4m", "herald-test-full"])
            .arg(at)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        mounted.then(|| Tmpfs(at.to_owned()))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Fills the filesystem at `dir` to its last byte with one file, whose path it returns.
fn fill(dir: &Path) -> PathBuf {
    let path = dir.join("filler");
    let mut file = std::fs::File::create(&path).unwrap();
    for chunk in [65_536, 4_096, 512, 1] {
        let block = vec![0u8; chunk];
        while file.write_all(&block).is_ok() {}
    }
    let _ = file.sync_all();
    path
}

fn client() -> reqwest::Client {
    herald::notify::install_crypto_provider();
    reqwest::Client::new()
}

async fn post(base: &str, path: &str, token: Option<&str>, body: Value) -> reqwest::Response {
    let mut request = client().post(format!("{base}{path}")).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

async fn created(response: reqwest::Response, what: &str) -> Value {
    assert_eq!(response.status(), StatusCode::CREATED, "{what}");
    response.json().await.unwrap()
}

/// The reply is the 503 of a full storage, in the house's JSON, with a `Retry-After`.
async fn assert_storage_full(response: reqwest::Response, what: &str) {
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE, "{what}");
    assert!(
        response.headers().contains_key("retry-after"),
        "{what}: Retry-After"
    );
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "storage-full", "{what}: {body}");
}

#[tokio::test]
async fn a_full_disk_is_a_503_storage_full_logged_once_and_orders_resume_once_space_returns() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let Some(_tmpfs) = Tmpfs::mount(dir.path()) else {
        eprintln!("NOTE: cannot mount a tmpfs (not root?): the full-disk test is SKIPPED.");
        return;
    };
    let mut server = start_binary_in(dir.clone(), &[]);
    let base = format!("http://{}", server.address);

    let duel = created(
        post(
            &base,
            "/api/v1/lobbies",
            None,
            json!({"game": "crossing-swords", "name": "Duel"}),
        )
        .await,
        "create the duel",
    )
    .await;
    let lobby = duel["id"].as_str().unwrap().to_owned();
    let mut players = Vec::new();
    for name in ["Ann", "Bob"] {
        let joined = created(
            post(
                &base,
                &format!("/api/v1/lobbies/{lobby}/players"),
                None,
                json!({"name": name}),
            )
            .await,
            "join",
        )
        .await;
        players.push((
            joined["player_id"].as_str().unwrap().to_owned(),
            joined["player_token"].as_str().unwrap().to_owned(),
        ));
    }
    let start = post(
        &base,
        &format!("/api/v1/lobbies/{lobby}/start"),
        duel["host_token"].as_str(),
        json!({}),
    )
    .await;
    assert_eq!(start.status(), StatusCode::OK);
    let waiting = created(
        post(
            &base,
            "/api/v1/lobbies",
            None,
            json!({"game": "crossing-swords", "name": "Waiting"}),
        )
        .await,
        "create the second lobby",
    )
    .await;
    let waiting = waiting["id"].as_str().unwrap().to_owned();
    // Ann's order replaces her pending one until Bob's resolves the round, so she can send it
    // as often as the test needs.
    let (ann, bob) = (&players[0].1, &players[1].0);
    let order_path = format!("/api/v1/lobbies/{lobby}/orders");
    let order = json!({"round": 1, "step": "orders", "move": "strike", "target": bob});

    let filler = fill(dir.path());
    // The WAL file still has room it allocated before; orders are accepted until a commit
    // needs more.
    let mut accepted_while_filling = 0;
    let first_refusal = loop {
        let reply = post(&base, &order_path, Some(ann), order.clone()).await;
        match reply.status() {
            StatusCode::ACCEPTED => accepted_while_filling += 1,
            _ => break reply,
        }
        assert!(
            accepted_while_filling < 5_000,
            "no order was refused on a full disk"
        );
    };
    assert_storage_full(first_refusal, "the first order refused").await;
    let full_since = Instant::now();
    const REFUSED: usize = 200;
    for _ in 0..REFUSED {
        let reply = post(&base, &order_path, Some(ann), order.clone()).await;
        assert_storage_full(reply, "an order on the full disk").await;
    }
    // A new lobby and a join (each written in a savepoint of its own) are refused the same way.
    let create = post(
        &base,
        "/api/v1/lobbies",
        None,
        json!({"game": "crossing-swords", "name": "Never stored"}),
    )
    .await;
    assert_storage_full(create, "a lobby created on the full disk").await;
    let join = post(
        &base,
        &format!("/api/v1/lobbies/{waiting}/players"),
        None,
        json!({"name": "Cyd"}),
    )
    .await;
    assert_storage_full(join, "a join on the full disk").await;
    let full_for = full_since.elapsed();

    std::fs::remove_file(&filler).unwrap();
    let reply = post(&base, &order_path, Some(ann), order.clone()).await;
    assert_eq!(
        reply.status(),
        StatusCode::ACCEPTED,
        "an order once space is freed: {}",
        reply.text().await.unwrap()
    );
    // Nothing of what was refused was written.
    let lobbies = client()
        .get(format!("{base}/api/v1/lobbies"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!lobbies.contains("Never stored"), "{lobbies}");
    let view = client()
        .get(format!("{base}/api/v1/lobbies/{waiting}"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!view.contains("Cyd"), "{view}");

    // Stopped, so that every line it logged has been read.
    let stopped = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(stopped.success());
    let deadline = Instant::now() + PATIENCE;
    while server.child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "Herald did not stop");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let log: Vec<String> = server.lines.iter().collect();
    let loud: Vec<&String> = log
        .iter()
        .filter(|line| line.contains("ERROR") || line.contains("WARN"))
        .collect();
    // One report per interval (60 s) the disk was full, however many requests it refused.
    let allowed = 1 + (full_for.as_secs() / herald::store::STORAGE_FULL_REPORT_EVERY.as_secs());
    assert!(
        !loud.is_empty() && loud.len() as u64 <= allowed,
        "{} warning or error lines for {} refusals in {full_for:?} (at most {allowed}):\n{}",
        loud.len(),
        REFUSED + 3,
        loud.iter()
            .take(12)
            .map(|l| l.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        loud.iter()
            .all(|line| line.contains("storage is full")
                && line.contains("database or disk is full")),
        "the report says what is full and the database's own words: {loud:#?}"
    );
}
