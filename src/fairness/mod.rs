//! Provable fairness (docs/fairness.md): the commitments, the chain of step digests, the archive and
//! its offline verifier.
//!
//! Everything here is a pure function of values, so that `herald verify` needs no server and
//! no database. The exact encodings are documented in `docs/fairness.md`, with the test vector
//! that `tests::the_documented_vector_holds` asserts: an independent verifier can be written
//! from the document alone.
//!
//! Every hash is SHA-256 over the RFC 8785 (JCS) canonical JSON of a small object whose
//! `"kind"` names what is hashed, so that a hash of one kind can never pass for another.

pub mod act;
pub mod archive;
pub mod cli;
pub mod fork;
pub mod jcs;
pub mod publish;
mod readjudicate;
pub mod replay;
mod report;
pub mod verify;

use jcs::{Field, Node};
use rand::RngExt;
use serde_json::Value;
use uuid::Uuid;

/// The archive's format name and version: version 2 adds the table-talk messages
/// (`Archive::messages`).
pub const FORMAT: &str = "herald-archive/2";

/// The formats the verifier and forking read: this one, and version 1, which is version 2
/// without messages.
pub const FORMATS_READ: [&str; 2] = ["herald-archive/1", FORMAT];

/// Hex of bytes, lower case.
pub fn hex(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        text.push(char::from(HEX_DIGITS[usize::from(b >> 4)]));
        text.push(char::from(HEX_DIGITS[usize::from(b & 15)]));
    }
    text
}

/// Lower-case hex digits, as every hash and JCS's `\u00xx` escapes are written.
pub(crate) const HEX_DIGITS: &[u8; 16] = b"0123456789abcdef";

/// 32 fresh bytes from the operating system's generator (through `rand`'s thread generator,
/// a CSPRNG seeded from it), hex-encoded: a seed's salt or an order's nonce. Never from a
/// game's seeded generator, which must replay bit for bit.
pub fn fresh_secret() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    hex(&bytes)
}

/// The commitment to a game's seed, published from the lobby's creation: the seed (as a decimal
/// string, since a u64 does not fit a JSON number exactly) with a secret salt.
pub fn seed_commitment(seed: u64, salt: &str) -> String {
    hex(&jcs::digest_fields(&[
        ("kind", Field::Str("herald-seed")),
        ("seed", Field::Str(&seed.to_string())),
        ("salt", Field::Str(salt)),
    ]))
}

/// The commitment to one order, given in its 202 receipt: the order exactly as stored (the
/// checked order's JSON, as the reveal shows it), the round, the step, the player and the
/// order's own nonce.
pub fn order_commitment(
    order: &Value,
    round: u32,
    step: &str,
    player: Uuid,
    nonce: &str,
) -> String {
    // Made for every order: the id is written on the stack, and the fields listed in JCS's
    // order, so that nothing is allocated or sorted but the hex.
    let mut id = Uuid::encode_buffer();
    let player = player.hyphenated().encode_lower(&mut id);
    hex(&jcs::digest_fields(&[
        ("kind", Field::Str("herald-order")),
        ("nonce", Field::Str(nonce)),
        ("order", Field::Json(order)),
        ("player", Field::Str(player)),
        ("round", Field::Uint(u64::from(round))),
        ("step", Field::Str(step)),
    ]))
}

/// What a step's digest covers: its place, its reveal (each order with its nonce), its public
/// log and the public pools after it, and the digest before it (the seed's commitment for the
/// first step), so that changing any past step changes every digest after it.
#[derive(Clone, Copy, Debug)]
pub struct StepContent<'a> {
    pub round: u32,
    pub step: &'a str,
    pub revealed: &'a Value,
    pub log: &'a Value,
    pub pools: &'a Value,
}

/// The digest of a resolved step, chained to `previous`.
pub fn step_digest(previous: &str, content: StepContent<'_>) -> String {
    digest_step(
        previous,
        (content.round, content.step),
        [
            Field::Json(content.revealed),
            Field::Json(content.log),
            Field::Json(content.pools),
        ],
    )
}

