//! Settings and starting positions: the shuffled or explicit pool, the opening deal, and the
//! checks that a `setup` could really happen (S1-S4, api.md "Starting from a position").

use std::collections::{BTreeMap, VecDeque};

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use super::Join;
use super::characters::Character;
use super::engine::{CHARGE_CAP, HAND_LIMIT};
use super::refusals::{Refusal, SetupProblem};
use super::state::{Op, PlayerRef, PlayerState, State, Turn};
use super::tokens::Token;
use crate::rules::{Entrant, GameRng, ROUND_LIMIT, Seat};

/// The most HP a setup may give: the highest start of any character (the Sentinel's 85, L287);
/// each player's own character's start is checked when the game starts.
const SETUP_HP_LIMIT: i64 = 85;

/// The most poison counters a setup may give. The rulings set no cap (T2), but 43 counters
/// already take 86 HP, more than any character has, at the next draw.
const SETUP_POISON_LIMIT: i64 = 1000;

/// The lobby's BST settings (api.md). Every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Must be 2 if given: BST is a duel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_players: Option<u32>,
    /// A stall cap: after this many turns the higher HP wins, as at pool exhaustion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rounds: Option<u32>,
    /// Seeds the shuffle, so a game replays exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// An explicit pool replacing the shuffled one, drawn from its front.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<Vec<String>>,
    /// A starting position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<Setup>,
}

/// A BST starting position at the play step of `round` (api.md). Fields default to the
/// normal start.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The turn number (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// Up to two players, matched to seats in join order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<SetupPlayer>>,
    /// The pool, drawn from its front.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<Vec<String>>,
    /// The face-up discard pile, oldest first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard: Option<Vec<String>>,
}

/// One player's part of a [`Setup`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupPlayer {
    /// HP, 1 to the character's start (default: the start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp: Option<i64>,
    /// Charges 0-5 (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charges: Option<i64>,
    /// Poison counters, 0 or more (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poison: Option<i64>,
    /// Off-Balance (default no).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub off_balance: Option<bool>,
    /// The hand, 1-9 tokens (default: dealt 5 from the pool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<String>>,
    /// The Channeler has set this player's Piercing Strike aside.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piercing_set_aside: Option<bool>,
    /// A Warpriest's free turn is this turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_turn: Option<bool>,
}

/// The most tokens a list in the settings (`pool`, `setup.pool`, `setup.discard`) may hold:
/// the whole set (S1).
const SET_SIZE: usize = 80;

fn parse_list(list: &[String]) -> Result<Vec<Token>, Refusal> {
    list.iter()
        .map(|s| s.parse::<Token>().map_err(Refusal::UnknownToken))
        .collect()
}

/// A checked player entry.
#[derive(Clone, Debug, Default)]
struct Seated {
    hp: Option<i32>,
    charges: u8,
    poison: u32,
    off_balance: bool,
    hand: Option<Vec<Token>>,
    piercing_set_aside: bool,
    free_turn: bool,
}

/// Settings checked as far as they can be without the characters.
#[derive(Clone, Debug)]
struct Opening {
    round: u32,
    players: [Seated; 2],
    pool: Option<Vec<Token>>,
    discard: Vec<Token>,
}

fn count(tokens: &[Token]) -> BTreeMap<Token, usize> {
    let mut m = BTreeMap::new();
    for t in tokens {
        *m.entry(*t).or_insert(0) += 1;
    }
    m
}

fn check_player(i: usize, p: &SetupPlayer) -> Result<Seated, Refusal> {
    let hp = match p.hp {
        Some(hp) if !(1..=SETUP_HP_LIMIT).contains(&hp) => {
            return Err(SetupProblem::HpOutOfRange {
                entry: i,
                hp,
                limit: SETUP_HP_LIMIT,
            }
            .into());
        }
        Some(hp) => Some(i32::try_from(hp).unwrap_or(1)),
        None => None,
    };
    let charges = p.charges.unwrap_or(1);
    if !(0..=i64::from(CHARGE_CAP)).contains(&charges) {
        return Err(SetupProblem::ChargesOutOfRange { entry: i, charges }.into());
    }
    let poison = p.poison.unwrap_or(0);
    if !(0..=SETUP_POISON_LIMIT).contains(&poison) {
        return Err(SetupProblem::PoisonOutOfRange {
            entry: i,
            poison,
            limit: SETUP_POISON_LIMIT,
        }
        .into());
    }
    let hand = p.hand.as_deref().map(parse_list).transpose()?;
    if let Some(h) = &hand {
        if h.len() > HAND_LIMIT {
            return Err(SetupProblem::HandTooLarge { entry: i }.into());
        }
        if h.is_empty() {
            return Err(SetupProblem::EmptyHand { entry: i }.into());
        }
    }
    Ok(Seated {
        hp,
        charges: u8::try_from(charges).unwrap_or(1),
        poison: u32::try_from(poison).unwrap_or(0),
        off_balance: p.off_balance.unwrap_or(false),
        hand,
        piercing_set_aside: p.piercing_set_aside.unwrap_or(false),
        free_turn: p.free_turn.unwrap_or(false),
    })
}

