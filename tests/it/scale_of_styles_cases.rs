//! Runs every rule case in `tests/cases/scale-of-styles/`: each file names the rulings it
//! checks (the worked cases TC-01..TC-06 of `shared/rules/scale-of-styles.md` §6 and more),
//! starts a duel through the `Game` trait from its settings (usually a `setup` and a `dice`
//! list), answers each step through `check_order` (a seat the case leaves silent gets the
//! rulings' default, as a timed-out player does), resolves, and compares decks, discards,
//! the end and the log with numbers worked by hand from the rulings.
//!
//! Decks in a case are listed top first, as in §6; the cards a case does not name ("…")
//! follow in canonical order at the bottom of the deck, or with `"rest": "discard"` go to the
//! discard (for positions late in a match).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use herald::rules::scale_of_styles::{Card, JoinBody, OrderBody, ScaleOfStyles, State};
use herald::rules::{Audience, Entrant, Event, Game, GameRng, PlayerId, Refusal, Seat};
use herald::rules::{SettingsError, scale_of_styles::Join};
use rand::SeedableRng;
use serde::Deserialize;
use serde_json::Value;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/scale-of-styles");
const NAMES: [&str; 2] = ["A", "B"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    rulings: Vec<String>,
    description: String,
    #[serde(default)]
    settings: Value,
    #[serde(default)]
    joins: Option<[Value; 2]>,
    #[serde(default)]
    rest: Rest,
    #[serde(default)]
    settings_refusal: Option<String>,
    #[serde(default)]
    join_refusal: Option<String>,
    #[serde(default)]
    start_refusal: Option<String>,
    #[serde(default)]
    at_start: Option<Expect>,
    #[serde(default)]
    steps: Vec<Script>,
}

