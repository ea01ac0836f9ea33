//! The answers to the seven steps of §3.7: the body as sent, the checked order, the checks
//! (the rules' refusals), the defaults of Ruling 50 and the order in words.

use serde::Deserialize;

pub use super::answers::{Action, Declaration, Order};
use super::ids::{Ability, Card, Phase, Spell, Wish};
use super::legal;
use super::refusal::Refusal;
use super::state::{State, Step};
use crate::rules::Seat;

/// A window action as sent (W0's table): `{"card": ...}` or `{"ability": ...}` with the
/// fields the action takes; `{"decline": true}` is none.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionBody {
    pub card: Option<String>,
    pub ability: Option<String>,
    pub discard: Option<String>,
    pub phase: Option<String>,
    pub to: Option<String>,
    pub decline: Option<bool>,
}

/// An order as sent, without `round` and `step` (which the host checks): the fields of
/// every step, each refused where its step does not take it (§3.7's order shapes).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderBody {
    pub decline: Option<bool>,
    pub wish: Option<String>,
    pub action: Option<ActionBody>,
    pub spell: Option<String>,
    pub rapid_shot: Option<bool>,
    pub lucky_punk: Option<bool>,
    pub berserk: Option<bool>,
    pub fury: Option<i64>,
    pub art_of_killing: Option<bool>,
    pub contest: Option<u32>,
    pub tie: Option<u32>,
    pub die: Option<i64>,
    pub guesses: Option<Vec<i64>>,
    pub down: Option<String>,
    pub face_up: Option<bool>,
    pub cards: Option<Vec<String>>,
}

fn wrong(step: Step) -> Refusal {
    let expected = match step {
        Step::Opening => "{\"action\": {...}} or {\"decline\": true}",
        Step::Next => "{\"wish\": ..., \"action\": {...} or null}",
        Step::Declare => {
            "the phase's declarations (spell; rapid_shot, lucky_punk; berserk, fury, art_of_killing) or {\"decline\": true}"
        }
        Step::Set => "{\"contest\", \"die\", \"guesses\", \"down\", \"face_up\"}",
        Step::FaceUp => "{\"contest\", \"cards\": [...]} or {\"decline\": true}",
        Step::Tie => "{\"contest\", \"tie\", \"die\", \"guesses\"}",
        Step::Discard => "{\"contest\", \"cards\": [two cards]}",
        Step::Over => "nothing",
    };
    Refusal::WrongAnswerForStep {
        step: step.name(),
        expected,
    }
}

fn parse<T: std::str::FromStr>(what: &'static str, got: &str) -> Result<T, Refusal> {
    got.parse().map_err(|_| Refusal::UnknownId {
        what,
        got: got.to_owned(),
    })
}

fn in_hand(state: &State, seat: Seat, code: &str) -> Result<Card, Refusal> {
    let card: Card = parse("combat card", code)?;
    match state.fighters[seat.0].hand.contains(&card) {
        true => Ok(card),
        false => Err(Refusal::NotInHand {
            card: card.to_string(),
        }),
    }
}

/// Distinct cards of the hand.
fn hand_cards(state: &State, seat: Seat, codes: &[String]) -> Result<Vec<Card>, Refusal> {
    let mut cards = Vec::new();
    for code in codes {
        let card = in_hand(state, seat, code)?;
        if cards.contains(&card) {
            return Err(Refusal::DuplicateCard {
                card: card.to_string(),
            });
        }
        cards.push(card);
    }
    Ok(cards)
}

