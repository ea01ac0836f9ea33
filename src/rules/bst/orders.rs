//! Answers to steps: the body as sent, the checked order, and the checks of each step
//! (T4, §2.3, A9, A36).

use serde::{Deserialize, Serialize};

use super::characters::Character;
use super::engine::{HAND_LIMIT, buy_back_tokens};
use super::moves::Move;
use super::refusals::{NotAChoice, Refusal, TokenCount};
use super::state::{Pending, State, Step};
use super::tokens::{Token, holds_all};
use crate::rules::Seat;

/// An answer as sent (the host strips `round` and `step`). One shape for every step; which
/// fields a step takes is listed in `docs/rules/bst.md`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderBody {
    /// `play`: the tile id.
    #[serde(rename = "move")]
    pub play: Option<String>,
    /// `play`, `follow-up`, `parry-pick`, `evasion-pick`: one token code.
    pub token: Option<String>,
    /// `overflow`, `buy-tiebreak`, `finishing-extras`, `gather-power`: token codes.
    pub tokens: Option<Vec<String>>,
    /// Any optional step: `true` to pass.
    pub decline: Option<bool>,
    /// `set-aside`, `power-surge`, `channeler-steal`: `true` to take the option.
    pub accept: Option<bool>,
    /// `follow-up` (Assassin only): `true` to use a random pool token (L298, A25).
    pub random_pool: Option<bool>,
}

/// A checked answer, stored secretly until its step resolves and then revealed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "answer")]
pub enum Order {
    /// `play`: the tile as submitted (replacement happens at T6) and the token.
    Play {
        /// The tile.
        #[serde(rename = "move")]
        tile: Move,
        /// The token.
        token: Token,
    },
    /// `set-aside`, `power-surge`, `channeler-steal`: take the option.
    Accept,
    /// Any optional step: pass.
    Decline,
    /// `follow-up`, `parry-pick`, `evasion-pick`: one token.
    Token {
        /// The token.
        token: Token,
    },
    /// `follow-up`: the Assassin's random pool token.
    RandomPool,
    /// `overflow`, `buy-tiebreak`, `finishing-extras`, `gather-power`: several tokens.
    Tokens {
        /// The tokens.
        tokens: Vec<Token>,
    },
}

fn wrong(step: Step, takes: &'static str) -> Refusal {
    Refusal::WrongAnswerForStep { step, takes }
}

/// Whether the step at hand may be passed (§2.3; forced steps are overflow, Parry and
/// Evasion picks, and the play itself).
pub fn optional(p: &Pending) -> bool {
    match p {
        Pending::Play
        | Pending::Overflow { .. }
        | Pending::ParryPick { .. }
        | Pending::EvasionPick { .. } => false,
        Pending::SetAside { .. }
        | Pending::BuyTiebreak { .. }
        | Pending::FollowUp { .. }
        | Pending::PowerSurge { .. }
        | Pending::FinishingExtras { .. }
        | Pending::ChannelerSteal { .. }
        | Pending::GatherPower { .. } => true,
    }
}

/// The token a Follow-up, buy-back or pick may use: which list to choose from at this step.
pub fn choices(s: &State, seat: Seat, p: &Pending) -> Vec<Token> {
    let hand = &s.players[seat.0].hand;
    match p {
        Pending::Play
        | Pending::Overflow { .. }
        | Pending::FollowUp { .. }
        | Pending::FinishingExtras { .. }
        | Pending::GatherPower { .. } => hand.clone(),
        Pending::BuyTiebreak { .. } => match s.turn.plays {
            Some(plays) => buy_back_tokens(hand, plays[seat.0].token),
            None => Vec::new(),
        },
        Pending::ParryPick { .. } => s.players[State::other(seat).0].hand.clone(),
        Pending::EvasionPick { .. } => s.discard.clone(),
        Pending::SetAside { .. } | Pending::PowerSurge { .. } | Pending::ChannelerSteal { .. } => {
            Vec::new()
        }
    }
}

