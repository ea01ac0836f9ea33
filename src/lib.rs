//! Herald: a host server for play-by-mail games of simultaneous secret orders.
//!
//! Layers, inside out: [`rules`] (pure adjudicators), [`host`] (the game-agnostic lifecycle),
//! [`store`] (SQLite or PostgreSQL), [`http`] (the JSON API), and the binary's `main`.

pub mod bots;
pub mod clock;
pub mod config;
pub mod deadline_bench;
pub mod error;
pub mod host;
pub mod http;
pub mod rules;
pub mod store;

use std::future::Future;

use tokio::net::TcpListener;
use tokio::sync::watch;

pub use http::{AppState, app};

/// Serves Herald on `listener` until `shutdown` completes, then lets open requests finish and
/// ends the event streams.
pub async fn serve(
    listener: TcpListener,
    host: host::Host,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // Deadlines fall due while this server runs (and those that fell due while it was down
    // fire at once); the scheduler stops with it.
    let _scheduler = host.spawn_scheduler();
    let (stop, stopped) = watch::channel(false);
    let router = app(AppState {
        host,
        shutdown: stopped,
    });
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown.await;
            let _ = stop.send(true);
        })
        .await
}