/// Reads an action's shape (known ids, the fields the action takes); legality is
/// [`legal::action_problem`].
pub fn read_action(
    state: Option<(&State, Seat)>,
    body: &ActionBody,
) -> Result<Option<Action>, Refusal> {
    let bad = || wrong(Step::Next);
    if body.decline == Some(true) {
        return match (&body.card, &body.ability) {
            (None, None) => Ok(None),
            _ => Err(bad()),
        };
    }
    let phase = |body: &ActionBody| -> Result<Phase, Refusal> {
        parse("phase", body.phase.as_deref().ok_or_else(bad)?)
    };
    match (&body.card, &body.ability) {
        (Some(code), None) => {
            let card: Card = parse("combat card", code)?;
            if body.discard.is_some() || body.to.is_some() {
                return Err(bad());
            }
            if body.phase.is_some() && card != Card::YourShoelaceIsUntied {
                return Err(bad());
            }
            let action = match card {
                Card::Charge => Action::Charge,
                Card::CaughtWithPantsDown => Action::CaughtWithPantsDown,
                Card::YourShoelaceIsUntied => Action::Shoelace {
                    phase: phase(body)?,
                },
                Card::NoWay => Action::NoWay,
                Card::DisArm => Action::DisArm,
                Card::NowYouSeeMe => Action::NowYouSeeMe,
                other => {
                    return Err(Refusal::NotNow {
                        what: other.to_string(),
                        why: "it is played in a contest, not in a window".into(),
                    });
                }
            };
            Ok(Some(action))
        }
        (None, Some(code)) => {
            let ability: Ability = parse("ability", code)?;
            let action = match ability {
                Ability::Backstab => {
                    let discard = body.discard.as_deref().ok_or_else(bad)?;
                    let discard = match state {
                        Some((state, seat)) => in_hand(state, seat, discard)?,
                        None => parse("combat card", discard)?,
                    };
                    Action::Backstab {
                        discard,
                        phase: phase(body)?,
                    }
                }
                Ability::TrickyTeleport => match body.to.as_deref() {
                    Some("magic") => Action::TeleportToMagic,
                    Some("escape") => Action::TeleportAway,
                    Some(other) => {
                        return Err(Refusal::UnknownId {
                            what: "teleport destination (magic or escape)",
                            got: other.to_owned(),
                        });
                    }
                    None => return Err(bad()),
                },
                Ability::RunLikeHell => Action::RunLikeHell,
                Ability::PointBlankShot => Action::PointBlankShot,
                other => {
                    return Err(Refusal::NotNow {
                        what: other.to_string(),
                        why: "it is not a window action".into(),
                    });
                }
            };
            let extra = match action {
                Action::Backstab { .. } => body.to.is_some(),
                Action::TeleportToMagic | Action::TeleportAway => {
                    body.discard.is_some() || body.phase.is_some()
                }
                _ => body.discard.is_some() || body.phase.is_some() || body.to.is_some(),
            };
            match extra {
                true => Err(bad()),
                false => Ok(Some(action)),
            }
        }
        _ => Err(bad()),
    }
}

/// The number of the open contest, as an order must name it (§3.1).
fn check_contest(state: &State, body: &OrderBody, tie: Option<u32>) -> Result<u32, Refusal> {
    let number = state
        .contest
        .as_ref()
        .map(|c| c.number)
        .or(state.discard.as_ref().map(|d| d.contest))
        .unwrap_or(0);
    let expected = match tie {
        Some(t) => format!("contest {number}, tie-break {t}"),
        None => format!("contest {number}"),
    };
    match body.contest {
        None => return Err(Refusal::MissingContest),
        Some(k) if k != number => return Err(Refusal::WrongContest { expected }),
        Some(_) => {}
    }
    match (tie, body.tie) {
        (Some(t), Some(got)) if t != got => Err(Refusal::WrongContest { expected }),
        (Some(_), None) => Err(Refusal::MissingContest),
        (None, Some(_)) => Err(wrong(state.step)),
        _ => Ok(number),
    }
}

