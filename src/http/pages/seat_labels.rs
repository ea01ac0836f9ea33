//! A seat's name as the public record shows it: a substitute with whom they replaced, "Eve
//! (for Bob)", in every table, order line, standings row and chart legend, so that Eve is not
//! read as a new player holding Bob's pools (docs/web.md, "Substitutes").

use uuid::Uuid;

use crate::host::substitutes::{Substitute, seat_label};

/// The lobby's substitutions, oldest first.
#[derive(Clone, Debug, Default)]
pub struct SeatLabels(Vec<Substitute>);

impl SeatLabels {
    pub fn of(substitutes: &[Substitute]) -> SeatLabels {
        SeatLabels(substitutes.to_vec())
    }

    /// `name`, holder of player `id`'s seat, with those who held it before: "Eve (for Bob)",
    /// "Fay (for Bob, Eve)" ([`seat_label`]).
    pub fn label(&self, id: &str, name: &str) -> String {
        match id.parse() {
            Ok(player) => self.label_of(player, name),
            Err(_) => name.to_owned(),
        }
    }

    /// [`SeatLabels::label`] by the player's id.
    pub fn label_of(&self, player: Uuid, name: &str) -> String {
        seat_label(&self.0, player, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(player: Uuid, name: &str, previous: &str) -> Substitute {
        Substitute {
            round: 2,
            player,
            seat: 1,
            name: name.into(),
            previous: previous.into(),
        }
    }

    #[test]
    fn a_substitute_is_named_with_those_they_replaced() {
        let (bob, ann) = (Uuid::from_u128(2), Uuid::from_u128(1));
        let labels = SeatLabels::of(&[sub(bob, "Eve", "Bob"), sub(bob, "Fay", "Eve")]);
        let bob = bob.to_string();
        assert_eq!(labels.label(&bob, "Bob"), "Bob");
        assert_eq!(labels.label(&bob, "Eve"), "Eve (for Bob)");
        assert_eq!(labels.label(&bob, "Fay"), "Fay (for Bob, Eve)");
        assert_eq!(labels.label(&ann.to_string(), "Ann"), "Ann");
    }
}
