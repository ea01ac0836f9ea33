//! PostgreSQL that goes silent (docs/scale-out.md, "PostgreSQL restarts or fails over"): a
//! request waits for the database at most the store's configured wait, all its waits together,
//! and is then answered `503 database-unavailable`; never a request that hangs on a pooled
//! connection whose database stopped answering, or that adds one wait to another.
//!
//! Shown through a loopback relay in front of the test's PostgreSQL that the test silences: it
//! stops passing bytes on the connections it holds and accepts new ones without answering,
//! as a database host cut off from the network would. PostgreSQL only.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use herald::clock::Clock;
use herald::error::AppError;
use herald::store::{Change, Store, TransactError};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::server_limits::PATIENCE;
use crate::support::{POSTGRES_ENV, announce_postgres_skip, postgres_app};

/// A TCP relay to `upstream` that can be silenced.
struct Relay {
    address: SocketAddr,
    silent: Arc<AtomicBool>,
}

impl Relay {
    async fn start(upstream: SocketAddr) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let silent = Arc::new(AtomicBool::new(false));
        let quiet = silent.clone();
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((client, _)) = listener.accept().await {
                if quiet.load(Ordering::SeqCst) {
                    // Accepted, never answered.
                    held.push(client);
                    continue;
                }
                let Ok(server) = TcpStream::connect(upstream).await else {
                    continue;
                };
                let (client_read, client_write) = client.into_split();
                let (server_read, server_write) = server.into_split();
                tokio::spawn(pass(client_read, server_write, quiet.clone()));
                tokio::spawn(pass(server_read, client_write, quiet.clone()));
            }
        });
        Relay { address, silent }
    }

    fn silence(&self) {
        self.silent.store(true, Ordering::SeqCst);
    }
}

/// Copies `from` to `to` until silenced; then holds both ends open, passing nothing.
async fn pass(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    silent: Arc<AtomicBool>,
) {
    let mut buffer = vec![0u8; 16 * 1024];
    loop {
        let Ok(n) = from.read(&mut buffer).await else {
            return;
        };
        if n == 0 {
            return;
        }
        if silent.load(Ordering::SeqCst) {
            std::future::pending::<()>().await;
        }
        if to.write_all(&buffer[..n]).await.is_err() {
            return;
        }
    }
}

/// The address of the database `url` names.
fn upstream(url: &str) -> SocketAddr {
    use std::net::ToSocketAddrs;
    let parsed = url::Url::parse(url).unwrap();
    let host = parsed.host_str().unwrap().to_owned();
    let port = parsed.port().unwrap_or(5432);
    (host.as_str(), port)
        .to_socket_addrs()
        .unwrap()
        .next()
        .unwrap()
}

/// The database URL `url`, reached through `relay` instead.
fn through(url: &str, relay: &Relay) -> String {
    let mut parsed = url::Url::parse(url).unwrap();
    parsed.set_host(Some("127.0.0.1")).unwrap();
    parsed.set_port(Some(relay.address.port())).unwrap();
    parsed.to_string()
}

/// The error of a store call that had to give up: the database is unavailable (a 503
/// `database-unavailable` at the boundary), and it says it waited the configured `wait`.
fn assert_gave_up(error: herald::store::StoreError, wait: Duration, what: &str) {
    assert!(error.is_unavailable(), "{what}: {error}");
    assert!(
        error.to_string().contains(&format!("{wait:?}")),
        "{what}: the configured wait is what was applied: {error}"
    );
    let answer = AppError::from(error);
    assert_eq!(
        (answer.status().as_u16(), answer.code()),
        (503, "database-unavailable"),
        "{what}"
    );
}

#[tokio::test]
async fn on_postgres_a_request_waits_no_longer_than_the_stores_wait_when_the_database_goes_silent()
{
    let Some(admin) = std::env::var(POSTGRES_ENV).ok() else {
        announce_postgres_skip();
        return;
    };
    let app = postgres_app(&admin).await;
    let (lobby, _host) = app.create_lobby("crossing-swords", json!({})).await;
    let id = lobby.parse().unwrap();
    let relay = Relay::start(upstream(&app.url)).await;
    let url = through(&app.url, &relay);
    let wait = Duration::from_millis(400);
    let store = Store::connect_with(&url, Clock::system(), wait)
        .await
        .expect("a store through the relay");
    assert!(
        store.snapshot(id).await.unwrap().is_some(),
        "reads pass through the relay"
    );

    relay.silence();
    // The PATIENCE guards only keep a broken bound from hanging the run; what is asserted is
    // the error.
    // The guard only keeps a broken bound from hanging the run; what is asserted is the error.
    let read = tokio::time::timeout(PATIENCE, store.snapshot(id))
        .await
        .unwrap_or_else(|_| panic!("a read: still waiting after {PATIENCE:?}"));
    assert_gave_up(read.unwrap_err(), wait, "a read");
    // A write, and another queued behind it on the same writer, each give up on their own
    // wait rather than the second adding its wait to the first's.
    let write = |store: Store| async move {
        store
            .transact(id, |_| Ok::<_, ()>((Change::default(), ())))
            .await
    };
    let (first, second) = tokio::join!(
        tokio::time::timeout(PATIENCE, write(store.clone())),
        tokio::time::timeout(PATIENCE, write(store.clone())),
    );
    for (what, written) in [("a write", first), ("a write queued behind it", second)] {
        match written.unwrap_or_else(|_| panic!("{what}: still waiting after {PATIENCE:?}")) {
            Err(TransactError::Database(error)) => assert_gave_up(error, wait, what),
            other => panic!("{what}: {other:?}"),
        }
    }
}
