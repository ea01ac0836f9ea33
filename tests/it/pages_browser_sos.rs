//! A whole Scale of Styles duel in real browsers: the host creates it, two players join through
//! the join form (one choosing 2d8), lay their battle plans by tapping cards in order, then play card
//! after card and answer every shift from the forms until the round cap ends the match; the
//! result is on the lobby page and the plan stays on its owner's page alone.

use fantoccini::{Client, Locator};

use crate::pages_browser::{
    browser_available, screenshots, submit_form, wait_for, wait_for_text, with_browsers,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_browsers_play_a_whole_scale_of_styles_duel() {
    if !browser_available() {
        return;
    }
    with_browsers(&["host", "ann", "bob"], play_duel).await;
}

async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Answers whatever the player's page asks; the step answered, or None if nothing is owed.
async fn answer(client: &Client, play: &str) -> Option<String> {
    client.goto(play).await.unwrap();
    wait_for(client, "h1").await;
    client.find(Locator::Css("#order-form")).await.ok()?;
    let step = client
        .find(Locator::Css("input[name=step]"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    match step.as_str() {
        "plan" => {
            // Put three cards on top, in this order: AC 2C 3C.
            for card in ["AC", "2C", "3C"] {
                click(client, &format!("button.pick[value='add:{card}']")).await;
            }
        }
        "play" => {
            let select = client.find(Locator::Css("#f-card")).await.unwrap();
            select.select_by_index(1).await.unwrap();
        }
        "shift" => {
            screenshots(client, "sos-shift").await;
            let select = client.find(Locator::Css("#f-technique")).await.unwrap();
            select.select_by_index(1).await.unwrap();
        }
        other => panic!("unexpected step {other}"),
    }
    submit_form(client, "#order-form button[type=submit]:not([name])").await;
    assert!(
        client.find(Locator::Css("#order-error")).await.is_err(),
        "the {step} answer was refused"
    );
    Some(step)
}

async fn play_duel(base: &str, clients: &[Client]) -> Result<(), String> {
    let [host, ann, bob] = clients else {
        return Err("three browsers".into());
    };
    host.goto(base).await.unwrap();
    let created = host
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/api/v1/lobbies', {method: 'POST', headers: {'content-type': 'application/json'},
               body: JSON.stringify({game: 'scale-of-styles', name: 'A duel', settings: {max_rounds: 4}})})
               .then(r => r.json()).then(done);",
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    let (id, token) = (
        created["id"].as_str().ok_or("no id")?,
        created["host_token"].as_str().ok_or("no token")?,
    );
    host.goto(&format!("{base}/lobbies/{id}/as/{token}"))
        .await
        .unwrap();
    let share = wait_for(host, "#share-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    for (client, name, dice) in [
        (ann, "Ann", None),
        (bob, "Bob", Some("2d8 (a great warrior)")),
    ] {
        client.goto(&share).await.unwrap();
        wait_for(client, "#player-name")
            .await
            .send_keys(name)
            .await
            .unwrap();
        if let Some(label) = dice {
            client
                .find(Locator::Css("#f-combat_dice"))
                .await
                .unwrap()
                .select_by_label(label)
                .await
                .unwrap();
        }
        click(client, "form[action$='/join'] button").await;
        wait_for(client, "#nothing-owed").await;
    }
    host.refresh().await.unwrap();
    wait_for(host, "form[action$='/host/start'] button")
        .await
        .click()
        .await
        .unwrap();
    wait_for_text(host, "Round 1").await;

    let play = format!("{share}/play");
    let mut steps = Vec::new();
    for _ in 0..40 {
        let a = answer(ann, &play).await;
        let b = answer(bob, &play).await;
        if a.is_none() && b.is_none() {
            ann.goto(&format!("{base}/lobbies/{id}")).await.unwrap();
            if ann.find(Locator::Css(".standings")).await.is_ok() {
                break;
            }
        }
        steps.extend(a.into_iter().chain(b));
    }
    for step in ["plan", "play"] {
        assert!(
            steps.iter().any(|s| s == step),
            "no {step} step in {steps:?}"
        );
    }
    ann.goto(&format!("{base}/lobbies/{id}")).await.unwrap();
    wait_for(ann, ".standings").await;
    // The result in words: a winner, or a draw at the round cap (four rounds may end either way).
    wait_for_text(ann, "Result").await;
    let finished = ann
        .find(Locator::Css("body"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        finished.contains("Winner: ") || finished.contains("A draw ("),
        "the result is not said in words: {finished}"
    );
    screenshots(ann, "sos-finished").await;
    // Bob's page never showed Ann's plan: her three cards in a row are hers alone.
    bob.goto(&format!("{base}/lobbies/{id}/rounds/1"))
        .await
        .unwrap();
    wait_for(bob, "h1").await;
    let text = bob
        .find(Locator::Css("body"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!text.contains("AC 2C 3C"), "the plan leaks: {text}");
    Ok(())
}
