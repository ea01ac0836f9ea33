//! Standard Webhooks signatures (<https://www.standardwebhooks.com/>): an endpoint's secret is
//! `whsec_` followed by the base64 of 24 random bytes, shown to the host once; each delivery
//! carries `webhook-id` (stable across retries), `webhook-timestamp` (unix seconds of the
//! attempt) and `webhook-signature: v1,<base64 of HMAC-SHA256(key, "id.timestamp.body")>`, so
//! a receiver can check a message came from Herald and refuse an old one replayed.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use rand::RngExt;
use sha2::Sha256;

/// The prefix of a secret as shown.
const PREFIX: &str = "whsec_";

/// A fresh signing secret.
pub fn new_secret() -> String {
    let key: [u8; 24] = rand::rng().random();
    format!("{PREFIX}{}", STANDARD.encode(key))
}

/// The `webhook-signature` value for a delivery; None if `secret` is not one Herald made.
pub fn signature(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> Option<String> {
    let key = STANDARD.decode(secret.strip_prefix(PREFIX)?).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    Some(format!(
        "v1,{}",
        STANDARD.encode(mac.finalize().into_bytes())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test vector of the Standard Webhooks reference libraries.
    #[test]
    fn the_standard_webhooks_test_vector_signs_as_published() {
        let signed = signature(
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1_614_265_330,
            br#"{"test": 2432232314}"#,
        );
        assert_eq!(
            signed.as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
    }

    #[test]
    fn a_new_secret_signs_and_differs_from_the_next() {
        let (a, b) = (new_secret(), new_secret());
        assert_ne!(a, b);
        assert!(signature(&a, "id", 1, b"{}").is_some());
        assert_ne!(signature(&a, "id", 1, b"{}"), signature(&b, "id", 1, b"{}"));
    }
}
