//! The game's charted pools (`GameUi::CHARTS`: Crossing Swords' HP and VP, say) of every player
//! over the rounds, as inline SVG for the lobby page (`chart.html`): drawn on the server from
//! the pools after each round, no script and nothing loaded from
//! elsewhere. Colours are the Okabe-Ito palette (told apart with colour blindness) and each line
//! also has its own dash pattern and a labelled legend; the same numbers follow as a table, the
//! chart's text alternative.

use super::round_block::RoundBlock;
use super::table::heading;
use crate::games::{GameUi, with_game};
use crate::host::GameKind;

/// Okabe-Ito, without its yellow (too pale on white), then black.
const COLOURS: [&str; 7] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#E69F00", "#000000",
];
const DASHES: [&str; 3] = ["", "6 3", "2 3"];

/// The drawing area, in the SVG's own units (it scales to the page's width).
const WIDTH: f64 = 320.0;
const HEIGHT: f64 = 160.0;
const LEFT: f64 = 30.0;
const RIGHT: f64 = 8.0;
const TOP: f64 = 8.0;
const BOTTOM: f64 = 22.0;

pub struct Series {
    pub name: String,
    pub colour: &'static str,
    pub dash: &'static str,
    /// `x,y x,y …` in SVG units.
    pub points: String,
    pub dots: Vec<(String, String)>,
}

pub struct Tick {
    pub at: String,
    pub label: String,
}

/// One chart: a metric (a pool of the game) for every player over the rounds.
pub struct Chart {
    pub id: String,
    pub title: String,
    pub series: Vec<Series>,
    pub x_ticks: Vec<Tick>,
    pub y_ticks: Vec<Tick>,
    /// The text alternative: one row per player, one cell per round.
    pub rounds: Vec<u32>,
    pub rows: Vec<(String, Vec<String>)>,
}

/// `a / b` rounded up, for positive numbers.
fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

fn coordinate(value: f64) -> String {
    format!("{value:.1}")
}

/// The value of `column` for every player after every round; None if no round shows it.
fn values(history: &[RoundBlock], column: &str) -> Option<Vec<(String, Vec<Option<i64>>)>> {
    let mut players: Vec<(String, Vec<Option<i64>>)> = Vec::new();
    let mut seen = false;
    for (i, block) in history.iter().enumerate() {
        let index = block.table.columns.iter().position(|c| c == column);
        for row in &block.table.rows {
            let value = index.and_then(|k| row.cells.get(k)?.parse::<i64>().ok());
            seen |= value.is_some();
            let entry = match players.iter().position(|(id, _)| *id == row.name) {
                Some(at) => &mut players[at].1,
                None => {
                    players.push((row.name.clone(), vec![None; history.len()]));
                    &mut players.last_mut().expect("just pushed").1
                }
            };
            entry[i] = value;
        }
    }
    seen.then_some(players)
}

