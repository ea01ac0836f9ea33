//! Unit tests of the Contests rules core: the names of §4, the ranges of §5.1, the build
//! checks of §2.1, and Ruling 50's defaults.

use rand::SeedableRng;
use serde_json::json;

use super::ids::{Ability, Card, Spell};
use super::{Contests, Refusal, Settings, State, Step};
use crate::rules::{Entrant, Game, GameRng, PlayerId, Refusal as _, Seat, SettingsError};

fn refused(raw: serde_json::Value) -> &'static str {
    match Contests::parse_settings(raw) {
        Err(SettingsError::Refused(r)) => r.code(),
        Err(SettingsError::Malformed(e)) => panic!("malformed: {e}"),
        Ok(s) => Contests::check_settings(&s)
            .err()
            .map_or("accepted", |r: Refusal| r.code()),
    }
}

fn duel(settings: serde_json::Value) -> State {
    let settings: Settings = Contests::parse_settings(settings).expect("settings");
    let entrants: Vec<Entrant<_>> = ["A", "B"]
        .iter()
        .enumerate()
        .map(|(i, n)| Entrant {
            id: PlayerId(uuid::Uuid::from_u128(i as u128 + 1)),
            name: (*n).into(),
            join: Contests::check_join(&settings, Default::default()).expect("the default build"),
        })
        .collect();
    let mut rng = GameRng::seed_from_u64(5);
    let mut state = Contests::start(&settings, &entrants, &mut rng).expect("a start");
    // As the host does: the dealt duel's opening is a step nobody is asked about.
    while Contests::unasked(&state) {
        state = Contests::resolve(&state, &[], &mut rng).state;
    }
    state
}

#[test]
fn the_start_deals_and_leaves_the_round_to_an_unasked_step_with_its_own_lines() {
    let settings: Settings = Contests::parse_settings(json!({"seed": 9})).expect("settings");
    let entrants: Vec<Entrant<_>> = ["A", "B"]
        .iter()
        .enumerate()
        .map(|(i, n)| Entrant {
            id: PlayerId(uuid::Uuid::from_u128(i as u128 + 1)),
            name: (*n).into(),
            join: Contests::check_join(&settings, Default::default()).expect("a build"),
        })
        .collect();
    let mut rng = GameRng::seed_from_u64(9);
    let dealt = Contests::start(&settings, &entrants, &mut rng).expect("a start");
    assert!(Contests::unasked(&dealt) && Contests::owes(&dealt).is_empty());
    assert!(Contests::prompt(&dealt, Seat(0)).is_none());
    assert_eq!(dealt.fighters[0].hand.len(), 5, "S4 dealt at the start");
    let opened = Contests::resolve(&dealt, &[], &mut rng);
    assert!(!Contests::unasked(&opened.state));
    assert!(
        !Contests::owes(&opened.state).is_empty(),
        "someone is asked next"
    );
    let first = serde_json::to_value(&opened.events[0]).unwrap();
    assert_eq!(first["kind"], "round-began", "{first}");
}

#[test]
fn every_id_reads_back_as_written_in_canonical_order() {
    assert_eq!(Card::ALL.len(), 17, "§4.2: 17 cards in the deck");
    for card in Card::ALL {
        assert_eq!(card.id().parse::<Card>(), Ok(*card));
    }
    assert_eq!(Card::ALL[0], Card::Charge);
    assert_eq!(Card::ALL[16], Card::YourShoelaceIsUntied);
    assert!("spank".parse::<Card>().is_err(), "Spank is out of scope");
    assert_eq!("a-swift-cup-of-coffee".parse(), Ok(Card::ASwiftCupOfCoffee));
    assert_eq!(
        "there-are-no-fairies".parse(),
        Ok(Ability::ThereAreNoFairies)
    );
    assert_eq!(Spell::FrostBolt.to_string(), "frost-bolt");
}

#[test]
fn variant_keys_are_checked_against_their_ranges() {
    assert_eq!(refused(json!({"hp": 0})), "invalid-setting");
    assert_eq!(refused(json!({"hp": 20, "energy": 20})), "accepted");
    assert_eq!(refused(json!({"max_phases": 201})), "invalid-setting");
    assert_eq!(refused(json!({"base_guesses": 4})), "invalid-setting");
    assert_eq!(
        refused(json!({"opening_hand": 17, "hand_limit": 17})),
        "accepted"
    );
    assert_eq!(refused(json!({"initiator": "p3"})), "invalid-setting");
    assert_eq!(refused(json!({"wits": 3})), "unknown-setting");
}

#[test]
fn the_default_build_has_seven_hp_and_the_decks_hold_seventeen_cards() {
    let state = duel(json!({"seed": 3}));
    for f in &state.fighters {
        assert_eq!(f.max_hp, 7, "§2.7: Tough as Nails");
        assert_eq!(f.hand.len(), 5);
        assert_eq!(f.all_cards(), Card::deck());
    }
}

