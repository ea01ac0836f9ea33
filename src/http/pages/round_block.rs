//! One round as the pages show it: its revealed orders and log as lines, the pools after it;
//! built from a resolved round, or from what the running round has revealed so far. The lobby,
//! play and round pages, the charts and the forum posts all read it.

use super::deadline::Stamp;
use super::seat_labels::SeatLabels;
use super::table::{PoolsTable, describe_order, names, order_line};
use crate::games::cite::{Cited, cite};
pub use crate::games::telling::round_name;
use crate::games::{GameUi, with_game};
use crate::host::GameKind;
use crate::host::views::LobbyView;

/// One resolved round as shown: orders and log as lines, the pools after it.
pub struct RoundBlock {
    /// The game played, whose codes the orders show as chips.
    pub game: GameKind,
    pub round: u32,
    /// The game's round cap, if it has one: the round is then named "Round 4 of 8".
    pub cap: Option<u64>,
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

/// The revealed orders as lines. An answer of a later step than the round's first (a BST
/// Follow-up after the play) says whose decision it was ("Mia's follow-up: token Y9"), so
/// that it does not read as a second order.
fn order_lines(
    orders: &[serde_json::Value],
    game: GameKind,
    names: &super::table::Names,
    labels: &SeatLabels,
) -> Vec<String> {
    let first = orders.first().and_then(|o| o["step"].as_str());
    orders
        .iter()
        .map(|o| match o["step"].as_str() {
            Some(step) if Some(step) != first => {
                let who = o["player"]["name"].as_str().unwrap_or("?");
                let id = o["player"]["id"].as_str().unwrap_or_default();
                format!(
                    "{}'s {}: {}",
                    labels.label(id, who),
                    with_game!(game, G => G::step_noun(step)),
                    describe_order(&o["order"], names)
                )
            }
            _ => order_line(o, names, labels),
        })
        .collect()
}

/// A log's lines in words (`telling::log_words`), with their citations.
fn log_lines(log: &[serde_json::Value], game: GameKind) -> Vec<Cited> {
    with_game!(game, G => crate::games::telling::log_words::<G>(log))
        .iter()
        .map(|text| cite(text, game))
        .collect()
}

impl RoundBlock {
    /// "Round 4 of 8" (or "Round 4" without a cap).
    pub fn name(&self) -> String {
        round_name(self.round, self.cap)
    }

    /// The revealed orders with the game's codes as chips (`chips.rs`).
    pub fn shown_orders(&self) -> Vec<Vec<super::chips::Piece>> {
        self.orders
            .iter()
            .map(|line| super::chips::order_pieces(self.game, line))
            .collect()
    }

    /// The round as shown, each substitute named with whom they replaced (`labels`).
    pub fn of(view: &crate::host::RoundView, lobby: &LobbyView, labels: &SeatLabels) -> RoundBlock {
        let game = lobby.game;
        let players = view.pools["players"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let names = names(&players);
        let table = PoolsTable::of(game, &players, false).relabeled(labels);
        RoundBlock {
            game,
            round: view.round,
            cap: lobby.max_rounds,
            orders: order_lines(&view.orders, game, &names, labels),
            voted: voted(&view.orders),
            log: log_lines(&view.log, game),
            table,
            resolved: Some(Stamp::of_millis(view.resolved_at)),
        }
    }
}

impl RoundBlock {
    /// The pools at the start of the game, as round 0 (the charts' first point).
    pub fn start(pools: &serde_json::Value, lobby: &LobbyView, labels: &SeatLabels) -> RoundBlock {
        let players = pools["players"].as_array().cloned().unwrap_or_default();
        RoundBlock {
            game: lobby.game,
            round: 0,
            cap: lobby.max_rounds,
            orders: Vec::new(),
            voted: Vec::new(),
            log: Vec::new(),
            table: PoolsTable::of(lobby.game, &players, false).relabeled(labels),
            resolved: None,
        }
    }
}

/// What the running round has revealed so far (BST: the play step while its decision steps
/// run), if anything.
pub fn so_far(lobby: &LobbyView, labels: &SeatLabels) -> Option<RoundBlock> {
    let current = lobby.current_round.as_ref()?;
    let names = names(&lobby.players);
    let orders = current["orders"].as_array()?;
    Some(RoundBlock {
        game: lobby.game,
        cap: lobby.max_rounds,
        round: current["round"]
            .as_u64()
            .and_then(|r| u32::try_from(r).ok())?,
        orders: order_lines(orders, lobby.game, &names, labels),
        voted: voted(orders),
        log: log_lines(current["log"].as_array()?, lobby.game),
        table: PoolsTable::default(),
        resolved: None,
    })
}
