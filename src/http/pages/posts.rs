//! What goes into each forum post (rendered by [`crate::forum`]): the sign-up announcement with
//! the join link, one round, the current pools, the final standings, and the whole game. Each post
//! ends with a link back to the game. Titles say what they show: the pools on a running lobby's
//! page are the pools *after* the last resolved round.

use super::round_block::{RoundBlock, round_name};
use super::table::{PoolsTable, Standings};
use crate::forum::{self, Block, Post};
use crate::games::telling::answers_due;
use crate::games::{GameUi, with_game};
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
            bbcode: forum::bbcode(post),
            markdown: forum::markdown(post),
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
    // Said as it stands when copied: a full lobby's post must not invite anyone to join.
    let state = match (lobby.status, lobby.players.len() >= lobby.capacity) {
        (Status::Signups, false) => "sign-ups are open",
        (Status::Signups, true) => "every seat is taken",
        (Status::Closed, _) => "sign-ups are closed",
        (Status::Running | Status::Finished, _) => "the game has started",
    };
    let open = lobby.status == Status::Signups && lobby.players.len() < lobby.capacity;
    let mut blocks = vec![
        Block::Heading(format!("{}: {state}", lobby.name)),
        Block::Paragraph(format!(
            "A game of {} on Herald: {} of {} seats taken{}. Orders are secret and revealed together.",
            lobby.game.title(),
            lobby.players.len(),
            lobby.capacity,
            match lobby.max_rounds {
                Some(1) => ", 1 round at most".to_owned(),
                Some(cap) => format!(", {cap} rounds at most"),
                None => String::new(),
            }
        )),
    ];
    if !settings.is_empty() {
        blocks.push(Block::Paragraph(settings.join(" · ")));
    }
    blocks.push(match open {
        true => Block::Link {
            label: "Join the game".into(),
            url: format!("{}/lobbies/{}/join", links.base, lobby.id),
        },
        false => links.game(),
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

/// The pools as a post's table, without the columns in which every player reads "no" or "—"
/// (a duel's flags that are all off): in a forum post they are only noise.
fn pools_table(title: &str, table: &PoolsTable) -> Block {
    let rows = table.plain_rows();
    let says_something = |k: usize| {
        rows.is_empty()
            || rows
                .iter()
                .any(|r| r.get(k).is_some_and(|c| c != "no" && c != "—"))
    };
    let kept: Vec<usize> = (0..table.headings().len())
        .filter(|&k| k == 0 || says_something(k))
        .collect();
    let pick = |cells: &[String]| kept.iter().filter_map(|&k| cells.get(k).cloned()).collect();
    Block::Table {
        title: title.into(),
        headings: pick(&table.headings()),
        rows: rows.iter().map(|r| pick(r)).collect(),
    }
}

/// One resolved round, with a link to its page.
pub fn round(links: &Links, block: &RoundBlock) -> Post {
    let mut blocks = vec![Block::Heading(format!(
        "{}: {}",
        links.lobby.name,
        block.name().to_lowercase()
    ))];
    blocks.extend(round_blocks(block));
    let lobby = links.lobby;
    // While the clock is paused no deadline stands, and none is promised.
    let next_main = lobby.round == Some(block.round + 1)
        && lobby.step.as_deref() == Some(lobby.game.main_step());
    if lobby.status == Status::Running && next_main && !lobby.paused {
        let answers = with_game!(lobby.game, G => G::MAIN_ANSWERS);
        blocks.push(Block::Paragraph(answers_due(
            answers,
            block.round + 1,
            lobby.max_rounds,
            lobby.deadline_at.as_deref(),
        )));
    }
    blocks.push(Block::Link {
        label: format!("{} on Herald", block.name()),
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
        (Status::Running, Some(round)) if round > 1 => format!(
            "Pools after {}",
            round_name(round - 1, lobby.max_rounds).to_lowercase()
        ),
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
        Block::Paragraph(standings.headline.clone()),
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
        blocks.push(Block::Heading(block.name()));
        blocks.extend(round_blocks(block));
    }
    if let Some(result) = result {
        blocks.push(Block::Heading("Final standings".into()));
        blocks.extend(standings_blocks(result));
    }
    blocks.push(links.game());
    Post(blocks)
}