#[derive(Deserialize, Default, PartialEq, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum Rest {
    #[default]
    Deck,
    Discard,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Script {
    step: String,
    #[serde(default)]
    refusals: Vec<Refused>,
    /// Answers by player name; an owed player left out times out (Ruling 24's default).
    #[serde(default)]
    answers: BTreeMap<String, Value>,
    #[serde(default)]
    expect: Option<Expect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Refused {
    player: String,
    body: Value,
    code: String,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    step: Option<String>,
    round: Option<u32>,
    owes: Option<Vec<String>>,
    #[serde(default)]
    players: BTreeMap<String, FighterExpect>,
    /// Subsets of each named player's prompt, as JSON.
    #[serde(default)]
    prompts: BTreeMap<String, Value>,
    /// Subsets of each named player's public pools, as JSON.
    #[serde(default)]
    pools: BTreeMap<String, Value>,
    /// `A`, `B` or `draw`.
    winner: Option<String>,
    reason: Option<String>,
    /// Subsets of each named player's standing, as JSON.
    #[serde(default)]
    standings: BTreeMap<String, Value>,
    /// Substrings of public log lines (since the start).
    #[serde(default)]
    log: Vec<String>,
    #[serde(default)]
    log_absent: Vec<String>,
    /// Substrings of lines for one player's eyes only.
    #[serde(default)]
    private_log: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FighterExpect {
    deck_size: Option<usize>,
    /// The top of the deck, top first.
    top: Option<Vec<String>>,
    /// The last cards of the discard, oldest first.
    discard_end: Option<Vec<String>>,
    discard_size: Option<usize>,
    wounds: Option<u32>,
}

fn case_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(CASES)
        .expect("tests/cases/scale-of-styles exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn seat_of(name: &str) -> Seat {
    Seat(
        NAMES
            .iter()
            .position(|n| *n == name)
            .expect("a player is A or B"),
    )
}

/// Completes each setup entry that lists a deck to the whole pack (see the module comment).
fn complete(settings: &mut Value, rest: Rest) {
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

/// True when every field of `want` is in `got` with the same value (recursively for objects).
fn subset(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => w
            .iter()
            .all(|(k, v)| g.get(k).is_some_and(|gv| subset(v, gv))),
        _ => want == got,
    }
}

struct Log {
    public: Vec<String>,
    private: Vec<String>,
}

fn check(state: &State, e: &Expect, log: &Log, at: &str) -> Result<(), String> {
    let mut errors = Vec::new();
    let mut diff = |what: String, want: String, got: String| {
        if want != got {
            errors.push(format!("{what}: expected {want}, got {got}"));
        }
    };
    if let Some(step) = &e.step {
        diff(
            "step".into(),
            step.clone(),
            ScaleOfStyles::step(state).into(),
        );
    }
    if let Some(round) = e.round {
        diff("round".into(), round.to_string(), state.round.to_string());
    }
    if let Some(owes) = &e.owes {
        let got: Vec<&str> = ScaleOfStyles::owes(state)
            .iter()
            .map(|s| NAMES[s.0])
            .collect();
        diff("owes".into(), format!("{owes:?}"), format!("{got:?}"));
    }
    for (name, f) in &e.players {
        let fighter = &state.fighters[seat_of(name).0];
        let deck: Vec<String> = fighter.deck.iter().map(Card::to_string).collect();
        let discard: Vec<String> = fighter.discard.iter().map(|d| d.card.to_string()).collect();
        if let Some(n) = f.deck_size {
            diff(
                format!("{name}.deck_size"),
                n.to_string(),
                deck.len().to_string(),
            );
        }
        if let Some(top) = &f.top {
            let got = &deck[..top.len().min(deck.len())];
            diff(
                format!("{name}.top"),
                format!("{top:?}"),
                format!("{got:?}"),
            );
        }
        if let Some(end) = &f.discard_end {
            let got = &discard[discard.len().saturating_sub(end.len())..];
            diff(
                format!("{name}.discard_end"),
                format!("{end:?}"),
                format!("{got:?}"),
            );
        }
        if let Some(n) = f.discard_size {
            diff(
                format!("{name}.discard_size"),
                n.to_string(),
                discard.len().to_string(),
            );
        }
        if let Some(w) = f.wounds {
            diff(
                format!("{name}.wounds"),
                w.to_string(),
                fighter.wounds.to_string(),
            );
        }
    }
    for (name, want) in &e.prompts {
        let got =
            serde_json::to_value(ScaleOfStyles::prompt(state, seat_of(name))).expect("prompt json");
        if !subset(want, &got) {
            errors.push(format!("{name}'s prompt: expected {want} within {got}"));
        }
    }
    for (name, want) in &e.pools {
        let got =
            serde_json::to_value(ScaleOfStyles::pools(state, seat_of(name))).expect("pools json");
        if !subset(want, &got) {
            errors.push(format!("{name}'s pools: expected {want} within {got}"));
        }
    }
    let outcome = ScaleOfStyles::outcome(state).map(|o| serde_json::to_value(o).expect("json"));
    if e.winner.is_some() || e.reason.is_some() || !e.standings.is_empty() {
        match &outcome {
            None => errors.push("expected the match to be over".into()),
            Some(o) => {
                if let Some(w) = &e.winner {
                    let got = match o["winners"].as_array().map(Vec::as_slice) {
                        Some([id]) => NAMES[state
                            .fighters
                            .iter()
                            .position(|f| f.who.id.to_string() == id.as_str().unwrap_or(""))
                            .unwrap_or(0)]
                        .to_owned(),
                        _ => "draw".to_owned(),
                    };
                    if *w != got {
                        errors.push(format!("winner: expected {w}, got {got}"));
                    }
                }
                if let Some(r) = &e.reason
                    && o["reason"] != r.as_str()
                {
                    errors.push(format!("reason: expected {r}, got {}", o["reason"]));
                }
                for (name, want) in &e.standings {
                    let standing = o["standings"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .find(|s| s["name"] == name.as_str());
                    if !standing.is_some_and(|s| subset(want, s)) {
                        errors.push(format!("{name}'s standing: expected {want} within {o}"));
                    }
                }
            }
        }
    }
    for needle in &e.log {
        if !log.public.iter().any(|l| l.contains(needle.as_str())) {
            errors.push(format!("the log lacks {needle:?}"));
        }
    }
    for needle in &e.log_absent {
        if log.public.iter().any(|l| l.contains(needle.as_str())) {
            errors.push(format!("the public log shows {needle:?}"));
        }
    }
    for needle in &e.private_log {
        if !log.private.iter().any(|l| l.contains(needle.as_str())) {
            errors.push(format!("the private log lacks {needle:?}"));
        }
    }
    match errors.is_empty() {
        true => Ok(()),
        false => Err(format!(
            "{at}:\n    {}\n  log:\n    {}",
            errors.join("\n    "),
            log.public.join("\n    ")
        )),
    }
}

fn entrants(case: &Case) -> Result<Vec<Entrant<Join>>, String> {
    let joins = case.joins.clone().unwrap_or([
        Value::Object(Default::default()),
        Value::Object(Default::default()),
    ]);
    let settings = Default::default();
    let mut out = Vec::new();
    for (i, body) in joins.into_iter().enumerate() {
        let body: JoinBody = serde_json::from_value(body).map_err(|e| format!("bad join: {e}"))?;
        match (
            ScaleOfStyles::check_join(&settings, body),
            &case.join_refusal,
        ) {
            (Ok(join), None) => out.push(Entrant {
                id: PlayerId(uuid::Uuid::from_u128(i as u128 + 1)),
                name: NAMES[i].to_owned(),
                join,
            }),
            (Err(r), Some(code)) if r.code() == code => return Err(String::new()),
            (Err(r), _) => return Err(format!("join refused: {} ({r})", r.code())),
            (Ok(_), Some(code)) => return Err(format!("a join should be refused with {code}")),
        }
    }
    Ok(out)
}

fn follow(events: &[herald::rules::scale_of_styles::Event], log: &mut Log) {
    for e in events {
        match e.audience() {
            Audience::Everyone => log.public.push(e.to_string()),
            Audience::Only(_) => log.private.push(e.to_string()),
        }
    }
}

fn run_case(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let case: Case = serde_json::from_str(&text).map_err(|e| format!("bad case file: {e}"))?;
    assert!(!case.rulings.is_empty() && !case.description.is_empty());
    let mut raw = match &case.settings {
        Value::Null => Value::Object(Default::default()),
        v => v.clone(),
    };
    complete(&mut raw, case.rest);
    let parsed = ScaleOfStyles::parse_settings(raw).and_then(|s| {
        ScaleOfStyles::check_settings(&s)
            .map(|()| s)
            .map_err(SettingsError::Refused)
    });
    let settings = match (parsed, &case.settings_refusal) {
        (Err(SettingsError::Refused(r)), Some(code)) if r.code() == code => return Ok(()),
        (Err(SettingsError::Refused(r)), _) => {
            return Err(format!("settings refused: {} ({r})", r.code()));
        }
        (Err(SettingsError::Malformed(m)), _) => return Err(format!("malformed settings: {m}")),
        (Ok(_), Some(code)) => return Err(format!("settings should be refused with {code}")),
        (Ok(s), None) => s,
    };
    let entrants = match entrants(&case) {
        Ok(e) => e,
        Err(e) if e.is_empty() => return Ok(()),
        Err(e) => return Err(e),
    };
    let mut rng = GameRng::seed_from_u64(settings.seed.unwrap_or(7));
    let mut state = match (
        ScaleOfStyles::start(&settings, &entrants, &mut rng),
        &case.start_refusal,
    ) {
        (Err(r), Some(code)) if r.code() == code => return Ok(()),
        (Err(r), _) => return Err(format!("start refused: {} ({r})", r.code())),
        (Ok(_), Some(code)) => return Err(format!("the start should be refused with {code}")),
        (Ok(s), None) => s,
    };
    let mut log = Log {
        public: Vec::new(),
        private: Vec::new(),
    };
    follow(&state.carried_log, &mut log);
    if let Some(e) = &case.at_start {
        check(&state, e, &log, "at the start")?;
    }
    for (n, script) in case.steps.iter().enumerate() {
        let at = format!("step {} ({})", n + 1, script.step);
        let actual = ScaleOfStyles::step(&state);
        if actual != script.step {
            return Err(format!(
                "{at}: the duel is at step `{actual}`\n  log:\n    {}",
                log.public.join("\n    ")
            ));
        }
        for r in &script.refusals {
            let body: OrderBody = serde_json::from_value(r.body.clone())
                .map_err(|e| format!("{at}: bad refusal body: {e}"))?;
            match ScaleOfStyles::check_order(&state, seat_of(&r.player), body) {
                Ok(o) => {
                    return Err(format!(
                        "{at}: {} should be refused with {}, was accepted as {o:?}",
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
        let owes = ScaleOfStyles::owes(&state);
        for name in script.answers.keys() {
            if !owes.contains(&seat_of(name)) {
                return Err(format!("{at}: {name} answers but owes nothing"));
            }
        }
        let mut orders = Vec::new();
        for seat in owes {
            assert!(
                ScaleOfStyles::prompt(&state, seat).is_some(),
                "an owed seat has a prompt"
            );
            let order = match script.answers.get(NAMES[seat.0]) {
                Some(body) => {
                    let body: OrderBody = serde_json::from_value(body.clone())
                        .map_err(|e| format!("{at}: bad answer: {e}"))?;
                    ScaleOfStyles::check_order(&state, seat, body).map_err(|e| {
                        format!(
                            "{at}: {}'s answer refused: {} ({e})",
                            NAMES[seat.0],
                            e.code()
                        )
                    })?
                }
                None => ScaleOfStyles::default_order(&state, seat, &mut rng)
                    .ok_or_else(|| format!("{at}: no default for {}", NAMES[seat.0]))?,
            };
            orders.push((seat, order));
        }
        let res = ScaleOfStyles::resolve(&state, &orders, &mut rng);
        follow(&res.events, &mut log);
        state = res.state;
        if let Some(e) = &script.expect {
            check(&state, e, &log, &at)?;
        }
    }
    Ok(())
}

#[test]
fn every_scale_of_styles_case_file_plays_out_as_its_rulings_say() {
    let mut failures = Vec::new();
    for path in case_files() {
        if let Err(e) = run_case(&path) {
            failures.push(format!(
                "{}: {e}",
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
fn the_case_folder_holds_every_worked_case_of_section_6() {
    let texts: Vec<String> = case_files()
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
