//! The game's charted pools (`GameUi::CHARTS`: Crossing Swords' HP and VP, say) of every player
//! over the rounds, as inline SVG for the lobby page (`chart.html`): drawn on the server from
//! the pools after each round, no script and nothing loaded from
//! elsewhere. Sixteen colours, one per seat of the largest game, each at 4.7:1 contrast or
//! better on the page (WCAG asks 3:1 of a graphic); the first are Okabe-Ito's darker hues (told
//! apart with colour blindness), each line also has its own dash pattern and a labelled
//! legend; the same numbers follow as a table, the chart's text alternative. Every line starts
//! at round 0 (the pools at the start), and a seat's line ends at the last round it played:
//! a seat that left the game (killed, kicked) does not plunge to 0.

use super::round_block::RoundBlock;
use super::table::heading;
use crate::games::{GameUi, with_game};
use crate::host::GameKind;

/// Sixteen colours, the most distinct first; each at least 4.7:1 against the page's paper
/// (`tests` checks it).
const COLOURS: [&str; 16] = [
    "#0072B2", "#C23B00", "#007A55", "#B0307F", "#5B2C9F", "#1D1F24", "#8A6500", "#0E7C86",
    "#A11D48", "#3A6B00", "#7A4A12", "#2F4B9A", "#B5179E", "#5D6D00", "#9E2A2B", "#4F5D75",
];
const DASHES: [&str; 3] = ["", "6 3", "2 3"];

/// The drawing area, in the SVG's own units (it scales to the page's width).
const WIDTH: f64 = 320.0;
const HEIGHT: f64 = 160.0;
const LEFT: f64 = 34.0;
const RIGHT: f64 = 8.0;
const TOP: f64 = 8.0;
const BOTTOM: f64 = 24.0;

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

/// One seat's values of a column: as shown in the numbers table, and as drawn (none once the
/// seat is out of the game, so that its line ends where it left).
struct SeatValues {
    name: String,
    shown: Vec<Option<i64>>,
    drawn: Vec<Option<i64>>,
}

/// The value of `column` for every player after every round; None if no round shows it.
/// One line per seat (its player id), named as its latest round names it: a substitute's
/// rounds continue the line of the seat they took ("Eve (for Bob)").
fn values(history: &[&RoundBlock], column: &str) -> Option<Vec<SeatValues>> {
    let mut players: Vec<(String, SeatValues)> = Vec::new();
    let mut seen = false;
    for (i, block) in history.iter().enumerate() {
        let index = block.table.columns.iter().position(|c| c == column);
        for row in &block.table.rows {
            let value = index.and_then(|k| row.cells.get(k)?.parse::<i64>().ok());
            seen |= value.is_some();
            let at = match players.iter().position(|(id, _)| *id == row.id) {
                Some(at) => at,
                None => {
                    let empty = SeatValues {
                        name: String::new(),
                        shown: vec![None; history.len()],
                        drawn: vec![None; history.len()],
                    };
                    players.push((row.id.clone(), empty));
                    players.len() - 1
                }
            };
            let seat = &mut players[at].1;
            seat.name.clone_from(&row.name);
            seat.shown[i] = value;
            seat.drawn[i] = value.filter(|_| row.alive);
        }
    }
    seen.then(|| players.into_iter().map(|(_, seat)| seat).collect())
}

/// The chart of the pools column headed `column` ("HP") over `history` (oldest round first), if it has one.
pub fn chart(history: &[&RoundBlock], column: &str) -> Option<Chart> {
    let players = values(history, column)?;
    let highest = players
        .iter()
        .flat_map(|seat| seat.shown.iter().flatten())
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
        .map(|(n, seat)| {
            let dots: Vec<(String, String)> = seat
                .drawn
                .iter()
                .enumerate()
                .filter_map(|(i, v)| v.map(|v| (coordinate(x(i)), coordinate(y(v)))))
                .collect();
            Series {
                name: seat.name.clone(),
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
        .map(|seat| {
            let cells = seat
                .shown
                .iter()
                .map(|v| v.map_or("—".to_string(), |v| v.to_string()))
                .collect();
            (seat.name.clone(), cells)
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

/// The lobby page's charts: the pools the game charts, those its rounds show, from `start`
/// (round 0, the pools at the start, when known) through `history` (oldest first).
pub fn charts(game: GameKind, start: Option<&RoundBlock>, history: &[RoundBlock]) -> Vec<Chart> {
    if history.is_empty() {
        return Vec::new();
    }
    let drawn: Vec<&RoundBlock> = start.into_iter().chain(history).collect();
    with_game!(game, G => G::CHARTS)
        .iter()
        .filter_map(|key| chart(&drawn, &heading(game, key)))
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
            cap: None,
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
        let charts = charts(GameKind::CrossingSwords, None, &history);
        assert_eq!(charts.len(), 2);
        let hp = &charts[0];
        assert_eq!(hp.title, "HP of every player after each round");
        assert_eq!(hp.series.len(), 2);
        // Round 1 at the left edge, round 2 at the right; 20 HP at the top.
        assert_eq!(hp.series[0].points, "34.0,8.0 312.0,46.4");
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

    /// WCAG's relative luminance of `#rrggbb`.
    fn luminance(hex: &str) -> f64 {
        let channel = |i: usize| {
            let c = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
    }

    #[test]
    fn sixteen_players_get_sixteen_colours_each_at_three_to_one_on_the_page() {
        let unique: std::collections::HashSet<&str> = COLOURS.iter().copied().collect();
        assert_eq!(unique.len(), 16);
        // The card the chart is drawn on is white; the page around it is the paper.
        for paper in ["#ffffff", "#fbfaf7"] {
            for colour in COLOURS {
                let (a, b) = (luminance(paper), luminance(colour));
                let ratio = (a.max(b) + 0.05) / (a.min(b) + 0.05);
                assert!(ratio >= 3.0, "{colour} on {paper}: {ratio:.2}");
            }
        }
    }

    #[test]
    fn the_lines_start_at_round_0_and_a_seat_that_left_is_not_drawn_down_to_0() {
        let start = block(0, [20, 20], [0, 0]);
        let mut history = vec![block(1, [17, 14], [3, 3]), block(2, [14, 0], [6, 6])];
        history[1].table.rows[1].alive = false;
        let charts = charts(GameKind::CrossingSwords, Some(&start), &history);
        let hp = &charts[0];
        assert_eq!(hp.rounds, vec![0, 1, 2]);
        assert_eq!(hp.series[0].dots.len(), 3, "Ann from the start to round 2");
        assert_eq!(hp.series[1].dots.len(), 2, "Bob's line ends at round 1");
        assert_eq!(
            hp.rows[1].1,
            vec!["20", "14", "0"],
            "the numbers say it all"
        );
    }

    #[test]
    fn no_rounds_no_chart() {
        assert!(charts(GameKind::CrossingSwords, None, &[]).is_empty());
    }
}
