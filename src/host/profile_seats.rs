//! A profile's seats (docs/identity.md, "Seats that belong to someone"): the seats a profile
//! holds now, as its own view lists them (`GET /api/v1/me`), and the profiles bound to a
//! lobby's seats, as its host and the modules built on profiles see them.

use serde::Serialize;
use uuid::Uuid;

use super::Host;
use super::profiles::ProfileView;
use super::reliability::Reliability;
use super::vacations::VacationView;
use crate::error::AppError;
use crate::store::Status;

/// The profile's own view (`GET /api/v1/me`).
#[derive(Clone, Debug, Serialize)]
pub struct MyProfile {
    #[serde(flatten)]
    pub profile: ProfileView,
    pub seats: Vec<SeatView>,
    /// The profile's vacation not yet over (docs/identity.md, "Vacations").
    pub vacation: Option<VacationView>,
}

/// A seat the profile holds now.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    pub lobby: Uuid,
    pub player_id: Uuid,
    pub game: String,
    pub status: Status,
    /// Whether the seat owes an answer now.
    pub owes: bool,
    /// False for a seat claimed after the start.
    pub bound: bool,
}

/// A seat's profile as the host sees it.
#[derive(Clone, Debug)]
pub struct SeatProfile {
    pub player: Uuid,
    pub handle: String,
    pub binding: crate::store::SeatBinding,
    pub reliability: Reliability,
}

impl Host {
    /// The profile `key` names, with the seats it holds now.
    pub async fn me_profile(&self, key: Option<&str>) -> Result<MyProfile, AppError> {
        let signed = self.signed(key).await?;
        let profile = self.profile_view(&signed.profile).await?;
        let seats = self.seat_views(signed.profile.id).await?;
        let vacation = self.vacation_of(signed.profile.id).await?.vacation;
        Ok(MyProfile {
            profile,
            seats,
            vacation,
        })
    }

    /// The profile of each seat of lobby `id` that has one, with its handle and record, in
    /// seat order (the host's panel shows them beside the seats).
    /// None while an anonymous game runs: a handle would name the player behind a pseudonym.
    pub async fn seat_profiles_shown(&self, id: Uuid) -> Result<Vec<SeatProfile>, AppError> {
        let mut shown = Vec::new();
        let snapshot = self.snapshot(id).await?;
        if snapshot.lobby.status != Status::Finished && super::anonymity::anonymous(&snapshot)? {
            return Ok(shown);
        }
        for (player, binding) in self.seat_profiles(id).await? {
            let Some(profile) = self.store.profile_by_id(binding.profile).await? else {
                continue;
            };
            shown.push(SeatProfile {
                player,
                handle: profile.handle,
                binding,
                reliability: self.reliability_of(profile.id).await?.0,
            });
        }
        Ok(shown)
    }

    /// The profile bound to each seat of lobby `id` that has one, by player (for the host's
    /// panel and for the modules that build on profiles: ratings, tournaments).
    pub async fn seat_profiles(
        &self,
        id: Uuid,
    ) -> Result<Vec<(Uuid, crate::store::SeatBinding)>, AppError> {
        let snapshot = self.snapshot(id).await?;
        Ok(snapshot
            .players
            .iter()
            .filter_map(|p| p.binding.map(|b| (p.id, b)))
            .collect())
    }
}
