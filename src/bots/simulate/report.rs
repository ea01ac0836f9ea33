//! A simulation's findings, from its tally: win and draw rates with their intervals by
//! strategy, seat and join choice, the rounds games lasted, and what each strategy answered
//! at each step; and the same as a table for the terminal.

use std::fmt::Write;

use super::plan::{Plan, strategy_name};
use super::tally::{Rate, Record, Tally, wilson};

/// The most answers listed per step and strategy; the rest are summed as "other".
const TOP_ANSWERS: usize = 12;
/// The most bars of the rounds histogram.
const ROUND_BUCKETS: u32 = 24;

/// What a run found.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub game: String,
    pub title: String,
    pub games: u64,
    pub seed: u64,
    pub players: usize,
    /// The settings as given (compact JSON).
    pub settings: String,
    /// The settings' rule variants in words.
    pub variants: Vec<String>,
    /// Who played, in words.
    pub lineup: String,
    /// Games nobody won alone.
    pub draws: Rate,
    pub by_strategy: Vec<Row>,
    pub by_seat: Vec<Row>,
    /// By join choice (BST: character); empty for a game with none.
    pub by_join: Vec<Row>,
    pub rounds: Rounds,
    pub answers: Vec<Answers>,
}

/// One line of a results table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub label: String,
    pub record: Record,
    pub win: Rate,
    pub draw: Rate,
}

/// How long games lasted, in rounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Rounds {
    pub min: u32,
    pub max: u32,
    pub mean: f64,
    pub median: u32,
    /// Games ending in rounds `lo..=hi`.
    pub buckets: Vec<(u32, u32, u64)>,
}

/// What one strategy answered at one step, most frequent first.
#[derive(Clone, Debug, PartialEq)]
pub struct Answers {
    pub step: String,
    pub strategy: String,
    pub total: u64,
    pub shares: Vec<(String, u64, f64)>,
}

fn row(label: String, record: Record) -> Row {
    Row {
        label,
        record,
        win: wilson(record.wins, record.games()),
        draw: wilson(record.draws, record.games()),
    }
}

impl Report {
    pub fn new(plan: &Plan, players: usize, variants: Vec<String>, tally: &Tally) -> Report {
        let names: Vec<String> = plan.strategies.iter().map(|s| strategy_name(*s)).collect();
        let lineup = match (plan.fixed_seats, names.len()) {
            (_, 1) => format!("{} in every seat", names[0]),
            (true, _) => format!("{}, seat by seat", names.join(", ")),
            (false, _) => format!(
                "{}, the line-up turning one seat each game",
                names.join(", ")
            ),
        };
        let by_join = match tally.by_join.keys().all(|k| k == "-") {
            true => Vec::new(),
            false => tally
                .by_join
                .iter()
                .map(|(k, r)| row(k.clone(), *r))
                .collect(),
        };
        Report {
            game: plan.game.id().to_owned(),
            title: plan.game.title().to_owned(),
            games: tally.games,
            seed: plan.seed,
            players,
            settings: plan.settings.to_string(),
            variants,
            lineup,
            draws: wilson(tally.drawn_games, tally.games),
            by_strategy: tally
                .by_strategy
                .iter()
                .map(|(k, r)| row(k.clone(), *r))
                .collect(),
            by_seat: tally
                .by_seat
                .iter()
                .map(|(k, r)| row(format!("seat {}", k + 1), *r))
                .collect(),
            by_join,
            rounds: rounds(tally),
            answers: answers(tally),
        }
    }

