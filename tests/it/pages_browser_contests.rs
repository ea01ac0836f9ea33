//! A whole Contests duel in real browsers on a phone (390 px wide): the host creates it, two
//! players join through the join form (one choosing a ready build), then answer every step
//! from the forms (wishes, declarations, dice and guesses, face-down cards, tie-breaks,
//! discards) until the duel ends; every page fits the phone without sideways scrolling, the
//! result is on the lobby page, and one player's hand never shows on the other's play page
//! (checked before every turn). Run with scripts on and off.

use fantoccini::{Client, Locator};

use crate::pages_browser::{
    browser_available, screenshots, submit_form, wait_for, wait_for_text, with_browsers,
    with_browsers_without_script,
};

const PHONE: (u32, u32) = (390, 844);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_phones_play_a_whole_contests_duel() {
    if !browser_available() {
        return;
    }
    with_browsers(&["host", "ann", "bob"], play_duel).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_phones_without_javascript_play_a_whole_contests_duel() {
    if !browser_available() {
        return;
    }
    with_browsers_without_script(
        &["host", "ann", "bob"],
        herald::Options::default(),
        play_duel,
    )
    .await;
}

/// The open page is no wider than the phone.
async fn fits(client: &Client, what: &str) {
    let widths = client
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        widths[0].as_f64() <= widths[1].as_f64(),
        "{what} scrolls sideways on a phone: {widths}"
    );
}

