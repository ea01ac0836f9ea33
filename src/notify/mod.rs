//! Notifications (docs/notifications.md): the host's lobby webhooks (Discord or
//! Standard Webhooks), a player's own mail or webhook, a tournament director's webhooks, and
//! the worker that delivers what the outboxes owe (`store/outbox.rs`,
//! `store/tournament_news.rs`), reliably and without a secret in any of it.

pub mod format;
mod held;
pub mod mail;
pub mod notice;
pub mod outcome;
pub mod reminder;
pub mod send;
pub mod sign_in_mail;
pub mod tournament_notice;
pub mod worker;

pub use send::Sender;
pub use worker::Worker;

// What the host needs of notifications lives in the host, which the worker sits on: the
// address guard and the signing secret's form, checked and made when a destination is stored,
// and the operator's settings, which the host holds. They are named here too, where they are
// used.
pub use crate::host::delivery::{Channel, DEFAULT_NICE, Settings};
pub use crate::host::{guard, sign};
pub use crate::tls::install_crypto_provider;
