//! One attempt at one delivery: build the notice, shape it for its channel, send it, and say
//! how it went. Webhooks go through an HTTP client that resolves names only to addresses the
//! guard allows and never follows a redirect; mail goes to the operator's SMTP relay.

use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{CONTENT_TYPE, HeaderMap, RETRY_AFTER};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::guard::{Guard, GuardedResolver, Refusal};
use super::mail::Mailer;
use super::notice::{self, Notice};
pub use super::outcome::Outcome;
use super::{Channel, Settings, format, sign};
use super::{reminder, tournament_notice};
use crate::host::Host;
use crate::store::{Claimed, Owner, REMINDER_KIND, TargetRow, reminder_delivery};

/// What sends: the guarded HTTP client, the mailer (if mail is on) and the settings.
#[derive(Clone)]
pub struct Sender {
    client: reqwest::Client,
    guard: Arc<Guard>,
    mailer: Option<Mailer>,
    settings: Arc<Settings>,
    clock: crate::clock::Clock,
}

impl Sender {
    pub fn new(settings: Settings, clock: crate::clock::Clock) -> Result<Sender, String> {
        super::install_crypto_provider();
        let guard = Arc::new(Guard {
            allow_private: settings.allow_private,
        });
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .timeout(settings.timeout)
            .connect_timeout(Duration::from_secs(5))
            .user_agent(concat!("Herald/", env!("CARGO_PKG_VERSION"), " (webhooks)"))
            .dns_resolver(GuardedResolver(guard.clone()))
            .build()
            .map_err(|e| format!("the HTTP client did not build: {e}"))?;
        let mailer = match &settings.smtp_url {
            Some(url) => Some(Mailer::new(url, &settings)?),
            None => None,
        };
        Ok(Sender {
            client,
            guard,
            mailer,
            settings: Arc::new(settings),
            clock,
        })
    }

    /// The nice increment of the thread this sender's attempts run on.
    pub fn nice(&self) -> i32 {
        self.settings.nice
    }

    /// One attempt at `delivery`. The notice is built here, on the caller's runtime (it reads
    /// the store, whose connections belong to the server's runtime); a webhook's request is
    /// made on `requests`, the delivery thread's runtime (see `worker.rs`), which owns the HTTP
    /// client's connections. Mail is sent from here too: it writes its unsubscribe token.
    pub async fn send(
        &self,
        host: &Host,
        delivery: &Claimed,
        requests: &tokio::runtime::Handle,
    ) -> Outcome {
        let permanent = |error: String| Outcome::Permanent {
            status: None,
            error,
        };
        // The claim read the destination and the event with the delivery.
        let Some(target) = &delivery.target else {
            return permanent("the destination was deleted".into());
        };
        let notice = match self.notice(host, delivery, target).await {
            Ok(notice) => notice,
            Err(error) => return permanent(error),
        };
        match Channel::parse(&target.channel) {
            Some(Channel::Mail) => match &self.mailer {
                Some(mailer) => mailer.send(host, target, &notice).await,
                None => permanent("mail is off on this server (HERALD_SMTP_URL is unset)".into()),
            },
            Some(channel) => {
                let (sender, target, id) = (self.clone(), target.clone(), delivery.id.clone());
                let request = requests
                    .spawn(async move { sender.post(&target, channel, &notice, &id).await });
                match request.await {
                    Ok(outcome) => outcome,
                    Err(_) => transient(None, "the delivery thread stopped".into(), None),
                }
            }
            None => permanent(format!("unknown channel {:?}", target.channel)),
        }
    }

