//! Forum exports: a post (headings, paragraphs, lists, tables, a link back to the game) as
//! BBCode and as Markdown, ready to paste into a forum thread. Pure functions over plain
//! strings, on the ground floor so that every room that writes a post (the pages' lobby posts,
//! the tournaments' standings) escapes names the same way; what goes into a lobby's posts is in
//! `http/pages/posts.rs`.
//!
//! Every piece of text that came from a person or from the log (which quotes names) is escaped
//! so that it stays text: a player called `[b]x[/b]` or `**x**` cannot add markup.
//! - BBCode has no escape character that every forum honours (`[noparse]` is missing from
//!   phpBB, and `&#91;` is shown literally by forums that escape HTML), so square brackets in
//!   text are replaced by their full-width look-alikes `［` and `］`, which no forum parses.
//! - Markdown: a backslash goes only before a character that would otherwise change the
//!   rendering (emphasis, code, links, raw HTML, entities, a block marker at the start of a
//!   line, a table pipe), so `Ann's Strike (3)` stays as typed ([`markdown_text`]).

mod markdown_escape;

use markdown_escape::{markdown_cell, markdown_line, markdown_text};

/// One part of a post.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// A bold line: the post's title, or a section's ("Round 3").
    Heading(String),
    /// A sentence or two of text.
    Paragraph(String),
    /// A titled list of lines (orders, what happened).
    List { title: String, lines: Vec<String> },
    /// A titled table: headings, then rows (the first cell of each row names it).
    Table {
        title: String,
        headings: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    /// A link (to the game, to join, to the rules): the label is ours, the address is made
    /// safe for both markups.
    Link { label: String, url: String },
}

/// A forum post: blocks in order, separated by blank lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Post(pub Vec<Block>);

/// Text made inert for BBCode.
pub fn bbcode_text(text: &str) -> String {
    text.replace('[', "［").replace(']', "］")
}