/// K1, K6: a die 1-6 and up to `allowed` different guesses 1-6.
fn die_and_guesses(body: &OrderBody, allowed: u32) -> Result<(u8, Vec<u8>), Refusal> {
    let die = match body.die {
        None => return Err(Refusal::MissingDie),
        Some(d @ 1..=6) => d as u8,
        Some(got) => return Err(Refusal::InvalidDie { got }),
    };
    let raw = body.guesses.clone().unwrap_or_default();
    let mut guesses: Vec<u8> = Vec::new();
    for g in &raw {
        if !(1..=6).contains(g) {
            return Err(Refusal::InvalidGuess { got: *g });
        }
        if guesses.contains(&(*g as u8)) {
            return Err(Refusal::DuplicateGuess { got: *g });
        }
        guesses.push(*g as u8);
    }
    if guesses.len() > allowed as usize {
        return Err(Refusal::TooManyGuesses {
            got: guesses.len(),
            allowed,
        });
    }
    Ok((die, guesses))
}

/// Judges `seat`'s answer to the open step (§3.7). A refused order changes nothing: this
/// only reads the state.
pub fn check(state: &State, seat: Seat, body: OrderBody) -> Result<Order, Refusal> {
    if state.end.is_some() {
        return Err(Refusal::GameOver);
    }
    if !legal::owed(state).contains(&seat) {
        return Err(Refusal::NothingOwed);
    }
    let step = state.step;
    let declined = body.decline == Some(true);
    let others = |allowed: &[&str]| -> bool {
        let given = [
            ("decline", body.decline.is_some()),
            ("wish", body.wish.is_some()),
            ("action", body.action.is_some()),
            ("spell", body.spell.is_some()),
            ("rapid_shot", body.rapid_shot.is_some()),
            ("lucky_punk", body.lucky_punk.is_some()),
            ("berserk", body.berserk.is_some()),
            ("fury", body.fury.is_some()),
            ("art_of_killing", body.art_of_killing.is_some()),
            ("contest", body.contest.is_some()),
            ("tie", body.tie.is_some()),
            ("die", body.die.is_some()),
            ("guesses", body.guesses.is_some()),
            ("down", body.down.is_some()),
            ("face_up", body.face_up.is_some()),
            ("cards", body.cards.is_some()),
        ];
        given.iter().any(|(k, g)| *g && !allowed.contains(k))
    };
    match step {
        Step::Opening => {
            if others(&["decline", "action"]) || (declined && body.action.is_some()) {
                return Err(wrong(step));
            }
            let action = match (&body.action, declined) {
                (Some(a), false) => read_action(Some((state, seat)), a)?,
                _ => None,
            };
            if let Some(a) = &action
                && let Some(problem) = legal::action_problem(state, seat, a)
            {
                return Err(problem);
            }
            Ok(Order::Window { wish: None, action })
        }
        Step::Next => {
            if others(&["wish", "action"]) {
                return Err(wrong(step));
            }
            let wish: Wish = parse("wish", body.wish.as_deref().ok_or(Refusal::MissingWish)?)?;
            let allowed = legal::wishes(state, seat);
            if !allowed.contains(&wish) {
                let monster_end = wish == Wish::End && state.fighters[seat.0].build.monster;
                if monster_end && legal::after(state) == Some(Phase::Melee) {
                    return Err(Refusal::Monster { what: "end combat" });
                }
                let words: Vec<&str> = allowed.iter().map(|w| w.id()).collect();
                return Err(Refusal::InvalidWish {
                    wish: wish.to_string(),
                    allowed: words.join(", "),
                });
            }
            let action = match &body.action {
                Some(a) => read_action(Some((state, seat)), a)?,
                None => None,
            };
            if let Some(a) = &action
                && let Some(problem) = legal::action_problem(state, seat, a)
            {
                return Err(problem);
            }
            Ok(Order::Window {
                wish: Some(wish),
                action,
            })
        }
        Step::Declare => {
            if others(&[
                "decline",
                "spell",
                "rapid_shot",
                "lucky_punk",
                "berserk",
                "fury",
                "art_of_killing",
            ]) {
                return Err(wrong(step));
            }
            if declined {
                if others(&["decline"]) {
                    return Err(wrong(step));
                }
                return Ok(Order::Declare(Declaration::default()));
            }
            let phase = state.phase.as_ref().map_or(Phase::Magic, |p| p.phase);
            let fields_ok = match phase {
                Phase::Magic => !others(&["spell"]),
                Phase::Archery => !others(&["rapid_shot", "lucky_punk"]),
                Phase::Melee => !others(&["berserk", "fury", "art_of_killing"]),
            };
            if !fields_ok {
                return Err(wrong(step));
            }
            let spell = match body.spell.as_deref() {
                None => None,
                Some(id) => match parse::<Spell>("spell", id)? {
                    Spell::None => None,
                    s => Some(s),
                },
            };
            let fury = match body.fury {
                None => 0,
                Some(k) if (0..=100).contains(&k) => k as u32,
                Some(got) => return Err(Refusal::InvalidFury { got }),
            };
            let declaration = Declaration {
                spell,
                rapid_shot: body.rapid_shot == Some(true),
                lucky_punk: body.lucky_punk == Some(true),
                berserk: body.berserk == Some(true),
                fury,
                art_of_killing: body.art_of_killing == Some(true),
            };
            legal::check_declaration(state, seat, &declaration)?;
            Ok(Order::Declare(declaration))
        }
        Step::Set => {
            if others(&["contest", "die", "guesses", "down", "face_up"]) {
                return Err(wrong(step));
            }
            let contest = check_contest(state, &body, None)?;
            let allowed = state.contest.as_ref().map_or(0, |c| c.guesses[seat.0]);
            let (die, guesses) = die_and_guesses(&body, allowed)?;
            let down = match body.down.as_deref() {
                None => None,
                Some(code) => Some(in_hand(state, seat, code)?),
            };
            Ok(Order::Set {
                contest,
                die,
                guesses,
                down,
                face_up: body.face_up.unwrap_or(true),
            })
        }
        Step::FaceUp => {
            if others(&["contest", "cards", "decline"]) {
                return Err(wrong(step));
            }
            let contest = check_contest(state, &body, None)?;
            let cards = match (&body.cards, declined) {
                (Some(codes), false) => hand_cards(state, seat, codes)?,
                (None, _) => Vec::new(),
                (Some(_), true) => return Err(wrong(step)),
            };
            Ok(Order::FaceUp { contest, cards })
        }
        Step::Tie => {
            if others(&["contest", "tie", "die", "guesses"]) {
                return Err(wrong(step));
            }
            let tie = match state.contest.as_ref().map(|c| c.stage) {
                Some(super::state::ContestStage::Tie(t)) => t,
                _ => 1,
            };
            let contest = check_contest(state, &body, Some(tie))?;
            let allowed = state.contest.as_ref().map_or(0, |c| c.guesses[seat.0]);
            let (die, guesses) = die_and_guesses(&body, allowed)?;
            Ok(Order::Tie {
                contest,
                tie,
                die,
                guesses,
            })
        }
        Step::Discard => {
            if others(&["contest", "cards"]) {
                return Err(wrong(step));
            }
            let contest = check_contest(state, &body, None)?;
            let cards = hand_cards(state, seat, body.cards.as_deref().unwrap_or_default())?;
            if cards.len() != 2 {
                return Err(Refusal::DiscardTwo { got: cards.len() });
            }
            Ok(Order::Discard { contest, cards })
        }
        Step::Over => Err(Refusal::GameOver),
    }
}

