//! What a connection's watch knows, and the places that tell it: the socket (bytes arrived,
//! a write found it full), the request's guard (a response is done, or abandoned) and, over
//! HTTP/2, each response's body (it handed data over and has not been asked for more). See
//! [`super::connection`].

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use hyper::body::{Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;

use super::limits::Limits;
use super::share::Share;

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
    /// When (ms since `born`) a write first found the socket full, or [`NONE`]: the client
    /// stopped reading the connection.
    write_blocked_since: AtomicU64,
    /// HTTP/2: when (ms since `born`) each response that has handed data over was handed it,
    /// for as long as hyper has not asked it for more (the stream has no window, or its data
    /// is still queued). A few entries at most: a stream is in it only between two frames.
    handed: Mutex<Vec<u64>>,
}

/// Why a connection's deadline passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expiry {
    /// Idle, or a request's head too slow.
    Slow,
    /// The client has not taken what was sent for the write timeout.
    Stalled,
}

impl Activity {
    pub fn new() -> Activity {
        Activity {
            born: Instant::now(),
            in_flight: AtomicU32::new(0),
            idle_since: AtomicU64::new(0),
            head_since: AtomicU64::new(NONE),
            multiplexed: AtomicBool::new(false),
            write_blocked_since: AtomicU64::new(NONE),
            handed: Mutex::new(Vec::new()),
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
            share: None,
        }
    }

    /// Whether a request's head has started arriving and not yet been handed to the service.
    pub fn head_started(&self) -> bool {
        self.in_flight.load(Ordering::Acquire) == 0
            && self.head_since.load(Ordering::Acquire) != NONE
    }

    /// A write found the socket full.
    fn write_blocked(&self) {
        if self.write_blocked_since.load(Ordering::Relaxed) == NONE {
            self.write_blocked_since
                .store(self.now_ms(), Ordering::Relaxed);
        }
    }

    /// A write went through.
    fn wrote(&self) {
        if self.write_blocked_since.load(Ordering::Relaxed) != NONE {
            self.write_blocked_since.store(NONE, Ordering::Relaxed);
        }
    }

    fn handed(&self) -> std::sync::MutexGuard<'_, Vec<u64>> {
        // Each change under the lock is one push or one removal: a panic cannot leave it
        // half-done.
        self.handed.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A response handed data over now; the time, to give to [`Activity::asked_again`].
    fn hand(&self) -> u64 {
        let now = self.now_ms();
        self.handed().push(now);
        now
    }

    /// The response handed data at `at` is asked for more (or is gone).
    fn asked_again(&self, at: u64) {
        let mut handed = self.handed();
        if let Some(index) = handed.iter().position(|&t| t == at) {
            handed.swap_remove(index);
        }
    }

    /// Since when the client has taken nothing that it was sent, if it is so.
    fn stalled_since(&self) -> Option<u64> {
        let blocked = self.write_blocked_since.load(Ordering::Relaxed);
        let blocked = (blocked != NONE).then_some(blocked);
        let handed = match self.multiplexed.load(Ordering::Relaxed) {
            true => self.handed().iter().copied().min(),
            false => None,
        };
        blocked.into_iter().chain(handed).min()
    }

    /// Whether the client has taken nothing that it was sent for the write timeout.
    pub fn stalled(&self, limits: &Limits, now: Instant) -> bool {
        self.stalled_since()
            .is_some_and(|ms| self.at(ms, limits.write_timeout) <= now)
    }

    /// A response has been sent (or abandoned).
    fn end(&self) {
        if self.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.idle_since.store(self.now_ms(), Ordering::Release);
        }
    }

    /// When the connection must be closed if nothing changes: the write timeout after the
    /// client stopped taking what it is sent, and, unless a request is served, the idle or
    /// header timeout.
    pub fn deadline(&self, limits: &Limits) -> Option<Instant> {
        let stalled = self
            .stalled_since()
            .map(|ms| self.at(ms, limits.write_timeout));
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return stalled;
        }
        let phase = match self.head_since.load(Ordering::Acquire) {
            NONE => self.at(self.idle_since.load(Ordering::Acquire), limits.idle_timeout),
            head => self.at(head, limits.header_timeout),
        };
        Some(stalled.map_or(phase, |stalled| stalled.min(phase)))
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

