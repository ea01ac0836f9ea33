//! T6: why a submitted tile is played as a Standard Strike or a Guard instead (A8, A9).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::characters::Character;
use super::moves::Move;
use super::state::State;
use crate::rules::Seat;

/// Why a tile is illegal for its player now, in T6's order (i)-(iv) (A9). Serialized with a
/// `rule` tag in the `replaced` log event; `Display` is the clause of its log line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "rule")]
pub enum Illegal {
    /// (i) The character cannot use the tile at all (§3.5, e.g. L287, L303, L313).
    CharacterBan {
        /// The player's character.
        character: Character,
        /// The tile.
        #[serde(rename = "move")]
        tile: Move,
    },
    /// (ii) Dashing Strike and Evasion cannot be used while Off-Balance (L188).
    OffBalance {
        /// The tile.
        #[serde(rename = "move")]
        tile: Move,
    },
    /// (iii) The Channeler has set the Piercing Strike aside (L307, A28).
    SetAside,
    /// (iv) The player cannot pay the tile's cost (T6, A10, A21).
    Unaffordable {
        /// The tile.
        #[serde(rename = "move")]
        tile: Move,
        /// Its cost for this character.
        cost: u8,
        /// The Charges held.
        charges: u8,
    },
}

/// Why `tile` would be replaced at T6 for `seat` now, if it would: (i) character ban, (ii)
/// Off-Balance Dashing/Evasion, (iii) Piercing set aside, (iv) unaffordable (T6, A9).
pub fn illegal_reason(s: &State, seat: Seat, tile: Move) -> Option<Illegal> {
    let p = &s.players[seat.0];
    if !p.character.can_use(tile) {
        Some(Illegal::CharacterBan {
            character: p.character,
            tile,
        })
    } else if p.off_balance && matches!(tile, Move::DashingStrike | Move::Evasion) {
        Some(Illegal::OffBalance { tile })
    } else if tile == Move::PiercingStrike && p.piercing_set_aside {
        Some(Illegal::SetAside)
    } else if !p.can_afford(p.character.cost(tile)) {
        Some(Illegal::Unaffordable {
            tile,
            cost: p.character.cost(tile),
            charges: p.charges,
        })
    } else {
        None
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::CharacterBan { character, tile } => {
                write!(f, "the {character} cannot use {tile}")
            }
            Illegal::OffBalance { tile } => write!(f, "{tile} cannot be used while Off-Balance"),
            Illegal::SetAside => f.write_str("the Channeler has set the Piercing Strike aside"),
            Illegal::Unaffordable {
                tile,
                cost,
                charges,
            } => write!(
                f,
                "{tile} costs {cost} Charge(s) and only {charges} are held"
            ),
        }
    }
}
