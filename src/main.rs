//! Herald's binary: read the configuration, then serve (open the store, migrating it, and serve
//! the app), or run a bot or the load generator against a server.

use clap::Parser;
use herald::config::{Cli, Command, Config};
use herald::host::Host;
use herald::store::Store;
use tracing_subscriber::EnvFilter;

/// mimalloc rather than the system allocator: a request allocates many small, short-lived
/// values (JSON, rows, snapshots), and glibc's malloc and free were a fifth of the server's CPU
/// under load (see the README's Performance section).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info")),
        )
        .init();
    let cli = Cli::parse();
    match cli.command {
        None | Some(Command::Serve) => serve(cli.server).await,
        Some(Command::Bot(args)) => Ok(herald::bots::bot::run(args).await?),
        Some(Command::Load(args)) => herald::bots::load::run(args)
            .await
            .map(drop)
            .map_err(Into::into),
        Some(Command::DeadlineBench(args)) => {
            herald::deadline_bench::run(args, &cli.server.database_url)
                .await
                .map_err(|e| e as Box<dyn std::error::Error>)
        }
    }
}

async fn serve(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    let store = Store::connect(&config.database_url).await?;
    tracing::info!(database = %config.redacted_database_url(), "store ready (migrations applied)");
    let listener = tokio::net::TcpListener::bind(config.bind).await?;
    tracing::info!(address = %listener.local_addr()?, "Herald is listening");
    herald::serve(listener, Host::new(store.clone()), shutdown_signal()).await?;
    let (commits, changes) = store.group_commits();
    tracing::info!(commits, changes, "group commits while serving");
    store.close().await;
    tracing::info!("Herald stopped");
    Ok(())
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
    tracing::info!("shutting down: finishing open requests");
}
