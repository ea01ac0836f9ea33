//! A corrupt stored row is a fault of ours, not of the request that met it: the client gets a
//! 500 JSON error (no detail), and the log line carries the cause (the table, the column, the
//! value), on both backends, on reads and on writes.

use std::io::Write;
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use serde_json::json;
use tracing_subscriber::fmt::MakeWriter;

use crate::support::{TestApp, apps};

/// The log lines written while a test holds [`Captured::install`]'s guard.
#[derive(Clone, Default)]
pub(crate) struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Captured {
    type Writer = Captured;
    fn make_writer(&'a self) -> Captured {
        self.clone()
    }
}

impl Captured {
    /// Logs of this thread (the test's runtime runs the handlers on it) go here until the
    /// guard drops.
    fn install(&self) -> tracing::subscriber::DefaultGuard {
        let subscriber = tracing_subscriber::fmt()
            .with_writer(self.clone())
            .with_ansi(false)
            .finish();
        tracing::subscriber::set_default(subscriber)
    }

    /// [`Captured::install`], with every level down to trace.
    pub(crate) fn install_trace(&self) -> tracing::subscriber::DefaultGuard {
        let subscriber = tracing_subscriber::fmt()
            .with_writer(self.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::TRACE)
            .finish();
        tracing::subscriber::set_default(subscriber)
    }

    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// Sets `column` of the lobby's row to `value` behind the server's back, moving its version
/// so that the server's cache does not hide the damage.
async fn corrupt(app: &TestApp, lobby: &str, column: &str, value: &str) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.url).await.unwrap();
    let sql = format!("UPDATE lobbies SET {column} = $1, version = version + 1 WHERE id = $2");
    let updated = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(value)
        .bind(lobby)
        .execute(&pool)
        .await
        .unwrap()
        .rows_affected();
    assert_eq!(updated, 1);
    pool.close().await;
}

/// The reply is a 500 with the house's JSON error and no detail of the cause; the log line
/// names the cause.
fn assert_internal(app: &TestApp, reply: &crate::support::Reply, log: &str, cause: &[&str]) {
    let b = app.backend;
    assert_eq!(
        reply.status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "{b}: {}",
        reply.text
    );
    assert_eq!(reply.code(), "internal", "{b}: {}", reply.text);
    for word in cause {
        assert!(
            !reply.text.contains(word),
            "{b}: the reply shows the detail {word:?}: {}",
            reply.text
        );
        assert!(
            log.lines()
                .any(|line| line.contains("ERROR") && line.contains(word)),
            "{b}: no error log line names {word:?}:\n{log}"
        );
    }
}

#[tokio::test]
async fn a_corrupt_lobby_status_is_a_500_with_its_cause_in_the_log_on_read_and_write() {
    for app in apps().await {
        let (lobby, _host) = app.create_lobby("crossing-swords", json!({})).await;
        corrupt(&app, &lobby, "status", "on-fire").await;
        let captured = Captured::default();
        let guard = captured.install();
        let read = app.get(&format!("/api/v1/lobbies/{lobby}"), None).await;
        let join = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/players"),
                None,
                json!({"name": "Ada"}),
            )
            .await;
        drop(guard);
        let log = captured.text();
        let cause = ["lobbies", "status", "on-fire"];
        assert_internal(&app, &read, &log, &cause);
        assert_internal(&app, &join, &log, &cause);
    }
}

#[tokio::test]
async fn a_lobby_of_an_unknown_stored_game_is_a_500_not_a_refusal() {
    for app in apps().await {
        let (lobby, _host) = app.create_lobby("crossing-swords", json!({})).await;
        corrupt(&app, &lobby, "game", "tiddlywinks").await;
        let captured = Captured::default();
        let guard = captured.install();
        let read = app.get(&format!("/api/v1/lobbies/{lobby}"), None).await;
        drop(guard);
        assert_internal(&app, &read, &captured.text(), &["tiddlywinks"]);
    }
}
