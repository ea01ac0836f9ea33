//! BST invariants over many random games with random legal answers, for all 36 character
//! pairings: no panic, always an end, the 80 tokens conserved after every step, hands at most
//! 9 (except while their owner owes the overflow discard), Charges 0-5, HP never above the
//! start, and replays identical from the same seed and answers.

use herald::rules::bst::{Bst, Character, OrderBody, Settings, State, Token};
use herald::rules::{Entrant, Game, GameRng, PlayerId, Seat};
use proptest::prelude::*;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

/// Games per character pairing (36 pairings).
const GAMES_PER_PAIRING: u64 = 30;
/// More steps than any game can take: the pool empties within 35 turns.
const STEP_BOUND: usize = 2_000;

fn entrants(a: Character, b: Character) -> Vec<Entrant<herald::rules::bst::Join>> {
    [a, b]
        .into_iter()
        .enumerate()
        .map(|(i, c)| Entrant {
            id: PlayerId(uuid::Uuid::from_u128(i as u128 + 1)),
            name: format!("P{}", i + 1),
            join: herald::rules::bst::Join { character: c },
        })
        .collect()
}

/// A random legal answer built from the prompt alone, as a bot would.
fn answer(state: &State, seat: Seat, rng: &mut GameRng) -> Value {
    let p = serde_json::to_value(
        <Bst as Game>::prompt(state, seat).expect("an owed seat has a prompt"),
    )
    .expect("prompt json");
    let codes = |k: &str| -> Vec<String> {
        p.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|t| t.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let can_decline = p["can_decline"].as_bool().unwrap_or(false);
    if can_decline && rng.random_bool(0.3) {
        return json!({"decline": true});
    }
    match <Bst as Game>::step(state) {
        "play" => {
            let moves: Vec<String> = p["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| m["move"].as_str().expect("id").to_owned())
                .collect();
            json!({"move": moves.choose(rng).expect("ten moves"), "token": codes("hand").choose(rng).expect("a hand at play")})
        }
        "set-aside" | "power-surge" | "channeler-steal" => json!({"accept": true}),
        "follow-up" if p["random_pool"].as_bool() == Some(true) && rng.random_bool(0.5) => {
            json!({"random_pool": true})
        }
        "follow-up" | "parry-pick" | "evasion-pick" => {
            json!({"token": codes("choices").choose(rng).expect("a choice")})
        }
        "gather-power" => {
            let pairs = p["pairs"].as_array().expect("pairs");
            json!({"tokens": pairs.choose(rng).expect("a pair")})
        }
        "overflow" | "buy-tiebreak" | "finishing-extras" => {
            let min = p["min_tokens"].as_u64().unwrap_or(1) as usize;
            let max = p["max_tokens"].as_u64().unwrap_or(1) as usize;
            let mut choices = codes("choices");
            choices.shuffle(rng);
            let n = rng.random_range(min..=max.min(choices.len()).max(min));
            json!({"tokens": &choices[..n.min(choices.len())]})
        }
        other => panic!("unknown step {other}"),
    }
}

fn check_invariants(state: &State) {
    let mut all: Vec<Token> = state.all_tokens();
    all.sort();
    let mut set = Token::full_set();
    set.sort();
    assert_eq!(all, set, "the 80 tokens are accounted for");
    let table = <Bst as Game>::table(state);
    let hands: usize = (0..2)
        .map(|s| <Bst as Game>::private(state, Seat(s)).hand.len())
        .sum();
    assert_eq!(
        table.pool_size + table.discard.len() + table.in_play.len() + hands,
        80,
        "public counts add up to 80"
    );
    let owes = <Bst as Game>::owes(state);
    for s in 0..2 {
        let pools = <Bst as Game>::pools(state, Seat(s));
        let overflowing = <Bst as Game>::step(state) == "overflow" && owes.contains(&Seat(s));
        assert!(
            pools.hand_size <= 9 || overflowing,
            "hand of {} outside an overflow step",
            pools.hand_size
        );
        assert!(pools.charges <= 5, "charges {}", pools.charges);
        assert!(
            pools.hp <= pools.character.start_hp(),
            "HP {} above the start",
            pools.hp
        );
    }
    assert_eq!(
        owes.is_empty(),
        state.finish.is_some(),
        "nobody owes only once finished"
    );
}

/// Plays one random game; answers the log lines (every event, all audiences) and the final
/// state, and records the step names met in `steps`.
fn play_noting(
    a: Character,
    b: Character,
    seed: u64,
    steps: &mut std::collections::BTreeSet<&'static str>,
) -> (Vec<String>, State) {
    let settings = Settings {
        seed: Some(seed),
        ..Settings::default()
    };
    let mut rng = GameRng::seed_from_u64(seed);
    let mut answers = GameRng::seed_from_u64(seed ^ 0xB57);
    let mut state =
        <Bst as Game>::start(&settings, &entrants(a, b), &mut rng).expect("a normal start");
    check_invariants(&state);
    let mut log = Vec::new();
    for _ in 0..STEP_BOUND {
        let owes = <Bst as Game>::owes(&state);
        if owes.is_empty() {
            assert!(<Bst as Game>::outcome(&state).is_some());
            return (log, state);
        }
        steps.insert(<Bst as Game>::step(&state));
        let mut orders = Vec::new();
        for seat in owes {
            // Now and then a seat "times out" and gets the house default (A36).
            if answers.random_bool(0.1) {
                let order = herald::rules::bst::orders::default_order(&state, seat, &mut answers)
                    .expect("a default for an owed seat");
                orders.push((seat, order));
                continue;
            }
            let body: OrderBody =
                serde_json::from_value(answer(&state, seat, &mut answers)).expect("answer json");
            let order = <Bst as Game>::check_order(&state, seat, body)
                .unwrap_or_else(|e| panic!("legal answer refused: {e}"));
            orders.push((seat, order));
        }
        let mut step_rng = GameRng::seed_from_u64(seed.wrapping_add(log.len() as u64));
        let res = <Bst as Game>::resolve(&state, &orders, &mut step_rng);
        log.extend(
            res.events
                .iter()
                .map(|e| format!("{} | {}", serde_json::to_string(e).expect("event json"), e)),
        );
        state = res.state;
        check_invariants(&state);
    }
    panic!("game {a:?} v {b:?} seed {seed} did not end within {STEP_BOUND} steps");
}

fn play(a: Character, b: Character, seed: u64) -> (Vec<String>, State) {
    play_noting(a, b, seed, &mut Default::default())
}

#[test]
fn random_games_of_every_pairing_keep_the_invariants_and_end() {
    let mut endings = std::collections::BTreeMap::new();
    let mut steps = std::collections::BTreeSet::new();
    for a in Character::ALL {
        for b in Character::ALL {
            for g in 0..GAMES_PER_PAIRING {
                let (_, state) =
                    play_noting(a, b, g * 1_000 + a as u64 * 10 + b as u64, &mut steps);
                let reason = <Bst as Game>::outcome(&state)
                    .expect("finished")
                    .reason
                    .to_string();
                *endings.entry(reason).or_insert(0) += 1;
            }
        }
    }
    assert!(
        endings.contains_key("knock-out") && endings.contains_key("pool-exhausted"),
        "{endings:?}"
    );
}

#[test]
fn the_same_seed_and_answers_replay_to_the_same_log() {
    for (i, a) in Character::ALL.into_iter().enumerate() {
        let b = Character::ALL[(i + 2) % 6];
        let (log1, s1) = play(a, b, 99 + i as u64);
        let (log2, s2) = play(a, b, 99 + i as u64);
        assert_eq!(log1, log2);
        assert_eq!(s1, s2);
        let (log3, _) = play(a, b, 100 + i as u64);
        assert_ne!(log1, log3, "a different seed gives a different game");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn any_answer_body_is_judged_without_panic(
        seed in 0u64..1_000,
        mv in proptest::option::of("[a-z-]{0,20}"),
        token in proptest::option::of("[RYBWX][0-9]{0,3}"),
        tokens in proptest::option::of(proptest::collection::vec("[RYBW](3|4|5|6|7|8|9|10|11)", 0..4)),
        decline in proptest::option::of(any::<bool>()),
        accept in proptest::option::of(any::<bool>()),
        random_pool in proptest::option::of(any::<bool>()),
        seat in 0usize..3,
    ) {
        let settings = Settings { seed: Some(seed), ..Settings::default() };
        let mut rng = GameRng::seed_from_u64(seed);
        let state = <Bst as Game>::start(&settings, &entrants(Character::Assassin, Character::Channeler), &mut rng).expect("start");
        let body = OrderBody { play: mv, token, tokens, decline, accept, random_pool };
        let _ = <Bst as Game>::check_order(&state, Seat(seat), body);
    }
}
