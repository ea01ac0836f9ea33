//! Display models built from the host's public JSON: the pools table (its columns are whatever
//! public pools the game publishes, in the order the game gives, [`GameUi::POOLS`], headed as
//! it says, [`GameUi::POOL_HEADINGS`]), revealed orders and final standings as lines of text.
//! Player ids inside values are shown as names.

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;
use serde_json::Value;

use super::chips::{Chip, cell_chips};
use super::seat_labels::SeatLabels;
use crate::games::telling::FinalResult;
use crate::games::{GameUi, with_game, words};
use crate::host::GameKind;

/// A public player as the host's views publish it (`PublicPlayer` in the API document), read
/// once: the fields every game has, and beside them the game's public pools, whatever they
/// are.
#[derive(Clone, Debug, Deserialize)]
pub struct PublicPlayer {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub name: String,
    #[serde(default = "alive")]
    pub alive: bool,
    /// An order for the current step is in (never what it is).
    #[serde(default)]
    pub submitted: bool,
    /// An answer is due from this player in the current step.
    #[serde(default)]
    pub owes: bool,
    /// Everything else the host publishes of the player: the game's pools.
    #[serde(flatten)]
    pub pools: BTreeMap<String, Value>,
}

fn alive() -> bool {
    true
}

impl PublicPlayer {
    /// The players of a view, each read into its fields. The host builds these objects itself,
    /// so one it could not have built is left out rather than shown half-read.
    pub fn all(players: &[Value]) -> Vec<PublicPlayer> {
        players
            .iter()
            .filter_map(|p| PublicPlayer::deserialize(p).ok())
            .collect()
    }
}

/// Where `key` goes: the game's pools first, in its order; any other key follows
/// alphabetically (JSON objects here keep no field order).
fn rank(game: GameKind, key: &str) -> (usize, String) {
    let first = with_game!(game, G => G::POOLS);
    let place = first.iter().position(|k| *k == key).unwrap_or(first.len());
    (place, key.to_owned())
}

/// A table of every player's public pools.
#[derive(Clone, Debug, Default)]
pub struct PoolsTable {
    pub columns: Vec<String>,
    pub rows: Vec<PoolsRow>,
    /// The id of the player looking, whose row says "(you)".
    pub you: Option<String>,
    /// The game is over: the result ranks everyone, so no row is tagged "out" (a duel's loser
    /// on points at the round cap is not knocked out).
    pub over: bool,
    /// A duel: a player falls only as the game ends, which the result tells, so no row is
    /// tagged "out" and the exports have no "Alive" column (a loser on points at the round
    /// cap would read as knocked out).
    pub duel: bool,
}

#[derive(Clone, Debug)]
pub struct PoolsRow {
    pub id: String,
    pub name: String,
    pub alive: bool,
    pub cells: Vec<String>,
    /// "submitted" / "waiting" while orders are being collected, empty otherwise.
    pub order_state: String,
    /// Each cell's chips, aligned with `cells` (none for a cell that is not a list of the
    /// game's codes).
    pub chips: Vec<Vec<Chip>>,
}

impl PoolsRow {
    /// Each cell with its chips.
    pub fn shown_cells(&self) -> Vec<(&str, Vec<Chip>)> {
        self.cells
            .iter()
            .zip(&self.chips)
            .map(|(cell, chips)| (cell.as_str(), chips.clone()))
            .collect()
    }
}

/// Player id → name, for showing ids inside pools, orders and results.
pub type Names = HashMap<String, String>;

pub fn names(players: &[Value]) -> Names {
    PublicPlayer::all(players)
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect()
}

/// A column heading for a key of `game`'s pools or table: the game's own heading if it gives
/// one (`hp` → `HP`), else the key in words (`off_balance` → `Off balance`).
pub fn heading(game: GameKind, key: &str) -> String {
    let own = with_game!(game, G => G::POOL_HEADINGS);
    match own.iter().find(|(k, _)| *k == key) {
        Some((_, heading)) => (*heading).to_owned(),
        None => words(key),
    }
}

