//! Unit tests of the `Game` surface: settings checks, joins, the deal, secrecy of public
//! views, and state round trips.

use rand::SeedableRng;

use super::*;
use crate::rules::{Audience, Entrant, Event, Game, GameRng, PlayerId, Refusal, Seat};

fn entrants(a: Character, b: Character) -> Vec<Entrant<Join>> {
    [a, b]
        .into_iter()
        .enumerate()
        .map(|(i, c)| Entrant {
            id: PlayerId(uuid::Uuid::from_u128(i as u128 + 1)),
            name: format!("P{}", i + 1),
            join: super::Join { character: c },
        })
        .collect()
}

fn codes(tokens: &[Token]) -> Vec<String> {
    tokens.iter().map(Token::to_string).collect()
}

fn refused(settings: &Settings) -> &'static str {
    Bst::check_settings(settings)
        .err()
        .map(|r| r.code())
        .unwrap_or("accepted")
}

#[test]
fn a_normal_start_deals_five_each_and_leaves_seventy_in_the_pool_s3() {
    let settings = Settings {
        seed: Some(5),
        ..Settings::default()
    };
    let mut rng = GameRng::seed_from_u64(5);
    let s = Bst::start(
        &settings,
        &entrants(Character::Sellsword, Character::Razorbeast),
        &mut rng,
    )
    .unwrap();
    assert_eq!(
        (
            s.players[0].hand.len(),
            s.players[1].hand.len(),
            s.pool.len()
        ),
        (5, 5, 70)
    );
    assert_eq!((s.players[0].charges, s.players[1].hp), (1, 80));
    assert_eq!((Bst::step(&s), Bst::round(&s)), ("play", 1));
    assert_eq!(Bst::owes(&s), vec![Seat(0), Seat(1)]);
    assert_eq!(Bst::seed(&settings), Some(5));
}

#[test]
fn an_explicit_pool_deals_p1_the_first_five_and_p2_the_next_five_api_md() {
    let mut pool = Token::full_set();
    pool.reverse();
    let settings = Settings {
        pool: Some(codes(&pool)),
        ..Settings::default()
    };
    let s = Bst::start(
        &settings,
        &entrants(Character::Sellsword, Character::Sellsword),
        &mut GameRng::seed_from_u64(1),
    )
    .unwrap();
    assert_eq!(s.players[0].hand, pool[..5].to_vec());
    assert_eq!(s.players[1].hand, pool[5..10].to_vec());
    assert_eq!(s.pool.front(), Some(&pool[10]));
}

#[test]
fn the_same_seed_shuffles_the_same_pool_and_another_seed_does_not() {
    let deal = |seed| {
        let settings = Settings {
            seed: Some(seed),
            ..Settings::default()
        };
        Bst::start(
            &settings,
            &entrants(Character::Sellsword, Character::Sellsword),
            &mut GameRng::seed_from_u64(seed),
        )
        .unwrap()
    };
    assert_eq!(deal(3), deal(3));
    assert_ne!(deal(3).pool, deal(4).pool);
}

#[test]
fn settings_that_cannot_happen_are_refused_api_md() {
    let full = codes(&Token::full_set());
    assert_eq!(
        refused(&Settings {
            pool: Some(full[..79].to_vec()),
            ..Settings::default()
        }),
        "tokens-not-accounted"
    );
    assert_eq!(
        refused(&Settings {
            pool: Some(full.clone()),
            ..Settings::default()
        }),
        "accepted"
    );
    let mut doubled = full.clone();
    doubled[0] = "W10".to_owned();
    assert_eq!(
        refused(&Settings {
            pool: Some(doubled),
            ..Settings::default()
        }),
        "too-many-copies"
    );
    let mut bad = full.clone();
    bad[0] = "Q3".to_owned();
    assert_eq!(
        refused(&Settings {
            pool: Some(bad),
            ..Settings::default()
        }),
        "unknown-token"
    );
    let setup = Setup {
        pool: Some(full.clone()),
        ..Setup::default()
    };
    assert_eq!(
        refused(&Settings {
            pool: Some(full),
            setup: Some(setup),
            ..Settings::default()
        }),
        "conflicting-pools"
    );
    assert_eq!(
        refused(&Settings {
            max_rounds: Some(0),
            ..Settings::default()
        }),
        "invalid-max-rounds"
    );
    assert_eq!(
        refused(&Settings {
            max_players: Some(2),
            ..Settings::default()
        }),
        "accepted"
    );
    let three = Setup {
        players: Some(vec![SetupPlayer::default(); 3]),
        ..Setup::default()
    };
    assert_eq!(
        refused(&Settings {
            setup: Some(three),
            ..Settings::default()
        }),
        "too-many-setup-players"
    );
    let zero = Setup {
        round: Some(0),
        ..Setup::default()
    };
    assert_eq!(
        refused(&Settings {
            setup: Some(zero),
            ..Settings::default()
        }),
        "invalid-round"
    );
    let dead = Setup {
        players: Some(vec![SetupPlayer {
            hp: Some(0),
            ..SetupPlayer::default()
        }]),
        ..Setup::default()
    };
    assert_eq!(
        refused(&Settings {
            setup: Some(dead),
            ..Settings::default()
        }),
        "hp-out-of-range"
    );
}

