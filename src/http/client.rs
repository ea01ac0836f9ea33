//! Who is asking: the client's address and whether it reached Herald over HTTPS.
//!
//! The connection's peer is the client, unless the peer is a reverse proxy configured as
//! trusted: then its `X-Forwarded-For` names the client and its `X-Forwarded-Proto` the
//! scheme. Anyone else's forwarding headers are ignored, since a client can write them.

use std::net::{IpAddr, SocketAddr};

use axum::extract::ConnectInfo;
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap};
use ipnet::IpNet;

/// Parses an address or a range (`10.0.0.7`, `10.0.0.0/8`, `::1`).
pub fn net(text: &str) -> Result<IpNet, String> {
    let text = text.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| format!("{text:?} is neither an IP address nor a CIDR range"))
}

/// Settings that say how Herald is reached (see the README's configuration table).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Exposure {
    /// Reverse proxies (addresses or CIDR ranges, comma-separated) whose `X-Forwarded-For` and
    /// `X-Forwarded-Proto` Herald believes.
    #[arg(long, env = "HERALD_TRUSTED_PROXIES", value_delimiter = ',', value_parser = net)]
    pub trusted_proxies: Vec<IpNet>,
    /// The address people reach Herald at; an `https://` URL marks cookies `Secure`.
    #[arg(long, env = "HERALD_PUBLIC_URL")]
    pub public_url: Option<String>,
}

impl Exposure {
    /// Whether `peer` is one of the trusted reverse proxies.
    pub fn trusts(&self, peer: IpAddr) -> bool {
        self.trusted_proxies.iter().any(|net| net.contains(&peer))
    }

    /// The client's address: the connection's peer, or, when the peer is a trusted proxy,
    /// the nearest address in `X-Forwarded-For` that is not itself a trusted proxy. `None`
    /// for a request that came through no connection (the router driven in-process).
    pub fn client_address(&self, parts: &Parts) -> Option<IpAddr> {
        Some(self.client_of(peer(&parts.extensions)?, &parts.headers))
    }

    /// The client's address for a request with `headers` from the connection's `peer` (see
    /// [`Exposure::client_address`]).
    pub fn client_of(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.trusts(peer) {
            return peer;
        }
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .collect::<Vec<_>>();
        // Each proxy appends the address it heard from: read from the right, past our own.
        for hop in forwarded.iter().rev() {
            match hop.parse::<IpAddr>() {
                Ok(address) if self.trusts(address) => continue,
                Ok(address) => return address,
                Err(_) => return peer,
            }
        }
        peer
    }

    /// Whether the browser reached Herald over HTTPS, so that cookies must be `Secure`: the
    /// public URL says so, or a trusted proxy does.
    pub fn https_from(&self, headers: &HeaderMap, peer: Option<IpAddr>) -> bool {
        if self
            .public_url
            .as_deref()
            .is_some_and(|url| url.starts_with("https://"))
        {
            return true;
        }
        peer.is_some_and(|peer| self.trusts(peer))
            && headers
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|proto| proto.trim().eq_ignore_ascii_case("https"))
    }
}

/// The connection's peer, which the server puts on every request.
pub fn peer(extensions: &Extensions) -> Option<IpAddr> {
    extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(address)| address.ip().to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Request;

    fn parts(peer: &str, forwarded: Option<&str>, proto: Option<&str>) -> Parts {
        let mut request = Request::builder().uri("/");
        if let Some(forwarded) = forwarded {
            request = request.header("x-forwarded-for", forwarded);
        }
        if let Some(proto) = proto {
            request = request.header("x-forwarded-proto", proto);
        }
        let (mut parts, ()) = request.body(()).unwrap().into_parts();
        parts
            .extensions
            .insert(ConnectInfo(peer.parse::<SocketAddr>().unwrap()));
        parts
    }

    fn exposure(trusted: &[&str]) -> Exposure {
        Exposure {
            trusted_proxies: trusted.iter().map(|t| net(t).unwrap()).collect(),
            public_url: None,
        }
    }

    #[test]
    fn forwarding_headers_count_only_from_a_trusted_proxy() {
        let trusting = exposure(&["10.0.0.0/8"]);
        let request = parts(
            "10.0.0.2:5000",
            Some("203.0.113.9, 10.0.0.1"),
            Some("https"),
        );
        assert_eq!(
            trusting.client_address(&request),
            Some("203.0.113.9".parse().unwrap())
        );
        assert!(trusting.https_from(&request.headers, peer(&request.extensions)));

        let request = parts("198.51.100.4:5000", Some("203.0.113.9"), Some("https"));
        assert_eq!(
            trusting.client_address(&request),
            Some("198.51.100.4".parse().unwrap()),
            "a client's own X-Forwarded-For is ignored"
        );
        assert!(!trusting.https_from(&request.headers, peer(&request.extensions)));

        let request = parts("10.0.0.2:5000", Some("not an address"), None);
        assert_eq!(
            trusting.client_address(&request),
            Some("10.0.0.2".parse().unwrap())
        );
    }

    #[test]
    fn an_https_public_url_makes_every_request_https() {
        let mut exposure = exposure(&[]);
        exposure.public_url = Some("https://herald.example".into());
        let request = parts("198.51.100.4:1", None, None);
        assert!(exposure.https_from(&request.headers, peer(&request.extensions)));
    }

    #[test]
    fn a_mapped_ipv4_peer_matches_an_ipv4_range() {
        let trusting = exposure(&["127.0.0.1"]);
        let request = parts("[::ffff:127.0.0.1]:1", Some("192.0.2.1"), None);
        assert_eq!(
            trusting.client_address(&request),
            Some("192.0.2.1".parse().unwrap())
        );
    }
}
