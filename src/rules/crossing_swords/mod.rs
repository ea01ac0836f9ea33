//! Crossing Swords: the pure adjudicator (rulings: `docs/rules/crossing-swords/`; how they
//! map to this code: `docs/rules/crossing-swords.md`).
//!
//! A melee of 2-16 players (G1). Every turn each living player secretly picks one of ten moves
//! and a target (G3); all are revealed and resolved simultaneously by the fixed steps R0-R13
//! (Ruling 4). Damage moves HP counters to the damager's VP (G5); the last player standing
//! converts his HP to VP (G6); the most VP wins, ties share (G7, Ruling 32). No randomness.

pub mod arithmetic;
pub mod counters;
pub mod damage;
pub mod events;
pub mod fork;
pub mod halt;
pub mod host_acts;
mod log_words;
pub mod moves;
mod narration;
pub mod refusal;
pub mod resolve;
pub mod rulebook;
pub mod setup;
pub mod state;
pub mod turn;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub use events::{EndReason, Event, PassReason, PlayerRef};
pub use moves::{Attack, Category, Move, Order, OrderBody};
pub use refusal::{Refusal, SetupProblem};
pub use rulebook::Rulebook;
pub use setup::{Settings, Setup, SetupPlayer};
pub use state::{MoveChoice, Outcome, Pools, Private, Prompt, Standing, State, Table};
pub use turn::default_order;

use crate::rules::{
    Entrant, ForkRefusal, Game, GameRng, HostAct, PlayerId, Resolution, Seat, SettingsError,
};

/// The Crossing Swords rules, as the host drives them through [`Game`].
#[derive(Copy, Clone, Debug)]
pub struct CrossingSwords;

/// A join request's game fields: Crossing Swords has none. A BST `character` is read only to
/// be refused by the rules (422, as the API document's join schemas say: a body that fits
/// some game's join is well-formed); any other field is malformed. The host removes `name`
/// before this is read.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    /// Refused when given; null is the same as absent.
    pub character: Option<String>,
}

/// A Crossing Swords player chooses nothing at sign-up (G2: everyone starts alike).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Join;

impl Game for CrossingSwords {
    const ID: &'static str = "crossing-swords";
    type Settings = Settings;
    type JoinBody = JoinBody;
    type Join = Join;
    type State = State;
    type OrderBody = OrderBody;
    type Order = Order;
    type Event = Event;
    type Refusal = Refusal;
    type Prompt = Prompt;
    type Pools = Pools;
    type Table = Table;
    type Private = Private;
    type Outcome = Outcome;
    type Ending = host_acts::Ending;

    fn parse_settings(raw: serde_json::Value) -> Result<Settings, SettingsError<Refusal>> {
        setup::parse(raw)
    }

    /// Crossing Swords has no secret setting: a `setup` is a public position.
    fn public_settings(settings: &Settings, _finished: bool) -> Settings {
        settings.clone()
    }

    fn check_settings(settings: &Settings) -> Result<(), Refusal> {
        setup::check(settings)
    }

    fn capacity(settings: &Settings) -> usize {
        settings.max_players as usize
    }

    fn min_players(_settings: &Settings) -> usize {
        2
    }

    fn check_join(_settings: &Settings, body: JoinBody) -> Result<Join, Refusal> {
        match body.character {
            None => Ok(Join),
            Some(_) => Err(Refusal::NoCharacters),
        }
    }

    fn start(
        settings: &Settings,
        entrants: &[Entrant<Join>],
        _rng: &mut GameRng,
    ) -> Result<State, Refusal> {
        setup::start(settings, entrants)
    }

    fn round(state: &State) -> u32 {
        state.round
    }