#[test]
fn settings_reject_unknown_fields_so_typos_are_not_silently_ignored() {
    assert!(serde_json::from_str::<Settings>(r#"{"sead": 3}"#).is_err());
    assert!(
        serde_json::from_str::<Settings>(r#"{"setup": {"players": [{"hp": 3, "mana": 2}]}}"#)
            .is_err()
    );
    let s: Settings = serde_json::from_str(
        r#"{"seed": 3, "setup": {"round": 4, "players": [{"hand": ["R7"]}]}}"#,
    )
    .unwrap();
    assert_eq!(s.seed, Some(3));
}

#[test]
fn a_join_defaults_to_the_sellsword_and_refuses_unknown_characters_api_md() {
    let settings = Settings::default();
    assert_eq!(
        Bst::check_join(&settings, JoinBody { character: None }).unwrap(),
        super::Join {
            character: Character::Sellsword
        }
    );
    assert_eq!(
        Bst::check_join(
            &settings,
            JoinBody {
                character: Some("channeler".into())
            }
        )
        .unwrap(),
        super::Join {
            character: Character::Channeler
        }
    );
    let err = Bst::check_join(
        &settings,
        JoinBody {
            character: Some("wizard".into()),
        },
    )
    .unwrap_err();
    assert_eq!(err.code(), "unknown-character");
    assert_eq!(
        (Bst::capacity(&settings), Bst::min_players(&settings)),
        (2, 2)
    );
}

#[test]
fn start_refuses_anything_but_two_entrants() {
    let one = &entrants(Character::Sellsword, Character::Sellsword)[..1];
    let err = Bst::start(&Settings::default(), one, &mut GameRng::seed_from_u64(1)).unwrap_err();
    assert_eq!(err.code(), "wrong-player-count");
}

#[test]
fn public_views_hold_counts_and_the_discard_never_a_hand_or_the_pool_a37() {
    let settings = Settings {
        seed: Some(11),
        ..Settings::default()
    };
    let s = Bst::start(
        &settings,
        &entrants(Character::Assassin, Character::Sentinel),
        &mut GameRng::seed_from_u64(11),
    )
    .unwrap();
    let pools = serde_json::to_value(Bst::pools(&s, Seat(0))).unwrap();
    let keys: Vec<&String> = pools.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "character",
            "charges",
            "free_turn",
            "hand_size",
            "hp",
            "off_balance",
            "piercing_set_aside",
            "poison"
        ]
    );
    let table = serde_json::to_value(Bst::table(&s)).unwrap();
    assert_eq!(
        table,
        serde_json::json!({"pool_size": 70, "discard": [], "in_play": []})
    );
    let private = serde_json::to_value(Bst::private(&s, Seat(1))).unwrap();
    assert_eq!(private["hand"].as_array().unwrap().len(), 5);
    let prompt = serde_json::to_value(Bst::prompt(&s, Seat(0)).unwrap()).unwrap();
    assert_eq!(
        prompt["hand"],
        serde_json::to_value(&s.players[0].hand).unwrap()
    );
    assert_eq!(prompt["moves"].as_array().unwrap().len(), 10);
    assert!(prompt.get("pool").is_none());
}

#[test]
fn a_draw_names_its_token_to_the_drawer_only_and_a_count_to_everyone() {
    let mut pool = Token::full_set();
    pool.reverse();
    let settings = Settings {
        pool: Some(codes(&pool)),
        ..Settings::default()
    };
    let s = Bst::start(
        &settings,
        &entrants(Character::Sellsword, Character::Sellsword),
        &mut GameRng::seed_from_u64(1),
    )
    .unwrap();
    let play = |m: &str, t: Token| OrderBody {
        play: Some(m.into()),
        token: Some(t.to_string()),
        ..OrderBody::default()
    };
    let a = Bst::check_order(&s, Seat(0), play("counter-attack", s.players[0].hand[0])).unwrap();
    let b = Bst::check_order(&s, Seat(1), play("counter-attack", s.players[1].hand[0])).unwrap();
    let mut res = Bst::resolve(
        &s,
        &[(Seat(0), a), (Seat(1), b)],
        &mut GameRng::seed_from_u64(2),
    );
    // Decline a Gather Power if a pair asked for one, to reach turn 2's draws.
    while Bst::step(&res.state) == "gather-power" {
        let owed: Vec<(Seat, Order)> = Bst::owes(&res.state)
            .into_iter()
            .map(|seat| (seat, Order::Decline))
            .collect();
        res = Bst::resolve(&res.state, &owed, &mut GameRng::seed_from_u64(3));
    }
    let drew: Vec<&BstEvent> = res
        .events
        .iter()
        .filter(|e| matches!(e, BstEvent::Drew { .. }))
        .collect();
    assert_eq!(drew.len(), 2);
    assert_eq!(drew[0].audience(), Audience::Only(Seat(0)));
    assert_eq!(drew[1].audience(), Audience::Only(Seat(1)));
    for e in res
        .events
        .iter()
        .filter(|e| matches!(e, BstEvent::DrewCount { .. }))
    {
        assert_eq!(e.audience(), Audience::Everyone);
        assert!(serde_json::to_value(e).unwrap().get("token").is_none());
    }
}

#[test]
fn the_state_round_trips_through_json_for_the_store() {
    let settings = Settings {
        seed: Some(9),
        ..Settings::default()
    };
    let s = Bst::start(
        &settings,
        &entrants(Character::Warpriest, Character::Channeler),
        &mut GameRng::seed_from_u64(9),
    )
    .unwrap();
    let back: State = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
}

#[test]
fn an_answer_from_a_seat_that_owes_nothing_is_a_conflict() {
    let settings = Settings {
        seed: Some(9),
        ..Settings::default()
    };
    let s = Bst::start(
        &settings,
        &entrants(Character::Sellsword, Character::Sellsword),
        &mut GameRng::seed_from_u64(9),
    )
    .unwrap();
    let err = Bst::check_order(&s, Seat(5), OrderBody::default()).unwrap_err();
    assert!(err.is_conflict());
}

#[test]
fn the_play_prompt_marks_what_t6_would_replace_and_why_a9() {
    let setup = Setup {
        players: Some(vec![
            SetupPlayer {
                off_balance: Some(true),
                charges: Some(2),
                ..SetupPlayer::default()
            },
            SetupPlayer {
                charges: Some(0),
                ..SetupPlayer::default()
            },
        ]),
        ..Setup::default()
    };
    let settings = Settings {
        seed: Some(4),
        setup: Some(setup),
        ..Settings::default()
    };
    let s = Bst::start(
        &settings,
        &entrants(Character::Sentinel, Character::Sellsword),
        &mut GameRng::seed_from_u64(4),
    )
    .unwrap();
    let moves = |seat| Bst::prompt(&s, Seat(seat)).unwrap().moves.unwrap();
    let find = |seat, m: Move| moves(seat).into_iter().find(|o| o.tile == m).unwrap();
    // Sentinel, Off-Balance, 2 Charges: Lightning banned, Dashing barred by OB, Finishing unaffordable.
    assert_eq!(
        find(0, Move::LightningStrike).becomes,
        Some(Move::StandardStrike)
    );
    assert!(
        find(0, Move::DashingStrike)
            .reason
            .unwrap()
            .contains("Off-Balance")
    );
    assert!(
        find(0, Move::FinishingStrike)
            .reason
            .unwrap()
            .contains("costs 3")
    );
    assert!(find(0, Move::Parry).legal && find(0, Move::PowerUp).legal);
    // 0 Charges: every paid move becomes Standard or Guard.
    assert_eq!(find(1, Move::Evasion).becomes, Some(Move::Guard));
    assert_eq!(find(1, Move::Parry).becomes, Some(Move::Guard));
    assert!(find(1, Move::CounterAttack).legal);
    assert_eq!(
        moves(1).iter().filter(|o| o.legal).count(),
        5,
        "STD, PRC, GRD, CTR, PWR"
    );
}

#[test]
fn a_missing_play_defaults_to_guard_with_a_hand_token_a36() {
    let settings = Settings {
        seed: Some(8),
        ..Settings::default()
    };
    let s = Bst::start(
        &settings,
        &entrants(Character::Sellsword, Character::Sellsword),
        &mut GameRng::seed_from_u64(8),
    )
    .unwrap();
    let mut rng = GameRng::seed_from_u64(1);
    for seat in 0..2 {
        match orders::default_order(&s, Seat(seat), &mut rng) {
            Some(Order::Play {
                tile: Move::Guard,
                token,
            }) => assert!(s.players[seat].hand.contains(&token)),
            other => panic!("expected a Guard play, got {other:?}"),
        }
    }
    assert_eq!(orders::default_order(&s, Seat(2), &mut rng), None);
}
