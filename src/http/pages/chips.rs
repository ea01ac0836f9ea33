//! A game's tokens drawn as coloured chips: each chip keeps its code, adds a shape per colour
//! (so colour is never the only cue) and says its colour in words for screen readers. Which
//! words are chips is the game's ([`GameUi::chip`]); only text that reads as them becomes
//! chips: a pools cell made wholly of codes, or the codes after the game's
//! [`GameUi::CHIP_AFTER`] words in a revealed order.

pub use crate::games::Chip;
use crate::games::{GameUi, with_game};
use crate::host::GameKind;

/// A piece of a line: plain text, or a chip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub text: String,
    pub chip: Option<Chip>,
}

/// The chip for `word` in `game`, if it is one of its codes.
pub fn chip(game: GameKind, word: &str) -> Option<Chip> {
    with_game!(game, G => G::chip(word))
}

/// The chips of a pools cell that lists only codes (`R3, Y4`); empty for any other cell.
pub fn cell_chips(game: GameKind, cell: &str) -> Vec<Chip> {
    let chips: Option<Vec<Chip>> = cell.split(", ").map(|word| chip(game, word)).collect();
    chips.unwrap_or_default()
}

/// A revealed order's line with the codes after the game's chip words as chips.
pub fn order_pieces(game: GameKind, line: &str) -> Vec<Piece> {
    let chip_after = with_game!(game, G => G::CHIP_AFTER);
    let mut pieces: Vec<Piece> = Vec::new();
    let mut after_token = false;
    for (i, word) in line.split(' ').enumerate() {
        let space = if i == 0 { "" } else { " " };
        let (code, comma) = match word.strip_suffix(',') {
            Some(code) => (code, ","),
            None => (word, ""),
        };
        match chip(game, code).filter(|_| after_token) {
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
                after_token = chip_after.contains(&word);
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
        let chips = cell_chips(GameKind::Bst, "R3, W10");
        assert_eq!(chips.len(), 2);
        assert_eq!(
            (chips[1].code.as_str(), chips[1].words),
            ("W10", "wildcard")
        );
        assert!(cell_chips(GameKind::Bst, "Ann, R3").is_empty());
        assert!(cell_chips(GameKind::Bst, "R11").is_empty());
        assert!(cell_chips(GameKind::Bst, "12").is_empty());
    }

    #[test]
    fn a_game_without_chips_shows_plain_text() {
        assert!(cell_chips(GameKind::CrossingSwords, "R3, W10").is_empty());
        let pieces = order_pieces(GameKind::ScaleOfStyles, "tokens R3");
        assert!(pieces.iter().all(|p| p.chip.is_none()));
    }

    #[test]
    fn codes_after_token_words_become_chips_and_the_text_stays() {
        let pieces = order_pieces(GameKind::Bst, "B5: tokens R3, Y3 then token W7");
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
