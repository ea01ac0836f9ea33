//! The Scale of Styles' create form: the round cap, the variant keys of rulings §5.1 in words,
//! and under "advanced" the test hooks of §3.5 (seed and setup; the dice list is for the API).

use crate::games::create::{Input, MAX_ROUNDS, Setting, choice};

/// The round cap and every variant key, each with its default first.
pub const SETTINGS: &[Setting] = &[
    MAX_ROUNDS,
    choice(
        "window",
        "How many cards of the battle plan a fighter sees to play from (Ruling 14)",
        &[
            ("3", "3 cards"),
            ("1", "1 card"),
            ("2", "2 cards"),
            ("4", "4 cards"),
            ("5", "5 cards"),
        ],
    ),
    choice(
        "deck_order",
        "The decks' order (Ruling 13)",
        &[
            ("planned", "Each fighter plans the order of their deck"),
            ("shuffled", "Shuffled decks, no battle plans"),
        ],
    ),
    choice(
        "jokers",
        "Jokers in each pack (Ruling 12)",
        &[("2", "2 Jokers"), ("1", "1 Joker"), ("0", "No Jokers")],
    ),
    choice(
        "ace_speed",
        "An Ace's speed (Ruling 8)",
        &[("1", "1"), ("11", "11")],
    ),
    choice(
        "initiative",
        "Who seizes the initiative (Ruling 28)",
        &[
            ("speed", "Roll the d10 and d12 under the card's speed"),
            ("even", "Count the even combat dice"),
        ],
    ),
    choice(
        "end",
        "How a fighter is beaten (Ruling 22)",
        &[
            ("deck", "Their deck runs out: damage strips cards"),
            (
                "stamina",
                "Their wounds reach their stamina: no cards are stripped",
            ),
        ],
    ),
    choice(
        "tiebreak",
        "Both fighters out in the same round (Ruling 19)",
        &[
            (
                "margin",
                "The higher margin wins (cards left minus damage received)",
            ),
            ("draw", "A draw"),
        ],
    ),
    choice(
        "stripped_cards",
        "Cards stripped by damage (Ruling 17)",
        &[
            ("public", "Shown to both"),
            ("hidden", "Hidden from the opponent"),
        ],
    ),
    Setting {
        key: "seed",
        label: "Seed (a whole number: the same seed shuffles and rolls the same game)",
        input: Input::Whole {
            min: 0,
            max: u64::MAX,
        },
        advanced: true,
    },
    Setting {
        key: "setup",
        label: "Setup: a starting position as JSON (see the rules document)",
        input: Input::Json,
        advanced: true,
    },
];
