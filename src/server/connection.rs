//! One client connection: HTTP/1.1, or HTTP/2 for a client that says so with its first bytes
//! (h2c with prior knowledge), served by hyper and watched so that no client holds it longer
//! than the limits allow.
//!
//! The watch knows three phases from two cheap signals (the socket's reads and the requests
//! the service sees): waiting for a request (closed after the idle timeout), receiving a
//! request's head (closed after the header timeout, counted from its first byte; over HTTP/1
//! with a `408 head-timeout` first), and serving
//! a request (bounded by the body deadline while its body arrives; a response that streams,
//! such as an event stream, is exempt). In every phase, a client that stops taking what it is
//! sent is closed after the write timeout: a write that finds the socket full starts it, and
//! over HTTP/2 so does a response that handed data over and was not asked for more (its
//! stream has no window). The deadline is checked by the connection's own task
//! on a timer, so a watched connection costs no extra task, no allocation and no wake-up per
//! request: the signals are a few atomic stores.
//!
//! Over HTTP/2 the requests in flight are the connection's open streams: it is idle while
//! none is open, and closed (after a GOAWAY) once idle for the idle timeout. Its first request
//! must come within the header timeout of its first byte; later frames between requests
//! (pings, window updates) are not request heads and start no header timeout. A header block
//! that never ends is bounded by h2's header-size limit and, with no stream open, by the idle
//! timeout.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use futures_util::future::BoxFuture;
use hyper::body::Body as _;
use hyper::body::Incoming;
use hyper::server::conn::{http1, http2};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::time::Instant;
use tower::Service;
use tower_http::timeout::DeadlineBody;

use super::activity::{Activity, Expiry, Tracked, Watched};
use super::limits::Limits;
use super::share::{Clients, Share};
use crate::error::AppError;

/// What an HTTP/2 client with prior knowledge sends first (RFC 9113, section 3.4).
const PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Streams one HTTP/2 connection may have open at once. A bot host multiplexes its bots'
/// event streams, 256 to a connection, and opens more connections for more bots (each
/// counted against the connection cap). All connections together hold at most `max_streams`
/// streams (a flag), a few kilobytes each (docs/performance.md).
pub const MAX_CONCURRENT_STREAMS: u32 = 256;

/// The largest request header block HTTP/2 accepts, the same as HTTP/1's: hyper reads an
/// HTTP/1 head into a buffer of at most 8 KB + 100 x 4 KB (its `max_buf_size` default) and
/// refuses a longer one. h2 counts the block decoded, so HPACK cannot make a larger one out of
/// a few bytes on the wire. An oversized list is answered by h2 itself, before hyper or Herald
/// see the request: `431` (with no body) while the block fits in the CONTINUATION frames h2
/// allows for this limit (about 1.25 times it), else the connection is closed with GOAWAY
/// `ENHANCE_YOUR_CALM` (a 1 MB block). h2 offers no way to answer the larger ones instead.
pub const MAX_HEADER_LIST_SIZE: u32 = 8 * 1024 + 100 * 4 * 1024;

/// What a client may send on one stream, and on all of them together, before the server has
/// read it. Request bodies are small JSON (4 MB at most, a lobby's creation, which then takes
/// a few window updates); the connection's window bounds what a client can make the server
/// hold unread, as HTTP/1's read buffer does. Neither is allocated ahead.
const STREAM_WINDOW: u32 = 256 * 1024;
const CONNECTION_WINDOW: u32 = 1024 * 1024;

/// What one stream may queue for sending beyond what the client's window lets out. An event
/// stream writes a few hundred bytes at a time; a client that stops reading makes the server
/// hold at most this much per stream (hyper's default, 400 KB, times 256 streams would be
/// 100 MB for one connection).
const MAX_SEND_BUFFER: usize = 64 * 1024;

/// Pings on an HTTP/2 connection, to find a client that went away without closing: its
/// streams would otherwise hold their room until a keep-alive write fails. One timer per
/// connection, not per stream.
const PING_INTERVAL: Duration = Duration::from_secs(30);
const PING_TIMEOUT: Duration = Duration::from_secs(20);

