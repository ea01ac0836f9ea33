//! The host's controls in a real browser (see `pages_browser.rs` for the set-up): a player
//! leaves and joins again before the start, then the host gives a player a new private link,
//! kicks another after ticking "I am sure", and ends the game, all by clicking.

use fantoccini::{Client, Locator};

use crate::pages_browser::{
    browser_available, goto, screenshots, wait_for, wait_for_text, wait_until, with_browsers,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_host_reissues_a_link_kicks_and_ends_the_game_by_clicking() {
    if !browser_available() {
        return;
    }
    with_browsers(&["host", "ann", "bob", "cat"], host_controls).await;
}

async fn click(client: &Client, css: &str) {
    wait_for(client, css).await.click().await.unwrap();
}

async fn join(client: &Client, share: &str, name: &str) {
    client.goto(share).await.unwrap();
    wait_for(client, "#player-name")
        .await
        .send_keys(name)
        .await
        .unwrap();
    click(client, "form[action$='/join'] button").await;
    wait_for(client, "#nothing-owed").await;
}

/// Opens the host panel's controls for the seat at `index` (0-based).
async fn open_seat(host: &Client, index: usize) {
    host.execute(
        "document.querySelectorAll('details.seat')[arguments[0]].open = true;",
        vec![serde_json::json!(index)],
    )
    .await
    .unwrap();
}

async fn host_controls(base: &str, clients: &[Client]) -> Result<(), String> {
    let [host, ann, bob, cat] = clients else {
        return Err("four browsers".into());
    };
    host.goto(base).await.map_err(|e| e.to_string())?;
    wait_for(host, "#lobby-name")
        .await
        .send_keys("Host tools")
        .await
        .unwrap();
    click(host, "form[action='/lobbies'] button").await;
    let share = wait_for(host, "#share-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    let panel = host.current_url().await.unwrap().to_string();
    for (client, name) in [(ann, "Ann"), (bob, "Bob"), (cat, "Cat")] {
        join(client, &share, name).await;
    }

    // Cat leaves before the start and joins again: her name was free.
    click(cat, "#leave-form button").await;
    wait_for(cat, "#player-name").await;
    join(cat, &share, "Cat").await;

    goto(host, &panel).await;
    wait_for_text(host, "Sign-ups").await;
    click(host, "form[action$='/host/start'] button").await;
    wait_for_text(host, "Round 1: orders are due").await;

    // A new private link for Bob: shown once; his old cookie no longer opens his page.
    open_seat(host, 1).await;
    host.execute(
        "document.querySelectorAll('details.seat')[1].scrollIntoView();",
        vec![],
    )
    .await
    .unwrap();
    screenshots(host, "host-seat-controls").await;
    click(
        host,
        "details.seat:nth-of-type(2) form[action$='/reissue'] button",
    )
    .await;
    let link = wait_for(host, "#new-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert!(link.contains("/as/"), "{link}");
    let play = format!("{}/play", share);
    bob.goto(&play).await.unwrap();
    // His old link stopped working, and the page says so rather than "open your link".
    wait_for_text(
        bob,
        "The private link this browser used for this lobby no longer works",
    )
    .await;
    screenshots(bob, "player-replaced").await;
    bob.goto(&link).await.unwrap();
    wait_for_text(bob, "Bob").await;
    wait_for(bob, "#order-form").await;

    // Kick Cat: the box must be ticked (the browser will not send the form without it).
    goto(host, &panel).await;
    open_seat(host, 2).await;
    let kick = "details.seat:nth-of-type(3) form[action$='/kick']";
    click(host, &format!("{kick} input[name='confirm']")).await;
    click(host, &format!("{kick} button")).await;
    // Every seat has a state tag; Cat's reads "out" once the kick is in.
    wait_until(
        host,
        "Cat's seat after the kick",
        "const t = document.querySelector('details.seat:nth-of-type(3) summary .tag'); \
         return t ? t.textContent : '';",
        |tag| tag == "out",
    )
    .await;
    cat.goto(&play).await.unwrap();
    wait_for_text(cat, "The host removed you from the game.").await;

    // End the game now.
    click(host, "#end-form input[name='confirm']").await;
    click(host, "#end-form button").await;
    wait_for_text(host, "Finished").await;
    // The finished panel: the result first, nothing left to run.
    wait_for(host, "#result-headline").await;
    assert!(
        host.find(Locator::Css("#live-note")).await.is_err(),
        "a finished panel does not say it updates itself"
    );
    screenshots(host, "host-panel-finished").await;
    ann.goto(&share).await.unwrap();
    wait_for_text(ann, "Seed (to replay the game)").await;
    Ok(())
}