/// The step digest's object, whichever form its reveal, log and pools come in.
fn digest_step(
    previous: &str,
    (round, step): (u32, &str),
    [revealed, log, pools]: [Field<'_>; 3],
) -> String {
    hex(&jcs::digest_fields(&[
        ("kind", Field::Str("herald-step")),
        ("previous_digest", Field::Str(previous)),
        ("round", Field::Uint(u64::from(round))),
        ("step", Field::Str(step)),
        ("revealed", revealed),
        ("log", log),
        ("pools", pools),
    ]))
}

/// A resolved step as the host writes it for the store: its reveal, log (private entries
/// included) and pools as canonical JSON text ([`jcs::canonical`], [`jcs::to_canonical`]).
#[derive(Clone, Copy, Debug)]
pub struct StoredStep<'a> {
    pub round: u32,
    pub step: &'a str,
    pub revealed: &'a str,
    pub log: &'a str,
    /// The log's public entries as canonical text, when the writer has them apart (the host
    /// does, for a log with private entries); None to have them read from `log`.
    pub public_log: Option<&'a str>,
    pub pools: &'a str,
}

/// The member that marks a log entry only one player may read.
const PRIVATE_MARK: &str = "\"private_to_seat\"";

/// [`step_digest`] of a step from its stored text, without building `Value`s: the host
/// digests every step it resolves on the order's path (see `jcs`'s documentation). The
/// reveal, pools and log are hashed as stored, being canonical already, unless the log has
/// private entries: then its public ones are hashed as the writer gave them apart
/// (`public_log`), or else read from the log. Text that never names
/// `"private_to_seat"` has no such member, so the test below never takes a private entry for
/// public (a name that merely contains the words only costs the slower path).
pub fn stored_step_digest(
    previous: &str,
    step: StoredStep<'_>,
) -> Result<String, serde_json::Error> {
    let fields = |log| {
        [
            Field::Canonical(step.revealed),
            log,
            Field::Canonical(step.pools),
        ]
    };
    if let Some(public) = step.public_log {
        return Ok(digest_step(
            previous,
            (step.round, step.step),
            fields(Field::Canonical(public)),
        ));
    }
    if !step.log.contains(PRIVATE_MARK) {
        return Ok(digest_step(
            previous,
            (step.round, step.step),
            fields(Field::Canonical(step.log)),
        ));
    }
    let log = match Node::parse(step.log)? {
        Node::Array(entries) => Node::Array(
            entries
                .into_iter()
                .filter(|e| e.get("private_to_seat").is_none())
                .collect(),
        ),
        other => other,
    };
    Ok(digest_step(
        previous,
        (step.round, step.step),
        fields(Field::Node(&log)),
    ))
}

