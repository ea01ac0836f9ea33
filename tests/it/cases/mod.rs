//! One schema and one runner for the rule cases of every game: each `tests/cases/<game id>/*.json`
//! names the rulings it checks, starts a game through the `Game` trait from its settings and
//! joins, scripts each step's answers through `check_order` (and the refusals it expects),
//! resolves, and compares the state, the end and the log with numbers worked by hand from the
//! game's rulings (`docs/rules/<game>/`).
//!
//! A case file, in the one schema (unknown fields are refused everywhere):
//!
//! - `description`, `rulings` (never empty), `players` (the names; each gets a fixed id);
//! - `settings` (as a client sends them; `{}` when absent), `joins` (one join body per
//!   player; `{}` each when absent), `rest` (the game's word for where the cards or tokens a
//!   setup does not name go);
//! - `settings_refusal`, `join_refusal` or `start_refusal`: the code the game must refuse
//!   with at that point, which ends the case;
//! - `at_start`: expectations on the opening position;
//! - `steps`: each with an optional `step` name the game must be at, `refusals` (`player`,
//!   `body`, `code`) checked before anything resolves, `answers` by player name, `passes`
//!   (owed players who deliberately send nothing) and `timeouts` (owed players who let the
//!   deadline pass and get the game's default order); together they name exactly the owed
//!   players. Then the step resolves and its `expect` is checked;
//! - `expect`: expectations after the last step.
//!
//! An expectation holds the shared checks (`step`, `round`, `owes`, `finished`, `winners`,
//! `reason`, `standings`, `prompts`, `pools`, this step's `events` / `no_events` / `lines`,
//! the public `log` / `log_absent` and the `private_log` since the start), `players` (each
//! player's expected state, in the game's own terms) and the game's own state checks beside
//! them. What truly differs between games is behind [`CaseGame`].

mod bst;
mod contests;
mod crossing_swords;
mod scale_of_styles;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use herald::rules::{
    Audience, Entrant, Event, Game, GameRng, PlayerId, Refusal, Resolution, Seat, SettingsError,
};
use rand::SeedableRng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use uuid::Uuid;

/// What a case file leaves to its game: how a setup is completed, how a player's and the
/// table's state are checked, and how a body names players.
pub trait CaseGame: Game {
    /// Where the cards or tokens a setup does not name go (the case's `rest`).
    type Rest: DeserializeOwned;
    /// What completing the setup added, for the expectations that look past it.
    type Filler;
    /// One player's expected state (`"players": {"A": {...}}`).
    type PlayerExpect: DeserializeOwned;
    /// The game's own expectations, written beside the shared ones.
    type StateExpect: DeserializeOwned;

    /// Completes the settings' setup to a whole pack or pool (a case names only the cards
    /// or tokens that matter).
    fn complete(settings: &mut Value, rest: Option<&Self::Rest>) -> Self::Filler;

    /// An order or refusal body as the game reads it; a case may name players where the
    /// game wants ids.
    fn order_body(body: Value, people: &People) -> Value {
        let _ = people;
        body
    }

    /// Pushes one error per field of `want` that the player at `seat` does not have.
    fn check_player(
        state: &Self::State,
        seat: Seat,
        want: &Self::PlayerExpect,
        people: &People,
        errors: &mut Vec<String>,
    );

    /// Pushes one error per game-specific expectation the state does not meet.
    fn check_state(
        state: &Self::State,
        want: &Self::StateExpect,
        filler: &Self::Filler,
        people: &People,
        errors: &mut Vec<String>,
    );
}

