//! Herald: a host server for play-by-mail games of simultaneous secret orders.
//!
//! Layers, from the ground up (docs/architecture.md): [`rules`] (pure adjudicators, beside
//! [`clock`], [`events`] and [`tls`]), [`games`], [`fairness`], [`store`] (SQLite or
//! PostgreSQL), [`error`], [`host`] (the game-agnostic lifecycle, the only room that holds the
//! store), [`notify`] and [`bots`], [`http`] (the JSON API and the pages), [`server`], then
//! [`config`], this crate root and the binary's `main`.

pub mod bots;
pub mod clock;
pub mod config;
pub mod deadline_bench;
pub mod error;
pub mod events;
pub mod fairness;
pub mod games;
pub mod host;
pub mod http;
pub mod notify;
pub mod ratings;
pub mod rules;
pub mod server;
pub mod store;
pub mod tls;

use std::future::Future;

use tokio::net::TcpListener;

pub use http::{AppState, app};
pub use server::{Limits, Options, serve_with};

/// Serves Herald on `listener` with the default limits (those of a public server) until
/// `shutdown` completes, then lets open requests finish for the drain time and ends the
/// event streams.
pub async fn serve(
    listener: TcpListener,
    host: host::Host,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with(listener, host, Options::default(), shutdown).await
}
