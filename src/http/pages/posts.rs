//! What goes into each forum post (rendered by `export.rs`): the sign-up announcement with the
//! join link, one round, the current pools, the final standings, and the whole game. Each post
//! ends with a link back to the game. Titles say what they show: the pools on a running lobby's
//! page are the pools *after* the last resolved round.

use super::export::{self, Block, Post};
use super::round_block::RoundBlock;
use super::table::{PoolsTable, Standings};
use crate::host::views::LobbyView;
use crate::store::Status;

/// A post ready for the page's two text areas.
pub struct Exports {
    pub bbcode: String,
    pub markdown: String,
}

impl Exports {
    pub fn of(post: &Post) -> Exports {
        Exports {
            bbcode: export::bbcode(post),
            markdown: export::markdown(post),
        }
    }
}

/// Where a lobby's links point: the absolute base (`http://host:port`) and the lobby's id.
pub struct Links<'a> {
    pub base: &'a str,
    pub lobby: &'a LobbyView,
}

impl Links<'_> {
    fn game(&self) -> Block {
        Block::Link {
            label: format!("{} on Herald", self.lobby.name),
            url: format!("{}/lobbies/{}", self.base, self.lobby.id),
        }
    }
}

/// The sign-up announcement: the game, the seats, the settings in words, and where to join.
pub fn announcement(links: &Links, settings: &[String]) -> Post {
    let lobby = links.lobby;
    let mut blocks = vec![
        Block::Heading(format!("{}: sign-ups are open", lobby.name)),
        Block::Paragraph(format!(
            "A game of {} on Herald: {} of {} seats taken. Orders are secret and revealed together.",
            lobby.game.title(),
            lobby.players.len(),
            lobby.capacity
        )),
    ];
    if !settings.is_empty() {
        blocks.push(Block::Paragraph(settings.join(" · ")));
    }
    blocks.push(Block::Link {
        label: "Join the game".into(),
        url: format!("{}/lobbies/{}/join", links.base, lobby.id),
    });
    blocks.push(Block::Link {
        label: format!("The rules of {}", lobby.game.title()),
        url: format!("{}/rules/{}", links.base, lobby.game),
    });
    Post(blocks)
}

/// One round's blocks: what was ordered, what happened, the pools after it.
fn round_blocks(block: &RoundBlock) -> Vec<Block> {
    let n = block.round;
    let mut blocks = Vec::new();
    if !block.orders.is_empty() {
        blocks.push(Block::List {
            title: format!("Orders revealed in round {n}"),
            lines: block.orders.clone(),
        });
    }
    if !block.voted.is_empty() {
        blocks.push(Block::Paragraph(format!(
            "Voted for a draw in round {n}: {}.",
            block.voted.join(", ")
        )));
    }
    if !block.log.is_empty() {
        blocks.push(Block::List {
            title: format!("What happened in round {n}"),
            lines: block.log.iter().map(ToString::to_string).collect(),
        });
    }
    blocks.push(pools_table(&format!("Pools after round {n}"), &block.table));
    blocks
}

fn pools_table(title: &str, table: &PoolsTable) -> Block {
    Block::Table {
        title: title.into(),
        headings: table.headings(),
        rows: table.plain_rows(),
    }
}

/// One resolved round, with a link to its page.
pub fn round(links: &Links, block: &RoundBlock) -> Post {
    let mut blocks = vec![Block::Heading(format!(
        "{}: round {}",
        links.lobby.name, block.round
    ))];
    blocks.extend(round_blocks(block));
    blocks.push(Block::Link {
        label: format!("Round {} on Herald", block.round),
        url: format!(
            "{}/lobbies/{}/rounds/{}",
            links.base, links.lobby.id, block.round
        ),
    });
    Post(blocks)
}

/// What the lobby's pools table shows now, in words: before the start, after round n, final.
pub fn pools_title(lobby: &LobbyView) -> String {
    match (lobby.status, lobby.round) {
        (Status::Finished, _) => "Final pools".into(),
        (Status::Running, Some(round)) if round > 1 => format!("Pools after round {}", round - 1),
        (Status::Running, _) => "Pools at the start".into(),
        (Status::Signups | Status::Closed, _) => "Players signed up".into(),
    }
}

/// The lobby's current pools.
pub fn pools(links: &Links, table: &PoolsTable) -> Post {
    let title = pools_title(links.lobby);
    Post(vec![
        Block::Heading(format!("{}: {}", links.lobby.name, title.to_lowercase())),
        pools_table(&title, table),
        links.game(),
    ])
}

/// The winner and the standings (name first, then the place and the game's columns).
fn standings_blocks(standings: &Standings) -> Vec<Block> {
    let mut winner = format!("Winner: {}", standings.winners);
    if !standings.reason.is_empty() {
        winner.push_str(&format!(" ({})", standings.reason.to_lowercase()));
    }
    let mut headings = standings.columns.clone();
    let mut rows = standings.rows.clone();
    // Columns are place, name, ...: the name leads each line of a BBCode list.
    if headings.len() >= 2 {
        headings.swap(0, 1);
        rows.iter_mut()
            .filter(|r| r.len() >= 2)
            .for_each(|r| r.swap(0, 1));
    }
    vec![
        Block::Paragraph(winner),
        Block::Table {
            title: "Final standings".into(),
            headings,
            rows,
        },
    ]
}

/// The final standings, with the winner and every place.
pub fn standings(links: &Links, standings: &Standings) -> Post {
    let mut blocks = vec![Block::Heading(format!(
        "{}: final standings",
        links.lobby.name
    ))];
    blocks.extend(standings_blocks(standings));
    blocks.push(links.game());
    Post(blocks)
}

/// The whole game: every round in order, then the standings if it is over.
pub fn whole_game(links: &Links, rounds: &[RoundBlock], result: Option<&Standings>) -> Post {
    let lobby = links.lobby;
    let mut blocks = vec![
        Block::Heading(format!("{}: the whole game", lobby.name)),
        Block::Paragraph(format!(
            "{}, {} players, {} resolved.",
            lobby.game.title(),
            lobby.players.len(),
            match rounds.len() {
                1 => "1 round".to_string(),
                n => format!("{n} rounds"),
            }
        )),
    ];
    for block in rounds {
        blocks.push(Block::Heading(format!("Round {}", block.round)));
        blocks.extend(round_blocks(block));
    }
    if let Some(result) = result {
        blocks.push(Block::Heading("Final standings".into()));
        blocks.extend(standings_blocks(result));
    }
    blocks.push(links.game());
    Post(blocks)
}
