//! Unit tests of the duel through the `Game` trait: the host's hand, the secret settings, the
//! views. The worked cases of §6 and more are case files (`tests/cases/scale-of-styles/`), the
//! invariants of §3.6 property tests (`tests/it/scale_of_styles_props.rs`).

use rand::SeedableRng;
use serde_json::json;

use super::host_acts::Ending;
use super::*;
use crate::rules::{Entrant, Event as _, Game, GameRng, PlayerId, Refusal as _, Seat};

fn entrants() -> Vec<Entrant<Join>> {
    (0..2)
        .map(|i| Entrant {
            id: PlayerId(uuid::Uuid::from_u128(i + 1)),
            name: format!("P{}", i + 1),
            join: Join::default(),
        })
        .collect()
}

/// A whole pack as a setup deck, `top` first and the rest in canonical order.
fn full_deck(top: &[&str]) -> Vec<String> {
    let mut deck: Vec<String> = top.iter().map(|c| (*c).to_owned()).collect();
    let rest: Vec<String> = Card::pack(2)
        .iter()
        .map(Card::to_string)
        .filter(|c| !deck.contains(c))
        .collect();
    deck.extend(rest);
    deck
}

fn started(settings: serde_json::Value) -> State {
    let settings = ScaleOfStyles::parse_settings(settings).unwrap();
    ScaleOfStyles::start(&settings, &entrants(), &mut GameRng::seed_from_u64(9)).unwrap()
}

#[test]
fn a_kick_is_a_forfeit_and_the_victor_is_awarded_his_face_cards() {
    let state = started(json!({"deck_order": "shuffled"}));
    let act = ScaleOfStyles::kick(&state, Seat(0)).unwrap();
    let outcome = ScaleOfStyles::outcome(&act.state).unwrap();
    assert_eq!(outcome.reason, EndReason::Forfeit);
    assert_eq!(outcome.winners, [state.fighters[1].who.id]);
    assert_eq!(
        outcome.standings[0].xp_earned, 12,
        "all 12 face cards are still in his deck"
    );
    assert_eq!(
        (outcome.standings[0].level, outcome.standings[0].xp),
        (1, 0)
    );
    assert!(ScaleOfStyles::owes(&act.state).is_empty());
    assert!(matches!(
        act.log[..],
        [Event::Forfeited { .. }, Event::MatchOver { .. }]
    ));
    let again = ScaleOfStyles::kick(&act.state, Seat(1)).unwrap_err();
    assert_eq!((again.code(), again.is_conflict()), ("game-over", true));
}

#[test]
fn the_host_ends_a_duel_mid_shift_and_the_cards_in_play_go_to_the_discards() {
    // TC-02's round: A (Initiative 2) reacts to B (Initiative 1).
    let state = started(json!({
        "dice": [3, 8, 10, 7, 5, 4, 2, 9],
        "setup": {"players": [{"deck": full_deck(&["10D"])}, {"deck": full_deck(&["6C"])}]},
    }));
    let orders: Vec<(Seat, Order)> = [Seat(0), Seat(1)]
        .into_iter()
        .map(|s| (s, orders::default_order(&state, s).unwrap()))
        .collect();
    let res = ScaleOfStyles::resolve(&state, &orders, &mut GameRng::seed_from_u64(1));
    let mid = res.state;
    assert_eq!(ScaleOfStyles::step(&mid), "shift");
    let drawn = ScaleOfStyles::end_by_host(
        &mid,
        Ending {
            result: Some("draw".into()),
            winner: None,
        },
    );
    let over = drawn.unwrap().state;
    for seat in [Seat(0), Seat(1)] {
        assert_eq!(over.all_cards(seat), Card::pack(2));
    }
    assert_eq!(ScaleOfStyles::outcome(&over).unwrap().winners, []);
    let bad = ScaleOfStyles::end_by_host(&mid, Ending::default()).unwrap_err();
    assert_eq!(bad.code(), "invalid-ending");
    let stranger = Ending {
        result: None,
        winner: Some(uuid::Uuid::from_u128(77).to_string()),
    };
    assert_eq!(
        ScaleOfStyles::end_by_host(&mid, stranger)
            .unwrap_err()
            .code(),
        "unknown-winner"
    );
}

