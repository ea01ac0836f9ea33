//! Profiles in a real browser (see `pages_browser.rs` for the set-up), with JavaScript on and
//! off: browser A creates a lobby (so it holds a my-games key), makes it a profile on `/me`
//! and reads its sign-in link; browser B (its own user-data-dir, so its own cookies) opens the
//! link, is signed in, and sees the profile page with its record; then A creates a lobby
//! that takes only players with a profile, B joins it from its page as the profile (the seat
//! bound), and the profile page lists the game beside the record.

use fantoccini::Client;

use crate::pages_browser::{
    browser_available, goto, wait_for, wait_for_text, with_browsers, with_browsers_without_script,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_profile_made_in_one_browser_signs_in_another_with_javascript_on() {
    if !browser_available() {
        return;
    }
    with_browsers(&["a", "b"], sign_in_elsewhere).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_profile_made_in_one_browser_signs_in_another_with_javascript_off() {
    if !browser_available() {
        return;
    }
    with_browsers_without_script(&["a", "b"], herald::Options::default(), sign_in_elsewhere).await;
}

async fn click(client: &Client, css: &str) {
    wait_for(client, css).await.click().await.unwrap();
}

async fn sign_in_elsewhere(base: &str, clients: &[Client]) -> Result<(), String> {
    let [a, b] = clients else {
        return Err("two browsers".into());
    };
    goto(a, base).await;
    wait_for(a, "#lobby-name")
        .await
        .send_keys("Profiled game")
        .await
        .unwrap();
    click(a, "form[action='/lobbies'] button[type=submit]").await;
    wait_for(a, "#share-link").await;
    goto(a, &format!("{base}/me")).await;
    wait_for(a, "#handle")
        .await
        .send_keys("Browser Ann")
        .await
        .unwrap();
    click(a, "form[action='/me/profile'] button[type=submit]").await;
    let link = wait_for(a, "#sign-in-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    if !link.contains("/me/as/hpk_") {
        return Err(format!("no sign-in link: {link}"));
    }
    wait_for_text(a, "Signed in as").await;
    // The link redirects to /me (the helper `goto` expects no redirect).
    b.goto(&link).await.map_err(|e| e.to_string())?;
    wait_for_text(b, "Signed in as").await;
    click(b, "#signed-in a").await;
    wait_for_text(b, "On time 0 of 0 steps").await;
    wait_for_text(b, "No games yet").await;

    // A gated lobby: only players with a profile.
    goto(a, base).await;
    wait_for(a, "#lobby-name")
        .await
        .send_keys("Gated game")
        .await
        .unwrap();
    click(a, "#profile-required").await;
    click(a, "form[action='/lobbies'] button[type=submit]").await;
    let share = wait_for(a, "#share-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    goto(b, &share).await;
    wait_for_text(b, "You join as").await;
    click(b, "form[action$='/join'] button[type=submit]").await;
    wait_for_text(b, "This seat is bound to your profile").await;
    click(b, "#seat-bound a").await;
    wait_for_text(b, "Gated game").await;
    wait_for_text(b, "On time 0 of 0 steps").await;
    Ok(())
}
