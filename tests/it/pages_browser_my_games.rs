//! My games in a real browser (see `pages_browser.rs` for the set-up): profile A hosts one
//! lobby and plays in another (hosted by profile C), sees both on the home page, asks for the
//! carry link, and profile B (its own user-data-dir, so its own cookies) opens it and sees
//! both too; then B forgets them. At 390 px and 1280 px, with screenshots.

use fantoccini::Client;

use crate::pages_browser::{
    browser_available, goto, screenshots, wait_for, wait_for_text, with_browsers,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn my_games_are_carried_from_one_browser_profile_to_another() {
    if !browser_available() {
        return;
    }
    with_browsers(&["a", "b", "c"], carry).await;
}

async fn click(client: &Client, css: &str) {
    wait_for(client, css).await.click().await.unwrap();
}

/// Creates a Crossing Swords lobby from the home page; returns its share link.
async fn create(client: &Client, base: &str, name: &str) -> String {
    goto(client, base).await;
    wait_for(client, "#lobby-name")
        .await
        .send_keys(name)
        .await
        .unwrap();
    click(client, "form[action='/lobbies'] button[type=submit]").await;
    wait_for(client, "#share-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap()
}

/// The text of the home page's "My games" section ("" when it has none).
async fn my_games(client: &Client) -> String {
    let script = "const e = document.getElementById('my-games'); return e ? e.innerText : '';";
    let got = client.execute(script, vec![]).await.unwrap();
    got.as_str().unwrap_or_default().to_owned()
}

/// At 390 px the home page does not scroll sideways and "My games" starts in the first
/// screenful; then back to 1280 px, where it shows as well.
async fn fits_phone_and_desktop(client: &Client) {
    for (width, height) in [(390, 844), (1280, 900)] {
        client.set_window_size(width, height).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        let script = "window.scrollTo(0, 0); const m = document.getElementById('my-games').getBoundingClientRect(); \
                      return [document.documentElement.scrollWidth, window.innerWidth, m.top, window.innerHeight, m.width];";
        let got = client.execute(script, vec![]).await.unwrap();
        let n = |i: usize| got[i].as_f64().unwrap();
        assert!(
            n(0) <= n(1),
            "the home page scrolls sideways at {width} px: {got}"
        );
        assert!(
            n(2) >= 0.0 && n(2) < n(3),
            "My games is not in the first screenful at {width} px: {got}"
        );
        assert!(n(4) > 0.0, "My games is not shown at {width} px: {got}");
    }
}

async fn carry(base: &str, clients: &[Client]) -> Result<(), String> {
    let [a, b, c] = clients else {
        return Err("three browsers".into());
    };
    create(a, base, "Harbour duel").await;
    let other = create(c, base, "Mountain pass").await;
    goto(a, &other).await;
    wait_for(a, "#player-name")
        .await
        .send_keys("Ann")
        .await
        .unwrap();
    click(a, "form[action$='/join'] button").await;
    wait_for(a, "#keep-link").await;

    goto(a, base).await;
    wait_for(a, "#my-games").await;
    let mine = my_games(a).await;
    assert!(
        mine.contains("Harbour duel") && mine.contains("you host"),
        "{mine}"
    );
    assert!(
        mine.contains("Mountain pass") && mine.contains("you play"),
        "{mine}"
    );
    fits_phone_and_desktop(a).await;
    screenshots(a, "my-games").await;
    // The key's cookie is HttpOnly: the page's script cannot read it.
    let cookies = a.execute("return document.cookie;", vec![]).await.unwrap();
    assert!(!cookies.to_string().contains("herald_me"), "{cookies}");
    // Profile C sees only its own game; profile B none.
    goto(c, base).await;
    wait_for_text(c, "Host a new game").await;
    let cleo = my_games(c).await;
    assert!(
        cleo.contains("Mountain pass") && !cleo.contains("Harbour duel"),
        "{cleo}"
    );
    goto(b, base).await;
    wait_for_text(b, "Host a new game").await;
    assert_eq!(my_games(b).await, "", "profile B has no games yet");

    click(a, "#carry-button").await;
    let link = wait_for(a, "#carry-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert!(link.starts_with(&format!("{base}/my-games/as/")), "{link}");
    screenshots(a, "carry-link").await;

    // The link redirects home (so `goto`, which expects to stay, is not used).
    b.goto(&link).await.unwrap();
    wait_for(b, "#carried-notice").await;
    let carried = my_games(b).await;
    assert!(
        carried.contains("Harbour duel") && carried.contains("Mountain pass"),
        "{carried}"
    );
    fits_phone_and_desktop(b).await;
    screenshots(b, "my-games-carried").await;
    // The link is not left in the address bar.
    let url = b.current_url().await.unwrap();
    assert!(!url.as_str().contains("/my-games/as/"), "{url}");

    click(b, "#forget-button").await;
    wait_for_text(b, "Host a new game").await;
    assert_eq!(my_games(b).await, "", "forgotten on B");
    goto(a, base).await;
    wait_for(a, "#my-games").await;
    assert!(
        my_games(a).await.contains("Harbour duel"),
        "A keeps its games"
    );
    Ok(())
}
