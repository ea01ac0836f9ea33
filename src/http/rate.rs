//! Rate limits on what costs the server storage: creating lobbies and joining them, per client
//! address (see [`super::client`]), with `governor`'s keyed GCRA limiters. An IPv6 client is
//! counted by its /64, since one host usually holds a whole /64.

use std::marker::PhantomData;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, Ordering};

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use ipnet::IpNet;

use super::AppState;
use super::client::net;
use crate::error::AppError;

/// Rate-limit settings (see the README's configuration table).
#[derive(Clone, Debug, clap::Args)]
pub struct RateLimits {
    /// Lobbies one client address may create per minute, in a burst or spread out (0: no limit).
    #[arg(long, env = "HERALD_LOBBIES_PER_MINUTE", default_value_t = 10)]
    pub lobbies_per_minute: u32,
    /// Joins (of any lobbies) one client address may make per minute (0: no limit).
    #[arg(long, env = "HERALD_JOINS_PER_MINUTE", default_value_t = 60)]
    pub joins_per_minute: u32,
    /// Client addresses or CIDR ranges (comma-separated) that no rate limit applies to, such as
    /// a load generator's.
    #[arg(long, env = "HERALD_RATE_LIMIT_EXEMPT", value_delimiter = ',', value_parser = net)]
    pub rate_limit_exempt: Vec<IpNet>,
}

impl Default for RateLimits {
    fn default() -> RateLimits {
        RateLimits {
            lobbies_per_minute: 10,
            joins_per_minute: 60,
            rate_limit_exempt: Vec::new(),
        }
    }
}

/// What is limited.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    CreateLobby,
    Join,
}

/// The live limiters: one keyed limiter per action, `None` when that limit is off.
#[derive(Debug)]
pub struct Limiters {
    lobbies: Option<DefaultKeyedRateLimiter<IpAddr>>,
    joins: Option<DefaultKeyedRateLimiter<IpAddr>>,
    exempt: Vec<IpNet>,
    /// Checks since the limiters last forgot addresses that are back to a full allowance.
    checks: AtomicU32,
}

/// How many checks pass between two sweeps of forgotten addresses (bounds the maps' memory).
const SWEEP_EVERY: u32 = 4096;

fn limiter(per_minute: u32) -> Option<DefaultKeyedRateLimiter<IpAddr>> {
    NonZeroU32::new(per_minute).map(|n| DefaultKeyedRateLimiter::keyed(Quota::per_minute(n)))
}

impl Limiters {
    pub fn new(settings: &RateLimits) -> Limiters {
        Limiters {
            lobbies: limiter(settings.lobbies_per_minute),
            joins: limiter(settings.joins_per_minute),
            exempt: settings.rate_limit_exempt.clone(),
            checks: AtomicU32::new(0),
        }
    }

    /// Lets `action` by `client` through, or says when to try again (429). A request that came
    /// through no connection (the router driven in-process) has no address and is not limited.
    pub fn check(&self, action: Action, client: Option<IpAddr>) -> Result<(), AppError> {
        let limiter = match action {
            Action::CreateLobby => &self.lobbies,
            Action::Join => &self.joins,
        };
        let (Some(limiter), Some(client)) = (limiter, client) else {
            return Ok(());
        };
        if self.exempt.iter().any(|net| net.contains(&client)) {
            return Ok(());
        }
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            limiter.retain_recent();
        }
        limiter.check_key(&key(client)).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            AppError::TooManyRequests {
                retry_after: wait.as_secs() + u64::from(wait.subsec_nanos() > 0),
            }
        })
    }
}

/// The key an address is counted under: itself (IPv4) or its /64 (IPv6). The server's
/// per-client shares of its caps count clients the same way.
pub fn key(client: IpAddr) -> IpAddr {
    match client {
        IpAddr::V4(_) => client,
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(bits.into())
        }
    }
}

/// Names an [`Action`] at the type level, for [`Admitted`].
pub trait Limited {
    const ACTION: Action;
}

/// Creating a lobby.
pub struct CreatesLobby;
impl Limited for CreatesLobby {
    const ACTION: Action = Action::CreateLobby;
}

/// Joining a lobby.
pub struct Joins;
impl Limited for Joins {
    const ACTION: Action = Action::Join;
}

/// Proof that the client may do `A` now: extracting it spends one of the client's allowance,
/// or rejects the request with 429 and `Retry-After`.
pub struct Admitted<A>(PhantomData<A>);

impl<A: Limited, S: Send + Sync> FromRequestParts<S> for Admitted<A>
where
    AppState: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let app = AppState::from_ref(state);
        let client = app.edge.exposure.client_address(parts);
        app.edge.limiters.check(A::ACTION, client)?;
        Ok(Admitted(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_beyond_the_quota_is_told_when_to_come_back() {
        let limiters = Limiters::new(&RateLimits {
            lobbies_per_minute: 2,
            joins_per_minute: 0,
            rate_limit_exempt: vec![net("192.0.2.0/24").unwrap()],
        });
        let client = Some("198.51.100.1".parse().unwrap());
        assert!(limiters.check(Action::CreateLobby, client).is_ok());
        assert!(limiters.check(Action::CreateLobby, client).is_ok());
        match limiters.check(Action::CreateLobby, client) {
            Err(AppError::TooManyRequests { retry_after }) => {
                assert!((1..=30).contains(&retry_after), "{retry_after}")
            }
            other => panic!("expected a 429, got {other:?}"),
        }
        let other = Some("198.51.100.2".parse().unwrap());
        assert!(limiters.check(Action::CreateLobby, other).is_ok());
        for _ in 0..100 {
            assert!(limiters.check(Action::Join, client).is_ok(), "joins off");
            let exempt = Some("192.0.2.7".parse().unwrap());
            assert!(limiters.check(Action::CreateLobby, exempt).is_ok());
        }
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(key(a), key(b));
        assert_ne!(key(a), key(c));
    }
}
