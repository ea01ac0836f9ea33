//! Where a lobby stands, in words: the detail the home page's lists and a person's own games
//! show beside each lobby's name.

use crate::host::views::LobbySummary;
use crate::store::Status;

/// Where a lobby stands, in words.
pub fn detail(summary: &LobbySummary) -> String {
    match (summary.status, summary.round) {
        (Status::Signups, _) => "sign-ups open".to_string(),
        (Status::Closed, _) => "sign-ups closed, starting soon".to_string(),
        (Status::Running, Some(round)) => format!("round {round}"),
        (Status::Finished, Some(round)) => format!("finished after round {round}"),
        (Status::Running | Status::Finished, None) => summary.status.as_str().to_string(),
    }
}
