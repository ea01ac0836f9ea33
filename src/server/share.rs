//! Each client's share of the server's caps: how many connections one client address may
//! hold, and how many requests (event streams and HTTP/2 streams among them) it may have in
//! flight, so that one client cannot take every slot and leave the others a `503`.
//!
//! A client is counted as the rate limits count it ([`crate::http::rate::key`]: an IPv4
//! address, an IPv6 /64). A connection is counted by its peer, except a trusted proxy's (it
//! carries many clients); a request by the client its connection says it is, behind a trusted
//! proxy the one its `X-Forwarded-For` names. The rate-limit-exempt addresses (a load
//! generator's) are counted by neither.
//!
//! A client's count lives only while it holds something: the entry goes when its last
//! connection or request ends, so the map is as large as the clients being served.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use axum::http::HeaderMap;
use ipnet::IpNet;

use super::limits::Limits;
use crate::http::client::Exposure;
use crate::http::rate::{RateLimits, key};

/// How much of one cap each client holds now.
struct Shares {
    share: usize,
    held: Mutex<HashMap<IpAddr, usize>>,
}

impl Shares {
    fn new(share: usize) -> Shares {
        Shares {
            share,
            held: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        // Each change under the lock is one counter's: a panic cannot leave it half-done.
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// One more for `client`, unless it holds its share already.
    fn take(&self, client: IpAddr) -> bool {
        let mut held = self.lock();
        let count = held.entry(client).or_insert(0);
        if *count >= self.share {
            return false;
        }
        *count += 1;
        true
    }

    fn give_back(&self, client: IpAddr) {
        let mut held = self.lock();
        if let Some(count) = held.get_mut(&client) {
            *count -= 1;
            if *count == 0 {
                held.remove(&client);
                // A map keeps its capacity when emptied: after a crowd has gone, give the
                // memory back.
                if held.capacity() > 64 && held.len() * 4 < held.capacity() {
                    let keep = held.len() * 2;
                    held.shrink_to(keep);
                }
            }
        }
    }
}

/// The server's clients and their shares of its caps.
pub struct Clients {
    exposure: Exposure,
    exempt: Vec<IpNet>,
    connections: Shares,
    requests: Shares,
}

/// Which cap a [`Share`] is of.
#[derive(Clone, Copy)]
enum Cap {
    Connections,
    Requests,
}

/// The client holds its share of a cap already.
#[derive(Debug)]
pub struct ShareUsed;

/// One place of a client's share, given back when dropped.
pub struct Share {
    clients: Arc<Clients>,
    cap: Cap,
    client: IpAddr,
}

impl Drop for Share {
    fn drop(&mut self) {
        self.clients.shares(self.cap).give_back(self.client);
    }
}

impl Clients {
    pub fn new(limits: &Limits, exposure: Exposure, rates: &RateLimits) -> Clients {
        Clients {
            exposure,
            exempt: rates.rate_limit_exempt.clone(),
            connections: Shares::new(limits.connection_share()),
            requests: Shares::new(limits.request_share()),
        }
    }

    fn shares(&self, cap: Cap) -> &Shares {
        match cap {
            Cap::Connections => &self.connections,
            Cap::Requests => &self.requests,
        }
    }

    fn hold(self: &Arc<Self>, cap: Cap, client: IpAddr) -> Result<Option<Share>, ShareUsed> {
        if self.exempt.iter().any(|net| net.contains(&client)) {
            return Ok(None);
        }
        let client = key(client);
        match self.shares(cap).take(client) {
            true => Ok(Some(Share {
                clients: self.clone(),
                cap,
                client,
            })),
            false => Err(ShareUsed),
        }
    }

    /// A place for a connection from `peer` (none is needed for a trusted proxy or an exempt
    /// address), or [`ShareUsed`].
    pub fn connection(self: &Arc<Self>, peer: IpAddr) -> Result<Option<Share>, ShareUsed> {
        let peer = peer.to_canonical();
        if self.exposure.trusts(peer) {
            return Ok(None);
        }
        self.hold(Cap::Connections, peer)
    }

    /// A place for a request with `headers` over a connection from `peer`, or [`ShareUsed`].
    pub fn request(
        self: &Arc<Self>,
        peer: IpAddr,
        headers: &HeaderMap,
    ) -> Result<Option<Share>, ShareUsed> {
        self.hold(Cap::Requests, self.exposure.client_of(peer, headers))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::client::net;

    fn clients(connections: usize, requests: usize) -> Arc<Clients> {
        let limits = Limits {
            max_connections_per_client: Some(connections),
            max_requests_per_client: Some(requests),
            ..Limits::default()
        };
        let exposure = Exposure {
            trusted_proxies: vec![net("10.0.0.1").unwrap()],
            public_url: None,
        };
        let rates = RateLimits {
            rate_limit_exempt: vec![net("192.0.2.0/24").unwrap()],
            ..RateLimits::default()
        };
        Arc::new(Clients::new(&limits, exposure, &rates))
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_client_holds_its_share_and_no_more_and_gets_it_back() {
        let clients = clients(2, 1);
        let first = clients.connection(ip("198.51.100.1")).unwrap();
        let _second = clients.connection(ip("198.51.100.1")).unwrap();
        assert!(clients.connection(ip("198.51.100.1")).is_err());
        assert!(clients.connection(ip("198.51.100.2")).is_ok(), "another");
        drop(first);
        assert!(clients.connection(ip("198.51.100.1")).is_ok(), "given back");
        // The same /64, the same client.
        let _v6 = clients
            .request(ip("2001:db8::1"), &HeaderMap::new())
            .unwrap();
        assert!(
            clients
                .request(ip("2001:db8::2"), &HeaderMap::new())
                .is_err()
        );
    }

    #[test]
    fn a_proxys_requests_count_for_the_clients_it_names() {
        let clients = clients(1, 1);
        // The proxy's connections are not counted; its requests are, by forwarded client.
        let _a = clients.connection(ip("10.0.0.1")).unwrap();
        assert!(clients.connection(ip("10.0.0.1")).unwrap().is_none());
        let forwarded = |client: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert("x-forwarded-for", client.parse().unwrap());
            headers
        };
        let _held = clients
            .request(ip("10.0.0.1"), &forwarded("203.0.113.5"))
            .unwrap();
        assert!(
            clients
                .request(ip("10.0.0.1"), &forwarded("203.0.113.5"))
                .is_err()
        );
        assert!(
            clients
                .request(ip("10.0.0.1"), &forwarded("203.0.113.6"))
                .is_ok()
        );
        // An exempt address is never counted.
        for _ in 0..5 {
            let exempt = clients.connection(ip("192.0.2.9")).unwrap();
            assert!(exempt.is_none());
        }
    }

    #[test]
    fn the_map_forgets_clients_that_hold_nothing() {
        let clients = clients(1, 1);
        let held: Vec<_> = (0..1000u32)
            .map(|n| clients.connection(IpAddr::from(n.to_be_bytes())).unwrap())
            .collect();
        drop(held);
        let map = clients.connections.lock();
        assert!(map.is_empty() && map.capacity() <= 64);
    }
}
