//! What a simulation plays: the game, its settings, the seats' strategies and join choices,
//! how many games and from which seed. Each game's own seed comes from the run's seed and the
//! game's number alone, so a run replays bit for bit whatever the threads that played it.

use rand::RngExt;
use serde_json::Value;

use crate::fairness::publish::rng_for;
use crate::games::{GameKind, Strategy};

/// A simulation run, as asked for.
#[derive(Clone, Debug)]
pub struct Plan {
    pub game: GameKind,
    /// The settings object, as a lobby's create request would send it.
    pub settings: Value,
    /// Seats (None: the fewest the game starts with).
    pub players: Option<usize>,
    /// The strategies, seat by seat (cycled when there are fewer than seats).
    pub strategies: Vec<Strategy>,
    /// Keep each strategy on its seat; by default the line-up turns one seat every game, so
    /// that no strategy is measured from one seat only.
    pub fixed_seats: bool,
    /// Each seat's join body (cycled over the seats); empty: every seat draws its join
    /// choice from the game's join form, every game.
    pub joins: Vec<Value>,
    pub games: u64,
    pub seed: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
}

impl Plan {
    /// The seed of game `index`: the first draw of the run seed's stream numbered `index`.
    pub fn game_seed(&self, index: u64) -> u64 {
        rng_for(self.seed, index).random()
    }

    /// The strategy of `seat` in game `index`.
    pub fn strategy(&self, index: u64, seat: usize) -> Strategy {
        let n = self.strategies.len().max(1);
        let turn = match self.fixed_seats {
            true => 0,
            false => (index % n as u64) as usize,
        };
        self.strategies
            .get((seat + turn) % n)
            .copied()
            .unwrap_or(Strategy::Random)
    }

    /// The join body of `seat`, if the plan fixes one.
    pub fn join(&self, seat: usize) -> Option<&Value> {
        match self.joins.is_empty() {
            true => None,
            false => self.joins.get(seat % self.joins.len()),
        }
    }
}

/// A strategy's name as the command line spells it.
pub fn strategy_name(strategy: Strategy) -> String {
    clap::ValueEnum::to_possible_value(&strategy)
        .map(|v| v.get_name().to_owned())
        .unwrap_or_default()
}
