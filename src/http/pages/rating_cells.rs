//! The final standings' rating column (docs/ratings.md, "What is shown"): each seat's change
//! from a finished rated lobby's `result.rating_changes`, in words (`1500? → 1662? (+162)`).
//! The lobby page's result and the forum's final standings post both show it.

use serde::Deserialize;
use serde_json::Value;

use crate::ratings::EntryChange;

/// One element of `rating_changes`.
#[derive(Deserialize)]
struct SeatChange {
    player: String,
    handle: String,
    #[serde(flatten)]
    change: EntryChange,
}

/// The column's cell for each of `standings` (in their order), or None when the game moved
/// no rating. A seat whose rated profile is not the name it shows (a substitute played it on)
/// names the profile; a seat nobody was rated for reads "—".
pub fn rating_cells(result: &Value, standings: &[Value]) -> Option<Vec<String>> {
    let changes: Vec<SeatChange> =
        serde_json::from_value(result.get("rating_changes")?.clone()).ok()?;
    if changes.is_empty() {
        return None;
    }
    let cells = standings
        .iter()
        .map(|seat| {
            let Some(change) = changes.iter().find(|c| seat["player"] == c.player.as_str()) else {
                return "—".to_owned();
            };
            let words = change.change.in_words();
            match seat["name"].as_str() == Some(change.handle.as_str()) {
                true => words,
                false => format!("{}: {words}", change.handle),
            }
        })
        .collect();
    Some(cells)
}
