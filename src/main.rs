//! Herald's binary: read the configuration, then serve (open the store, migrating it, and serve
//! the app), or run a bot or the load generator against a server.

use clap::Parser;
use herald::config::{Cli, Command, Config, RatingsCommand};
use herald::host::Host;
use herald::store::Store;
use tracing_subscriber::EnvFilter;

/// mimalloc rather than the system allocator: a request allocates many small, short-lived
/// values (JSON, rows, snapshots), and glibc's malloc and free were a fifth of the server's CPU
/// under load (see the README's Performance section).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A block larger than mimalloc's largest size class (512 KiB): it has a page of its own,
/// which goes back to mimalloc's arena the moment it is freed.
const PURGE_NUDGE_BYTES: usize = 1024 * 1024;

/// Lets mimalloc give back to the kernel what the server no longer uses.
///
/// mimalloc purges lazily: a page freed to its arena is due for purging a second later
/// (`purge_delay`), and the purge is done by the next call that frees a page back to the
/// arena, on any thread. A server that falls idle after a crowd makes no such call, so what
/// the crowd's connections and streams had freed stayed resident for good (57 MB after 3,000
/// connections closed). Once a second this allocates and frees one block of its own page,
/// which makes that call: the purges that are due run then. It stands in for `mi_collect`,
/// which only an `unsafe` foreign call reaches; a purge delay of 0 (`MIMALLOC_PURGE_DELAY`)
/// would purge at every free instead, at the cost of a system call each time.
fn spawn_allocator_purge() {
    tokio::spawn(async {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tick.tick().await;
            // black_box: an allocation nobody reads would be optimised away with its free.
            drop(std::hint::black_box(Vec::<u8>::with_capacity(
                PURGE_NUDGE_BYTES,
            )));
        }
    });
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Logs go to standard error, leaving standard output to what a command prints (the load
    // generator's report).
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info")),
        )
        .init();
    match Cli::parse().into_command() {
        Command::Serve(config) => serve(config).await,
        Command::Bot(args) => {
            let played = match args.profile {
                true => herald::bots::profile_bot::run(args).await,
                false => herald::bots::bot::run(args).await,
            };
            if let Err(error) = played {
                // A sentence for the bot's operator, not a debug dump.
                eprintln!("herald bot: {error}");
                std::process::exit(1);
            }
            Ok(())
        }
        Command::Load(args) => herald::bots::load::run(args)
            .await
            .map(drop)
            .map_err(Into::into),
        Command::Verify(args) => std::process::exit(herald::fairness::cli::run(&args)),
        Command::Simulate(args) => std::process::exit(herald::bots::simulate::cli::main(&args)),
        Command::Arena(args) => std::process::exit(herald::bots::arena::cli::main(&args)),
        Command::Ratings(RatingsCommand::Rebuild { database_url }) => {
            let store = Store::connect(&database_url).await?;
            let rebuilt = store.rebuild_ratings().await;
            store.close().await;
            let rebuilt = rebuilt?;
            println!(
                "{} results replayed, {} ratings written, {} differed from the stored ones",
                rebuilt.results, rebuilt.ratings, rebuilt.differing
            );
            Ok(())
        }
        Command::DeadlineBench(args) => herald::deadline_bench::run(args)
            .await
            .map_err(|e| e as Box<dyn std::error::Error>),
    }
}

async fn serve(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    spawn_allocator_purge();
    let store = match Store::connect(&config.database_url).await {
        Ok(store) => store,
        Err(error) => {
            // A sentence for the operator (another process on the SQLite file, a database
            // that cannot be reached), not a debug dump, and a failed exit.
            tracing::error!(%error, "the store could not be opened");
            eprintln!("herald: {error}");
            std::process::exit(1);
        }
    };
    tracing::info!(database = %config.redacted_database_url(), "store ready (migrations applied)");
    let mut options = config.options();
    // A mail relay's URL that does not parse stops the start, rather than mail quietly.
    if let Some(url) = &options.notifications.smtp_url {
        herald::notify::mail::Mailer::new(url, &options.notifications)?;
    }
    options.limits = options.limits.fit_open_files();
    let retention = config.retention();
    tracing::info!(?retention, "retention sweep started");
    herald::store::retention::spawn(store.clone(), retention);
    let listener = tokio::net::TcpListener::bind(config.bind).await?;
    tracing::info!(address = %listener.local_addr()?, limits = ?options.limits, "Herald is listening");
    herald::serve_with(
        listener,
        Host::new(store.clone()),
        options,
        shutdown_signal(),
    )
    .await?;
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
