//! The Scale of Styles forms, from its typed prompt: the join form's fighter values, and the
//! three steps' forms: `plan` (the cards to put on top), `play` (a card of the window, each
//! with its technique and speed), `shift` (a technique, each with what it deals and takes).

use serde_json::Value;

use crate::games::form::{Choice, Effect, Field, Group, OrderForm, pending_str};
use crate::rules::Game;
use crate::rules::scale_of_styles::cards::Suit;
use crate::rules::scale_of_styles::prompts::{CardChoice, ShiftChoice};
use crate::rules::scale_of_styles::{Card, Prompt, ScaleOfStyles, Technique};

/// The join form: Level (T3), XP carried in, combat dice (Ruling 25) and stamina (Ruling 22).
pub fn join_fields() -> Vec<Field> {
    let numbers = |range: std::ops::RangeInclusive<u32>, default: u32| -> Vec<Choice> {
        range
            .map(|n| Choice::new(&n.to_string(), n.to_string(), n == default))
            .collect()
    };
    let dice = [
        ("6 8", "d6 + d8 (an average fighter)"),
        ("6 6", "2d6 (a weak fighter)"),
        ("8 8", "2d8 (a great warrior)"),
        ("4 12", "d4 + d12"),
        ("6 10", "d6 + d10"),
    ]
    .into_iter()
    .map(|(value, label)| Choice::new(value, label.to_owned(), value == "6 8"))
    .collect();
    let mut stamina = numbers(6..=20, 12);
    stamina.retain(|c| c.value.parse::<u32>().is_ok_and(|n| n % 2 == 0 || n == 15));
    vec![
        Field::select("level", "Experience Level", numbers(0..=11, 0), true),
        Field::select("xp", "XP carried in", numbers(0..=11, 0), true),
        Field::select("combat_dice", "Combat dice", dice, true),
        Field::select(
            "stamina",
            "Stamina (used when damage wounds)",
            stamina,
            true,
        ),
    ]
}

/// The form for `prompt` at `step` of `round`.
pub fn form(
    round: crate::games::telling::RoundOf,
    _step: &str,
    prompt: &Prompt,
    pending: Option<&Value>,
) -> OrderForm {
    let (heading, help, fields, decline) = match prompt {
        Prompt::Plan { pack, .. } => (
            "Your battle plan".to_owned(),
            "Build your battle plan: tap cards in the order your fighter should play them; \
             the first you tap is played first. A card's colour sets your starting technique \
             (black ♣ ♠: Mixed Defense; red ♥ ♦ or a Joker: Mixed Offense) and its number your \
             Reaction Speed (2 to 10 as printed, an Ace 1, or 11 where the lobby's variants \
             say so, J Q K your Level). Your list goes on \
             top of your deck in your order, the rest follows shuffled, and the plan never \
             changes again (T2, T4, T7). Or decline for a fully shuffled deck."
                .to_owned(),
            vec![plan_field(pack, pending)],
            true,
        ),
        Prompt::Play { window, .. } => (
            format!("Your card for {round}"),
            "Play one of the top cards of your plan. Its suit sets your starting technique \
             and its number your Reaction Speed; the cards you skip stay on top, where the \
             next hit strips them first (T4, T7)."
                .to_owned(),
            vec![play_field(window, pending_str(pending, "card"))],
            false,
        ),
        Prompt::Shift { choices, from, .. } => (
            format!("Your reaction in {round}"),
            format!(
                "You seized the initiative: end on any technique within reach of {from} \
                 (S8, S14). Declining keeps {from}."
            ),
            vec![shift_field(choices, pending_str(pending, "technique"))],
            true,
        ),
    };
    OrderForm {
        heading,
        help,
        fields,
        decline,
        accept: false,
        accept_label: String::new(),
        buttons: Vec::new(),
    }
}

