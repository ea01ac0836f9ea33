//! A player's pages in a real browser, with the pages' script on and off, at 390 px and
//! 1280 px (set-up in `pages_browser.rs`; docs/web.md, "Tests"):
//! - the Scale of Styles battle plan is laid in the player's order (KS, 2H, AC, JK1 tapped in
//!   that order is the plan KS, 2H, AC, JK1), with a card moved and removed on the way, and the
//!   step fits a phone in far less than its old 4,100 px;
//! - the player's page puts what happened last round and the players table above the form,
//!   and folds the fallback form once a fallback is set;
//! - BST's and the Scale of Styles' players tables and every rules page's tables fit their box
//!   at both widths (a card per player on a phone), with the script and without it;
//! - a long game's lobby page shows its latest rounds and links the rest, sixteen players with
//!   long names fit a phone, and the page comes gzipped.

use std::time::Duration;

use axum::body::Bytes;
use fantoccini::{Client, Locator};
use herald::games::GameKind;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request};
use hyper_util::client::legacy::Client as HttpClient;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};

use crate::pages_browser::{
    Script, browser_available, fits_phone_and_desktop, goto, screenshots, screenshots_of,
    submit_form, wait_for, wait_for_text, with_browsers_serving, with_browsers_without_script,
};

/// A JSON API call from the test itself (the pages' script may be off in the browser).
pub(crate) async fn api(
    base: &str,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> Value {
    let client = HttpClient::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let mut request = Request::builder()
        .method(method)
        .uri(format!("{base}{path}"))
        .header("content-type", "application/json");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let request = request
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap();
    let response = client.request(request).await.unwrap();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&bytes).unwrap_or(Value::Null)
}

/// A started lobby of `game` with `names` seated: (id, host token, each player's (id, token)).
pub(crate) async fn started(
    base: &str,
    game: &str,
    settings: Value,
    names: &[&str],
) -> (String, String, Vec<(String, String)>) {
    let created = api(
        base,
        Method::POST,
        "/api/v1/lobbies",
        None,
        json!({"game": game, "name": "Browser table", "settings": settings}),
    )
    .await;
    let id = created["id"].as_str().expect("a lobby").to_owned();
    let host = created["host_token"].as_str().unwrap().to_owned();
    let mut seats = Vec::new();
    for name in names {
        let joined = api(
            base,
            Method::POST,
            &format!("/api/v1/lobbies/{id}/players"),
            None,
            json!({"name": name}),
        )
        .await;
        seats.push((
            joined["player_id"].as_str().expect("joined").to_owned(),
            joined["player_token"].as_str().unwrap().to_owned(),
        ));
    }
    let start = api(
        base,
        Method::POST,
        &format!("/api/v1/lobbies/{id}/start"),
        Some(&host),
        json!({}),
    )
    .await;
    assert!(start["error"].is_null(), "start: {start}");
    (id, host, seats)
}

async fn click(client: &Client, css: &str, script: Script) {
    match script {
        // Without the script every list button posts the form: wait for the answer's page.
        Script::Off => submit_form(client, css).await,
        Script::On => wait_for(client, css).await.click().await.unwrap(),
    }
}

