//! The pages of docs/web.md in a real browser (see `pages_browser.rs` for the set-up): the create form's
//! settings (only the chosen game's shown), an unlisted lobby kept off the home page, joining
//! (told to keep the private link), the waiting line at the top on a 390 px phone without
//! sideways scrolling, the HP/VP chart, and the whole game's export; screenshots of each.

use fantoccini::{Client, Locator};
use serde_json::json;

use crate::pages_browser::{
    browser_available, goto, screenshots, wait_for, wait_for_text, with_browsers,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_pages_a_forum_needs_work_in_a_browser_on_a_phone_and_a_desktop() {
    if !browser_available() {
        return;
    }
    with_browsers(&["host", "ann", "bob"], forum_pages).await;
}

async fn click(client: &Client, css: &str) {
    wait_for(client, css).await.click().await.unwrap();
}

async fn scroll_to(client: &Client, css: &str) {
    let script = "document.querySelector(arguments[0]).scrollIntoView();";
    client.execute(script, vec![json!(css)]).await.unwrap();
}

async fn type_into(client: &Client, css: &str, text: &str) {
    wait_for(client, css).await.send_keys(text).await.unwrap();
}

/// Whether an element is rendered (not `display: none`, itself or by a parent).
async fn shown(client: &Client, css: &str) -> bool {
    let script =
        "const e = document.querySelector(arguments[0]); return !!e && e.checkVisibility();";
    client.execute(script, vec![json!(css)]).await.unwrap() == json!(true)
}

/// At 390 px the page must not scroll sideways, and the waiting line must be in the first
/// screenful.
async fn fits_a_phone(client: &Client) {
    client.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let script = "const w = document.getElementById('waiting').getBoundingClientRect(); \
                  return [document.documentElement.scrollWidth, window.innerWidth, w.top, w.bottom, window.innerHeight];";
    let got = client.execute(script, vec![]).await.unwrap();
    let n = |i: usize| got[i].as_f64().unwrap();
    assert!(n(0) <= n(1), "the page scrolls sideways at 390 px: {got}");
    assert!(
        n(2) >= 0.0 && n(3) <= n(4) / 2.0,
        "the waiting line is not at the top: {got}"
    );
    client.set_window_size(1280, 900).await.unwrap();
}

/// At 390 px, then at 1280 px, the page is no wider than the window.
async fn no_sideways_scroll(client: &Client, what: &str) {
    for (width, height) in [(390, 844), (1280, 900)] {
        client.set_window_size(width, height).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        // The widths, and the outermost elements that stick out (to say what to fix).
        let script = "const w = window.innerWidth; \
            const out = [...document.querySelectorAll('body *')] \
              .filter(e => e.getBoundingClientRect().right > w + 1 \
                && !(e.parentElement && e.parentElement.getBoundingClientRect().right > w + 1)) \
              .map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 5); \
            return [document.documentElement.scrollWidth, w, out];";
        let got = client.execute(script, vec![]).await.unwrap();
        let n = |i: usize| got[i].as_f64().unwrap();
        assert!(n(0) <= n(1), "{what} scrolls sideways at {width} px: {got}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_rules_page_reads_on_a_phone_and_a_desktop() {
    if !browser_available() {
        return;
    }
    with_browsers(&["reader"], rules_pages).await;
}

async fn rules_pages(base: &str, clients: &[Client]) -> Result<(), String> {
    let [reader] = clients else {
        return Err("one browser".into());
    };
    for game in herald::host::GameKind::ALL {
        goto(reader, &format!("{base}/rules/{}", game.id())).await;
        wait_for(reader, "main h1").await;
        no_sideways_scroll(reader, &format!("/rules/{}", game.id())).await;
    }
    // BST's interaction matrix is a table a reader can scan.
    goto(reader, &format!("{base}/rules/bst")).await;
    let tables = reader.find_all(Locator::Css("main table")).await.unwrap();
    assert!(
        !tables.is_empty(),
        "BST's rules page shows its matrix as a table"
    );
    Ok(())
}

async fn send_strike(client: &Client, lobby: &str, target: &str) {
    goto(client, &format!("{lobby}/play")).await;
    let form = wait_for(client, "#order-form").await;
    form.find(Locator::Css("#f-move"))
        .await
        .unwrap()
        .select_by_label("Strike")
        .await
        .unwrap();
    form.find(Locator::Css("#f-target"))
        .await
        .unwrap()
        .select_by_label(target)
        .await
        .unwrap();
    click(client, "#order-form button[type=submit]").await;
    // Accepted: a 303 to `?sent=1` (the round may have resolved by then: no pending line).
    for _ in 0..200 {
        if client
            .current_url()
            .await
            .is_ok_and(|u| u.query() == Some("sent=1"))
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the order was not accepted");
}

async fn forum_pages(base: &str, clients: &[Client]) -> Result<(), String> {
    let [host, ann, bob] = clients else {
        return Err("three browsers".into());
    };
    // An unlisted lobby first: it never shows on the home page.
    goto(host, base).await;
    type_into(host, "#lobby-name", "Back room").await;
    click(host, "#unlisted").await;
    click(host, "form[action='/lobbies'] button[type=submit]").await;
    wait_for(host, "#share-link").await;
    goto(host, base).await;
    wait_for_text(host, "Host a new game").await;
    // Only the host's own "My games" lists it; the public lists do not, and another browser
    // does not see it at all.
    let script = "return [...document.querySelectorAll('main > section:not(#my-games)')].map(s => s.innerText).join(' ');";
    let lists = host.execute(script, vec![]).await.unwrap();
    assert!(
        !lists.to_string().contains("Back room"),
        "an unlisted lobby on the home page's lists: {lists}"
    );
    let mine = wait_for(host, "#my-games").await.text().await.unwrap();
    assert!(mine.contains("Back room"), "{mine}");
    goto(ann, base).await;
    wait_for_text(ann, "Host a new game").await;
    let home = wait_for(ann, "main").await.text().await.unwrap();
    assert!(
        !home.contains("Back room"),
        "an unlisted lobby on the home page"
    );

    // The create form shows the chosen game's settings only.
    assert!(shown(host, "#crossing-swords-halt_cycle").await);
    assert!(
        !shown(host, "#bst-seed").await,
        "BST's settings hidden for Crossing Swords"
    );
    wait_for(host, "#game")
        .await
        .select_by_value("bst")
        .await
        .unwrap();
    assert!(
        !shown(host, "#crossing-swords-max_players").await,
        "no seat count for BST"
    );
    click(host, "fieldset[data-game='bst'] details.advanced summary").await;
    assert!(shown(host, "#bst-seed").await);
    scroll_to(host, "fieldset[data-game='bst']").await;
    screenshots(host, "create-form-bst").await;
    wait_for(host, "#game")
        .await
        .select_by_value("crossing-swords")
        .await
        .unwrap();
    type_into(host, "#lobby-name", "Forum night").await;
    type_into(host, "#crossing-swords-max_rounds", "20").await;
    screenshots(host, "create-form").await;
    click(host, "form[action='/lobbies'] button[type=submit]").await;
    let share = wait_for(host, "#share-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert!(
        !shown(host, "#private-link").await,
        "the host link is folded away"
    );
    // The sign-up announcement, ready for the thread: its join link is the lobby's.
    goto(host, &share).await;
    let announcement = wait_for(host, "#announce-md")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert!(announcement.contains(&share), "{announcement}");
    no_sideways_scroll(host, "the lobby page in sign-ups").await;

    for (client, name) in [(ann, "Ann"), (bob, "Bob")] {
        goto(client, &share).await;
        type_into(client, "#player-name", name).await;
        click(client, "form[action$='/join'] button").await;
        wait_for(client, "#keep-link").await;
    }
    screenshots(ann, "joined").await;
    goto(host, &format!("{share}/host")).await;
    click(host, "form[action$='/host/start'] button").await;
    // The round is named with the cap the host chose.
    wait_for_text(host, "Round 1 of 20: orders are due").await;

    send_strike(ann, &share, "Bob").await;
    goto(bob, &share).await;
    wait_for_text(bob, "Waiting for your orders.").await;
    goto(host, &share).await;
    wait_for_text(host, "Waiting for Bob's orders.").await;
    fits_a_phone(host).await;
    screenshots(host, "waiting-line").await;
    goto(ann, &format!("{share}/play")).await;
    wait_for_text(ann, "Waiting for Bob's orders.").await;
    fits_a_phone(ann).await;

    send_strike(bob, &share, "Ann").await;
    send_strike(ann, &share, "Bob").await;
    send_strike(bob, &share, "Ann").await;
    goto(host, &format!("{share}#charts-h")).await;
    wait_for(host, "#chart-hp svg").await;
    let lines = host
        .find_all(Locator::Css("#chart-hp polyline"))
        .await
        .unwrap();
    assert_eq!(lines.len(), 2, "a line per player");
    screenshots(host, "chart").await;

    goto(host, &format!("{share}/export")).await;
    click(host, "details.export summary").await;
    let markdown = wait_for(host, "#game-md")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert!(
        markdown.starts_with("**Forum night: the whole game**"),
        "{markdown}"
    );
    assert!(markdown.contains("*Pools after round 2*"), "{markdown}");
    assert!(markdown.contains(&format!("]({share})")), "{markdown}");
    scroll_to(host, "details.export").await;
    screenshots(host, "export-whole-game").await;
    Ok(())
}
