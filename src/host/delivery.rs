//! What the host knows of delivering notifications: the channel a destination is stored under
//! and the operator's settings. The host holds both and checks a destination against them
//! when it is stored (`notifications.rs`); the delivery worker (`crate::notify`) reads them.

use std::time::Duration;

use uuid::Uuid;

/// A destination's channel, as stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Channel {
    /// Discord's "Execute Webhook" body, unsigned (Discord's URL is the secret).
    Discord,
    /// A generic JSON body signed by the Standard Webhooks scheme.
    Standard,
    /// A player's mail.
    Mail,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Discord => "discord",
            Channel::Standard => "standard",
            Channel::Mail => "mail",
        }
    }

    pub fn parse(text: &str) -> Option<Channel> {
        match text {
            "discord" => Some(Channel::Discord),
            "standard" => Some(Channel::Standard),
            "mail" => Some(Channel::Mail),
            _ => None,
        }
    }
}

/// The delivery thread's nice increment unless the operator says otherwise.
pub const DEFAULT_NICE: i32 = 10;

/// The operator's notification settings (`config.rs`).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Webhooks may reach loopback and private addresses (tests, self-hosting).
    pub allow_private: bool,
    /// The SMTP relay; None: mail is off.
    pub smtp_url: Option<String>,
    /// The From of every mail.
    pub mail_from: String,
    /// Where Herald is reached (`https://herald.example`), for links; None: no links.
    pub public_url: Option<String>,
    /// How long one attempt may take.
    pub timeout: Duration,
    /// How much lower than the orders' the CPU priority of the thread that builds and sends
    /// notifications is (a Linux nice increment, 0 to 19; 0 keeps it equal). Under a load that
    /// fills the machine, the orders get the CPU first and the deliveries the rest, so a
    /// webhook on every lobby does not slow the game down; they catch up when the load eases.
    pub nice: i32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            allow_private: false,
            smtp_url: None,
            mail_from: "Herald <herald@localhost>".into(),
            public_url: None,
            timeout: Duration::from_secs(10),
            nice: DEFAULT_NICE,
        }
    }
}

impl Settings {
    /// Whether players may give an email address.
    pub fn mail_on(&self) -> bool {
        self.smtp_url.is_some()
    }

    /// The lobby's public page.
    pub fn lobby_link(&self, lobby: Uuid) -> Option<String> {
        let base = self.public_url.as_deref()?;
        Some(format!("{}/lobbies/{lobby}", base.trim_end_matches('/')))
    }

    /// The tournament's public page.
    pub fn tournament_link(&self, tournament: Uuid) -> Option<String> {
        let base = self.public_url.as_deref()?;
        Some(format!(
            "{}/tournaments/{tournament}",
            base.trim_end_matches('/')
        ))
    }
}
