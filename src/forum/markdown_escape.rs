//! Markdown escaping that changes nothing a person would see: a backslash goes only before a
//! character that CommonMark (with GitHub's tables, strikethrough and autolinks) would read as
//! markup where it stands. `Ann's Strike (3)` stays as typed; `*x*`, `[x](y)`, `<b>`, `&amp;`,
//! `` `x` ``, `# x` at the start of a line, `1. x`, `www.x.y`, a table pipe do not render.

/// What stands next to a character: the edges of the text count as punctuation, since our own
/// markup (`**`, `- `, `| `) is what surrounds it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Space,
    Word,
    Mark,
}

fn side(c: Option<char>) -> Side {
    match c {
        Some(c) if c.is_whitespace() => Side::Space,
        Some(c) if c.is_alphanumeric() => Side::Word,
        Some(_) | None => Side::Mark,
    }
}

/// Whether the character at `i` opens or closes markup where it stands (inline rules only).
fn inline_markup(chars: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).map(|j| chars[j]);
    let after = chars.get(i + 1).copied();
    let (b, a) = (side(before), side(after));
    match chars[i] {
        // Code spans, link and image openers: always.
        '`' | '[' => true,
        // Emphasis and strikethrough runs: unless they stand alone between spaces.
        '*' | '~' => !(b == Side::Space && a == Side::Space),
        // `_` also cannot open or close inside a word (`snake_case`).
        '_' => !matches!(
            (b, a),
            (Side::Space, Side::Space) | (Side::Word, Side::Word)
        ),
        // Escapes: a backslash before punctuation (or at the end, a hard line break).
        '\\' => after.is_none_or(|c| c.is_ascii_punctuation()),
        // Raw HTML and autolinks start `<` + letter, `/`, `!` or `?`.
        '<' => after.is_some_and(|c| c.is_ascii_alphabetic() || "/!?".contains(c)),
        // Entities: `&name;`, `&#91;`.
        '&' => after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '#'),
        // Extended autolinks: `http://…`, `x@y.z`, `www.…`.
        ':' => chars.get(i + 1..i + 3) == Some(&['/', '/']) && b == Side::Word,
        '@' => b == Side::Word && a == Side::Word,
        '.' => {
            let www = i >= 3
                && chars[i - 3..i]
                    .iter()
                    .collect::<String>()
                    .eq_ignore_ascii_case("www");
            www && (i == 3 || side(Some(chars[i - 4])) != Side::Word)
        }
        _ => false,
    }
}

/// How many leading characters of a line form a block marker, and which of them to escape:
/// `# `, `> `, `- `, `+ `, `* `, `---`, `1. `, `1) `. Returns the index to escape.
fn block_marker(chars: &[char]) -> Option<usize> {
    let follows_space = |i: usize| chars.get(i).is_none_or(|c| c.is_whitespace());
    match chars.first()? {
        '>' => Some(0),
        '#' => {
            let run = chars.iter().take_while(|c| **c == '#').count();
            (run <= 6 && follows_space(run)).then_some(0)
        }
        // `-` also makes a thematic break (`---`); `+` only a bullet.
        '-' => (follows_space(1) || chars.get(1) == Some(&'-')).then_some(0),
        '+' => follows_space(1).then_some(0),
        c if c.is_ascii_digit() => {
            let run = chars.iter().take_while(|c| c.is_ascii_digit()).count();
            let marker = chars.get(run).is_some_and(|c| *c == '.' || *c == ')');
            (run <= 9 && marker && follows_space(run + 1)).then_some(run)
        }
        _ => None,
    }
}

