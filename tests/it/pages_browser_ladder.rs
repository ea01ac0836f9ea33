//! The ladder's page in a real browser on a phone (docs/bots.md, "The page"; set-up in
//! `pages_browser.rs`): after a round of the ladder has been played to its end and the next
//! one paired on the manual clock, `/ladder/bst` at 390 px, with the pages' script on and off,
//! lists every bot entered and both bosses with their ratings, links each game to its page,
//! and does not scroll sideways. One bot's handle is as long as handles go, in wide letters.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::time::Duration;

use fantoccini::Client;
use herald::clock::Clock;
use serde_json::{Value, json};

use crate::api_ladder::{INTERVAL, bot, enter, ladder_games, settings};
use crate::api_ladder_bosses::play_to_the_end;
use crate::api_profiles::profile;
use crate::pages_browser::{Script, browser, browser_available, goto, start_driver, wait_for};
use crate::pages_browser_phone::fits_width;
use crate::support::{T0, TestApp, sqlite_app_on};

/// The widest handle a profile may have: 24 characters, each as wide as a letter gets.
const LONG: &str = "WWWWWWWWWWWWWWWWWWWWWWWW";

/// A phone's width in CSS pixels (an iPhone 12 to 15).
const PHONE_WIDTH: u32 = 390;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_ladder_page_reads_on_a_phone_with_script_on_and_off() {
    if !browser_available() {
        return;
    }
    let app = sqlite_app_on(Clock::manual(T0))
        .await
        .with_ladder(settings(2));
    let bosses = app.host.ensure_bosses().await.unwrap();
    let _playing = herald::bots::bosses::spawn(&app.host, bosses);
    let (hana, _) = profile(&app, "Hana").await;
    let robo = bot(&app, &hana, "Robo").await;
    let long = bot(&app, &hana, LONG).await;
    for key in [&robo, &long] {
        enter(&app, key, "bst").await;
    }

    // The first round: each bot meets a boss (never its owner's other bot), and both games
    // are played to their end, which rates them.
    app.host.play_ladder_round().await.unwrap().unwrap();
    let first = ladder_games(&app, "bst").await;
    assert_eq!(first.len(), 2, "{first:?}");
    let mut games = Vec::new();
    for key in [&robo, &long] {
        let handle = if key == &robo { "Robo" } else { LONG };
        let game = first
            .iter()
            .find(|g| g["players"].as_array().unwrap().contains(&json!(handle)))
            .unwrap_or_else(|| panic!("{handle} has no game: {first:?}"));
        games.push((game["lobby"].as_str().unwrap().to_string(), key.clone()));
    }
    let (a, b) = tokio::join!(
        play_to_the_end(&app, &games[0].0, &games[0].1),
        play_to_the_end(&app, &games[1].0, &games[1].1)
    );
    assert_eq!(
        (&a["status"], &b["status"]),
        (&json!("finished"), &json!("finished"))
    );

    // The next interval's round is paired and left in progress.
    app.clock.advance(INTERVAL);
    app.host.play_ladder_round().await.unwrap().unwrap();
    let all = ladder_games(&app, "bst").await;
    let lobbies = |finished: bool| -> BTreeSet<String> {
        all.iter()
            .filter(|g| (g["status"] == "finished") == finished)
            .map(|g| format!("/lobbies/{}", g["lobby"].as_str().unwrap()))
            .collect()
    };
    let (results, running) = (lobbies(true), lobbies(false));
    assert_eq!((results.len(), running.len()), (2, 2), "{all:?}");
    let ladder = app.get("/api/v1/ladder/bst", None).await.body;
    let entries: BTreeSet<(String, String)> = ladder["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let shown = e["shown"].as_str().unwrap().to_string();
            (e["handle"].as_str().unwrap().to_string(), shown)
        })
        .collect();
    let handles: BTreeSet<&str> = entries.iter().map(|(h, _)| h.as_str()).collect();
    assert_eq!(
        handles,
        BTreeSet::from(["Robo", LONG, "herald-greedy", "herald-random"])
    );
    assert!(
        entries
            .iter()
            .all(|(_, shown)| shown.chars().any(|c| c.is_ascii_digit())),
        "{entries:?}"
    );

    let (base, server) = serve(&app).await;
    let driver = start_driver().await;
    let dir = tempfile::tempdir().unwrap();
    let expected = Expected {
        entries,
        results,
        running,
    };
    for script in [Script::On, Script::Off] {
        let profile = dir.path().join(format!("profile-{script:?}"));
        let client = browser(&driver, &profile, script).await;
        let read = tokio::time::timeout(
            Duration::from_secs(120),
            read_the_ladder(&client, &base, &expected, script),
        )
        .await;
        let _ = client.close().await;
        read.unwrap_or_else(|_| panic!("{script:?}: the browser took more than 2 minutes"));
    }
    server.abort();
}