/// h2's guards against reset floods (its defaults, named here so that they are seen):
/// streams a client opened and reset before the server accepted them (CVE-2023-44487, "rapid
/// reset"), and streams the server had to reset for the client's errors (CVE-2025-8671); past
/// either, the connection is closed with `ENHANCE_YOUR_CALM`. h2 also bounds CONTINUATION
/// frames by the header-size limit and empty DATA frames by a budget of its own.
const MAX_PENDING_ACCEPT_RESETS: usize = 20;
const MAX_LOCAL_ERROR_RESETS: usize = 1024;

/// The protocol a connection speaks, told by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Protocol {
    Http1,
    Http2,
}

/// Which protocol the client speaks, from its first bytes. They are peeked, not read, so
/// hyper reads them itself and an HTTP/1 connection is served as before, with no buffer or
/// wrapper in between. `None`: the client closed (or failed) before sending anything.
async fn sniff(stream: &TcpStream, activity: &Activity) -> Option<Protocol> {
    let mut seen = [0u8; PREFACE.len()];
    let mut pause = Duration::from_millis(1);
    loop {
        let n = stream.peek(&mut seen).await.ok()?;
        if n == 0 {
            return None;
        }
        activity.read_some();
        if seen[..n] != PREFACE[..n] {
            return Some(Protocol::Http1);
        }
        if n == PREFACE.len() {
            return Some(Protocol::Http2);
        }
        // A part of the preface and no more yet (clients send it in one write, so this is
        // rare): peeking again would return the same bytes at once, so wait a little, longer
        // each time. The watch's header timeout bounds the wait.
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_millis(100));
    }
}

/// What every connection shares: the places under the stream cap and the clients' shares.
#[derive(Clone)]
pub struct Caps {
    pub streams: Arc<Semaphore>,
    pub clients: Arc<Clients>,
}

/// What one connection holds while it is served: its slot under the connection cap, and its
/// place in its client's share (none for a client not counted).
#[expect(
    dead_code,
    reason = "held for their drop: the places are the connection's until then"
)]
pub struct Held {
    pub slot: OwnedSemaphorePermit,
    pub share: Option<Share>,
}

