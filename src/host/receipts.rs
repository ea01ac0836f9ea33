//! Binding receipts (docs/fairness.md): each accepted order gets a fresh nonce and a commitment, and is
//! stored with its nonce until its step resolves; the reveal then publishes both.
//!
//! A pending order's `body` column holds `{"order": ..., "nonce": "...", "commitment": "..."}`,
//! the commitment kept so that the reveal need not hash every order again. A body stored
//! before commitments were kept has no `commitment` (the reveal computes it); one stored
//! before nonces is the order alone and reveals with no nonce. A main-step order sent with a
//! vote (docs/table-talk.md, "End votes") adds `"vote"`; the vote is sealed with the order but
//! is no part of it, so the commitment and the receipt of an order without one are unchanged.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use uuid::Uuid;

use super::engine::to_text;
use crate::error::AppError;
use crate::fairness::act::Vote;
use crate::fairness::{fresh_secret, order_commitment};
use crate::rules::Game;
use crate::store::OrderRow;

/// A pending order as stored.
#[derive(Serialize)]
struct Sealed<'a> {
    order: &'a Value,
    nonce: &'a str,
    commitment: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    vote: Option<Vote>,
}

/// An order's nonce and commitment, made when it is accepted.
#[derive(Clone, Debug)]
pub(super) struct Binding {
    pub nonce: String,
    pub commitment: String,
    /// The vote sent with the order, if any.
    pub vote: Option<Vote>,
}

impl Binding {
    /// A fresh nonce for `order` (its JSON as stored) from `player` for this round and step.
    pub fn new(
        order: &Value,
        (round, step): (u32, &str),
        player: Uuid,
        vote: Option<Vote>,
    ) -> Binding {
        let nonce = fresh_secret();
        let commitment = order_commitment(order, round, step, player, &nonce);
        Binding {
            nonce,
            commitment,
            vote,
        }
    }

    /// The seal the reveal publishes for this order.
    pub fn seal(&self) -> Seal {
        Seal {
            nonce: self.nonce.clone(),
            commitment: Some(self.commitment.clone()),
            vote: self.vote,
        }
    }
}

/// The text stored for a pending order with its nonce and commitment.
pub(super) fn stored(order: &Value, binding: &Binding) -> Result<String, AppError> {
    to_text(&Sealed {
        order,
        nonce: &binding.nonce,
        commitment: &binding.commitment,
        vote: binding.vote,
    })
}

/// A sent order's nonce, and its commitment where it was kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Seal {
    pub nonce: String,
    pub commitment: Option<String>,
    /// The vote sealed with the order (revealed with it).
    pub vote: Option<Vote>,
}

/// A pending order as read back: the order's text borrowed, not parsed, since most readers
/// want only the nonce or only the order.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SealedText<'a> {
    #[serde(borrow)]
    order: &'a RawValue,
    nonce: String,
    #[serde(default)]
    commitment: Option<String>,
    #[serde(default)]
    vote: Option<Vote>,
}

/// A stored pending order's JSON text and seal (none for an order stored before nonces,
/// which is the order alone: a game's order has no `nonce` field).
pub(super) fn unsealed(body: &str) -> Result<(&str, Option<Seal>), AppError> {
    match serde_json::from_str::<SealedText<'_>>(body) {
        Ok(sealed) => Ok((
            sealed.order.get(),
            Some(Seal {
                nonce: sealed.nonce,
                commitment: sealed.commitment,
                vote: sealed.vote,
            }),
        )),
        Err(_) => {
            // Only well-formed JSON is the order alone; anything else is a corrupt row.
            serde_json::from_str::<&RawValue>(body)
                .map_err(|e| AppError::Internal(format!("stored JSON: {e}")))?;
            Ok((body, None))
        }
    }
}

/// A stored pending order as the checked order it is (its nonce aside).
pub(super) fn order_of<G: Game>(row: &OrderRow) -> Result<G::Order, AppError> {
    Ok(sealed_order_of::<G>(row)?.0)
}

/// A stored pending order as the checked order it is, and its seal.
pub(super) fn sealed_order_of<G: Game>(
    row: &OrderRow,
) -> Result<(G::Order, Option<Seal>), AppError> {
    let (order, seal) = unsealed(&row.body)?;
    let order = serde_json::from_str(order)
        .map_err(|e| AppError::Internal(format!("stored order: {e}")))?;
    Ok((order, seal))
}

/// The seals of a step's stored orders, by player (a step closed without a last order: a
/// deadline or the host; an order that completes a step reads its seals with the orders).
pub(super) fn seals(orders: &[OrderRow]) -> Result<Vec<(Uuid, Seal)>, AppError> {
    let mut seals = Vec::with_capacity(orders.len());
    for row in orders {
        if let (_, Some(seal)) = unsealed(&row.body)? {
            seals.push((row.player_id, seal));
        }
    }
    Ok(seals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_stored_order_reads_back_with_its_seal_and_older_ones_with_what_they_kept() {
        let order = json!({"move": "strike", "target": "p2"});
        let binding = Binding {
            nonce: "ab12".into(),
            commitment: "c0ffee".into(),
            vote: None,
        };
        let body = stored(&order, &binding).unwrap();
        let (text, seal) = unsealed(&body).unwrap();
        assert_eq!(serde_json::from_str::<Value>(text).unwrap(), order);
        let seal = seal.unwrap();
        assert_eq!(
            (seal.nonce.as_str(), seal.commitment.as_deref()),
            ("ab12", Some("c0ffee"))
        );
        // Stored before commitments were kept: the nonce alone.
        let (_, seal) = unsealed(r#"{"order":{"move":"block"},"nonce":"cd"}"#).unwrap();
        assert_eq!(
            seal,
            Some(Seal {
                nonce: "cd".into(),
                commitment: None,
                vote: None,
            })
        );
        // A vote is sealed beside the order, and an order without one is stored as before.
        assert!(!body.contains("vote"));
        let voted = Binding {
            vote: Some(Vote::Draw),
            ..binding
        };
        let body = stored(&order, &voted).unwrap();
        let (text, seal) = unsealed(&body).unwrap();
        assert_eq!(serde_json::from_str::<Value>(text).unwrap(), order);
        assert_eq!(seal.unwrap().vote, Some(Vote::Draw));
        // Stored before nonces: the order alone, revealed with none.
        let old = order.to_string();
        assert_eq!(unsealed(&old).unwrap(), (old.as_str(), None));
        assert!(
            unsealed("{\"order\":").is_err(),
            "a corrupt row is an error"
        );
    }
}