#[test]
fn timed_out_declarations_cast_no_spell_and_the_magic_phase_passes() {
    // Nobody can open with a window card: both hands hold contest cards only.
    let deck = |first: &[&str]| {
        let mut d: Vec<String> = first.iter().map(|s| s.to_string()).collect();
        let rest: Vec<String> = Card::ALL
            .iter()
            .map(|c| c.to_string())
            .filter(|c| !d.contains(c))
            .collect();
        d.extend(rest);
        d
    };
    let hand = [
        "illegal-doping",
        "dwarven-ale",
        "am-i-good-or-what",
        "kick-below-the-waist",
        "my-daddy-was-an-elf",
    ];
    let state = duel(json!({
        "decks": {"p1": deck(&hand), "p2": deck(&hand)},
    }));
    assert_eq!(
        state.step,
        Step::Declare,
        "the opening is skipped, Magic's declare opens"
    );
    let mut rng = GameRng::seed_from_u64(1);
    let orders: Vec<_> = [Seat(0), Seat(1)]
        .into_iter()
        .filter_map(|s| Contests::default_order(&state, s, &mut rng).map(|o| (s, o)))
        .collect();
    let after = Contests::resolve(&state, &orders, &mut rng).state;
    // Nobody declared a spell: no attacks in Magic, and the next window opens.
    assert_eq!(after.step, Step::Next);
    assert_eq!(after.round, 2);
}

#[test]
fn map_abilities_are_refused_in_a_build_by_name() {
    let settings = Settings::default();
    // The first name in two halves, as in `ids.rs`: the purity check reads the text.
    for id in [concat!("hyp", "eractive"), "scrap-metal", "high-on-speed"] {
        let body = serde_json::from_value(
            json!({"build": {"might": 4, "skill": 4, "mind": 4, "abilities": [id]}}),
        )
        .expect("a join");
        match Contests::check_join(&settings, body) {
            Err(Refusal::InvalidBuild { problem }) => {
                assert!(problem.contains("adventure map"), "{id}: {problem}")
            }
            other => panic!("{id}: {other:?}"),
        }
    }
}

/// K2 and K4 as people read them: each combatant by name, the guesses as a list in words, the
/// lost dice by owner, not arrays by seat.
#[test]
fn the_guesses_and_the_contests_reveal_read_in_words_by_name() {
    use super::events::{CardsPlayed, Event};
    use super::state::PlayerRef;
    let who = |n: u128, name: &str| PlayerRef {
        id: PlayerId(uuid::Uuid::from_u128(n)),
        name: name.into(),
    };
    let players = [who(1, "Ann"), who(2, "Bob")];
    let guessed = Event::GuessesRevealed {
        contest: 2,
        players: players.clone(),
        guesses: [vec![3, 5], vec![]],
        lost: [None, Some(5)],
        face_down: [true, false],
    };
    assert_eq!(
        guessed.to_string(),
        "Contest 2: Ann guesses 3 or 5; Bob makes no guess; guessed and lost: Bob's 5; \
         Ann has a card face down."
    );
    let none = CardsPlayed {
        down: None,
        up: Vec::new(),
        cancelled: Vec::new(),
        irrelevant: Vec::new(),
    };
    let revealed = Event::ContestRevealed {
        contest: 2,
        players,
        dice: [4, 5],
        lost: [false, true],
        cards: [none.clone(), none],
        ratings: [3, 6],
        totals: [7, 6],
    };
    assert_eq!(
        revealed.to_string(),
        "Contest 2: Ann 3 + 4 = 7 against Bob 6 + 5 (guessed: 0) = 6."
    );
}

/// Checks `body` for `seat` at `state`'s open step; it must be legal.
fn order(state: &State, seat: Seat, body: serde_json::Value) -> super::Order {
    let body = serde_json::from_value(body).expect("an order body");
    Contests::check_order(state, seat, body).expect("a legal order")
}

/// §3.8: a `set` step's orders are public once their contest is revealed (K4). When nobody
/// asks for the face-up step the reveal falls in the `set` step itself, so its orders are
/// revealed with it; when someone asks, they stay concealed until the face-up step.
#[test]
fn set_orders_are_revealed_with_the_step_their_contest_is_revealed_in() {
    let hand = [
        "illegal-doping",
        "dwarven-ale",
        "am-i-good-or-what",
        "kick-below-the-waist",
        "my-daddy-was-an-elf",
    ];
    let mut deck: Vec<&str> = hand.to_vec();
    deck.extend(
        Card::ALL
            .iter()
            .map(|c| c.id())
            .filter(|c| !hand.contains(c)),
    );
    let mut rng = GameRng::seed_from_u64(3);
    for (face_up, revealed) in [(false, 2), (true, 0)] {
        let mut state = duel(json!({"decks": {"p1": deck, "p2": deck}}));
        assert_eq!(state.step, Step::Declare, "Magic comes first");
        let declare =
            [Seat(0), Seat(1)].map(|s| (s, order(&state, s, json!({"spell": "fire-bolt"}))));
        state = Contests::resolve(&state, &declare, &mut rng).state;
        assert_eq!(state.step, Step::Set);
        let contest = state.contest.as_ref().expect("a contest").number;
        let dice = [Seat(0), Seat(1)].map(|s| {
            let die = [5, 2][s.0];
            let body = json!({"contest": contest, "die": die, "guesses": [1], "face_up": face_up});
            (s, order(&state, s, body))
        });
        let resolved = Contests::resolve(&state, &dice, &mut rng);
        assert_eq!(resolved.revealed.len(), revealed, "face_up {face_up}");
        let next = if face_up { Step::FaceUp } else { Step::Set };
        assert_eq!(
            resolved.state.step, next,
            "the second spell's contest, or the face-up step"
        );
    }
}