/// Serves one connection until the client closes it, a limit closes it, or the drain ends.
pub async fn serve(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    limits: Arc<Limits>,
    mut drain: watch::Receiver<bool>,
    caps: Caps,
    _held: Held,
) {
    let Caps { streams, clients } = caps;
    let activity = Arc::new(Activity::new());
    let mut expired = pin!(expired(&activity, &limits));
    let protocol = tokio::select! {
        sniffed = sniff(&stream, &activity) => match sniffed {
            Some(protocol) => protocol,
            None => return,
        },
        _ = expired.as_mut() => return,
        // Nothing has been asked on this connection yet: a drain closes it at once.
        _ = drain.changed() => return,
    };
    if protocol == Protocol::Http2 {
        activity.multiplex();
    }
    let io = TokioIo::new(Watched {
        stream,
        activity: activity.clone(),
    });
    let body_timeout = limits.body_timeout;
    // Every HTTP/2 stream takes a place under the server's stream cap (`max_streams`) for
    // as long as it is in flight; an HTTP/1 request needs none, its connection's slot is it.
    let streams = (protocol == Protocol::Http2).then_some(streams);
    let service = {
        let activity = activity.clone();
        service_fn(move |request: hyper::Request<Incoming>| {
            let mut in_flight = activity.begin();
            let refuse = |error: AppError, in_flight| {
                let response = crate::http::boundary::refusal(request.uri().path(), error);
                let future: BoxFuture<'static, Result<_, std::convert::Infallible>> =
                    Box::pin(async move { Ok(response.map(|body| Tracked::new(body, in_flight))) });
                future
            };
            if let Some(streams) = &streams {
                match streams.clone().try_acquire_owned() {
                    Ok(permit) => in_flight.hold(permit),
                    Err(_) => {
                        tracing::debug!("stream cap reached: answering 503");
                        return refuse(AppError::Busy, in_flight);
                    }
                }
            }
            match clients.request(peer.ip(), request.headers()) {
                Ok(share) => in_flight.hold_share(share),
                Err(_) => {
                    tracing::debug!("a client's share of requests reached: answering 503");
                    return refuse(AppError::ClientBusy, in_flight);
                }
            }
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
                    Ok(response.map(|body| Tracked::new(body, in_flight)))
                });
            future
        })
    };
    let period = limits.watch_period();
    match protocol {
        Protocol::Http1 => {
            let mut builder = http1::Builder::new();
            builder.header_read_timeout(None);
            let mut connection = builder.serve_connection(io, service);
            let outcome = watch_over(
                Pin::new(&mut connection),
                |c| c.graceful_shutdown(),
                expired.as_mut(),
                &mut drain,
            )
            .await;
            match outcome {
                Outcome::Ended(Err(error)) => {
                    tracing::debug!(%error, "connection ended with an error");
                }
                // A head that started and did not end in time is told so before the close
                // (hyper's own header timeout would close it without a word).
                Outcome::Expired(Expiry::Slow) if activity.head_started() => {
                    let parts = connection.into_parts();
                    let mut stream = parts.io.into_inner().stream;
                    let answer = head_timeout(&parts.read_buf).await;
                    let _ = tokio::time::timeout(limits.write_timeout, async {
                        stream.write_all(&answer).await?;
                        stream.shutdown().await
                    })
                    .await;
                }
                _ => {}
            }
        }
        Protocol::Http2 => {
            // Boxed: the HTTP/2 connection's state would otherwise widen every HTTP/1
            // connection's task too (the two arms share its room).
            let mut connection = Box::pin(http2_builder().serve_connection(io, service));
            let outcome = watch_over(
                connection.as_mut(),
                |c| c.graceful_shutdown(),
                expired.as_mut(),
                &mut drain,
            )
            .await;
            match outcome {
                Outcome::Ended(Err(error)) => {
                    tracing::debug!(%error, "connection ended with an error");
                }
                Outcome::Ended(Ok(())) => {}
                // A client that does not read would not read a GOAWAY either: closed at once.
                Outcome::Expired(Expiry::Stalled) => {}
                // Told with a GOAWAY, so that the client sends nothing more on it and knows
                // which of its requests were seen; closed a period later if still open.
                Outcome::Expired(Expiry::Slow) => {
                    connection.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(period, connection).await;
                }
            }
        }
    }
}

