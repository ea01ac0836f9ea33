//! Tokens: random, shown once, stored only as SHA-256 hashes.

use rand::RngExt;
use sha2::{Digest, Sha256};

use crate::error::AppError;
use crate::store::{PlayerRow, Snapshot};

/// A fresh token: 32 random bytes from the operating system's generator, hex-encoded. Tokens
/// are long and random, so a plain (fast) hash is enough to keep a database dump from
/// revealing them.
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    hex(&bytes)
}

/// The stored form of a token.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Who a request's token says it is, in one lobby.
#[derive(Debug)]
pub enum Caller<'a> {
    Host,
    Player(&'a PlayerRow),
}

/// Identifies the caller in this lobby: 401 if there is no token or the lobby does not know it.
pub fn identify<'a>(snapshot: &'a Snapshot, token: Option<&str>) -> Result<Caller<'a>, AppError> {
    let token = token.ok_or_else(|| {
        AppError::unauthenticated(
            "missing-token",
            "This request needs a token: send it as \"Authorization: Bearer <token>\".",
        )
    })?;
    let hash = hash_token(token);
    if snapshot.lobby.host_token_hash == hash {
        return Ok(Caller::Host);
    }
    snapshot
        .players
        .iter()
        .find(|p| p.token_hash == hash)
        .map(Caller::Player)
        .ok_or_else(|| {
            AppError::unauthenticated("unknown-token", "That token does not belong to this lobby.")
        })
}

/// The host, or 403 for a player's token.
pub fn require_host(snapshot: &Snapshot, token: Option<&str>) -> Result<(), AppError> {
    match identify(snapshot, token)? {
        Caller::Host => Ok(()),
        Caller::Player(_) => Err(AppError::forbidden(
            "host-only",
            "Only the lobby's host can do this; that is a player's token.",
        )),
    }
}

/// A player, or 403 for the host's token.
pub fn require_player<'a>(
    snapshot: &'a Snapshot,
    token: Option<&str>,
) -> Result<&'a PlayerRow, AppError> {
    match identify(snapshot, token)? {
        Caller::Player(player) => Ok(player),
        Caller::Host => Err(AppError::forbidden(
            "players-only",
            "Only a seated player can do this; that is the host's token.",
        )),
    }
}
