//! BST in the one case schema (`tests/cases/bst/`): players `A` and `B` join with their
//! `character`, the settings give a `setup` and an explicit pool, and the runner completes the
//! setup to the 80 tokens: the tokens it does not name go to the end of the pool, or with
//! `"rest": "discard"` to the bottom of the discard pile (for pool-exhaustion cases). A
//! player's state is his HP, Charges, Poison, Off-Balance, hand and flags; `discard` (beyond
//! the filler) and `pool_size` check the table.

use herald::rules::bst::{Bst, State, Token};
use herald::rules::{Game, Seat};
use serde::Deserialize;
use serde_json::Value;

use super::{CaseGame, People, assert_every_case_holds, case_files, diff};

#[derive(Deserialize, Default, PartialEq, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
pub enum Rest {
    #[default]
    Pool,
    Discard,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerExpect {
    hp: Option<i32>,
    charges: Option<u8>,
    poison: Option<u32>,
    off_balance: Option<bool>,
    hand: Option<Vec<String>>,
    hand_size: Option<usize>,
    piercing_set_aside: Option<bool>,
    free_turn: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateExpect {
    /// The discard pile beyond the filler, in any order.
    discard: Option<Vec<String>>,
    pool_size: Option<usize>,
}

fn tokens(v: &[String]) -> Vec<Token> {
    let mut t: Vec<Token> = v
        .iter()
        .map(|s| s.parse().expect("token code in a case"))
        .collect();
    t.sort();
    t
}

fn sorted(mut v: Vec<Token>) -> Vec<Token> {
    v.sort();
    v
}

impl CaseGame for Bst {
    type Rest = Rest;
    /// The tokens put at the bottom of the discard pile, which `discard` looks past.
    type Filler = Vec<Token>;
    type PlayerExpect = PlayerExpect;
    type StateExpect = StateExpect;

    fn complete(settings: &mut Value, rest: Option<&Rest>) -> Vec<Token> {
        let rest = rest.copied().unwrap_or_default();
        let setup = settings.get_mut("setup").expect("a case has a setup");
        let mut named: Vec<Token> = Vec::new();
        let list = |v: Option<&Value>| -> Vec<Token> {
            v.and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .map(|t| t.as_str().expect("code").parse().expect("token"))
                        .collect()
                })
                .unwrap_or_default()
        };
        for p in setup
            .get("players")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
        {
            named.extend(list(p.get("hand")));
        }
        named.extend(list(setup.get("pool")));
        named.extend(list(setup.get("discard")));
        let mut fill = Token::full_set();
        for t in &named {
            // A case naming a token too often is a settings-refusal case: leave it to the check.
            if let Some(i) = fill.iter().position(|f| f == t) {
                fill.remove(i);
            }
        }
        let codes: Vec<Value> = fill.iter().map(|t| Value::String(t.to_string())).collect();
        let key = match rest {
            Rest::Pool => "pool",
            Rest::Discard => "discard",
        };
        let obj = setup.as_object_mut().expect("setup object");
        let entry = obj.entry(key).or_insert_with(|| Value::Array(vec![]));
        let arr = entry.as_array_mut().expect("array");
        match rest {
            Rest::Pool => arr.extend(codes),
            Rest::Discard => {
                let mut all = codes;
                all.append(arr);
                *arr = all;
            }
        }
        if rest == Rest::Pool { Vec::new() } else { fill }
    }

    fn check_player(
        state: &State,
        seat: Seat,
        e: &PlayerExpect,
        people: &People,
        errors: &mut Vec<String>,
    ) {
        let p = &state.players[seat.0];
        let who = people.name(seat);
        let mut field = |name: &str, want: Option<String>, got: String| {
            if let Some(want) = want {
                diff(errors, &format!("{who}.{name}"), want, got);
            }
        };
        field("hp", e.hp.map(|v| v.to_string()), p.hp.to_string());
        field(
            "charges",
            e.charges.map(|v| v.to_string()),
            p.charges.to_string(),
        );
        field(
            "poison",
            e.poison.map(|v| v.to_string()),
            p.poison.to_string(),
        );
        field(
            "off_balance",
            e.off_balance.map(|v| v.to_string()),
            p.off_balance.to_string(),
        );
        field(
            "hand",
            e.hand.as_ref().map(|v| format!("{:?}", tokens(v))),
            format!("{:?}", sorted(p.hand.clone())),
        );
        field(
            "hand_size",
            e.hand_size.map(|v| v.to_string()),
            p.hand.len().to_string(),
        );
        field(
            "piercing_set_aside",
            e.piercing_set_aside.map(|v| v.to_string()),
            p.piercing_set_aside.to_string(),
        );
        field(
            "free_turn",
            e.free_turn.map(|v| v.to_string()),
            p.free_turn.to_string(),
        );
    }

    fn check_state(
        state: &State,
        e: &StateExpect,
        fill: &Vec<Token>,
        _: &People,
        errors: &mut Vec<String>,
    ) {
        if let Some(d) = &e.discard {
            let mut actual = state.discard.clone();
            for t in fill {
                if let Some(i) = actual.iter().position(|a| a == t) {
                    actual.remove(i);
                }
            }
            diff(
                errors,
                "discard (beyond the filler)",
                format!("{:?}", tokens(d)),
                format!("{:?}", sorted(actual)),
            );
        }
        if let Some(n) = e.pool_size {
            diff(
                errors,
                "pool_size",
                n.to_string(),
                state.pool.len().to_string(),
            );
        }
    }
}

#[test]
fn every_bst_case_file_plays_out_as_its_rulings_say() {
    assert_every_case_holds::<Bst>();
}

#[test]
fn the_bst_case_folder_holds_at_least_sixty_cases() {
    let n = case_files(Bst::ID).len();
    assert!(n >= 60, "only {n} BST case files");
}
