//! A draw vote in real browsers on phones (docs/table-talk.md, "End votes" and "Pages"; set-up
//! in `pages_browser.rs`): two players of a Crossing Swords duel with public press talk at the
//! table, then each ticks "Vote to end the game as a draw" on the order form, Bob with
//! JavaScript off. The round resolves, the game ends as a draw by vote, and the archive after
//! the end shows the messages.

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use crate::pages_browser::{
    Script, browser_available, goto, submit_form, wait_for, wait_for_text, with_browsers_each,
};

const PHONE: (u32, u32) = (390, 844);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_draw_vote_from_the_order_form_ends_the_game_and_the_archive_keeps_the_talk() {
    if !browser_available() {
        return;
    }
    let who = [
        ("host", Script::On),
        ("ann", Script::On),
        ("bob", Script::Off),
    ];
    with_browsers_each(&who, herald::Options::default(), vote).await;
}

/// A JSON API call made from the browser, as a script would.
async fn api(client: &Client, method: &str, path: &str, token: Option<&str>, body: Value) -> Value {
    client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const headers = {'content-type': 'application/json'};
             if (arguments[3]) headers['authorization'] = 'Bearer ' + arguments[3];
             fetch(arguments[0], {method: arguments[1], headers,
               body: arguments[1] === 'GET' ? undefined : JSON.stringify(arguments[2])})
               .then(r => r.json()).then(done);",
            vec![json!(path), json!(method), body, json!(token)],
        )
        .await
        .unwrap()
}

/// Says `text` to everyone from the table-talk page.
async fn say(client: &Client, base: &str, lobby: &str, text: &str) {
    goto(client, &format!("{base}/lobbies/{lobby}/play/talk")).await;
    wait_for(client, "#talk-text")
        .await
        .send_keys(text)
        .await
        .unwrap();
    submit_form(client, "#talk-send").await;
    wait_for_text(client, text).await;
}

/// Strikes `target` with the vote ticked, from the order form on the player's page.
async fn strike_and_vote(client: &Client, base: &str, lobby: &str, target: &str) {
    goto(client, &format!("{base}/lobbies/{lobby}/play")).await;
    let form = wait_for(client, "#order-form").await;
    form.find(Locator::Css("#f-move"))
        .await
        .unwrap()
        .select_by_value("strike")
        .await
        .unwrap();
    form.find(Locator::Css("#f-target"))
        .await
        .unwrap()
        .select_by_label(target)
        .await
        .unwrap();
    let vote = wait_for(client, "#vote").await;
    let words = vote.text().await.unwrap();
    assert_eq!(words.trim(), "Vote to end the game as a draw");
    vote.find(Locator::Css("input[name=vote]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    submit_form(
        client,
        "#order-form .actions button[type=submit]:not([name])",
    )
    .await;
}

async fn vote(base: &str, clients: &[Client]) -> Result<(), String> {
    let [host, ann, bob] = clients else {
        return Err("three browsers".into());
    };
    for client in clients {
        client.set_window_size(PHONE.0, PHONE.1).await.unwrap();
    }
    goto(host, base).await;
    let created = api(
        host,
        "POST",
        "/api/v1/lobbies",
        None,
        json!({"game": "crossing-swords", "name": "Peace talks", "settings": {"press": "public"}}),
    )
    .await;
    let lobby = created["id"]
        .as_str()
        .ok_or(format!("{created}"))?
        .to_owned();
    let host_token = created["host_token"].as_str().unwrap().to_owned();
    for (client, name) in [(ann, "Ann"), (bob, "Bob")] {
        goto(client, &format!("{base}/lobbies/{lobby}")).await;
        wait_for(client, "#player-name")
            .await
            .send_keys(name)
            .await
            .unwrap();
        submit_form(client, "form[action$='/join'] button").await;
        wait_for(client, "#nothing-owed").await;
    }
    host.goto(&format!("{base}/lobbies/{lobby}/as/{host_token}"))
        .await
        .unwrap();
    wait_for(host, "form[action$='/host/start'] button").await;
    submit_form(host, "form[action$='/host/start'] button").await;

    say(ann, base, &lobby, "Shall we call it a draw, Bob?").await;
    say(bob, base, &lobby, "Gladly. I tick the box.").await;
    strike_and_vote(ann, base, &lobby, "Bob").await;
    strike_and_vote(bob, base, &lobby, "Ann").await;

    let view = api(
        host,
        "GET",
        &format!("/api/v1/lobbies/{lobby}"),
        None,
        json!(null),
    )
    .await;
    if view["status"] != "finished" || view["result"]["reason"] != "draw-vote" {
        return Err(format!("the votes did not end the game: {view}"));
    }
    // The round's forum post (on the round's page, to copy) says who voted.
    goto(bob, &format!("{base}/lobbies/{lobby}/rounds/1")).await;
    wait_for_text(bob, "Round 1: copy for a forum post").await;
    let page = bob.source().await.unwrap();
    if !page.contains("Voted for a draw in round 1: Ann, Bob.") {
        return Err(format!("the round's post does not say who voted: {page}"));
    }
    let archive = api(
        bob,
        "GET",
        &format!("/api/v1/lobbies/{lobby}/archive"),
        None,
        json!(null),
    )
    .await;
    let texts: Vec<&str> = archive["messages"]
        .as_array()
        .map(|m| m.iter().filter_map(|m| m["text"].as_str()).collect())
        .unwrap_or_default();
    if texts != ["Shall we call it a draw, Bob?", "Gladly. I tick the box."] {
        return Err(format!("the archive's messages: {texts:?}"));
    }
    Ok(())
}
