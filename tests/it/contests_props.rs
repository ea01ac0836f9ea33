//! Contests invariants (rulings §3.10) over many random duels with random variants of §5.1,
//! random builds (monsters too), random answers built from the prompts, timeouts, and an
//! illegal order tried at about one step in twelve: HP within 0 and the maximum and changed
//! only by Mend, damage, Berserk's price and a failed flight; energy never rising; every
//! combatant's 17 cards conserved, the hand within `hand_limit` and no card on the table
//! between phases; phase modifiers only inside a phase; at most `max_ties` tie-breaks; the
//! duel within `max_phases` phases and §3.6's step bound; exactly one result, consistent with
//! the HP; every (round, contest) opened once; and a replay from the same seed and orders
//! identical bit for bit.

use herald::rules::contests::events::Event as CEvent;
use herald::rules::contests::ids::Ability;
use herald::rules::contests::state::Lasts;
use herald::rules::contests::{Build, Card, Contests, EndReason, State, Step};
use herald::rules::{Entrant, Game, GameRng, PlayerId, Seat};
use std::collections::HashSet;

use proptest::prelude::*;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

fn random_settings(rng: &mut GameRng, seed: u64) -> Value {
    let opening = rng.random_range(0..=17);
    json!({
        "seed": seed,
        "hp": rng.random_range(1..=20),
        "energy": rng.random_range(0..=20),
        "points": rng.random_range(3..=18),
        "max_abilities": rng.random_range(0..=5),
        "base_guesses": rng.random_range(0..=3),
        "max_ties": rng.random_range(1..=10),
        "max_phases": rng.random_range(1..=200),
        "opening_hand": opening,
        "hand_limit": rng.random_range(opening.max(1)..=17),
        "escape_result": *["draw", "loss"].choose(rng).expect("two"),
        "cap_result": *["hp", "draw"].choose(rng).expect("two"),
        "initiator": *["p1", "p2"].choose(rng).expect("two"),
    })
}

/// A random build the rules accept (§2.1), found by trying.
fn random_build(rng: &mut GameRng, settings: &herald::rules::contests::Settings) -> Build {
    let points = settings.rules.points as i64;
    loop {
        let might = rng.random_range(1..=6);
        let skill = rng.random_range(1..=6);
        let mind = points - might - skill;
        if !(1..=6).contains(&mind) {
            continue;
        }
        let mut abilities: Vec<&str> = Ability::ALL.iter().map(|a| a.id()).collect();
        abilities.shuffle(rng);
        let n = rng.random_range(0..=settings.rules.max_abilities as usize);
        let body = json!({"build": {"might": might, "skill": skill, "mind": mind,
            "abilities": &abilities[..n], "monster": rng.random_bool(0.1)}});
        if let Ok(build) =
            Contests::check_join(settings, serde_json::from_value(body).expect("a join"))
        {
            return build;
        }
    }
}

fn action_body(a: &Value, rng: &mut GameRng) -> Value {
    let phases = ["magic", "archery", "melee"];
    match a["action"].as_str().unwrap_or("") {
        "charge" => json!({"card": "charge"}),
        "caught-with-pants-down" => json!({"card": "caught-with-pants-down"}),
        "shoelace" => json!({"card": "your-shoelace-is-untied", "phase": phases.choose(rng)}),
        "no-way" => json!({"card": "no-way"}),
        "dis-arm" => json!({"card": "dis-arm"}),
        "now-you-see-me" => json!({"card": "now-you-see-me"}),
        "run-like-hell" => json!({"ability": "run-like-hell"}),
        "point-blank-shot" => json!({"ability": "point-blank-shot"}),
        "teleport-to-magic" => json!({"ability": "tricky-teleport", "to": "magic"}),
        "teleport-away" => json!({"ability": "tricky-teleport", "to": "escape"}),
        "backstab" => {
            json!({"ability": "backstab", "discard": a["discard"], "phase": phases.choose(rng)})
        }
        other => panic!("unknown action {other}"),
    }
}

fn dice_body(p: &Value, rng: &mut GameRng) -> Value {
    let mut faces = [1, 2, 3, 4, 5, 6];
    faces.shuffle(rng);
    let g = p["guesses"].as_u64().unwrap_or(0) as usize;
    let n = rng.random_range(0..=g);
    let mut body =
        json!({"contest": p["contest"], "die": rng.random_range(1..=6), "guesses": &faces[..n]});
    if let Some(t) = p.get("tie") {
        body["tie"] = t.clone();
    }
    body
}

