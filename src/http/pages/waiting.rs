//! Who the game is waiting for, in words, for the top of the lobby and player pages:
//! "Waiting for Dan's orders", "Waiting for Bob's follow-up". Steps are named per game: the main
//! step by the game's own word for it, every decision step by its name in the rules.

use super::table::PublicPlayer;
use crate::games::{GameUi, with_game};
use crate::host::GameKind;
use crate::host::views::LobbyView;
use crate::store::Status;

/// How people call an answer to `step` of `game` ("orders", "play", "follow-up").
pub fn step_noun(game: GameKind, step: &str) -> String {
    if step == game.main_step() {
        return with_game!(game, G => G::MAIN_ANSWER).into();
    }
    with_game!(game, G => G::step_noun(step))
}

/// The status line's name for the open step: "orders", "decision step: follow-up".
pub fn step_phrase(game: GameKind, step: &str) -> String {
    if step == game.main_step() {
        return format!("{} are due", with_game!(game, G => G::MAIN_ANSWERS));
    }
    format!("decision step: {}", step_noun(game, step))
}

/// The names of the players who owe an answer to the open step and have not sent it.
pub fn owed_by(lobby: &LobbyView) -> Vec<String> {
    PublicPlayer::all(&lobby.players)
        .into_iter()
        .filter(|p| p.owes && !p.submitted)
        .map(|p| p.name)
        .collect()
}

/// `Ann's`, `Ann's and Bob's`, `Ann's, your and Dan's`: possessives joined as English does;
/// the viewer's own name (`me`) becomes "your".
fn possessives(names: &[String], me: Option<&str>) -> String {
    let owned: Vec<String> = names
        .iter()
        .map(|n| match Some(n.as_str()) == me {
            true => "your".to_string(),
            false => format!("{n}'s"),
        })
        .collect();
    match owned.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The waiting line: what the game waits for, or nothing when it is not running (before the
/// start and after the end the status line says it all). `me`: the viewer's player name.
pub fn waiting_line(lobby: &LobbyView, me: Option<&str>) -> Option<String> {
    if lobby.status != Status::Running {
        return None;
    }
    let step = lobby.step.as_deref()?;
    let owed = owed_by(lobby);
    if owed.is_empty() {
        return Some("Every answer is in: the step resolves now.".into());
    }
    Some(format!(
        "Waiting for {} {}.",
        possessives(&owed, me),
        step_noun(lobby.game, step)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_named_as_the_rules_name_them() {
        assert_eq!(step_noun(GameKind::CrossingSwords, "orders"), "orders");
        assert_eq!(step_noun(GameKind::Bst, "play"), "play");
        assert_eq!(step_noun(GameKind::Bst, "follow-up"), "follow-up");
        assert_eq!(step_noun(GameKind::Bst, "power-surge"), "power surge");
        assert_eq!(step_phrase(GameKind::Bst, "play"), "plays are due");
        // The Scale of Styles' shift is the reaction its form asks for.
        assert_eq!(step_noun(GameKind::ScaleOfStyles, "shift"), "reaction");
        assert_eq!(step_noun(GameKind::ScaleOfStyles, "plan"), "battle plan");
        assert_eq!(
            step_phrase(GameKind::Bst, "gather-power"),
            "decision step: gather power"
        );
        assert_eq!(
            step_phrase(GameKind::CrossingSwords, "orders"),
            "orders are due"
        );
    }

    #[test]
    fn names_are_joined_as_english_does() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(possessives(&names(&["Dan"]), None), "Dan's");
        assert_eq!(
            possessives(&names(&["Ann", "Dan"]), None),
            "Ann's and Dan's"
        );
        assert_eq!(
            possessives(&names(&["Ann", "Bob", "Dan"]), Some("Bob")),
            "Ann's, your and Dan's"
        );
        assert_eq!(possessives(&names(&["Bob"]), Some("Bob")), "your");
    }
}
