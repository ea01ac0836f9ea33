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
        player: state::PlayerRef {
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
fn a_window_1_shuffled_duel_plays_its_unasked_rounds_at_the_start_and_logs_them_later() {
    // With window=1 nobody is asked to play: the start runs to the first shift (or the end),
    // and those rounds' lines lead the next resolution's log.
    for seed in 0..20 {
        let settings = ScaleOfStyles::parse_settings(
            json!({"window": 1, "deck_order": "shuffled", "seed": seed}),
        )
        .unwrap();
        let state = ScaleOfStyles::start(&settings, &entrants(), &mut GameRng::seed_from_u64(seed))
            .unwrap();
        assert!(!state.carried_log.is_empty());
        match &state.step {
            Step::Shift(clash) => {
                let reactor = clash.reactor;
                let order = orders::default_order(&state, reactor).unwrap();
                let res = ScaleOfStyles::resolve(
                    &state,
                    &[(reactor, order)],
                    &mut GameRng::seed_from_u64(1),
                );
                assert_eq!(res.events[..state.carried_log.len()], state.carried_log[..]);
                assert!(res.state.carried_log.is_empty());
            }
            Step::Over => assert!(state.end.is_some()),
            Step::Plan | Step::Play => panic!("nobody is asked to play with window=1"),
        }
    }
}
