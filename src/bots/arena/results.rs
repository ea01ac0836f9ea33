//! The arena's results: each bot's wins, draws and losses with its win rate's interval, and
//! what went wrong with its answers; and the table printed at the end.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::game::Faults;
use crate::bots::seating::SeatResult;
use crate::bots::simulate::report::percent_with_interval;
use crate::bots::simulate::tally::{Record, wilson};

/// One bot's results over the arena.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub timeouts: u64,
    pub invalid: u64,
    /// Games in which the program exited before the end.
    pub crashes: u64,
}

/// Every bot's results, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Results {
    pub bots: BTreeMap<String, Standing>,
    /// Games played.
    pub games: u64,
}

impl Results {
    /// Counts one seat of one game.
    pub fn add(&mut self, bot: &str, result: SeatResult, faults: Faults) {
        let s = self.bots.entry(bot.to_owned()).or_default();
        match result {
            SeatResult::Won => s.wins += 1,
            SeatResult::Drew => s.draws += 1,
            SeatResult::Lost => s.losses += 1,
        }
        s.timeouts += u64::from(faults.timeouts);
        s.invalid += u64::from(faults.invalid);
        s.crashes += u64::from(faults.crashed);
    }

    /// The table, best win rate first.
    pub fn table(&self) -> String {
        let mut rows: Vec<(&String, &Standing)> = self.bots.iter().collect();
        rows.sort_by(|a, b| {
            let rate = |s: &Standing| wilson(s.wins, s.wins + s.draws + s.losses).share;
            rate(b.1).total_cmp(&rate(a.1)).then_with(|| a.0.cmp(b.0))
        });
        let width = rows
            .iter()
            .map(|(n, _)| n.chars().count())
            .max()
            .unwrap_or(0)
            .max(3);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<width$}  {:>5} {:>5} {:>5} {:>5}  {:<24}  {:>8} {:>7} {:>7}",
            "bot",
            "games",
            "wins",
            "draws",
            "losses",
            "win rate (95% interval)",
            "timeouts",
            "invalid",
            "crashes"
        );
        for (name, s) in rows {
            let record = Record {
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
            };
            let _ = writeln!(
                out,
                "{name:<width$}  {:>5} {:>5} {:>5} {:>5}  {:<24}  {:>8} {:>7} {:>7}",
                record.games(),
                s.wins,
                s.draws,
                s.losses,
                percent_with_interval(&wilson(s.wins, record.games())),
                s.timeouts,
                s.invalid,
                s.crashes
            );
        }
        let _ = writeln!(out, "{} games", self.games);
        out
    }
}
