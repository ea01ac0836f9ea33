//! The answers to the three steps of §3.3 (`plan`, `play`, `shift`): the body as sent, the
//! checked order, the checks, the defaults of Ruling 24 and the order in words.

use serde::{Deserialize, Serialize};

use super::cards::Card;
use super::refusal::Refusal;
use super::scale::Technique;
use super::state::{State, Step};
use crate::rules::Seat;

/// An answer as sent, without `round` and `step` (§3.3): `{"cards": [...]}` at `plan`,
/// `{"card": "9H"}` at `play`, `{"technique": "all-out-attack"}` at `shift`, or
/// `{"decline": true}` where the step may be declined (`plan`: an empty plan; `shift`: keep).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderBody {
    pub cards: Option<Vec<String>>,
    pub card: Option<String>,
    pub technique: Option<String>,
    pub decline: Option<bool>,
}

/// A checked answer. A `play` or `shift` is revealed when its step resolves; a `plan` never
/// is (it is the secret battle plan, §3.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "kebab-case")]
pub enum Order {
    /// The top of the battle plan, in order (S-3); empty: a fully shuffled deck.
    Plan { cards: Vec<Card> },
    /// The card played from the window (R2).
    Play { card: Card },
    /// The reactor's final technique (R6).
    Shift { technique: Technique },
}

/// What a step takes, for the refusal's message.
const PLAN_ANSWER: &str = "{\"cards\": [...]} or {\"decline\": true}";
const PLAY_ANSWER: &str = "{\"card\": \"<one of your window>\"}";
const SHIFT_ANSWER: &str = "{\"technique\": \"<technique>\"} or {\"decline\": true}";

fn parse_card(code: &str, pack: &[Card]) -> Result<Card, Refusal> {
    let card: Card = code.parse().map_err(|_| Refusal::UnknownCard {
        got: code.to_owned(),
    })?;
    match pack.contains(&card) {
        true => Ok(card),
        false => Err(Refusal::NotInPack {
            card: card.to_string(),
        }),
    }
}

/// Judges `seat`'s answer to the open step.
pub fn check(state: &State, seat: Seat, body: OrderBody) -> Result<Order, Refusal> {
    if !state.owed().contains(&seat) {
        return Err(Refusal::NothingOwed);
    }
    let declined = body.decline == Some(true);
    match &state.step {
        Step::Plan => match (body, declined) {
            (
                OrderBody {
                    cards: None,
                    card: None,
                    technique: None,
                    ..
                },
                true,
            ) => Ok(Order::Plan { cards: Vec::new() }),
            (
                OrderBody {
                    cards: Some(codes),
                    card: None,
                    technique: None,
                    decline: None | Some(false),
                },
                false,
            ) => check_plan(state, &codes),
            (OrderBody { .. }, _) => Err(Refusal::WrongAnswerForStep {
                step: "plan",
                expected: PLAN_ANSWER,
            }),
        },
        Step::Play => match body {
            OrderBody {
                decline: Some(true),
                ..
            } => Err(Refusal::CannotDecline),
            OrderBody {
                cards: None,
                card: Some(code),
                technique: None,
                ..
            } => check_play(state, seat, &code),
            OrderBody { .. } => Err(Refusal::WrongAnswerForStep {
                step: "play",
                expected: PLAY_ANSWER,
            }),
        },
        Step::Shift(clash) => {
            let from = clash.sides[seat.0].start;
            match (body, declined) {
                (
                    OrderBody {
                        cards: None,
                        card: None,
                        technique: None,
                        ..
                    },
                    true,
                ) => Ok(Order::Shift { technique: from }),
                (
                    OrderBody {
                        cards: None,
                        card: None,
                        technique: Some(id),
                        decline: None | Some(false),
                    },
                    false,
                ) => {
                    let technique: Technique = id
                        .parse()
                        .map_err(|_| Refusal::UnknownTechnique { got: id })?;
                    let legal = clash.legal();
                    match legal.contains(&technique) {
                        true => Ok(Order::Shift { technique }),
                        false => Err(Refusal::OutOfReach { technique, legal }),
                    }
                }
                (OrderBody { .. }, _) => Err(Refusal::WrongAnswerForStep {
                    step: "shift",
                    expected: SHIFT_ANSWER,
                }),
            }
        }
        Step::Over => Err(Refusal::NothingOwed),
    }
}

/// S-3, §3.3: 0 to 54 distinct cards of his own pack.
fn check_plan(state: &State, codes: &[String]) -> Result<Order, Refusal> {
    let pack = Card::pack(state.rules.jokers.count());
    let mut cards: Vec<Card> = Vec::with_capacity(codes.len());
    for code in codes {
        let card = parse_card(code, &pack)?;
        if cards.contains(&card) {
            return Err(Refusal::DuplicateCard {
                card: card.to_string(),
            });
        }
        cards.push(card);
    }
    Ok(Order::Plan { cards })
}

/// R2, §3.3: one card of his window.
fn check_play(state: &State, seat: Seat, code: &str) -> Result<Order, Refusal> {
    let pack = Card::pack(state.rules.jokers.count());
    let card = parse_card(code, &pack)?;
    let window = state.window(seat);
    match window.contains(&card) {
        true => Ok(Order::Play { card }),
        false => Err(Refusal::NotInWindow {
            card: card.to_string(),
            window: window.iter().map(Card::to_string).collect(),
        }),
    }
}

/// A standing fallback answers `play`: one card code, nothing else. Whether the card is in
/// the window is judged when it is used.
pub fn check_fallback(body: &OrderBody) -> Result<(), Refusal> {
    match body {
        OrderBody {
            cards: None,
            card: Some(code),
            technique: None,
            decline: None,
        } => code
            .parse::<Card>()
            .map(|_| ())
            .map_err(|_| Refusal::UnknownCard { got: code.clone() }),
        OrderBody { .. } => Err(Refusal::WrongAnswerForStep {
            step: "play",
            expected: PLAY_ANSWER,
        }),
    }
}

/// Ruling 24: a missing `plan` is an empty plan (a shuffled deck), a missing `play` is the top
/// card, a missing `shift` keeps the starting technique.
pub fn default_order(state: &State, seat: Seat) -> Option<Order> {
    match &state.step {
        Step::Plan => Some(Order::Plan { cards: Vec::new() }),
        Step::Play => state.window(seat).first().map(|&card| Order::Play { card }),
        Step::Shift(clash) => Some(Order::Shift {
            technique: clash.sides[seat.0].start,
        }),
        Step::Over => None,
    }
}

/// An order in words for the log. A plan is never described: it is secret (§3.4).
pub fn describe(order: Option<&Order>) -> String {
    match order {
        None => "nothing".to_owned(),
        Some(Order::Plan { .. }) => "a battle plan".to_owned(),
        Some(Order::Play { card }) => format!("play {card}"),
        Some(Order::Shift { technique }) => technique.title().to_owned(),
    }
}
