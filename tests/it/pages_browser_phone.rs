//! The pages' last checks in a real browser (docs/web.md; set-up in
//! `pages_browser.rs`): every page at 360 px without sideways scrolling (home and its create
//! form, my games, the host panel, the lobby open, running and finished, each game's player
//! page with its forms, a round, the exports, the rules pages); the posts' copy buttons put the
//! text on the clipboard and their links lead back to the game; the player's mail form given
//! an address by clicking, with a screenshot of it; the host's "Remind" clicked on a phone.

use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use herald::games::GameKind;
use serde_json::{Value, json};

use crate::notify_mail::with_smtp;
use crate::pages_browser::{
    browser_available, goto, order, screenshots, screenshots_of, wait_for, wait_for_text,
    with_browsers_serving,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_page_fits_a_phone_and_the_posts_copy_and_link_back() {
    if !browser_available() {
        return;
    }
    let (notifications, _inbox) = with_smtp(herald::notify::Settings::default());
    let options = herald::Options {
        notifications,
        ..herald::Options::default()
    };
    with_browsers_serving(&["host", "ann", "bob"], options, every_page).await;
}

async fn click(client: &Client, css: &str) {
    wait_for(client, css).await.click().await.unwrap();
}

/// At 360 px the page is no wider than the window; the elements that stick out are named.
pub(crate) async fn fits_360(client: &Client, what: &str) {
    fits_width(client, what, 360).await;
}

/// At `width` px the page is no wider than the window; the elements that stick out are named.
pub(crate) async fn fits_width(client: &Client, what: &str, width: u32) {
    client.set_window_size(width, 780).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let script = "const w = window.innerWidth; \
        const out = [...document.querySelectorAll('body *')] \
          .filter(e => e.getBoundingClientRect().right > w + 1 \
            && !(e.parentElement && e.parentElement.getBoundingClientRect().right > w + 1)) \
          .map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 5); \
        return [document.documentElement.scrollWidth, w, out];";
    let got = client.execute(script, vec![]).await.unwrap();
    let n = |i: usize| got[i].as_f64().unwrap();
    assert!(n(0) <= n(1), "{what} scrolls sideways at {width} px: {got}");
    client.set_window_size(1280, 900).await.unwrap();
}

/// Opens `path` and checks it fits a phone.
async fn visit(client: &Client, base: &str, path: &str) {
    goto(client, &format!("{base}{path}")).await;
    wait_for(client, "h1").await;
    fits_360(client, path).await;
}

/// A JSON API call made by the browser itself (the way a bot or a script would).
async fn api(client: &Client, method: &str, path: &str, body: Value) -> Value {
    client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch(arguments[0], {method: arguments[1], headers: {'content-type': 'application/json'},
               body: JSON.stringify(arguments[2])}).then(r => r.json()).then(done);",
            vec![json!(path), json!(method), body],
        )
        .await
        .unwrap()
}