/// An answer's fields with every code read: an unknown tile or token is refused as such
/// before anything else is judged (A9: only malformed submissions are refused).
struct Answer {
    tile: Option<Move>,
    token: Option<Token>,
    tokens: Option<Vec<Token>>,
    decline: Option<bool>,
    accept: Option<bool>,
    random_pool: Option<bool>,
}

impl Answer {
    fn read(body: OrderBody) -> Result<Answer, Refusal> {
        let tile = body.play.as_deref().map(str::parse::<Move>).transpose()?;
        let token = body.token.as_deref().map(str::parse::<Token>).transpose()?;
        let tokens = body
            .tokens
            .as_deref()
            .map(|v| {
                v.iter()
                    .map(|t| t.parse::<Token>())
                    .collect::<Result<_, _>>()
            })
            .transpose()?;
        Ok(Answer {
            tile,
            token,
            tokens,
            decline: body.decline,
            accept: body.accept,
            random_pool: body.random_pool,
        })
    }

    /// How many fields the answer names.
    fn given(&self) -> usize {
        [
            self.tile.is_some(),
            self.token.is_some(),
            self.tokens.is_some(),
            self.decline.is_some(),
            self.accept.is_some(),
            self.random_pool.is_some(),
        ]
        .into_iter()
        .filter(|named| *named)
        .count()
    }

    /// `tokens` and nothing else.
    fn tokens_alone(self) -> Option<Vec<Token>> {
        let alone = self.given() == 1;
        self.tokens.filter(|_| alone)
    }

    /// `token` and nothing else.
    fn token_alone(&self) -> Option<Token> {
        self.token.filter(|_| self.given() == 1)
    }
}

/// The step `seat` owes an answer to, or why it owes none (§2.2: a finished game asks
/// nothing).
fn owed_step(s: &State, seat: Seat) -> Result<&Pending, Refusal> {
    let pending = s.pending.as_ref().ok_or(Refusal::GameOver)?;
    if pending.seats().contains(&seat) {
        Ok(pending)
    } else {
        Err(Refusal::NothingOwed)
    }
}

/// Refuses `named` unless the seat's hand holds every one of them.
fn in_hand(s: &State, seat: Seat, named: &[Token]) -> Result<(), Refusal> {
    let hand = &s.players[seat.0].hand;
    if holds_all(hand, named) {
        Ok(())
    } else {
        Err(Refusal::TokenNotInHand {
            hand: hand.clone(),
            named: named.to_vec(),
        })
    }
}

/// Judges one answer to the current step (see `Game::check_order`).
pub fn check(s: &State, seat: Seat, body: OrderBody) -> Result<Order, Refusal> {
    let pending = owed_step(s, seat)?;
    let answer = Answer::read(body)?;
    if answer.decline.is_some() {
        return check_decline(pending, &answer);
    }
    match pending {
        Pending::Play => check_play(s, seat, &answer),
        Pending::SetAside { .. } | Pending::PowerSurge { .. } | Pending::ChannelerSteal { .. } => {
            check_accept(pending.step(), &answer)
        }
        Pending::Overflow { .. } => check_overflow(s, seat, answer),
        Pending::BuyTiebreak { .. } => check_buy_back(s, seat, pending, answer),
        Pending::FollowUp { .. } => check_follow_up(s, seat, &answer),
        Pending::FinishingExtras { .. } => check_finishing_extras(s, seat, answer),
        Pending::ParryPick { .. } | Pending::EvasionPick { .. } => {
            check_pick(s, seat, pending, &answer)
        }
        Pending::GatherPower { .. } => check_gather(s, seat, answer),
    }
}

/// `{"decline": true}` alone passes an optional step (§2.3).
fn check_decline(pending: &Pending, answer: &Answer) -> Result<Order, Refusal> {
    let step = pending.step();
    if answer.decline != Some(true) || answer.given() != 1 {
        return Err(wrong(step, "`{\"decline\": true}` alone to pass"));
    }
    if !optional(pending) {
        return Err(Refusal::CannotDecline { step });
    }
    Ok(Order::Decline)
}