/// An address as it may appear inside `[url=…]` or `(…)`: anything outside the characters a
/// URL of ours uses is percent-encoded, so a forged `Host` header cannot close the markup.
pub fn safe_url(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for byte in url.bytes() {
        let keep = byte.is_ascii_alphanumeric() || b":/.-_~%?=&#@+".contains(&byte);
        match keep {
            true => out.push(char::from(byte)),
            false => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

fn bbcode_block(block: &Block) -> String {
    match block {
        Block::Heading(text) => format!("[b]{}[/b]\n", bbcode_text(text)),
        Block::Paragraph(text) => format!("{}\n", bbcode_text(text)),
        Block::List { title, lines } => {
            let mut out = format!("[u]{}[/u]\n[list]\n", bbcode_text(title));
            for line in lines {
                out.push_str(&format!("[*]{}\n", bbcode_text(line)));
            }
            out + "[/list]\n"
        }
        // A list renders on every forum; `[table]` does not.
        Block::Table {
            title,
            headings,
            rows,
        } => {
            let mut out = format!("[u]{}[/u]\n[list]\n", bbcode_text(title));
            for row in rows {
                let mut cells = row.iter().zip(headings);
                let name = cells.next().map(|(cell, _)| cell.as_str()).unwrap_or("");
                let rest: Vec<String> = cells
                    .map(|(cell, h)| format!("{} {}", bbcode_text(h), bbcode_text(cell)))
                    .collect();
                out.push_str(&format!(
                    "[*][b]{}[/b]: {}\n",
                    bbcode_text(name),
                    rest.join(" · ")
                ));
            }
            out + "[/list]\n"
        }
        Block::Link { label, url } => {
            format!("[url={}]{}[/url]\n", safe_url(url), bbcode_text(label))
        }
    }
}

fn markdown_block(block: &Block) -> String {
    match block {
        Block::Heading(text) => format!("**{}**\n", markdown_text(text)),
        Block::Paragraph(text) => format!("{}\n", markdown_line(text)),
        Block::List { title, lines } => {
            let mut out = format!("*{}*\n\n", markdown_text(title));
            for line in lines {
                out.push_str(&format!("- {}\n", markdown_line(line)));
            }
            out
        }
        Block::Table {
            title,
            headings,
            rows,
        } => {
            let row = |cells: &[String]| {
                let cells: Vec<String> = cells.iter().map(|c| markdown_cell(c)).collect();
                format!("| {} |\n", cells.join(" | "))
            };
            let mut out = format!("*{}*\n\n", markdown_text(title));
            out.push_str(&row(headings));
            out.push_str(&format!("|{}\n", " --- |".repeat(headings.len())));
            for cells in rows {
                out.push_str(&row(cells));
            }
            out
        }
        Block::Link { label, url } => {
            format!("[{}]({})\n", markdown_text(label), safe_url(url))
        }
    }
}

/// The post as BBCode.
pub fn bbcode(post: &Post) -> String {
    let blocks: Vec<String> = post.0.iter().map(bbcode_block).collect();
    blocks.join("\n")
}

/// The post as Markdown (CommonMark with GFM tables).
pub fn markdown(post: &Post) -> String {
    let blocks: Vec<String> = post.0.iter().map(markdown_block).collect();
    blocks.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "<script>alert(1)</script>[b]x[/b]";

    fn post() -> Post {
        Post(vec![
            Block::Heading("Round 2".into()),
            Block::List {
                title: "Orders".into(),
                lines: vec![format!("{HOSTILE}: Strike → Bob")],
            },
            Block::List {
                title: "What happened".into(),
                lines: vec![format!("{HOSTILE}'s Strike on Bob: 3 damage")],
            },
            Block::Table {
                title: "Pools after round 2".into(),
                headings: vec!["Player".into(), "HP".into(), "VP".into()],
                rows: vec![
                    vec![HOSTILE.into(), "20".into(), "0".into()],
                    vec!["Bob|*_`#".into(), "17".into(), "3".into()],
                ],
            },
            Block::Link {
                label: "The game on Herald".into(),
                url: "http://herald.test/lobbies/x)[y]".into(),
            },
        ])
    }

    #[test]
    fn bbcode_brackets_in_text_become_look_alikes() {
        assert_eq!(bbcode_text("[b]x[/b]"), "［b］x［/b］");
        let out = bbcode(&post());
        // The only real tags are ours.
        let tags: Vec<&str> = out
            .match_indices('[')
            .map(|(i, _)| &out[i..i + out[i..].find(']').unwrap() + 1])
            .collect();
        for tag in &tags {
            let ours = [
                "[b]", "[/b]", "[u]", "[/u]", "[list]", "[/list]", "[*]", "[/url]",
            ];
            assert!(
                ours.contains(tag) || tag.starts_with("[url=http://herald.test/"),
                "unexpected tag {tag} in {out}"
            );
        }
        assert!(out.contains("[*][b]<script>alert(1)</script>［b］x［/b］[/b]: HP 20 · VP 0"));
        assert!(out.contains("[*]<script>alert(1)</script>［b］x［/b］: Strike → Bob"));
        assert!(out.contains("[u]Pools after round 2[/u]"));
        assert!(
            out.contains("[url=http://herald.test/lobbies/x%29%5By%5D]The game on Herald[/url]")
        );
        assert!(out.starts_with("[b]Round 2[/b]\n\n[u]Orders[/u]\n"));
    }

    #[test]
    fn markdown_tables_keep_their_shape_whatever_the_names() {
        let out = markdown(&post());
        let table: Vec<&str> = out.lines().filter(|l| l.starts_with('|')).collect();
        assert_eq!(table[0], "| Player | HP | VP |");
        assert_eq!(table[1], "| --- | --- | --- |");
        assert_eq!(table[3], "| Bob\\|\\*\\_\\`# | 17 | 3 |");
        // Unescaped pipes: exactly the 4 column borders on every row.
        for line in &table {
            let bare = line.replace("\\|", "");
            assert_eq!(bare.matches('|').count(), 4, "{line}");
        }
        assert!(out.contains("- \\<script>alert(1)\\</script>\\[b]x\\[/b]: Strike → Bob"));
        assert!(
            out.contains("- \\<script>alert(1)\\</script>\\[b]x\\[/b]'s Strike on Bob: 3 damage")
        );
        assert!(out.contains("[The game on Herald](http://herald.test/lobbies/x%29%5By%5D)"));
    }

    #[test]
    fn empty_posts_are_empty_and_blocks_are_separated_by_a_blank_line() {
        assert_eq!(bbcode(&Post::default()), "");
        let two = Post(vec![
            Block::Heading("Ann's game".into()),
            Block::Paragraph("Sign-ups are open (3 seats).".into()),
        ]);
        assert_eq!(
            bbcode(&two),
            "[b]Ann's game[/b]\n\nSign-ups are open (3 seats).\n"
        );
        assert_eq!(
            markdown(&two),
            "**Ann's game**\n\nSign-ups are open (3 seats).\n"
        );
    }
}
