//! Crossing Swords' create form: most players, the round cap and the variant keys of rulings
//! §3.1, in words.

use crate::games::create::{Input, MAX_ROUNDS, Setting, choice, flag};

/// Crossing Swords: seats, the round cap and every variant key (rulings §3.1), in its words.
pub const SETTINGS: &[Setting] = &[
    Setting {
        key: "max_players",
        label: "Most players (empty: 16)",
        input: Input::Whole { min: 2, max: 16 },
        advanced: false,
    },
    MAX_ROUNDS,
    choice(
        "missing_move",
        "A player who sends no order plays (Ruling 2)",
        &[
            ("pass", "Pass"),
            ("dodge", "Dodge on himself"),
            ("block", "Block on himself"),
            ("riposte", "Riposte on himself"),
            ("focus", "Focus on himself"),
            ("mend", "Mend on himself"),
        ],
    ),
    flag(
        "self_attacks",
        "Strike, Lunge and Assail may name oneself (Ruling 3)",
    ),
    choice(
        "halt_cycle",
        "A cycle of 3 or more Halts (Ruling 7)",
        &[
            ("void", "is void"),
            ("all_fire", "all fire: each deals its 3 and is negated"),
        ],
    ),
    flag(
        "halt_keeps_taunt_penalty",
        "A Halted Taunt keeps its +1 (Ruling 8)",
    ),
    choice(
        "focus_assail",
        "Focus doubles an Assail's share (Ruling 10)",
        &[
            ("declared", "only when declared at the Focus target"),
            ("any", "whenever it hits him"),
        ],
    ),
    flag(
        "taunt_before_focus",
        "Taunt's +1 comes before Focus's ×2+1 (Ruling 11)",
    ),
    flag(
        "assail_self",
        "The Assailer takes 1 from his own Assail (Ruling 17)",
    ),
    flag(
        "assail_targets_all",
        "Every Assail victim counts as targeted (Ruling 19)",
    ),
    choice(
        "assail_cap",
        "Assail counters beyond 8 (Ruling 20)",
        &[
            ("discard", "leave the game"),
            ("return", "go back to their victims' HP"),
        ],
    ),
    choice(
        "taunt_snapshot",
        "Taunt steals from the VP (Ruling 25)",
        &[
            ("start", "at the start of the turn"),
            ("post_damage", "after damage"),
        ],
    ),
    choice(
        "heal_cap",
        "Mend's HP ceiling (Ruling 28)",
        &[("none", "none"), ("20", "20 HP")],
    ),
    choice(
        "overkill",
        "Damage beyond the victim's HP (Ruling 29)",
        &[
            ("proportional", "counters split in proportion"),
            ("full_credit", "every damager credited in full"),
        ],
    ),
    flag(
        "convert_at_cap",
        "At the round cap every survivor converts HP to VP (Ruling 31)",
    ),
    choice(
        "tiebreak",
        "A tie for most VP (Ruling 32)",
        &[
            ("share", "is shared"),
            ("survivor_first", "goes to the living among the tied"),
        ],
    ),
];
