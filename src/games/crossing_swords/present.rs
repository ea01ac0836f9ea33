//! Crossing Swords' order form, from its typed prompt: a move (grouped by category, each with
//! its one-line effect and a link to it on the rules page) and a target, each target listing
//! the moves it is legal for.

use serde_json::Value;

use crate::games::form::{Choice, Effect, Field, Group, OrderForm, pending_str};
use crate::rules::Game;
use crate::rules::crossing_swords::{Category, CrossingSwords, Move, Prompt};

/// The step `orders`: one move and its target (G3, Ruling 3).
pub fn orders(
    round: crate::games::telling::RoundOf,
    prompt: &Prompt,
    pending: Option<&Value>,
) -> OrderForm {
    let mut groups: Vec<Group> = Vec::new();
    let mut targets: Vec<Choice> = Vec::new();
    let chosen_move = pending_str(pending, "move");
    let chosen_target = pending_str(pending, "target");
    for entry in &prompt.moves {
        let mv = entry.mv.as_str();
        let category = category(entry.category);
        let mut choice = Choice::new(mv, entry.mv.title().to_owned(), mv == chosen_move);
        choice.effect = Some(effect(entry.mv));
        match groups.iter_mut().find(|g| g.label == category) {
            Some(group) => group.choices.push(choice),
            None => groups.push(Group {
                label: category.to_owned(),
                choices: vec![choice],
            }),
        }
        for target in prompt.targets(entry) {
            let id = target.id.to_string();
            match targets.iter_mut().find(|t| t.value == id) {
                Some(t) => {
                    t.allowed_with.push(' ');
                    t.allowed_with.push_str(mv);
                }
                None => {
                    let mut choice = Choice::new(&id, target.name.clone(), id == chosen_target);
                    choice.allowed_with = mv.to_owned();
                    targets.push(choice);
                }
            }
        }
    }
    let mut moves = Field::select("move", "Move", Vec::new(), true);
    moves.groups = groups;
    let mut target = Field::select("target", "Target", targets, true);
    target.depends_on = "move".into();
    OrderForm {
        heading: format!("Your orders for {round}"),
        help: "Pick one move and its target. Strike, Lunge, Assail, Taunt and Halt must name \
               another player; Dodge, Block, Riposte, Focus and Mend may name you."
            .into(),
        fields: vec![moves, target],
        decline: false,
        accept: false,
        accept_label: String::new(),
        buttons: Vec::new(),
    }
}

/// A category as the seed prints it (§1).
fn category(category: Category) -> &'static str {
    match category {
        Category::Attack => "Attack",
        Category::Defense => "Defense",
        Category::Action => "Action",
    }
}

/// What a move does, in one line (the rules page's words, `/rules/crossing-swords`).
pub fn effect(mv: Move) -> Effect {
    let text = match mv {
        Move::Strike => "Your target takes 3 damage.",
        Move::Lunge => "Your target takes 5 damage, but deals you 3 more if they damage you.",
        Move::Assail => "Every other living player takes 1 damage.",
        Move::Dodge => "Your target's attacks deal you nothing; everyone else's 3 less.",
        Move::Block => {
            "Every attack deals you 2 less; if your target attacks you, you deal them 2."
        }
        Move::Riposte => "If your target attacks you, you take nothing and deal them 3.",
        Move::Taunt => "Steal up to 3 of your target's VP; attacks on you deal 1 more.",
        Move::Focus => "Next turn, your attack on your target deals twice plus 1; Mend heals 7.",
        Move::Mend => "Your target gains 3 HP (7 after Focus) and you gain 1 VP.",
        Move::Halt => "If your target plays an Action, you deal them 3 and it does nothing.",
    };
    Effect {
        name: mv.title().to_owned(),
        text: text.to_owned(),
        href: format!("/rules/{}#{}", CrossingSwords::ID, mv.as_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_says_what_it_does_and_links_to_its_row_on_the_rules_page() {
        let page = include_str!("../../../templates/rules_crossing_swords.html");
        for mv in Move::ALL {
            let effect = effect(mv);
            assert!(!effect.text.is_empty() && !effect.text.contains("(R"));
            let anchor = effect.href.strip_prefix("/rules/crossing-swords#").unwrap();
            assert!(page.contains(&format!("id=\"{anchor}\"")), "{anchor}");
        }
    }
}
