//! BST rule cases as data: every `tests/cases/bst/*.json` starts from a setup and an explicit
//! pool, scripts the answers step by step, and checks the state (and refusals) the rulings
//! (`shared/rules/bst.md`) give. Expected values were worked by hand from the rulings.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use herald::rules::bst::{Bst, OrderBody, Settings, State, Token};
use herald::rules::{Entrant, Event, Game, GameRng, PlayerId, Refusal, Seat};
use rand::SeedableRng;
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    rulings: Vec<String>,
    characters: [String; 2],
    settings: Value,
    /// Where the tokens the setup does not name go: the end of the pool (default) or the
    /// bottom of the discard pile (for pool-exhaustion cases).
    #[serde(default)]
    rest: Rest,
    /// A settings refusal expected instead of a game.
    #[serde(default)]
    refused_settings: Option<String>,
    #[serde(default)]
    steps: Vec<StepScript>,
    #[serde(default)]
    expect: Option<Expect>,
}

#[derive(Deserialize, Default, PartialEq, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum Rest {
    #[default]
    Pool,
    Discard,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepScript {
    step: String,
    #[serde(default)]
    refusals: Vec<Refused>,
    #[serde(default)]
    answers: BTreeMap<String, Value>,
    #[serde(default)]
    expect: Option<Expect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Refused {
    seat: usize,
    body: Value,
    code: String,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    step: Option<String>,
    round: Option<u32>,
    #[serde(default)]
    owes: Option<Vec<usize>>,
    players: Option<[PlayerExpect; 2]>,
    discard: Option<Vec<String>>,
    pool_size: Option<usize>,
    winners: Option<Vec<usize>>,
    reason: Option<String>,
    #[serde(default)]
    log: Vec<String>,
    #[serde(default)]
    log_absent: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct PlayerExpect {
    hp: Option<i32>,
    charges: Option<u8>,
    poison: Option<u32>,
    off_balance: Option<bool>,
    hand: Option<Vec<String>>,
    hand_size: Option<usize>,
    piercing_set_aside: Option<bool>,
    free_turn: Option<bool>,
}

fn case_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/bst")
}

fn case_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(case_dir())
        .expect("tests/cases/bst exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
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

/// Completes the setup to the 80 tokens: the runner's only addition to a case.
fn complete(settings: &mut Value, rest: Rest) -> Vec<Token> {
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

fn entrants(chars: &[String; 2]) -> Vec<Entrant<herald::rules::bst::Join>> {
    ["A", "B"]
        .iter()
        .zip(chars)
        .enumerate()
        .map(|(i, (name, c))| Entrant {
            id: PlayerId(uuid::Uuid::from_u128(i as u128 + 1)),
            name: (*name).to_owned(),
            join: herald::rules::bst::Join {
                character: c.parse().expect("character id"),
            },
        })
        .collect()
}

fn check(
    state: &State,
    expect: &Expect,
    fill: &[Token],
    log: &[String],
    at: &str,
) -> Result<(), String> {
    let mut errors = Vec::new();
    if let Some(step) = &expect.step {
        let actual = <Bst as Game>::step(state);
        if actual != step {
            errors.push(format!("step: expected {step}, got {actual}"));
        }
    }
    if let Some(round) = expect.round
        && state.round != round
    {
        errors.push(format!("round: expected {round}, got {}", state.round));
    }
    if let Some(owes) = &expect.owes {
        let actual: Vec<usize> = <Bst as Game>::owes(state).iter().map(|s| s.0 + 1).collect();
        if &actual != owes {
            errors.push(format!("owes: expected {owes:?}, got {actual:?}"));
        }
    }
    if let Some(players) = &expect.players {
        for (i, e) in players.iter().enumerate() {
            let p = &state.players[i];
            let who = if i == 0 { "A" } else { "B" };
            let mut diff = |field: &str, exp: String, act: String| {
                if exp != act {
                    errors.push(format!("{who}.{field}: expected {exp}, got {act}"));
                }
            };
            if let Some(v) = e.hp {
                diff("hp", v.to_string(), p.hp.to_string())
            }
            if let Some(v) = e.charges {
                diff("charges", v.to_string(), p.charges.to_string())
            }
            if let Some(v) = e.poison {
                diff("poison", v.to_string(), p.poison.to_string())
            }
            if let Some(v) = e.off_balance {
                diff("off_balance", v.to_string(), p.off_balance.to_string())
            }
            if let Some(v) = &e.hand {
                diff(
                    "hand",
                    format!("{:?}", tokens(v)),
                    format!("{:?}", sorted(p.hand.clone())),
                )
            }
            if let Some(v) = e.hand_size {
                diff("hand_size", v.to_string(), p.hand.len().to_string())
            }
            if let Some(v) = e.piercing_set_aside {
                diff(
                    "piercing_set_aside",
                    v.to_string(),
                    p.piercing_set_aside.to_string(),
                )
            }
            if let Some(v) = e.free_turn {
                diff("free_turn", v.to_string(), p.free_turn.to_string())
            }
        }
    }
    if let Some(d) = &expect.discard {
        let mut actual = state.discard.clone();
        for t in fill {
            if let Some(i) = actual.iter().position(|a| a == t) {
                actual.remove(i);
            }
        }
        let (e, a) = (tokens(d), sorted(actual));
        if e != a {
            errors.push(format!(
                "discard (beyond the filler): expected {e:?}, got {a:?}"
            ));
        }
    }
    if let Some(n) = expect.pool_size
        && state.pool.len() != n
    {
        errors.push(format!("pool_size: expected {n}, got {}", state.pool.len()));
    }
    if expect.winners.is_some() || expect.reason.is_some() {
        match <Bst as Game>::outcome(state) {
            None => errors.push("expected the game to be over".to_owned()),
            Some(o) => {
                if let Some(w) = &expect.winners {
                    let actual: Vec<usize> = state
                        .finish
                        .as_ref()
                        .map(|f| f.winners.iter().map(|x| x.0 + 1).collect())
                        .unwrap_or_default();
                    if &actual != w {
                        errors.push(format!("winners: expected {w:?}, got {actual:?}"));
                    }
                }
                if let Some(r) = &expect.reason
                    && o.reason.to_string() != *r
                {
                    errors.push(format!("reason: expected {r}, got {}", o.reason));
                }
            }
        }
    }
    for needle in &expect.log {
        if !log.iter().any(|l| l.contains(needle.as_str())) {
            errors.push(format!("log lacks {needle:?}"));
        }
    }
    for needle in &expect.log_absent {
        if log.iter().any(|l| l.contains(needle.as_str())) {
            errors.push(format!("log should not contain {needle:?}"));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{at}:\n    {}\n  log:\n    {}",
            errors.join("\n    "),
            log.join("\n    ")
        ))
    }
}

fn run_case(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let case: Case = serde_json::from_str(&text).map_err(|e| format!("bad case file: {e}"))?;
    assert!(
        !case.rulings.is_empty(),
        "{}: a case names its rulings",
        case.name
    );
    let mut settings_json = case.settings.clone();
    let fill = complete(&mut settings_json, case.rest);
    let settings: Settings =
        serde_json::from_value(settings_json).map_err(|e| format!("bad settings: {e}"))?;
    let checked = <Bst as Game>::check_settings(&settings);
    let mut rng = GameRng::seed_from_u64(settings.seed.unwrap_or(7));
    let started = checked
        .and_then(|()| <Bst as Game>::start(&settings, &entrants(&case.characters), &mut rng));
    let mut state = match (started, &case.refused_settings) {
        (Err(r), Some(code)) if r.code() == code => return Ok(()),
        (Err(r), _) => return Err(format!("settings refused: {} ({r})", r.code())),
        (Ok(_), Some(code)) => return Err(format!("settings should be refused with {code}")),
        (Ok(s), None) => s,
    };
    let mut log: Vec<String> = Vec::new();
    for (n, script) in case.steps.iter().enumerate() {
        let at = format!("step {} ({})", n + 1, script.step);
        let actual = <Bst as Game>::step(&state);
        if actual != script.step {
            return Err(format!(
                "{at}: the game is at step `{actual}`\n  log:\n    {}",
                log.join("\n    ")
            ));
        }
        for r in &script.refusals {
            let body: OrderBody = serde_json::from_value(r.body.clone())
                .map_err(|e| format!("{at}: bad refusal body: {e}"))?;
            match <Bst as Game>::check_order(&state, Seat(r.seat - 1), body) {
                Ok(o) => {
                    return Err(format!(
                        "{at}: {:?} should be refused with {}, was accepted as {o:?}",
                        r.body, r.code
                    ));
                }
                Err(e) if e.code() == r.code => {}
                Err(e) => {
                    return Err(format!(
                        "{at}: expected refusal {}, got {} ({e})",
                        r.code,
                        e.code()
                    ));
                }
            }
        }
        let owes: Vec<usize> = <Bst as Game>::owes(&state).iter().map(|s| s.0).collect();
        let mut orders = Vec::new();
        for seat in &owes {
            let key = if *seat == 0 { "A" } else { "B" };
            let Some(body) = script.answers.get(key) else {
                return Err(format!(
                    "{at}: {key} owes an answer but the case gives none"
                ));
            };
            assert!(
                <Bst as Game>::prompt(&state, Seat(*seat)).is_some(),
                "an owed seat has a prompt"
            );
            let body: OrderBody = serde_json::from_value(body.clone())
                .map_err(|e| format!("{at}: bad answer: {e}"))?;
            let order = <Bst as Game>::check_order(&state, Seat(*seat), body)
                .map_err(|e| format!("{at}: {key}'s answer refused: {} ({e})", e.code()))?;
            orders.push((Seat(*seat), order));
        }
        for key in script.answers.keys() {
            let seat = if key == "A" { 0 } else { 1 };
            if !owes.contains(&seat) {
                return Err(format!(
                    "{at}: {key} answers but owes nothing (owed: {owes:?})"
                ));
            }
        }
        let res = <Bst as Game>::resolve(&state, &orders, &mut rng);
        log.extend(
            res.events
                .iter()
                .filter(|e| e.audience() == herald::rules::Audience::Everyone)
                .map(|e| e.to_string()),
        );
        state = res.state;
        if let Some(e) = &script.expect {
            check(&state, e, &fill, &log, &at)?;
        }
    }
    if let Some(e) = &case.expect {
        check(&state, e, &fill, &log, "at the end")?;
    }
    Ok(())
}

#[test]
fn every_bst_case_file_plays_out_as_its_rulings_say() {
    let mut failures = Vec::new();
    for path in case_files() {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let rulings = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v.get("rulings").cloned())
            .map(|r| r.to_string())
            .unwrap_or_default();
        if let Err(e) = run_case(&path) {
            failures.push(format!(
                "{} (rulings {rulings}): {e}",
                path.file_name().unwrap_or_default().to_string_lossy()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_bst_case_folder_holds_at_least_sixty_cases() {
    let n = case_files().len();
    assert!(n >= 60, "only {n} BST case files");
}
