//! One round as the pages show it: its revealed orders and log as lines, the pools after it;
//! built from a resolved round, or from what the running round has revealed so far. The lobby,
//! play and round pages, the charts and the forum posts all read it.

use super::cite::{Cited, cite};
use super::deadline::Stamp;
use super::table::{PoolsTable, names, order_line};
use crate::host::GameKind;
use crate::host::views::LobbyView;

/// One resolved round as shown: orders and log as lines, the pools after it.
pub struct RoundBlock {
    /// The game played, whose codes the orders show as chips.
    pub game: GameKind,
    pub round: u32,
    pub orders: Vec<String>,
    /// Who voted for a draw with the revealed orders (docs/table-talk.md, "End votes").
    pub voted: Vec<String>,
    /// The log's lines, their rule citations linked to `game`'s rules page.
    pub log: Vec<Cited>,
    pub table: PoolsTable,
    /// When the round resolved (none while it runs).
    pub resolved: Option<Stamp>,
}

/// The names of the players whose revealed order carries a vote for a draw.
fn voted(orders: &[serde_json::Value]) -> Vec<String> {
    orders
        .iter()
        .filter(|o| o["vote"] == "draw")
        .filter_map(|o| o["player"]["name"].as_str().map(str::to_owned))
        .collect()
}

/// The `text` lines of a log's entries, with their citations.
fn log_lines(log: &[serde_json::Value], game: GameKind) -> Vec<Cited> {
    log.iter()
        .filter_map(|e| e["text"].as_str().map(|text| cite(text, game.id())))
        .collect()
}

impl RoundBlock {
    /// The revealed orders with the game's codes as chips (`chips.rs`).
    pub fn shown_orders(&self) -> Vec<Vec<super::chips::Piece>> {
        self.orders
            .iter()
            .map(|line| super::chips::order_pieces(self.game, line))
            .collect()
    }

    pub fn of(view: &crate::host::RoundView, game: GameKind) -> RoundBlock {
        let players = view.pools["players"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let names = names(&players);
        RoundBlock {
            game,
            round: view.round,
            orders: view.orders.iter().map(|o| order_line(o, &names)).collect(),
            voted: voted(&view.orders),
            log: log_lines(&view.log, game),
            table: PoolsTable::of(game, &players, false),
            resolved: Some(Stamp::of_millis(view.resolved_at)),
        }
    }
}

/// What the running round has revealed so far (BST: the play step while its decision steps
/// run), if anything.
pub fn so_far(lobby: &LobbyView) -> Option<RoundBlock> {
    let current = lobby.current_round.as_ref()?;
    let names = names(&lobby.players);
    let orders = current["orders"].as_array()?;
    Some(RoundBlock {
        game: lobby.game,
        round: current["round"]
            .as_u64()
            .and_then(|r| u32::try_from(r).ok())?,
        orders: orders.iter().map(|o| order_line(o, &names)).collect(),
        voted: voted(orders),
        log: log_lines(current["log"].as_array()?, lobby.game),
        table: PoolsTable::default(),
        resolved: None,
    })
}