fn opening(settings: &Settings) -> Result<Opening, Refusal> {
    if settings.max_players.is_some_and(|n| n != 2) {
        return Err(Refusal::InvalidMaxPlayers);
    }
    if let Some(cap) = settings.max_rounds
        && !(1..=ROUND_LIMIT).contains(&cap)
    {
        return Err(Refusal::InvalidMaxRounds { got: cap });
    }
    let in_setup = settings.setup.as_ref();
    for (field, list) in [
        ("pool", settings.pool.as_ref()),
        ("setup.pool", in_setup.and_then(|s| s.pool.as_ref())),
        ("setup.discard", in_setup.and_then(|s| s.discard.as_ref())),
    ] {
        if let Some(list) = list
            && list.len() > SET_SIZE
        {
            return Err(SetupProblem::TooManyTokens {
                field,
                got: list.len(),
                set: SET_SIZE,
            }
            .into());
        }
    }
    let setup = settings.setup.clone().unwrap_or_default();
    if settings.pool.is_some() && setup.pool.is_some() {
        return Err(SetupProblem::ConflictingPools.into());
    }
    let round = setup.round.unwrap_or(1);
    if !(1..=ROUND_LIMIT).contains(&round) {
        return Err(SetupProblem::RoundOutOfRange { round }.into());
    }
    if settings.max_rounds.is_some_and(|cap| round > cap) {
        return Err(SetupProblem::RoundPastCap.into());
    }
    let entries = setup.players.unwrap_or_default();
    if entries.len() > 2 {
        return Err(SetupProblem::TooManyPlayers.into());
    }
    let mut players = [
        Seated {
            charges: 1,
            ..Seated::default()
        },
        Seated {
            charges: 1,
            ..Seated::default()
        },
    ];
    for (i, e) in entries.iter().enumerate() {
        players[i] = check_player(i, e)?;
    }
    if players[0].off_balance && players[1].off_balance {
        return Err(SetupProblem::BothOffBalance.into());
    }
    let pool = settings
        .pool
        .as_deref()
        .or(setup.pool.as_deref())
        .map(parse_list)
        .transpose()?;
    let discard = setup
        .discard
        .as_deref()
        .map(parse_list)
        .transpose()?
        .unwrap_or_default();

    let mut used: Vec<Token> = discard.clone();
    for p in &players {
        used.extend(p.hand.iter().flatten().copied());
    }
    used.extend(pool.iter().flatten().copied());
    for (token, n) in count(&used) {
        if n > token.colour().copies() {
            return Err(SetupProblem::TooManyCopies {
                token,
                got: n,
                set: token.colour().copies(),
            }
            .into());
        }
    }
    let missing_hands = players.iter().filter(|p| p.hand.is_none()).count();
    if let Some(pool) = &pool {
        if used.len() != 80 {
            return Err(SetupProblem::TokensNotAccounted { held: used.len() }.into());
        }
        if pool.len() <= 5 * missing_hands {
            return Err(SetupProblem::PoolTooShort { explicit: true }.into());
        }
    } else if 80 - used.len() <= 5 * missing_hands {
        return Err(SetupProblem::PoolTooShort { explicit: false }.into());
    }
    Ok(Opening {
        round,
        players,
        pool,
        discard,
    })
}

/// Checks settings alone (`Game::check_settings`).
pub fn check_settings(settings: &Settings) -> Result<(), Refusal> {
    opening(settings).map(|_| ())
}

/// Deals the opening position (`Game::start`, S1-S4): the shuffled or explicit pool, hands of
/// 5 for P1 then P2 where the setup gives none, and the character checks.
pub fn start(
    settings: &Settings,
    entrants: &[Entrant<Join>],
    rng: &mut GameRng,
) -> Result<State, Refusal> {
    let [e1, e2] = entrants else {
        return Err(Refusal::WrongPlayerCount);
    };
    let o = opening(settings)?;
    let mut pool: VecDeque<Token> = match &o.pool {
        Some(p) => p.iter().copied().collect(),
        None => {
            let mut rest = Token::full_set();
            let mut used = o.discard.clone();
            used.extend(
                o.players
                    .iter()
                    .flat_map(|p| p.hand.iter().flatten().copied()),
            );
            super::tokens::take_all(&mut rest, &used);
            rest.shuffle(rng);
            rest.into_iter().collect()
        }
    };
    let mut players = Vec::with_capacity(2);
    for (i, (e, seat)) in [(e1, &o.players[0]), (e2, &o.players[1])]
        .into_iter()
        .enumerate()
    {
        let ch = e.join.character;
        let at = Seat(i);
        let hp = seat.hp.unwrap_or(ch.start_hp());
        if hp > ch.start_hp() {
            return Err(SetupProblem::HpAboveStart {
                seat: at,
                hp,
                character: ch,
            }
            .into());
        }
        if seat.free_turn && ch != Character::Warpriest {
            return Err(SetupProblem::FreeTurnNotWarpriest { seat: at }.into());
        }
        let opp = if i == 0 {
            e2.join.character
        } else {
            e1.join.character
        };
        if seat.piercing_set_aside && (opp != Character::Channeler || seat.charges > 0) {
            return Err(SetupProblem::SetAsideImpossible { seat: at }.into());
        }
        let hand = match &seat.hand {
            Some(h) => h.clone(),
            None => pool.drain(..5).collect(),
        };
        players.push(PlayerState {
            who: PlayerRef {
                id: e.id,
                name: e.name.clone(),
            },
            character: ch,
            hp,
            charges: seat.charges,
            poison: seat.poison,
            off_balance: seat.off_balance,
            hand,
            piercing_set_aside: seat.piercing_set_aside,
            free_turn: seat.free_turn,
            revive_pending: false,
            revived_this_turn: false,
        });
    }
    let [p1, p2]: [PlayerState; 2] = players.try_into().map_err(|_| Refusal::WrongPlayerCount)?;
    let mut state = State {
        round: o.round,
        max_rounds: settings.max_rounds,
        players: [p1, p2],
        pool,
        discard: o.discard,
        turn: Turn::default(),
        ops: [Op::PrePlay, Op::AskPlay].into_iter().collect(),
        pending: None,
        finish: None,
    };
    super::engine::Run::new(&mut state).advance();
    Ok(state)
}
