//! Why the BST rules refuse settings, a join or an order (422s for the host, 409 where the
//! state rather than the input is wrong).

use std::fmt;

/// A refusal, with its kebab-case code and a sentence a person understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BstRefusal {
    code: &'static str,
    message: String,
    conflict: bool,
}

impl BstRefusal {
    /// A refusal of the request's content (422).
    pub fn new(code: &'static str, message: impl Into<String>) -> BstRefusal {
        BstRefusal {
            code,
            message: message.into(),
            conflict: false,
        }
    }

    /// A refusal about timing or state (409).
    pub fn conflict(code: &'static str, message: impl Into<String>) -> BstRefusal {
        BstRefusal {
            code,
            message: message.into(),
            conflict: true,
        }
    }
}

impl fmt::Display for BstRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl crate::rules::Refusal for BstRefusal {
    fn code(&self) -> &'static str {
        self.code
    }

    fn is_conflict(&self) -> bool {
        self.conflict
    }
}