/// The case folder (the rules id) of every game the runner plays: each has its `CaseGame`
/// impl and its test in the module of the same name.
pub const GAMES: [&str; 4] = [
    <herald::rules::crossing_swords::CrossingSwords as Game>::ID,
    <herald::rules::contests::Contests as Game>::ID,
    <herald::rules::bst::Bst as Game>::ID,
    <herald::rules::scale_of_styles::ScaleOfStyles as Game>::ID,
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct Case<G: CaseGame> {
    pub description: String,
    pub rulings: Vec<String>,
    pub players: Vec<String>,
    #[serde(default)]
    settings: Option<Value>,
    #[serde(default)]
    joins: Option<Vec<Value>>,
    #[serde(default)]
    rest: Option<G::Rest>,
    #[serde(default)]
    settings_refusal: Option<String>,
    #[serde(default)]
    join_refusal: Option<String>,
    #[serde(default)]
    start_refusal: Option<String>,
    #[serde(default)]
    at_start: Option<Expect<G>>,
    #[serde(default)]
    steps: Vec<Step<G>>,
    #[serde(default)]
    expect: Option<Expect<G>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
struct Step<G: CaseGame> {
    #[serde(default)]
    step: Option<String>,
    #[serde(default)]
    refusals: Vec<Refused>,
    #[serde(default)]
    answers: BTreeMap<String, Value>,
    #[serde(default)]
    passes: Vec<String>,
    #[serde(default)]
    timeouts: Vec<String>,
    #[serde(default)]
    expect: Option<Expect<G>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Refused {
    player: String,
    body: Value,
    code: String,
}

/// The shared expectations; every field is optional. `deny_unknown_fields` cannot sit beside
/// `flatten`, so the game's own part ([`GameExpect`]) refuses whatever neither knows.
#[derive(Deserialize)]
#[serde(bound = "")]
struct Expect<G: CaseGame> {
    #[serde(default)]
    step: Option<String>,
    #[serde(default)]
    round: Option<u32>,
    #[serde(default)]
    owes: Option<Vec<String>>,
    /// The game is over (and then nobody owes anything), or not.
    #[serde(default)]
    finished: Option<bool>,
    #[serde(default = "BTreeMap::new")]
    players: BTreeMap<String, G::PlayerExpect>,
    /// The winners by name (`[]`: a draw).
    #[serde(default)]
    winners: Option<Vec<String>>,
    #[serde(default)]
    reason: Option<String>,
    /// Subsets of each named player's standing in the outcome.
    #[serde(default)]
    standings: BTreeMap<String, Value>,
    /// Subsets of each named player's prompt.
    #[serde(default)]
    prompts: BTreeMap<String, Value>,
    /// Subsets of each named player's public pools.
    #[serde(default)]
    pools: BTreeMap<String, Value>,
    /// Patterns one of this step's events must match (see [`matches`]).
    #[serde(default)]
    events: Vec<Value>,
    /// Patterns none of this step's events may match.
    #[serde(default)]
    no_events: Vec<Value>,
    /// Whole log lines this step must have written (for anyone's eyes).
    #[serde(default)]
    lines: Vec<String>,
    /// Substrings of public log lines since the start.
    #[serde(default)]
    log: Vec<String>,
    #[serde(default)]
    log_absent: Vec<String>,
    /// Substrings of lines for one player's eyes only, since the start.
    #[serde(default)]
    private_log: Vec<String>,
    #[serde(flatten)]
    game: GameExpect<G>,
}

/// The game's own expectations: every key the shared ones do not take, read strictly.
struct GameExpect<G: CaseGame>(G::StateExpect);

impl<'de, G: CaseGame> Deserialize<'de> for GameExpect<G> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let rest = Map::<String, Value>::deserialize(d)?;
        serde_json::from_value(Value::Object(rest))
            .map(GameExpect)
            .map_err(serde::de::Error::custom)
    }
}

/// The players of a case: names in seat order, each with a fixed id.
pub struct People {
    names: Vec<String>,
}

impl People {
    /// A fixed player id per name, so case files can name players.
    pub fn id(name: &str) -> PlayerId {
        let mut bytes = [0u8; 16];
        bytes[0] = 0xC5;
        for (i, b) in name.bytes().take(15).enumerate() {
            bytes[i + 1] = b;
        }
        PlayerId(Uuid::from_bytes(bytes))
    }

    pub fn seat(&self, name: &str) -> Option<Seat> {
        self.names.iter().position(|n| n == name).map(Seat)
    }

    pub fn name(&self, seat: Seat) -> &str {
        &self.names[seat.0]
    }

    /// The name of the player with `id` (null for none; the id itself if nobody has it).
    pub fn name_of(&self, id: Option<PlayerId>) -> Value {
        match id {
            None => Value::Null,
            Some(id) => self
                .names
                .iter()
                .find(|n| Self::id(n) == id)
                .map_or(Value::String(id.to_string()), |n| Value::String(n.clone())),
        }
    }
}

/// Pushes "what: expected want, got got" when they differ.
pub fn diff(errors: &mut Vec<String>, what: &str, want: String, got: String) {
    if want != got {
        errors.push(format!("{what}: expected {want}, got {got}"));
    }
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

/// True when every field of `want` is in `got` with the same value (recursively for objects;
/// anything else, arrays included, must be equal).
pub fn subset(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => w
            .iter()
            .all(|(k, v)| g.get(k).is_some_and(|gv| subset(v, gv))),
        _ => want == got,
    }
}

/// The case files of one game's folder, sorted.
pub fn case_files(game: &str) -> Vec<PathBuf> {
    let dir = cases_dir().join(game);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

/// Reads one case file in the one schema.
pub fn load<G: CaseGame>(path: &Path) -> Result<Case<G>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| format!("unreadable case: {e}"))
}

