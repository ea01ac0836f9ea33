//! Contests' create form: the variant keys of rulings §5.1 with their ranges, and under
//! "advanced" the seed of §3.9 and the setup position (the `decks` and `default_dice` hooks
//! are for the API).

use crate::games::create::{Input, Setting, choice};

const fn whole(key: &'static str, label: &'static str, min: u64, max: u64) -> Setting {
    Setting {
        key,
        label,
        input: Input::Whole { min, max },
        advanced: false,
    }
}

/// Every variant key, each with its range or its values (the default first).
pub const SETTINGS: &[Setting] = &[
    whole(
        "hp",
        "Hit points before abilities, 1-20 (default 6; Ruling 6)",
        1,
        20,
    ),
    whole(
        "energy",
        "Starting energy, 0-20 (default 5; Ruling 7)",
        0,
        20,
    ),
    whole(
        "points",
        "Attribute points in a build, 3-18 (default 12; Ruling 4)",
        3,
        18,
    ),
    whole(
        "max_abilities",
        "Abilities in a build, 0-5 (default 3; Ruling 5)",
        0,
        5,
    ),
    whole(
        "base_guesses",
        "Guesses of the opponent's die, 0-3 (default 1; Ruling 18)",
        0,
        3,
    ),
    whole(
        "max_ties",
        "Tie-breaks before the defender wins, 1-10 (default 3; Ruling 26)",
        1,
        10,
    ),
    whole(
        "max_phases",
        "Phases before the duel ends on points, 1-200 (default 30; Ruling 52)",
        1,
        200,
    ),
    whole(
        "opening_hand",
        "Cards in the opening hand, 0-17 (default 5; Ruling 49)",
        0,
        17,
    ),
    whole(
        "hand_limit",
        "Draw only below this many cards, 1-17, not below the opening hand (default 6; Ruling 49)",
        1,
        17,
    ),
    choice(
        "escape_result",
        "An escape (Ruling 30)",
        &[
            ("draw", "A draw"),
            ("loss", "A loss for the one who escapes"),
        ],
    ),
    choice(
        "cap_result",
        "The phase cap (Ruling 52)",
        &[("hp", "More HP wins"), ("draw", "A draw")],
    ),
    choice(
        "initiator",
        "Who initiated the combat (Ruling 51)",
        &[("p1", "The first to join"), ("p2", "The second to join")],
    ),
    Setting {
        key: "seed",
        label: "Seed (a whole number: the same seed shuffles and chooses the same)",
        input: Input::Whole {
            min: 0,
            max: u64::MAX,
        },
        advanced: true,
    },
    Setting {
        key: "setup",
        label: "Setup: a starting position as JSON (see the rules page)",
        input: Input::Json,
        advanced: true,
    },
];

#[cfg(test)]
mod tests {
    use super::SETTINGS;
    use crate::games::create::Input;
    use crate::rules::contests::rulebook::Rulebook;

    /// The form offers every variant key of §5.1 with the rulebook's own range or words (the
    /// default first), so what the API tests drive from the rulebook is what a host can pick.
    #[test]
    fn the_form_offers_the_rulebooks_keys_with_their_ranges_and_words() {
        for (key, lo, hi) in Rulebook::RANGES {
            let setting = SETTINGS.iter().find(|s| s.key == key).expect(key);
            assert!(
                matches!(setting.input, Input::Whole { min, max } if min == u64::from(lo) && max == u64::from(hi)),
                "{key}"
            );
        }
        for (key, words) in Rulebook::CHOICES {
            let setting = SETTINGS.iter().find(|s| s.key == key).expect(key);
            let Input::Choice(options) = setting.input else {
                panic!("{key} is a choice")
            };
            let offered: Vec<&str> = options.iter().map(|(v, _)| *v).collect();
            assert_eq!(offered, words, "{key}");
        }
        let hooks = ["seed", "setup"];
        for setting in SETTINGS {
            assert!(
                Rulebook::is_key(setting.key) || hooks.contains(&setting.key),
                "{} is a variant key or a hook",
                setting.key
            );
        }
    }
}
