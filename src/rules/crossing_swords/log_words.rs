//! The log lines as people read them on the pages, in the posts and in the notices
//! ([`crate::rules::Event::words`]): who gets how many counters said in that order, real
//! plurals ("1 counter", "3 counters"), no setting's key. The stored lines (`narration.rs`) stay as they are: archives hash
//! and replay them.

use super::events::{Event, Share};

/// `"1 counter"`, `"3 counters"`.
fn counters(n: u32) -> String {
    match n {
        1 => "1 counter".to_owned(),
        n => format!("{n} counters"),
    }
}

/// How each damager's counters are told.
#[derive(Clone, Copy)]
enum Told {
    /// `"3 to Ann"`, after a word that already says they are counters.
    Bare,
    /// `"3 counters to Ann, 1 counter to Bob"`.
    Counted,
    /// On overkill each share with its damage, `"2 of 3 to Ann"`.
    OfDamage,
}

/// Who gets how many counters, in that order: `"3 to Ann, 2 to Bob"`.
fn shares(shares: &[Share], told: Told) -> String {
    let parts: Vec<String> = shares
        .iter()
        .map(|s| match told {
            Told::Bare => format!("{} to {}", s.counters, s.damager),
            Told::Counted => format!("{} to {}", counters(s.counters), s.damager),
            Told::OfDamage => format!("{} of {} to {}", s.counters, s.damage, s.damager),
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
                "{victim} takes {damage} damage with only {hp} HP: overkill, full credit from the supply: {}",
                shares(moved, Told::Counted)
            ),
            (true, false) => format!(
                "{victim} takes {damage} damage with only {hp} HP: overkill, the counters split {}",
                shares(moved, Told::OfDamage)
            ),
            (false, _) => format!(
                "{victim} loses {damage} HP; counters: {}",
                shares(moved, Told::Bare)
            ),
        },
        Event::AssailCapped {
            assailer,
            counters: won,
            credited,
            discarded,
        } => format!(
            "{assailer}'s Assail won {}: {credited} VP kept, {discarded} {} the game",
            counters(*won),
            match discarded {
                1 => "leaves",
                _ => "leave",
            }
        ),
        Event::AssailReturned {
            assailer,
            counters: won,
            credited,
            returned,
        } => {
            let back: Vec<String> = returned
                .iter()
                .map(|r| format!("{} to {}", r.counters, r.victim))
                .collect();
            format!(
                "{assailer}'s Assail won {}: {credited} VP kept, the rest go back: {}",
                counters(*won),
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
        Event::Kicked { player, hp, vp } => format!(
            "The host removes {player} from the game: {} of HP {} the game; {player} keeps {vp} VP",
            counters(*hp),
            match hp {
                1 => "leaves",
                _ => "leave",
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
    fn one_counter_is_one_counter() {
        let moved = Event::CountersMoved {
            victim: who(1, "Cat"),
            hp: 2,
            damage: 6,
            overkill: true,
            full_credit: true,
            shares: vec![
                Share {
                    damager: who(2, "Ann"),
                    damage: 3,
                    counters: 3,
                },
                Share {
                    damager: who(3, "Bob"),
                    damage: 1,
                    counters: 1,
                },
            ],
        };
        assert_eq!(
            words(&moved),
            "Cat takes 6 damage with only 2 HP: overkill, full credit from the supply: 3 counters to Ann, 1 counter to Bob"
        );
        let returned = Event::AssailReturned {
            assailer: who(2, "Ann"),
            counters: 1,
            credited: 1,
            returned: Vec::new(),
        };
        assert!(
            words(&returned).starts_with("Ann's Assail won 1 counter: 1 VP kept"),
            "{}",
            words(&returned)
        );
        let capped = |counters, discarded| Event::AssailCapped {
            assailer: who(2, "Ann"),
            counters,
            credited: 8,
            discarded,
        };
        assert_eq!(
            words(&capped(9, 1)),
            "Ann's Assail won 9 counters: 8 VP kept, 1 leaves the game"
        );
        assert_eq!(
            words(&capped(11, 3)),
            "Ann's Assail won 11 counters: 8 VP kept, 3 leave the game"
        );
        let kicked = |hp| Event::Kicked {
            player: who(3, "Bob"),
            hp,
            vp: 4,
        };
        assert_eq!(
            words(&kicked(1)),
            "The host removes Bob from the game: 1 counter of HP leaves the game; Bob keeps 4 VP"
        );
        assert_eq!(
            words(&kicked(7)),
            "The host removes Bob from the game: 7 counters of HP leave the game; Bob keeps 4 VP"
        );
        // The stored lines are the record, and stay as they were.
        assert_eq!(
            capped(9, 1).to_string(),
            "Ann's Assail won 9 counters: 8 VP kept, 1 leave the game"
        );
        assert_eq!(
            kicked(1).to_string(),
            "The host removes Bob from the game: 1 HP counters leave the game; Bob keeps 4 VP"
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
