//! A tournament run from a phone in a real browser (docs/tournaments.md, "The pages"; set-up
//! in `pages_browser.rs`): the director creates a Swiss of BST duels from the pages, four
//! profiles enter through the API as their scripts would, the director starts each round from
//! the panel, and the games are ended by the director as their host through the API. A
//! visitor's tournament page follows all of it without reloading, ends on the final
//! standings, and its standings post is copied to the clipboard and pasted back. Without
//! JavaScript, the same is done by forms alone: create, enter, start a round.

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use crate::pages_browser::{
    Script, assert_page_marked, browser_available, goto, mark_page, submit_form, wait_for,
    wait_for_text, wait_until, with_browsers_each, with_browsers_serving,
};
use crate::pages_browser_phone::{copy_post, fits_360};

const HANDLES: [&str; 4] = ["Ana", "Ben", "Cid", "Dee"];

/// The mark the visitor's page keeps while it updates itself in place.
const FOLLOWING: u32 = 0x70;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_director_runs_a_swiss_from_a_phone_and_the_page_follows_it_live() {
    if !browser_available() {
        return;
    }
    with_browsers_serving(
        &["director", "visitor"],
        herald::Options::default(),
        run_swiss,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn without_javascript_a_director_creates_enters_and_starts_a_round_by_forms() {
    if !browser_available() {
        return;
    }
    with_browsers_each(
        &[("plain", Script::Off), ("script", Script::On)],
        herald::Options::default(),
        by_forms,
    )
    .await;
}

/// A JSON API call made by the browser (`method`, with `token` as the bearer, if any).
async fn call(client: &Client, method: &str, path: &str, token: &str, body: Value) -> Value {
    client
        .execute_async(
            "const [method, path, token, body] = arguments;
             const done = arguments[arguments.length - 1];
             const headers = {'content-type': 'application/json'};
             if (token) headers.authorization = 'Bearer ' + token;
             fetch(path, {method, headers, body: method === 'GET' ? undefined : JSON.stringify(body)})
               .then(r => r.json()).then(done);",
            vec![json!(method), json!(path), json!(token), body],
        )
        .await
        .unwrap()
}

async fn phone(client: &Client) {
    client.set_window_size(360, 780).await.unwrap();
}

/// Ends every running game of the current round as its host, the first seat winning.
async fn end_round(client: &Client, id: &str, director: &str) -> Result<(), String> {
    let view = call(
        client,
        "GET",
        &format!("/api/v1/tournaments/{id}"),
        "",
        json!({}),
    )
    .await;
    let round = view["rounds"]
        .as_array()
        .and_then(|r| r.last())
        .ok_or(format!("no round: {view}"))?;
    for game in round["games"].as_array().unwrap() {
        let lobby = game["lobby"].as_str().unwrap();
        let seen = call(
            client,
            "GET",
            &format!("/api/v1/lobbies/{lobby}"),
            "",
            json!({}),
        )
        .await;
        let winner = seen["players"][0]["id"].clone();
        let ended = call(
            client,
            "POST",
            &format!("/api/v1/lobbies/{lobby}/end"),
            director,
            json!({ "winner": winner }),
        )
        .await;
        if ended["status"] != "finished" {
            return Err(format!("{lobby} not ended: {ended}"));
        }
    }
    Ok(())
}

async fn run_swiss(base: &str, clients: &[Client]) -> Result<(), String> {
    let [director, visitor] = clients else {
        return Err("two browsers".into());
    };
    phone(director).await;
    phone(visitor).await;

    // From the home page to the form, on a phone.
    goto(director, &format!("{base}/")).await;
    wait_for(director, "#tournaments-link a[href='/tournaments/new']")
        .await
        .click()
        .await
        .unwrap();
    wait_for(director, "#tournament-name")
        .await
        .send_keys("Phone Swiss")
        .await
        .unwrap();
    director
        .find(Locator::Css("#game"))
        .await
        .unwrap()
        .select_by_value("bst")
        .await
        .unwrap();
    director
        .find(Locator::Css("#format"))
        .await
        .unwrap()
        .select_by_value("swiss")
        .await
        .unwrap();
    wait_for(director, "#rounds")
        .await
        .send_keys("2")
        .await
        .unwrap();
    fits_360(director, "the tournament form").await;
    phone(director).await;
    submit_form(director, "#create-tournament").await;
    wait_for(director, "#created-notice").await;
    let url = director.current_url().await.unwrap();
    let id = url
        .path()
        .strip_prefix("/tournaments/")
        .and_then(|rest| rest.strip_suffix("/director"))
        .ok_or(format!("the form led to {url}"))?
        .to_owned();
    let private = wait_for(director, "#private-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    let token = private
        .rsplit_once("/as/")
        .map(|(_, token)| token.to_owned())
        .ok_or(format!("no private link: {private:?}"))?;
    wait_for(director, "#next-round-refusal").await;
    fits_360(director, "the director's panel").await;
    phone(director).await;

    // A visitor opens the public page before anyone has entered, and keeps it open.
    goto(visitor, &format!("{base}/tournaments/{id}")).await;
    wait_for(visitor, "#sign-in-to-enter").await;
    if visitor.source().await.unwrap().contains(&token) {
        return Err("the public page shows the director's token".into());
    }
    mark_page(visitor, FOLLOWING).await;

    for handle in HANDLES {
        let made = call(
            director,
            "POST",
            "/api/v1/profiles",
            "",
            json!({"handle": handle}),
        )
        .await;
        let key = made["key"].as_str().ok_or(format!("{made}"))?.to_owned();
        let entered = call(
            director,
            "POST",
            &format!("/api/v1/tournaments/{id}/entrants"),
            &key,
            json!({}),
        )
        .await;
        if entered["entrants"].as_array().is_none() {
            return Err(format!("{handle} did not enter: {entered}"));
        }
    }
    // Both pages learn of the entries by themselves.
    wait_for_text(visitor, "Dee").await;
    wait_for(director, "#start-round").await;

    for round in 1..=2 {
        submit_form(director, "#start-round").await;
        wait_for_text(director, &format!("Round {round}: its games")).await;
        let links = director
            .find_all(Locator::Css("#current-round a.host-link"))
            .await
            .unwrap();
        if links.len() != 2 {
            return Err(format!("round {round} shows {} host links", links.len()));
        }
        wait_for_text(visitor, &format!("Round {round} of 2")).await;
        end_round(director, &id, &token).await?;
        let results = (2 * round).to_string();
        wait_until(
            visitor,
            &format!("round {round}'s results on the visitor's page"),
            "return String([...document.querySelectorAll('ul.games li')] \
               .filter(li => li.innerText.includes(' won')).length);",
            |n| n == results,
        )
        .await;
    }

    // The visitor's page ends on the final standings, never having reloaded.
    wait_for_text(visitor, "Finished").await;
    wait_for(visitor, "#standings tbody tr").await;
    assert_page_marked(visitor, FOLLOWING).await;
    let rows = visitor
        .execute(
            "return [...document.querySelectorAll('#standings tbody tr')].map(r => r.innerText);",
            vec![],
        )
        .await
        .unwrap();
    let rows: Vec<String> = serde_json::from_value(rows).unwrap();
    if rows.len() != 4 || !rows[0].contains('2') {
        return Err(format!("the final standings read {rows:?}"));
    }
    if visitor
        .find(Locator::Css("#tournament-live[data-stamp]"))
        .await
        .is_ok()
    {
        return Err("a finished tournament is still followed".into());
    }
    fits_360(visitor, "the finished tournament").await;
    phone(visitor).await;

    // The standings post, copied and pasted: every entrant is in it.
    let post = wait_for(visitor, "#tournament-standings-bb")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    if !post.contains("final standings") || HANDLES.iter().any(|h| !post.contains(h)) {
        return Err(format!("the standings post reads {post}"));
    }
    copy_post(
        visitor,
        "tournament-standings-bb",
        &format!("{base}/tournaments/{id}"),
    )
    .await;
    Ok(())
}

/// The plain browser (no script) is the director and an entrant; the other only stands in
/// for the entrants' scripts and the games' ends.
async fn by_forms(base: &str, clients: &[Client]) -> Result<(), String> {
    let [plain, script] = clients else {
        return Err("two browsers".into());
    };
    goto(plain, &format!("{base}/tournaments/new")).await;
    wait_for(plain, "#tournament-name")
        .await
        .send_keys("Plain Swiss")
        .await
        .unwrap();
    plain
        .find(Locator::Css("#game"))
        .await
        .unwrap()
        .select_by_value("bst")
        .await
        .unwrap();
    wait_for(plain, "#rounds")
        .await
        .send_keys("1")
        .await
        .unwrap();
    submit_form(plain, "#create-tournament").await;
    wait_for(plain, "#created-notice").await;
    let url = plain.current_url().await.unwrap();
    let id = url
        .path()
        .strip_prefix("/tournaments/")
        .and_then(|rest| rest.strip_suffix("/director"))
        .ok_or(format!("the form led to {url}"))?
        .to_owned();
    let private = wait_for(plain, "#private-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    let token = private.rsplit_once("/as/").map(|(_, t)| t.to_owned());
    let token = token.ok_or(format!("no private link: {private:?}"))?;

    goto(script, &format!("{base}/")).await;
    let mut keys = Vec::new();
    for handle in ["Eli", "Fay", "Gus"] {
        let made = call(
            script,
            "POST",
            "/api/v1/profiles",
            "",
            json!({"handle": handle}),
        )
        .await;
        keys.push(made["key"].as_str().ok_or(format!("{made}"))?.to_owned());
    }
    for key in &keys[1..] {
        let path = format!("/api/v1/tournaments/{id}/entrants");
        call(script, "POST", &path, key, json!({})).await;
    }

    // Eli signs in on the plain browser and enters by the form.
    // The sign-in link answers with a redirect to `/me`.
    plain
        .goto(&format!("{base}/me/as/{}", keys[0]))
        .await
        .unwrap();
    wait_for_text(plain, "Signed in as").await;
    goto(plain, &format!("{base}/tournaments/{id}")).await;
    if !plain
        .source()
        .await
        .unwrap()
        .contains("http-equiv=\"refresh\"")
    {
        return Err("a followed page without script does not reload itself".into());
    }
    submit_form(plain, "#enter").await;
    wait_for(plain, "#entered").await;

    // The director starts the round from the panel.
    goto(plain, &format!("{base}/tournaments/{id}/director")).await;
    submit_form(plain, "#start-round").await;
    wait_for_text(plain, "Round 1: its games").await;
    end_round(script, &id, &token).await?;
    goto(plain, &format!("{base}/tournaments/{id}")).await;
    wait_for_text(plain, "Finished").await;
    let rows = plain
        .find_all(Locator::Css("#standings tbody tr"))
        .await
        .unwrap();
    if rows.len() != 3 {
        return Err(format!("{} standings rows", rows.len()));
    }
    if plain
        .source()
        .await
        .unwrap()
        .contains("http-equiv=\"refresh\"")
    {
        return Err("a finished tournament's page still reloads itself".into());
    }
    Ok(())
}
