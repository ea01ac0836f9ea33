//! Ratings in a real browser on a phone (docs/ratings.md, "What is shown"; set-up in
//! `pages_browser.rs`): two people's rated duel, played through the API as a script would,
//! then its lobby page with the final standings and each one's rating change, the link from
//! it to the leaderboard, and the leaderboard with both marked provisional, each at 360 px
//! without sideways scrolling.

use fantoccini::Client;
use serde_json::{Value, json};

use crate::pages_browser::{
    browser_available, goto, wait_for, wait_for_text, with_browsers_serving,
};
use crate::pages_browser_phone::fits_360;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rated_duels_standings_and_its_leaderboard_read_on_a_phone() {
    if !browser_available() {
        return;
    }
    with_browsers_serving(&["visitor"], herald::Options::default(), rated_duel).await;
}

/// A JSON API call made by the browser with `token` (a profile key or the host's token).
async fn call(client: &Client, path: &str, token: &str, body: Value) -> Value {
    client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch(arguments[0], {method: 'POST', headers: {'content-type': 'application/json',
               authorization: 'Bearer ' + arguments[1]}, body: JSON.stringify(arguments[2])})
               .then(r => r.json()).then(done);",
            vec![json!(path), json!(token), body],
        )
        .await
        .unwrap()
}

async fn rated_duel(base: &str, clients: &[Client]) -> Result<(), String> {
    let client = &clients[0];
    goto(client, &format!("{base}/")).await;
    let mut keys = Vec::new();
    for handle in ["Rua", "Sol"] {
        let made = call(client, "/api/v1/profiles", "", json!({"handle": handle})).await;
        keys.push(made["key"].as_str().ok_or(format!("{made}"))?.to_owned());
    }
    let lobby = call(
        client,
        "/api/v1/lobbies",
        "",
        json!({"game": "bst", "name": "Rated on a phone", "settings": {"rated": true}}),
    )
    .await;
    let (id, host) = (
        lobby["id"].as_str().ok_or(format!("{lobby}"))?,
        lobby["host_token"].as_str().unwrap(),
    );
    let mut seats = Vec::new();
    for key in &keys {
        let path = format!("/api/v1/lobbies/{id}/players");
        let joined = call(client, &path, key, json!({"character": "sellsword"})).await;
        seats.push(
            joined["player_id"]
                .as_str()
                .ok_or(format!("{joined}"))?
                .to_owned(),
        );
    }
    call(
        client,
        &format!("/api/v1/lobbies/{id}/start"),
        host,
        json!({}),
    )
    .await;
    let ended = call(
        client,
        &format!("/api/v1/lobbies/{id}/end"),
        host,
        json!({"winner": seats[0]}),
    )
    .await;
    if ended["status"] != "finished" {
        return Err(format!("not finished: {ended}"));
    }

    goto(client, &format!("{base}/lobbies/{id}")).await;
    wait_for_text(client, "1500? → 1662? (+162)").await;
    wait_for_text(client, "1500? → 1338? (-162)").await;
    fits_360(client, "a rated lobby's final standings").await;
    wait_for(client, "#rated-boards a")
        .await
        .click()
        .await
        .unwrap();
    wait_for(client, "table#provisional").await;
    let url = client.current_url().await.unwrap();
    if !url.path().ends_with("/ratings/bst/humans") {
        return Err(format!("the lobby's link led to {url}"));
    }
    let rows = client
        .execute(
            "return [...document.querySelectorAll('#provisional tbody tr')].map(r => r.innerText);",
            vec![],
        )
        .await
        .unwrap();
    let rows: Vec<String> = serde_json::from_value(rows).unwrap();
    if rows.len() != 2 || !rows[0].contains("Rua") || !rows[0].contains("1662?") {
        return Err(format!("the leaderboard reads {rows:?}"));
    }
    fits_360(client, "the leaderboard").await;
    goto(client, &format!("{base}/")).await;
    wait_for(client, "#boards a[href='/ratings/bst/humans']").await;
    fits_360(client, "the home page with its leaderboards").await;
    Ok(())
}