/// The entries of a stored log that everyone may read (those without `private_to_seat`): the
/// log as the archive and the digest hold it.
pub fn public_log(log: &Value) -> Value {
    match log {
        Value::Array(entries) => Value::Array(
            entries
                .iter()
                .filter(|e| e.get("private_to_seat").is_none())
                .cloned()
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The vector printed in `docs/fairness.md`: change one and change the other.
    #[test]
    fn the_documented_vector_holds() {
        let salt = "00".repeat(32);
        assert_eq!(
            seed_commitment(42, &salt),
            "ae71329e0efa1a233b24a707f54f5e95c300a9f2b89e968eb7e6d6064f36088a"
        );
        let player = Uuid::parse_str("00000000-0000-0000-0000-000000000001").unwrap();
        let order = json!({"move": "block", "target": "00000000-0000-0000-0000-000000000002"});
        assert_eq!(
            order_commitment(&order, 1, "orders", player, &"11".repeat(32)),
            "470bafc261837bd7e43d9c089930bc69b0eea7c39b1993a6026b2afe2375947b"
        );
        let revealed = json!([]);
        let log = json!([{"kind": "turn-began", "round": 1, "text": "Round 1 begins."}]);
        let pools = json!({"players": []});
        let content = StepContent {
            round: 1,
            step: "orders",
            revealed: &revealed,
            log: &log,
            pools: &pools,
        };
        assert_eq!(
            step_digest(&seed_commitment(42, &salt), content),
            "ebe4eed71866c62d98ff6851b0b769253e3a8a94967fd67267237b7e88191d6c"
        );
    }

    /// The host digests the text it stores; an archive's checker digests the values it reads.
    /// Both must agree, private log entries left out of each.
    #[test]
    fn a_stored_step_digests_as_its_values_with_private_entries_left_out() {
        let revealed = json!([{"player": {"id": "p", "name": "Ann \"A\""}, "order": {"move": "block"}, "nonce": "ab"}]);
        let log = json!([
            {"text": "Ann blocks.", "kind": "blocked", "round": 2},
            {"text": "You drew R7.", "private_to_seat": 0},
            {"text": "Bob \u{e000} \u{1f600}", "kind": "x"}
        ]);
        let pools = json!({"players": [{"hp": 7, "vp": 0}]});
        let values = step_digest(
            "prev",
            StepContent {
                round: 2,
                step: "orders",
                revealed: &revealed,
                log: &public_log(&log),
                pools: &pools,
            },
        );
        let stored = stored_step_digest(
            "prev",
            StoredStep {
                round: 2,
                step: "orders",
                revealed: &jcs::canonical(&revealed),
                log: &jcs::to_canonical(&log).unwrap(),
                public_log: None,
                pools: &jcs::canonical(&pools),
            },
        )
        .unwrap();
        assert_eq!(stored, values);
        let with_private = step_digest(
            "prev",
            StepContent {
                round: 2,
                step: "orders",
                revealed: &revealed,
                log: &log,
                pools: &pools,
            },
        );
        assert_ne!(stored, with_private);
    }

    /// A log with no private entry is hashed as stored; one whose text merely names
    /// `"private_to_seat"` (a player may be called so) takes the reading path: both agree with
    /// the digest of the values.
    #[test]
    fn a_public_log_digests_as_stored_and_as_its_values() {
        let revealed = json!([]);
        let pools = json!({"players": []});
        for log in [
            json!([{"kind": "struck", "text": "Ann \u{1f} strikes.", "round": 1}]),
            json!([{"kind": "joined", "text": "\"private_to_seat\" joins.", "b": {"z": 1, "a": 2}}]),
        ] {
            let values = step_digest(
                "prev",
                StepContent {
                    round: 1,
                    step: "orders",
                    revealed: &revealed,
                    log: &log,
                    pools: &pools,
                },
            );
            let stored = stored_step_digest(
                "prev",
                StoredStep {
                    round: 1,
                    step: "orders",
                    revealed: &jcs::canonical(&revealed),
                    log: &jcs::to_canonical(&log).unwrap(),
                    public_log: None,
                    pools: &jcs::canonical(&pools),
                },
            )
            .unwrap();
            assert_eq!(stored, values, "{log}");
        }
    }

    #[test]
    fn two_orders_give_unrelated_commitments() {
        let player = Uuid::nil();
        let nonce = "ab".repeat(32);
        let a = order_commitment(&json!({"move": "block"}), 1, "orders", player, &nonce);
        let b = order_commitment(&json!({"move": "strike"}), 1, "orders", player, &nonce);
        assert_ne!(a, b);
        // About half the bits differ, as for unrelated values: nothing of one order shows in
        // the other's commitment.
        let differing: u32 = a
            .as_bytes()
            .chunks(2)
            .zip(b.as_bytes().chunks(2))
            .map(|(x, y)| {
                let x = u8::from_str_radix(std::str::from_utf8(x).unwrap(), 16).unwrap();
                let y = u8::from_str_radix(std::str::from_utf8(y).unwrap(), 16).unwrap();
                (x ^ y).count_ones()
            })
            .sum();
        assert!(
            (64..=192).contains(&differing),
            "{differing} of 256 bits differ"
        );
    }

    #[test]
    fn the_public_log_leaves_out_private_entries() {
        let log = json!([{"kind": "a"}, {"kind": "drew", "private_to_seat": 1}]);
        assert_eq!(public_log(&log), json!([{"kind": "a"}]));
    }
}
