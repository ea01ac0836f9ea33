//! BST's create form: the round cap, and under "advanced" the test hooks (seed, pool, setup).

use crate::games::create::{Input, MAX_ROUNDS, Setting};

/// BST: a duel, so no seats to choose; the round cap, and the test hooks under "advanced".
pub const SETTINGS: &[Setting] = &[
    MAX_ROUNDS,
    Setting {
        key: "seed",
        label: "Seed (a whole number: the same seed deals the same game)",
        input: Input::Whole {
            min: 0,
            max: u64::MAX,
        },
        advanced: true,
    },
    Setting {
        key: "pool",
        label: "Pool: the tokens in drawing order, e.g. R3 Y3 B5 … (all 80)",
        input: Input::Words,
        advanced: true,
    },
    Setting {
        key: "setup",
        label: "Setup: a starting position as JSON (see the rules document)",
        input: Input::Json,
        advanced: true,
    },
];
