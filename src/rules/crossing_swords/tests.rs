//! Unit tests of the boundary: wire shapes, refusals and R0's Pass for callers that break the
//! host's contract. The rulings themselves are tested by the case files in `tests/cases/`.

use rand_chacha::rand_core::SeedableRng;
use serde_json::json;
use uuid::Uuid;

use super::*;
use crate::rules::{Game, Refusal as _, SettingsError};

fn entrants(names: &[&str]) -> Vec<Entrant<Join>> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| Entrant {
            id: PlayerId(Uuid::from_u128(i as u128 + 1)),
            name: (*n).to_owned(),
            join: Join,
        })
        .collect()
}

fn rng() -> GameRng {
    GameRng::seed_from_u64(1)
}

fn started(names: &[&str], settings: &Settings) -> State {
    CrossingSwords::start(settings, &entrants(names), &mut rng()).unwrap()
}

fn order(state: &State, mv: Move, target: usize) -> Order {
    Order {
        mv,
        target: state.players[target].id,
    }
}

#[test]
fn a_join_with_a_character_is_refused_and_an_empty_one_accepted() {
    let read = |body| serde_json::from_value::<JoinBody>(body).unwrap();
    let settings = Settings::default();
    assert!(CrossingSwords::check_join(&settings, read(json!({}))).is_ok());
    assert!(CrossingSwords::check_join(&settings, read(json!({"character": null}))).is_ok());
    assert_eq!(
        CrossingSwords::check_join(&settings, read(json!({"character": "sentinel"}))),
        Err(Refusal::NoCharacters)
    );
    assert!(serde_json::from_value::<JoinBody>(json!({"charisma": 3})).is_err());
}

#[test]
fn settings_default_to_sixteen_players_without_a_cap_and_refuse_unknown_keys() {
    let s = CrossingSwords::parse_settings(json!({})).unwrap();
    assert_eq!(s, Settings::default());
    assert_eq!(CrossingSwords::capacity(&s), 16);
    assert_eq!(CrossingSwords::min_players(&s), 2);
    let refused = |v| match CrossingSwords::parse_settings(v) {
        Err(SettingsError::Refused(r)) => Some((r.code(), r.to_string())),
        Err(SettingsError::Malformed(_)) | Ok(_) => None,
    };
    let (code, message) = refused(json!({"seed": 4})).unwrap();
    assert_eq!(code, "unknown-setting");
    assert!(message.contains("'seed'"), "{message}");
    assert!(matches!(
        CrossingSwords::parse_settings(json!({"setup": {"players": [{"hand": []}]}})),
        Err(SettingsError::Malformed(_))
    ));
    assert!(matches!(
        CrossingSwords::parse_settings(json!({"max_players": "lots"})),
        Err(SettingsError::Malformed(_))
    ));
}

#[test]
fn every_variant_key_parses_its_listed_values_and_refuses_others_by_name() {
    let s = CrossingSwords::parse_settings(json!({
        "missing_move": "riposte", "self_attacks": true, "halt_cycle": "all_fire",
        "halt_keeps_taunt_penalty": true, "focus_assail": "any", "taunt_before_focus": true,
        "assail_self": true, "assail_targets_all": true, "assail_cap": "return",
        "taunt_snapshot": "post_damage", "heal_cap": 20, "overkill": "full_credit",
        "convert_at_cap": true, "tiebreak": "survivor_first", "max_rounds": 9
    }))
    .unwrap();
    assert_eq!(s.rules.in_words().len(), 14);
    assert_eq!(s.max_rounds, Some(9));
    // What is stored reads back the same.
    let stored: Settings = serde_json::from_value(serde_json::to_value(&s).unwrap()).unwrap();
    assert_eq!(stored, s);
    for (key, bad) in [
        ("missing_move", json!("strike")),
        ("missing_move", json!("halt")),
        ("self_attacks", json!("yes")),
        ("halt_cycle", json!("sometimes")),
        ("halt_keeps_taunt_penalty", json!(1)),
        ("focus_assail", json!("all")),
        ("taunt_before_focus", json!(null)),
        ("assail_self", json!("true")),
        ("assail_targets_all", json!([])),
        ("assail_cap", json!("keep")),
        ("taunt_snapshot", json!("end")),
        ("heal_cap", json!(25)),
        ("overkill", json!("split")),
        ("convert_at_cap", json!(0)),
        ("tiebreak", json!("seat")),
    ] {
        match CrossingSwords::parse_settings(json!({ key: bad })) {
            Err(SettingsError::Refused(r)) => {
                assert_eq!(r.code(), "invalid-setting", "{key}: {bad}");
                assert!(r.to_string().contains(key), "{r}");
            }
            other => panic!("{key}: {bad} gave {other:?}"),
        }
    }
}

