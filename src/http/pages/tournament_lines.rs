//! A tournament as its pages show it (docs/tournaments.md, "The pages"): each round's games
//! with their results, the byes, the standings with their tie-breaks, and what the round in
//! play is. Shared by the public page and the director's panel.

use crate::host::tournaments::{ResultView, TournamentView};
use crate::tournament::Format;

/// One game's line: its lobby, who plays it, and how it ended (empty while it runs).
pub struct GameLine {
    pub lobby: String,
    /// Who plays it, in seat order: handles, or pseudonyms while an anonymous game runs.
    pub players: String,
    pub result: String,
}

pub struct RoundLines {
    pub round: i64,
    pub games: Vec<GameLine>,
    pub byes: String,
    pub finished: bool,
}

pub struct StandingLine {
    pub rank: u32,
    pub handle: String,
    pub points: String,
    pub tiebreaks: String,
}

fn result_line(result: &ResultView) -> String {
    match result {
        ResultView::Won { winner } => format!("{winner} won"),
        ResultView::Forfeited { winner } => format!("{winner} won by forfeit"),
        ResultView::Drawn => "drawn".into(),
        ResultView::Board { winners, .. } => format!("won by {}", winners.join(", ")),
    }
}

/// Every round, the newest first.
pub fn round_lines(view: &TournamentView) -> Vec<RoundLines> {
    view.rounds
        .iter()
        .rev()
        .map(|r| RoundLines {
            round: r.round,
            finished: r.finished,
            byes: r.byes.join(", "),
            games: r
                .games
                .iter()
                .map(|g| GameLine {
                    lobby: g.lobby.to_string(),
                    players: g.players.join(" v "),
                    result: g.result.as_ref().map(result_line).unwrap_or_default(),
                })
                .collect(),
        })
        .collect()
}

pub fn standing_lines(view: &TournamentView) -> Vec<StandingLine> {
    view.standings
        .iter()
        .map(|s| StandingLine {
            rank: s.rank,
            handle: s.handle.clone(),
            points: s.points.to_string(),
            tiebreaks: serde_json::to_value(&s.tiebreaks)
                .ok()
                .and_then(|v| v.as_object().cloned())
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| format!("{} {v}", k.replace('_', " ")))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default(),
        })
        .collect()
}

/// Where the tournament stands, in words: "Entries are open", "Round 2 of 3", "Finished".
pub fn progress(status: &str, round: i64, rounds_total: i64) -> String {
    match status {
        "entries" => "Entries are open".to_string(),
        "finished" => "Finished".to_string(),
        _ => format!("Round {round} of {rounds_total}"),
    }
}

/// The format as the API spells it (`swiss`, `round-robin`, `knockout`, `melee`).
pub fn format_name(format: Format) -> String {
    serde_json::to_value(format)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}
