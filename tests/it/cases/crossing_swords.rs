//! Crossing Swords in the one case schema (`tests/cases/crossing-swords/`): the case names its
//! players, orders are `{"move", "target"}` with the target by name, a player's state is his
//! pools (`hp`, `vp`, `focus`, `dodge` by name) and `alive`, and `targets` checks the targets a
//! prompt offers for each move. There is no deck to complete.

use std::collections::{BTreeMap, BTreeSet};

use herald::rules::crossing_swords::{CrossingSwords, State};
use herald::rules::{Game, Seat};
use serde::Deserialize;
use serde_json::Value;

use super::{CaseGame, People, assert_every_case_holds, case_files, load};

/// Crossing Swords has no cards or tokens to place: a case cannot say `rest`.
#[derive(Deserialize)]
pub enum NoRest {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerExpect {
    hp: Option<Value>,
    vp: Option<Value>,
    alive: Option<Value>,
    /// Whom his Focus carries over to, by name, or null.
    #[serde(default, deserialize_with = "present")]
    focus: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    dodge: Option<Value>,
}

/// Reads a field that may be null as present: `"focus": null` expects no Focus.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateExpect {
    /// For each named player and move, the targets (by name) his prompt offers.
    #[serde(default)]
    targets: BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

impl CaseGame for CrossingSwords {
    type Rest = NoRest;
    type Filler = ();
    type PlayerExpect = PlayerExpect;
    type StateExpect = StateExpect;

    fn complete(_: &mut Value, _: Option<&NoRest>) {}

    /// A target that names a player becomes his id; anything else is sent as written.
    fn order_body(mut body: Value, people: &People) -> Value {
        if let Some(target) = body.get_mut("target")
            && let Some(name) = target.as_str()
            && people.seat(name).is_some()
        {
            *target = Value::String(People::id(name).to_string());
        }
        body
    }

    fn check_player(
        state: &State,
        seat: Seat,
        want: &PlayerExpect,
        people: &People,
        errors: &mut Vec<String>,
    ) {
        let pools = CrossingSwords::pools(state, seat);
        let who = people.name(seat);
        let fields = [
            ("hp", &want.hp, Value::from(pools.hp)),
            ("vp", &want.vp, Value::from(pools.vp)),
            (
                "alive",
                &want.alive,
                Value::from(CrossingSwords::alive(state, seat)),
            ),
            ("focus", &want.focus, people.name_of(pools.focus)),
            ("dodge", &want.dodge, people.name_of(pools.dodge)),
        ];
        for (field, want, got) in fields {
            if let Some(want) = want
                && *want != got
            {
                errors.push(format!("{who}.{field}: expected {want}, got {got}"));
            }
        }
    }

    fn check_state(
        state: &State,
        want: &StateExpect,
        _: &(),
        people: &People,
        errors: &mut Vec<String>,
    ) {
        for (player, moves) in &want.targets {
            let Some(seat) = people.seat(player) else {
                errors.push(format!("unknown player {player}"));
                continue;
            };
            let prompt = serde_json::to_value(CrossingSwords::prompt(state, seat)).unwrap();
            for (mv, targets) in moves {
                let got: Option<Vec<String>> = prompt["moves"].as_array().and_then(|ms| {
                    ms.iter().find(|m| m["move"] == mv.as_str()).map(|m| {
                        // Targets are seats: indexes into the prompt's players.
                        m["targets"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|seat| {
                                let player = &prompt["players"][seat.as_u64().unwrap() as usize];
                                player["name"].as_str().unwrap().to_owned()
                            })
                            .collect()
                    })
                });
                if got.as_ref() != Some(targets) {
                    errors.push(format!(
                        "{player}'s prompt for {mv}: expected targets {targets:?}, got {got:?}"
                    ));
                }
            }
        }
    }
}

fn cases() -> Vec<(String, super::Case<CrossingSwords>)> {
    case_files(CrossingSwords::ID)
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let case = load(p).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, case)
        })
        .collect()
}

#[test]
fn every_crossing_swords_rule_case_holds() {
    assert_every_case_holds::<CrossingSwords>();
}

#[test]
fn the_crossing_swords_case_folder_holds_at_least_forty_cases() {
    let n = case_files(CrossingSwords::ID).len();
    assert!(n >= 40, "only {n} Crossing Swords case files");
}

#[test]
fn every_crossing_swords_case_file_names_its_ruling_in_its_file_name() {
    for (name, case) in cases() {
        let mut parts = name.split('-');
        let head = parts.next().unwrap_or_default();
        let number: String = parts
            .next()
            .unwrap_or_default()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let cited = match head {
            "ruling" => format!("Ruling {number}"),
            "case" => format!("Case {number}"),
            step => step.to_uppercase(),
        };
        assert!(
            case.rulings.contains(&cited),
            "{name}: its name cites {cited}, which its rulings {:?} do not list",
            case.rulings
        );
    }
}

#[test]
fn the_crossing_swords_cases_cover_every_ruling_step_and_worked_example() {
    let named: BTreeSet<String> = cases().into_iter().flat_map(|(_, c)| c.rulings).collect();
    let wanted = (1..=32)
        .map(|n| format!("Ruling {n}"))
        .chain((0..=13).map(|n| format!("R{n}")))
        .chain((1..=8).map(|n| format!("Case {n}")));
    let missing: Vec<String> = wanted.filter(|w| !named.contains(w)).collect();
    assert!(missing.is_empty(), "no case names {missing:?}");
}
