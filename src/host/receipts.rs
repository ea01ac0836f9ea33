//! Binding receipts (issue 17): each accepted order gets a fresh nonce and a commitment, and is
//! stored with its nonce until its step resolves; the reveal then publishes both.
//!
//! A pending order's `body` column holds `{"order": ..., "nonce": "..."}`. A body stored
//! before this existed is the order alone and reveals with no nonce.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use super::engine::{from_stored, to_text};
use crate::error::AppError;
use crate::fairness::{fresh_secret, order_commitment};
use crate::rules::Game;
use crate::store::OrderRow;

/// A pending order as stored.
#[derive(Serialize, Deserialize)]
struct Sealed {
    order: Value,
    nonce: String,
}

/// An order's nonce and commitment, made when it is accepted.
#[derive(Clone, Debug)]
pub(super) struct Binding {
    pub nonce: String,
    pub commitment: String,
}

impl Binding {
    /// A fresh nonce for `order` (its JSON as stored) from `player` for this round and step.
    pub fn new(order: &Value, round: u32, step: &str, player: Uuid) -> Binding {
        let nonce = fresh_secret();
        let commitment = order_commitment(order, round, step, player, &nonce);
        Binding { nonce, commitment }
    }
}

/// The text stored for a pending order with its nonce.
pub(super) fn stored(order: &Value, nonce: &str) -> Result<String, AppError> {
    to_text(&Sealed {
        order: order.clone(),
        nonce: nonce.to_string(),
    })
}

/// A stored pending order's JSON and nonce (none for an order stored before nonces).
pub(super) fn unsealed(body: &str) -> Result<(Value, Option<String>), AppError> {
    let value: Value = from_stored(body)?;
    match serde_json::from_value::<Sealed>(value.clone()) {
        Ok(sealed) if value.as_object().is_some_and(|o| o.len() == 2) => {
            Ok((sealed.order, Some(sealed.nonce)))
        }
        _ => Ok((value, None)),
    }
}

/// A stored pending order as the checked order it is (its nonce aside).
pub(super) fn order_of<G: Game>(row: &OrderRow) -> Result<G::Order, AppError> {
    let (order, _) = unsealed(&row.body)?;
    serde_json::from_value(order).map_err(|e| AppError::Internal(format!("stored order: {e}")))
}

/// The nonces of a step's orders, by player: those stored, and the one just accepted (the
/// last owed order resolves the step without being stored).
pub(super) fn nonces(
    orders: &[OrderRow],
    fresh: Option<(Uuid, &str)>,
) -> Result<Vec<(Uuid, String)>, AppError> {
    let mut nonces = Vec::with_capacity(orders.len() + 1);
    for row in orders {
        if let (_, Some(nonce)) = unsealed(&row.body)? {
            nonces.push((row.player_id, nonce));
        }
    }
    if let Some((player, nonce)) = fresh {
        nonces.retain(|(id, _)| *id != player);
        nonces.push((player, nonce.to_string()));
    }
    Ok(nonces)
}
