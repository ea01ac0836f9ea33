//! A seat's name as the public record shows it: a substitute with whom they replaced, "Eve
//! (for Bob)", in every table, order line, standings row and chart legend, so that Eve is not
//! read as a new player holding Bob's pools (docs/web.md, "Substitutes").

use std::collections::HashMap;

use crate::host::substitutes::Substitute;

/// Per player id, the names the seat has had, the first entrant first.
#[derive(Clone, Debug, Default)]
pub struct SeatLabels(HashMap<String, Vec<String>>);

impl SeatLabels {
    pub fn of(substitutes: &[Substitute]) -> SeatLabels {
        let mut held: HashMap<String, Vec<String>> = HashMap::new();
        for sub in substitutes {
            let names = held.entry(sub.player.to_string()).or_default();
            if names.is_empty() {
                names.push(sub.previous.clone());
            }
            names.push(sub.name.clone());
        }
        SeatLabels(held)
    }

    /// `name`, holder of player `id`'s seat, with those who held it before: "Eve (for Bob)",
    /// "Fay (for Bob, Eve)". A name the seat had first, or one of a seat never taken over,
    /// stays as it is.
    pub fn label(&self, id: &str, name: &str) -> String {
        let Some(names) = self.0.get(id) else {
            return name.to_owned();
        };
        // The latest holder of a name, should a seat come back to an earlier one.
        match names.iter().rposition(|n| n == name) {
            Some(at) if at > 0 => format!("{name} (for {})", names[..at].join(", ")),
            Some(_) | None => name.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

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
