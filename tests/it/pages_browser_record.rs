//! The host's view of a running game, "my games" and a substitute, in a real browser (set-up
//! in `pages_browser.rs`), with the pages' script on and off: the host panel says at the top,
//! in the first screenful of a 390 px phone, whom the step waits for, with who has answered
//! right under it and each seat's state; the home page puts a game waiting for this browser's
//! answer first with a "your turn" badge and counts it in the tab's title; after the host puts
//! a substitute in Bob's seat, the lobby page names her "Eve (for Bob)", logs the substitution
//! in its round and draws one chart line per seat.

use std::time::Duration;

use fantoccini::{Client, Locator};
use serde_json::json;

use crate::pages_browser::{
    Script, browser_available, goto, order, screenshots, submit_form, wait_for, wait_for_text,
    with_browsers_serving, with_browsers_without_script,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_host_sees_who_is_owed_my_games_say_your_turn_and_a_substitute_is_recorded() {
    if !browser_available() {
        return;
    }
    with_browsers_serving(
        &["host", "ann", "bob"],
        herald::Options::default(),
        record_on,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_same_with_javascript_off() {
    if !browser_available() {
        return;
    }
    with_browsers_without_script(
        &["host", "ann", "bob"],
        herald::Options::default(),
        record_off,
    )
    .await;
}

async fn record_on(base: &str, clients: &[Client]) -> Result<(), String> {
    record(base, clients, Script::On).await
}

async fn record_off(base: &str, clients: &[Client]) -> Result<(), String> {
    record(base, clients, Script::Off).await
}

/// Runs `script` on the open page and returns its answer as JSON.
async fn run(client: &Client, script: &str) -> serde_json::Value {
    client.execute(script, vec![]).await.unwrap()
}

/// At a 390 px phone and at 1280 px: the page does not scroll sideways.
async fn fits(client: &Client, what: &str) {
    for (width, height) in [(390, 844), (1280, 900)] {
        client.set_window_size(width, height).await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        let got = run(
            client,
            "return [document.documentElement.scrollWidth, window.innerWidth];",
        )
        .await;
        assert!(
            got[0].as_f64() <= got[1].as_f64(),
            "{what} scrolls sideways at {width} px: {got}"
        );
    }
}

/// The host panel's seat tags, in seat order.
async fn seat_states(host: &Client) -> Vec<String> {
    let got = run(
        host,
        "return Array.from(document.querySelectorAll('details.seat summary .tag')).map(t => t.textContent.trim());",
    )
    .await;
    serde_json::from_value(got).unwrap()
}

async fn join(client: &Client, share: &str, name: &str) {
    goto(client, share).await;
    wait_for(client, "#player-name")
        .await
        .send_keys(name)
        .await
        .unwrap();
    submit_form(client, "form[action$='/join'] button").await;
    wait_for(client, "#nothing-owed").await;
}

async fn record(base: &str, clients: &[Client], script: Script) -> Result<(), String> {
    let [host, ann, bob] = clients else {
        return Err("three browsers".into());
    };
    let suffix = match script {
        Script::On => "",
        Script::Off => "-nojs",
    };
    goto(host, base).await;
    wait_for(host, "#lobby-name")
        .await
        .send_keys("Harbour watch")
        .await
        .unwrap();
    submit_form(host, "form[action='/lobbies'] button[type=submit]").await;
    let share = wait_for(host, "#share-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    let panel = host.current_url().await.unwrap().to_string();
    join(ann, &share, "Ann").await;
    join(bob, &share, "Bob").await;
    goto(host, &panel).await;
    submit_form(host, "form[action$='/host/start'] button").await;
    wait_for_text(host, "Round 1").await;

    // The host panel: the waiting line in the first screenful of a phone, who has answered
    // right under it (above the seats and the folded notifications), each seat's state.
    host.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let top = run(
        host,
        "window.scrollTo(0, 0); const w = document.getElementById('waiting'); \
         const at = id => { const e = document.getElementById(id); return e ? e.getBoundingClientRect().top : -1; }; \
         return [w ? w.textContent : '', w ? w.getBoundingClientRect().top : -1, window.innerHeight, \
                 at('players-h'), at('seats-h'), at('notifications'), \
                 document.getElementById('notifications').open];",
    )
    .await;
    assert_eq!(
        top[0],
        json!("Waiting for Ann's and Bob's orders."),
        "{top}"
    );
    let n = |i: usize| top[i].as_f64().unwrap();
    assert!(
        n(1) >= 0.0 && n(1) < n(2),
        "the waiting line is below the first screenful: {top}"
    );
    assert!(
        n(3) > n(1) && n(3) < n(4) && n(4) < n(5),
        "the sections' order: {top}"
    );
    assert_eq!(top[6], json!(false), "the notifications are folded");
    assert_eq!(seat_states(host).await, ["waiting", "waiting"]);
    screenshots(host, &format!("host-panel-waiting{suffix}")).await;

    // My games: Ann's game waits for her answer: a badge, and the count in the tab's title.
    goto(ann, base).await;
    let badge = wait_for(ann, "#my-games li.your-turn .badge")
        .await
        .text()
        .await
        .unwrap();
    assert!(badge.starts_with("your turn"), "{badge}");
    let title = ann.title().await.unwrap();
    assert!(title.starts_with("(1) Your turn in 1 game"), "{title}");
    fits(ann, "home").await;
    screenshots(ann, &format!("my-games-turn{suffix}")).await;

    goto(ann, &format!("{share}/play")).await;
    order(ann, "Strike", "Bob").await;
    goto(ann, base).await;
    wait_for(ann, "#my-games").await;
    assert!(
        ann.find(Locator::Css("#my-games .badge")).await.is_err(),
        "no badge once Ann's order is in"
    );
    assert!(!ann.title().await.unwrap().starts_with('('));
    goto(host, &panel).await;
    assert_eq!(seat_states(host).await, ["answered", "waiting"]);

    // Eve takes Bob's seat; her browser (Bob's, here) opens the new link.
    host.set_window_size(1280, 900).await.unwrap();
    wait_for(host, "details.seat:nth-of-type(2) summary")
        .await
        .click()
        .await
        .unwrap();
    wait_for(host, "details.seat:nth-of-type(2) input[name='name']")
        .await
        .send_keys("Eve")
        .await
        .unwrap();
    submit_form(
        host,
        "details.seat:nth-of-type(2) form[action$='/replace'] button",
    )
    .await;
    let link = wait_for(host, "#new-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    bob.goto(&link).await.unwrap();
    wait_for(bob, "#order-form").await;
    order(bob, "Strike", "Ann").await;

    // The record: Eve named for Bob, the substitution in round 1's log, one line per seat.
    goto(ann, &share).await;
    wait_for_text(ann, "Eve replaces Bob as a substitute.").await;
    let legends = run(
        ann,
        "return Array.from(document.querySelectorAll('ul.legend')).map(l => l.querySelectorAll('li').length);",
    )
    .await;
    assert_eq!(legends, json!([2, 2]), "one chart line per seat");
    let table = run(
        ann,
        "return Array.from(document.querySelectorAll('table.pools tbody th')).map(t => t.textContent.trim());",
    )
    .await;
    // Ann looks at her own lobby page: her row says it is hers.
    assert_eq!(table, json!(["Ann (you)", "Eve (for Bob)"]));
    fits(ann, "lobby").await;
    screenshots(ann, &format!("lobby-substitute{suffix}")).await;
    Ok(())
}