#[test]
fn seed_dice_and_setup_stay_secret_until_the_match_is_over() {
    let settings = ScaleOfStyles::parse_settings(json!({
        "seed": 4, "dice": [1, 2], "setup": {"round": 2}, "window": 2,
    }))
    .unwrap();
    let public = serde_json::to_value(ScaleOfStyles::public_settings(&settings, false)).unwrap();
    for secret in ["seed", "dice", "setup"] {
        assert!(public.get(secret).is_none(), "{secret} shown: {public}");
    }
    assert_eq!(public["window"], 2);
    assert_eq!(
        public["max_rounds"],
        serde_json::Value::Null,
        "every setting is listed"
    );
    let after = serde_json::to_value(ScaleOfStyles::public_settings(&settings, true)).unwrap();
    assert_eq!(after["seed"], 4);
}

#[test]
fn the_plan_is_never_revealed_and_the_deck_is_seen_only_by_its_owner() {
    let state = started(json!({}));
    let plan = |cards: &[&str]| Order::Plan {
        cards: cards.iter().map(|c| c.parse().unwrap()).collect(),
    };
    let orders = [(Seat(0), plan(&["KS", "QS"])), (Seat(1), plan(&[]))];
    let res = ScaleOfStyles::resolve(&state, &orders, &mut GameRng::seed_from_u64(2));
    assert!(res.revealed.is_empty(), "a plan is secret (§3.4)");
    let public = serde_json::to_string(&ScaleOfStyles::pools(&res.state, Seat(0))).unwrap();
    assert!(!public.contains("KS"), "{public}");
    for e in &res.events {
        assert!(!e.to_string().contains("KS"), "{e}");
    }
    let private = ScaleOfStyles::private(&res.state, Seat(0));
    assert_eq!(
        private.deck[..2],
        ["KS".parse().unwrap(), "QS".parse().unwrap()]
    );
}

#[test]
fn a_hidden_strip_is_told_to_its_owner_alone() {
    let event = Event::StrippedUnseen {
        player: events::PlayerRef {
            id: PlayerId(uuid::Uuid::nil()),
            name: "A".into(),
        },
        seat: Seat(1),
        cards: vec!["KS".parse().unwrap()],
    };
    assert_eq!(event.audience(), crate::rules::Audience::Only(Seat(1)));
    assert_eq!(Event::RoundBegan { round: 4 }.opens_round(), Some(4));
}

#[test]
fn a_window_1_duel_leaves_each_unasked_round_to_its_own_resolution() {
    // With window=1 nobody is asked to play (R2, Ruling 30): the start and every resolution
    // stop at the play step, which is `unasked`, so that the host resolves it with no orders
    // and publishes each round on its own. Such a resolution plays exactly one round.
    for seed in 0..20 {
        let settings = ScaleOfStyles::parse_settings(
            json!({"window": 1, "deck_order": "shuffled", "seed": seed}),
        )
        .unwrap();
        let mut state =
            ScaleOfStyles::start(&settings, &entrants(), &mut GameRng::seed_from_u64(seed))
                .unwrap();
        for step in 0u64.. {
            if state.end.is_some() {
                assert!(!ScaleOfStyles::unasked(&state));
                break;
            }
            let owes = ScaleOfStyles::owes(&state);
            let unasked = ScaleOfStyles::unasked(&state);
            assert_eq!(unasked, state.step == Step::Play, "seed {seed}");
            assert_eq!(unasked, owes.is_empty(), "seed {seed}");
            let orders: Vec<(Seat, Order)> = owes
                .into_iter()
                .map(|s| (s, orders::default_order(&state, s).unwrap()))
                .collect();
            let res = ScaleOfStyles::resolve(&state, &orders, &mut GameRng::seed_from_u64(step));
            if unasked {
                let played = res
                    .events
                    .iter()
                    .filter(|e| matches!(e, Event::Played { chosen: false, .. }))
                    .count();
                assert_eq!(played, 2, "seed {seed}: one round, both top cards");
                let began = res.events.iter().filter_map(|e| e.opens_round()).count();
                assert!(began <= 1, "seed {seed}: at most the next round opens");
            }
            state = res.state;
        }
    }
}