/// Runs every case of game `G`; one message per failing case.
fn run_all<G: CaseGame>() -> Vec<String> {
    case_files(G::ID)
        .iter()
        .filter_map(|path| {
            let file = path.file_name().unwrap_or_default().to_string_lossy();
            let errors = run_case::<G>(path);
            (!errors.is_empty()).then(|| format!("{file}: {}", errors.join("\n  ")))
        })
        .collect()
}

/// Asserts that every case of `G` holds.
pub fn assert_every_case_holds<G: CaseGame>() {
    let failures = run_all::<G>();
    assert!(
        failures.is_empty(),
        "{} {} case(s) failed:\n\n{}",
        failures.len(),
        G::ID,
        failures.join("\n\n")
    );
}

/// What a stage of the opening (settings, join, start) does with a refusal the case may expect.
enum Opening<T> {
    Go(T),
    /// The refusal the case expects came: the case holds and ends here.
    RefusedAsExpected,
    Failed(String),
}

fn opening<T, R: Refusal>(stage: &str, got: Result<T, R>, want: &Option<String>) -> Opening<T> {
    match (got, want) {
        (Ok(t), None) => Opening::Go(t),
        (Err(r), Some(code)) if r.code() == code => Opening::RefusedAsExpected,
        (Err(r), Some(code)) => Opening::Failed(format!(
            "{stage} refused with {} ({r}), expected {code}",
            r.code()
        )),
        (Err(r), None) => Opening::Failed(format!("{stage} refused: {} ({r})", r.code())),
        (Ok(_), Some(code)) => {
            Opening::Failed(format!("{stage} accepted, expected refusal {code}"))
        }
    }
}

macro_rules! open {
    ($stage:expr, $got:expr, $want:expr) => {
        match opening($stage, $got, $want) {
            Opening::Go(t) => t,
            Opening::RefusedAsExpected => return Vec::new(),
            Opening::Failed(e) => return vec![e],
        }
    };
}

/// One event as a case sees it: its structured entry, its line and who may read it.
struct Logged {
    entry: Value,
    line: String,
    audience: Audience,
}

/// The log so far, public and private, and the events of the step just resolved.
#[derive(Default)]
struct Log {
    public: Vec<String>,
    private: Vec<String>,
    step: Vec<Logged>,
}

impl Log {
    fn follow<E: Event>(&mut self, events: &[E]) {
        self.step = events
            .iter()
            .map(|e| Logged {
                entry: serde_json::to_value(e).expect("an event serializes"),
                line: e.to_string(),
                audience: e.audience(),
            })
            .collect();
        for e in &self.step {
            match e.audience {
                Audience::Everyone => self.public.push(e.line.clone()),
                Audience::Only(_) => self.private.push(e.line.clone()),
            }
        }
    }
}