/// A value as a person reads it.
pub fn show(value: &Value, names: &Names) -> String {
    match value {
        Value::Null => "—".into(),
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => match names.get(s) {
            Some(name) => name.clone(),
            // A game's identifier (`sellsword`, `last-standing`) reads better as words.
            None if !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') => {
                title(s)
            }
            None => s.clone(),
        },
        Value::Array(items) if items.is_empty() => "—".into(),
        // Items that are records themselves (a fighter's modifiers) are set apart more
        // strongly than their own fields are.
        Value::Array(items) => items
            .iter()
            .map(|v| show(v, names))
            .collect::<Vec<_>>()
            .join(match items.iter().any(Value::is_object) {
                true => "; ",
                false => ", ",
            }),
        Value::Object(map) if map.is_empty() => "—".into(),
        Value::Object(map) => match map.get("name").and_then(Value::as_str) {
            Some(name) => name.to_owned(),
            // A nested pool (a fighter's ratings, a build) reads as its fields in words, never
            // as JSON.
            None => map
                .iter()
                .map(|(key, v)| format!("{} {}", words(key), show(v, names)))
                .collect::<Vec<_>>()
                .join(", "),
        },
    }
}

impl PoolsTable {
    /// Builds the table from public player objects. `collecting`: orders are being collected
    /// now, so each row says whether that player has submitted.
    pub fn of(game: GameKind, players: &[Value], collecting: bool) -> PoolsTable {
        let players = PublicPlayer::all(players);
        let names: Names = players
            .iter()
            .map(|p| (p.id.clone(), p.name.clone()))
            .collect();
        let mut columns: Vec<String> = Vec::new();
        for player in &players {
            for key in player.pools.keys() {
                if !columns.contains(key) {
                    columns.push(key.clone());
                }
            }
        }
        columns.sort_by_key(|c| rank(game, c));
        let rows = players
            .into_iter()
            .map(|p| {
                let order_state = match (collecting, p.submitted, p.owes) {
                    (true, true, _) => "submitted",
                    (true, _, true) => "waiting",
                    _ => "",
                };
                let cells: Vec<String> = columns
                    .iter()
                    .map(|c| show(p.pools.get(c).unwrap_or(&Value::Null), &names))
                    .collect();
                PoolsRow {
                    chips: cells.iter().map(|cell| cell_chips(game, cell)).collect(),
                    id: p.id,
                    name: p.name,
                    alive: p.alive,
                    cells,
                    order_state: order_state.into(),
                }
            })
            .collect();
        PoolsTable {
            columns: columns.iter().map(|c| heading(game, c)).collect(),
            rows,
            you: None,
            over: false,
            duel: with_game!(game, G => G::DUEL),
        }
    }

    /// Names each substitute with whom they replaced ("Eve (for Bob)").
    pub fn relabeled(mut self, labels: &SeatLabels) -> PoolsTable {
        for row in &mut self.rows {
            row.name = labels.label(&row.id, &row.name);
        }
        self
    }

    /// The table as `you` (a player id) sees it, in a game that is `over` or not.
    pub fn seen(self, you: Option<&str>, over: bool) -> PoolsTable {
        PoolsTable {
            you: you.map(str::to_owned),
            over,
            ..self
        }
    }

    /// Whether `row` is the looking player's own.
    pub fn is_you(&self, row: &PoolsRow) -> bool {
        self.you.as_deref() == Some(row.id.as_str())
    }

    /// Whether `row` is tagged "out": out of a game still running.
    pub fn shows_out(&self, row: &PoolsRow) -> bool {
        !row.alive && !self.over && !self.duel
    }

    /// The heading of column `i` (each cell carries it, for the card a phone shows per row).
    pub fn heading_at(&self, i: &usize) -> &str {
        self.columns.get(*i).map_or("", String::as_str)
    }

    /// The headings as exporters use them (name first, then the pools, then "Alive").
    pub fn headings(&self) -> Vec<String> {
        let mut headings = vec!["Player".to_string()];
        headings.extend(self.columns.iter().cloned());
        if !self.duel {
            headings.push("Alive".into());
        }
        headings
    }

    /// Rows of plain cells for exporters, aligned with [`PoolsTable::headings`].
    pub fn plain_rows(&self) -> Vec<Vec<String>> {
        self.rows
            .iter()
            .map(|row| {
                let mut cells = vec![row.name.clone()];
                cells.extend(row.cells.iter().cloned());
                if !self.duel {
                    cells.push(if row.alive { "yes" } else { "no" }.into());
                }
                cells
            })
            .collect()
    }
}