/// Plays the rulings' defaults (Ruling 24) from `state` until round `round`'s `play` step
/// opens, or the match ends.
fn played_to(mut state: State, round: u32) -> State {
    let mut step = 0;
    while state.end.is_none() && !(state.round >= round && state.step == Step::Play) {
        let orders: Vec<(Seat, Order)> = ScaleOfStyles::owes(&state)
            .into_iter()
            .map(|s| (s, orders::default_order(&state, s).unwrap()))
            .collect();
        step += 1;
        state = ScaleOfStyles::resolve(&state, &orders, &mut GameRng::seed_from_u64(step)).state;
    }
    state
}

/// Forking (docs/fairness.md): a position read as a setup starts with every public value of §3.4 as it
/// was, and each deck holding the same cards in a new order (`fork.rs`).
#[test]
fn a_forked_position_keeps_every_public_value_and_shuffles_each_deck_again() {
    for variant in [json!({}), json!({"end": "stamina", "window": 2})] {
        let mut settings = variant.clone();
        settings["seed"] = json!(5);
        settings["dice"] = json!([1, 2, 3, 4, 5, 6, 7, 8]);
        let settings = ScaleOfStyles::parse_settings(settings).unwrap();
        let mut seated = entrants();
        seated[0].join = Join {
            level: 3,
            xp: 7,
            stamina: 15,
            combat_dice: [6, 6],
        };
        let start = ScaleOfStyles::start(&settings, &seated, &mut GameRng::seed_from_u64(3));
        let state = played_to(start.unwrap(), 4);
        assert_eq!((state.round, state.end.as_ref()), (4, None), "{variant}");
        let forked = ScaleOfStyles::fork_settings(&state, &settings).unwrap();
        assert_eq!(
            (forked.seed, &forked.dice),
            (None, &None),
            "published: dropped"
        );
        assert_eq!(forked.rules, settings.rules);
        // The new duel's entrants join with the defaults: the setup's values win.
        let again =
            ScaleOfStyles::start(&forked, &entrants(), &mut GameRng::seed_from_u64(11)).unwrap();
        assert_eq!((again.round, &again.step), (4, &Step::Play));
        for seat in [Seat(0), Seat(1)] {
            assert_eq!(
                ScaleOfStyles::pools(&again, seat),
                ScaleOfStyles::pools(&state, seat),
                "{variant}"
            );
            let (was, is) = (&state.fighters[seat.0], &again.fighters[seat.0]);
            assert_eq!((is.stamina, is.wounds), (was.stamina, was.wounds));
            let sorted = |deck: &[Card]| {
                let mut deck = deck.to_vec();
                deck.sort();
                deck
            };
            assert_eq!(sorted(&is.deck), sorted(&was.deck), "the same cards");
            assert_ne!(is.deck, was.deck, "in a new order");
        }
        assert!(
            (state.fighters[1].wounds > 0) == (variant["end"] == "stamina"),
            "the stamina duel carries wounds over: {variant}"
        );
    }
}

#[test]
fn a_finished_match_or_a_hidden_strip_cannot_be_forked() {
    let state = played_to(started(json!({"deck_order": "shuffled"})), 3);
    let settings = Settings::default();
    let over = ScaleOfStyles::kick(&state, Seat(0)).unwrap().state;
    assert_eq!(
        ScaleOfStyles::fork_settings(&over, &settings),
        Err(crate::rules::ForkRefusal::Finished { round: 3 })
    );
    let hidden = ScaleOfStyles::parse_settings(
        json!({"deck_order": "shuffled", "stripped_cards": "hidden"}),
    )
    .unwrap();
    let state = ScaleOfStyles::start(&hidden, &entrants(), &mut GameRng::seed_from_u64(9));
    let state = played_to(state.unwrap(), 8);
    assert!(
        state
            .fighters
            .iter()
            .any(|f| f.discard.iter().any(|d| d.stripped))
    );
    assert!(matches!(
        ScaleOfStyles::fork_settings(&state, &hidden),
        Err(crate::rules::ForkRefusal::NotASetup { .. })
    ));
}