    /// The report as a table for the terminal.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} ({}): {} games of {} players, seed {}",
            self.title, self.game, self.games, self.players, self.seed
        );
        let _ = writeln!(out, "Settings: {}", self.settings);
        for variant in &self.variants {
            let _ = writeln!(out, "  {variant}");
        }
        let _ = writeln!(out, "Strategies: {}", self.lineup);
        let _ = writeln!(
            out,
            "Games nobody won alone: {}",
            percent_with_interval(&self.draws)
        );
        for (title, rows) in [
            ("By strategy", &self.by_strategy),
            ("By seat", &self.by_seat),
            ("By join choice", &self.by_join),
        ] {
            if rows.is_empty() {
                continue;
            }
            let width = rows
                .iter()
                .map(|r| r.label.chars().count())
                .max()
                .unwrap_or(0);
            let width = width.max(title.len());
            let _ = writeln!(
                out,
                "\n{title:<width$}  {:>7} {:>7} {:>7} {:>7}  {:<24}  draw rate",
                "games", "wins", "draws", "losses", "win rate (95% interval)"
            );
            for r in rows {
                let _ = writeln!(
                    out,
                    "{:<width$}  {:>7} {:>7} {:>7} {:>7}  {:<24}  {}",
                    r.label,
                    r.record.games(),
                    r.record.wins,
                    r.record.draws,
                    r.record.losses,
                    percent_with_interval(&r.win),
                    percent_with_interval(&r.draw),
                );
            }
        }
        let r = &self.rounds;
        let _ = writeln!(
            out,
            "\nRounds: mean {:.1}, median {}, shortest {}, longest {}",
            r.mean, r.median, r.min, r.max
        );
        let _ = writeln!(out, "\nAnswers (step, strategy: share of its answers)");
        for a in &self.answers {
            let shares: Vec<String> = a
                .shares
                .iter()
                .map(|(word, _, share)| format!("{word} {:.1}%", share * 100.0))
                .collect();
            let _ = writeln!(
                out,
                "  {}, {} ({}): {}",
                a.step,
                a.strategy,
                a.total,
                shares.join(", ")
            );
        }
        out
    }
}

/// `61.2% [58.1, 64.3]`.
pub fn percent_with_interval(rate: &Rate) -> String {
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        rate.share * 100.0,
        rate.low * 100.0,
        rate.high * 100.0
    )
}

fn rounds(tally: &Tally) -> Rounds {
    let (Some((&min, _)), Some((&max, _))) = (
        tally.rounds.first_key_value(),
        tally.rounds.last_key_value(),
    ) else {
        return Rounds {
            min: 0,
            max: 0,
            mean: 0.0,
            median: 0,
            buckets: Vec::new(),
        };
    };
    let games: u64 = tally.rounds.values().sum();
    let total: u64 = tally.rounds.iter().map(|(r, n)| u64::from(*r) * n).sum();
    let mut seen = 0;
    let mut median = min;
    for (r, n) in &tally.rounds {
        seen += n;
        if seen * 2 >= games {
            median = *r;
            break;
        }
    }
    let width = (max - min + 1).div_ceil(ROUND_BUCKETS);
    let mut buckets: Vec<(u32, u32, u64)> = Vec::new();
    let mut lo = min;
    while lo <= max {
        let hi = lo.saturating_add(width - 1).min(max);
        let n = tally.rounds.range(lo..=hi).map(|(_, n)| n).sum();
        buckets.push((lo, hi, n));
        lo = match hi.checked_add(1) {
            Some(next) => next,
            None => break,
        };
    }
    Rounds {
        min,
        max,
        mean: total as f64 / games as f64,
        median,
        buckets,
    }
}

fn answers(tally: &Tally) -> Vec<Answers> {
    let mut out: Vec<Answers> = Vec::new();
    for ((step, strategy, word), n) in &tally.answers {
        match out.last_mut() {
            Some(a) if a.step == *step && a.strategy == *strategy => {
                a.total += n;
                a.shares.push((word.clone(), *n, 0.0));
            }
            _ => out.push(Answers {
                step: step.clone(),
                strategy: strategy.clone(),
                total: *n,
                shares: vec![(word.clone(), *n, 0.0)],
            }),
        }
    }
    for a in &mut out {
        a.shares
            .sort_by(|x, y| y.1.cmp(&x.1).then_with(|| x.0.cmp(&y.0)));
        if a.shares.len() > TOP_ANSWERS {
            let rest: u64 = a.shares[TOP_ANSWERS - 1..].iter().map(|s| s.1).sum();
            a.shares.truncate(TOP_ANSWERS - 1);
            a.shares.push(("other".into(), rest, 0.0));
        }
        for share in &mut a.shares {
            share.2 = share.1 as f64 / a.total as f64;
        }
    }
    out
}