impl Watched {
    /// Tells the watch whether the client takes what is written.
    fn saw_write(&self, polled: &Poll<io::Result<usize>>) {
        match polled {
            Poll::Pending => self.activity.write_blocked(),
            Poll::Ready(Ok(_)) => self.activity.wrote(),
            Poll::Ready(Err(_)) => {}
        }
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.saw_write(&polled);
        polled
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
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.saw_write(&polled);
        polled
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
    /// The request's place in its client's share, given back with the guard.
    share: Option<Share>,
}

impl InFlight {
    /// Holds `permit` for as long as the request is in flight.
    pub fn hold(&mut self, permit: OwnedSemaphorePermit) {
        self.stream = Some(permit);
    }

    /// Holds the client's `share` for as long as the request is in flight.
    pub fn hold_share(&mut self, share: Option<Share>) {
        self.share = share;
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.activity.end();
    }
}

/// The most of a response's data handed to HTTP/2 at once. hyper asks a body for more only
/// once h2 has room for it (the stream's window, the send buffer), so a body asked for nothing
/// for the write timeout is one the client does not read; in slices this size, a large
/// response is asked for more every slice (rather than once, when all of it has gone out),
/// so a client that reads slowly but steadily keeps it going.
const SLICE: usize = 16 * 1024;

/// A response body that keeps its request in flight until it is done (sent in full, or
/// dropped), and over HTTP/2 tells the watch when it waits for the client (see [`SLICE`]).
pub struct Tracked {
    body: Body,
    in_flight: InFlight,
    /// What is left of a frame larger than a slice (HTTP/2).
    rest: Option<Bytes>,
    /// When this body last handed data over without being asked for more since (HTTP/2).
    handed: Option<u64>,
}

impl Tracked {
    pub fn new(body: Body, in_flight: InFlight) -> Tracked {
        Tracked {
            body,
            in_flight,
            rest: None,
            handed: None,
        }
    }

    /// The next slice of `data`, keeping the rest for the next call.
    fn slice(&mut self, mut data: Bytes) -> Bytes {
        if data.len() > SLICE {
            self.rest = Some(data.split_off(SLICE));
        }
        data
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        if let Some(at) = self.handed.take() {
            self.in_flight.activity.asked_again(at);
        }
    }
}

impl hyper::body::Body for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = &mut *self;
        let activity = this.in_flight.activity.clone();
        if !activity.multiplexed.load(Ordering::Relaxed) {
            return Pin::new(&mut this.body).poll_frame(cx);
        }
        if let Some(at) = this.handed.take() {
            activity.asked_again(at);
        }
        let data = match this.rest.take() {
            Some(rest) => rest,
            None => match Pin::new(&mut this.body).poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                    Ok(data) => data,
                    Err(frame) => return Poll::Ready(Some(Ok(frame))),
                },
                other => return other,
            },
        };
        let data = this.slice(data);
        if !data.is_empty() {
            this.handed = Some(activity.hand());
        }
        Poll::Ready(Some(Ok(Frame::data(data))))
    }
    fn is_end_stream(&self) -> bool {
        self.rest.is_none() && self.body.is_end_stream()
    }
    fn size_hint(&self) -> SizeHint {
        let hint = self.body.size_hint();
        let rest = self.rest.as_ref().map_or(0, |rest| rest.len() as u64);
        let mut total = SizeHint::new();
        total.set_lower(hint.lower() + rest);
        if let Some(upper) = hint.upper() {
            total.set_upper(upper + rest);
        }
        total
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
