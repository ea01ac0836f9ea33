//! BST tokens drawn as coloured chips (docs/web.md): each chip keeps its letter and
//! number, adds a shape per colour (so colour is never the only cue) and says its colour in
//! words for screen readers. Only text that reads as tokens becomes chips: a pools cell made
//! wholly of token codes, or the codes after "token"/"tokens" in a revealed order.

use crate::rules::bst::tokens::{Colour, Token};

/// One token as a chip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chip {
    /// The token's code as the rules write it (`R7`).
    pub code: String,
    /// The CSS class suffix of its colour.
    pub colour: &'static str,
    /// A shape drawn beside the code: the cue that does not depend on seeing colour.
    pub shape: &'static str,
    /// The colour in words (the text alternative).
    pub words: &'static str,
}

/// A piece of a line: plain text, or a chip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub text: String,
    pub chip: Option<Chip>,
}

/// The chip for a token code, if `word` is one.
pub fn chip(word: &str) -> Option<Chip> {
    let token: Token = word.parse().ok()?;
    let (colour, shape) = match token.colour() {
        Colour::Red => ("red", "●"),
        Colour::Yellow => ("yellow", "▲"),
        Colour::Blue => ("blue", "■"),
        Colour::Wild => ("wild", "★"),
    };
    Some(Chip {
        code: token.to_string(),
        colour,
        shape,
        words: token.colour().name(),
    })
}

/// The chips of a pools cell that lists only tokens (`R3, Y4`); empty for any other cell.
pub fn cell_chips(cell: &str) -> Vec<Chip> {
    let chips: Option<Vec<Chip>> = cell.split(", ").map(chip).collect();
    chips.unwrap_or_default()
}

/// A revealed order's line with the token codes after "token"/"tokens" as chips.
pub fn order_pieces(line: &str) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = Vec::new();
    let mut after_token = false;
    for (i, word) in line.split(' ').enumerate() {
        let space = if i == 0 { "" } else { " " };
        let (code, comma) = match word.strip_suffix(',') {
            Some(code) => (code, ","),
            None => (word, ""),
        };
        match chip(code).filter(|_| after_token) {
            Some(found) => {
                push_text(&mut pieces, space);
                pieces.push(Piece {
                    text: String::new(),
                    chip: Some(found),
                });
                push_text(&mut pieces, comma);
                after_token = !comma.is_empty();
            }
            None => {
                push_text(&mut pieces, &format!("{space}{word}"));
                after_token = matches!(word, "token" | "tokens");
            }
        }
    }
    pieces
}

fn push_text(pieces: &mut Vec<Piece>, text: &str) {
    if text.is_empty() {
        return;
    }
    match pieces.last_mut() {
        Some(Piece {
            text: last,
            chip: None,
        }) => last.push_str(text),
        _ => pieces.push(Piece {
            text: text.to_owned(),
            chip: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_token_lists_become_chips() {
        let chips = cell_chips("R3, W10");
        assert_eq!(chips.len(), 2);
        assert_eq!(
            (chips[1].code.as_str(), chips[1].words),
            ("W10", "wildcard")
        );
        assert!(cell_chips("Ann, R3").is_empty());
        assert!(cell_chips("R11").is_empty());
        assert!(cell_chips("12").is_empty());
    }

    #[test]
    fn codes_after_token_words_become_chips_and_the_text_stays() {
        let pieces = order_pieces("B5: tokens R3, Y3 then token W7");
        let text: String = pieces
            .iter()
            .map(|p| p.chip.as_ref().map_or(p.text.clone(), |c| c.code.clone()))
            .collect();
        assert_eq!(text, "B5: tokens R3, Y3 then token W7");
        let chips: Vec<&str> = pieces
            .iter()
            .filter_map(|p| p.chip.as_ref().map(|c| c.code.as_str()))
            .collect();
        assert_eq!(chips, ["R3", "Y3", "W7"], "a name like B5 stays text");
    }
}
