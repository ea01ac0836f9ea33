//! The standings post for the forum thread (`docs/tournaments.md`, "The standings post"): a
//! heading, how the format scores, the standings table, and a link back to the tournament,
//! written as a [`forum::Post`] so that handles are escaped exactly as the lobbies' posts escape
//! players' names (square brackets become look-alikes in BBCode; Markdown gets a backslash only
//! where a character would be markup).

use crate::forum::{self, Block, Post};

use super::entrants::Format;
use super::standings::{StandingRow, Tiebreaks};

/// What the post says about its tournament.
#[derive(Clone, Copy, Debug)]
pub struct StandingsPost<'a> {
    /// The tournament's name, as its director typed it.
    pub name: &'a str,
    pub format: Format,
    /// The last round started (0 before the first).
    pub round: u32,
    pub rounds_total: u32,
    pub finished: bool,
    /// The tournament's page, absolute.
    pub url: &'a str,
}

impl StandingsPost<'_> {
    fn heading(&self) -> String {
        match (self.finished, self.round) {
            (true, _) => format!("{}: final standings", self.name),
            (false, 0) => format!("{}: entrants", self.name),
            (false, round) => format!(
                "{}: standings after round {} of {}",
                self.name, round, self.rounds_total
            ),
        }
    }

    /// How the format scores and breaks ties, in a sentence.
    fn scoring(&self) -> &'static str {
        match self.format {
            Format::Swiss => {
                "Swiss. A win scores 1, a draw ½, a bye 1. Ties are broken by Sonneborn-Berger, then Buchholz."
            }
            Format::RoundRobin => {
                "Round robin. A win scores 1, a draw ½, a bye 1. Ties are broken by Sonneborn-Berger."
            }
            Format::Knockout => {
                "Knockout. Points are the rounds won; those out in the same round share a place."
            }
            Format::Melee => {
                "Boards. Points are the VP scored on every board; ties are broken by the boards won."
            }
        }
    }
}

/// The table's headings: the player first (he leads each line of a BBCode list), then the place,
/// the points and the format's tie-breaks.
fn headings(format: Format) -> Vec<String> {
    let tiebreaks: &[&str] = match format {
        Format::Swiss => &["Sonneborn-Berger", "Buchholz"],
        Format::RoundRobin => &["Sonneborn-Berger"],
        Format::Knockout => &[],
        Format::Melee => &["Boards won"],
    };
    ["Player", "Place", "Points"]
        .iter()
        .chain(tiebreaks)
        .map(|h| (*h).to_owned())
        .collect()
}

fn cells(row: &StandingRow) -> Vec<String> {
    let mut cells = vec![
        row.handle.clone(),
        row.rank.to_string(),
        row.points.to_string(),
    ];
    match &row.tiebreaks {
        Tiebreaks::Swiss {
            sonneborn_berger,
            buchholz,
        } => {
            cells.push(sonneborn_berger.to_string());
            cells.push(buchholz.to_string());
        }
        Tiebreaks::RoundRobin { sonneborn_berger } => cells.push(sonneborn_berger.to_string()),
        Tiebreaks::Knockout {} => {}
        Tiebreaks::Melee { boards_won } => cells.push(boards_won.to_string()),
    }
    cells
}

/// The standings post: heading, scoring, the table of `rows`, and the link back.
pub fn standings_post(about: &StandingsPost, rows: &[StandingRow]) -> Post {
    Post(vec![
        Block::Heading(about.heading()),
        Block::Paragraph(about.scoring().to_owned()),
        Block::Table {
            title: "Standings".to_owned(),
            headings: headings(about.format),
            rows: rows.iter().map(cells).collect(),
        },
        Block::Link {
            label: format!("{} on Herald", about.name),
            url: about.url.to_owned(),
        },
    ])
}

/// The standings post as BBCode.
pub fn standings_bbcode(about: &StandingsPost, rows: &[StandingRow]) -> String {
    forum::bbcode(&standings_post(about, rows))
}

/// The standings post as Markdown.
pub fn standings_markdown(about: &StandingsPost, rows: &[StandingRow]) -> String {
    forum::markdown(&standings_post(about, rows))
}

#[cfg(test)]
mod tests;
