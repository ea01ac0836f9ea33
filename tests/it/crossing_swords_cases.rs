//! Runs every rule case in `tests/cases/crossing-swords/`: each file names the rulings it
//! checks, starts a game through the `Game` trait, submits each turn's orders through
//! `check_order`, resolves, and compares the pools, the end and the log with numbers worked by
//! hand from `shared/rules/crossing-swords.md`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use herald::rules::crossing_swords::{CrossingSwords, Join, OrderBody, Settings};
use herald::rules::{Entrant, Game, GameRng, PlayerId, Refusal, Seat, SettingsError};
use rand_chacha::rand_core::SeedableRng;
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/crossing-swords");

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    rulings: Vec<String>,
    description: String,
    players: Vec<String>,
    #[serde(default)]
    settings: Option<Value>,
    #[serde(default)]
    settings_refusal: Option<String>,
    #[serde(default)]
    start_refusal: Option<String>,
    #[serde(default)]
    turns: Vec<Turn>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Turn {
    #[serde(default)]
    refusals: Vec<ExpectedRefusal>,
    #[serde(default)]
    prompt: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    #[serde(default)]
    orders: BTreeMap<String, (String, String)>,
    /// Living players deliberately left without an order (R0, Ruling 2).
    #[serde(default)]
    passes: Vec<String>,
    expect: Expect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectedRefusal {
    player: String,
    #[serde(rename = "move")]
    mv: String,
    target: String,
    code: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    #[serde(default)]
    round: Option<u32>,
    #[serde(default)]
    players: BTreeMap<String, BTreeMap<String, Value>>,
    finished: bool,
    #[serde(default)]
    winners: Option<Vec<String>>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    places: Option<BTreeMap<String, usize>>,
    #[serde(default)]
    events: Vec<Value>,
    #[serde(default)]
    no_events: Vec<Value>,
    #[serde(default)]
    lines: Vec<String>,
}

/// A fixed player id per name, so case files can name players.
fn id_of(name: &str) -> PlayerId {
    let mut bytes = [0u8; 16];
    bytes[0] = 0xC5;
    for (i, b) in name.bytes().take(15).enumerate() {
        bytes[i + 1] = b;
    }
    PlayerId(Uuid::from_bytes(bytes))
}

fn case_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(CASES)
        .expect("the case folder exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// Does `actual` contain `expected`? Objects: every expected key matches; arrays: same length,
/// item by item; a string against a `{"id","name"}` object: the name.
fn matches(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => e
            .iter()
            .all(|(k, v)| a.get(k).is_some_and(|av| matches(v, av))),
        (Value::Array(e), Value::Array(a)) => {
            e.len() == a.len() && e.iter().zip(a).all(|(x, y)| matches(x, y))
        }
        (Value::String(name), Value::Object(a)) => {
            a.get("name") == Some(&Value::String(name.clone()))
        }
        (e, a) => e == a,
    }
}

struct Run<'a> {
    file: String,
    case: &'a Case,
    errors: Vec<String>,
}

impl Run<'_> {
    fn fail(&mut self, what: String) {
        self.errors.push(format!(
            "{} [{}] ({}): {what}",
            self.file,
            self.case.rulings.join(", "),
            self.case.description
        ));
    }

    fn name_of(&self, id: Option<PlayerId>) -> Value {
        match id {
            None => Value::Null,
            Some(id) => self
                .case
                .players
                .iter()
                .find(|n| id_of(n) == id)
                .map_or(Value::String(id.to_string()), |n| Value::String(n.clone())),
        }
    }
}

fn seat_of(case: &Case, name: &str) -> Option<Seat> {
    case.players.iter().position(|n| n == name).map(Seat)
}