fn run_case<G: CaseGame>(path: &Path) -> Vec<String> {
    let case = match load::<G>(path) {
        Ok(c) => c,
        Err(e) => return vec![e],
    };
    let head = format!("[{}] ({})", case.rulings.join(", "), case.description);
    let mut errors = play(&case);
    if case.rulings.is_empty() || case.description.is_empty() {
        errors.push("a case names its rulings and says what it shows".into());
    }
    if !errors.is_empty() {
        errors.insert(0, head);
    }
    errors
}

/// Opens the game as the case says and plays its steps; the errors found.
fn play<G: CaseGame>(case: &Case<G>) -> Vec<String> {
    let people = People {
        names: case.players.clone(),
    };
    let mut raw = case.settings.clone().unwrap_or(Value::Object(Map::new()));
    let filler = G::complete(&mut raw, case.rest.as_ref());
    // Settings are read as the host reads a client's: unknown keys and variant values the
    // rulings do not list are refusals, like a failed check.
    let settings = match G::parse_settings(raw) {
        Ok(s) => G::check_settings(&s).map(|()| s),
        Err(SettingsError::Refused(r)) => Err(r),
        Err(SettingsError::Malformed(e)) => return vec![format!("malformed settings: {e}")],
    };
    let settings = open!("settings", settings, &case.settings_refusal);
    let bodies = match join_bodies::<G>(case) {
        Ok(b) => b,
        Err(e) => return vec![e],
    };
    let joins: Result<Vec<G::Join>, G::Refusal> = bodies
        .into_iter()
        .map(|b| G::check_join(&settings, b))
        .collect();
    let joins = open!("join", joins, &case.join_refusal);
    let entrants: Vec<Entrant<G::Join>> = case
        .players
        .iter()
        .zip(joins)
        .map(|(name, join)| Entrant {
            id: People::id(name),
            name: name.clone(),
            join,
        })
        .collect();
    let mut rng = GameRng::seed_from_u64(G::seed(&settings).unwrap_or(7));
    let mut state = open!(
        "start",
        G::start(&settings, &entrants, &mut rng),
        &case.start_refusal
    );
    let mut log = Log::default();
    // As the host does, the steps nobody is asked about are played at once: a case sees
    // them as part of the start, or of the step they follow.
    let unasked = play_unasked::<G>(state, &mut rng);
    log.follow(&unasked.events);
    state = unasked.state;
    let mut errors = Vec::new();
    if let Some(e) = &case.at_start {
        check(
            &state,
            e,
            &filler,
            &people,
            &log,
            "at the start",
            &mut errors,
        );
    }
    for (n, script) in case.steps.iter().enumerate() {
        let at = match &script.step {
            Some(step) => format!("step {} ({step})", n + 1),
            None => format!("step {}", n + 1),
        };
        match play_step(&state, script, &people, &mut rng, &at) {
            Ok(resolution) => {
                let mut events = resolution.events;
                let unasked = play_unasked::<G>(resolution.state, &mut rng);
                events.extend(unasked.events);
                log.follow(&events);
                state = unasked.state;
            }
            Err(mut fatal) => {
                errors.append(&mut fatal);
                errors.push(format!(
                    "the public log:\n    {}",
                    log.public.join("\n    ")
                ));
                return errors;
            }
        }
        if let Some(e) = &script.expect {
            check(&state, e, &filler, &people, &log, &at, &mut errors);
        }
    }
    if let Some(e) = &case.expect {
        check(&state, e, &filler, &people, &log, "at the end", &mut errors);
    }
    if !errors.is_empty() {
        errors.push(format!(
            "the public log:\n    {}",
            log.public.join("\n    ")
        ));
    }
    errors
}

/// What the steps the rules play with nobody asked ([`Game::unasked`]) do from `state` on:
/// the state that asks somebody (or is over), and their events.
struct Unasked<G: Game> {
    state: G::State,
    events: Vec<G::Event>,
}

fn play_unasked<G: Game>(mut state: G::State, rng: &mut GameRng) -> Unasked<G> {
    let mut events = Vec::new();
    while G::unasked(&state) {
        let resolution = G::resolve(&state, &[], rng);
        events.extend(resolution.events);
        state = resolution.state;
    }
    Unasked { state, events }
}