/// A kebab-case identifier as words: `piercing-strike` → `Piercing strike`.
pub fn title(id: &str) -> String {
    words(id)
}

/// One revealed order as a line: `Ann: Strike → Bob`. Game-agnostic: the `move` first, a
/// `target` after an arrow, any other field as `field value`.
pub fn order_line(entry: &Value, names: &Names, labels: &SeatLabels) -> String {
    let who = entry["player"]["name"].as_str().unwrap_or("?");
    let id = entry["player"]["id"].as_str().unwrap_or_default();
    format!(
        "{}: {}",
        labels.label(id, who),
        describe_order(&entry["order"], names)
    )
}

/// An order body as words.
pub fn describe_order(order: &Value, names: &Names) -> String {
    let Value::Object(fields) = order else {
        return show(order, names);
    };
    let mut parts = Vec::new();
    // A game may tag each revealed answer with its kind (`answer`); the tag is worth showing
    // only when nothing else says it.
    if let Some(answer) = fields.get("answer").and_then(Value::as_str)
        && fields.len() == 1
    {
        parts.push(title(answer));
    }
    if let Some(mv) = fields.get("move").and_then(Value::as_str) {
        parts.push(title(mv));
    }
    if let Some(target) = fields.get("target") {
        parts.push(format!("→ {}", show(target, names)));
    }
    for (key, value) in fields {
        if !["move", "target", "answer"].contains(&key.as_str()) {
            parts.push(format!(
                "{} {}",
                words(key).to_lowercase(),
                show(value, names)
            ));
        }
    }
    parts.join(" ")
}