#[test]
fn ruling_2_default_order_is_a_pass_or_the_fixed_move_on_oneself() {
    let plain = started(&["Ann", "Bob"], &Settings::default());
    assert_eq!(default_order(&plain, Seat(1)), None);
    let settings = CrossingSwords::parse_settings(json!({"missing_move": "block"})).unwrap();
    let state = started(&["Ann", "Bob"], &settings);
    assert_eq!(
        default_order(&state, Seat(1)),
        Some(order(&state, Move::Block, 1))
    );
    // Whoever owes nothing gets no default.
    let over = State {
        end: Some(state::End {
            reason: EndReason::RoundCap,
            winners: vec![Seat(0)],
        }),
        ..state.clone()
    };
    assert_eq!(default_order(&over, Seat(1)), None);
    // Resolving without Bob's order plays his Block on himself: Ann's Strike deals 3 − 2 = 1;
    // a Block on oneself reflects nothing (Ruling 3).
    let res = CrossingSwords::resolve(
        &state,
        &[(Seat(0), order(&state, Move::Strike, 1))],
        &mut rng(),
    );
    assert_eq!(CrossingSwords::pools(&res.state, Seat(1)).hp, 19);
    assert_eq!(CrossingSwords::pools(&res.state, Seat(0)).hp, 20);
    assert_eq!(CrossingSwords::pools(&res.state, Seat(0)).vp, 1);
    assert_eq!(
        res.events[0].to_string(),
        "Bob sent no order and plays Block on himself (missing_move)"
    );
}

#[test]
fn ruling_12_a_setup_focus_on_a_dead_player_is_a_possible_position() {
    let s: Settings = serde_json::from_value(json!({"setup": {"players": [
        {"focus": 2}, {}, {"alive": false, "vp": 3}
    ]}}))
    .unwrap();
    assert_eq!(CrossingSwords::check_settings(&s), Ok(()));
}

#[test]
fn an_order_body_with_extra_fields_is_refused_and_an_order_serializes_canonically() {
    assert!(
        serde_json::from_value::<OrderBody>(
            json!({"move": "strike", "target": "x", "token": "R7"})
        )
        .is_err()
    );
    let state = started(&["Ann", "Bob"], &Settings::default());
    let o = order(&state, Move::Lunge, 1);
    assert_eq!(
        serde_json::to_value(o).unwrap(),
        json!({"move": "lunge", "target": state.players[1].id})
    );
}

#[test]
fn pools_table_and_private_have_their_wire_shapes() {
    let settings: Settings =
        serde_json::from_value(json!({"setup": {"players": [{"focus": 1, "dodge": 0}, {}]}}))
            .unwrap();
    let state = started(&["Ann", "Bob"], &settings);
    assert_eq!(
        serde_json::to_value(CrossingSwords::pools(&state, Seat(0))).unwrap(),
        json!({"hp": 20, "vp": 0, "focus": state.players[1].id, "dodge": state.players[0].id})
    );
    assert_eq!(
        serde_json::to_value(CrossingSwords::table(&state)).unwrap(),
        json!({})
    );
    assert_eq!(
        serde_json::to_value(CrossingSwords::private(&state, Seat(0))).unwrap(),
        json!({})
    );
    assert_eq!(CrossingSwords::step(&state), "orders");
    assert_eq!(CrossingSwords::round(&state), 1);
}

