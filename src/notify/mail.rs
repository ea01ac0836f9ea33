//! A player's mail, sent through the operator's SMTP relay (`HERALD_SMTP_URL`, in lettre's URL
//! form: `smtp://host:port`, `smtps://…`, or `smtp://…?tls=required` for STARTTLS).
//!
//! Every mail carries a fresh unsubscribe token, stored only as its hash, in a link in the
//! text and in `List-Unsubscribe` (with `List-Unsubscribe-Post`, RFC 8058, so a mail client's
//! one-click unsubscribe works too). The Message-ID is the delivery id, so a retried mail is
//! recognisable as the same one. The text is the notice (public material) and the lobby's
//! public link: a player's private link is never stored in clear, so it cannot be mailed.

use std::time::Duration;

use lettre::message::Mailbox;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use super::Settings;
use super::notice::Notice;
use super::outcome::Outcome;
use crate::host::Host;
use crate::host::auth::{hash_token, new_token};
use crate::store::TargetRow;

/// The operator's relay and who mail comes from.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    public_url: String,
}

impl Mailer {
    pub fn new(url: &str, settings: &Settings) -> Result<Mailer, String> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| format!("HERALD_SMTP_URL: {e}"))?
            .timeout(Some(settings.timeout.max(Duration::from_secs(1))))
            .build();
        let from = settings
            .mail_from
            .parse()
            .map_err(|e| format!("HERALD_MAIL_FROM: {e}"))?;
        Ok(Mailer {
            transport,
            from,
            public_url: settings
                .public_url
                .as_deref()
                .unwrap_or_default()
                .trim_end_matches('/')
                .to_string(),
        })
    }

    /// Sends `notice` to the player's address.
    pub async fn send(&self, host: &Host, target: &TargetRow, notice: &Notice) -> Outcome {
        let to: Mailbox = match target.address.parse() {
            Ok(to) => to,
            Err(error) => {
                return Outcome::Permanent {
                    status: None,
                    error: format!("the address does not parse: {error}"),
                };
            }
        };
        let token = new_token();
        let now = host.clock().now_millis();
        if let Err(error) = host
            .add_unsubscribe(target.id, &hash_token(&token), now)
            .await
        {
            return Outcome::Transient {
                status: None,
                error: format!("database: {error}"),
                retry_after: None,
            };
        }
        let unsubscribe = format!("{}/unsubscribe/{token}", self.public_url);
        let mut text = format!("{}\n\n{}\n", notice.title, notice.text);
        if let Some(link) = &notice.link {
            text.push_str(&format!("\nThe lobby: {link}\n"));
        }
        text.push_str(&format!(
            "\nYou get this because you asked Herald to tell you about {}. \
             To stop: {unsubscribe}\n",
            notice.name
        ));
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(notice.title.clone())
            .header(ContentType::TEXT_PLAIN)
            .header(ListUnsubscribe(format!("<{unsubscribe}>")))
            .header(ListUnsubscribePost)
            .body(text);
        let message = match message {
            Ok(message) => message,
            Err(error) => {
                return Outcome::Permanent {
                    status: None,
                    error: format!("the mail did not build: {error}"),
                };
            }
        };
        match self.transport.send(message).await {
            Ok(_) => Outcome::Delivered { status: None },
            Err(error) if error.is_permanent() => Outcome::Permanent {
                status: error.status().map(|c| i64::from(u16::from(c))),
                error: format!("the relay refused the mail: {error}"),
            },
            Err(error) => Outcome::Transient {
                status: error.status().map(|c| i64::from(u16::from(c))),
                error: format!("the relay: {error}"),
                retry_after: None,
            },
        }
    }
}

/// `List-Unsubscribe: <url>` (RFC 2369).
#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(text: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(text.to_string()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".into())
    }
}
