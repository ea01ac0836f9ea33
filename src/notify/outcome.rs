//! How one delivery attempt went, whichever channel made it (`send.rs` for webhooks,
//! `mail.rs` for mail): what the worker records and retries by.

/// How an attempt went.
#[derive(Clone, Debug)]
pub enum Outcome {
    Delivered {
        status: Option<i64>,
    },
    /// Worth another try later (no answer, a timeout, a 5xx, 408 or 429).
    Transient {
        status: Option<i64>,
        error: String,
        /// The receiver's `Retry-After`, in ms.
        retry_after: Option<i64>,
    },
    /// The receiver refused this message for good (another 4xx, a redirect) or it cannot be
    /// built (the lobby is gone).
    Permanent {
        status: Option<i64>,
        error: String,
    },
    /// The guard refused the target: nothing was sent.
    Refused {
        error: String,
    },
}

impl Outcome {
    pub fn status(&self) -> Option<i64> {
        match self {
            Outcome::Delivered { status }
            | Outcome::Transient { status, .. }
            | Outcome::Permanent { status, .. } => *status,
            Outcome::Refused { .. } => None,
        }
    }

    pub fn error(&self) -> Option<String> {
        match self {
            Outcome::Delivered { .. } => None,
            Outcome::Transient { error, .. }
            | Outcome::Permanent { error, .. }
            | Outcome::Refused { error } => Some(error.clone()),
        }
    }
}