#[test]
fn ruling_3_the_prompt_lists_each_player_once_and_targets_by_seat() {
    let settings: Settings =
        serde_json::from_value(json!({"setup": {"players": [{}, {}, {"hp": 0, "alive": false}]}}))
            .unwrap();
    let state = started(&["Ann", "Bob", "Cy"], &settings);
    let prompt = serde_json::to_value(CrossingSwords::prompt(&state, Seat(0))).unwrap();
    let ids: Vec<String> = state.players.iter().map(|p| p.id.to_string()).collect();
    // Everyone once, the dead included, so that `players[seat]` is the seat's player.
    assert_eq!(
        prompt["players"],
        json!([{"id": ids[0], "name": "Ann"}, {"id": ids[1], "name": "Bob"},
               {"id": ids[2], "name": "Cy"}])
    );
    let targets = |mv: &str| {
        let moves = prompt["moves"].as_array().unwrap();
        moves.iter().find(|m| m["move"] == mv).unwrap()["targets"].clone()
    };
    // Strike names another living player; Mend may name oneself; the dead are never targets.
    assert_eq!(targets("strike"), json!([1]));
    assert_eq!(targets("mend"), json!([0, 1]));
    let text = prompt.to_string();
    assert!(ids.iter().all(|id| text.matches(id.as_str()).count() == 1));
}

#[test]
fn ruling_2_conflicting_or_illegal_orders_given_directly_become_passes() {
    let settings = Settings {
        setup: Some(Setup {
            round: None,
            players: Some(vec![
                SetupPlayer::default(),
                SetupPlayer::default(),
                SetupPlayer::default(),
                SetupPlayer {
                    alive: Some(false),
                    ..SetupPlayer::default()
                },
            ]),
        }),
        ..Settings::default()
    };
    let state = started(&["Ann", "Bob", "Cid", "Dan"], &settings);
    let orders = [
        (Seat(0), order(&state, Move::Strike, 1)),
        (Seat(0), order(&state, Move::Strike, 2)),
        (Seat(1), order(&state, Move::Halt, 1)),
        (Seat(2), order(&state, Move::Strike, 3)),
    ];
    let res = CrossingSwords::resolve(&state, &orders, &mut rng());
    let reasons: Vec<PassReason> = res
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Passed { reason, .. } => Some(*reason),
            Event::Defaulted { .. }
            | Event::AssailReturned { .. }
            | Event::ConvertedAtCap { .. }
            | Event::HaltResolved { .. }
            | Event::ActionNegated { .. }
            | Event::HaltDamage { .. }
            | Event::Mended { .. }
            | Event::CardDamage { .. }
            | Event::BlockReflection { .. }
            | Event::RiposteCounter { .. }
            | Event::LungeBonus { .. }
            | Event::CountersMoved { .. }
            | Event::AssailCapped { .. }
            | Event::TauntSteal { .. }
            | Event::Died { .. }
            | Event::Kicked { .. }
            | Event::Converted { .. }
            | Event::GameOver { .. } => None,
        })
        .collect();
    assert_eq!(
        reasons,
        [
            PassReason::ConflictingOrders,
            PassReason::SelfTarget,
            PassReason::DeadTarget
        ]
    );
    assert!(res.revealed.is_empty());
    for s in 0..3 {
        assert_eq!(CrossingSwords::pools(&res.state, Seat(s)).hp, 20);
    }
}

