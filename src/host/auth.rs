//! Tokens: random, shown once, stored only as SHA-256 hashes.

use rand::RngExt;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::error::AppError;
use crate::fairness::hex;
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

/// The stored host-token hash of lobby `lobby` whose host is the holder of the token hashed as
/// `director_hash` (a tournament's director): host tokens are unique per lobby, so the
/// director's hash is bound to each lobby rather than stored as it is.
pub fn delegated_host_hash(director_hash: &str, lobby: Uuid) -> String {
    hash_token(&format!("{director_hash}/{lobby}"))
}

/// The token a request presented (if any), already hashed, or the profile its profile key
/// names (docs/identity.md: a profile key stands in for the token of a seat its profile
/// holds). Hashing it, and looking the profile up, before a change is queued keeps that work
/// off the one writer every change of a lobby passes through.
#[derive(Clone, Debug)]
pub struct Presented {
    hash: Option<String>,
    profile: Option<Uuid>,
}

impl Presented {
    /// A lobby's token (the host's or a seat's).
    pub fn new(token: Option<&str>) -> Presented {
        Presented {
            hash: token.map(hash_token),
            profile: None,
        }
    }

    /// A profile's key, already resolved to the profile.
    pub fn profile(profile: Uuid) -> Presented {
        Presented {
            hash: None,
            profile: Some(profile),
        }
    }
}

/// Who a request's token says it is, in one lobby.
#[derive(Debug)]
pub enum Caller<'a> {
    Host,
    Player(&'a PlayerRow),
}

/// Identifies the caller in this lobby: 401 if there is no token or the lobby does not know it.
pub fn identify<'a>(snapshot: &'a Snapshot, presented: &Presented) -> Result<Caller<'a>, AppError> {
    if let Some(profile) = presented.profile {
        // The seat the profile holds (bound or claimed); a substitute or a new link ended
        // the binding with the holding (`PlayerUpdate`).
        return snapshot
            .players
            .iter()
            .find(|p| p.binding.is_some_and(|b| b.profile == profile))
            .map(Caller::Player)
            .ok_or_else(|| {
                AppError::unauthenticated(
                    "unknown-token",
                    "That profile holds no seat in this lobby.",
                )
            });
    }
    let hash = presented.hash.as_deref().ok_or_else(|| {
        AppError::unauthenticated(
            "missing-token",
            "This request needs a token: send it as \"Authorization: Bearer <token>\".",
        )
    })?;
    if snapshot.lobby.host_token_hash == hash {
        return Ok(Caller::Host);
    }
    if let Some(player) = snapshot.players.iter().find(|p| p.token_hash == hash) {
        return Ok(Caller::Player(player));
    }
    // A tournament's director hosts each of its lobbies (docs/tournaments.md, "How the server
    // keeps them"); hashed only for a token that is neither the host's nor a seat's.
    if snapshot.lobby.host_token_hash == delegated_host_hash(hash, snapshot.lobby.id) {
        return Ok(Caller::Host);
    }
    Err(AppError::unauthenticated(
        "unknown-token",
        "That token does not belong to this lobby.",
    ))
}

/// The host, or 403 for a player's token.
pub fn require_host(snapshot: &Snapshot, presented: &Presented) -> Result<(), AppError> {
    match identify(snapshot, presented)? {
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
    presented: &Presented,
) -> Result<&'a PlayerRow, AppError> {
    match identify(snapshot, presented)? {
        Caller::Player(player) => Ok(player),
        Caller::Host => Err(AppError::forbidden(
            "players-only",
            "Only a seated player can do this; that is the host's token.",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_stored_as_the_hex_of_its_sha256() {
        // SHA-256 of "abc", the FIPS 180-2 example.
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
