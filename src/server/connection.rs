//! One client connection: HTTP/1.1 served by hyper, watched so that no client holds it
//! longer than the limits allow.
//!
//! The watch knows three phases from two cheap signals (the socket's reads and the requests
//! the service sees): waiting for a request (closed after the idle timeout), receiving a
//! request's head (closed after the header timeout, counted from its first byte), and serving
//! a request (bounded by the body deadline while its body arrives; a response that streams,
//! such as an event stream, is exempt). The deadline is checked by the connection's own task,
//! so a watched connection costs no extra task and no allocation per request.

use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
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
            async move {
                let response = router.call(request).await?;
                Ok::<_, std::convert::Infallible>(response.map(|body| Tracked {
                    body,
                    activity: tracked,
                }))
            }
        })
    };
    let mut builder = http1::Builder::new();
    builder.header_read_timeout(None);
    let mut connection = pin!(builder.serve_connection(io, service));
    let mut draining = false;
    let mut timer = pin!(tokio::time::sleep(limits.idle_timeout));
    loop {
        let deadline = activity.deadline(&limits);
        if let Some(deadline) = deadline
            && deadline != timer.deadline()
        {
            timer.as_mut().reset(deadline);
        }
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(error) = result {
                    tracing::debug!(%error, "connection ended with an error");
                }
                return;
            }
            () = timer.as_mut() => match activity.deadline(&limits) {
                Some(deadline) if deadline <= Instant::now() => {
                    tracing::debug!("closing a connection that was idle or slow too long");
                    return;
                }
                Some(_) => {}
                // Serving: look again after an idle period (a stream is exempt).
                None => timer.as_mut().reset(Instant::now() + limits.idle_timeout),
            },
            () = activity.changed.notified() => {}
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