async fn text(client: &Client) -> String {
    client
        .find(Locator::Css("body"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// The cards the player's page shows him as his hand, in the "Only you can see this" section,
/// as the page writes them.
async fn hand_shown(client: &Client) -> Vec<String> {
    let headings = client.find_all(Locator::Css("#secrets dt")).await.unwrap();
    let values = client.find_all(Locator::Css("#secrets dd")).await.unwrap();
    for (heading, value) in headings.iter().zip(&values) {
        if heading
            .text()
            .await
            .unwrap()
            .to_lowercase()
            .ends_with("hand")
        {
            let cards = value.text().await.unwrap();
            return match cards.as_str() {
                "" | "—" => Vec::new(),
                cards => cards.split(", ").map(str::to_owned).collect(),
            };
        }
    }
    Vec::new()
}

/// Neither hand shows on the other player's page (rulings §3.8: the hand is private to its
/// owner). A card of one hand that the other player does not hold himself and that the public
/// lobby page does not show (it was never played, or the other's copy was not) must be nowhere
/// on the other's play page. The number of cards so checked.
async fn hands_kept_apart(
    players: [&Client; 2],
    public: &Client,
    play: &str,
    share: &str,
) -> usize {
    public.goto(share).await.unwrap();
    wait_for(public, "h1").await;
    let public_text = text(public).await;
    let mut hands = Vec::new();
    let mut pages = Vec::new();
    for client in players {
        client.goto(play).await.unwrap();
        wait_for(client, "h1").await;
        hands.push(hand_shown(client).await);
        pages.push(text(client).await);
    }
    let mut checked = 0;
    for (mine, theirs) in [(0, 1), (1, 0)] {
        for card in &hands[mine] {
            if hands[theirs].contains(card) || public_text.contains(card.as_str()) {
                continue;
            }
            assert!(
                !pages[theirs].contains(card.as_str()),
                "{card}, in one player's hand, shows on the other's page: {}",
                pages[theirs]
            );
            checked += 1;
        }
    }
    checked
}

/// Answers whatever the player's page asks; the step answered, or None if nothing is owed.
async fn answer(client: &Client, play: &str, turn: usize) -> Option<String> {
    client.goto(play).await.unwrap();
    wait_for(client, "h1").await;
    client.find(Locator::Css("#order-form")).await.ok()?;
    fits(client, "the play page").await;
    let step = client
        .find(Locator::Css("#order-form input[name=step]"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    let send = "#order-form button[type=submit]:not([name])";
    let decline = "#order-form button[name=decline]";
    let pick = |css: &'static str, index: usize| async move {
        let select = client.find(Locator::Css(css)).await.unwrap();
        select.select_by_index(index).await.unwrap();
    };
    let tick = |n: usize| async move {
        let boxes = client
            .find_all(Locator::Css("#order-form input[type=checkbox]"))
            .await
            .unwrap();
        for b in boxes.iter().take(n) {
            b.click().await.unwrap();
        }
    };
    let button = match step.as_str() {
        "opening" | "declare" | "face-up" => decline,
        "next" => send,
        "set" => {
            // Index 0 is "Choose…": dice 4, 5, 6 in turn, one guess, now and then a card
            // face down, and no face-up step.
            pick("#f-die", 4 + turn % 3).await;
            tick(1).await;
            if turn.is_multiple_of(4) {
                pick("#f-down", 2).await;
            }
            client
                .find(Locator::Css("#f-face_up"))
                .await
                .unwrap()
                .select_by_value("false")
                .await
                .unwrap();
            if turn == 0 {
                screenshots(client, "contests-set").await;
                client.set_window_size(PHONE.0, PHONE.1).await.unwrap();
            }
            send
        }
        "tie" => {
            pick("#f-die", 1 + turn % 6).await;
            tick(1).await;
            send
        }
        "discard" => {
            tick(2).await;
            send
        }
        other => panic!("unexpected step {other}"),
    };
    submit_form(client, button).await;
    assert!(
        client.find(Locator::Css("#order-error")).await.is_err(),
        "the {step} answer was refused: {}",
        text(client).await
    );
    Some(step)
}

async fn play_duel(base: &str, clients: &[Client]) -> Result<(), String> {
    let [host, ann, bob] = clients else {
        return Err("three browsers".into());
    };
    for client in clients {
        client.set_window_size(PHONE.0, PHONE.1).await.unwrap();
    }
    // The host creates the duel on the create form: Contests and a phase cap.
    host.goto(base).await.unwrap();
    wait_for(host, "#game")
        .await
        .select_by_value("contests")
        .await
        .unwrap();
    wait_for(host, "#lobby-name")
        .await
        .send_keys("A duel of contests")
        .await
        .unwrap();
    host.find(Locator::Css("#contests-max_phases"))
        .await
        .map_err(|e| format!("no phase cap field: {e}"))?
        .send_keys("6")
        .await
        .unwrap();
    fits(host, "the create form").await;
    submit_form(host, "form[action='/lobbies'] button[type=submit]").await;
    let share = wait_for(host, "#share-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    for (client, name, build) in [(ann, "Ann", Some(1)), (bob, "Bob", None)] {
        client.goto(&share).await.unwrap();
        wait_for(client, "#player-name")
            .await
            .send_keys(name)
            .await
            .unwrap();
        if let Some(index) = build {
            // Index 0 is "Choose…", 1 the default build, 2 the Brute.
            client
                .find(Locator::Css("#f-build"))
                .await
                .unwrap()
                .select_by_index(index + 1)
                .await
                .unwrap();
        }
        fits(client, "the join form").await;
        submit_form(client, "form[action$='/join'] button").await;
        wait_for(client, "#nothing-owed").await;
    }
    host.refresh().await.unwrap();
    submit_form(host, "form[action$='/host/start'] button").await;
    wait_for_text(host, "Round 1").await;
    fits(host, "the host panel").await;

    let play = format!("{share}/play");
    let mut steps = Vec::new();
    let mut kept = 0;
    for turn in 0..200 {
        kept += hands_kept_apart([ann, bob], host, &play, &share).await;
        let a = answer(ann, &play, turn).await;
        let b = answer(bob, &play, turn + 1).await;
        if a.is_none() && b.is_none() {
            ann.goto(&share).await.unwrap();
            if ann.find(Locator::Css(".standings")).await.is_ok() {
                break;
            }
        }
        steps.extend(a.into_iter().chain(b));
    }
    for step in ["next", "set"] {
        assert!(
            steps.iter().any(|s| s == step),
            "no {step} step in {steps:?}"
        );
    }
    assert!(
        kept >= 5,
        "{kept} cards of a hand were looked for on the other's page"
    );
    ann.goto(&share).await.unwrap();
    wait_for(ann, ".standings").await;
    fits(ann, "the finished lobby").await;
    screenshots(ann, "contests-finished").await;
    ann.goto(&format!("{base}/rules/contests")).await.unwrap();
    wait_for(ann, "#K1").await;
    ann.set_window_size(PHONE.0, PHONE.1).await.unwrap();
    fits(ann, "the rules page").await;
    Ok(())
}