/// The chart of the pools column headed `column` ("HP") over `history` (oldest round first), if it has one.
pub fn chart(history: &[RoundBlock], column: &str) -> Option<Chart> {
    let players = values(history, column)?;
    let highest = players
        .iter()
        .flat_map(|(_, v)| v.iter().flatten())
        .copied()
        .max()
        .unwrap_or(0)
        .max(1);
    // A round step (1, 2, 5, 10, 20, 50, …) giving at most about five lines, and the axis
    // up to the next multiple of it, so no two labels crowd each other.
    let y_step = [1, 2, 5]
        .iter()
        .flat_map(|m| (0..6).map(move |e| m * 10_i64.pow(e)))
        .filter(|s| ceil_div(highest, *s) <= 5)
        .min()
        .unwrap_or(highest);
    let most = ceil_div(highest, y_step) * y_step;
    let rounds: Vec<u32> = history.iter().map(|b| b.round).collect();
    let span = (rounds.len().max(2) - 1) as f64;
    let x = |i: usize| LEFT + (WIDTH - LEFT - RIGHT) * (i as f64) / span;
    let y = |v: i64| TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - v as f64 / most as f64);
    let series = players
        .iter()
        .enumerate()
        .map(|(n, (name, values))| {
            let dots: Vec<(String, String)> = values
                .iter()
                .enumerate()
                .filter_map(|(i, v)| v.map(|v| (coordinate(x(i)), coordinate(y(v)))))
                .collect();
            Series {
                name: name.clone(),
                colour: COLOURS[n % COLOURS.len()],
                dash: DASHES[(n / COLOURS.len() + n) % DASHES.len()],
                points: dots
                    .iter()
                    .map(|(a, b)| format!("{a},{b}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                dots,
            }
        })
        .collect();
    // At most about six labels on each axis, so a phone can read them.
    let step = rounds.len().div_ceil(6).max(1);
    let x_ticks = rounds
        .iter()
        .enumerate()
        .filter(|(i, _)| i % step == 0 || *i + 1 == rounds.len())
        .map(|(i, r)| Tick {
            at: coordinate(x(i)),
            label: r.to_string(),
        })
        .collect();
    let y_ticks = (0..=most)
        .step_by(usize::try_from(y_step).unwrap_or(1))
        .map(|v| Tick {
            at: coordinate(y(v)),
            label: v.to_string(),
        })
        .collect();
    let rows = players
        .iter()
        .map(|(name, values)| {
            let cells = values
                .iter()
                .map(|v| v.map_or("—".to_string(), |v| v.to_string()))
                .collect();
            (name.clone(), cells)
        })
        .collect();
    Some(Chart {
        id: format!("chart-{}", column.to_lowercase()),
        title: format!("{column} of every player after each round"),
        series,
        x_ticks,
        y_ticks,
        rounds,
        rows,
    })
}

/// The lobby page's charts: the pools the game charts, those its rounds show.
pub fn charts(game: GameKind, history: &[RoundBlock]) -> Vec<Chart> {
    with_game!(game, G => G::CHARTS)
        .iter()
        .filter_map(|key| chart(history, &heading(game, key)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::pages::table::PoolsTable;
    use serde_json::json;

    fn block(round: u32, hp: [i64; 2], vp: [i64; 2]) -> RoundBlock {
        let players = [
            json!({"id": "a", "name": "Ann", "hp": hp[0], "vp": vp[0]}),
            json!({"id": "b", "name": "<b>Bob</b>", "hp": hp[1], "vp": vp[1]}),
        ];
        RoundBlock {
            game: crate::host::GameKind::CrossingSwords,
            round,
            orders: Vec::new(),
            voted: Vec::new(),
            log: Vec::new(),
            table: PoolsTable::of(crate::host::GameKind::CrossingSwords, &players, false),
            resolved: None,
        }
    }

    #[test]
    fn every_player_gets_a_line_and_the_numbers_a_table() {
        let history = [block(1, [20, 17], [0, 3]), block(2, [14, 17], [3, 9])];
        let charts = charts(GameKind::CrossingSwords, &history);
        assert_eq!(charts.len(), 2);
        let hp = &charts[0];
        assert_eq!(hp.title, "HP of every player after each round");
        assert_eq!(hp.series.len(), 2);
        // Round 1 at the left edge, round 2 at the right; 20 HP at the top.
        assert_eq!(hp.series[0].points, "30.0,8.0 312.0,47.0");
        assert_ne!(hp.series[0].colour, hp.series[1].colour);
        assert_eq!(
            hp.rows[1],
            ("<b>Bob</b>".to_string(), vec!["17".into(), "17".into()])
        );
        assert_eq!(hp.rounds, vec![1, 2]);
        let labels: Vec<&str> = charts[1].y_ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(
            labels,
            ["0", "2", "4", "6", "8", "10"],
            "VP up to 9: steps of 2"
        );
    }

    #[test]
    fn no_rounds_no_chart() {
        assert!(charts(GameKind::CrossingSwords, &[]).is_empty());
    }
}