/// The plan as the page lists it now, top first.
async fn listed(client: &Client) -> Vec<String> {
    let mut cards = Vec::new();
    for input in client
        .find_all(Locator::Css("ol.ordered-list input[name=cards]"))
        .await
        .unwrap()
    {
        cards.push(input.attr("value").await.unwrap().unwrap_or_default());
    }
    cards
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_battle_plan_is_laid_in_the_players_order_with_the_script() {
    if !browser_available() {
        return;
    }
    let plan = async |base: &str, clients: &[Client]| lay_plan(base, clients, Script::On).await;
    with_browsers_serving(&["ann"], herald::Options::default(), plan).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_battle_plan_is_laid_in_the_players_order_without_the_script() {
    if !browser_available() {
        return;
    }
    let plan = async |base: &str, clients: &[Client]| lay_plan(base, clients, Script::Off).await;
    with_browsers_without_script(&["ann"], herald::Options::default(), plan).await;
}

async fn lay_plan(base: &str, clients: &[Client], script: Script) -> Result<(), String> {
    let [ann] = clients else {
        return Err("one browser".into());
    };
    let (id, _host, seats) = started(
        base,
        "scale-of-styles",
        json!({"max_rounds": 3}),
        &["Ann", "Bob"],
    )
    .await;
    ann.goto(&format!("{base}/lobbies/{id}/as/{}", seats[0].1))
        .await
        .unwrap();
    wait_for(ann, "#order-form fieldset.ordered").await;
    let help = wait_for(ann, "#orders").await.text().await.unwrap();
    assert!(
        help.contains("colour sets your starting technique") && help.contains("Reaction Speed"),
        "the step says what a card means: {help}"
    );
    for card in ["KS", "2H", "AC", "JK1", "3C"] {
        click(ann, &format!("button.pick[value='add:{card}']"), script).await;
    }
    assert_eq!(listed(ann).await, ["KS", "2H", "AC", "JK1", "3C"]);
    click(ann, "button[aria-label='Move 3C up']", script).await;
    assert_eq!(listed(ann).await, ["KS", "2H", "AC", "3C", "JK1"]);
    click(ann, "button[aria-label='Remove 3C']", script).await;
    assert_eq!(listed(ann).await, ["KS", "2H", "AC", "JK1"]);
    let taken = wait_for(ann, "button.pick[value='add:KS']").await;
    assert!(
        !taken.is_enabled().await.unwrap(),
        "a listed card cannot be added twice"
    );
    let label = match script {
        Script::On => "sos-plan",
        Script::Off => "sos-plan-nojs",
    };
    screenshots(ann, label).await;
    // On a phone the whole step (help, list, every card) is a fraction of the 4,100 px that
    // 54 checkboxes took.
    ann.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let tall = ann
        .execute(
            "return document.getElementById('orders').getBoundingClientRect().height;",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        tall.as_f64().unwrap() < 2_000.0,
        "the plan step is {tall} px tall on a phone"
    );
    ann.set_window_size(1280, 900).await.unwrap();

    submit_form(ann, "#order-form .actions button[type=submit]:not([name])").await;
    wait_for_text(ann, "Order sent: cards KS, 2H, AC, JK1").await;
    // Bob declines (a shuffled deck); the step resolves and Ann's deck starts with her plan.
    let declined = api(
        base,
        Method::POST,
        &format!("/api/v1/lobbies/{id}/orders"),
        Some(&seats[1].1),
        json!({"round": 1, "step": "plan", "decline": true}),
    )
    .await;
    assert!(declined["error"].is_null(), "{declined}");
    let me = api(
        base,
        Method::GET,
        &format!("/api/v1/lobbies/{id}/me"),
        Some(&seats[0].1),
        Value::Null,
    )
    .await;
    let deck: Vec<&str> = me["deck"]
        .as_array()
        .unwrap_or_else(|| panic!("no deck: {me}"))
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(deck[..4], ["KS", "2H", "AC", "JK1"], "the plan is {deck:?}");
    Ok(())
}

/// The top of `css` on the open page, in px from the top of the document.
async fn top(client: &Client, css: &str) -> f64 {
    let got = client
        .execute(
            "const e = document.querySelector(arguments[0]); \
             return e ? e.getBoundingClientRect().top + window.scrollY : -1;",
            vec![json!(css)],
        )
        .await
        .unwrap();
    let top = got.as_f64().unwrap();
    assert!(top >= 0.0, "no {css} on the page");
    top
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_player_page_shows_last_round_and_the_table_above_the_form_with_the_script() {
    if !browser_available() {
        return;
    }
    let page = async |base: &str, clients: &[Client]| player_page(base, clients, Script::On).await;
    with_browsers_serving(&["ann"], herald::Options::default(), page).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_player_page_shows_last_round_and_the_table_above_the_form_without_the_script() {
    if !browser_available() {
        return;
    }
    let page = async |base: &str, clients: &[Client]| player_page(base, clients, Script::Off).await;
    with_browsers_without_script(&["ann"], herald::Options::default(), page).await;
}

async fn player_page(base: &str, clients: &[Client], script: Script) -> Result<(), String> {
    let [ann] = clients else {
        return Err("one browser".into());
    };
    let (id, _host, seats) = started(
        base,
        "crossing-swords",
        json!({"max_rounds": 5}),
        &["Ann", "Bob", "Cat"],
    )
    .await;
    for (i, (_, token)) in seats.iter().enumerate() {
        let target = &seats[(i + 1) % seats.len()].0;
        let sent = api(
            base,
            Method::POST,
            &format!("/api/v1/lobbies/{id}/orders"),
            Some(token),
            json!({"round": 1, "step": "orders", "move": "strike", "target": target}),
        )
        .await;
        assert!(sent["error"].is_null(), "{sent}");
    }
    ann.goto(&format!("{base}/lobbies/{id}/as/{}", seats[0].1))
        .await
        .unwrap();
    wait_for(ann, "#order-form").await;
    let h1 = wait_for(ann, "h1").await.text().await.unwrap();
    assert!(h1.contains("Ann") && h1.contains("Browser table"), "{h1}");
    let own = wait_for(ann, "table.pools tbody tr:first-child th")
        .await
        .text()
        .await
        .unwrap();
    assert!(own.contains("(you)"), "your own row is marked: {own}");
    for width in [390, 1280] {
        ann.set_window_size(width, 900).await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (latest, players, form) = (
            top(ann, "#latest").await,
            top(ann, "#players").await,
            top(ann, "#order-form").await,
        );
        assert!(
            latest < players && players < form,
            "at {width} px: last round at {latest}, players at {players}, the form at {form}"
        );
    }
    ann.set_window_size(1280, 900).await.unwrap();
    let latest = wait_for(ann, "#latest").await.text().await.unwrap();
    assert!(
        latest.contains("What happened in round 1") && latest.contains("Bob"),
        "{latest}"
    );
    let label = match script {
        Script::On => "player-page",
        Script::Off => "player-page-nojs",
    };
    screenshots(ann, label).await;

    // Setting a fallback folds its form away, under the fallback it states.
    let form = wait_for(ann, "#fallback-form").await;
    form.find(Locator::Css("#fb-f-move"))
        .await
        .unwrap()
        .select_by_label("Block")
        .await
        .unwrap();
    form.find(Locator::Css("#fb-f-target"))
        .await
        .unwrap()
        .select_by_label("Bob")
        .await
        .unwrap();
    submit_form(ann, "#fallback-form button[type=submit]").await;
    wait_for_text(ann, "Fallback order: Block → Bob").await;
    let open = wait_for(ann, "#fallback-more")
        .await
        .attr("open")
        .await
        .unwrap();
    assert!(open.is_none(), "the fallback form stays folded once set");
    assert!(
        !wait_for(ann, "#fallback-form")
            .await
            .is_displayed()
            .await
            .unwrap()
    );
    Ok(())
}

/// Every players table and rules table on the open page fits its box at 390 px and 1280 px,
/// and the page does not scroll sideways.
async fn tables_fit(client: &Client, what: &str) {
    for width in [390, 1280] {
        client.set_window_size(width, 900).await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        let wide = client
            .execute(
                "return [...document.querySelectorAll('table.pools, table.rules-table')] \
                   .map(t => t.parentElement) \
                   .filter(box => box.scrollWidth > box.clientWidth + 1) \
                   .map(box => box.scrollWidth + ' in ' + box.clientWidth);",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(wide, json!([]), "{what} at {width} px: tables scroll");
    }
    fits_phone_and_desktop(client, what).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn players_and_rules_tables_fit_phone_and_desktop() {
    if !browser_available() {
        return;
    }
    let fit = async |base: &str, clients: &[Client]| tables(base, clients, Script::On).await;
    with_browsers_serving(&["ann"], herald::Options::default(), fit).await;
}

/// The same without the pages' script: the tables fit by the style sheet alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn players_and_rules_tables_fit_phone_and_desktop_without_the_script() {
    if !browser_available() {
        return;
    }
    let fit = async |base: &str, clients: &[Client]| tables(base, clients, Script::Off).await;
    with_browsers_without_script(&["ann"], herald::Options::default(), fit).await;
}

async fn tables(base: &str, clients: &[Client], script: Script) -> Result<(), String> {
    let [ann] = clients else {
        return Err("one browser".into());
    };
    for game in GameKind::ALL.map(GameKind::id) {
        goto(ann, &format!("{base}/rules/{game}")).await;
        wait_for(ann, "h1").await;
        tables_fit(ann, &format!("the {game} rules")).await;
        if script == Script::On && game == "bst" {
            // A turn's steps, each rule cited in words and linked ("rule T7").
            screenshots_of(ann, "#turn", "rules-bst").await;
        }
    }
    // Every registered game's duel, in its default settings.
    for game in GameKind::ALL.map(GameKind::id) {
        let (id, _host, seats) = started(base, game, json!({}), &["Ann", "Bob"]).await;
        goto(ann, &format!("{base}/lobbies/{id}")).await;
        wait_for(ann, "table.pools").await;
        tables_fit(ann, &format!("the {game} lobby")).await;
        ann.goto(&format!("{base}/lobbies/{id}/as/{}", seats[0].1))
            .await
            .unwrap();
        wait_for(ann, "table.pools").await;
        tables_fit(ann, &format!("the {game} player page")).await;
        if script == Script::On {
            screenshots(ann, &format!("{game}-player-table")).await;
        }
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_long_sixteen_player_game_keeps_its_lobby_page_light_with_the_script() {
    if !browser_available() {
        return;
    }
    let long = async |base: &str, clients: &[Client]| long_game(base, clients, Script::On).await;
    with_browsers_serving(&["ann"], herald::Options::default(), long).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_long_sixteen_player_game_keeps_its_lobby_page_light_without_the_script() {
    if !browser_available() {
        return;
    }
    let long = async |base: &str, clients: &[Client]| long_game(base, clients, Script::Off).await;
    with_browsers_without_script(&["ann"], herald::Options::default(), long).await;
}

async fn long_game(base: &str, clients: &[Client], script: Script) -> Result<(), String> {
    let [ann] = clients else {
        return Err("one browser".into());
    };
    let names: Vec<String> = (0..16)
        .map(|i| format!("BartholomewFeatherstonehaughWolfeschle{i:02}"))
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let (id, _host, seats) = started(
        base,
        "crossing-swords",
        json!({"max_players": 16, "max_rounds": 20}),
        &names,
    )
    .await;
    for round in 1..=5u64 {
        for (i, (me, token)) in seats.iter().enumerate() {
            let (mv, target) = match round % 2 {
                0 => ("strike", &seats[(i + 1) % seats.len()].0),
                _ => ("mend", me),
            };
            let sent = api(
                base,
                Method::POST,
                &format!("/api/v1/lobbies/{id}/orders"),
                Some(token),
                json!({"round": round, "step": "orders", "move": mv, "target": target}),
            )
            .await;
            assert!(sent["error"].is_null(), "round {round}: {sent}");
        }
    }
    // Round 6 is running: one player has answered, fifteen long names are awaited.
    let sent = api(
        base,
        Method::POST,
        &format!("/api/v1/lobbies/{id}/orders"),
        Some(&seats[0].1),
        json!({"round": 6, "step": "orders", "move": "mend", "target": seats[0].0}),
    )
    .await;
    assert!(sent["error"].is_null(), "{sent}");
    ann.goto(&format!("{base}/lobbies/{id}/as/{}", seats[0].1))
        .await
        .unwrap();
    goto(ann, &format!("{base}/lobbies/{id}")).await;
    wait_for(ann, "#waiting").await;
    nothing_sticks_out(ann, "a sixteen-player lobby with long names").await;
    fits_phone_and_desktop(ann, "a sixteen-player lobby with long names").await;
    let shown = ann
        .find_all(Locator::Css("#reveals details.round"))
        .await
        .unwrap()
        .len();
    assert_eq!(shown, 3, "the latest three rounds are inline");
    if script == Script::On {
        let sizes = ann
            .execute(
                "const n = performance.getEntriesByType('navigation')[0]; \
                 return [n.encodedBodySize, n.decodedBodySize];",
                vec![],
            )
            .await
            .unwrap();
        let (sent, read) = (sizes[0].as_f64().unwrap(), sizes[1].as_f64().unwrap());
        assert!(sent * 3.0 < read, "the page comes compressed: {sizes}");
    }
    screenshots(
        ann,
        match script {
            Script::On => "lobby-sixteen",
            Script::Off => "lobby-sixteen-nojs",
        },
    )
    .await;
    submit_form(ann, "#older-rounds a").await;
    let listed = ann
        .find_all(Locator::Css("#rounds li"))
        .await
        .unwrap()
        .len();
    assert_eq!(listed, 5, "every round is on the rounds page");
    let first = wait_for(ann, "#rounds li a").await.text().await.unwrap();
    assert_eq!(first, "Round 5 of 20", "rounds named with the cap");
    fits_phone_and_desktop(ann, "the rounds page").await;
    if script == Script::On {
        screenshots(ann, "rounds-page").await;
    }
    goto(ann, &format!("{base}/lobbies/{id}/play")).await;
    wait_for(ann, "#waiting").await;
    nothing_sticks_out(ann, "a player page among sixteen long names").await;
    fits_phone_and_desktop(ann, "a player page among sixteen long names").await;
    Ok(())
}

/// At 360 px no element sticks out of the page (a box that scrolls its table is no overflow
/// of the page); the culprits are named.
async fn nothing_sticks_out(client: &Client, what: &str) {
    client.set_window_size(360, 780).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let out = client
        .execute(
            "const w = window.innerWidth; \
             return [...document.querySelectorAll('body *')] \
               .filter(e => e.getBoundingClientRect().right > w + 1 \
                 && !e.parentElement.closest('.table-wrap, .table-scroll') \
                 && !(e.parentElement && e.parentElement.getBoundingClientRect().right > w + 1)) \
               .map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 5);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(out, json!([]), "{what}: what sticks out of a 360 px phone");
    client.set_window_size(1280, 900).await.unwrap();
}