fn escape(text: &str, line_start: bool, cell: bool) -> String {
    // A newline would end our list item or table row: text is one line.
    let flat: String = text
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    let flat = match line_start {
        // Leading spaces could make an indented code block.
        true => flat.trim_start().to_owned(),
        false => flat,
    };
    let chars: Vec<char> = flat.chars().collect();
    let marker = line_start.then(|| block_marker(&chars)).flatten();
    let mut out = String::with_capacity(flat.len() + 8);
    for i in 0..chars.len() {
        let c = chars[i];
        if marker == Some(i) || inline_markup(&chars, i) || (cell && c == '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Text inside our own inline markup (`**heading**`, a link label).
pub fn markdown_text(text: &str) -> String {
    escape(text, false, false)
}

/// Text that starts a line (a paragraph, a list item's text): also its block markers.
pub fn markdown_line(text: &str) -> String {
    escape(text, true, false)
}

/// A table cell: also the pipes.
pub fn markdown_cell(text: &str) -> String {
    escape(text, false, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pulldown_cmark::{Event, Options, Parser, Tag};

    /// What a CommonMark renderer (GFM tables and strikethrough) makes of `source`: its text,
    /// and every markup element other than those listed as ours.
    fn rendered(source: &str, ours: &[&str]) -> (String, Vec<String>) {
        let mut text = String::new();
        let mut markup = Vec::new();
        let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
        for event in Parser::new_ext(source, options) {
            match event {
                Event::Text(t) => text.push_str(&t),
                Event::Start(tag) => {
                    let name = match tag {
                        Tag::Paragraph => "p",
                        Tag::List(_) => "list",
                        Tag::Item => "item",
                        Tag::Table(_) | Tag::TableHead | Tag::TableRow | Tag::TableCell => "table",
                        _ => "other",
                    };
                    if !ours.contains(&name) {
                        markup.push(format!("{tag:?}"));
                    }
                }
                Event::End(_) => {}
                Event::SoftBreak => text.push(' '),
                other => markup.push(format!("{other:?}")),
            }
        }
        (text, markup)
    }

    const HOSTILE: [&str; 22] = [
        "<script>alert(1)</script>[b]x[/b]",
        "**bold** and *em* and _em_ and ~~gone~~",
        "[link](http://evil.example) ![img](x.png)",
        "`code` and ``more``",
        "&amp; &#91; &lt;b&gt;",
        "# heading",
        "### heading",
        "> quote",
        "- item",
        "+ item",
        "* item",
        "---",
        "1. first",
        "12) twelfth",
        "<http://evil.example>",
        "www.evil.example",
        "see http://evil.example now",
        "mail me@evil.example",
        "trailing backslash\\",
        "back\\*slash",
        "<!-- comment --> <?php ?>",
        "Ann_ _Bob",
    ];

    #[test]
    fn hostile_text_renders_as_the_text_itself() {
        for text in HOSTILE {
            let source = format!("- {}\n", markdown_line(text));
            let (shown, markup) = rendered(&source, &["list", "item", "p"]);
            assert_eq!(shown, text, "{source}");
            assert!(markup.is_empty(), "{source} rendered {markup:?}");
            let cell = format!(
                "| a |\n| --- |\n| {} |\n",
                markdown_cell(&format!("{text}|x"))
            );
            let (shown, markup) = rendered(&cell, &["table"]);
            assert_eq!(shown, format!("a{text}|x"), "{cell}");
            assert!(markup.is_empty(), "{cell} rendered {markup:?}");
        }
    }

    #[test]
    fn ordinary_text_is_left_as_typed() {
        for text in [
            "Ann's Strike (3) on Bob: 3 damage.",
            "Bob's Dodge → Ann (Ruling 12)",
            "snake_case and 3 * 4 and a ~ b",
            "Ann & Bob <3 #1 fan 3.5 hp",
            "Pools after round 2: HP 17 · VP 3!",
        ] {
            assert_eq!(markdown_line(text), text);
        }
        assert_eq!(markdown_line("www.x.y"), "www\\.x.y");
        assert_eq!(markdown_line("1. a"), "1\\. a");
        assert_eq!(markdown_cell("a|b"), "a\\|b");
        assert_eq!(markdown_text("# x"), "# x", "inside our markup a # is text");
    }
}
