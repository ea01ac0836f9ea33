//! Answers to steps: the body as sent, the checked order, and the checks of each step
//! (T4, §2.3, A9, A36).

use serde::{Deserialize, Serialize};

use super::characters::Character;
use super::engine::{HAND_LIMIT, buy_back_tokens};
use super::moves::Move;
use super::refusals::BstRefusal;
use super::state::{Pending, State};
use super::tokens::{Token, holds_all};

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

fn refuse(code: &'static str, message: impl Into<String>) -> BstRefusal {
    BstRefusal::new(code, message)
}

fn parse_token(s: &str) -> Result<Token, BstRefusal> {
    s.parse()
        .map_err(|e: super::tokens::BadToken| refuse("unknown-token", e.to_string()))
}

/// Why `mv` would be replaced at T6 for `seat` now, if it would: (i) character ban, (ii)
/// Off-Balance Dashing/Evasion, (iii) Piercing set aside, (iv) unaffordable (T6, A9).
pub fn illegal_reason(s: &State, seat: usize, mv: Move) -> Option<String> {
    let p = &s.players[seat];
    if !p.character.can_use(mv) {
        Some(format!("the {} cannot use {mv}", p.character))
    } else if p.off_balance && matches!(mv, Move::DashingStrike | Move::Evasion) {
        Some(format!("{mv} cannot be used while Off-Balance"))
    } else if mv == Move::PiercingStrike && p.piercing_set_aside {
        Some("the Channeler has set the Piercing Strike aside".to_owned())
    } else if !p.can_afford(p.character.cost(mv)) {
        Some(format!(
            "{mv} costs {} Charge(s) and only {} are held",
            p.character.cost(mv),
            p.charges
        ))
    } else {
        None
    }
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
pub fn choices(s: &State, seat: usize, p: &Pending) -> Vec<Token> {
    let hand = &s.players[seat].hand;
    match p {
        Pending::Play
        | Pending::Overflow { .. }
        | Pending::FollowUp { .. }
        | Pending::FinishingExtras { .. }
        | Pending::GatherPower { .. } => hand.clone(),
        Pending::BuyTiebreak { .. } => match s.turn.plays {
            Some(plays) => buy_back_tokens(hand, plays[seat].token),
            None => Vec::new(),
        },
        Pending::ParryPick { .. } => s.players[State::other(seat)].hand.clone(),
        Pending::EvasionPick { .. } => s.discard.clone(),
        Pending::SetAside { .. } | Pending::PowerSurge { .. } | Pending::ChannelerSteal { .. } => {
            Vec::new()
        }
    }
}

/// Judges one answer to the current step (see `Game::check_order`).
pub fn check(s: &State, seat: usize, body: OrderBody) -> Result<Order, BstRefusal> {
    let Some(pending) = &s.pending else {
        return Err(BstRefusal::conflict("game-over", "the game is over"));
    };
    if !pending.seats().contains(&seat) {
        return Err(BstRefusal::conflict(
            "nothing-owed",
            "you owe no answer at this step",
        ));
    }
    let step = pending.name();
    let wrong = |what: &str| {
        refuse(
            "wrong-answer-for-step",
            format!("the {step} step takes {what}"),
        )
    };
    // Parse every code first, so an unknown move or token is refused as such (A9: only
    // malformed submissions are refused).
    let mv = body.play.as_deref().map(|m| {
        m.parse::<Move>()
            .map_err(|e| refuse("unknown-move", e.to_string()))
    });
    let mv = mv.transpose()?;
    let token = body.token.as_deref().map(parse_token).transpose()?;
    let tokens = body.tokens.as_ref().map(|v| {
        v.iter()
            .map(|t| parse_token(t))
            .collect::<Result<Vec<_>, _>>()
    });
    let tokens = tokens.transpose()?;
    let accept = body.accept.unwrap_or(false);
    let random_pool = body.random_pool.unwrap_or(false);
    let fields = [
        mv.is_some(),
        token.is_some(),
        tokens.is_some(),
        body.decline.is_some(),
        body.accept.is_some(),
        body.random_pool.is_some(),
    ];
    let given = fields.iter().filter(|f| **f).count();

    if body.decline.is_some() {
        if body.decline != Some(true) || given != 1 {
            return Err(wrong("`{\"decline\": true}` alone to pass"));
        }
        if !optional(pending) {
            return Err(refuse(
                "cannot-decline",
                format!("the {step} step is not optional"),
            ));
        }
        return Ok(Order::Decline);
    }
    let hand = &s.players[seat].hand;
    let held = |ts: &[Token]| {
        if holds_all(hand, ts) {
            Ok(())
        } else {
            Err(refuse(
                "token-not-in-hand",
                format!(
                    "your hand ({}) does not hold {}",
                    super::tokens::show(hand),
                    super::tokens::show(ts)
                ),
            ))
        }
    };
    match pending {
        Pending::Play => {
            let (Some(tile), Some(token), 2) = (mv, token, given) else {
                return Err(wrong("`move` and `token`"));
            };
            held(&[token])?;
            Ok(Order::Play { tile, token })
        }
        Pending::SetAside { .. } | Pending::PowerSurge { .. } | Pending::ChannelerSteal { .. } => {
            if accept && given == 1 {
                Ok(Order::Accept)
            } else {
                Err(wrong("`{\"accept\": true}` or `{\"decline\": true}`"))
            }
        }
        Pending::Overflow { .. } => {
            let Some(tokens) = tokens.filter(|_| given == 1) else {
                return Err(wrong("`tokens`"));
            };
            let need = hand.len().saturating_sub(HAND_LIMIT);
            if tokens.len() != need {
                return Err(refuse(
                    "wrong-number-of-tokens",
                    format!("discard exactly {need} token(s) to get down to 9"),
                ));
            }
            held(&tokens)?;
            Ok(Order::Tokens { tokens })
        }
        Pending::BuyTiebreak { .. } => {
            let Some(tokens) = tokens.filter(|_| given == 1) else {
                return Err(wrong("`tokens` or decline"));
            };
            if tokens.len() != 2 {
                return Err(refuse(
                    "wrong-number-of-tokens",
                    "the buy-back takes exactly two tokens (A2)",
                ));
            }
            held(&tokens)?;
            let allowed = choices(s, seat, pending);
            if !holds_all(&allowed, &tokens) {
                return Err(refuse(
                    "not-a-legal-choice",
                    "both tokens must match the colour of the token you played (A2)",
                ));
            }
            Ok(Order::Tokens { tokens })
        }
        Pending::FollowUp { .. } => {
            if let (Some(token), false, 1) = (token, random_pool, given) {
                held(&[token])?;
                Ok(Order::Token { token })
            } else if let (None, true, 1) = (token, random_pool, given) {
                if s.players[seat].character == Character::Assassin && !s.pool.is_empty() {
                    Ok(Order::RandomPool)
                } else {
                    Err(refuse(
                        "not-a-legal-choice",
                        "only the Assassin may Follow-up with a random pool token (L298)",
                    ))
                }
            } else {
                Err(wrong(
                    "`token`, `{\"random_pool\": true}` (Assassin) or decline",
                ))
            }
        }
        Pending::FinishingExtras { .. } => {
            let Some(tokens) = tokens.filter(|_| given == 1) else {
                return Err(wrong("`tokens` or decline"));
            };
            let max = s.players[seat].character.finishing_extras();
            if tokens.is_empty() || tokens.len() > max {
                return Err(refuse(
                    "wrong-number-of-tokens",
                    format!("add 1 to {max} token(s), or decline (A40)"),
                ));
            }
            held(&tokens)?;
            Ok(Order::Tokens { tokens })
        }
        Pending::ParryPick { .. } | Pending::EvasionPick { .. } => {
            let Some(token) = token.filter(|_| given == 1) else {
                return Err(wrong("`token`"));
            };
            if choices(s, seat, pending).contains(&token) {
                Ok(Order::Token { token })
            } else {
                Err(refuse(
                    "not-a-legal-choice",
                    format!("{token} is not among the tokens you may pick"),
                ))
            }
        }
        Pending::GatherPower { .. } => {
            let Some(tokens) = tokens.filter(|_| given == 1) else {
                return Err(wrong("`tokens` or decline"));
            };
            let pair = matches!(tokens.as_slice(), [a, b] if a.number() == b.number());
            if !pair {
                return Err(refuse(
                    "not-a-pair",
                    "Gather Power takes two tokens of the same number (L187)",
                ));
            }
            held(&tokens)?;
            Ok(Order::Tokens { tokens })
        }
    }
}

/// The house default for a seat that did not answer in time (A36): Guard with a uniformly
/// random hand token at `play`; random tokens for the forced picks (overflow, Parry, Evasion);
/// accept the free benefits (set-aside, Channeler steal); decline every optional choice that
/// costs something (Follow-up, Surge, Finishing extras, buy-back, Gather Power). `None` if the
/// seat owes nothing. The trait has no hook for this yet; the host can call it directly.
pub fn default_order(s: &State, seat: usize, rng: &mut crate::rules::GameRng) -> Option<Order> {
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
            list.truncate(s.players[seat].hand.len().saturating_sub(HAND_LIMIT));
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
pub fn check_play_form(body: &OrderBody) -> Result<(), BstRefusal> {
    let others = body.tokens.is_some()
        || body.decline.is_some()
        || body.accept.is_some()
        || body.random_pool.is_some();
    let (Some(mv), Some(token), false) = (&body.play, &body.token, others) else {
        return Err(refuse(
            "wrong-answer-for-step",
            "a fallback order is a play: a `move` and a `token`",
        ));
    };
    mv.parse::<Move>()
        .map_err(|e| refuse("unknown-move", e.to_string()))?;
    parse_token(token)?;
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