/// A standing fallback answers `next` (the step every window asks both): a known wish and a
/// well-formed action. Whether they are legal is judged when it is used.
pub fn check_fallback(body: &OrderBody) -> Result<(), Refusal> {
    let only_next = body.decline.is_none()
        && body.spell.is_none()
        && body.rapid_shot.is_none()
        && body.lucky_punk.is_none()
        && body.berserk.is_none()
        && body.fury.is_none()
        && body.art_of_killing.is_none()
        && body.contest.is_none()
        && body.tie.is_none()
        && body.die.is_none()
        && body.guesses.is_none()
        && body.down.is_none()
        && body.face_up.is_none()
        && body.cards.is_none();
    if !only_next {
        return Err(wrong(Step::Next));
    }
    parse::<Wish>("wish", body.wish.as_deref().ok_or(Refusal::MissingWish)?)?;
    if let Some(a) = &body.action {
        read_action(None, a)?;
    }
    Ok(())
}

/// Ruling 50's defaults, as §3.7's table gives them: no action; the wish that keeps the
/// fight moving (`advance` after Magic and Archery, `stay` after Melee); no declaration; a
/// die and guesses the server chooses, no card, no face-up step; no face-up card; the two
/// oldest cards of the hand.
pub fn default_order(state: &State, seat: Seat) -> Option<Order> {
    if !legal::owed(state).contains(&seat) {
        return None;
    }
    let contest = state.contest.as_ref().map_or(0, |c| c.number);
    Some(match state.step {
        Step::Opening => Order::Window {
            wish: None,
            action: None,
        },
        Step::Next => Order::Window {
            wish: Some(match legal::after(state) {
                Some(Phase::Melee) => Wish::Stay,
                _ => Wish::Advance,
            }),
            action: None,
        },
        Step::Declare => Order::Declare(Declaration::default()),
        Step::Set => Order::Chosen { contest, tie: None },
        Step::Tie => Order::Chosen {
            contest,
            tie: match state.contest.as_ref().map(|c| c.stage) {
                Some(super::state::ContestStage::Tie(t)) => Some(t),
                _ => None,
            },
        },
        Step::FaceUp => Order::FaceUp {
            contest,
            cards: Vec::new(),
        },
        Step::Discard => Order::Discard {
            contest: state.discard.as_ref().map_or(0, |d| d.contest),
            cards: state.fighters[seat.0]
                .hand
                .iter()
                .take(2)
                .copied()
                .collect(),
        },
        Step::Over => return None,
    })
}