    /// The notice `delivery` carries to `target`: its lobby's or its tournament's event, a
    /// host's reminder, or a test message; the reason in words when it cannot be built.
    async fn notice(
        &self,
        host: &Host,
        delivery: &Claimed,
        target: &TargetRow,
    ) -> Result<Notice, String> {
        let event = match (delivery.event_seq, &delivery.event) {
            (None, _) => None,
            (Some(_), Some(event)) => Some(event),
            (Some(_), None) => return Err("the event is gone".into()),
        };
        // A host's reminder carries no event: its delivery id names the step, and its
        // destination the player (`store/reminders.rs`).
        if let (Owner::Lobby(lobby), None, Some(player), Some(step_seq)) = (
            delivery.owner,
            event,
            target.player_id,
            reminder_delivery(&delivery.id).filter(|_| delivery.kind == REMINDER_KIND),
        ) {
            let link = self.settings.lobby_link(lobby);
            return reminder::build(host, lobby, player, step_seq, link).await;
        }
        match (delivery.owner, event) {
            (Owner::Lobby(lobby), None) => match host.lobby_facts(lobby, None).await {
                Ok(facts) => Ok(Notice::test(
                    delivery.owner,
                    &facts.name,
                    self.settings.lobby_link(lobby),
                )),
                Err(_) => Err("the lobby is gone".into()),
            },
            (Owner::Lobby(lobby), Some(event)) => {
                let link = self.settings.lobby_link(lobby);
                notice::build(host, lobby, event, target.player_id, link)
                    .await
                    .map_err(|error| format!("the notice: {error}"))
            }
            (Owner::Tournament(tournament), None) => match host.tournament_name(tournament).await {
                Ok(name) => Ok(Notice::test(
                    delivery.owner,
                    &name,
                    self.settings.tournament_link(tournament),
                )),
                Err(_) => Err("the tournament is gone".into()),
            },
            (Owner::Tournament(tournament), Some(event)) => {
                tournament_notice::build(host, &self.settings, tournament, event)
                    .await
                    .map_err(|error| format!("the notice: {error}"))
            }
        }
    }

    async fn post(
        &self,
        target: &TargetRow,
        channel: Channel,
        notice: &Notice,
        id: &str,
    ) -> Outcome {
        // Literal addresses never reach the resolver: the guard checks them here (and names
        // again, as the resolver does when connecting).
        let url = match self.guard.check_url(&target.address).await {
            Ok(url) => url,
            Err(refusal @ Refusal::Forbidden { .. }) => {
                return Outcome::Refused {
                    error: refusal.to_string(),
                };
            }
            Err(other) => return transient(None, other.to_string(), None),
        };
        // The store's clock, as every instant Herald stamps (tests run on a manual one).
        let millis = self.clock.now_millis();
        let now = OffsetDateTime::from_unix_timestamp(millis.div_euclid(1000))
            .unwrap_or(OffsetDateTime::UNIX_EPOCH);
        let stamp = now.format(&Rfc3339).unwrap_or_default();
        let body = match channel {
            Channel::Discord => format::discord(notice, &stamp).to_string().into_bytes(),
            Channel::Standard | Channel::Mail => format::standard(notice, &stamp),
        };
        let mut request = self
            .client
            .post(url)
            .header(CONTENT_TYPE, "application/json");
        if channel == Channel::Standard {
            let timestamp = now.unix_timestamp();
            let secret = target.secret.as_deref().unwrap_or_default();
            let Some(signature) = sign::signature(secret, id, timestamp, &body) else {
                return Outcome::Permanent {
                    status: None,
                    error: "the endpoint's secret is unreadable".into(),
                };
            };
            request = request
                .header("webhook-id", id)
                .header("webhook-timestamp", timestamp.to_string())
                .header("webhook-signature", signature);
        }
        match request.body(body).send().await {
            Ok(response) => classify(response.status().as_u16(), response.headers(), now),
            Err(error) => transient(None, describe(error), None),
        }
    }
}

fn transient(status: Option<i64>, error: String, retry_after: Option<i64>) -> Outcome {
    Outcome::Transient {
        status,
        error,
        retry_after,
    }
}

/// An HTTP answer's meaning for the delivery.
pub fn classify(status: u16, headers: &HeaderMap, now: OffsetDateTime) -> Outcome {
    let code = Some(i64::from(status));
    match status {
        200..=299 => Outcome::Delivered { status: code },
        408 | 429 | 500..=599 => transient(
            code,
            format!("the receiver answered {status}"),
            retry_after(headers, now),
        ),
        300..=399 => Outcome::Permanent {
            status: code,
            error: format!("the receiver answered {status}: redirects are not followed"),
        },
        _ => Outcome::Permanent {
            status: code,
            error: format!("the receiver refused the message with {status}"),
        },
    }
}

