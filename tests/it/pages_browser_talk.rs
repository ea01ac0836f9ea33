//! Table talk in real browsers on phones (docs/table-talk.md, "Pages"; set-up in
//! `pages_browser.rs`): three players of a `full` press game negotiate privately at 390 px, Cat
//! with JavaScript off; each sees the unread count of what was written to them, reads and
//! answers it, never sees another pair's talk, and no talk page scrolls sideways. Once the host
//! ends the game, the lobby page and the archive show every message.

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use crate::pages_browser::{
    Script, browser_available, goto, submit_form, wait_for, wait_for_text, with_browsers_each,
};

const PHONE: (u32, u32) = (390, 844);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_players_negotiate_privately_on_phones_one_without_javascript() {
    if !browser_available() {
        return;
    }
    let who = [
        ("host", Script::On),
        ("ann", Script::On),
        ("bob", Script::On),
        ("cat", Script::Off),
    ];
    with_browsers_each(&who, herald::Options::default(), negotiate).await;
}

/// A JSON API call made from the browser (as a script or a bot would), with a token or none.
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

/// The page is no wider than the phone.
async fn fits_phone(client: &Client, what: &str) {
    let got = client
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await
        .unwrap();
    let n = |i: usize| got[i].as_f64().unwrap();
    assert!(n(0) <= n(1), "{what} scrolls sideways on a phone: {got}");
}

/// Opens the conversation with `with` from the player's page, as a person would: the table
/// talk link, then the correspondent in the list.
async fn open_conversation(client: &Client, base: &str, lobby: &str, with: &str) {
    goto(client, &format!("{base}/lobbies/{lobby}/play")).await;
    wait_for(client, "#talk-link a")
        .await
        .click()
        .await
        .unwrap();
    wait_for(client, &format!("#talk-{with}"))
        .await
        .click()
        .await
        .unwrap();
    wait_for(client, "#conversation").await;
}

async fn write(client: &Client, text: &str) {
    wait_for(client, "#talk-text")
        .await
        .send_keys(text)
        .await
        .unwrap();
    submit_form(client, "#talk-send").await;
    wait_for_text(client, text).await;
}

async fn unread_on_page(client: &Client, base: &str, lobby: &str) -> String {
    goto(client, &format!("{base}/lobbies/{lobby}/play")).await;
    wait_for(client, "#talk-link").await;
    match client.find(Locator::Css("#talk-unread")).await {
        Ok(element) => element.text().await.unwrap(),
        Err(_) => String::new(),
    }
}

async fn body_text(client: &Client) -> String {
    wait_for(client, "body").await.text().await.unwrap()
}

async fn negotiate(base: &str, clients: &[Client]) -> Result<(), String> {
    let [host, ann, bob, cat] = clients else {
        return Err("four browsers".into());
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
        json!({"game": "crossing-swords", "name": "Talking melee", "settings": {"press": "full"}}),
    )
    .await;
    let lobby = created["id"]
        .as_str()
        .ok_or(format!("{created}"))?
        .to_owned();
    let host_token = created["host_token"].as_str().unwrap().to_owned();
    for (client, name) in [(ann, "Ann"), (bob, "Bob"), (cat, "Cat")] {
        goto(client, &format!("{base}/lobbies/{lobby}")).await;
        wait_for(client, "#player-name")
            .await
            .send_keys(name)
            .await
            .unwrap();
        submit_form(client, "form[action$='/join'] button").await;
        wait_for(client, "#nothing-owed").await;
    }
    // The private link redirects to the host panel.
    host.goto(&format!("{base}/lobbies/{lobby}/as/{host_token}"))
        .await
        .unwrap();
    wait_for(host, "form[action$='/host/start'] button").await;
    submit_form(host, "form[action$='/host/start'] button").await;
    let view = api(
        host,
        "GET",
        &format!("/api/v1/lobbies/{lobby}"),
        None,
        json!(null),
    )
    .await;
    let id = |name: &str| -> String {
        view["players"]
            .as_array()
            .and_then(|players| players.iter().find(|p| p["name"] == name))
            .and_then(|p| p["id"].as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let (ann_id, bob_id, cat_id) = (id("Ann"), id("Bob"), id("Cat"));

    // Ann proposes to Bob; Bob sees it waiting on his page, reads it and answers.
    open_conversation(ann, base, &lobby, &bob_id).await;
    write(ann, "Bob, together against Cat?").await;
    fits_phone(ann, "Ann's conversation with Bob").await;
    assert_eq!(unread_on_page(bob, base, &lobby).await, "1 unread");
    open_conversation(bob, base, &lobby, &ann_id).await;
    wait_for_text(bob, "Bob, together against Cat?").await;
    write(bob, "Agreed, from round two.").await;
    fits_phone(bob, "Bob's conversation with Ann").await;
    assert_eq!(unread_on_page(bob, base, &lobby).await, "");

    // Cat, without JavaScript, writes to Ann and sees nothing of Ann and Bob's talk.
    assert_eq!(unread_on_page(cat, base, &lobby).await, "");
    open_conversation(cat, base, &lobby, &ann_id).await;
    write(cat, "Ann, Bob is plotting. Ally with me?").await;
    fits_phone(cat, "Cat's conversation with Ann").await;
    for path in ["/play", "/play/talk", &format!("/play/talk?with={bob_id}")] {
        goto(cat, &format!("{base}/lobbies/{lobby}{path}")).await;
        let text = body_text(cat).await;
        if text.contains("together against Cat") || text.contains("Agreed, from round two") {
            return Err(format!("Cat reads Ann and Bob's talk on {path}: {text}"));
        }
    }

    // Ann has two conversations waiting: Bob's answer and Cat's offer.
    assert_eq!(unread_on_page(ann, base, &lobby).await, "2 unread");
    open_conversation(ann, base, &lobby, &cat_id).await;
    wait_for_text(ann, "Bob is plotting").await;
    write(ann, "Noted.").await;
    goto(
        cat,
        &format!("{base}/lobbies/{lobby}/play/talk?with={ann_id}"),
    )
    .await;
    wait_for_text(cat, "Noted.").await;

    // The host ends the game: the lobby page and the archive show every message.
    let ended = api(
        host,
        "POST",
        &format!("/api/v1/lobbies/{lobby}/end"),
        Some(&host_token),
        json!({}),
    )
    .await;
    if ended["status"] != "finished" {
        return Err(format!("the game did not end: {ended}"));
    }
    goto(cat, &format!("{base}/lobbies/{lobby}")).await;
    wait_for_text(cat, "Bob, together against Cat?").await;
    wait_for_text(cat, "Ann to Bob").await;
    fits_phone(cat, "the finished lobby page").await;
    let archive = api(
        cat,
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
    if texts.len() != 4 || !texts.contains(&"Agreed, from round two.") {
        return Err(format!("the archive's messages: {texts:?}"));
    }
    Ok(())
}
