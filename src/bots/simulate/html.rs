//! The report as one HTML file that needs nothing else: inline style, charts as inline SVG
//! drawn here, no script and no network (`templates/simulate_report.html`).

use askama::Template;

use super::report::{Report, Row, percent_with_interval};

/// The plot's left edge and its width for 100%, in the SVG's units.
const PLOT_X: f64 = 200.0;
const PLOT_W: f64 = 360.0;
const ROW_H: u32 = 24;
/// The longest label drawn in a chart (the tables hold the whole).
const LABEL_CHARS: usize = 30;

#[derive(Template)]
#[template(path = "simulate_report.html")]
struct Page<'a> {
    r: &'a Report,
    results: Vec<(&'static str, &'a [Row], BarChart)>,
    draws: String,
    rounds: Histogram,
    answers: Vec<BarChart>,
}

/// Horizontal bars, each with its interval (when it has one) and its value in words.
struct BarChart {
    title: String,
    height: u32,
    bars: Vec<Bar>,
}

struct Bar {
    label: String,
    /// The bar's top.
    y: u32,
    /// The bar's width, and its interval's ends, as SVG numbers.
    width: String,
    low: String,
    high: String,
    interval: bool,
    value: String,
}

struct Histogram {
    bars: Vec<Column>,
    max: u64,
}

struct Column {
    x: String,
    y: String,
    width: String,
    height: String,
    label: String,
    games: u64,
}

fn x(share: f64) -> String {
    format!("{:.1}", PLOT_X + share.clamp(0.0, 1.0) * PLOT_W)
}

fn short(label: &str) -> String {
    match label.chars().count() > LABEL_CHARS {
        true => format!(
            "{}…",
            label.chars().take(LABEL_CHARS - 1).collect::<String>()
        ),
        false => label.to_owned(),
    }
}

fn chart(
    title: String,
    bars: impl Iterator<Item = (String, f64, Option<(f64, f64)>, String)>,
) -> BarChart {
    let bars: Vec<Bar> = bars
        .enumerate()
        .map(|(i, (label, share, interval, value))| {
            let (low, high) = interval.unwrap_or((share, share));
            Bar {
                label: short(&label),
                y: 8 + i as u32 * ROW_H,
                width: format!("{:.1}", share.clamp(0.0, 1.0) * PLOT_W),
                low: x(low),
                high: x(high),
                interval: interval.is_some(),
                value,
            }
        })
        .collect();
    BarChart {
        title,
        height: 16 + bars.len() as u32 * ROW_H,
        bars,
    }
}

fn win_chart(title: &str, rows: &[Row]) -> BarChart {
    chart(
        format!("Win rate {title} (95% interval)"),
        rows.iter().map(|r| {
            (
                r.label.clone(),
                r.win.share,
                Some((r.win.low, r.win.high)),
                percent_with_interval(&r.win),
            )
        }),
    )
}

fn histogram(report: &Report) -> Histogram {
    const W: f64 = 560.0;
    const H: f64 = 140.0;
    let buckets = &report.rounds.buckets;
    let max = buckets.iter().map(|b| b.2).max().unwrap_or(0).max(1);
    let width = W / buckets.len().max(1) as f64;
    let bars = buckets
        .iter()
        .enumerate()
        .map(|(i, &(lo, hi, games))| {
            let h = games as f64 / max as f64 * H;
            Column {
                x: format!("{:.1}", 40.0 + i as f64 * width),
                y: format!("{:.1}", 10.0 + H - h),
                width: format!("{:.1}", (width - 2.0).max(1.0)),
                height: format!("{h:.1}"),
                label: match lo == hi {
                    true => lo.to_string(),
                    false => format!("{lo}–{hi}"),
                },
                games,
            }
        })
        .collect();
    Histogram { bars, max }
}

/// The report as a self-contained HTML page.
pub fn html(report: &Report) -> Result<String, askama::Error> {
    let mut results = vec![
        ("by strategy", report.by_strategy.as_slice()),
        ("by seat", report.by_seat.as_slice()),
    ];
    if !report.by_join.is_empty() {
        results.push(("by join choice", report.by_join.as_slice()));
    }
    let answers = report
        .answers
        .iter()
        .map(|a| {
            chart(
                format!("{}: {} ({} answers)", a.step, a.strategy, a.total),
                a.shares.iter().map(|(word, _, share)| {
                    (word.clone(), *share, None, format!("{:.1}%", share * 100.0))
                }),
            )
        })
        .collect();
    Page {
        r: report,
        results: results
            .into_iter()
            .map(|(title, rows)| (title, rows, win_chart(title, rows)))
            .collect(),
        draws: percent_with_interval(&report.draws),
        rounds: histogram(report),
        answers,
    }
    .render()
}
