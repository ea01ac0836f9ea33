//! BST's forms, from its typed prompt (shapes: `docs/rules/bst.md` "Prompts"). The form
//! follows the prompt's shape rather than a list of step names, so every decision step gets
//! its form: `moves` → tile and token (`play`); `choices` with a token count → checkboxes
//! (`tokens`); `choices` alone → one `token`; `pairs` → one pair (`tokens`); nothing to pick →
//! accept / decline buttons. Also the join form's character choice.

use serde_json::Value;

use crate::games::form::{Button, Chip, Choice, Effect, Field, OrderForm, pending_str, words};
use crate::rules::Game;
use crate::rules::bst::matrix::{self, Cell};
use crate::rules::bst::prompts::MoveOption;
use crate::rules::bst::{Bst, Character, Colour, Move, Prompt, Token};

/// The join form's character select, the default (the Sellsword, api.md) first and chosen.
pub fn join_fields() -> Vec<Field> {
    let choices = Character::ALL
        .into_iter()
        .map(|c| Choice::new(c.id(), words(c.id()), c == Character::default()))
        .collect();
    vec![Field::select("character", "Character", choices, true)]
}

/// A prompt's sentence without the JSON it shows bots (`{"tokens": [..]}`): the form's
/// fields and buttons say that. Rule citations stay (the page links them).
pub fn for_people(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '{' => {
                if depth == 0 {
                    let kept = out.trim_end_matches([' ', ',', ':']).len();
                    out.truncate(kept);
                }
                depth += 1;
            }
            '}' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    let out = out
        .replace("? or (", "? (")
        .replace("? or decline", "? Or decline")
        .replace(" or (", " (");
    crate::games::telling::counted(&out)
}

/// Tokens as choices, each labelled with its colour in words ("Y9 (yellow)"), or, at a step
/// whose token deals damage by its number, with that damage ("Y9 (4 damage)").
fn token_choices(tokens: &[Token], step: &str, chosen: impl Fn(&str) -> bool) -> Vec<Choice> {
    tokens
        .iter()
        .map(|t| {
            let code = t.to_string();
            let selected = chosen(&code);
            let label = match token_damage(step, *t) {
                Some(damage) => format!("{code} ({damage} damage)"),
                None => format!("{code} ({})", t.colour().name()),
            };
            Choice::new(&code, label, selected)
        })
        .collect()
}

/// The damage a token picked at `step` deals: half its number, rounded down, for the
/// Follow-up (L209); its full number for a Finishing Strike's extras (L237).
fn token_damage(step: &str, token: Token) -> Option<i32> {
    match step {
        "follow-up" => Some(token.value() / 2),
        "finishing-extras" => Some(token.value()),
        _ => None,
    }
}

/// What `tile` beats, read from the interaction matrix (§1.1): "Piercing Strike, Power-up;
/// Guard if the colours differ".
pub fn beats(tile: Move) -> String {
    let mut always: Vec<String> = Vec::new();
    let mut sometimes: Vec<String> = Vec::new();
    for other in Move::ALL {
        let name = other.name();
        match matrix::cell(tile, other) {
            Cell::Win | Cell::GuardSpecial => always.push(name.to_owned()),
            Cell::BothWin => sometimes.push(format!("{name} (both win)")),
            Cell::StandardVsGuard => sometimes.push(format!("{name} if the colours differ")),
            Cell::GuardVsStandard => sometimes.push(format!("{name} if the colours match")),
            Cell::TieBreak | Cell::TieBreakStandard => {
                sometimes.push(format!("{name} with a lower number"))
            }
            Cell::Lose | Cell::BothLose | Cell::LoseToGuardSpecial => {}
        }
    }
    let mut parts = Vec::new();
    if !always.is_empty() {
        parts.push(always.join(", "));
    }
    parts.extend(sometimes);
    match parts.is_empty() {
        true => "nothing".to_owned(),
        false => parts.join("; "),
    }
}

fn codes(value: &Value) -> Vec<String> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_str().map(str::to_owned))
        .collect()
}

/// A tile as the play step offers it: its cost, what it would become if T6 replaces it, and
/// its one-line effect.
fn tile(option: &MoveOption, chosen: &str) -> Choice {
    let id = option.tile.id();
    let mut label = format!("{} (cost {})", words(id), option.cost);
    if !option.legal {
        let becomes = option.becomes.map(|m| words(m.id())).unwrap_or_default();
        label.push_str(&format!(" — would become {becomes}"));
        if let Some(reason) = &option.reason {
            label.push_str(&format!(": {reason}"));
        }
    }
    let mut choice = Choice::new(id, label, id == chosen);
    let mut shown = effect(option.tile);
    shown.text = format!("beats {}. {}", beats(option.tile), shown.text);
    choice.effect = Some(shown);
    choice
}