/// T4: a tile and a token from the hand; whether the tile is usable is judged at T6 (A9).
fn check_play(s: &State, seat: Seat, answer: &Answer) -> Result<Order, Refusal> {
    let (Some(tile), Some(token), 2) = (answer.tile, answer.token, answer.given()) else {
        return Err(wrong(Step::Play, "`move` and `token`"));
    };
    in_hand(s, seat, &[token])?;
    Ok(Order::Play { tile, token })
}

/// Set-aside (A28), Power Surge (A10), the Channeler's steal (A27): take the option.
fn check_accept(step: Step, answer: &Answer) -> Result<Order, Refusal> {
    if answer.accept == Some(true) && answer.given() == 1 {
        Ok(Order::Accept)
    } else {
        Err(wrong(step, "`{\"accept\": true}` or `{\"decline\": true}`"))
    }
}

/// A16: discard exactly the tokens over 9, from the hand.
fn check_overflow(s: &State, seat: Seat, answer: Answer) -> Result<Order, Refusal> {
    let tokens = answer
        .tokens_alone()
        .ok_or_else(|| wrong(Step::Overflow, "`tokens`"))?;
    let need = s.players[seat.0].hand.len().saturating_sub(HAND_LIMIT);
    if tokens.len() != need {
        return Err(Refusal::WrongNumberOfTokens(TokenCount::Overflow { need }));
    }
    in_hand(s, seat, &tokens)?;
    Ok(Order::Tokens { tokens })
}

/// A2: the Sentinel buys a lost tie-break with two tokens of the played token's colour.
fn check_buy_back(
    s: &State,
    seat: Seat,
    pending: &Pending,
    answer: Answer,
) -> Result<Order, Refusal> {
    let tokens = answer
        .tokens_alone()
        .ok_or_else(|| wrong(Step::BuyTiebreak, "`tokens` or decline"))?;
    if tokens.len() != 2 {
        return Err(Refusal::WrongNumberOfTokens(TokenCount::BuyBack));
    }
    in_hand(s, seat, &tokens)?;
    if !holds_all(&choices(s, seat, pending), &tokens) {
        return Err(Refusal::NotALegalChoice(NotAChoice::BuyBackColour));
    }
    Ok(Order::Tokens { tokens })
}

/// L209: a Follow-up with a hand token, or the Assassin's random pool token (L298, A25).
fn check_follow_up(s: &State, seat: Seat, answer: &Answer) -> Result<Order, Refusal> {
    let random_pool = answer.random_pool.unwrap_or(false);
    match (answer.token, random_pool, answer.given()) {
        (Some(token), false, 1) => {
            in_hand(s, seat, &[token])?;
            Ok(Order::Token { token })
        }
        (None, true, 1) => {
            if s.players[seat.0].character == Character::Assassin && !s.pool.is_empty() {
                Ok(Order::RandomPool)
            } else {
                Err(Refusal::NotALegalChoice(NotAChoice::RandomPool))
            }
        }
        _ => Err(wrong(
            Step::FollowUp,
            "`token`, `{\"random_pool\": true}` (Assassin) or decline",
        )),
    }
}

/// A40: 1 to the character's extra tokens after a Finishing Strike win, from the hand.
fn check_finishing_extras(s: &State, seat: Seat, answer: Answer) -> Result<Order, Refusal> {
    let tokens = answer
        .tokens_alone()
        .ok_or_else(|| wrong(Step::FinishingExtras, "`tokens` or decline"))?;
    let max = s.players[seat.0].character.finishing_extras();
    if tokens.is_empty() || tokens.len() > max {
        return Err(Refusal::WrongNumberOfTokens(TokenCount::FinishingExtras {
            max,
        }));
    }
    in_hand(s, seat, &tokens)?;
    Ok(Order::Tokens { tokens })
}