#[test]
fn a_finished_game_owes_nothing_prompts_nobody_and_resolves_to_itself() {
    let settings: Settings =
        serde_json::from_value(json!({"setup": {"players": [{}, {"hp": 1}]}})).unwrap();
    let state = started(&["Ann", "Bob"], &settings);
    assert!(CrossingSwords::prompt(&state, Seat(1)).is_some());
    let res = CrossingSwords::resolve(
        &state,
        &[
            (Seat(0), order(&state, Move::Strike, 1)),
            (Seat(1), order(&state, Move::Block, 1)),
        ],
        &mut rng(),
    );
    // Bob Blocks himself: 3 − 2 = 1 kills him (1 VP to Ann); Ann converts her 20 HP (G6).
    let done = res.state;
    assert!(CrossingSwords::owes(&done).is_empty());
    assert!(CrossingSwords::prompt(&done, Seat(0)).is_none());
    let err = CrossingSwords::check_order(
        &done,
        Seat(0),
        OrderBody {
            mv: "strike".into(),
            target: done.players[1].id.to_string(),
        },
    )
    .unwrap_err();
    assert_eq!(err.code(), "nothing-owed");
    assert!(err.is_conflict());
    let again = CrossingSwords::resolve(&done, &[], &mut rng());
    assert_eq!(again.state, done);
    assert!(again.events.is_empty());
    let outcome = serde_json::to_value(CrossingSwords::outcome(&done).unwrap()).unwrap();
    assert_eq!(
        outcome,
        json!({
            "winners": [done.players[0].id],
            "reason": "last-standing",
            "standings": [
                {"player": done.players[0].id, "name": "Ann", "vp": 21, "hp": 0, "alive": true, "place": 1},
                {"player": done.players[1].id, "name": "Bob", "vp": 0, "hp": 0, "alive": false, "place": 2}
            ]
        })
    );
}

#[test]
fn events_serialize_with_a_kind_tag_and_players_as_id_and_name() {
    let state = started(&["Ann", "Bob"], &Settings::default());
    let res = CrossingSwords::resolve(
        &state,
        &[
            (Seat(0), order(&state, Move::Strike, 1)),
            (Seat(1), order(&state, Move::Dodge, 1)),
        ],
        &mut rng(),
    );
    let first = serde_json::to_value(&res.events[0]).unwrap();
    assert_eq!(first["kind"], "card-damage");
    assert_eq!(
        first["attacker"],
        json!({"id": state.players[0].id, "name": "Ann"})
    );
    assert_eq!(
        first["steps"],
        json!([{"step": "reduced", "by": "dodge", "result": 0}])
    );
    assert_eq!(
        res.events[0].to_string(),
        "Ann's Strike on Bob: 3, Dodge −3 = 0 damage"
    );
    let back: Event = serde_json::from_value(first).unwrap();
    assert_eq!(back, res.events[0]);
}

#[test]
fn start_refuses_too_few_players() {
    let err =
        CrossingSwords::start(&Settings::default(), &entrants(&["Ann"]), &mut rng()).unwrap_err();
    assert_eq!(err.code(), "wrong-player-count");
}

/// Forking (docs/fairness.md): a position read as a setup starts the same position again (R11, R12).
#[test]
fn a_forked_position_starts_as_the_same_position() {
    let settings: Settings = serde_json::from_value(json!({"max_rounds": 9, "setup": {"round": 4,
        "players": [{"hp": 3, "vp": 7, "focus": 1}, {"hp": 12, "dodge": 0}, {"hp": 0, "alive": false}]}}))
    .unwrap();
    let state = started(&["Ann", "Bob", "Cid"], &settings);
    let forked = CrossingSwords::fork_settings(&state, &Settings::default()).unwrap();
    let again = started(&["Ann", "Bob", "Cid"], &forked);
    assert_eq!(again.round, 4);
    assert_eq!(again.players, state.players);
    let mut over = state.clone();
    over.end = Some(state::End {
        reason: EndReason::EndedByHost,
        winners: vec![],
    });
    assert_eq!(
        CrossingSwords::fork_settings(&over, &settings),
        Err(crate::rules::ForkRefusal::Finished { round: 4 })
    );
}