/// The form for a BST prompt at `step` of `round`, with the pending answer preselected.
pub fn form(
    round: crate::games::telling::RoundOf,
    step: &str,
    prompt: &Prompt,
    pending: Option<&Value>,
) -> OrderForm {
    let mut fields = Vec::new();
    let pending_tokens = pending.map(|p| codes(&p["tokens"])).unwrap_or_default();
    let token = pending_str(pending, "token");
    if let Some(moves) = &prompt.moves {
        let chosen = pending_str(pending, "move");
        let tiles = moves.iter().map(|m| tile(m, chosen)).collect();
        fields.push(Field::select("move", "Tile", tiles, true));
        let hand = token_choices(&prompt.hand, step, |t| t == token);
        fields.push(Field::select("token", "Token from your hand", hand, true));
    } else if let Some(pairs) = &prompt.pairs {
        let options = pairs
            .iter()
            .map(|pair| {
                let pair: Vec<String> = pair.iter().map(Token::to_string).collect();
                Choice::new(&pair.join(" "), pair.join(" + "), pair == pending_tokens)
            })
            .collect();
        let mut field = Field::select("tokens", "Pair to discard", options, true);
        field.list = true;
        fields.push(field);
    } else if let Some(choices) = &prompt.choices {
        match (prompt.min_tokens, prompt.max_tokens) {
            (Some(min), Some(max)) => {
                let options =
                    token_choices(choices, step, |t| pending_tokens.iter().any(|p| p == t));
                let mut field = Field::select("tokens", "Tokens", options, false);
                field.multiple = true;
                field.hint = if min == max {
                    format!("Tick exactly {min}.")
                } else {
                    format!("Tick {min} to {max}.")
                };
                fields.push(field);
            }
            _ => {
                let options = token_choices(choices, step, |t| t == token);
                fields.push(Field::select("token", "Token", options, true));
            }
        }
    }
    let nothing_to_pick = fields.is_empty();
    OrderForm {
        heading: format!("{}: {}", round.title(), words(step)),
        help: for_people(&prompt.text),
        fields,
        decline: prompt.can_decline,
        accept: nothing_to_pick,
        accept_label: "Yes".into(),
        // The Assassin's Follow-up may use a random pool token instead (A25).
        buttons: match prompt.random_pool {
            true => vec![Button {
                name: "random_pool".into(),
                label: "Use a random pool token".into(),
            }],
            false => Vec::new(),
        },
    }
}

/// What a tile does when it wins, in one line (the rules page's words, `/rules/bst`).
pub fn effect(tile: Move) -> Effect {
    let text = match tile {
        Move::StandardStrike => "Deal n damage, draw 1, then you may Follow-up.",
        Move::PiercingStrike => "Deal 5 damage; the opponent becomes Off-Balance; Power Surge +4.",
        Move::DashingStrike => "Deal n damage; the opponent becomes Off-Balance; Power Surge +6.",
        Move::LightningStrike => "Deal 7 damage; Power Surge +3 and Off-Balance.",
        Move::FinishingStrike => "Deal n damage, plus up to 2 more tokens from your hand.",
        Move::Guard => "Your token comes back to your hand and you draw 1.",
        Move::Parry => {
            "Deal 6 damage; the opponent becomes Off-Balance and discards a token you pick."
        }
        Move::CounterAttack => "Deal half of n, rounded down.",
        Move::Evasion => "Your Charge comes back; take a token of your choice from the discard.",
        Move::PowerUp => "Gain 2 Charges.",
    };
    Effect {
        name: tile.name().to_owned(),
        text: text.to_owned(),
        href: format!("/rules/{}#{}", Bst::ID, tile.id()),
    }
}

/// A token code as a chip (`R7`: a red circle, "red"); any other word is none.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tile_says_what_it_beats_and_each_token_its_damage() {
        assert_eq!(
            beats(Move::StandardStrike),
            "Piercing Strike, Power-up; Standard Strike with a lower number; Guard if the colours differ"
        );
        assert!(beats(Move::Guard).contains("Guard (both win)"));
        let y9: Token = "Y9".parse().unwrap();
        let labels = |step| token_choices(&[y9], step, |_| false)[0].label.clone();
        assert_eq!(labels("follow-up"), "Y9 (4 damage)");
        assert_eq!(labels("finishing-extras"), "Y9 (9 damage)");
        assert_eq!(labels("play"), "Y9 (yellow)");
    }

    #[test]
    fn prompt_sentences_lose_their_json() {
        assert_eq!(
            for_people(
                "Choose a tile and a token from your hand: {\"move\", \"token\"}. Illegal tiles are replaced at the reveal (T6)."
            ),
            "Choose a tile and a token from your hand. Illegal tiles are replaced at the reveal (T6)."
        );
        assert_eq!(
            for_people(
                "Follow-up: discard a hand token for half its value, {\"token\"}, or use a random pool token, {\"random_pool\": true}, or decline (L209, L298)."
            ),
            "Follow-up: discard a hand token for half its value, or use a random pool token, or decline (L209, L298)."
        );
        assert_eq!(
            for_people(
                "Set their Piercing Strike aside? {\"accept\": true} or {\"decline\": true} (L307, A28)."
            ),
            "Set their Piercing Strike aside? (L307, A28)."
        );
        assert_eq!(
            for_people(
                "Power Surge: spend 1 Charge for extra damage? {\"accept\": true} or decline (A10)."
            ),
            "Power Surge: spend 1 Charge for extra damage? Or decline (A10)."
        );
        assert_eq!(
            for_people(
                "Your hand holds more than 9: discard 2 token(s), {\"tokens\": [..]} (A16)."
            ),
            "Your hand holds more than 9: discard 2 tokens (A16)."
        );
    }

    #[test]
    fn the_character_select_defaults_to_the_sellsword() {
        let fields = join_fields();
        let choices = &fields[0].groups[0].choices;
        assert_eq!(choices.len(), 6);
        assert!(choices[0].selected && choices[0].value == "sellsword");
    }
}
