//! Contests in the one case schema (`tests/cases/contests/`): the worked cases TC-01..TC-06
//! of `docs/rules/contests.md` §6 and more. Players `A` and `B` duel from the case's settings
//! (a `decks` hook or a `setup` position, often `default_dice`); a seat a step leaves to
//! `timeouts` gets the rulings' default, as a timed-out player does.
//!
//! A case names only the cards that matter: a `decks` list is completed to the 17 cards in
//! canonical order at its bottom; a setup entry that lists a hand, deck or discard gets the
//! cards it does not name at the bottom of its deck, or with `"rest": "discard"` in its
//! discard ("empty" hands and decks in a late position).

use herald::rules::contests::ids::Attribute;
use herald::rules::contests::{Card, Contests, State};
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
pub struct CombatantExpect {
    hp: Option<u32>,
    max_hp: Option<u32>,
    energy: Option<u32>,
    /// The hand, in draw order.
    hand: Option<Vec<String>>,
    hand_size: Option<usize>,
    deck_size: Option<usize>,
    /// The last cards of the discard, oldest first.
    discard_end: Option<Vec<String>>,
    discard_size: Option<usize>,
    /// Effective ratings (§2.5).
    might: Option<u32>,
    skill: Option<u32>,
    mind: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuelExpect {
    /// The phase under way (`null`: none, a window or the end).
    #[serde(default, deserialize_with = "some")]
    phase: Option<Option<String>>,
    phase_count: Option<u32>,
    /// The open contest's number.
    contest: Option<u32>,
    /// Who attacks first in the phase under way.
    attacks_first: Option<String>,
}

fn some<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

fn ids(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|c| c.to_string()).collect()
}

fn fill(named: &[String]) -> Vec<Value> {
    Card::ALL
        .iter()
        .map(|c| c.to_string())
        .filter(|c| !named.contains(c))
        .map(Value::String)
        .collect()
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.as_str().map(str::to_owned))
        .collect()
}

impl CaseGame for Contests {
    type Rest = Rest;
    type Filler = ();
    type PlayerExpect = CombatantExpect;
    type StateExpect = DuelExpect;

    fn complete(settings: &mut Value, rest: Option<&Rest>) {
        let rest = rest.copied().unwrap_or_default();
        if let Some(decks) = settings.get_mut("decks").and_then(Value::as_object_mut) {
            for list in decks.values_mut() {
                let named = strings(Some(list));
                if let Some(list) = list.as_array_mut() {
                    list.extend(fill(&named));
                }
            }
        }
        let Some(players) = settings
            .pointer_mut("/setup/players")
            .and_then(Value::as_array_mut)
        else {
            return;
        };
        for p in players {
            if ["hand", "deck", "discard"]
                .iter()
                .all(|k| p.get(*k).is_none())
            {
                continue;
            }
            let named: Vec<String> = ["hand", "deck", "discard"]
                .iter()
                .flat_map(|k| strings(p.get(*k)))
                .collect();
            let key = match rest {
                Rest::Deck => "deck",
                Rest::Discard => "discard",
            };
            let entry = p.as_object_mut().expect("a setup entry is an object");
            for k in ["hand", "deck", "discard"] {
                entry.entry(k).or_insert_with(|| Value::Array(Vec::new()));
            }
            if let Some(list) = entry.get_mut(key).and_then(Value::as_array_mut) {
                list.extend(fill(&named));
            }
        }
    }

    fn check_player(
        state: &State,
        seat: Seat,
        want: &CombatantExpect,
        people: &People,
        errors: &mut Vec<String>,
    ) {
        let name = people.name(seat);
        let f = &state.fighters[seat.0];
        let mut check = |what: &str, w: Option<String>, got: String| {
            if let Some(w) = w {
                diff(errors, &format!("{name}.{what}"), w, got);
            }
        };
        check("hp", want.hp.map(|v| v.to_string()), f.hp.to_string());
        check(
            "max_hp",
            want.max_hp.map(|v| v.to_string()),
            f.max_hp.to_string(),
        );
        check(
            "energy",
            want.energy.map(|v| v.to_string()),
            f.energy.to_string(),
        );
        check(
            "hand",
            want.hand.as_ref().map(|h| format!("{h:?}")),
            format!("{:?}", ids(&f.hand)),
        );
        check(
            "hand_size",
            want.hand_size.map(|v| v.to_string()),
            f.hand.len().to_string(),
        );
        check(
            "deck_size",
            want.deck_size.map(|v| v.to_string()),
            f.deck.len().to_string(),
        );
        let discard = ids(&f.discard);
        if let Some(end) = &want.discard_end {
            let got = &discard[discard.len().saturating_sub(end.len())..];
            check("discard_end", Some(format!("{end:?}")), format!("{got:?}"));
        }
        check(
            "discard_size",
            want.discard_size.map(|v| v.to_string()),
            discard.len().to_string(),
        );
        for (what, w, attribute) in [
            ("might", want.might, Attribute::Might),
            ("skill", want.skill, Attribute::Skill),
            ("mind", want.mind, Attribute::Mind),
        ] {
            check(
                what,
                w.map(|v| v.to_string()),
                f.rating(attribute, 0).to_string(),
            );
        }
    }

    fn check_state(
        state: &State,
        want: &DuelExpect,
        _: &(),
        people: &People,
        errors: &mut Vec<String>,
    ) {
        if let Some(phase) = &want.phase {
            let got = state.phase.as_ref().map(|p| p.phase.to_string());
            diff(errors, "phase", format!("{phase:?}"), format!("{got:?}"));
        }
        if let Some(n) = want.phase_count {
            diff(
                errors,
                "phase_count",
                n.to_string(),
                state.phases.to_string(),
            );
        }
        if let Some(n) = want.contest {
            let got = state.contest.as_ref().map(|c| c.number);
            diff(
                errors,
                "contest",
                format!("{:?}", Some(n)),
                format!("{got:?}"),
            );
        }
        if let Some(first) = &want.attacks_first {
            let got = state
                .phase
                .as_ref()
                .filter(|p| !p.declaring)
                .map(|p| people.name(p.order[0]).to_owned());
            diff(
                errors,
                "attacks_first",
                format!("{:?}", Some(first)),
                format!("{got:?}"),
            );
        }
    }
}

#[test]
fn every_contests_case_file_plays_out_as_its_rulings_say() {
    assert_every_case_holds::<Contests>();
}

#[test]
fn the_case_folder_holds_every_worked_case_of_section_6() {
    let texts: Vec<String> = case_files(Contests::ID)
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect();
    for tc in ["TC-01", "TC-02", "TC-03", "TC-04", "TC-05", "TC-06"] {
        assert!(
            texts.iter().any(|t| t.contains(&format!("\"{tc}\""))),
            "no case file cites {tc}"
        );
    }
}
