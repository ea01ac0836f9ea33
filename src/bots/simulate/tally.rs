//! What a simulation counts: results by seat, join choice and strategy, round counts and
//! answers. Only integer counts, so that tallies merged in any order (one per thread) are the
//! same tally: the report does not depend on how the games were shared out.

use std::collections::BTreeMap;

use crate::bots::seating::SeatResult;

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Record {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    fn add(&mut self, result: SeatResult) {
        match result {
            SeatResult::Won => self.wins += 1,
            SeatResult::Drew => self.draws += 1,
            SeatResult::Lost => self.losses += 1,
        }
    }

    fn merge(&mut self, other: &Record) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// One seat of one played game.
#[derive(Clone, Debug)]
pub struct SeatPlay {
    pub strategy: String,
    pub join: String,
    pub result: SeatResult,
}

/// Everything counted over a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u64,
    /// Games nobody won alone (no winner, or a shared win).
    pub drawn_games: u64,
    pub by_seat: BTreeMap<usize, Record>,
    pub by_join: BTreeMap<String, Record>,
    pub by_strategy: BTreeMap<String, Record>,
    /// Games by the round they ended in.
    pub rounds: BTreeMap<u32, u64>,
    /// Answers by (step, strategy, answer).
    pub answers: BTreeMap<(String, String, String), u64>,
}

impl Tally {
    /// Counts one finished game.
    pub fn add_game(&mut self, seats: &[SeatPlay], rounds: u32) {
        self.games += 1;
        if !seats.iter().any(|s| s.result == SeatResult::Won) {
            self.drawn_games += 1;
        }
        for (n, seat) in seats.iter().enumerate() {
            self.by_seat.entry(n).or_default().add(seat.result);
            self.by_join
                .entry(seat.join.clone())
                .or_default()
                .add(seat.result);
            self.by_strategy
                .entry(seat.strategy.clone())
                .or_default()
                .add(seat.result);
        }
        *self.rounds.entry(rounds).or_default() += 1;
    }

    /// Counts one answer.
    pub fn add_answer(&mut self, step: &str, strategy: &str, answer: String) {
        *self
            .answers
            .entry((step.to_owned(), strategy.to_owned(), answer))
            .or_default() += 1;
    }

    pub fn merge(&mut self, other: Tally) {
        self.games += other.games;
        self.drawn_games += other.drawn_games;
        for (k, r) in other.by_seat {
            self.by_seat.entry(k).or_default().merge(&r);
        }
        for (k, r) in other.by_join {
            self.by_join.entry(k).or_default().merge(&r);
        }
        for (k, r) in other.by_strategy {
            self.by_strategy.entry(k).or_default().merge(&r);
        }
        for (k, n) in other.rounds {
            *self.rounds.entry(k).or_default() += n;
        }
        for (k, n) in other.answers {
            *self.answers.entry(k).or_default() += n;
        }
    }
}

/// A share with its 95% Wilson score interval (Wilson 1927): unlike the normal approximation
/// it stays within 0 and 1 and holds for shares near either end and for few games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub share: f64,
    pub low: f64,
    pub high: f64,
}

/// The normal quantile of a two-sided 95% interval.
const Z: f64 = 1.959_963_984_540_054;

/// `hits` out of `n` as a [`Rate`] (all zero for no trials).
pub fn wilson(hits: u64, n: u64) -> Rate {
    if n == 0 {
        return Rate {
            share: 0.0,
            low: 0.0,
            high: 0.0,
        };
    }
    let (k, n) = (hits as f64, n as f64);
    let p = k / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Rate {
        share: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// What an answer was, in a word, for the frequency tables: its first text member that is not
/// a player id (a move, a card, a technique), else the name of its first list with its length,
/// else its first member's name (`decline`, `accept`).
pub fn answer_word(body: &serde_json::Value) -> String {
    use serde_json::Value;
    let Value::Object(fields) = body else {
        return body.to_string();
    };
    let text = fields.values().find_map(|v| match v {
        Value::String(s) if uuid::Uuid::parse_str(s).is_err() => Some(s.clone()),
        _ => None,
    });
    let list = || {
        fields.iter().find_map(|(k, v)| match v {
            Value::Array(items) => Some(format!("{k} ×{}", items.len())),
            _ => None,
        })
    };
    text.or_else(list)
        .or_else(|| fields.keys().next().cloned())
        .unwrap_or_else(|| "{}".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_wilson_interval_matches_published_values() {
        // 81 of 263 (Wilson's interval as in Newcombe 1998, example: 0.2553 to 0.3662).
        let r = wilson(81, 263);
        assert!(
            (r.low - 0.2553).abs() < 1e-3 && (r.high - 0.3662).abs() < 1e-3,
            "{r:?}"
        );
        let none = wilson(0, 10);
        assert_eq!(none.low, 0.0);
        assert!((none.high - 0.2775).abs() < 1e-3, "{none:?}");
        let all = wilson(10, 10);
        assert!((all.high - 1.0).abs() < 1e-12, "{all:?}");
    }

    #[test]
    fn an_answer_is_named_by_its_move_not_its_target() {
        let target = "00000000-0000-0000-0000-000000000002";
        assert_eq!(
            answer_word(&json!({"move": "strike", "target": target})),
            "strike"
        );
        assert_eq!(answer_word(&json!({"tokens": ["R1", "B2"]})), "tokens ×2");
        assert_eq!(answer_word(&json!({"decline": true})), "decline");
    }

    #[test]
    fn tallies_merge_in_any_order_to_the_same_tally() {
        let seat = |result| SeatPlay {
            strategy: "greedy".into(),
            join: "-".into(),
            result,
        };
        let mut a = Tally::default();
        a.add_game(&[seat(SeatResult::Won), seat(SeatResult::Lost)], 3);
        let mut b = Tally::default();
        b.add_game(&[seat(SeatResult::Drew), seat(SeatResult::Drew)], 5);
        b.add_answer("x", "greedy", "y".into());
        let mut ab = a.clone();
        ab.merge(b.clone());
        let mut ba = b;
        ba.merge(a);
        assert_eq!(ab, ba);
        assert_eq!(ab.drawn_games, 1);
    }
}
