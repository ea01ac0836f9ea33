//! What a connection's watch knows, and the two places that tell it: the socket (bytes
//! arrived) and the request's guard (a response is done, or abandoned). See
//! [`super::connection`].

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use hyper::body::{Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::OwnedSemaphorePermit;
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
    /// An HTTP/2 connection: bytes that arrive between requests are frames of their own
    /// (pings, window updates, settings), not the start of a request's head, so they start
    /// no header timeout.
    multiplexed: AtomicBool,
}

impl Activity {
    pub fn new() -> Activity {
        Activity {
            born: Instant::now(),
            in_flight: AtomicU32::new(0),
            idle_since: AtomicU64::new(0),
            head_since: AtomicU64::new(NONE),
            multiplexed: AtomicBool::new(false),
        }
    }

    /// Marks the connection as HTTP/2, before any request. Its first request must still
    /// come within the header timeout of its first byte (the head already started keeps its
    /// time); after that only the idle timeout applies between requests.
    pub fn multiplex(&self) {
        self.multiplexed.store(true, Ordering::Relaxed);
    }

    fn now_ms(&self) -> u64 {
        self.born.elapsed().as_millis() as u64
    }

    fn at(&self, ms: u64, after: Duration) -> Instant {
        self.born + Duration::from_millis(ms) + after
    }

    /// Bytes arrived: if nothing was in flight, a request's head has started.
    pub fn read_some(&self) {
        if !self.multiplexed.load(Ordering::Relaxed)
            && self.in_flight.load(Ordering::Acquire) == 0
            && self.head_since.load(Ordering::Acquire) == NONE
        {
            self.head_since.store(self.now_ms(), Ordering::Release);
        }
    }

    /// A request's head has been read and handed to the service; it is in flight until the
    /// guard is dropped.
    pub fn begin(self: &Arc<Activity>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        self.head_since.store(NONE, Ordering::Release);
        InFlight {
            activity: self.clone(),
            stream: None,
        }
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

/// One request in flight, from its head to the end of its response. Dropped when the
/// response has been sent in full, or when the request is abandoned at any point: over
/// HTTP/2 a client may reset a stream before its response is ready, and the connection must
/// not then count a request in flight for ever (it would never be idle).
pub struct InFlight {
    activity: Arc<Activity>,
    /// An HTTP/2 stream's place under the server's stream cap, given back with the guard.
    stream: Option<OwnedSemaphorePermit>,
}

impl InFlight {
    /// Holds `permit` for as long as the request is in flight.
    pub fn hold(&mut self, permit: OwnedSemaphorePermit) {
        self.stream = Some(permit);
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.activity.end();
    }
}

/// A response body that keeps its request in flight until it is done (sent in full, or
/// dropped).
pub struct Tracked {
    pub body: Body,
    #[expect(
        dead_code,
        reason = "held for its drop: the request is in flight until then"
    )]
    pub in_flight: InFlight,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            header_timeout: Duration::from_secs(1),
            idle_timeout: Duration::from_secs(60),
            ..Limits::default()
        }
    }

    #[test]
    fn a_request_abandoned_before_its_response_is_no_longer_in_flight() {
        // Over HTTP/2 a client may reset a stream while its service future runs: the future
        // (and the guard in it) is dropped and no response body is ever made.
        let activity = Arc::new(Activity::new());
        let first = activity.begin();
        let second = activity.begin();
        assert_eq!(activity.deadline(&limits()), None, "serving");
        drop(first);
        assert_eq!(activity.deadline(&limits()), None, "one still in flight");
        drop(second);
        assert!(activity.deadline(&limits()).is_some(), "idle again");
    }

    #[test]
    fn over_http2_bytes_between_requests_start_no_header_timeout() {
        let multiplexed = Arc::new(Activity::new());
        multiplexed.multiplex();
        drop(multiplexed.begin());
        multiplexed.read_some();
        let idle = multiplexed.deadline(&limits()).unwrap();
        assert!(
            idle >= Instant::now() + Duration::from_secs(30),
            "the idle timeout"
        );

        let plain = Arc::new(Activity::new());
        drop(plain.begin());
        plain.read_some();
        let head = plain.deadline(&limits()).unwrap();
        assert!(
            head <= Instant::now() + Duration::from_secs(1),
            "the header timeout"
        );
    }
}
