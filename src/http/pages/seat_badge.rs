//! What the host's panel says beside a seat held by a profile (docs/identity.md): the handle,
//! whether it is a bot, and the profile's reliability, or that the seat was claimed after the
//! start (history only).

use uuid::Uuid;

use crate::host::profile_seats::SeatProfile;
use crate::store::{Holding, ProfileKind};

/// The words beside one seat.
pub struct SeatBadge {
    pub handle: String,
    pub bot: bool,
    /// Claimed after the start: its record does not count.
    pub retro: bool,
    pub score: u32,
    pub tier: &'static str,
}

impl SeatBadge {
    /// The badge of `player`'s seat, if a profile holds it.
    pub fn of(shown: &[SeatProfile], player: &str) -> Option<SeatBadge> {
        let player = Uuid::parse_str(player).ok()?;
        let seat = shown.iter().find(|s| s.player == player)?;
        Some(SeatBadge {
            handle: seat.handle.clone(),
            bot: seat.binding.kind == ProfileKind::Bot,
            retro: seat.binding.holding == Holding::Retro,
            score: seat.reliability.score,
            tier: seat.reliability.tier.as_str(),
        })
    }
}
