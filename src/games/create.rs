//! What a game's create form offers: each game lists its settings (the wire key, the words a
//! host reads, how it is entered) in its own module; the pages render and check them
//! (`http/pages/create_form.rs`).

/// How a setting is entered.
pub enum Input {
    /// A select: (value on the wire, words). The first is the game's default.
    Choice(&'static [(&'static str, &'static str)]),
    /// A checkbox: checked sends `true`.
    Flag,
    /// A whole number in a range.
    Whole { min: u64, max: u64 },
    /// Tokens separated by spaces or commas (BST pool).
    Words,
    /// A JSON object, pasted (BST setup).
    Json,
}

/// One setting of one game: the form field's name is the API key.
pub struct Setting {
    pub key: &'static str,
    pub label: &'static str,
    pub input: Input,
    /// Shown under "advanced", folded away.
    pub advanced: bool,
}

pub const fn choice(
    key: &'static str,
    label: &'static str,
    options: &'static [(&'static str, &'static str)],
) -> Setting {
    Setting {
        key,
        label,
        input: Input::Choice(options),
        advanced: false,
    }
}

pub const fn flag(key: &'static str, label: &'static str) -> Setting {
    Setting {
        key,
        label,
        input: Input::Flag,
        advanced: false,
    }
}

pub const MAX_ROUNDS: Setting = Setting {
    key: "max_rounds",
    label: "End the game after this many rounds (empty: play until one is left)",
    input: Input::Whole { min: 1, max: 1000 },
    advanced: false,
};
