//! Deadlines in a real browser (see `pages_browser.rs` for the set-up): the countdown ticks in
//! the viewer's browser, a player sets a fallback order through the form on their page and
//! sees it stated, and the host extends, pauses, resumes and resolves now (after ticking the
//! confirmation box) from the panel, each checked by what the pages then show.
//!
//! The in-process server runs on the system clock: the lobby's deadline is an hour away, far
//! beyond the test, so only the host's controls move the game.

use fantoccini::{Client, Locator};
use herald::host::timing::{parse_rfc3339, rfc3339};
use serde_json::{Value, json};

use crate::pages_browser::{
    browser_available, goto, screenshots, submit_form, wait_for, wait_for_text, wait_until,
    with_browsers,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_countdown_the_fallback_form_and_the_clock_controls_work_in_a_browser() {
    if !browser_available() {
        return;
    }
    with_browsers(&["host", "ann", "bob"], clock).await;
}

/// Calls Herald's API from the open page (same origin) and returns (status, body).
async fn api(client: &Client, path: &str, token: Option<&str>, body: Value) -> (u64, Value) {
    let script = "const [path, token, body] = arguments; \
                  const headers = {'content-type': 'application/json'}; \
                  if (token) headers.authorization = 'Bearer ' + token; \
                  return fetch(path, {method: 'POST', headers, body: JSON.stringify(body)}) \
                    .then(r => r.json().then(b => [r.status, b]));";
    let reply = client
        .execute(script, vec![json!(path), json!(token), body])
        .await
        .unwrap_or_else(|e| panic!("POST {path}: {e}"));
    (reply[0].as_u64().unwrap(), reply[1].clone())
}

/// Clicks `css`, which submits a form, and waits until the page its answer sent the browser
/// to shows `expect` (a live update of the old page can never be mistaken for the answer).
async fn submit(client: &Client, css: &str, expect: &str) {
    submit_form(client, css).await;
    wait_for(client, expect).await;
}

/// The countdown's text on the open page.
const COUNTDOWN: &str = "const c = document.querySelector('#deadline .countdown'); \
                         return c ? c.textContent : '';";

/// The deadline's instant (the `datetime` of its `<time>`) on the open page.
const DEADLINE_AT: &str = "const t = document.querySelector('#deadline time'); \
                           return t ? t.getAttribute('datetime') : '';";

async fn read(client: &Client, script: &str) -> String {
    let value = client.execute(script, vec![]).await.unwrap();
    value.as_str().unwrap_or_default().to_owned()
}

async fn clock(base: &str, clients: &[Client]) -> Result<(), String> {
    let [host, ann, bob] = clients else {
        return Err("three browsers".into());
    };
    host.goto(base).await.map_err(|e| e.to_string())?;
    wait_for(host, "h1").await;
    let (status, created) = api(
        host,
        "/api/v1/lobbies",
        None,
        json!({"game": "crossing-swords", "name": "On the clock",
               "settings": {"deadline_seconds": 3600}}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let lobby = created["id"].as_str().unwrap().to_owned();
    let host_token = created["host_token"].as_str().unwrap().to_owned();
    let mut tokens = Vec::new();
    for name in ["Ann", "Bob"] {
        let path = format!("/api/v1/lobbies/{lobby}/players");
        let (status, joined) = api(host, &path, None, json!({"name": name})).await;
        assert_eq!(status, 201, "{joined}");
        tokens.push(joined["player_token"].as_str().unwrap().to_owned());
    }
    let path = format!("/api/v1/lobbies/{lobby}/start");
    let (status, started) = api(host, &path, Some(&host_token), json!({})).await;
    assert_eq!(status, 200, "{started}");

    // Each browser becomes its person through their private link.
    let page = |rest: &str| format!("{base}/lobbies/{lobby}{rest}");
    for (client, token) in [(host, &host_token), (ann, &tokens[0]), (bob, &tokens[1])] {
        client.goto(&page(&format!("/as/{token}"))).await.unwrap();
        wait_for(client, "h1").await;
    }

    // The countdown: in the viewer's own time, ticking (its text changes within seconds).
    goto(ann, &page("/play")).await;
    wait_for(ann, "#deadline time[data-countdown]").await;
    wait_until(ann, "the countdown", COUNTDOWN, |s| s.contains("your time")).await;
    let first = read(ann, COUNTDOWN).await;
    assert!(first.contains(" in 59 min "), "an hour away: {first}");
    wait_until(ann, "the countdown ticking", COUNTDOWN, |s| {
        s.contains("your time") && s != first
    })
    .await;

    // Ann sets a fallback order through the form and sees it stated.
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
    submit(ann, "#fallback-form button[type=submit]", "#fallback-now").await;
    wait_for_text(ann, "Fallback order: Block → Bob").await;
    screenshots(ann, "fallback-and-countdown").await;

    // The host extends the deadline by 30 minutes: the panel shows the new instant.
    let panel = page("/host");
    goto(host, &panel).await;
    let before = read(host, DEADLINE_AT).await;
    let want = rfc3339(parse_rfc3339(&before).expect("an instant") + 30 * 60 * 1000);
    let minutes = wait_for(host, "#extend-minutes").await;
    minutes.clear().await.unwrap();
    minutes.send_keys("30").await.unwrap();
    submit(
        host,
        "form[action$='/host/extend'] button",
        &format!("#deadline time[datetime='{want}']"),
    )
    .await;

    // Pause: the panel offers to resume, and Ann's page (never reloaded) says so live.
    submit(host, "#pause", "#resume").await;
    wait_for_text(host, "The clock is paused").await;
    wait_for_text(ann, "The clock is paused").await;
    screenshots(host, "host-clock-paused").await;

    // Resume: the countdown is back, with the time that was left.
    submit(host, "#resume", "#pause").await;
    wait_until(host, "the countdown after resuming", COUNTDOWN, |s| {
        s.contains("your time") && s.contains(" in 1 h ")
    })
    .await;

    // Resolve now: the browser will not send the form until the box is ticked.
    let valid =
        "return document.getElementById('resolve-now-form').checkValidity() ? 'yes' : 'no';";
    assert_eq!(
        read(host, valid).await,
        "no",
        "unticked, the form is invalid"
    );
    wait_for(host, "#confirm-resolve")
        .await
        .click()
        .await
        .unwrap();
    assert_eq!(read(host, valid).await, "yes");
    submit(host, "#resolve-now", "#clock").await;
    wait_for_text(host, "Round 2").await;
    goto(host, &page("/rounds/1")).await;
    wait_for_text(host, "Ann's fallback order: Block on Bob").await;
    wait_for_text(host, "Bob sent no order: Pass").await;
    screenshots(host, "resolved-by-host").await;
    Ok(())
}