/// Each player's join body (`{}` when the case gives none), read as the game reads a join
/// request.
fn join_bodies<G: CaseGame>(case: &Case<G>) -> Result<Vec<G::JoinBody>, String> {
    let joins = match &case.joins {
        Some(j) if j.len() != case.players.len() => {
            return Err(format!(
                "{} joins for {} players",
                j.len(),
                case.players.len()
            ));
        }
        Some(j) => j.clone(),
        None => vec![Value::Object(Map::new()); case.players.len()],
    };
    case.players
        .iter()
        .zip(joins)
        .map(|(name, body)| {
            serde_json::from_value(body).map_err(|e| format!("{name}'s join does not read: {e}"))
        })
        .collect()
}

/// Checks a step's refusals, gathers its orders and resolves it; an error here stops the case.
fn play_step<G: CaseGame>(
    state: &G::State,
    script: &Step<G>,
    people: &People,
    rng: &mut GameRng,
    at: &str,
) -> Result<Resolution<G>, Vec<String>> {
    let mut errors = Vec::new();
    if let Some(step) = &script.step {
        let actual = G::step(state);
        if actual != step {
            return Err(vec![format!("{at}: the game is at step `{actual}`")]);
        }
    }
    for r in &script.refusals {
        let Some(seat) = people.seat(&r.player) else {
            errors.push(format!("{at}: a refusal names unknown player {}", r.player));
            continue;
        };
        let body: G::OrderBody = serde_json::from_value(G::order_body(r.body.clone(), people))
            .map_err(|e| vec![format!("{at}: bad refusal body {}: {e}", r.body)])?;
        match G::check_order(state, seat, body) {
            Ok(o) => errors.push(format!(
                "{at}: {}'s {} accepted as {o:?}, expected refusal {}",
                r.player, r.body, r.code
            )),
            Err(e) if e.code() == r.code => {}
            Err(e) => errors.push(format!(
                "{at}: {}'s {} refused with {} ({e}), expected {}",
                r.player,
                r.body,
                e.code(),
                r.code
            )),
        }
    }
    let owes = G::owes(state);
    let named = script
        .answers
        .keys()
        .chain(&script.passes)
        .chain(&script.timeouts);
    for name in named {
        match people.seat(name) {
            None => errors.push(format!("{at}: unknown player {name}")),
            Some(seat) if !owes.contains(&seat) => {
                errors.push(format!("{at}: {name} is given an answer but owes nothing"))
            }
            Some(_) => {}
        }
    }
    let mut orders = Vec::new();
    for seat in owes {
        let name = people.name(seat);
        if G::prompt(state, seat).is_none() {
            errors.push(format!("{at}: {name} owes an answer but has no prompt"));
        }
        if let Some(body) = script.answers.get(name) {
            let body: G::OrderBody = serde_json::from_value(G::order_body(body.clone(), people))
                .map_err(|e| vec![format!("{at}: {name}'s answer does not read: {e}")])?;
            match G::check_order(state, seat, body) {
                Ok(order) => orders.push((seat, order)),
                Err(e) => errors.push(format!("{at}: {name}'s answer refused: {} ({e})", e.code())),
            }
        } else if script.timeouts.iter().any(|t| t == name) {
            match G::default_order(state, seat, rng) {
                Some(order) => orders.push((seat, order)),
                None => errors.push(format!("{at}: no default order for {name}")),
            }
        } else if !script.passes.iter().any(|p| p == name) {
            errors.push(format!(
                "{at}: {name} owes an answer but the case gives none"
            ));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(G::resolve(state, &orders, rng))
}

fn names(people: &People, seats: &[Seat]) -> Vec<String> {
    seats.iter().map(|s| people.name(*s).to_owned()).collect()
}

/// Pushes one error (prefixed with `at`) per expectation of `e` the state or log does not meet.
fn check<G: CaseGame>(
    state: &G::State,
    e: &Expect<G>,
    filler: &G::Filler,
    people: &People,
    log: &Log,
    at: &str,
    errors: &mut Vec<String>,
) {
    let mut found = Vec::new();
    if let Some(step) = &e.step {
        diff(&mut found, "step", step.clone(), G::step(state).into());
    }
    if let Some(round) = e.round {
        diff(
            &mut found,
            "round",
            round.to_string(),
            G::round(state).to_string(),
        );
    }
    let owes = names(people, &G::owes(state));
    if let Some(want) = &e.owes {
        diff(&mut found, "owes", format!("{want:?}"), format!("{owes:?}"));
    }
    let outcome = G::outcome(state).map(|o| serde_json::to_value(o).expect("an outcome json"));
    if let Some(finished) = e.finished {
        diff(
            &mut found,
            "finished",
            finished.to_string(),
            outcome.is_some().to_string(),
        );
        if finished != owes.is_empty() {
            found.push(format!(
                "owes() ({owes:?}) disagrees with finished = {finished}"
            ));
        }
    }
    for (name, want) in &e.players {
        match people.seat(name) {
            Some(seat) => G::check_player(state, seat, want, people, &mut found),
            None => found.push(format!("unknown player {name}")),
        }
    }
    G::check_state(state, &e.game.0, filler, people, &mut found);
    // Each view a case may expect subsets of: its name, the subsets by player, the view.
    type View<'e, S> = (&'e str, &'e BTreeMap<String, Value>, fn(&S, Seat) -> Value);
    let views: [View<G::State>; 2] = [
        ("prompt", &e.prompts, |s, seat| {
            serde_json::to_value(G::prompt(s, seat)).expect("a prompt serializes")
        }),
        ("pools", &e.pools, |s, seat| {
            serde_json::to_value(G::pools(s, seat)).expect("pools serialize")
        }),
    ];
    for (what, wanted, view) in views {
        for (name, want) in wanted {
            match people.seat(name) {
                Some(seat) if subset(want, &view(state, seat)) => {}
                Some(seat) => found.push(format!(
                    "{name}'s {what}: expected {want} within {}",
                    view(state, seat)
                )),
                None => found.push(format!("unknown player {name}")),
            }
        }
    }
    check_outcome(outcome.as_ref(), e, people, &mut found);
    check_log(e, log, &mut found);
    errors.extend(found.into_iter().map(|f| format!("{at}: {f}")));
}

fn check_outcome<G: CaseGame>(
    outcome: Option<&Value>,
    e: &Expect<G>,
    people: &People,
    found: &mut Vec<String>,
) {
    if e.winners.is_none() && e.reason.is_none() && e.standings.is_empty() {
        return;
    }
    let Some(o) = outcome else {
        found.push("expected the game to be over".into());
        return;
    };
    if let Some(winners) = &e.winners {
        let got: Vec<Value> = o["winners"]
            .as_array()
            .map(|w| {
                w.iter()
                    .map(|id| people.name_of(serde_json::from_value(id.clone()).ok()))
                    .collect()
            })
            .unwrap_or_default();
        let want: Vec<Value> = winners.iter().map(|w| Value::String(w.clone())).collect();
        diff(found, "winners", format!("{want:?}"), format!("{got:?}"));
    }
    if let Some(reason) = &e.reason
        && o["reason"] != reason.as_str()
    {
        found.push(format!("reason: expected {reason}, got {}", o["reason"]));
    }
    for (name, want) in &e.standings {
        let standing = o["standings"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|s| s["name"] == name.as_str());
        if !standing.is_some_and(|s| subset(want, s)) {
            found.push(format!("{name}'s standing: expected {want} within {o}"));
        }
    }
}

fn check_log<G: CaseGame>(e: &Expect<G>, log: &Log, found: &mut Vec<String>) {
    let step_lines = || log.step.iter().map(|l| l.line.as_str()).collect::<Vec<_>>();
    for want in &e.events {
        if !log.step.iter().any(|l| matches(want, &l.entry)) {
            found.push(format!(
                "no event matches {want}; the step's log was {:#?}",
                step_lines()
            ));
        }
    }
    for unwanted in &e.no_events {
        if let Some(l) = log.step.iter().find(|l| matches(unwanted, &l.entry)) {
            found.push(format!("unexpected event matching {unwanted}: {}", l.line));
        }
    }
    for line in &e.lines {
        if !log.step.iter().any(|l| &l.line == line) {
            found.push(format!(
                "no log line {line:?}; the step's log was {:#?}",
                step_lines()
            ));
        }
    }
    for needle in &e.log {
        if !log.public.iter().any(|l| l.contains(needle.as_str())) {
            found.push(format!("the log lacks {needle:?}"));
        }
    }
    for needle in &e.log_absent {
        if log.public.iter().any(|l| l.contains(needle.as_str())) {
            found.push(format!("the public log shows {needle:?}"));
        }
    }
    for needle in &e.private_log {
        if !log.private.iter().any(|l| l.contains(needle.as_str())) {
            found.push(format!("the private log lacks {needle:?}"));
        }
    }
}

#[test]
fn every_case_folder_is_a_game_the_runner_plays_and_holds_only_case_files() {
    let known = GAMES;
    for kind in herald::games::GameKind::ALL {
        let id = serde_json::to_value(kind).expect("a game id");
        assert!(
            known.iter().any(|k| id == *k),
            "no case runner for the registered game {id}"
        );
    }
    for entry in std::fs::read_dir(cases_dir()).expect("tests/cases exists") {
        let path = entry.expect("readable entry").path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        assert!(
            path.is_dir() && known.contains(&name.as_ref()),
            "tests/cases/{name} is not the case folder of a game the runner plays"
        );
        for file in std::fs::read_dir(&path).expect("a readable folder") {
            let file = file.expect("readable entry").path();
            assert!(
                file.is_file() && file.extension().is_some_and(|x| x == "json"),
                "{} would not be run: a case file is a .json file in its game's folder",
                file.display()
            );
        }
    }
}

#[test]
fn a_broken_expectation_fails_its_case() {
    // The runner must not pass a case whatever it says: the first Crossing Swords case with an
    // HP expectation, with that HP changed, has to fail.
    use herald::rules::crossing_swords::CrossingSwords;
    let path = case_files(CrossingSwords::ID)
        .into_iter()
        .find(|p| {
            std::fs::read_to_string(p)
                .is_ok_and(|t| t.contains("\"hp\"") && t.contains("\"steps\""))
        })
        .expect("a case with an HP expectation");
    let mut case: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).expect("json");
    let hp = case["steps"]
        .as_array_mut()
        .into_iter()
        .flatten()
        .filter_map(|s| s.pointer_mut("/expect/players"))
        .flat_map(|p| p.as_object_mut().into_iter().flat_map(|m| m.values_mut()))
        .find_map(|p| p.get_mut("hp"))
        .expect("an hp");
    *hp = Value::from(hp.as_u64().unwrap_or(0) + 1);
    let broken =
        std::env::temp_dir().join(format!("herald-broken-case-{}.json", std::process::id()));
    std::fs::write(&broken, case.to_string()).unwrap();
    let errors = run_case::<CrossingSwords>(&broken);
    std::fs::remove_file(&broken).ok();
    assert!(
        errors.iter().any(|e| e.contains("hp: expected")),
        "a changed HP went unnoticed: {errors:?}"
    );
}

#[test]
fn an_unknown_field_in_a_case_is_an_error() {
    use herald::rules::bst::Bst;
    let read = |v: &Value| serde_json::from_value::<Case<Bst>>(v.clone());
    let case: Value = case_files(Bst::ID)
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).expect("json"))
        .find(|c: &Value| c.pointer("/steps/0/expect/players/A").is_some())
        .expect("a BST case expecting A's state after its first step");
    assert!(read(&case).is_ok(), "the case as it is reads");
    for at in [
        "",
        "/steps/0",
        "/steps/0/expect",
        "/steps/0/expect/players/A",
    ] {
        let mut wrong = case.clone();
        wrong
            .pointer_mut(at)
            .and_then(Value::as_object_mut)
            .expect("an object there")
            .insert("no_such_field".into(), Value::Bool(true));
        let error = read(&wrong).err().map(|e| e.to_string());
        assert!(
            error.as_ref().is_some_and(|e| e.contains("no_such_field")),
            "an unknown field at {at:?} was read ({error:?})"
        );
    }
}