/// A random legal answer built from the prompt alone, as a bot would.
fn answer(state: &State, seat: Seat, rng: &mut GameRng) -> Value {
    let p = serde_json::to_value(Contests::prompt(state, seat)).expect("prompt json");
    let hand: Vec<Value> = p["hand"].as_array().cloned().unwrap_or_default();
    match state.step {
        Step::Opening | Step::Next => {
            let actions = p["actions"].as_array().cloned().unwrap_or_default();
            let action = match (actions.choose(rng), rng.random_bool(0.4)) {
                (Some(a), true) => action_body(a, rng),
                _ => Value::Null,
            };
            match p["wishes"].as_array().and_then(|w| w.choose(rng)) {
                Some(w) => json!({"wish": w, "action": action}),
                None => json!({"action": action}),
            }
        }
        Step::Declare => {
            let o = &p["options"];
            match p["phase"].as_str() {
                Some("magic") => {
                    let spell = ["none", "fire-bolt", "frost-bolt", "mend"]
                        .choose(rng)
                        .copied();
                    json!({ "spell": spell })
                }
                Some("archery") => json!({
                    "rapid_shot": o["rapid_shot"] == true && rng.random_bool(0.5),
                    "lucky_punk": o["lucky_punk"] == true && rng.random_bool(0.5)}),
                _ => {
                    let max = o["fury_max"].as_u64().unwrap_or(0);
                    let fury = rng.random_range(0..=max);
                    let left = max - fury;
                    json!({"berserk": o["berserk"] == true && rng.random_bool(0.5),
                           "fury": fury,
                           "art_of_killing": o["art_of_killing"] == true && left >= 2 && rng.random_bool(0.5)})
                }
            }
        }
        Step::Set => {
            let mut body = dice_body(&p, rng);
            if rng.random_bool(0.4)
                && let Some(c) = hand.choose(rng)
            {
                body["down"] = c.clone();
            }
            body["face_up"] = json!(rng.random_bool(0.5));
            body
        }
        Step::Tie => dice_body(&p, rng),
        Step::FaceUp => {
            let mut cards = hand.clone();
            cards.shuffle(rng);
            let n = rng.random_range(0..=cards.len().min(2));
            json!({"contest": p["contest"], "cards": &cards[..n]})
        }
        Step::Discard => {
            let mut cards = hand.clone();
            cards.shuffle(rng);
            json!({"contest": p["contest"], "cards": &cards[..2]})
        }
        Step::Over => panic!("nobody owes at the end"),
    }
}

/// An order the step does not allow.
fn illegal(state: &State, rng: &mut GameRng) -> Value {
    let contest = state.contest.as_ref().map_or(0, |c| c.number);
    match state.step {
        Step::Set | Step::Tie => [
            json!({"contest": contest, "die": 7}),
            json!({"contest": contest, "die": 0}),
            json!({"contest": contest, "die": 3, "guesses": [1, 2, 3, 4, 5, 6]}),
            json!({"contest": contest + 1, "die": 3}),
        ]
        .choose(rng)
        .expect("four")
        .clone(),
        Step::Next => json!({"wish": "fly"}),
        Step::Opening => json!({"wish": "stay"}),
        Step::Declare => json!({"fury": -1}),
        Step::FaceUp | Step::Discard => json!({"contest": contest, "cards": ["spank"]}),
        Step::Over => json!({}),
    }
}

/// Records each contest the step's events open under its round (§3.1: a round's contests are
/// numbered 1, 2, ...; a phase's `PhaseBegan` and a window's `RoundBegan` say which round the
/// contests that follow belong to), and fails on one opened twice (§3.10, "Contests").
fn record_contests(opened: &mut HashSet<(u32, u32)>, before: &State, events: &[CEvent]) {
    let mut round = before.round;
    for e in events {
        match e {
            CEvent::RoundBegan { round: r } | CEvent::PhaseBegan { round: r, .. } => round = *r,
            CEvent::ContestOpened { contest, .. } => {
                assert!(
                    opened.insert((round, *contest)),
                    "round {round}, contest {contest} opened twice"
                );
            }
            _ => {}
        }
    }
}

fn check_invariants(s: &State, before: &State, events: &[CEvent]) {
    for seat in [Seat(0), Seat(1)] {
        let f = &s.fighters[seat.0];
        let b = &before.fighters[seat.0];
        assert!(f.hp <= f.max_hp, "HP above the maximum");
        assert_eq!(f.max_hp, b.max_hp, "the maximum never changes");
        assert!(f.energy <= b.energy, "energy never rises");
        assert_eq!(f.all_cards(), Card::deck(), "the 17 cards are conserved");
        assert!(
            f.hand.len() <= s.rules.hand_limit as usize,
            "hand within the limit"
        );
        if matches!(
            s.step,
            Step::Opening | Step::Next | Step::Declare | Step::Over
        ) {
            assert!(
                f.table.is_empty(),
                "no card on the table between phases ({:?})",
                s.step
            );
        }
        if s.phase.is_none() {
            assert!(
                f.mods.iter().all(|m| m.lasts == Lasts::Combat),
                "a phase modifier outside its phase"
            );
        }
        // HP changes only by Mend, damage, Berserk's price and a failed flight.
        let mut expected = b.hp as i64;
        for e in events {
            match e {
                CEvent::Healed { player, healed, .. } if player.id == f.who.id => {
                    expected += *healed as i64
                }
                CEvent::Hit { target, damage, .. } if target.id == f.who.id => {
                    expected -= *damage as i64
                }
                CEvent::Declared {
                    player, hp_paid, ..
                } if player.id == f.who.id => expected -= *hp_paid as i64,
                CEvent::FlightFailed { player, .. } if player.id == f.who.id => expected -= 1,
                _ => {}
            }
        }
        assert_eq!(f.hp as i64, expected, "HP changed only as the rules say");
    }
    if let Some(c) = &s.contest
        && let herald::rules::contests::state::ContestStage::Tie(t) = c.stage
    {
        assert!(t <= s.rules.max_ties, "at most max_ties tie-breaks");
    }
    assert!(s.phases <= s.rules.max_phases, "at most max_phases phases");
    assert_eq!(
        Contests::owes(s).is_empty(),
        s.end.is_some(),
        "somebody owes until the end"
    );
}