/// The 408 for a request whose head did not arrive in time, as bytes for the socket: JSON,
/// or a page if what arrived of the request line names a path outside `/api/`.
async fn head_timeout(received: &[u8]) -> Vec<u8> {
    let line = received.split(|&b| b == b'\n').next().unwrap_or_default();
    let target = line.split(|&b| b == b' ').nth(1);
    let path = match target {
        Some(target) if !target.starts_with(b"/api/") && target.starts_with(b"/") => "/",
        _ => "/api/",
    };
    let response = crate::http::boundary::refusal(path, AppError::HeadTimeout);
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let mut bytes = format!(
        "HTTP/1.1 {} {}\r\n",
        parts.status.as_u16(),
        parts.status.canonical_reason().unwrap_or("")
    )
    .into_bytes();
    for (name, value) in &parts.headers {
        if name != axum::http::header::CONTENT_LENGTH {
            bytes.extend_from_slice(name.as_str().as_bytes());
            bytes.extend_from_slice(b": ");
            bytes.extend_from_slice(value.as_bytes());
            bytes.extend_from_slice(b"\r\n");
        }
    }
    bytes.extend_from_slice(
        format!(
            "content-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    );
    bytes.extend_from_slice(&body);
    bytes
}

/// The HTTP/2 settings (the constants above say why each).
fn http2_builder() -> http2::Builder<TokioExecutor> {
    let mut builder = http2::Builder::new(TokioExecutor::new());
    builder
        .timer(TokioTimer::new())
        .max_concurrent_streams(MAX_CONCURRENT_STREAMS)
        .max_header_list_size(MAX_HEADER_LIST_SIZE)
        .initial_stream_window_size(STREAM_WINDOW)
        .initial_connection_window_size(CONNECTION_WINDOW)
        .max_send_buf_size(MAX_SEND_BUFFER)
        .keep_alive_interval(PING_INTERVAL)
        .keep_alive_timeout(PING_TIMEOUT)
        .max_pending_accept_reset_streams(MAX_PENDING_ACCEPT_RESETS)
        .max_local_error_reset_streams(MAX_LOCAL_ERROR_RESETS);
    builder
}

/// Completes once the connection's deadline has passed (see [`Activity::deadline`]).
///
/// It looks at the connection at least once a `period` and then sleeps until the exact
/// deadline it finds. A phase begins (a head's first byte, a response's end) at most
/// `period` before it is seen, and `period` is no longer than either timeout, so every
/// deadline is still ahead when it is seen and is kept to the millisecond, while a request
/// costs the watch nothing: no wake-up, no timer to move.
async fn expired(activity: &Activity, limits: &Limits) -> Expiry {
    let period = limits.watch_period();
    let mut timer = pin!(tokio::time::sleep(period));
    loop {
        timer.as_mut().await;
        let now = Instant::now();
        match activity.deadline(limits) {
            Some(deadline) if deadline <= now => {
                return match activity.stalled(limits, now) {
                    true => Expiry::Stalled,
                    false => Expiry::Slow,
                };
            }
            Some(deadline) => timer.as_mut().reset(deadline.min(now + period)),
            // Serving (a stream is exempt): look again after a period.
            None => timer.as_mut().reset(now + period),
        }
    }
}

/// How a watched connection's watch ended.
enum Outcome {
    /// The connection finished (the client closed, an error, or a graceful shutdown ended).
    Ended(hyper::Result<()>),
    /// It was idle or slow too long, or its client stopped reading.
    Expired(Expiry),
}

/// Drives `connection` until it ends or `expired` completes, and shuts it down gracefully
/// (with `shut_down`, hyper's `graceful_shutdown` of its kind) when the drain begins. After a
/// drain began the watch still closes an idle or slow connection; the drain time bounds the
/// rest (see [`super::serve_with`]).
async fn watch_over<C>(
    mut connection: Pin<&mut C>,
    shut_down: impl Fn(Pin<&mut C>),
    mut expired: Pin<&mut impl Future<Output = Expiry>>,
    drain: &mut watch::Receiver<bool>,
) -> Outcome
where
    C: Future<Output = hyper::Result<()>>,
{
    let mut draining = false;
    loop {
        tokio::select! {
            result = connection.as_mut() => return Outcome::Ended(result),
            expiry = expired.as_mut() => {
                tracing::debug!(?expiry, "closing a connection that was idle, slow or unread too long");
                return Outcome::Expired(expiry);
            }
            _ = drain.changed(), if !draining => {
                draining = true;
                shut_down(connection.as_mut());
            }
        }
    }
}

/// Answers a connection over the cap, or over its client's share: reads one request, answers
/// 503 (`error`: JSON or an HTML page, by the request's path) and closes. The request must
/// arrive within the header timeout. Over HTTP/2 the connection is shut down (GOAWAY) once its
/// first request is answered.
pub async fn refuse(
    stream: TcpStream,
    header_timeout: Duration,
    error: fn() -> AppError,
    _reserve: OwnedSemaphorePermit,
) {
    let asked = Arc::new(tokio::sync::Notify::new());
    let service = {
        let asked = asked.clone();
        service_fn(move |request: hyper::Request<Incoming>| {
            asked.notify_one();
            let mut response = crate::http::boundary::refusal(request.uri().path(), error());
            response.headers_mut().insert(
                axum::http::header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
            async move { Ok::<_, std::convert::Infallible>(response) }
        })
    };
    let _ = tokio::time::timeout(header_timeout, async {
        let protocol = sniff(&stream, &Activity::new()).await;
        match protocol {
            None => {}
            Some(Protocol::Http1) => {
                let mut builder = http1::Builder::new();
                builder.header_read_timeout(None).keep_alive(false);
                let _ = builder
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            }
            Some(Protocol::Http2) => {
                let mut builder = http2::Builder::new(TokioExecutor::new());
                builder.max_concurrent_streams(1);
                let mut connection = pin!(builder.serve_connection(TokioIo::new(stream), service));
                tokio::select! {
                    _ = connection.as_mut() => return,
                    () = asked.notified() => {}
                }
                connection.as_mut().graceful_shutdown();
                let _ = connection.await;
            }
        }
    })
    .await;
}
