//! One client connection: HTTP/1.1 served by hyper, watched so that no client holds it
//! longer than the limits allow.
//!
//! The watch knows three phases from two cheap signals (the socket's reads and the requests
//! the service sees): waiting for a request (closed after the idle timeout), receiving a
//! request's head (closed after the header timeout, counted from its first byte), and serving
//! a request (bounded by the body deadline while its body arrives; a response that streams,
//! such as an event stream, is exempt). The deadline is checked by the connection's own task
//! on a timer, so a watched connection costs no extra task, no allocation and no wake-up per
//! request: the signals are a few atomic stores.

use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use futures_util::future::BoxFuture;
use hyper::body::Body as _;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::sync::{OwnedSemaphorePermit, watch};
use tokio::time::Instant;
use tower::Service;
use tower_http::timeout::DeadlineBody;

use super::activity::{Activity, Tracked, Watched};
use super::limits::Limits;

/// Serves one connection until the client closes it, a limit closes it, or the drain ends.
pub async fn serve(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    limits: Arc<Limits>,
    mut drain: watch::Receiver<bool>,
    _slot: OwnedSemaphorePermit,
) {
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Watched {
        stream,
        activity: activity.clone(),
    });
    let body_timeout = limits.body_timeout;
    let service = {
        let activity = activity.clone();
        service_fn(move |request: hyper::Request<Incoming>| {
            activity.begin();
            let tracked = activity.clone();
            let mut request = request.map(|incoming| {
                if incoming.is_end_stream() {
                    Body::new(incoming)
                } else {
                    Body::new(DeadlineBody::new(body_timeout, incoming))
                }
            });
            request.extensions_mut().insert(ConnectInfo(peer));
            let mut router = router.clone();
            // Boxed: hyper keeps room for one service future per connection for as long as
            // the connection lives, so a connection that streams or waits would otherwise hold
            // a whole request's future. Boxed, it holds a pointer, and the request's future
            // is freed as soon as the response is ready.
            let future: BoxFuture<'static, Result<_, std::convert::Infallible>> =
                Box::pin(async move {
                    let response = router.call(request).await?;
                    Ok(response.map(|body| Tracked {
                        body,
                        activity: tracked,
                    }))
                });
            future
        })
    };
    let mut builder = http1::Builder::new();
    builder.header_read_timeout(None);
    let mut connection = pin!(builder.serve_connection(io, service));
    let mut draining = false;
    // The watch looks at the connection at least once a `period` and then sleeps until the
    // exact deadline it finds. A phase begins (a head's first byte, a response's end) at most
    // `period` before it is seen, and `period` is no longer than either timeout, so every
    // deadline is still ahead when it is seen and is kept to the millisecond, while a request
    // costs the watch nothing: no wake-up, no timer to move.
    let period = limits.header_timeout.min(limits.idle_timeout);
    let mut timer = pin!(tokio::time::sleep(period));
    loop {
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(error) = result {
                    tracing::debug!(%error, "connection ended with an error");
                }
                return;
            }
            () = timer.as_mut() => {
                let now = Instant::now();
                match activity.deadline(&limits) {
                    Some(deadline) if deadline <= now => {
                        tracing::debug!("closing a connection that was idle or slow too long");
                        return;
                    }
                    Some(deadline) => timer.as_mut().reset(deadline.min(now + period)),
                    // Serving (a stream is exempt): look again after a period.
                    None => timer.as_mut().reset(now + period),
                }
            }
            _ = drain.changed(), if !draining => {
                draining = true;
                connection.as_mut().graceful_shutdown();
            }
        }
    }
}

/// Answers a connection over the cap: reads one request head, answers 503 (JSON or an HTML
/// page, by the request's path) and closes. The head must arrive within the header timeout.
pub async fn refuse(stream: TcpStream, header_timeout: Duration, _reserve: OwnedSemaphorePermit) {
    let service = service_fn(|request: hyper::Request<Incoming>| async move {
        let response = crate::http::boundary::busy(request.uri().path());
        Ok::<_, std::convert::Infallible>(response)
    });
    let mut builder = http1::Builder::new();
    builder.header_read_timeout(None).keep_alive(false);
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    let _ = tokio::time::timeout(header_timeout, connection).await;
}