/// One duel; returns the final state and the whole log, for the replay check.
fn duel(seed: u64) -> (String, String) {
    let mut rng = GameRng::seed_from_u64(seed);
    let raw = random_settings(&mut rng, seed);
    let settings = match Contests::parse_settings(raw) {
        Ok(s) => s,
        Err(e) => panic!("random settings refused: {e:?}"),
    };
    Contests::check_settings(&settings).expect("random settings are valid");
    let entrants: Vec<Entrant<Build>> = ["Ann", "Bob"]
        .iter()
        .enumerate()
        .map(|(i, name)| Entrant {
            id: PlayerId(uuid::Uuid::from_u128(i as u128 + 1)),
            name: (*name).into(),
            join: random_build(&mut rng, &settings),
        })
        .collect();
    let mut game_rng = GameRng::seed_from_u64(settings.seed.unwrap_or(0));
    let mut state = Contests::start(&settings, &entrants, &mut game_rng).expect("a start");
    let mut log = Vec::new();
    let t = settings.rules.max_ties as u64;
    let bound = (1 + 2 * (2 + t))
        + settings.rules.max_phases as u64 * ((1 + 6 * (3 + t)) + (1 + 2 * (2 + t)));
    let mut steps = 0u64;
    let mut opened = HashSet::new();
    while state.end.is_none() {
        steps += 1;
        assert!(steps <= bound, "more than the {bound} steps of §3.6");
        let mut orders = Vec::new();
        for seat in Contests::owes(&state) {
            assert!(
                Contests::prompt(&state, seat).is_some(),
                "an owed seat has a prompt"
            );
            if rng.random_ratio(1, 12) {
                let body = illegal(&state, &mut rng);
                let before = serde_json::to_string(&state).expect("json");
                let refused = serde_json::from_value(body.clone())
                    .map_err(|e| e.to_string())
                    .and_then(|b| {
                        Contests::check_order(&state, seat, b).map_err(|e| e.to_string())
                    });
                assert!(
                    refused.is_err(),
                    "illegal {body} accepted at {:?}",
                    state.step
                );
                assert_eq!(
                    before,
                    serde_json::to_string(&state).expect("json"),
                    "a refusal changes nothing"
                );
            }
            if rng.random_ratio(1, 10) {
                if let Some(o) = Contests::default_order(&state, seat, &mut game_rng) {
                    orders.push((seat, o));
                }
                continue;
            }
            let body = answer(&state, seat, &mut rng);
            let parsed = serde_json::from_value(body.clone()).expect("an order body");
            match Contests::check_order(&state, seat, parsed) {
                Ok(o) => orders.push((seat, o)),
                Err(e) => panic!("a prompted answer {body} refused at {:?}: {e}", state.step),
            }
        }
        let res = Contests::resolve(&state, &orders, &mut game_rng);
        check_invariants(&res.state, &state, &res.events);
        record_contests(&mut opened, &state, &res.events);
        if let Some(c) = &res.state.contest {
            assert!(
                opened.contains(&(res.state.round, c.number)),
                "the running contest {} of round {} was announced",
                c.number,
                res.state.round
            );
        }
        log.extend(
            res.events
                .iter()
                .map(|e| serde_json::to_string(e).expect("json")),
        );
        state = res.state;
    }
    let end = state.end.as_ref().expect("over");
    let hp = [state.fighters[0].hp, state.fighters[1].hp];
    match (end.reason, end.winner) {
        (EndReason::Defeated, Some(w)) => {
            assert_eq!(hp[1 - w.0], 0, "the defeated has 0 HP");
            assert!(hp[w.0] >= 1, "the winner stands");
        }
        (EndReason::Defeated, None) => panic!("a defeat has a winner"),
        _ => assert!(hp[0] >= 1 && hp[1] >= 1, "nobody fell: {hp:?}"),
    }
    assert!(Contests::outcome(&state).is_some());
    (serde_json::to_string(&state).expect("json"), log.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_duels_keep_the_invariants_of_section_3_10(seed in any::<u64>()) {
        duel(seed);
    }
}

#[test]
fn a_replay_from_the_same_seed_and_orders_is_identical() {
    let mut longest = 0;
    for seed in [1_u64, 2, 3, 99, 12345] {
        let first = duel(seed);
        longest = longest.max(first.1.lines().count());
        assert_eq!(first, duel(seed), "seed {seed} replays differently");
    }
    assert!(
        longest > 20,
        "the duels were played out ({longest} log lines at most)"
    );
}