fn list(cards: &[Card]) -> String {
    match cards.is_empty() {
        true => "none".into(),
        false => cards.iter().map(|c| c.id()).collect::<Vec<_>>().join(", "),
    }
}

/// An order in words for the log. A `set` is described without its die or card, which the
/// reveal shows when the rules reveal them (§3.8).
pub fn describe(order: Option<&Order>) -> String {
    match order {
        None => "nothing".into(),
        Some(Order::Window { wish, action }) => {
            let action = action.as_ref().map_or("no action".into(), Action::words);
            match wish {
                Some(w) => format!("{w}, {action}"),
                None => action,
            }
        }
        Some(Order::Declare(d)) => {
            let mut parts = Vec::new();
            if let Some(s) = d.spell {
                parts.push(s.id().to_owned());
            }
            if d.rapid_shot {
                parts.push("rapid-shot".into());
            }
            if d.lucky_punk {
                parts.push("lucky-punk".into());
            }
            if d.berserk {
                parts.push("berserk".into());
            }
            if d.fury > 0 {
                parts.push(format!("gift-of-fury {}", d.fury));
            }
            if d.art_of_killing {
                parts.push("art-of-killing".into());
            }
            match parts.is_empty() {
                true => "no declaration".into(),
                false => parts.join(", "),
            }
        }
        Some(Order::Set { guesses, .. }) | Some(Order::Tie { guesses, .. }) => {
            format!("a die set, guessing {guesses:?}")
        }
        Some(Order::Chosen { .. }) => "a die and guesses chosen by the server".into(),
        Some(Order::FaceUp { cards, .. }) => format!("face up: {}", list(cards)),
        Some(Order::Discard { cards, .. }) => format!("discard {}", list(cards)),
    }
}
