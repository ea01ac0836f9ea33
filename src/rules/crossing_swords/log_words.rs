//! The log lines as people read them on the pages, in the posts and in the notices
//! ([`crate::rules::Event::words`]): who gets how many counters said in that order, real
//! plurals, no setting's key. The stored lines (`narration.rs`) stay as they are: archives hash
//! and replay them.

use super::events::{Event, Share};

/// `"3 to Ann, 2 to Bob"`; on overkill each share with its damage, `"2 of 3 to Ann"`.
fn shares(shares: &[Share], overkill: bool) -> String {
    let parts: Vec<String> = shares
        .iter()
        .map(|s| match overkill {
            true => format!("{} of {} to {}", s.counters, s.damage, s.damager),
            false => format!("{} to {}", s.counters, s.damager),
        })
        .collect();
    parts.join(", ")
}

/// The line of `event` as people read it.
pub fn words(event: &Event) -> String {
    match event {
        Event::CountersMoved {
            victim,
            hp,
            damage,
            overkill,
            full_credit,
            shares: moved,
        } => match (*overkill, *full_credit) {
            (true, true) => format!(
                "{victim} takes {damage} damage with only {hp} HP: overkill, full credit from the supply: {} counters",
                shares(moved, false)
            ),
            (true, false) => format!(
                "{victim} takes {damage} damage with only {hp} HP: overkill, the counters split {}",
                shares(moved, true)
            ),
            (false, _) => format!(
                "{victim} loses {damage} HP; counters: {}",
                shares(moved, false)
            ),
        },
        Event::AssailReturned {
            assailer,
            counters,
            credited,
            returned,
        } => {
            let back: Vec<String> = returned
                .iter()
                .map(|r| format!("{} to {}", r.counters, r.victim))
                .collect();
            format!(
                "{assailer}'s Assail won {counters} counters: {credited} VP kept, the rest go back: {}",
                back.join(", ")
            )
        }
        Event::TauntSteal {
            taunter,
            target,
            pool,
            taunters,
            stolen,
        } => format!(
            "{taunter}'s Taunt steals {stolen} VP from {target} ({pool} VP at the start of the turn, {})",
            match taunters {
                1 => "1 Taunter".to_owned(),
                n => format!("{n} Taunters"),
            }
        ),
        Event::Defaulted { player, mv } => format!(
            "{player} sent no order and plays {} on himself, as the lobby's settings say",
            mv.title()
        ),
        other => other.to_string(),
    }
}

impl crate::rules::Event for Event {
    fn words(&self) -> String {
        words(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PlayerId;
    use crate::rules::crossing_swords::events::PlayerRef;

    fn who(n: u128, name: &str) -> PlayerRef {
        PlayerRef {
            id: PlayerId(uuid::Uuid::from_u128(n)),
            name: name.into(),
        }
    }

    #[test]
    fn counters_say_how_many_go_to_whom() {
        let moved = |overkill| Event::CountersMoved {
            victim: who(1, "Cat"),
            hp: 4,
            damage: 6,
            overkill,
            full_credit: false,
            shares: vec![
                Share {
                    damager: who(2, "Ann"),
                    damage: 3,
                    counters: 3,
                },
                Share {
                    damager: who(3, "Bob"),
                    damage: 3,
                    counters: 1,
                },
            ],
        };
        assert_eq!(
            words(&moved(false)),
            "Cat loses 6 HP; counters: 3 to Ann, 1 to Bob"
        );
        assert_eq!(
            words(&moved(true)),
            "Cat takes 6 damage with only 4 HP: overkill, the counters split 3 of 3 to Ann, 1 of 3 to Bob"
        );
        // The stored line is the record, and stays as it was.
        assert_eq!(
            moved(false).to_string(),
            "Cat loses 6 HP, counters to Ann 3, Bob 1"
        );
    }

    #[test]
    fn one_taunter_is_one() {
        let steal = Event::TauntSteal {
            taunter: who(1, "Ann"),
            target: who(2, "Bob"),
            pool: 2,
            taunters: 1,
            stolen: 2,
        };
        assert_eq!(
            words(&steal),
            "Ann's Taunt steals 2 VP from Bob (2 VP at the start of the turn, 1 Taunter)"
        );
    }
}
