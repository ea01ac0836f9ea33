//! Seats that belong to someone (docs/identity.md, "Seats"): a profile binds a seat by
//! joining with its key, or claims one with the seat's private link: bound while the game has
//! not started, `retro` (history only) once it has. The host may excuse a bound seat's miss.

use serde::Serialize;
use uuid::Uuid;

use super::Host;
use super::auth::{hash_token, require_host};
use super::controls::seated;
use super::gates::Joiner;
use super::holdings::{game_record, not_seated};
use super::timing::Timing;
use crate::error::AppError;
use crate::store::{Change, Holding, Outcome, PlayerPatch, SeatBinding, Status};

/// A seat just claimed.
#[derive(Debug, Serialize)]
pub struct Claimed {
    pub player_id: Uuid,
    /// `bound`, or `retro` for a game already under way.
    pub holding: Holding,
}

/// A miss just excused.
#[derive(Debug, Serialize)]
pub struct Excused {
    pub player_id: Uuid,
    pub round: u32,
    pub step: String,
    pub outcome: Outcome,
    /// The host's reason, shown to the player ("" when none was given).
    pub reason: String,
}

/// How long after its step a miss may be excused (docs/identity.md, "Reliability").
const EXCUSE_WINDOW_MILLIS: i64 = 7 * 24 * 60 * 60 * 1000;
/// The longest reason for an excuse.
const REASON_CHARS: usize = 200;

impl Host {
    /// The profile `key` names claims `player_id`'s seat, proven by the seat's `player_token`.
    pub async fn claim(
        &self,
        id: Uuid,
        key: Option<&str>,
        player_id: String,
        player_token: &str,
    ) -> Result<Claimed, AppError> {
        let profile = self.signed(key).await?.profile;
        self.claim_with(id, profile, player_id, player_token).await
    }

    /// [`Host::claim`] for a profile already known (a signed-in page's).
    pub async fn claim_with(
        &self,
        id: Uuid,
        profile: crate::store::ProfileRow,
        player_id: String,
        player_token: &str,
    ) -> Result<Claimed, AppError> {
        let joiner = Joiner {
            kind: profile.kind,
            score: self.reliability_of(profile.id).await?.0.score,
        };
        let proof = hash_token(player_token);
        self.change(id, move |snapshot| {
            let player = seated(snapshot, &player_id)?;
            if player.token_hash != proof {
                return Err(AppError::forbidden(
                    "wrong-token",
                    "That player token is not this seat's: a claim proves the seat with its private link.",
                ));
            }
            let holding = match snapshot.lobby.status {
                Status::Signups | Status::Closed => Holding::Bound,
                Status::Running | Status::Finished => Holding::Retro,
            };
            match player.binding {
                Some(b) if b.profile == profile.id => {
                    let claimed = Claimed {
                        player_id: player.id,
                        holding: b.holding,
                    };
                    return Ok((Change::default(), claimed));
                }
                Some(_) => {
                    return Err(AppError::conflict(
                        "seat-bound",
                        "This seat is bound to another profile.",
                    ));
                }
                None => {}
            }
            not_seated(snapshot, profile.id)?;
            if holding == Holding::Bound {
                // A seat bound before the start counts as if joined with the profile.
                Timing::parse(&snapshot.lobby.timing)?.gates.admit(Some(joiner))?;
            }
            let binding = SeatBinding {
                profile: profile.id,
                kind: profile.kind,
                holding,
            };
            let change = Change {
                players: vec![PlayerPatch {
                    binding: Some(Some(binding)),
                    ..PlayerPatch::of(player.id)
                }],
                records: vec![game_record(snapshot, profile.id, player.id, holding)],
                ..Change::default()
            };
            Ok((
                change,
                Claimed {
                    player_id: player.id,
                    holding,
                },
            ))
        })
        .await
    }

    /// The host excuses `player_id`'s miss of `(round, step)` in its profile's record, for
    /// `reason` (shown to the player): 404 if the seat's record owes no such step, 409 if it
    /// was not a miss or resolved more than 7 days ago.
    pub async fn excuse(
        &self,
        id: Uuid,
        token: Option<&str>,
        player_id: String,
        (round, step): (u32, String),
        reason: Option<&str>,
    ) -> Result<Excused, AppError> {
        let reason = excuse_reason(reason)?;
        let snapshot = self.snapshot(id).await?;
        require_host(&snapshot, &super::auth::Presented::new(token))?;
        let player = seated(&snapshot, &player_id)?.id;
        let now = self.store.clock().now_millis();
        let not_a_miss = || {
            AppError::conflict(
                "not-a-miss",
                "That step was answered on time, or is excused already.",
            )
        };
        match self.store.owed_step(id, player, (round, &step)).await? {
            None => {
                return Err(AppError::not_found(
                    "nothing-to-excuse",
                    "This seat's record holds no such step: none was owed by a profile's bound seat.",
                ));
            }
            Some((Outcome::OnTime | Outcome::Excused, _)) => return Err(not_a_miss()),
            Some((Outcome::Missed, due_at)) if now - due_at > EXCUSE_WINDOW_MILLIS => {
                return Err(AppError::conflict(
                    "excuse-too-late",
                    "A miss is excused within 7 days of its step; this one is older.",
                ));
            }
            Some((Outcome::Missed, _)) => {}
        }
        match self
            .store
            .excuse_step(id, player, (round, &step), &reason)
            .await?
        {
            true => Ok(Excused {
                player_id: player,
                round,
                step,
                outcome: Outcome::Excused,
                reason,
            }),
            false => Err(not_a_miss()),
        }
    }

    /// The misses of lobby `id`'s bound seats that the host may still excuse (the last 7
    /// days'), oldest first.
    pub async fn excusable(&self, id: Uuid) -> Result<Vec<crate::store::MissRow>, AppError> {
        let now = self.store.clock().now_millis();
        Ok(self
            .store
            .lobby_misses(id, now - EXCUSE_WINDOW_MILLIS)
            .await?)
    }
}

/// The host's reason for an excuse, cleaned: one line of at most 200 characters.
fn excuse_reason(reason: Option<&str>) -> Result<String, AppError> {
    let reason: String = reason
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if reason.chars().count() > REASON_CHARS {
        return Err(AppError::rejected(
            "invalid-reason",
            "An excuse's reason is at most 200 characters.",
        ));
    }
    Ok(reason)
}