/// Opens the post `id` (a textarea in a folded `details.export`), clicks its copy button and
/// pastes the clipboard into a scratch field with the keyboard: what was pasted must be the
/// post, and the post must hold the link back (`link`), which must lead to a page of the game.
pub(crate) async fn copy_post(client: &Client, id: &str, link: &str) {
    client
        .execute(
            "document.querySelector(arguments[0]).closest('details').open = true;",
            vec![json!(format!("#{id}"))],
        )
        .await
        .unwrap();
    let text = wait_for(client, &format!("#{id}"))
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(
        text.contains(link),
        "#{id} has no link back to {link}: {text}"
    );
    click(client, &format!("button.copy[data-copy='{id}']")).await;
    let button = wait_for(client, &format!("button.copy[data-copy='{id}']")).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while button.text().await.unwrap() != "Copied" {
        assert!(std::time::Instant::now() < deadline, "#{id}: never copied");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    client
        .execute(
            "const t = document.createElement('textarea'); t.id = 'paste-here'; \
             document.body.prepend(t);",
            vec![],
        )
        .await
        .unwrap();
    let scratch = wait_for(client, "#paste-here").await;
    scratch.click().await.unwrap();
    scratch
        .send_keys(&format!(
            "{}v{}",
            char::from(Key::Control),
            char::from(Key::Null)
        ))
        .await
        .unwrap();
    let pasted = scratch.prop("value").await.unwrap().unwrap_or_default();
    assert_eq!(pasted, text, "#{id}: the clipboard holds something else");
    // The link back opens the game's page (not an error page).
    goto(client, link).await;
    wait_for(client, "#waiting, .round-page, h1").await;
    let title = client.title().await.unwrap();
    assert!(
        !title.to_lowercase().contains("not found"),
        "{link} shows {title}"
    );
}

async fn every_page(base: &str, clients: &[Client]) -> Result<(), String> {
    let [host, ann, bob] = clients else {
        return Err("three browsers".into());
    };
    visit(host, base, "/").await;
    // The create form with each game's settings shown (its advanced ones unfolded).
    for game in GameKind::ALL.map(GameKind::id) {
        wait_for(host, "#game")
            .await
            .select_by_value(game)
            .await
            .unwrap();
        let advanced = format!("fieldset[data-game='{game}'] details.advanced summary");
        for summary in host.find_all(Locator::Css(&advanced)).await.unwrap() {
            summary.click().await.unwrap();
        }
        fits_360(host, &format!("the create form for {game}")).await;
    }
    for game in GameKind::ALL.map(GameKind::id) {
        visit(host, base, &format!("/rules/{game}")).await;
    }

    // Crossing Swords, from sign-ups to the end by the host.
    goto(host, base).await;
    let created = api(
        host,
        "POST",
        "/api/v1/lobbies",
        json!({"game": "crossing-swords", "name": "Phone melee"}),
    )
    .await;
    let (id, token) = (
        created["id"].as_str().ok_or("no id")?.to_owned(),
        created["host_token"].as_str().ok_or("no token")?.to_owned(),
    );
    host.goto(&format!("{base}/lobbies/{id}/as/{token}"))
        .await
        .unwrap();
    wait_for(host, "#share-link").await;
    fits_360(host, "the host panel").await;
    let lobby = format!("/lobbies/{id}");
    let share = format!("{base}{lobby}");
    for (client, name) in [(ann, "Ann"), (bob, "Bob")] {
        goto(client, &share).await;
        wait_for(client, "#player-name")
            .await
            .send_keys(name)
            .await
            .unwrap();
        click(client, "form[action$='/join'] button").await;
        wait_for(client, "#nothing-owed").await;
    }
    visit(ann, base, &lobby).await;
    copy_post(ann, "announce-bb", &share).await;
    visit(ann, base, &format!("{lobby}/play")).await;

    // The mail form, by clicking: an address, two boxes, saved; the address never comes back.
    let email = wait_for(ann, "#mail-email").await;
    email.send_keys("ann@example.org").await.unwrap();
    for value in ["deadline", "over"] {
        click(ann, &format!("#mail-form input[value='{value}']")).await;
    }
    click(ann, "#mail-form button[type=submit]").await;
    wait_for(ann, "#mail-done").await;
    let now = wait_for(ann, "#mail-now").await.text().await.unwrap();
    assert!(
        now.starts_with("You get mail for: Your answer is due, A round is resolved."),
        "{now}"
    );
    let source = ann.source().await.unwrap();
    assert!(!source.contains("ann@example.org"), "the address is shown");
    fits_360(ann, "the player page with mail on").await;
    screenshots(ann, "mail-form").await;

    goto(host, &format!("{base}{lobby}/host")).await;
    click(host, "form[action$='/host/start'] button").await;
    wait_for_text(host, "Round 1").await;
    fits_360(host, "the host panel while the game runs").await;
    // Ann has mail and owes orders: "Remind Ann", clicked, turns to "reminded"; Bob has
    // nothing set up, which the panel says instead of a button (docs/notifications.md).
    wait_for_text(
        host,
        "Bob has no notifications set up: remind them in the thread.",
    )
    .await;
    screenshots_of(host, "#players-h", "host-panel-remind").await;
    click(host, "form.remind button").await;
    wait_for_text(host, "reminded").await;
    assert!(
        host.find(Locator::Css("form.remind")).await.is_err(),
        "no Remind button is left once Ann is reminded"
    );
    fits_360(host, "the host panel with a reminder sent").await;
    visit(ann, base, &format!("{lobby}/play")).await;
    wait_for(ann, "#order-form").await;
    wait_for(ann, "#fallback-form").await;
    fits_360(ann, "the orders form").await;
    order(ann, "Strike", "Bob").await;
    visit(bob, base, &lobby).await;
    goto(bob, &format!("{share}/play")).await;
    order(bob, "Strike", "Ann").await;
    goto(ann, &format!("{share}/rounds/1")).await;
    wait_for_text(ann, "Round 1").await;
    fits_360(ann, "a round").await;
    copy_post(ann, "round-md", &format!("{share}/rounds/1")).await;
    visit(ann, base, &lobby).await;
    copy_post(ann, "pools-md", &share).await;
    // The export page's own link back leads to the game, as its post's link does.
    visit(ann, base, &format!("{lobby}/export")).await;
    click(ann, "p.crumbs a").await;
    wait_for(ann, "#waiting").await;
    let landed = ann.current_url().await.unwrap();
    assert_eq!(landed.path(), lobby);
    visit(ann, base, &format!("{lobby}/export")).await;
    copy_post(ann, "game-bb", &share).await;

    goto(host, &format!("{base}{lobby}/host")).await;
    click(host, "#end-form input[name=confirm]").await;
    click(host, "#end-form button[type=submit]").await;
    visit(ann, base, &lobby).await;
    wait_for(ann, ".standings").await;
    fits_360(ann, "the finished lobby").await;
    copy_post(ann, "standings-md", &share).await;
    visit(host, base, "/").await;
    wait_for(host, "#my-games").await;

    // Every other registered game's first form (BST's play step, the Scale of Styles' battle
    // plan, ...), in a lobby of its default settings.
    for game in GameKind::ALL.map(GameKind::id) {
        if game == "crossing-swords" {
            continue;
        }
        goto(host, base).await;
        let created = api(
            host,
            "POST",
            "/api/v1/lobbies",
            json!({"game": game, "name": format!("Phone {game}")}),
        )
        .await;
        let (id, token) = (
            created["id"].as_str().ok_or("no id")?.to_owned(),
            created["host_token"].as_str().ok_or("no token")?.to_owned(),
        );
        host.goto(&format!("{base}/lobbies/{id}/as/{token}"))
            .await
            .unwrap();
        wait_for(host, "#share-link").await;
        let share = format!("{base}/lobbies/{id}");
        for (client, name) in [(ann, "Ann"), (bob, "Bob")] {
            goto(client, &share).await;
            wait_for(client, "#player-name")
                .await
                .send_keys(name)
                .await
                .unwrap();
            click(client, "form[action$='/join'] button").await;
            wait_for(client, "#nothing-owed").await;
        }
        host.refresh().await.unwrap();
        click(host, "form[action$='/host/start'] button").await;
        wait_for_text(host, "Round 1").await;
        goto(ann, &format!("{share}/play")).await;
        wait_for(ann, "#order-form").await;
        fits_360(ann, &format!("the {game} player page")).await;
        fits_360(ann, &format!("the running {game} lobby")).await;
        visit(ann, base, &format!("/lobbies/{id}")).await;
    }
    Ok(())
}