    fn step(_state: &State) -> &'static str {
        "orders"
    }

    fn owes(state: &State) -> Vec<Seat> {
        match state.end {
            Some(_) => Vec::new(),
            None => state.living().collect(),
        }
    }

    fn prompt(state: &State, seat: Seat) -> Option<Prompt> {
        if !Self::owes(state).contains(&seat) {
            return None;
        }
        let moves = Move::ALL
            .into_iter()
            .map(|mv| MoveChoice {
                mv,
                category: mv.category(),
                targets: state
                    .living()
                    .filter(|&t| state.target_problem(seat, mv, t).is_none())
                    .collect(),
            })
            .collect();
        let players = (0..state.players.len())
            .map(|s| state.player_ref(Seat(s)))
            .collect();
        Some(Prompt { players, moves })
    }

    fn check_order(state: &State, seat: Seat, body: OrderBody) -> Result<Order, Refusal> {
        if !Self::owes(state).contains(&seat) {
            return Err(Refusal::NothingOwed);
        }
        let mv: Move = body
            .mv
            .parse()
            .map_err(|moves::UnknownMove(got)| Refusal::UnknownMove { got })?;
        let target = Uuid::parse_str(&body.target)
            .ok()
            .map(PlayerId)
            .and_then(|id| state.seat_of(id))
            .ok_or_else(|| Refusal::UnknownTarget {
                got: body.target.clone(),
            })?;
        match state.target_problem(seat, mv, target) {
            None => Ok(Order {
                mv,
                target: state.players[target.0].id,
            }),
            Some(state::TargetProblem::Unknown) => Err(Refusal::UnknownTarget { got: body.target }),
            Some(state::TargetProblem::Dead) => Err(Refusal::DeadTarget {
                name: state.players[target.0].name.clone(),
            }),
            Some(state::TargetProblem::OwnSeat) => Err(Refusal::SelfTarget { mv }),
        }
    }

    const MAIN_STEP: &'static str = "orders";

    /// A fallback names a known move and a player id (the target's life and the move's
    /// legality against it are judged when it is used).
    fn check_fallback(body: &OrderBody) -> Result<(), Refusal> {
        body.mv
            .parse::<Move>()
            .map_err(|moves::UnknownMove(got)| Refusal::UnknownMove { got })?;
        Uuid::parse_str(&body.target).map_err(|_| Refusal::UnknownTarget {
            got: body.target.clone(),
        })?;
        Ok(())
    }

    /// Ruling 2 and `missing_move` (§3.2): a missing order is a Pass, which is no order at all
    /// (`PassReason::NoOrder`), or the variant's fixed move on oneself.
    fn default_order(state: &State, seat: Seat, _rng: &mut GameRng) -> Option<Order> {
        turn::default_order(state, seat)
    }

    fn describe_order(state: &State, order: Option<&Order>) -> String {
        match order {
            None => "Pass".to_owned(),
            Some(order) => {
                let target = state.seat_of(order.target).map_or_else(
                    || order.target.to_string(),
                    |s| state.players[s.0].name.clone(),
                );
                let mv = order.mv.as_str();
                let mut title = mv.replace('-', " ");
                title[..1].make_ascii_uppercase();
                format!("{title} on {target}")
            }
        }
    }

    fn resolve(state: &State, orders: &[(Seat, Order)], _rng: &mut GameRng) -> Resolution<Self> {
        let resolved = resolve::resolve(state, orders);
        Resolution {
            state: resolved.state,
            revealed: resolved.revealed,
            events: resolved.events,
        }
    }

    fn alive(state: &State, seat: Seat) -> bool {
        state.fighter(seat).is_some_and(|p| p.alive)
    }

    fn pools(state: &State, seat: Seat) -> Pools {
        let id = |s: Option<Seat>| s.and_then(|s| state.fighter(s)).map(|p| p.id);
        match state.fighter(seat) {
            Some(p) => Pools {
                hp: p.hp,
                vp: p.vp,
                focus: id(p.focus),
                dodge: id(p.dodge),
            },
            None => Pools {
                hp: 0,
                vp: 0,
                focus: None,
                dodge: None,
            },
        }
    }

    fn table(_state: &State) -> Table {
        Table {}
    }

    fn private(_state: &State, _seat: Seat) -> Private {
        Private {}
    }

    /// A substitute keeps the seat's pools and carry-overs (`host_acts.rs`).
    fn rename(state: &State, seat: Seat, name: &str) -> State {
        host_acts::rename(state, seat, name)
    }

    /// A death by the host's hand (Ruling 30; `host_acts.rs`): out, keeps his VP, his HP
    /// counters leave the game; one left converts and wins alone (G6, Ruling 31).
    fn kick(state: &State, seat: Seat) -> Result<HostAct<Self>, Refusal> {
        host_acts::kick(state, seat)
    }

    fn fork_settings(state: &State, settings: &Settings) -> Result<Settings, ForkRefusal> {
        fork::fork_settings(state, settings)
    }

    /// Ruling 31: no conversion, the most VP wins, ties share (Ruling 32).
    fn end_by_host(state: &State, ending: host_acts::Ending) -> Result<HostAct<Self>, Refusal> {
        host_acts::end_by_host(state, ending)
    }

    fn end_by_draw_vote(state: &State) -> Result<HostAct<Self>, Refusal> {
        host_acts::end_by_draw_vote(state)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        let end = state.end.as_ref()?;
        let mut order: Vec<Seat> = (0..state.players.len()).map(Seat).collect();
        // By VP (survivors first among equals under `survivor_first`, Ruling 32), then seat.
        order.sort_by(|&a, &b| {
            let above = |x, y| resolve::ranks_above(state, x, y);
            above(b, a).cmp(&above(a, b)).then(a.cmp(&b))
        });
        let standings = order
            .into_iter()
            .map(|s| {
                let p = &state.players[s.0];
                Standing {
                    player: p.id,
                    name: p.name.clone(),
                    vp: p.vp,
                    hp: p.hp,
                    alive: p.alive,
                    place: 1
                        + (0..state.players.len())
                            .filter(|&q| resolve::ranks_above(state, Seat(q), s))
                            .count(),
                }
            })
            .collect();
        Some(Outcome {
            winners: end.winners.iter().map(|s| state.players[s.0].id).collect(),
            reason: end.reason,
            standings,
        })
    }
}