/// What the page must show, as the API says it.
struct Expected {
    /// Each bot's handle and rating as shown.
    entries: BTreeSet<(String, String)>,
    /// The finished games' pages.
    results: BTreeSet<String>,
    /// The games in progress.
    running: BTreeSet<String>,
}

/// Serves the app's router on a free port, as the server does (with each peer's address).
async fn serve(app: &TestApp) -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = app.router.clone();
    let server = tokio::spawn(async move {
        let service = router.into_make_service_with_connect_info::<SocketAddr>();
        let _ = axum::serve(listener, service).await;
    });
    (base, server)
}

/// Runs `script` on the open page and reads its answer as `T`.
async fn read<T: serde::de::DeserializeOwned>(client: &Client, script: &str) -> T {
    let value: Value = client.execute(script, vec![]).await.unwrap();
    serde_json::from_value(value).unwrap()
}

/// The links of the list `css` on the open page.
async fn links(client: &Client, css: &str) -> BTreeSet<String> {
    let script = format!(
        "return [...document.querySelectorAll('{css} a')].map(a => a.getAttribute('href'));"
    );
    read(client, &script).await
}

async fn read_the_ladder(client: &Client, base: &str, expected: &Expected, script: Script) {
    goto(client, &format!("{base}/ladder/bst")).await;
    wait_for(client, "table#entries").await;
    let rows: BTreeSet<(String, String)> = read(
        client,
        "return [...document.querySelectorAll('#entries tbody tr')]
           .map(r => [r.querySelector('th').innerText.trim(), r.cells[2].innerText.trim()]);",
    )
    .await;
    assert_eq!(rows, expected.entries, "{script:?}: the bots entered");
    assert_eq!(
        links(client, "#results").await,
        expected.results,
        "{script:?}"
    );
    assert_eq!(
        links(client, "#running").await,
        expected.running,
        "{script:?}"
    );
    fits_width(client, &format!("the ladder ({script:?})"), PHONE_WIDTH).await;
    // Nor does the table of bots scroll inside its frame: a long handle breaks in its cell.
    client.set_window_size(PHONE_WIDTH, 780).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let frames: Vec<(f64, f64)> = read(
        client,
        "return [...document.querySelectorAll('.table-wrap')]
           .map(w => [w.scrollWidth, w.clientWidth]);",
    )
    .await;
    assert!(
        !frames.is_empty() && frames.iter().all(|(inner, outer)| inner <= outer),
        "{script:?}: the bots' table scrolls sideways at {PHONE_WIDTH} px: {frames:?}"
    );

    // A result's link opens its game's page.
    let first = expected.results.first().unwrap();
    wait_for(client, &format!("#results a[href='{first}']"))
        .await
        .click()
        .await
        .unwrap();
    wait_for(client, "h1").await;
    let url = client.current_url().await.unwrap();
    assert_eq!(url.path(), first, "{script:?}: the result's link");
    // Every finished game's page fits too, whoever won: a winner's long handle in the
    // result's headline breaks rather than widen the page.
    for game in &expected.results {
        goto(client, &format!("{base}{game}")).await;
        wait_for(client, "h1").await;
        fits_width(
            client,
            &format!("a ladder game's page, {game} ({script:?})"),
            PHONE_WIDTH,
        )
        .await;
    }
}