fn run_case(path: &Path) -> Vec<String> {
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap();
    let case: Case = match serde_json::from_str(&text) {
        Ok(c) => c,
        Err(e) => return vec![format!("{file}: unreadable case: {e}")],
    };
    let mut run = Run {
        file,
        case: &case,
        errors: Vec::new(),
    };
    if case.rulings.is_empty() {
        run.fail("names no ruling".into());
    }
    // Settings are read as the host reads a client's: unknown keys and variant values the
    // rulings do not list are refusals, like a failed check.
    let parsed = match &case.settings {
        None => Ok(Settings::default()),
        Some(v) => CrossingSwords::parse_settings(v.clone()),
    };
    let (settings, checked) = match parsed {
        Ok(s) => {
            let checked = CrossingSwords::check_settings(&s);
            (s, checked)
        }
        Err(SettingsError::Refused(r)) => (Settings::default(), Err(r)),
        Err(SettingsError::Malformed(e)) => {
            run.fail(format!("settings do not deserialize: {e}"));
            return run.errors;
        }
    };
    match (&case.settings_refusal, checked) {
        (Some(code), Err(r)) if r.code() == code => return run.errors,
        (Some(code), Err(r)) => run.fail(format!(
            "settings refused with {} ({r}), expected {code}",
            r.code()
        )),
        (Some(code), Ok(())) => run.fail(format!("settings accepted, expected refusal {code}")),
        (None, Err(r)) => run.fail(format!("settings refused: {} ({r})", r.code())),
        (None, Ok(())) => {}
    }
    if !run.errors.is_empty() {
        return run.errors;
    }
    let entrants: Vec<Entrant<Join>> = case
        .players
        .iter()
        .map(|n| Entrant {
            id: id_of(n),
            name: n.clone(),
            join: Join,
        })
        .collect();
    let mut rng = GameRng::seed_from_u64(0);
    let mut state = match (
        CrossingSwords::start(&settings, &entrants, &mut rng),
        &case.start_refusal,
    ) {
        (Err(r), Some(code)) if r.code() == code => return run.errors,
        (Err(r), expected) => {
            run.fail(format!(
                "start refused with {} ({r}), expected {expected:?}",
                r.code()
            ));
            return run.errors;
        }
        (Ok(_), Some(code)) => {
            run.fail(format!("start accepted, expected refusal {code}"));
            return run.errors;
        }
        (Ok(state), None) => state,
    };
    for (t, turn) in case.turns.iter().enumerate() {
        let t = t + 1;
        for r in &turn.refusals {
            let Some(seat) = seat_of(&case, &r.player) else {
                run.fail(format!("turn {t}: unknown player {}", r.player));
                continue;
            };
            let target = seat_of(&case, &r.target)
                .map_or(r.target.clone(), |_| id_of(&r.target).to_string());
            let body: OrderBody =
                serde_json::from_value(serde_json::json!({"move": r.mv, "target": target}))
                    .unwrap();
            match CrossingSwords::check_order(&state, seat, body) {
                Ok(o) => run.fail(format!(
                    "turn {t}: {} {} {} accepted as {o:?}, expected {}",
                    r.player, r.mv, r.target, r.code
                )),
                Err(e) if e.code() == r.code => {}
                Err(e) => run.fail(format!(
                    "turn {t}: {} {} {} refused with {}, expected {}",
                    r.player,
                    r.mv,
                    r.target,
                    e.code(),
                    r.code
                )),
            }
        }
        for (player, moves) in &turn.prompt {
            let prompt = seat_of(&case, player).and_then(|s| CrossingSwords::prompt(&state, s));
            let prompt = serde_json::to_value(prompt).unwrap();
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
                    run.fail(format!("turn {t}: {player}'s prompt for {mv}: expected targets {targets:?}, got {got:?}"));
                }
            }
        }
        let mut orders = Vec::new();
        for (player, (mv, target)) in &turn.orders {
            let (Some(seat), Some(_)) = (seat_of(&case, player), seat_of(&case, target)) else {
                run.fail(format!(
                    "turn {t}: order {player} {mv} {target} names an unknown player"
                ));
                continue;
            };
            let body: OrderBody = serde_json::from_value(
                serde_json::json!({"move": mv, "target": id_of(target).to_string()}),
            )
            .unwrap();
            match CrossingSwords::check_order(&state, seat, body) {
                Ok(order) => orders.push((seat, order)),
                Err(e) => run.fail(format!(
                    "turn {t}: {player} {mv} {target} refused: {} ({e})",
                    e.code()
                )),
            }
        }
        if turn.orders.is_empty() {
            // A turn of checks only (refusals, prompts): nothing resolves.
            check_expect(&mut run, t, &state, &turn.expect, &[]);
            continue;
        }
        orders.sort_by_key(|(s, _)| *s);
        let owed = CrossingSwords::owes(&state);
        let mut given: Vec<Seat> = orders.iter().map(|(s, _)| *s).collect();
        given.extend(turn.passes.iter().filter_map(|p| seat_of(&case, p)));
        given.sort();
        if owed != given {
            run.fail(format!(
                "turn {t}: orders for seats {given:?} but seats {owed:?} owe one"
            ));
        }
        let resolution = CrossingSwords::resolve(&state, &orders, &mut rng);
        state = resolution.state;
        let events: Vec<(Value, String)> = resolution
            .events
            .iter()
            .map(|e| (serde_json::to_value(e).unwrap(), e.to_string()))
            .collect();
        check_expect(&mut run, t, &state, &turn.expect, &events);
    }
    run.errors
}

