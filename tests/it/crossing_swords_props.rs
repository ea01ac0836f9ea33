//! Property tests of the Crossing Swords adjudicator: random legal games of 2-16 players
//! under random combinations of the variant keys (§3.1), with random kicks by the host, driven
//! through the `Game` trait, checked against the rulings' invariants (§2.4, adapted per variant
//! and with a kicked player's HP counters leaving the game).

use herald::rules::crossing_swords::rulebook::{
    AssailCap, FocusAssail, HaltCycle, HealCap, MissingMove, Overkill, TauntSnapshot, Tiebreak,
};
use herald::rules::crossing_swords::{
    CrossingSwords, Event, Join, Move, OrderBody, Rulebook, Settings, Setup, SetupPlayer, State,
    default_order,
};
use herald::rules::{Entrant, Game, GameRng, PlayerId, Seat};
use proptest::prelude::*;
use rand_chacha::rand_core::SeedableRng;
use uuid::Uuid;

/// One random game: the players, the host's settings and a stream of choices.
#[derive(Clone, Debug)]
struct Scenario {
    players: usize,
    settings: Settings,
    choices: Vec<(u8, u8)>,
    /// Per turn: whether the host kicks someone (0: before the orders, 1: after some are in,
    /// otherwise not) and whom (an index into the living).
    kicks: Vec<(u8, u8)>,
}

