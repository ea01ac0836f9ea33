//! The mail that carries a sign-in or confirmation code (docs/identity.md, "A sign-in code by
//! mail"), through the operator's relay. It is sent off the request, so that the page answers
//! at once and in the same time whether or not a mail goes out; a failure is logged without the
//! address or the code (a relay's answer is reduced to its status code, and lettre logs
//! nothing: its `tracing` feature is off).

use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use super::Settings;
use crate::host::mail_sign_in::{CODE_MINUTES, CodeMail};

/// What a code is for, in the mail's words.
#[derive(Copy, Clone, Debug)]
pub enum CodeFor {
    SignIn,
    Confirm,
}

/// Sends `mail` in the background through the relay of `settings` (nothing if mail is off).
pub fn send_code(settings: &Settings, mail: CodeMail, what: CodeFor) {
    let Some(url) = settings.smtp_url.clone() else {
        return;
    };
    let from = settings.mail_from.clone();
    let timeout = settings.timeout;
    tokio::spawn(async move {
        if let Err(error) = send(&url, &from, timeout, mail, what).await {
            tracing::warn!(%error, "a sign-in code's mail was not sent");
        }
    });
}

async fn send(
    url: &str,
    from: &str,
    timeout: std::time::Duration,
    mail: CodeMail,
    what: CodeFor,
) -> Result<(), String> {
    let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
        .map_err(|e| format!("HERALD_SMTP_URL: {e}"))?
        .timeout(Some(timeout.max(std::time::Duration::from_secs(1))))
        .build();
    let from: Mailbox = from.parse().map_err(|e| format!("HERALD_MAIL_FROM: {e}"))?;
    let to: Mailbox = mail
        .to
        .parse()
        .map_err(|_| "the address does not parse".to_string())?;
    let (subject, purpose) = match what {
        CodeFor::SignIn => ("Your Herald sign-in code", "sign in to Herald"),
        CodeFor::Confirm => (
            "Confirm your address on Herald",
            "add this address to your Herald profile",
        ),
    };
    let text = format!(
        "Your code: {}\n\nType it on the page that asked for it to {purpose}. It works once, \
         for {CODE_MINUTES} minutes.\n\nIf you did not ask for it, ignore this mail: nothing \
         happens without the code.\n",
        mail.code
    );
    let message = Message::builder()
        .from(from)
        .to(to)
        .subject(subject)
        .header(ContentType::TEXT_PLAIN)
        .body(text)
        .map_err(|_| "the mail did not build".to_string())?;
    transport
        .send(message)
        .await
        .map(|_| ())
        // The relay's own words may quote the address: only its status code is kept.
        .map_err(|e| match e.status() {
            Some(code) => format!("the relay refused it ({})", u16::from(code)),
            None => "the relay could not be reached".to_string(),
        })
}