fn check_expect(
    run: &mut Run<'_>,
    t: usize,
    state: &herald::rules::crossing_swords::State,
    expect: &Expect,
    events: &[(Value, String)],
) {
    let case = run.case;
    if let Some(round) = expect.round {
        let got = CrossingSwords::round(state);
        if got != round {
            run.fail(format!("turn {t}: round expected {round}, got {got}"));
        }
    }
    for (player, fields) in &expect.players {
        let Some(seat) = seat_of(case, player) else {
            run.fail(format!("turn {t}: unknown player {player}"));
            continue;
        };
        let pools = CrossingSwords::pools(state, seat);
        for (field, want) in fields {
            let got = match field.as_str() {
                "hp" => Value::from(pools.hp),
                "vp" => Value::from(pools.vp),
                "alive" => Value::from(CrossingSwords::alive(state, seat)),
                "focus" => run.name_of(pools.focus),
                "dodge" => run.name_of(pools.dodge),
                other => {
                    run.fail(format!("turn {t}: unknown field {other}"));
                    continue;
                }
            };
            if &got != want {
                run.fail(format!(
                    "turn {t}: {player}.{field} expected {want}, got {got}"
                ));
            }
        }
    }
    let outcome = CrossingSwords::outcome(state);
    if outcome.is_some() != expect.finished {
        run.fail(format!(
            "turn {t}: finished expected {}, got {}",
            expect.finished,
            outcome.is_some()
        ));
    }
    if expect.finished != CrossingSwords::owes(state).is_empty() {
        run.fail(format!(
            "turn {t}: owes() disagrees with finished = {}",
            expect.finished
        ));
    }
    let outcome = serde_json::to_value(outcome).unwrap();
    if let Some(winners) = &expect.winners {
        let got: Vec<Value> = outcome["winners"]
            .as_array()
            .map(|w| {
                w.iter()
                    .map(|id| run.name_of(serde_json::from_value(id.clone()).ok()))
                    .collect()
            })
            .unwrap_or_default();
        let want: Vec<Value> = winners.iter().map(|w| Value::String(w.clone())).collect();
        if got != want {
            run.fail(format!("turn {t}: winners expected {want:?}, got {got:?}"));
        }
    }
    if let Some(reason) = &expect.reason
        && outcome["reason"] != reason.as_str()
    {
        run.fail(format!(
            "turn {t}: reason expected {reason}, got {}",
            outcome["reason"]
        ));
    }
    if let Some(places) = &expect.places {
        for (player, place) in places {
            let got = outcome["standings"]
                .as_array()
                .and_then(|s| s.iter().find(|row| row["name"] == player.as_str()))
                .map(|row| row["place"].clone());
            if got != Some(Value::from(*place)) {
                run.fail(format!(
                    "turn {t}: {player}'s place expected {place}, got {got:?}"
                ));
            }
        }
    }
    for want in &expect.events {
        if !events.iter().any(|(e, _)| matches(want, e)) {
            let log: Vec<&String> = events.iter().map(|(_, l)| l).collect();
            run.fail(format!(
                "turn {t}: no event matches {want}; the log was {log:#?}"
            ));
        }
    }
    for unwanted in &expect.no_events {
        if let Some((_, line)) = events.iter().find(|(e, _)| matches(unwanted, e)) {
            run.fail(format!(
                "turn {t}: unexpected event matching {unwanted}: {line}"
            ));
        }
    }
    for line in &expect.lines {
        if !events.iter().any(|(_, l)| l == line) {
            let log: Vec<&String> = events.iter().map(|(_, l)| l).collect();
            run.fail(format!(
                "turn {t}: no log line {line:?}; the log was {log:#?}"
            ));
        }
    }
}

#[test]
fn every_crossing_swords_rule_case_holds() {
    let mut errors = Vec::new();
    for path in case_files() {
        errors.extend(run_case(&path));
    }
    assert!(
        errors.is_empty(),
        "{} failure(s):\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn the_crossing_swords_case_folder_holds_at_least_forty_cases() {
    let n = case_files().len();
    assert!(n >= 40, "only {n} case files in {CASES}");
}

#[test]
fn every_crossing_swords_case_file_names_its_ruling_in_its_file_name() {
    for path in case_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let case: Case = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
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
    let mut named = std::collections::BTreeSet::new();
    for path in case_files() {
        let case: Case = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        named.extend(case.rulings);
    }
    let wanted = (1..=32)
        .map(|n| format!("Ruling {n}"))
        .chain((0..=13).map(|n| format!("R{n}")))
        .chain((1..=8).map(|n| format!("Case {n}")));
    let missing: Vec<String> = wanted.filter(|w| !named.contains(w)).collect();
    assert!(missing.is_empty(), "no case names {missing:?}");
}