/// A33, A34: one token from the loser's revealed hand or from the discard pile.
fn check_pick(s: &State, seat: Seat, pending: &Pending, answer: &Answer) -> Result<Order, Refusal> {
    let token = answer
        .token_alone()
        .ok_or_else(|| wrong(pending.step(), "`token`"))?;
    if choices(s, seat, pending).contains(&token) {
        Ok(Order::Token { token })
    } else {
        Err(Refusal::NotALegalChoice(NotAChoice::NotPickable(token)))
    }
}

/// L187, A38: Gather Power discards a same-number pair from the hand.
fn check_gather(s: &State, seat: Seat, answer: Answer) -> Result<Order, Refusal> {
    let tokens = answer
        .tokens_alone()
        .ok_or_else(|| wrong(Step::GatherPower, "`tokens` or decline"))?;
    let pair = matches!(tokens.as_slice(), [a, b] if a.number() == b.number());
    if !pair {
        return Err(Refusal::NotAPair);
    }
    in_hand(s, seat, &tokens)?;
    Ok(Order::Tokens { tokens })
}

/// The house default for a seat that did not answer in time (A36): Guard with a uniformly
/// random hand token at `play`; random tokens for the forced picks (overflow, Parry, Evasion);
/// accept the free benefits (set-aside, Channeler steal); decline every optional choice that
/// costs something (Follow-up, Surge, Finishing extras, buy-back, Gather Power). `None` if the
/// seat owes nothing. The trait has no hook for this yet; the host can call it directly.
pub fn default_order(s: &State, seat: Seat, rng: &mut crate::rules::GameRng) -> Option<Order> {
    use rand::seq::{IndexedRandom, SliceRandom};
    let pending = s.pending.as_ref()?;
    if !pending.seats().contains(&seat) {
        return None;
    }
    let mut list = choices(s, seat, pending);
    Some(match pending {
        Pending::Play => Order::Play {
            tile: Move::Guard,
            token: *list.choose(rng)?,
        },
        Pending::Overflow { .. } => {
            list.shuffle(rng);
            list.truncate(s.players[seat.0].hand.len().saturating_sub(HAND_LIMIT));
            Order::Tokens { tokens: list }
        }
        Pending::ParryPick { .. } | Pending::EvasionPick { .. } => Order::Token {
            token: *list.choose(rng)?,
        },
        Pending::SetAside { .. } | Pending::ChannelerSteal { .. } => Order::Accept,
        Pending::BuyTiebreak { .. }
        | Pending::FollowUp { .. }
        | Pending::PowerSurge { .. }
        | Pending::FinishingExtras { .. }
        | Pending::GatherPower { .. } => Order::Decline,
    })
}

/// The form of a `play` answer without the position: a known tile and a known token, and no
/// other field (a standing fallback order, checked when it is set).
pub fn check_play_form(body: &OrderBody) -> Result<(), Refusal> {
    let others = body.tokens.is_some()
        || body.decline.is_some()
        || body.accept.is_some()
        || body.random_pool.is_some();
    let (Some(mv), Some(token), false) = (&body.play, &body.token, others) else {
        return Err(Refusal::FallbackNotAPlay);
    };
    mv.parse::<Move>()?;
    token.parse::<Token>()?;
    Ok(())
}

/// An answer in words for the log: `Guard with R7`, `decline`, `tokens R3, B4`.
pub fn describe(order: Option<&Order>) -> String {
    match order {
        None => "no answer".to_owned(),
        Some(Order::Play { tile, token }) => format!("{tile} with {token}"),
        Some(Order::Accept) => "accept".to_owned(),
        Some(Order::Decline) => "decline".to_owned(),
        Some(Order::Token { token }) => format!("token {token}"),
        Some(Order::RandomPool) => "a random pool token".to_owned(),
        Some(Order::Tokens { tokens }) => {
            let codes: Vec<String> = tokens.iter().map(Token::to_string).collect();
            format!("tokens {}", codes.join(", "))
        }
    }
}