/// The plan as an ordered list (S-3: "the list goes on top of his plan in that order"): the
/// pack offered suit by suit, each suit headed by what its colour means, each card by what
/// its number means.
fn plan_field(pack: &[Card], pending: Option<&Value>) -> Field {
    let sent: Vec<String> = pending
        .and_then(|p| p["cards"].as_array())
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    let suit_of = |card: &Card| match card {
        Card::Suited { suit, .. } => Some(*suit),
        Card::Joker(_) => None,
    };
    let mut groups: Vec<Group> = Vec::new();
    for card in pack {
        let heading = group_heading(suit_of(card));
        let choice = Choice::new(&card.to_string(), card_meaning(*card), false);
        match groups.last_mut() {
            Some(group) if group.label == heading => group.choices.push(choice),
            _ => groups.push(Group {
                label: heading,
                choices: vec![choice],
            }),
        }
    }
    let mut field = Field::ordered("cards", "Your battle plan, top first", groups, sent);
    field.hint = "the cards you do not list follow them, shuffled".into();
    field
}

/// A suit's heading in the plan: its colour and the technique the colour starts (Ruling 7).
fn group_heading(suit: Option<Suit>) -> String {
    match suit {
        Some(suit) => {
            let (symbol, name, colour) = match suit {
                Suit::Clubs => ("♣", "Clubs", "black"),
                Suit::Diamonds => ("♦", "Diamonds", "red"),
                Suit::Hearts => ("♥", "Hearts", "red"),
                Suit::Spades => ("♠", "Spades", "black"),
            };
            format!(
                "{symbol} {name} ({colour}): {}",
                suit.starting_technique().title()
            )
        }
        None => "Jokers: Signature Moves (Mixed Offense, Initiative 2)".to_owned(),
    }
}

/// What a card means when played (Rulings 7 and 8), as its label: "KS: Mixed Defense, speed =
/// your Level".
fn card_meaning(card: Card) -> String {
    let speed = match card {
        Card::Joker(_) => "a Signature Move".to_owned(),
        Card::Suited { rank, .. } if rank.is_face() => "speed = your Level".to_owned(),
        // 11 with the `ace_speed` variant (Ruling 8), which the lobby page lists.
        Card::Suited { rank, .. } if rank.number() == 1 => "speed 1 or 11".to_owned(),
        Card::Suited { rank, .. } => format!("speed {}", rank.number()),
    };
    format!("{card}: {}, {speed}", card.starting_technique().title())
}

fn play_field(window: &[CardChoice], chosen: &str) -> Field {
    let choices = window
        .iter()
        .map(|c| {
            let code = c.card.to_string();
            let speed = c
                .speed
                .map_or("a Signature Move".to_owned(), |rs| format!("speed {rs}"));
            let label = format!("{code}: {}, {speed}", c.technique.title());
            // Several cards share a technique: the shift form says what each one does.
            Choice::new(&code, label, code == chosen)
        })
        .collect();
    Field::select("card", "Card", choices, true)
}

fn shift_field(choices: &[ShiftChoice], chosen: &str) -> Field {
    let choices = choices
        .iter()
        .map(|c| {
            let id = c.technique.id();
            let label = format!(
                "{}: Attack {}, Defense {}; deals {}, takes {}",
                c.technique.title(),
                c.attack,
                c.defense,
                c.deals,
                c.takes
            );
            let mut choice = Choice::new(id, label, id == chosen);
            // The numbers that decide the reaction, beside what the technique does: a select
            // shows its options' labels only while open.
            let mut shown = effect(c.technique);
            shown.text = format!(
                "Attack {}, Defense {}: you deal {} and take {} this round. {}",
                c.attack, c.defense, c.deals, c.takes, shown.text
            );
            choice.effect = Some(shown);
            choice
        })
        .collect();
    Field::select("technique", "Technique", choices, true)
}

