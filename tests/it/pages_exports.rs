//! Forum exports as a host would paste them (docs/web.md): the sign-up announcement, the
//! pools, each round, the final standings and the whole game, in BBCode and Markdown, each with
//! a link back; hostile names stay text in both; the whole game matches golden files.

use axum::http::StatusCode;
use pulldown_cmark::{Event, Options, Parser, Tag};

use crate::pages_client::{HOSTILE, Page, Visitor, assert_escaped, unescape};
use crate::support::apps;

/// The text of a page's `<textarea id="…">`, as a person would copy it.
pub fn textarea(page: &Page, id: &str) -> String {
    let marker = format!("<textarea id=\"{id}\"");
    let start = page
        .html
        .find(&marker)
        .unwrap_or_else(|| panic!("no textarea {id} in {}", page.html));
    let open = start + page.html[start..].find('>').unwrap() + 1;
    let end = open + page.html[open..].find("</textarea>").unwrap();
    unescape(&page.html[open..end])
}

/// The BBCode tags in `text` that are not Herald's own.
fn foreign_tags(text: &str) -> Vec<String> {
    let ours = [
        "[b]", "[/b]", "[u]", "[/u]", "[list]", "[/list]", "[*]", "[/url]",
    ];
    text.match_indices('[')
        .filter_map(|(i, _)| text[i..].find(']').map(|end| text[i..=i + end].to_owned()))
        .filter(|tag| !ours.contains(&tag.as_str()) && !tag.starts_with("[url=http://herald.test/"))
        .collect()
}

/// The markup a CommonMark renderer finds in `text` beyond what Herald writes (bold, italic
/// titles, lists, tables, links to herald.test).
fn foreign_markdown(text: &str) -> Vec<String> {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    Parser::new_ext(text, options)
        .filter_map(|event| match event {
            Event::Start(Tag::Link { dest_url, .. })
                if dest_url.starts_with("http://herald.test/") =>
            {
                None
            }
            Event::Start(
                Tag::Paragraph
                | Tag::Strong
                | Tag::Emphasis
                | Tag::List(_)
                | Tag::Item
                | Tag::Table(_)
                | Tag::TableHead
                | Tag::TableRow
                | Tag::TableCell,
            ) => None,
            Event::Start(tag) => Some(format!("{tag:?}")),
            Event::Html(h) | Event::InlineHtml(h) => Some(h.to_string()),
            Event::Code(c) => Some(format!("code {c}")),
            _ => None,
        })
        .collect()
}

/// Both exports of `id` on `page`: no foreign markup, the hostile name as typed in Markdown's
/// rendered text, a link back to `link`.
pub fn assert_safe_exports(page: &Page, id: &str, link: &str) -> (String, String) {
    let bb = textarea(page, &format!("{id}-bb"));
    let md = textarea(page, &format!("{id}-md"));
    assert!(
        foreign_tags(&bb).is_empty(),
        "{:?} in {bb}",
        foreign_tags(&bb)
    );
    assert!(
        foreign_markdown(&md).is_empty(),
        "{:?} in {md}",
        foreign_markdown(&md)
    );
    assert!(
        bb.contains(&format!("[url=http://herald.test{link}]")),
        "{bb}"
    );
    assert!(md.contains(&format!("](http://herald.test{link})")), "{md}");
    (bb, md)
}

/// Compares `actual` with `tests/golden/<name>` (lobby ids replaced by `LOBBY`). With
/// `HERALD_BLESS=1` the file is written instead, to review in the diff.
pub fn golden(name: &str, actual: &str, lobby: &str) {
    let actual = actual.replace(lobby, "LOBBY");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var("HERALD_BLESS").as_deref() == Ok("1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with HERALD_BLESS=1 once)", path.display()));
    assert_eq!(actual, expected, "{name} differs from its golden file");
}

#[tokio::test]
async fn a_hostile_lobby_name_stays_text_in_the_announcement_and_the_standings() {
    let lobby_name = "**Ann's** [url=x]y[/url] # (3)";
    for app in apps().await {
        let mut host = Visitor::new(&app);
        let lobby = host.create_lobby(lobby_name).await;
        let (mut ann, mut bob) = (Visitor::new(&app), Visitor::new(&app));
        ann.join(&lobby, HOSTILE).await;
        let page = bob.get(&format!("/lobbies/{lobby}")).await;
        assert_escaped(&page);
        let (bb, md) = assert_safe_exports(&page, "announce", &format!("/lobbies/{lobby}/join"));
        assert!(
            bb.starts_with("[b]**Ann's** ［url=x］y［/url］ # (3): sign-ups are open[/b]"),
            "{bb}"
        );
        assert!(
            md.starts_with("**\\*\\*Ann's\\*\\* \\[url=x]y\\[/url] # (3): sign-ups are open**"),
            "{md}"
        );
        assert!(md.contains("1 of 16 seats taken"), "{md}");
        assert!(
            md.contains("(http://herald.test/rules/crossing-swords)"),
            "{md}"
        );
        assert_safe_exports(&page, "pools", &format!("/lobbies/{lobby}"));

        bob.join(&lobby, "Bob").await;
        host.post(&format!("/lobbies/{lobby}/host/start"), &[])
            .await;
        let page = bob.get(&format!("/lobbies/{lobby}")).await;
        assert!(
            !page.html.contains("announce-bb"),
            "no announcement once it runs"
        );
        let md = textarea(&page, "pools-md");
        assert!(md.contains("*Pools at the start*"), "{md}");

        let end = host
            .post(&format!("/lobbies/{lobby}/host/end"), &[("confirm", "yes")])
            .await;
        assert_eq!(end.status, StatusCode::SEE_OTHER, "{}", end.html);
        let page = bob.get(&format!("/lobbies/{lobby}")).await;
        let (bb, md) = assert_safe_exports(&page, "standings", &format!("/lobbies/{lobby}"));
        assert!(
            bb.contains("[*][b]<script>alert(1)</script>［b］x［/b］[/b]: Place "),
            "{bb}"
        );
        assert!(
            md.contains("| \\<script>alert(1)\\</script>\\[b]x\\[/b] |"),
            "{md}"
        );
        // Both have 0 VP: the win is shared, and the post names both in words.
        assert!(md.contains("Winners: \\<script>"), "{md}");
        assert!(md.contains(" and Bob (ended by host)."), "{md}");
        assert!(md.contains("| Name | Place"), "{md}");
    }
}