fn rulebook() -> impl Strategy<Value = Rulebook> {
    let missing = prop_oneof![
        Just(MissingMove::Pass),
        Just(MissingMove::Dodge),
        Just(MissingMove::Block),
        Just(MissingMove::Riposte),
        Just(MissingMove::Focus),
        Just(MissingMove::Mend),
    ];
    (
        (
            missing,
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        ),
        (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
        (
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        ),
    )
        .prop_map(
            |((missing_move, a, b, c, d), (e, f, g, h), (i, j, k, l, m))| Rulebook {
                missing_move,
                self_attacks: a,
                halt_cycle: if b {
                    HaltCycle::AllFire
                } else {
                    HaltCycle::Void
                },
                halt_keeps_taunt_penalty: c,
                focus_assail: if d {
                    FocusAssail::Any
                } else {
                    FocusAssail::Declared
                },
                taunt_before_focus: e,
                assail_self: f,
                assail_targets_all: g,
                assail_cap: if h {
                    AssailCap::Return
                } else {
                    AssailCap::Discard
                },
                taunt_snapshot: if i {
                    TauntSnapshot::PostDamage
                } else {
                    TauntSnapshot::Start
                },
                heal_cap: if j { HealCap::Twenty } else { HealCap::None },
                overkill: if k {
                    Overkill::FullCredit
                } else {
                    Overkill::Proportional
                },
                convert_at_cap: l,
                tiebreak: if m {
                    Tiebreak::SurvivorFirst
                } else {
                    Tiebreak::Share
                },
            },
        )
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (2usize..=16).prop_flat_map(|n| {
        let entry = (
            1i64..=25,
            0i64..=12,
            proptest::option::of(0..n),
            proptest::option::of(0..n),
        )
            .prop_map(|(hp, vp, focus, dodge)| SetupPlayer {
                hp: Some(hp),
                vp: Some(vp),
                alive: Some(true),
                focus,
                dodge,
            });
        (
            proptest::option::of(proptest::collection::vec(entry, n)),
            proptest::option::of(1u32..=30),
            proptest::collection::vec(any::<(u8, u8)>(), 16 * 30),
            prop_oneof![Just(Rulebook::default()), rulebook()],
            proptest::collection::vec((0u8..8, any::<u8>()), 31),
        )
            .prop_map(move |(setup, max_rounds, choices, rules, kicks)| Scenario {
                players: n,
                settings: Settings {
                    max_players: 16,
                    max_rounds,
                    setup: setup.map(|players| Setup {
                        round: None,
                        players: Some(players),
                    }),
                    rules,
                },
                choices,
                kicks,
            })
    })
}

fn entrants(n: usize) -> Vec<Entrant<Join>> {
    (0..n)
        .map(|i| Entrant {
            id: PlayerId(Uuid::from_u128(0x00C0_FFEE_0000 + i as u128)),
            name: format!("P{i}"),
            join: Join,
        })
        .collect()
}

fn total(state: &State, n: usize) -> u64 {
    (0..n)
        .map(|s| {
            let p = CrossingSwords::pools(state, Seat(s));
            u64::from(p.hp) + u64::from(p.vp)
        })
        .sum()
}

/// What the turn's log says entered the game from the supply and left it (§2.4, adapted per
/// variant): heals and Mend VP enter (under `heal_cap` only what was healed), the Assail
/// excess leaves under `assail_cap = discard` (under `return` it goes back to HP, so the sum
/// keeps it), and under `overkill = full_credit` the credit beyond the victim's HP enters.
fn supply(rules: &Rulebook, events: &[Event]) -> Result<(u64, u64), TestCaseError> {
    let mut added = 0u64;
    let mut discarded = 0u64;
    for e in events {
        match e {
            Event::Mended { hp, vp, capped, .. } => {
                prop_assert!(!capped || rules.heal_cap == HealCap::Twenty);
                added += u64::from(*hp) + u64::from(*vp);
            }
            Event::AssailCapped {
                counters,
                credited,
                discarded: d,
                ..
            } => {
                prop_assert_eq!(rules.assail_cap, AssailCap::Discard);
                prop_assert_eq!(*credited, 8);
                prop_assert_eq!(counters - credited, *d);
                discarded += u64::from(*d);
            }
            Event::AssailReturned {
                counters,
                credited,
                returned,
                ..
            } => {
                prop_assert_eq!(rules.assail_cap, AssailCap::Return);
                prop_assert_eq!(*credited, 8);
                let back: u32 = returned.iter().map(|r| r.counters).sum();
                prop_assert_eq!(counters - credited, back);
            }
            Event::CountersMoved {
                hp, damage, shares, ..
            } => {
                let credited: u32 = shares.iter().map(|s| s.counters).sum();
                let lost = (*hp).min(*damage);
                match rules.overkill {
                    Overkill::Proportional => prop_assert_eq!(credited, lost),
                    Overkill::FullCredit => {
                        prop_assert_eq!(credited, *damage);
                        added += u64::from(credited - lost);
                    }
                }
            }
            Event::Defaulted { .. } => {
                prop_assert!(rules.missing_move != MissingMove::Pass);
            }
            // A kick's line is logged with the turn, but its counters left at the kick.
            Event::Kicked { .. }
            | Event::Passed { .. }
            | Event::HaltResolved { .. }
            | Event::ActionNegated { .. }
            | Event::HaltDamage { .. }
            | Event::CardDamage { .. }
            | Event::BlockReflection { .. }
            | Event::RiposteCounter { .. }
            | Event::LungeBonus { .. }
            | Event::TauntSteal { .. }
            | Event::Died { .. }
            | Event::Converted { .. }
            | Event::ConvertedAtCap { .. }
            | Event::GameOver { .. } => {}
        }
    }
    Ok((added, discarded))
}

/// The host kicks the `pick`-th living player: the counters change only by the kicked
/// player's HP (a lone survivor's conversion moves counters without changing the sum), he
/// keeps his VP and is out, and the game ends exactly when one is left (Ruling 31).
fn kick(state: &State, n: usize, pick: u8) -> Result<(State, Seat), TestCaseError> {
    let living: Vec<Seat> = CrossingSwords::owes(state);
    let seat = living[usize::from(pick) % living.len()];
    let before = total(state, n);
    let kept_vp = CrossingSwords::pools(state, seat).vp;
    let act = CrossingSwords::kick(state, seat)
        .map_err(|e| TestCaseError::fail(format!("a kick of a living player was refused: {e}")))?;
    let next = act.state;
    let removed: u64 = next
        .host_log
        .iter()
        .chain(&act.log)
        .filter_map(|e| match e {
            Event::Kicked { player, hp, .. } if player.id == state.players[seat.0].id => {
                Some(u64::from(*hp))
            }
            _ => None,
        })
        .sum();
    prop_assert_eq!(removed, u64::from(CrossingSwords::pools(state, seat).hp));
    prop_assert_eq!(
        total(&next, n) + removed,
        before,
        "§2.4 with the kick's term"
    );
    let p = CrossingSwords::pools(&next, seat);
    prop_assert_eq!((p.hp, p.vp), (0, kept_vp), "Ruling 30: out, keeps his VP");
    prop_assert!(!CrossingSwords::alive(&next, seat));
    prop_assert!(!CrossingSwords::owes(&next).contains(&seat));
    prop_assert!(
        CrossingSwords::kick(&next, seat).is_err(),
        "kicked once only"
    );
    let finished = CrossingSwords::outcome(&next).is_some();
    prop_assert_eq!(finished, living.len() == 2, "one left ends the game");
    if finished {
        prop_assert!(next.host_log.is_empty(), "a finished game logs at once");
        let best = (0..n)
            .map(|s| CrossingSwords::pools(&next, Seat(s)).vp)
            .max();
        for w in CrossingSwords::outcome(&next).unwrap().winners {
            let s = next.seat_of(w).unwrap();
            prop_assert_eq!(Some(CrossingSwords::pools(&next, s).vp), best);
        }
    }
    Ok((next, seat))
}

fn fingerprint(res: &herald::rules::Resolution<CrossingSwords>) -> String {
    serde_json::to_string(&(&res.state, &res.revealed, &res.events)).unwrap()
}

fn play(sc: &Scenario) -> Result<(), TestCaseError> {
    let n = sc.players;
    let mut rng = GameRng::seed_from_u64(7);
    let settings = &sc.settings;
    prop_assert!(CrossingSwords::check_settings(settings).is_ok());
    let mut state = CrossingSwords::start(settings, &entrants(n), &mut rng)
        .map_err(|e| TestCaseError::fail(format!("start refused: {e}")))?;
    let mut choices = sc.choices.iter().copied();
    let mut turns = 0u32;
    let mut kicks = sc.kicks.iter().copied();
    while CrossingSwords::outcome(&state).is_none() {
        let (when, pick) = kicks.next().unwrap_or((7, 0));
        if when == 0 {
            state = kick(&state, n, pick)?.0;
            if CrossingSwords::outcome(&state).is_some() {
                break;
            }
        }
        let owed = CrossingSwords::owes(&state);
        let mut orders = Vec::new();
        for &seat in &owed {
            let prompt = CrossingSwords::prompt(&state, seat).expect("a living seat is prompted");
            let Some((m, t)) = choices.next() else {
                return Ok(());
            };
            // Now and then a player sends nothing (Ruling 2, `missing_move`).
            if m % 13 == 12 {
                continue;
            }
            let choice = &prompt.moves[usize::from(m) % prompt.moves.len()];
            prop_assert!(
                !choice.targets.is_empty(),
                "Ruling 3: every move has a target"
            );
            let target_seat = choice.targets[usize::from(t) % choice.targets.len()];
            let target = &prompt.players[target_seat.0];
            let body = OrderBody {
                mv: choice.mv.to_string(),
                target: target.id.to_string(),
            };
            let order = CrossingSwords::check_order(&state, seat, body)
                .map_err(|e| TestCaseError::fail(format!("a prompted order was refused: {e}")))?;
            prop_assert_eq!(order.mv, choice.mv);
            orders.push((seat, order));
        }
        // A kick while the orders are in: the kicked player's order is dropped, and an order
        // against him passes at R0 (Ruling 30), unrevealed.
        let mut revealed = orders.clone();
        if when == 1 {
            let (next, kicked) = kick(&state, n, pick)?;
            state = next;
            if CrossingSwords::outcome(&state).is_some() {
                break;
            }
            let id = state.players[kicked.0].id;
            orders.retain(|(s, _)| *s != kicked);
            revealed = orders
                .iter()
                .filter(|(_, o)| o.target != id)
                .cloned()
                .collect();
        }
        let owed = CrossingSwords::owes(&state);
        let before = total(&state, n);
        let dead_vp: Vec<(usize, u32)> = (0..n)
            .filter(|&s| !CrossingSwords::alive(&state, Seat(s)))
            .map(|s| (s, CrossingSwords::pools(&state, Seat(s)).vp))
            .collect();

        let res = CrossingSwords::resolve(&state, &orders, &mut rng);

        // Independent of the order of the `orders` slice.
        let mut reversed = orders.clone();
        reversed.reverse();
        let mut rotated = orders.clone();
        rotated.rotate_left(orders.len() / 2);
        for other in [reversed, rotated] {
            let again = CrossingSwords::resolve(&state, &other, &mut rng);
            prop_assert_eq!(fingerprint(&res), fingerprint(&again));
        }

        // Every order is revealed, in seat order, with the default move of each seat that
        // sent none (Ruling 2, `missing_move`).
        let mut expected = revealed;
        for &seat in &owed {
            if !orders.iter().any(|(s, _)| *s == seat)
                && let Some(order) = default_order(&state, seat)
            {
                expected.push((seat, order));
            }
        }
        expected.sort_by_key(|(s, _)| *s);
        prop_assert_eq!(&res.revealed, &expected);
        prop_assert!(
            res.state.host_log.is_empty(),
            "the kick's line is logged with the turn"
        );
        prop_assert_eq!(
            res.events.iter().any(|e| matches!(e, Event::Kicked { .. })),
            when <= 1,
            "the turn's log leads with the kick"
        );

        // §2.4: counters are conserved but for heals, Mend VP and the Assail excess (and the
        // variants' own supply, see `supply`).
        let (added, discarded) = supply(&state.rules, &res.events)?;
        let after = total(&res.state, n);
        prop_assert_eq!(after + discarded, before + added, "§2.4 invariant");

        // The dead keep their VP and stay at 0 HP (Ruling 30); the living have HP (R12).
        for (s, vp) in dead_vp {
            let p = CrossingSwords::pools(&res.state, Seat(s));
            prop_assert_eq!((p.hp, p.vp), (0, vp));
        }
        let finished = CrossingSwords::outcome(&res.state).is_some();
        let living: Vec<usize> = (0..n)
            .filter(|&s| CrossingSwords::alive(&res.state, Seat(s)))
            .collect();
        // R13: the game ends exactly with 0 or 1 survivors or at max_rounds.
        let round = CrossingSwords::round(&state);
        let at_cap = settings.max_rounds == Some(round);
        let should_end = living.len() <= 1 || at_cap;
        // Converting survivors (G6; `convert_at_cap` at the round cap, Ruling 31) leaves them
        // alive at 0 HP; every other living player has HP.
        let converted = finished && (living.len() == 1 || (at_cap && state.rules.convert_at_cap));
        for &s in &living {
            let hp = CrossingSwords::pools(&res.state, Seat(s)).hp;
            prop_assert!(hp > 0 || converted, "a living player has HP");
            prop_assert!(hp == 0 || !converted, "a survivor converted all his HP");
        }
        prop_assert_eq!(finished, should_end);
        if finished {
            let outcome = CrossingSwords::outcome(&res.state).unwrap();
            let best = (0..n)
                .map(|s| CrossingSwords::pools(&res.state, Seat(s)).vp)
                .max()
                .unwrap();
            let tied: Vec<usize> = (0..n)
                .filter(|&s| CrossingSwords::pools(&res.state, Seat(s)).vp == best)
                .collect();
            let tied_alive: Vec<usize> = tied
                .iter()
                .copied()
                .filter(|&s| CrossingSwords::alive(&res.state, Seat(s)))
                .collect();
            // Ruling 32: the tied share the win; `survivor_first` keeps the living among them.
            let want = match state.rules.tiebreak {
                Tiebreak::SurvivorFirst if !tied_alive.is_empty() => tied_alive,
                Tiebreak::SurvivorFirst | Tiebreak::Share => tied,
            };
            let got: Vec<usize> = outcome
                .winners
                .iter()
                .map(|w| (0..n).find(|&s| entrants(n)[s].id == *w).unwrap())
                .collect();
            prop_assert_eq!(got, want);
            prop_assert!(CrossingSwords::owes(&res.state).is_empty());
        } else {
            prop_assert_eq!(CrossingSwords::round(&res.state), round + 1);
        }
        state = res.state;
        turns += 1;
        prop_assert!(turns <= 30 || settings.max_rounds.is_none());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_legal_games_conserve_counters_and_ignore_submission_order(sc in scenario()) {
        play(&sc)?;
    }
}

#[test]
fn every_move_name_parses_back_to_itself() {
    for mv in Move::ALL {
        assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
    }
}
