//! The Scale of Styles in the one case schema (`tests/cases/scale-of-styles/`): the worked
//! cases TC-01..TC-06 of `docs/rules/scale-of-styles/examples.md` §6 and more. Players `A` and `B`
//! duel from the case's settings (usually a `setup` and a `dice` list); a seat a step leaves
//! to `timeouts` gets the rulings' default, as a timed-out player does.
//!
//! Decks in a case are listed top first, as in §6; the cards a case does not name ("…")
//! follow in canonical order at the bottom of the deck, or with `"rest": "discard"` go to the
//! discard (for positions late in a match). A player's state is his deck, discard and wounds;
//! the game has no table expectations of its own.

use herald::rules::scale_of_styles::{Card, ScaleOfStyles, State};
use herald::rules::{Game, Seat};
use serde::Deserialize;
use serde_json::Value;

use super::{CaseGame, People, assert_every_case_holds, case_files, diff};

#[derive(Deserialize, Default, PartialEq, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
pub enum Rest {
    #[default]
    Deck,
    Discard,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FighterExpect {
    deck_size: Option<usize>,
    /// The top of the deck, top first.
    top: Option<Vec<String>>,
    /// The last cards of the discard, oldest first.
    discard_end: Option<Vec<String>>,
    discard_size: Option<usize>,
    wounds: Option<u32>,
}

/// Nothing beyond the shared expectations.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoMore {}

impl CaseGame for ScaleOfStyles {
    type Rest = Rest;
    type Filler = ();
    type PlayerExpect = FighterExpect;
    type StateExpect = NoMore;

    /// Completes each setup entry that lists a deck to the whole pack (see the module comment).
    fn complete(settings: &mut Value, rest: Option<&Rest>) {
        let rest = rest.copied().unwrap_or_default();
        let jokers = settings.get("jokers").and_then(Value::as_u64).unwrap_or(2) as u8;
        let Some(players) = settings
            .pointer_mut("/setup/players")
            .and_then(Value::as_array_mut)
        else {
            return;
        };
        for p in players {
            if p.get("deck").is_none() {
                continue;
            }
            let named: Vec<String> = ["deck", "discard"]
                .iter()
                .filter_map(|k| p.get(*k).and_then(Value::as_array))
                .flatten()
                .filter_map(|c| c.as_str().map(str::to_owned))
                .collect();
            let fill: Vec<Value> = Card::pack(jokers)
                .iter()
                .map(Card::to_string)
                .filter(|c| !named.contains(c))
                .map(Value::String)
                .collect();
            let key = match rest {
                Rest::Deck => "deck",
                Rest::Discard => "discard",
            };
            let list = p
                .as_object_mut()
                .expect("a setup entry is an object")
                .entry(key)
                .or_insert_with(|| Value::Array(Vec::new()));
            match (rest, list.as_array_mut()) {
                (Rest::Deck, Some(list)) => list.extend(fill),
                (Rest::Discard, Some(list)) => {
                    let mut all = fill;
                    all.append(list);
                    *list = all;
                }
                (_, None) => {}
            }
        }
    }

    fn check_player(
        state: &State,
        seat: Seat,
        f: &FighterExpect,
        people: &People,
        errors: &mut Vec<String>,
    ) {
        let name = people.name(seat);
        let fighter = &state.fighters[seat.0];
        let deck: Vec<String> = fighter.deck.iter().map(Card::to_string).collect();
        let discard: Vec<String> = fighter.discard.iter().map(|d| d.card.to_string()).collect();
        if let Some(n) = f.deck_size {
            diff(
                errors,
                &format!("{name}.deck_size"),
                n.to_string(),
                deck.len().to_string(),
            );
        }
        if let Some(top) = &f.top {
            let got = &deck[..top.len().min(deck.len())];
            diff(
                errors,
                &format!("{name}.top"),
                format!("{top:?}"),
                format!("{got:?}"),
            );
        }
        if let Some(end) = &f.discard_end {
            let got = &discard[discard.len().saturating_sub(end.len())..];
            diff(
                errors,
                &format!("{name}.discard_end"),
                format!("{end:?}"),
                format!("{got:?}"),
            );
        }
        if let Some(n) = f.discard_size {
            diff(
                errors,
                &format!("{name}.discard_size"),
                n.to_string(),
                discard.len().to_string(),
            );
        }
        if let Some(w) = f.wounds {
            diff(
                errors,
                &format!("{name}.wounds"),
                w.to_string(),
                fighter.wounds.to_string(),
            );
        }
    }

    fn check_state(_: &State, _: &NoMore, _: &(), _: &People, _: &mut Vec<String>) {}
}

#[test]
fn every_scale_of_styles_case_file_plays_out_as_its_rulings_say() {
    assert_every_case_holds::<ScaleOfStyles>();
}

#[test]
fn the_case_folder_holds_every_worked_case_of_section_6() {
    let texts: Vec<String> = case_files(ScaleOfStyles::ID)
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect();
    for tc in ["TC-01", "TC-02", "TC-03", "TC-04", "TC-05", "TC-06"] {
        assert!(
            texts.iter().any(|t| t.contains(&format!("\"{tc}\""))),
            "no case file cites {tc}"
        );
    }
    assert!(texts.len() >= 30, "only {} case files", texts.len());
}