/// `Retry-After` in ms: delay-seconds, or an HTTP date (RFC 9110 §10.2.3).
fn retry_after(headers: &HeaderMap, now: OffsetDateTime) -> Option<i64> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<i64>() {
        return Some(seconds.max(0).saturating_mul(1000));
    }
    let at = httpdate(value)?;
    Some(((at - now).whole_milliseconds() as i64).max(0))
}

fn httpdate(value: &str) -> Option<OffsetDateTime> {
    let format = time::format_description::parse_borrowed::<2>(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT",
    )
    .ok()?;
    time::PrimitiveDateTime::parse(value, &format)
        .ok()
        .map(|t| t.assume_utc())
}

/// A send error in words a host can act on, without the URL (which may carry a token of the
/// receiver's) and without the library's chain of error types.
fn describe(error: reqwest::Error) -> String {
    let error = error.without_url();
    if error.is_timeout() {
        return "the receiver did not answer in time".into();
    }
    match io_kind(&error) {
        Some(std::io::ErrorKind::ConnectionRefused) => {
            "the receiver refused the connection: nothing is listening at that address and port".into()
        }
        Some(std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::ConnectionAborted) => {
            "the receiver closed the connection before answering".into()
        }
        Some(std::io::ErrorKind::TimedOut) => "the receiver did not answer in time".into(),
        Some(std::io::ErrorKind::HostUnreachable | std::io::ErrorKind::NetworkUnreachable) => {
            "the receiver's network cannot be reached from this server".into()
        }
        _ if error.is_connect() => {
            "could not reach the receiver: check the address (its name may not resolve, or its HTTPS certificate was refused)".into()
        }
        _ if error.is_body() || error.is_decode() => {
            "the receiver's answer could not be read".into()
        }
        _ => "the message could not be sent to the receiver".into(),
    }
}

/// The kind of the operating system's error behind `error`, if one is in its chain.
fn io_kind(error: &(dyn std::error::Error + 'static)) -> Option<std::io::ErrorKind> {
    let mut next = Some(error);
    while let Some(inner) = next {
        if let Some(io) = inner.downcast_ref::<std::io::Error>() {
            return Some(io.kind());
        }
        next = inner.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    /// A receiver that is not listening reads as what the host can check, not as the HTTP
    /// library's chain of error types ("tcp connect error: Connection refused (os error 111)").
    #[tokio::test]
    async fn a_refused_connection_is_said_in_words() {
        crate::tls::install_crypto_provider();
        // A port that was free a moment ago: nothing listens there.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let error = reqwest::Client::new()
            .post(format!("http://127.0.0.1:{port}/hook"))
            .send()
            .await
            .unwrap_err();
        assert_eq!(
            describe(error),
            "the receiver refused the connection: nothing is listening at that address and port"
        );
    }

    #[test]
    fn answers_are_classified_by_status_and_retry_after_is_read() {
        let mut headers = HeaderMap::new();
        let now = OffsetDateTime::UNIX_EPOCH + time::Duration::days(20_000);
        assert!(matches!(
            classify(204, &headers, now),
            Outcome::Delivered { .. }
        ));
        assert!(matches!(
            classify(404, &headers, now),
            Outcome::Permanent { .. }
        ));
        assert!(matches!(
            classify(302, &headers, now),
            Outcome::Permanent { .. }
        ));
        assert!(matches!(
            classify(503, &headers, now),
            Outcome::Transient {
                retry_after: None,
                ..
            }
        ));
        headers.insert(RETRY_AFTER, HeaderValue::from_static("7"));
        assert!(matches!(
            classify(429, &headers, now),
            Outcome::Transient {
                retry_after: Some(7_000),
                ..
            }
        ));
        headers.insert(
            RETRY_AFTER,
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert!(matches!(
            classify(503, &headers, now),
            Outcome::Transient {
                retry_after: Some(0),
                ..
            }
        ));
    }
}
