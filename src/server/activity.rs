//! What a connection's watch knows, and the two places that tell it: the socket (bytes
//! arrived) and the response body (a response is done). See [`super::connection`].

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use hyper::body::{Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Instant;

use super::limits::Limits;

/// "No request head has started arriving."
const NONE: u64 = u64::MAX;

/// What the watch knows about a connection, shared by its socket, its service and its task.
pub struct Activity {
    born: Instant,
    /// Requests whose response has not been sent in full.
    in_flight: AtomicU32,
    /// When (ms since `born`) the connection last had nothing in flight.
    idle_since: AtomicU64,
    /// When (ms since `born`) the next request's first byte arrived, or [`NONE`].
    head_since: AtomicU64,
}

impl Activity {
    pub fn new() -> Activity {
        Activity {
            born: Instant::now(),
            in_flight: AtomicU32::new(0),
            idle_since: AtomicU64::new(0),
            head_since: AtomicU64::new(NONE),
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
        }
    }

    /// A request's head has been read and handed to the service.
    pub fn begin(&self) {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        self.head_since.store(NONE, Ordering::Release);
    }

    /// A response has been sent (or abandoned).
    fn end(&self) {
        if self.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.idle_since.store(self.now_ms(), Ordering::Release);
        }
    }

    /// When the connection must be closed if nothing changes; `None` while a request is served.
    pub fn deadline(&self, limits: &Limits) -> Option<Instant> {
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
pub struct Watched {
    pub stream: TcpStream,
    pub activity: Arc<Activity>,
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
pub struct Tracked {
    pub body: Body,
    pub activity: Arc<Activity>,
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
