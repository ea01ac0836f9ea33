//! The limits that keep one client from holding the server: how long a connection may take
//! to send a request's head and body, sit idle or leave a response unread, how many
//! connections and requests are served at once (and how many of them one client address may
//! hold), and how long a shutdown waits for open requests. Each is a flag with an environment
//! variable behind it; the defaults suit a server on the open internet.

use std::time::Duration;

/// Parses a duration written for people: `500ms`, `10s`, `2m`.
pub(crate) fn duration(text: &str) -> Result<Duration, humantime::DurationError> {
    humantime::parse_duration(text)
}

const HEADER_TIMEOUT: &str = "10s";
const BODY_TIMEOUT: &str = "30s";
const IDLE_TIMEOUT: &str = "60s";
const DRAIN_TIMEOUT: &str = "10s";
const WRITE_TIMEOUT: &str = "30s";
const MAX_CONNECTIONS: usize = 10_000;
const MAX_STREAMS: usize = 20_000;
const CONNECTION_RESERVE: usize = 64;

/// Connection limits (see the README's configuration table).
#[derive(Clone, Debug, clap::Args)]
pub struct Limits {
    /// How long a client has to send a request's head (request line and headers), counted
    /// from its first byte (over HTTP/2, the connection's first request).
    #[arg(long, env = "HERALD_HEADER_TIMEOUT", default_value = HEADER_TIMEOUT, value_parser = duration)]
    pub header_timeout: Duration,
    /// How long a client has to send a request's whole body once its head has arrived.
    #[arg(long, env = "HERALD_BODY_TIMEOUT", default_value = BODY_TIMEOUT, value_parser = duration)]
    pub body_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request. Event streams are
    /// exempt while they stream (an HTTP/2 connection is idle while no stream is open).
    #[arg(long, env = "HERALD_IDLE_TIMEOUT", default_value = IDLE_TIMEOUT, value_parser = duration)]
    pub idle_timeout: Duration,
    /// Connections served at once (event streams included); lowered at start to fit the
    /// open-file limit.
    #[arg(long, env = "HERALD_MAX_CONNECTIONS", default_value_t = MAX_CONNECTIONS)]
    pub max_connections: usize,
    /// HTTP/2 streams served at once over all connections (each connection carries at most
    /// 256): a new stream over it is told `503`. Without it, every slot of the connection cap
    /// could hold 256 event streams.
    #[arg(long, env = "HERALD_MAX_STREAMS", default_value_t = MAX_STREAMS)]
    pub max_streams: usize,
    /// Connections one client address (an IPv6 client by its /64) may hold at once; past it,
    /// a new one is told `503 client-busy` and closed. A trusted proxy's connections and the
    /// rate-limit-exempt addresses are not counted. Default: a tenth of the connection cap, and
    /// at least 64.
    #[arg(long, env = "HERALD_MAX_CONNECTIONS_PER_CLIENT")]
    pub max_connections_per_client: Option<usize>,
    /// Requests one client address may have in flight at once over all its connections (an
    /// event stream is one for as long as it is open, an HTTP/2 stream is one); past it, a new
    /// one is told `503 client-busy`. Behind a trusted proxy the client is the one its
    /// `X-Forwarded-For` names, as for the rate limits; rate-limit-exempt addresses are not
    /// counted. Default: a tenth of the stream cap, and at least 256.
    #[arg(long, env = "HERALD_MAX_REQUESTS_PER_CLIENT")]
    pub max_requests_per_client: Option<usize>,
    /// How long a response may wait for the client to take what was sent: a socket that
    /// stays full, or an HTTP/2 stream the client gives no window to. Past it the connection
    /// is closed, so that a client that stops reading holds no slot, no stream and no buffer.
    #[arg(long, env = "HERALD_WRITE_TIMEOUT", default_value = WRITE_TIMEOUT, value_parser = duration)]
    pub write_timeout: Duration,
    /// Connections beyond the cap that are still accepted, only to be told `503` and closed.
    #[arg(long, env = "HERALD_CONNECTION_RESERVE", default_value_t = CONNECTION_RESERVE)]
    pub connection_reserve: usize,
    /// How long a shutdown waits for open requests to finish before it closes what is left.
    #[arg(long, env = "HERALD_DRAIN_TIMEOUT", default_value = DRAIN_TIMEOUT, value_parser = duration)]
    pub drain_timeout: Duration,
}

