//! R0-R2: what each seat plays this turn, and which moves are active.

use std::collections::BTreeMap;

use super::events::PassReason;
use super::halt::{HaltFate, HaltGraph};
use super::moves::{Attack, Category, Move, Order};
use super::state::{State, TargetProblem};
use crate::rules::Seat;

/// What one seat does this turn (R0).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Play {
    /// A dead seat: submits nothing (Ruling 30).
    Out,
    /// A living seat without a valid order: no card at all (Ruling 2).
    Pass(PassReason),
    /// A valid move and its declared target.
    Card { mv: Move, target: Seat },
    /// A living seat without an order under `missing_move` (Ruling 2, §3.2): the fixed move,
    /// played on himself.
    Default { mv: Move },
}

/// What a living player who sent no order plays (Ruling 2, §3.2 `missing_move`): None for
/// a Pass (the default game), else the fixed Defense or Action on himself. None too for a seat
/// that owes nothing (dead, or the game is over). The deadline work resolves a missed step by
/// it; [`Turn::new`] applies the same rule to a seat the orders leave out.
pub fn default_order(state: &State, seat: Seat) -> Option<Order> {
    let player = state
        .fighter(seat)
        .filter(|p| p.alive && state.end.is_none())?;
    state.rules.missing_move.fixed_move().map(|mv| Order {
        mv,
        target: player.id,
    })
}

/// One turn being resolved: the start-of-turn state, each seat's play and the Halt outcome.
#[derive(Clone, Debug)]
pub struct Turn<'a> {
    /// The start-of-turn state (R1: every test reads it, Ruling 4).
    pub state: &'a State,
    /// Each seat's play, indexed by seat.
    pub plays: Vec<Play>,
    /// Each seat's Halt target, if it played Halt.
    pub halts: Vec<Option<Seat>>,
    /// The R2 fate of every Halt.
    pub graph: HaltGraph,
}

impl<'a> Turn<'a> {
    /// R0 and R2: indexes the orders by seat (so their order does not matter), turns missing or
    /// illegal ones into Pass, and decides every Halt.
    pub fn new(state: &'a State, orders: &[(Seat, Order)]) -> Turn<'a> {
        let mut given: BTreeMap<Seat, Vec<Order>> = BTreeMap::new();
        for (seat, order) in orders {
            given.entry(*seat).or_default().push(*order);
        }
        let plays: Vec<Play> = (0..state.players.len())
            .map(Seat)
            .map(|seat| {
                if !state.players[seat.0].alive {
                    return Play::Out;
                }
                let Some(list) = given.get(&seat) else {
                    return match default_order(state, seat) {
                        Some(order) => Play::Default { mv: order.mv },
                        None => Play::Pass(PassReason::NoOrder),
                    };
                };
                let first = list[0];
                if list.iter().any(|o| *o != first) {
                    return Play::Pass(PassReason::ConflictingOrders);
                }
                let Some(target) = state.seat_of(first.target) else {
                    return Play::Pass(PassReason::UnknownTarget);
                };
                match state.target_problem(seat, first.mv, target) {
                    None => Play::Card {
                        mv: first.mv,
                        target,
                    },
                    Some(TargetProblem::Unknown) => Play::Pass(PassReason::UnknownTarget),
                    Some(TargetProblem::Dead) => Play::Pass(PassReason::DeadTarget),
                    Some(TargetProblem::OwnSeat) => Play::Pass(PassReason::SelfTarget),
                }
            })
            .collect();
        let halts: Vec<Option<Seat>> = plays
            .iter()
            .map(|p| match p {
                Play::Card {
                    mv: Move::Halt,
                    target,
                } => Some(*target),
                Play::Card { .. } | Play::Default { .. } | Play::Pass(_) | Play::Out => None,
            })
            .collect();
        let graph = HaltGraph::resolve(&halts, state.rules.halt_cycle);
        Turn {
            state,
            plays,
            halts,
            graph,
        }
    }

    /// Every seat index of the game.
    pub fn seats(&self) -> impl Iterator<Item = Seat> + use<> {
        (0..self.plays.len()).map(Seat)
    }

    /// The move and declared target `seat` played, if it played a card.
    pub fn card(&self, seat: Seat) -> Option<(Move, Seat)> {
        match self.plays[seat.0] {
            Play::Card { mv, target } => Some((mv, target)),
            Play::Default { mv } => Some((mv, seat)),
            Play::Pass(_) | Play::Out => None,
        }
    }

    /// The Attack card `seat` played and its declared target (R5).
    pub fn attack(&self, seat: Seat) -> Option<(Attack, Seat)> {
        self.card(seat)
            .and_then(|(mv, target)| mv.attack().map(|a| (a, target)))
    }

    /// The effective Halts on `seat` whose target played an Action (R2.4): they deal 3 each
    /// (R3) and negate it.
    pub fn negated_by(&self, seat: Seat) -> Vec<Seat> {
        match self.card(seat) {
            Some((mv, _)) if mv.category() == Category::Action => {
                self.graph.effective_on(&self.halts, seat)
            }
            Some(_) | None => Vec::new(),
        }
    }

    /// The move `seat` played if it is active: not a negated Action, not a Halt that is not
    /// EFFECTIVE (R2). Attack and Defense moves are always active.
    pub fn active(&self, seat: Seat) -> Option<(Move, Seat)> {
        let (mv, target) = self.card(seat)?;
        if !self.negated_by(seat).is_empty() {
            return None;
        }
        match self.graph.fates[seat.0] {
            Some(HaltFate::Effective | HaltFate::CycleFired) | None => Some((mv, target)),
            Some(HaltFate::Negated | HaltFate::VoidMutual | HaltFate::VoidCycle) => None,
        }
    }

    /// Whether Attack cards on `seat` deal +1 for his Taunt (T, Ruling 26): an active Taunt;
    /// a negated one has no penalty (Ruling 8) unless `halt_keeps_taunt_penalty` (§3.2).
    pub fn taunting(&self, seat: Seat) -> bool {
        match self.state.rules.halt_keeps_taunt_penalty {
            false => matches!(self.active(seat), Some((Move::Taunt, _))),
            true => matches!(self.card(seat), Some((Move::Taunt, _))),
        }
    }

    /// Whether `x`'s Attack card "targets" `v` for Block reflection and Riposte (Rulings 19,
    /// 22-23): its declared target is `v`, or with `assail_targets_all` (§3.2) `v` is one of
    /// its Assail's victims.
    pub fn targets(&self, x: Seat, v: Seat) -> bool {
        match self.attack(x) {
            None => false,
            Some((_, t)) if t == v => true,
            Some((attack, t)) => {
                self.state.rules.assail_targets_all
                    && attack == Attack::Assail
                    && self.state.is_victim(x, attack, t, v)
            }
        }
    }

    /// `seat`'s Defense move and its target, if it played one (always active).
    pub fn defense(&self, seat: Seat) -> Option<(Move, Seat)> {
        self.card(seat)
            .filter(|(mv, _)| mv.category() == Category::Defense)
    }
}
