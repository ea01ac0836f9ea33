//! Forum exports: a round's reveal and the pools table as BBCode and as Markdown, ready to
//! paste into a forum post. Pure functions over plain strings.
//!
//! Every piece of text that came from a person or from the log (which quotes names) is escaped
//! so that it stays text: a player called `[b]x[/b]` or `**x**` cannot add markup.
//! - BBCode has no escape character that every forum honours (`[noparse]` is missing from
//!   phpBB, and `&#91;` is shown literally by forums that escape HTML), so square brackets in
//!   text are replaced by their full-width look-alikes `［` and `］`, which no forum parses.
//! - Markdown: every ASCII punctuation character is backslash-escaped (CommonMark allows an
//!   escape before any of them), which covers emphasis, links, headings, HTML, tables (`|`)
//!   and entities (`&`).

/// What one export covers: an optional heading, lines of revealed orders and of the log, and
/// a table (headings, then rows).
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub heading: String,
    pub orders: Vec<String>,
    pub log: Vec<String>,
    pub headings: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// Text made inert for BBCode.
pub fn bbcode_text(text: &str) -> String {
    text.replace('[', "［").replace(']', "］")
}

/// Text made inert for Markdown (also inside a table cell).
pub fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The report as BBCode: a bold heading, lists of orders and of events, and the pools as a
/// list of players (a list renders on every forum; `[table]` does not).
pub fn bbcode(report: &Report) -> String {
    let mut out = String::new();
    if !report.heading.is_empty() {
        out.push_str(&format!("[b]{}[/b]\n", bbcode_text(&report.heading)));
    }
    let list = |out: &mut String, title: &str, lines: &[String]| {
        if lines.is_empty() {
            return;
        }
        out.push_str(&format!("\n[u]{title}[/u]\n[list]\n"));
        for line in lines {
            out.push_str(&format!("[*]{}\n", bbcode_text(line)));
        }
        out.push_str("[/list]\n");
    };
    list(&mut out, "Orders", &report.orders);
    list(&mut out, "What happened", &report.log);
    if !report.rows.is_empty() {
        out.push_str("\n[u]Pools[/u]\n[list]\n");
        for row in &report.rows {
            let mut cells = row.iter().zip(&report.headings);
            let name = cells.next().map(|(cell, _)| cell.as_str()).unwrap_or("");
            let rest: Vec<String> = cells
                .map(|(cell, heading)| format!("{} {}", bbcode_text(heading), bbcode_text(cell)))
                .collect();
            out.push_str(&format!(
                "[*][b]{}[/b]: {}\n",
                bbcode_text(name),
                rest.join(" · ")
            ));
        }
        out.push_str("[/list]\n");
    }
    out
}

/// The report as Markdown: a bold heading, bullet lists, and the pools as a table.
pub fn markdown(report: &Report) -> String {
    let mut out = String::new();
    if !report.heading.is_empty() {
        out.push_str(&format!("**{}**\n", markdown_text(&report.heading)));
    }
    let list = |out: &mut String, title: &str, lines: &[String]| {
        if lines.is_empty() {
            return;
        }
        out.push_str(&format!("\n*{title}*\n\n"));
        for line in lines {
            out.push_str(&format!("- {}\n", markdown_text(line)));
        }
    };
    list(&mut out, "Orders", &report.orders);
    list(&mut out, "What happened", &report.log);
    if !report.rows.is_empty() {
        let row = |cells: &[String]| {
            let cells: Vec<String> = cells.iter().map(|c| markdown_text(c)).collect();
            format!("| {} |\n", cells.join(" | "))
        };
        out.push('\n');
        out.push_str(&row(&report.headings));
        out.push_str(&format!(
            "|{}\n",
            report.headings.iter().map(|_| " --- |").collect::<String>()
        ));
        for cells in &report.rows {
            out.push_str(&row(cells));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "<script>alert(1)</script>[b]x[/b]";

    fn report() -> Report {
        Report {
            heading: "Round 2".into(),
            orders: vec![format!("{HOSTILE}: Strike → Bob")],
            log: vec![format!("{HOSTILE}'s Strike on Bob: 3 damage")],
            headings: vec!["Player".into(), "HP".into(), "VP".into()],
            rows: vec![
                vec![HOSTILE.into(), "20".into(), "0".into()],
                vec!["Bob|*_`#".into(), "17".into(), "3".into()],
            ],
        }
    }

    #[test]
    fn bbcode_brackets_in_text_become_look_alikes() {
        assert_eq!(bbcode_text("[b]x[/b]"), "［b］x［/b］");
        let out = bbcode(&report());
        // The only real tags are ours.
        let tags: Vec<&str> = out
            .match_indices('[')
            .map(|(i, _)| &out[i..i + out[i..].find(']').unwrap() + 1])
            .collect();
        for tag in &tags {
            assert!(
                ["[b]", "[/b]", "[u]", "[/u]", "[list]", "[/list]", "[*]"].contains(tag),
                "unexpected tag {tag} in {out}"
            );
        }
        assert!(out.contains("[*][b]<script>alert(1)</script>［b］x［/b］[/b]: HP 20 · VP 0"));
        assert!(out.contains("[*]<script>alert(1)</script>［b］x［/b］: Strike → Bob"));
        assert!(out.starts_with("[b]Round 2[/b]\n"));
    }

    #[test]
    fn markdown_escapes_every_punctuation_mark() {
        assert_eq!(markdown_text("a*b_c"), "a\\*b\\_c");
        assert_eq!(
            markdown_text("[x](http://e)"),
            "\\[x\\]\\(http\\:\\/\\/e\\)"
        );
        assert_eq!(markdown_text("# <b>&amp;|"), "\\# \\<b\\>\\&amp\\;\\|");
        assert_eq!(markdown_text("Ann → Bob"), "Ann → Bob");
    }

    #[test]
    fn markdown_tables_keep_their_shape_whatever_the_names() {
        let out = markdown(&report());
        let table: Vec<&str> = out.lines().filter(|l| l.starts_with('|')).collect();
        assert_eq!(table[0], "| Player | HP | VP |");
        assert_eq!(table[1], "| --- | --- | --- |");
        assert_eq!(table[3], "| Bob\\|\\*\\_\\`\\# | 17 | 3 |");
        // Unescaped pipes: exactly the 4 column borders on every row.
        for line in &table {
            let bare = line.replace("\\|", "");
            assert_eq!(bare.matches('|').count(), 4, "{line}");
        }
        assert!(out.contains(
            "- \\<script\\>alert\\(1\\)\\<\\/script\\>\\[b\\]x\\[\\/b\\]\\: Strike → Bob"
        ));
    }

    #[test]
    fn empty_sections_are_left_out() {
        let only_table = Report {
            headings: vec!["Player".into(), "HP".into()],
            rows: vec![vec!["Ann".into(), "20".into()]],
            ..Report::default()
        };
        assert_eq!(
            bbcode(&only_table),
            "\n[u]Pools[/u]\n[list]\n[*][b]Ann[/b]: HP 20\n[/list]\n"
        );
        assert_eq!(
            markdown(&only_table),
            "\n| Player | HP |\n| --- | --- |\n| Ann | 20 |\n"
        );
    }
}