/// What a technique does, in one line (the rules page's words, `/rules/scale-of-styles`).
pub fn effect(technique: Technique) -> Effect {
    let text = match technique {
        Technique::AllOutAttack => "Both combat dice attack; you defend with nothing.",
        Technique::MixedOffense => "The higher die attacks, the lower defends.",
        Technique::MixedDefense => "The lower die attacks, the higher defends.",
        Technique::IronDefense => "Both combat dice defend; you attack with nothing.",
    };
    Effect {
        name: technique.title().to_owned(),
        text: text.to_owned(),
        href: format!("/rules/{}#{}", ScaleOfStyles::ID, technique.id()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_technique_says_what_it_does_and_links_to_its_row_on_the_rules_page() {
        let page = include_str!("../../../templates/rules_scale_of_styles.html");
        for technique in Technique::ALL {
            let effect = effect(technique);
            let anchor = effect.href.strip_prefix("/rules/scale-of-styles#").unwrap();
            assert!(page.contains(&format!("id=\"{anchor}\"")), "{anchor}");
        }
        for cited in ["T2", "T4", "T7", "S8", "S14"] {
            assert!(page.contains(&format!("id=\"{cited}\"")), "{cited}");
        }
    }

    #[test]
    fn the_shift_form_offers_each_legal_technique_with_what_it_deals_and_takes() {
        let side = json!({"card": "10D", "dice": [3, 8, 10, 7], "initiative": 2, "technique": "mixed-offense"});
        let prompt: Prompt = serde_json::from_value(json!({
            "from": "mixed-offense", "diff": 1, "can_decline": true, "you": side, "opponent": side,
            "choices": [{"technique": "all-out-attack", "attack": 11, "defense": 0, "deals": 6, "takes": 4}],
        }))
        .unwrap();
        let round = crate::games::telling::RoundOf {
            number: 4,
            cap: Some(8),
        };
        let form = form(
            round,
            "shift",
            &prompt,
            Some(&json!({"technique": "all-out-attack"})),
        );
        assert_eq!(form.heading, "Your reaction in round 4 of 8");
        let choice = &form.fields[0].groups[0].choices[0];
        assert_eq!(choice.value, "all-out-attack");
        assert!(choice.selected);
        assert!(
            choice.label.contains("deals 6, takes 4"),
            "{}",
            choice.label
        );
        // The same numbers outside the select, where they can be read without opening it.
        let shown = choice.effect.as_ref().unwrap();
        assert!(
            shown
                .text
                .starts_with("Attack 11, Defense 0: you deal 6 and take 4")
        );
        assert!(form.decline, "declining keeps the starting technique");
    }

    #[test]
    fn the_plan_is_a_list_in_the_order_sent_with_the_pack_by_suit() {
        let prompt: Prompt = serde_json::from_value(json!({
            "pack": Card::pack(2), "max_cards": 54, "can_decline": true,
        }))
        .unwrap();
        let sent = json!({"cards": ["KS", "2H", "AC", "JK1"]});
        let form = form(
            crate::games::telling::RoundOf {
                number: 1,
                cap: None,
            },
            "plan",
            &prompt,
            Some(&sent),
        );
        let field = &form.fields[0];
        assert!(field.ordered && field.multiple);
        assert_eq!(
            field.chosen,
            ["KS", "2H", "AC", "JK1"],
            "the order sent, not the pack's"
        );
        let headings: Vec<&str> = field.groups.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(
            headings,
            [
                "♣ Clubs (black): Mixed Defense",
                "♦ Diamonds (red): Mixed Offense",
                "♥ Hearts (red): Mixed Offense",
                "♠ Spades (black): Mixed Defense",
                "Jokers: Signature Moves (Mixed Offense, Initiative 2)",
            ]
        );
        let labels: Vec<&str> = field
            .chosen_choices()
            .iter()
            .map(|c| c.label.as_str())
            .collect();
        assert_eq!(
            labels,
            [
                "KS: Mixed Defense, speed = your Level",
                "2H: Mixed Offense, speed 2",
                "AC: Mixed Defense, speed 1 or 11",
                "JK1: Mixed Offense, a Signature Move",
            ]
        );
        assert!(form.help.contains("colour sets your starting technique"));
    }

    #[test]
    fn the_join_form_defaults_to_the_rulings_fighter() {
        let fields = join_fields();
        let chosen = |name: &str| -> String {
            let field = fields.iter().find(|f| f.name == name).unwrap();
            let choice = field.groups[0].choices.iter().find(|c| c.selected).unwrap();
            choice.value.clone()
        };
        assert_eq!(chosen("level"), "0");
        assert_eq!(chosen("combat_dice"), "6 8");
        assert_eq!(chosen("stamina"), "12");
    }
}
