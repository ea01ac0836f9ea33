//! Where outgoing notifications may go: a webhook URL must not become a way into the server's
//! own network (SSRF). A target is refused when any address its host resolves to is loopback,
//! private, link-local (cloud metadata lives there), shared (CGNAT), unspecified, multicast,
//! reserved or documentation space, in IPv4 or IPv6, including the IPv6 forms that carry an
//! IPv4 address (mapped, compatible, NAT64, 6to4). The check runs after DNS resolution, and the
//! HTTP client resolves through [`GuardedResolver`], which hands the connection only the
//! addresses it checked, so a name cannot resolve to one address when checked and another when
//! connected. Redirects are not followed at all (see `worker.rs`). The operator may allow private
//! targets (`HERALD_ALLOW_PRIVATE_TARGETS=1`) for tests and self-hosting.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use ipnet::{Ipv4Net, Ipv6Net};

/// Why a target was refused, in words for the host.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("the URL does not parse: {0}")]
    Unparsable(String),
    #[error("only http and https URLs are accepted")]
    Scheme,
    #[error("the URL has no host")]
    NoHost,
    #[error("the URL may not carry a user name or password")]
    Credentials,
    #[error("{host} does not resolve")]
    Unresolved { host: String },
    #[error("{host} resolves to {address}, a loopback, private, link-local or reserved address")]
    Forbidden { host: String, address: IpAddr },
}

/// IPv4 ranges no notification may reach (unless private targets are allowed).
const V4: [(Ipv4Addr, u8); 16] = [
    (Ipv4Addr::new(0, 0, 0, 0), 8),       // "this network"
    (Ipv4Addr::new(10, 0, 0, 0), 8),      // private
    (Ipv4Addr::new(100, 64, 0, 0), 10),   // shared address space (CGNAT)
    (Ipv4Addr::new(127, 0, 0, 0), 8),     // loopback
    (Ipv4Addr::new(169, 254, 0, 0), 16),  // link-local, cloud metadata (169.254.169.254)
    (Ipv4Addr::new(172, 16, 0, 0), 12),   // private
    (Ipv4Addr::new(192, 0, 0, 0), 24),    // IETF protocol assignments
    (Ipv4Addr::new(192, 0, 2, 0), 24),    // documentation
    (Ipv4Addr::new(192, 88, 99, 0), 24),  // 6to4 relay anycast
    (Ipv4Addr::new(192, 168, 0, 0), 16),  // private
    (Ipv4Addr::new(198, 18, 0, 0), 15),   // benchmarking
    (Ipv4Addr::new(198, 51, 100, 0), 24), // documentation
    (Ipv4Addr::new(203, 0, 113, 0), 24),  // documentation
    (Ipv4Addr::new(224, 0, 0, 0), 4),     // multicast
    (Ipv4Addr::new(240, 0, 0, 0), 4),     // reserved, broadcast
    (Ipv4Addr::new(255, 255, 255, 255), 32),
];

/// IPv6 ranges refused outright (the IPv4-carrying forms are unwrapped first).
const V6: [(Ipv6Addr, u8); 9] = [
    (Ipv6Addr::UNSPECIFIED, 128),
    (Ipv6Addr::LOCALHOST, 128),
    (Ipv6Addr::new(0x0100, 0, 0, 0, 0, 0, 0, 0), 64), // discard-only
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 32), // Teredo (tunnels to anywhere)
    (Ipv6Addr::new(0x2001, 0x0db8, 0, 0, 0, 0, 0, 0), 32), // documentation
    (Ipv6Addr::new(0xfc00, 0, 0, 0, 0, 0, 0, 0), 7),  // unique local (ULA)
    (Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0), 10), // link-local
    (Ipv6Addr::new(0xfec0, 0, 0, 0, 0, 0, 0, 0), 10), // site-local (deprecated)
    (Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0), 8),  // multicast
];

/// Whether no notification may be sent to `address` (when private targets are not allowed).
pub fn forbidden(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => match embedded_v4(v6) {
            Some(v4) => forbidden_v4(v4),
            None => V6
                .iter()
                .any(|&(net, len)| Ipv6Net::new(net, len).is_ok_and(|net| net.contains(&v6))),
        },
    }
}