impl Default for Limits {
    /// The same defaults as the flags, whatever the environment says.
    fn default() -> Limits {
        let parse = |text| duration(text).expect("a default duration parses");
        Limits {
            header_timeout: parse(HEADER_TIMEOUT),
            body_timeout: parse(BODY_TIMEOUT),
            idle_timeout: parse(IDLE_TIMEOUT),
            max_connections: MAX_CONNECTIONS,
            max_streams: MAX_STREAMS,
            max_connections_per_client: None,
            max_requests_per_client: None,
            write_timeout: parse(WRITE_TIMEOUT),
            connection_reserve: CONNECTION_RESERVE,
            drain_timeout: parse(DRAIN_TIMEOUT),
        }
    }
}

impl Limits {
    /// Connections one client may hold (see `max_connections_per_client`).
    pub fn connection_share(&self) -> usize {
        self.max_connections_per_client
            .unwrap_or((self.max_connections / 10).max(64))
            .max(1)
    }

    /// Requests one client may have in flight (see `max_requests_per_client`).
    pub fn request_share(&self) -> usize {
        self.max_requests_per_client
            .unwrap_or((self.max_streams / 10).max(256))
            .max(1)
    }

    /// How often a connection's watch looks at it: no longer than any of its timeouts, so
    /// that each deadline is seen before it passes (see `connection::expired`).
    pub fn watch_period(&self) -> Duration {
        self.header_timeout
            .min(self.idle_timeout)
            .min(self.write_timeout)
    }
}

/// File descriptors kept for everything that is not a client connection (the database
/// pool, the SQLite files, the listener, logs).
const OTHER_FILES: u64 = 128;

impl Limits {
    /// Raises the soft open-file limit to the hard one, logs the figure, and lowers the
    /// connection cap if the limit cannot hold the cap, the reserve and the server's own files.
    pub fn fit_open_files(mut self) -> Limits {
        let files = match rlimit::increase_nofile_limit(u64::MAX) {
            Ok(files) => files,
            Err(error) => {
                tracing::warn!(%error, "could not read or raise the open-file limit");
                return self;
            }
        };
        tracing::info!(open_files = files, "open-file limit");
        let room = files.saturating_sub(OTHER_FILES + self.connection_reserve as u64);
        if (self.max_connections as u64) > room {
            tracing::warn!(
                max_connections = self.max_connections,
                lowered_to = room,
                open_files = files,
                "the open-file limit cannot hold the connection cap; lowering the cap"
            );
            self.max_connections = room.max(1) as usize;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soft_open_file_limit_is_raised_and_the_cap_fits_under_it() {
        let limits = Limits {
            max_connections: usize::MAX / 2,
            ..Limits::default()
        }
        .fit_open_files();
        let (soft, hard) = rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap();
        assert!(
            soft == hard || soft >= 1 << 20,
            "soft {soft} raised to hard {hard} (or capped by the kernel)"
        );
        let room = soft.saturating_sub(OTHER_FILES + limits.connection_reserve as u64);
        assert!(limits.max_connections as u64 <= room.max(1));
        assert!(limits.max_connections >= 1);
    }

    #[test]
    fn the_defaults_are_those_of_the_flags() {
        let limits = Limits::default();
        assert_eq!(limits.header_timeout, Duration::from_secs(10));
        assert_eq!(limits.idle_timeout, Duration::from_secs(60));
        assert_eq!(limits.max_connections, 10_000);
    }
}
