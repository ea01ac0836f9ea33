//! One client connection: HTTP/1.1 served by hyper, watched so that no client holds it
//! longer than the limits allow.
//!
//! The watch knows three phases from two cheap signals (the socket's reads and the requests
//! the service sees): waiting for a request (closed after the idle timeout), receiving a
//! request's head (closed after the header timeout, counted from its first byte), and serving
//! a request (bounded by the body deadline while its body arrives; a response that streams,
//! such as an event stream, is exempt). The deadline is checked by the connection's own task,
//! so a watched connection costs no extra task and no allocation per request.

use std::io;
use std::net::SocketAddr;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Body as _;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::{Notify, OwnedSemaphorePermit, watch};
use tokio::time::Instant;
use tower::Service;
use tower_http::timeout::DeadlineBody;

use super::limits::Limits;

/// "No request head has started arriving."
const NONE: u64 = u64::MAX;

/// What the watch knows about a connection, shared by its socket, its service and its task.
struct Activity {
    born: Instant,
    /// Requests whose response has not been sent in full.
    in_flight: AtomicU32,
    /// When (ms since `born`) the connection last had nothing in flight.
    idle_since: AtomicU64,
    /// When (ms since `born`) the next request's first byte arrived, or [`NONE`].
    head_since: AtomicU64,
    /// Wakes the task when the deadline moves earlier (a head starts, a response ends).
    changed: Notify,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            born: Instant::now(),
            in_flight: AtomicU32::new(0),
            idle_since: AtomicU64::new(0),
            head_since: AtomicU64::new(NONE),
            changed: Notify::new(),
        }
    }

    fn now_ms(&self) -> u64 {
        self.born.elapsed().as_millis() as u64
    }

    fn at(&self, ms: u64, after: Duration) -> Instant {
        self.born + Duration::from_millis(ms) + after
    }

    /// Bytes arrived: if nothing was in flight, a request's head has started.
    fn read_some(&self) {
        if self.in_flight.load(Ordering::Acquire) == 0
            && self.head_since.load(Ordering::Acquire) == NONE
        {
            self.head_since.store(self.now_ms(), Ordering::Release);
            self.changed.notify_one();
        }
    }

    /// A request's head has been read and handed to the service.
    fn begin(&self) {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        self.head_since.store(NONE, Ordering::Release);
    }

    /// A response has been sent (or abandoned).
    fn end(&self) {
        if self.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.idle_since.store(self.now_ms(), Ordering::Release);
            self.changed.notify_one();
        }
    }

    /// When the connection must be closed if nothing changes; `None` while a request is served.
    fn deadline(&self, limits: &Limits) -> Option<Instant> {
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return None;
        }
        match self.head_since.load(Ordering::Acquire) {
            NONE => Some(self.at(self.idle_since.load(Ordering::Acquire), limits.idle_timeout)),
            head => Some(self.at(head, limits.header_timeout)),
        }
    }
}

/// The socket, telling the watch when bytes arrive.
struct Watched {
    stream: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.read_some();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// A response body that tells the watch when it is done (sent in full, or dropped).
struct Tracked {
    body: Body,
    activity: Arc<Activity>,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.activity.end();
    }
}

impl hyper::body::Body for Tracked {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }
    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }
    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

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