/// The final standings, best first.
#[derive(Clone, Debug)]
pub struct Standings {
    /// Who won and why, as every telling of the result says it ("Winner: Ann (round cap).",
    /// [`FinalResult::headline`]).
    pub headline: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Standings {
    /// From a game's `result` (`{winners, reason, standings: [{player, name, place, ...}]}`).
    /// Each substitute is named with whom they replaced (`labels`).
    pub fn of(game: GameKind, result: &Value, names: &Names, labels: &SeatLabels) -> Standings {
        let list = result["standings"].as_array().cloned().unwrap_or_default();
        let mut extra: Vec<String> = Vec::new();
        for entry in &list {
            if let Value::Object(map) = entry {
                for key in map.keys() {
                    let fixed = ["player", "id", "place", "name"].contains(&key.as_str());
                    if !fixed && !extra.contains(key) {
                        extra.push(key.clone());
                    }
                }
            }
        }
        extra.sort_by_key(|c| rank(game, c));
        let mut columns = vec!["place".to_string(), "name".to_string()];
        columns.extend(extra);
        let mut rows: Vec<Vec<String>> = list
            .iter()
            .map(|e| {
                columns
                    .iter()
                    .map(|c| match (c.as_str(), &e[c]) {
                        // A name is shown as typed, never re-cased.
                        ("name", Value::String(name)) => {
                            labels.label(e["player"].as_str().unwrap_or_default(), name)
                        }
                        (_, value) => show(value, names),
                    })
                    .collect()
            })
            .collect();
        let mut columns: Vec<String> = columns.iter().map(|c| heading(game, c)).collect();
        if let Some(cells) = super::rating_cells::rating_cells(result, &list) {
            columns.push("Rating".into());
            rows.iter_mut()
                .zip(cells)
                .for_each(|(row, cell)| row.push(cell));
        }
        Standings {
            headline: FinalResult::read(result)
                .map(|r| r.relabeled(|id, name| labels.label_of(id, name)).headline())
                .unwrap_or_default(),
            columns,
            rows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_nested_pool_reads_as_words_and_never_as_json() {
        let names = Names::new();
        let ratings = json!({"might": 3, "skill": 2});
        assert_eq!(show(&ratings, &names), "Might 3, Skill 2");
        // Written in alphabetical order, so that the map's order does not matter.
        let modifiers =
            json!([{"amount": 1, "attribute": "might"}, {"amount": -1, "attribute": "mind"}]);
        assert_eq!(
            show(&modifiers, &names),
            "Amount 1, Attribute Might; Amount -1, Attribute Mind"
        );
        assert_eq!(show(&json!({}), &names), "—");
    }

    #[test]
    fn pools_become_columns_and_ids_become_names() {
        let players = vec![
            json!({"id": "a", "name": "Ann", "alive": true, "submitted": true, "owes": true, "hp": 20, "vp": 0, "focus": "b", "dodge": null}),
            json!({"id": "b", "name": "Bob", "alive": false, "submitted": false, "owes": false, "hp": 0, "vp": 3, "focus": null, "dodge": null}),
        ];
        let table = PoolsTable::of(GameKind::CrossingSwords, &players, true);
        assert_eq!(table.columns, vec!["HP", "VP", "Focus", "Dodge"]);
        assert_eq!(table.rows[0].cells, vec!["20", "0", "Bob", "—"]);
        assert_eq!(table.rows[0].order_state, "submitted");
        assert_eq!(table.rows[1].order_state, "");
        assert_eq!(table.plain_rows()[1], vec!["Bob", "0", "3", "—", "—", "no"]);
        let bst = vec![
            json!({"id": "c", "name": "Cy", "character": "sellsword", "hand_size": 5, "off_balance": false}),
        ];
        let table = PoolsTable::of(GameKind::Bst, &bst, false);
        assert_eq!(table.columns, vec!["Character", "Off balance", "Hand size"]);
        assert_eq!(table.rows[0].cells, vec!["Sellsword", "no", "5"]);
    }

    #[test]
    fn out_is_said_only_while_the_game_runs_and_your_row_is_marked() {
        let players = vec![
            json!({"id": "a", "name": "Ann", "alive": true, "hp": 3}),
            json!({"id": "b", "name": "Bob", "alive": false, "hp": 9}),
        ];
        let running =
            PoolsTable::of(GameKind::CrossingSwords, &players, false).seen(Some("a"), false);
        assert!(running.shows_out(&running.rows[1]) && running.is_you(&running.rows[0]));
        assert!(!running.is_you(&running.rows[1]));
        let over = PoolsTable::of(GameKind::CrossingSwords, &players, false).seen(None, true);
        assert!(!over.shows_out(&over.rows[1]));
        assert_eq!(running.heading_at(&0), "HP");
        // A duel lost on points at the round cap: the result says so, "out" or "Alive: no"
        // would read as a knock-out, even on the last round's own table.
        let duel = PoolsTable::of(GameKind::Bst, &players, false).seen(None, false);
        assert!(!duel.shows_out(&duel.rows[1]));
        assert!(!duel.headings().contains(&"Alive".to_string()));
        assert_eq!(duel.plain_rows()[1], vec!["Bob", "9"]);
    }

    #[test]
    fn standings_keep_names_as_typed() {
        let b = "00000000-0000-0000-0000-00000000000b";
        let result = json!({"winners": [b], "reason": "last-standing", "standings": [
            {"player": b, "name": "dark-lord", "place": 1, "vp": 9, "hp": 0, "alive": true}
        ]});
        let names = Names::from([(b.to_string(), "dark-lord".to_string())]);
        let standings = Standings::of(
            GameKind::CrossingSwords,
            &result,
            &names,
            &SeatLabels::default(),
        );
        assert_eq!(
            standings.columns,
            vec!["Place", "Name", "HP", "VP", "Alive"]
        );
        assert_eq!(standings.rows[0], vec!["1", "dark-lord", "0", "9", "yes"]);
        assert_eq!(standings.headline, "Winner: dark-lord (last standing).");
    }

    #[test]
    fn orders_read_as_sentences() {
        let names = Names::from([("b".to_string(), "Bob".to_string())]);
        let entry = json!({"player": {"id": "a", "name": "Ann"}, "order": {"move": "strike", "target": "b"}});
        assert_eq!(
            order_line(&entry, &names, &SeatLabels::default()),
            "Ann: Strike → Bob"
        );
        let bst = json!({"answer": "play", "move": "piercing-strike", "token": "R7"});
        assert_eq!(describe_order(&bst, &names), "Piercing strike token R7");
        let pair = json!({"answer": "tokens", "tokens": ["R3", "Y3"]});
        assert_eq!(describe_order(&pair, &names), "tokens R3, Y3");
        assert_eq!(
            describe_order(&json!({"answer": "decline"}), &names),
            "Decline"
        );
    }
}
