//! The accept loop: every connection is counted against the cap and watched by its limits
//! ([`connection`]); over the cap, a reserve of connections is still accepted to be told 503,
//! so a full server answers rather than falls silent. A shutdown stops accepting, ends the
//! event streams, lets open requests finish for the drain time, then closes what is left.

mod activity;
mod connection;
pub mod limits;
mod share;

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;

use crate::error::AppError;
use crate::host::Host;
use crate::http::client::Exposure;
use crate::http::rate::RateLimits;
use crate::http::{AppState, Edge, app};
pub use limits::Limits;
use share::Clients;

/// Everything a server is configured with besides its store.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub limits: Limits,
    pub exposure: Exposure,
    pub rates: RateLimits,
    /// Webhooks and mail (`notify/`).
    pub notifications: crate::notify::Settings,
    /// The ladder, when on (`HERALD_LADDER=1`; docs/bots.md, "The ladder").
    pub ladder: Option<crate::host::ladder::LadderSettings>,
}

/// Serves Herald on `listener` with `options` until `shutdown` completes, then drains.
pub async fn serve_with(
    listener: TcpListener,
    host: Host,
    options: Options,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let Options {
        limits,
        exposure,
        rates,
        notifications,
        ladder,
    } = options;
    // Notifications are delivered while this server runs; what was owed when it stopped is
    // picked up again (docs/notifications.md).
    let host = host.with_notifications(notifications.clone());
    let _notifier = crate::notify::worker::spawn_building(host.clone(), notifications);
    // Deadlines fall due while this server runs (and those that fell due while it was down
    // fire at once); the scheduler stops with it.
    let _scheduler = host.spawn_scheduler();
    // The ladder pairs its rounds and this process plays the boss bots while it serves.
    let (host, _ladder, _bosses) = start_ladder(host, ladder).await;
    let (stop_streams, streams_stopped) = watch::channel(false);
    let clients = Arc::new(Clients::new(&limits, exposure.clone(), &rates));
    let router = app(AppState::with_edge(
        host,
        streams_stopped,
        Edge::new(exposure, &rates),
    ));
    let limits = Arc::new(limits);
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let streams = Arc::new(Semaphore::new(
        limits.max_streams.min(Semaphore::MAX_PERMITS),
    ));
    let caps = connection::Caps {
        streams,
        clients: clients.clone(),
    };
    let reserve = Arc::new(Semaphore::new(limits.connection_reserve));
    let (drain, draining) = watch::channel(false);
    let mut connections = JoinSet::new();
    let mut shutdown = pin!(shutdown);
    // Logged once each time the cap is reached, not once per refused connection (a flood
    // must not flood the log too).
    let mut at_cap = false;
    loop {
        tokio::select! {
            biased;
            () = &mut shutdown => break,
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    // A client over its share is refused before it takes a slot, so that it
                    // cannot hold the ones left for the others.
                    let share = match clients.connection(peer.ip()) {
                        Ok(share) => share,
                        Err(_) => {
                            tracing::debug!(%peer, "a client's share of connections reached: answering 503");
                            if let Ok(spare) = reserve.clone().try_acquire_owned() {
                                connections.spawn(connection::refuse(
                                    stream, limits.header_timeout, || AppError::ClientBusy, spare,
                                ));
                            }
                            continue;
                        }
                    };
                    if let Ok(slot) = slots.clone().try_acquire_owned() {
                        at_cap = false;
                        connections.spawn(connection::serve(
                            stream, peer, router.clone(), limits.clone(), draining.clone(),
                            caps.clone(), connection::Held { slot, share },
                        ));
                        continue;
                    }
                    if !at_cap {
                        at_cap = true;
                        tracing::warn!(max = limits.max_connections, "connection cap reached: answering 503 until a connection closes");
                    }
                    if let Ok(spare) = reserve.clone().try_acquire_owned() {
                        connections.spawn(connection::refuse(
                            stream, limits.header_timeout, || AppError::Busy, spare,
                        ));
                    } else {
                        tracing::debug!("connection cap and reserve reached: closing a connection unanswered");
                    }
                }
                // Out of file descriptors or a connection reset before accept: keep serving.
                Err(error) => {
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }
    drop(listener);
    let _ = stop_streams.send(true);
    let _ = drain.send(true);
    let drained = tokio::time::timeout(limits.drain_timeout, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            open = connections.len(),
            "drain time over: closing the connections still open"
        );
        connections.shutdown().await;
    }
    Ok(())
}

/// Turns the ladder on in `host` when `ladder` says so: makes the boss bots (once, whatever
/// the processes), plays them here and starts pairing rounds. A failure to make the bosses
/// is logged and the ladder runs without them.
async fn start_ladder(
    host: Host,
    ladder: Option<crate::host::ladder::LadderSettings>,
) -> (
    Host,
    Option<crate::host::ladder::LadderTask>,
    crate::bots::bosses::BossPlayers,
) {
    let Some(settings) = ladder else {
        return (host, None, crate::bots::bosses::BossPlayers::default());
    };
    let host = host.with_ladder(settings);
    let bosses = match host.ensure_bosses().await {
        Ok(bosses) => crate::bots::bosses::spawn(&host, bosses),
        Err(error) => {
            tracing::error!(%error, "the ladder's boss bots could not be made");
            crate::bots::bosses::BossPlayers::default()
        }
    };
    tracing::info!(?settings, "the ladder is on");
    let task = host.spawn_ladder();
    (host, task, bosses)
}
