//! The pages in a real browser with JavaScript off (docs/web.md): headless
//! Chromium whose own content setting blocks every script of the pages (set-up in
//! `pages_browser.rs`). Each test first proves that the script did not run (the `<noscript>`
//! sentence shows, every copy button stays hidden, the deadline's countdown stays empty, every
//! game's settings show on the create form), then plays only by following links, reloading and
//! submitting forms, one browser session (one cookie jar) per person: a Crossing Swords game
//! from the create form to the final standings, with the waiting lines, a replaced order, the
//! reveals, the posts in readable boxes, the mail form and "My games" carried to another
//! session; and a BST duel through its decision steps, on a server without mail. Every page
//! visited is checked not to scroll sideways at 360 px and 1280 px, and a few are pictured
//! (`*-nojs`). A page with something to fill in never reloads itself (the `<noscript>` refresh
//! would throw away what was typed, or what was shown once).

use fantoccini::{Client, Locator};
use herald::games::GameKind;

use crate::notify_mail::with_smtp;
use crate::pages_browser::{
    answer_decision, browser_available, fits_phone_and_desktop, goto, order, screenshots,
    submit_form, wait_for, wait_for_text, with_browsers_without_script,
};
use crate::pages_bst::opening;

/// The footer's sentence inside `<noscript>`: rendered only where scripts are off.
const NOSCRIPT_NOTE: &str = "With JavaScript off, reload it to see the news.";
const MELEE: &str = "No-script melee";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_crossing_swords_game_is_played_to_the_end_with_javascript_off() {
    if !browser_available() {
        return;
    }
    let (notifications, _inbox) = with_smtp(herald::notify::Settings::default());
    let options = herald::Options {
        notifications,
        ..herald::Options::default()
    };
    with_browsers_without_script(
        &["host", "ann", "bob", "cat", "other"],
        options,
        crossing_swords,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_bst_duel_answers_its_decision_steps_with_javascript_off() {
    if !browser_available() {
        return;
    }
    with_browsers_without_script(&["host", "ann", "bob"], herald::Options::default(), duel).await;
}

async fn click(client: &Client, css: &str) {
    wait_for(client, css).await.click().await.unwrap();
}

/// Follows the link with exactly this text on the open page, as a person clicks it.
async fn follow(client: &Client, text: &str) {
    client
        .find(Locator::LinkText(text))
        .await
        .unwrap_or_else(|e| panic!("no link {text:?}: {e}"))
        .click()
        .await
        .unwrap();
}

async fn text_of(client: &Client, css: &str) -> String {
    wait_for(client, css).await.text().await.unwrap()
}

async fn value_of(client: &Client, css: &str) -> String {
    wait_for(client, css)
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default()
}

/// The script did not run on the open page: it unhides every copy button as it loads (and a
/// button in a folded section would not show either way, so the attribute itself is checked).
/// There must be some, so that the check cannot pass on a page without.
async fn copy_buttons_hidden(client: &Client, what: &str) {
    let buttons = client.find_all(Locator::Css("button.copy")).await.unwrap();
    assert!(!buttons.is_empty(), "{what}: no copy button to check");
    for button in buttons {
        let hidden = button.attr("hidden").await.unwrap().is_some();
        let shown = button.is_displayed().await.unwrap();
        assert!(
            hidden && !shown,
            "{what}: a copy button shows, so a script ran"
        );
    }
}

/// The open page is one that follows its lobby, and shows the `<noscript>` sentence and none of
/// the script's work. The sentence is read as laid out (`innerText`): WebDriver's own element
/// text never counts what is inside a `<noscript>`, shown or not.
async fn script_did_not_run(client: &Client, what: &str) {
    wait_for(client, "#live-note").await;
    let note = client
        .execute(
            "return document.getElementById('live-note').innerText;",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        note.as_str().is_some_and(|n| n.contains(NOSCRIPT_NOTE)),
        "{what}: the <noscript> sentence is not shown, so scripts run: {note}"
    );
    copy_buttons_hidden(client, what).await;
}

/// The deadline's `<time>` says the instant in words, and the countdown beside it, which the
/// script fills in on load, is empty.
async fn countdown_is_empty(client: &Client, what: &str) {
    let deadline = text_of(client, "#deadline time").await;
    assert!(
        deadline.contains("UTC"),
        "{what}: the deadline says {deadline:?}"
    );
    let countdown = text_of(client, "#deadline .countdown").await;
    assert_eq!(
        countdown, "",
        "{what}: the countdown ticks, so a script ran"
    );
}

/// Whether the open page reloads itself: with scripts off, the `<noscript>` refresh in the
/// head is parsed as a real `meta` element (with scripts on it would be text).
async fn reloads_itself(client: &Client) -> bool {
    client
        .find(Locator::Css("meta[http-equiv='refresh']"))
        .await
        .is_ok()
}

/// The waiting line at the top of the open page.
async fn waiting(client: &Client) -> String {
    text_of(client, "#waiting").await
}

/// Opens the folded post (`details.export`) by clicking its summary and checks its two boxes
/// are shown, wide enough to read, and hold `expected` and the link back.
async fn open_post(client: &Client, id: &str, expected: &str, link: &str) {
    click(client, &format!("details.export:has(#{id}-bb) summary")).await;
    for format in ["bb", "md"] {
        let css = format!("#{id}-{format}");
        let textarea = wait_for(client, &css).await;
        assert!(textarea.is_displayed().await.unwrap(), "{css} is folded");
        let (_, _, width, height) = textarea.rectangle().await.unwrap();
        assert!(
            width >= 250.0 && height >= 100.0,
            "{css} is {width}×{height} px"
        );
        let post = value_of(client, &css).await;
        assert!(post.contains(expected), "{css} lacks {expected:?}: {post}");
        assert!(
            post.contains(link),
            "{css} has no link back to {link}: {post}"
        );
    }
}

async fn join(client: &Client, share: &str, name: &str, character: Option<&str>) {
    // The link from the forum thread, typed or pasted into the address bar.
    goto(client, share).await;
    assert!(
        !reloads_itself(client).await,
        "the lobby page under its join form reloads itself (the typed name would be lost)"
    );
    wait_for(client, "#player-name")
        .await
        .send_keys(name)
        .await
        .unwrap();
    if let Some(character) = character {
        wait_for(client, "#f-character")
            .await
            .select_by_label(character)
            .await
            .unwrap();
    }
    click(client, "form[action$='/join'] button[type=submit]").await;
    let owed = text_of(client, "#nothing-owed").await;
    assert!(owed.starts_with("You are in."), "{name}: {owed}");
    wait_for(client, "#keep-link").await;
}

async fn crossing_swords(base: &str, clients: &[Client]) -> Result<(), String> {
    let [host, ann, bob, cat, other] = clients else {
        return Err("five browsers".into());
    };

    // The create form: the script would show only the chosen game's settings; here every
    // game's show, each in its own fieldset.
    goto(host, base).await;
    for game in GameKind::ALL.map(GameKind::id) {
        let fieldset = wait_for(host, &format!("fieldset[data-game='{game}']")).await;
        assert!(
            fieldset.is_displayed().await.unwrap(),
            "the {game} settings are hidden, so a script ran"
        );
    }
    screenshots(host, "create-form-nojs").await;
    wait_for(host, "#game")
        .await
        .select_by_value("crossing-swords")
        .await
        .unwrap();
    for (css, text) in [
        ("#lobby-name", MELEE),
        ("#crossing-swords-max_rounds", "3"),
        ("#deadline-hours", "2"),
    ] {
        wait_for(host, css).await.send_keys(text).await.unwrap();
    }
    wait_for(host, "#crossing-swords-missing_move")
        .await
        .select_by_value("dodge")
        .await
        .unwrap();
    click(host, "form[action='/lobbies'] button[type=submit]").await;

    // The host panel: the script's work is missing, and it never reloads itself (its forms
    // would lose what was typed, the webhook's secret shown once would be gone).
    let share = value_of(host, "#share-link").await;
    assert!(
        share.starts_with(base) && share.contains("/lobbies/"),
        "{share}"
    );
    script_did_not_run(host, "the host panel").await;
    assert!(!reloads_itself(host).await, "the host panel reloads itself");

    for (client, name) in [(ann, "Ann"), (bob, "Bob"), (cat, "Cat")] {
        join(client, &share, name, None).await;
    }
    script_did_not_run(ann, "the player page").await;
    fits_phone_and_desktop(ann, "the player page before the start").await;

    // The mail form, filled in and sent; the address is never shown back. Its page does not
    // reload itself, which would lose a half-typed address.
    assert!(
        !reloads_itself(ann).await,
        "the player page reloads itself under the mail form"
    );
    wait_for(ann, "#mail-email")
        .await
        .send_keys("ann@example.org")
        .await
        .unwrap();
    for value in ["deadline", "over"] {
        click(ann, &format!("#mail-form input[value='{value}']")).await;
    }
    click(ann, "#mail-form button[type=submit]").await;
    wait_for(ann, "#mail-done").await;
    let now = text_of(ann, "#mail-now").await;
    assert!(
        now.starts_with("You get mail for: Your answer is due, A round is resolved."),
        "{now}"
    );
    assert!(!ann.source().await.unwrap().contains("ann@example.org"));

    // The host reloads the panel to see who joined, closes sign-ups, then starts.
    host.refresh().await.unwrap();
    let signups = text_of(host, "ul.seats").await;
    for name in ["Ann", "Bob", "Cat"] {
        assert!(signups.contains(name), "{signups}");
    }
    screenshots(host, "host-panel-nojs").await;
    click(host, "form[action$='/host/close-signups'] button").await;
    wait_for(host, "#start-hint").await;
    click(host, "form[action$='/host/start'] button").await;
    // The round is named with the cap the host chose.
    wait_for_text(host, "Round 1 of 3: orders are due").await;
    countdown_is_empty(host, "the host panel").await;
    fits_phone_and_desktop(host, "the host panel while the game runs").await;

    // Someone following the game from the forum: the lobby page with its settings, the
    // waiting line at the top. With nothing to fill in it does reload itself (so the checks
    // above would see the refresh where there is one).
    goto(other, &share).await;
    let variants = text_of(other, ".variants").await;
    assert!(variants.contains("Dodge"), "{variants}");
    assert_eq!(
        waiting(other).await,
        "Waiting for Ann's, Bob's and Cat's orders."
    );
    countdown_is_empty(other, "the lobby page").await;
    assert!(reloads_itself(other).await, "the lobby page has no refresh");
    fits_phone_and_desktop(other, "the running lobby").await;

    let play = format!("{share}/play");
    goto(ann, &play).await;
    assert_eq!(
        waiting(ann).await,
        "Waiting for your, Bob's and Cat's orders."
    );
    countdown_is_empty(ann, "the player page").await;
    screenshots(ann, "orders-form-nojs").await;
    order(ann, "Strike", "Cat").await;
    let pending = text_of(ann, "#pending").await;
    assert!(
        pending.contains("Strike") && pending.contains("Cat"),
        "{pending}"
    );
    assert_eq!(waiting(ann).await, "Waiting for Bob's and Cat's orders.");
    assert!(
        !reloads_itself(ann).await,
        "the player page reloads itself under its order form (a new choice would be lost)"
    );

    // Bob changes his mind: the same form, opened again, replaces his order.
    goto(bob, &play).await;
    order(bob, "Strike", "Ann").await;
    goto(bob, &play).await;
    let button = text_of(bob, "#order-form button[type=submit]").await;
    assert_eq!(button, "Replace my order");
    order(bob, "Strike", "Cat").await;
    let pending = text_of(bob, "#pending").await;
    assert!(
        pending.contains("Cat") && !pending.contains("Ann"),
        "{pending}"
    );

    // Ann owes nothing now; reloading her page tells her whom she waits for.
    ann.refresh().await.unwrap();
    assert_eq!(waiting(ann).await, "Waiting for Cat's orders.");
    other.refresh().await.unwrap();
    assert_eq!(waiting(other).await, "Waiting for Cat's orders.");

    goto(cat, &play).await;
    order(cat, "Strike", "Ann").await;
    wait_for_text(cat, "What happened in round 1").await;
    assert_eq!(
        waiting(cat).await,
        "Waiting for Ann's, Bob's and your orders."
    );

    // The reveal and the pools, reached by links: the lobby page, then the round's own page.
    goto(ann, &play).await;
    follow(ann, "the lobby page").await;
    wait_for_text(ann, "Round 2 of 3: orders are due").await;
    let reveal = text_of(ann, "details.round[open]").await;
    assert!(
        reveal.contains("Bob") && reveal.contains("Strike"),
        "{reveal}"
    );
    copy_buttons_hidden(ann, "the running lobby").await;
    follow(ann, "Round 1 of 3 in full, with forum export").await;
    wait_for_text(ann, "What happened").await;
    wait_for_text(ann, "Pools after round 1 of 3").await;
    copy_buttons_hidden(ann, "the round page").await;
    open_post(ann, "round", "Cat", &format!("{share}/rounds/1")).await;
    fits_phone_and_desktop(ann, "the round page").await;

    // Rounds 2 and 3 (the last: the host set three). Nobody falls; Bob's Lunge at Cat, who
    // strikes Ann, gives him the most VP.
    let round_2 = [("Strike", "Bob"), ("Strike", "Cat"), ("Strike", "Ann")];
    let round_3 = [("Strike", "Bob"), ("Lunge", "Cat"), ("Strike", "Ann")];
    for orders in [round_2, round_3] {
        for (client, (mv, target)) in [ann, bob, cat].into_iter().zip(orders) {
            goto(client, &play).await;
            order(client, mv, target).await;
        }
    }

    // The game is over: the page says so and links to the result.
    let over = text_of(cat, "#nothing-owed").await;
    assert!(over.starts_with("The game is over"), "{over}");
    click(cat, "#nothing-owed a").await;
    wait_for(cat, ".standings").await;
    let winner = text_of(cat, ".result p").await;
    assert!(winner.starts_with("Winner: Bob"), "{winner}");
    let standings = text_of(cat, ".standings tbody").await;
    for name in ["Ann", "Bob", "Cat"] {
        assert!(standings.contains(name), "{standings}");
    }
    copy_buttons_hidden(cat, "the finished lobby").await;
    screenshots(cat, "lobby-finished-nojs").await;
    open_post(cat, "standings", "Bob", &share).await;

    // The whole game as one post, through its link.
    follow(cat, "The whole game as one forum post").await;
    wait_for_text(cat, "The whole game").await;
    copy_buttons_hidden(cat, "the export page").await;
    open_post(cat, "game", MELEE, &share).await;
    screenshots(cat, "export-nojs").await;

    // My games: the host's list, carried to another session by its link.
    click(host, "a.brand").await;
    let mine = text_of(host, "#my-games").await;
    assert!(mine.contains(MELEE) && mine.contains("you host"), "{mine}");
    fits_phone_and_desktop(host, "home with my games").await;
    click(host, "#carry-button").await;
    let link = value_of(host, "#carry-link").await;
    assert!(link.starts_with(&format!("{base}/my-games/as/")), "{link}");
    copy_buttons_hidden(host, "the carry page").await;
    fits_phone_and_desktop(host, "the carry page").await;
    // The link redirects home (so `goto`, which expects to stay, is not used).
    other.goto(&link).await.unwrap();
    wait_for(other, "#carried-notice").await;
    let carried = text_of(other, "#my-games").await;
    assert!(
        carried.contains(MELEE) && carried.contains("you host"),
        "{carried}"
    );
    Ok(())
}

/// Whether the player's page asks a decision of them now (a form that is not the play step's).
async fn owes_decision(client: &Client, play: &str) -> bool {
    goto(client, play).await;
    wait_for(client, "h1").await;
    client.find(Locator::Css("#order-form")).await.is_ok()
        && client.find(Locator::Css("#f-move")).await.is_err()
}

async fn duel(base: &str, clients: &[Client]) -> Result<(), String> {
    let [host, ann, bob] = clients else {
        return Err("three browsers".into());
    };
    // A known opening, set on the create form under BST's "Advanced" (a native fold).
    goto(host, base).await;
    wait_for(host, "#game")
        .await
        .select_by_value("bst")
        .await
        .unwrap();
    wait_for(host, "#lobby-name")
        .await
        .send_keys("No-script duel")
        .await
        .unwrap();
    click(host, "fieldset[data-game='bst'] details.advanced summary").await;
    let opening = opening();
    wait_for(host, "#bst-seed")
        .await
        .send_keys(&opening["seed"].to_string())
        .await
        .unwrap();
    wait_for(host, "#bst-setup")
        .await
        .send_keys(&opening["setup"].to_string())
        .await
        .unwrap();
    click(host, "form[action='/lobbies'] button[type=submit]").await;
    let share = value_of(host, "#share-link").await;
    script_did_not_run(host, "the BST host panel").await;

    join(ann, &share, "Ann", Some("Sellsword")).await;
    join(bob, &share, "Bob", Some("Sentinel")).await;
    // This server has no mail relay: the page says so, instead of a form.
    let no_mail = text_of(ann, "#mail-off").await;
    assert!(
        no_mail.starts_with("This server does not send mail"),
        "{no_mail}"
    );
    assert!(ann.find(Locator::Css("#mail-form")).await.is_err());

    host.refresh().await.unwrap();
    click(host, "form[action$='/host/start'] button").await;
    wait_for_text(host, "Round 1: plays are due").await;

    let play = format!("{share}/play");
    for (client, mv, token) in [(ann, "guard", "B5"), (bob, "standard-strike", "B4")] {
        goto(client, &play).await;
        wait_for_text(client, "Round 1: Play").await;
        if mv == "guard" {
            // The hand, as chips above the form.
            for token in ["R3", "Y3", "B5", "R6", "Y7"] {
                wait_for(client, &format!("#secrets .chip[title^='{token}:']")).await;
            }
            screenshots(client, "bst-play-nojs").await;
        }
        wait_for(client, "#f-move")
            .await
            .select_by_value(mv)
            .await
            .unwrap();
        wait_for(client, "#f-token")
            .await
            .select_by_value(token)
            .await
            .unwrap();
        submit_form(client, "#order-form button[type=submit]").await;
        wait_for(client, "#pending, #nothing-owed, #orders-h").await;
    }

    // The decision steps, each answered through its form by the player it is left to; the
    // other reads, on reloading, that nothing is owed from him and whose answer is awaited.
    let mut answered = Vec::new();
    let mut idle_seen = 0;
    for _ in 0..12 {
        let owes = [
            owes_decision(ann, &play).await,
            owes_decision(bob, &play).await,
        ];
        if owes == [false, false] {
            break;
        }
        if owes[0] != owes[1] {
            let (idle, deciding) = if owes[0] { (bob, "Ann") } else { (ann, "Bob") };
            goto(idle, &play).await;
            let owed = text_of(idle, "#nothing-owed").await;
            assert!(
                owed.starts_with("Nothing is owed from you right now"),
                "{owed}"
            );
            let line = waiting(idle).await;
            assert!(
                line.starts_with(&format!("Waiting for {deciding}'s ")),
                "{line}"
            );
            assert!(
                reloads_itself(idle).await,
                "a page with nothing to fill in has no refresh"
            );
            fits_phone_and_desktop(idle, "the page of a player who owes nothing").await;
            idle_seen += 1;
        }
        for client in [ann, bob] {
            if let Some(step) = answer_decision(client, &play, "bst-decision-nojs").await {
                answered.push(step);
            }
        }
    }
    assert!(answered.iter().any(|s| s == "gather-power"), "{answered:?}");
    assert!(
        idle_seen > 0,
        "no decision was left to one player only: {answered:?}"
    );
    goto(ann, &play).await;
    wait_for_text(ann, "Round 2: Play").await;
    assert!(
        !reloads_itself(ann).await,
        "the play form's page reloads itself"
    );
    follow(ann, "Round 1 in full").await;
    wait_for_text(ann, "Ann's gather power: tokens").await;
    copy_buttons_hidden(ann, "the BST round page").await;
    fits_phone_and_desktop(ann, "the BST round page").await;
    Ok(())
}