fn forbidden_v4(address: Ipv4Addr) -> bool {
    V4.iter()
        .any(|&(net, len)| Ipv4Net::new(net, len).is_ok_and(|net| net.contains(&address)))
}

/// The IPv4 address an IPv6 address stands for, in the forms that route to one: mapped
/// (`::ffff:a.b.c.d`), compatible (`::a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) and 6to4
/// (`2002:AABB:CCDD::`).
fn embedded_v4(address: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = address.segments();
    let last = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    match s {
        [0, 0, 0, 0, 0, 0xffff, _, _] => Some(last),
        // `::` and `::1` are themselves, not IPv4 addresses.
        [0, 0, 0, 0, 0, 0, hi, _] if hi != 0 => Some(last),
        [0x64, 0xff9b, 0, 0, 0, 0, _, _] => Some(last),
        [0x2002, a, b, ..] => Some(Ipv4Addr::new(
            (a >> 8) as u8,
            a as u8,
            (b >> 8) as u8,
            b as u8,
        )),
        _ => None,
    }
}

/// Whether targets on private networks are allowed, and how names resolve.
#[derive(Clone, Debug)]
pub struct Guard {
    pub allow_private: bool,
}

impl Guard {
    /// Checks a webhook URL: its form, then every address its host resolves to.
    pub async fn check_url(&self, url: &str) -> Result<reqwest::Url, Refusal> {
        let parsed = reqwest::Url::parse(url).map_err(|e| Refusal::Unparsable(e.to_string()))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(Refusal::Scheme);
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(Refusal::Credentials);
        }
        let port = parsed.port_or_known_default().unwrap_or(443);
        match parsed.host() {
            None => return Err(Refusal::NoHost),
            Some(url::Host::Ipv4(v4)) => self.check_address(&v4.to_string(), v4.into())?,
            Some(url::Host::Ipv6(v6)) => self.check_address(&v6.to_string(), v6.into())?,
            Some(url::Host::Domain(name)) => {
                self.resolve(name, port).await?;
            }
        }
        Ok(parsed)
    }

    fn check_address(&self, host: &str, address: IpAddr) -> Result<(), Refusal> {
        if !self.allow_private && forbidden(address) {
            return Err(Refusal::Forbidden {
                host: host.to_string(),
                address,
            });
        }
        Ok(())
    }

    /// Resolves `name` and checks every address it gives: all must be allowed, since the
    /// connection may use any of them.
    pub async fn resolve(&self, name: &str, port: u16) -> Result<Vec<SocketAddr>, Refusal> {
        let unresolved = || Refusal::Unresolved {
            host: name.to_string(),
        };
        let addresses: Vec<SocketAddr> = tokio::net::lookup_host((name, port))
            .await
            .map_err(|_| unresolved())?
            .collect();
        if addresses.is_empty() {
            return Err(unresolved());
        }
        for address in &addresses {
            self.check_address(name, address.ip())?;
        }
        Ok(addresses)
    }
}

/// The HTTP client's resolver: only checked addresses reach the connector.
#[derive(Clone, Debug)]
pub struct GuardedResolver(pub Arc<Guard>);

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let guard = self.0.clone();
        let name = name.as_str().to_string();
        Box::pin(async move {
            // The connector puts the URL's port on the addresses it is given.
            let addresses = guard.resolve(&name, 0).await?;
            let addresses: reqwest::dns::Addrs = Box::new(addresses.into_iter());
            Ok(addresses)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn private_loopback_link_local_and_their_ipv6_forms_are_forbidden() {
        for text in [
            "127.0.0.1",
            "127.8.9.10",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "ff02::1",
        ] {
            assert!(forbidden(ip(text)), "{text} must be refused");
        }
    }

    #[test]
    fn public_addresses_are_allowed() {
        for text in [
            "1.1.1.1",
            "8.8.8.8",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700::1111",
            "::ffff:1.1.1.1",
            "2002:0808:0808::",
        ] {
            assert!(!forbidden(ip(text)), "{text} is public");
        }
    }
}
