//! The pages in a real browser: headless Chromium driven over WebDriver (chromedriver) by
//! fantoccini, against the real server on a free port. Three players, each in their own
//! browser session (their own cookie jar), and a host play a Crossing Swords game to the final
//! standings with nothing but clicks and typing; live updates are checked on a page nobody
//! reloads; screenshots at phone and desktop widths are saved under `target/screenshots/` and
//! checked to be real pictures. The same helpers run browsers with the pages' script off
//! (`Script::Off`, for `pages_browser_nojs.rs`).
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (`.ci/install-browser`; other paths
//! in `HERALD_CHROMIUM` / `HERALD_CHROMEDRIVER`). Without them
//! the test says loudly that it skipped, except under `CI=true`, where it fails.

use std::io::Write;
use std::net::TcpListener as StdListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use tokio::sync::oneshot;

use crate::pages_client::HOSTILE;

/// Where the browser and its driver are (Debian's paths unless these variables say otherwise).
const CHROMIUM_ENV: &str = "HERALD_CHROMIUM";
const CHROMEDRIVER_ENV: &str = "HERALD_CHROMEDRIVER";

fn chromium() -> String {
    std::env::var(CHROMIUM_ENV).unwrap_or_else(|_| "/usr/bin/chromium".into())
}

fn chromedriver() -> String {
    std::env::var(CHROMEDRIVER_ENV).unwrap_or_else(|_| "/usr/bin/chromedriver".into())
}
const PHONE: (u32, u32) = (360, 780);
const DESKTOP: (u32, u32) = (1280, 900);
/// The widths every pictured page is checked at, with the label of its screenshot.
const SIZES: [(&str, (u32, u32)); 2] = [("phone", PHONE), ("desktop", DESKTOP)];

/// Whether the browser runs the pages' script: every page must also work without it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Script {
    On,
    Off,
}

/// chromedriver, ended when the test ends (also on panic).
pub(crate) struct Driver {
    child: Child,
    pub(crate) port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Whether the browser is installed; if not, skip loudly (or fail under CI).
pub(crate) fn browser_available() -> bool {
    let (browser, driver) = (chromium(), chromedriver());
    if Path::new(&browser).exists() && Path::new(&driver).exists() {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true but {browser} or {driver} is missing: run .ci/install-browser");
    }
    let _ = writeln!(
        std::io::stderr(),
        "NOTE: {browser} or {driver} is missing: the browser tests are SKIPPED \
         (install them with .ci/install-browser, or set {CHROMIUM_ENV} and {CHROMEDRIVER_ENV})."
    );
    false
}

/// Whether the server on `port` is a ready chromedriver (another test's server may have taken
/// the port between `free_port` and chromedriver binding it).
async fn is_chromedriver(port: u16) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Ok(mut stream) = tokio::net::TcpStream::connect(("127.0.0.1", port)).await else {
        return false;
    };
    let request =
        format!("GET /status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).await.is_err() {
        return false;
    }
    // chromedriver may keep the connection open: read until the answer says enough.
    let mut reply = Vec::new();
    let mut chunk = [0u8; 1024];
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        match tokio::time::timeout(Duration::from_secs(1), stream.read(&mut chunk)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => reply.extend_from_slice(&chunk[..n]),
            Err(_) => {}
        }
        let text = String::from_utf8_lossy(&reply);
        if text.contains("\"ready\":true") {
            return true;
        }
    }
    false
}

pub(crate) async fn start_driver() -> Driver {
    for _attempt in 0..3 {
        let port = free_port();
        let child = Command::new(chromedriver())
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let mut driver = Driver { child, port };
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if is_chromedriver(port).await {
                return driver;
            }
            if matches!(driver.child.try_wait(), Ok(Some(_))) {
                break; // it exited: the port was taken; try another
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    panic!("chromedriver did not start");
}

/// A fresh browser session: its own profile directory, so its own cookies.
pub(crate) async fn browser(driver: &Driver, profile: &Path, script: Script) -> Client {
    let mut options = json!({
        "binary": chromium(),
        "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run",
            "--disable-dev-shm-usage", "--hide-scrollbars",
            format!("--user-data-dir={}", profile.display()),
            format!("--window-size={},{}", DESKTOP.0, DESKTOP.1),
        ]
    });
    if script == Script::Off {
        // The content setting behind Chromium's "Don't allow sites to use JavaScript": no
        // script of the page runs and `<noscript>` renders, as for a person who turned it off,
        // while chromedriver's own commands (run through DevTools) still work.
        options["prefs"] = json!({"profile.managed_default_content_settings.javascript": 2});
    }
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), options);
    ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a chromedriver session")
}

pub(crate) async fn wait_for(client: &Client, css: &str) -> fantoccini::elements::Element {
    match client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css(css))
        .await
    {
        Ok(element) => element,
        Err(e) => {
            let url = client.current_url().await.map(|u| u.to_string());
            let source = client.source().await.unwrap_or_default();
            panic!("no {css} on {url:?}: {e}\n{source}")
        }
    }
}

/// Waits until the page's text contains `text` (without navigating: live updates).
pub(crate) async fn wait_for_text(client: &Client, text: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        // The page reloads itself on live updates: mid-reload it has no body yet, which is
        // no failure (the deadline below is).
        let body = match client.find(Locator::Css("body")).await {
            Ok(body) => body.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        if body.contains(text) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the page never showed {text:?}; it shows:\n{body}"
        );
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// Waits until the players table on the open page marks `name` as submitted (live update).
async fn wait_for_submitted(client: &Client, name: &str) {
    let script = "for (const row of document.querySelectorAll('table.pools tbody tr')) { \
                    if (row.querySelector('th').firstChild.textContent.trim() === arguments[0]) \
                      return row.lastElementChild.textContent; } return '';";
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let cell = client.execute(script, vec![json!(name)]).await.unwrap();
        if cell.as_str().is_some_and(|c| c.contains("submitted")) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{name} never showed as submitted: {cell}"
        );
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// Navigates and checks that the browser landed where it was sent: a page's live update must
/// never replace a navigation the person started.
pub(crate) async fn goto(client: &Client, url: &str) {
    client.goto(url).await.unwrap();
    let landed = client.current_url().await.unwrap();
    let wanted = landed.join(url).unwrap();
    assert_eq!(
        (landed.path(), landed.query()),
        (wanted.path(), wanted.query()),
        "sent to {url}, the browser shows {landed}"
    );
}

/// Leaves a mark in the open page's script state, which any load of a document erases.
pub(crate) async fn mark_page(client: &Client, mark: u32) {
    client
        .execute("window.heraldTestMark = arguments[0];", vec![json!(mark)])
        .await
        .unwrap();
}

/// The mark [`submit_form`] leaves on the page whose form it sends.
const SUBMITTING: u32 = 0x5e4d;

/// Clicks `css`, which submits a form, and waits until the browser has loaded the document
/// the form's answer sent it to. chromedriver's click can return before the browser has sent
/// the form, and the old page's elements (its `h1`, its pools table) would pass for the
/// answer's: the test would go on while the order is still on its way, and the next page it
/// loads would be a step behind (then the next answer is sent for a step that has moved on,
/// and refused). Only a new document erases the old one's mark; a live update swaps content
/// in place and keeps it.
pub(crate) async fn submit_form(client: &Client, css: &str) {
    mark_page(client, SUBMITTING).await;
    wait_for(client, css).await.click().await.unwrap();
    // Mid-navigation the script may find no document to run in: not loaded yet.
    wait_until(
        client,
        &format!("after {css}, the form's answer"),
        "return (window.heraldTestMark === undefined && document.readyState === 'complete') \
           ? 'loaded' : '';",
        |s| s == "loaded",
    )
    .await;
}

/// Runs `script` on the open page until it returns a string that `done` accepts (bounded).
pub(crate) async fn wait_until(
    client: &Client,
    what: &str,
    script: &str,
    done: impl Fn(&str) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let got = client.execute(script, vec![]).await.ok();
        let text = got.as_ref().and_then(Value::as_str).unwrap_or_default();
        if done(text) {
            return;
        }
        assert!(Instant::now() < deadline, "{what}: the page shows {text:?}");
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// The page still holds its mark: it updated in place, and never navigated by itself.
pub(crate) async fn assert_page_marked(client: &Client, mark: u32) {
    let held = client
        .execute(
            "return window.heraldTestMark === undefined ? null : window.heraldTestMark;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        held,
        json!(mark),
        "the page loaded itself again instead of updating in place"
    );
}

fn screenshot_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    dir
}

/// Sets the window to `size` and checks that the page does not scroll sideways there.
async fn fits_at(client: &Client, name: &str, label: &str, (width, height): (u32, u32)) {
    client.set_window_size(width, height).await.expect("resize");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let widths = client
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await
        .expect("widths");
    assert!(
        widths[0].as_f64() <= widths[1].as_f64(),
        "{name}-{label} scrolls sideways: {widths}"
    );
}

/// Checks that the page does not scroll sideways at phone and desktop widths, without a
/// picture; the window is left at desktop width.
pub(crate) async fn fits_phone_and_desktop(client: &Client, name: &str) {
    for (label, size) in SIZES {
        fits_at(client, name, label, size).await;
    }
    client
        .set_window_size(DESKTOP.0, DESKTOP.1)
        .await
        .expect("resize");
}

/// Saves the page at phone and desktop widths and checks each picture is not blank, and that
/// the page does not scroll sideways at either width (so every page a test pictures is also
/// checked on a 360 px phone).
pub(crate) async fn screenshots(client: &Client, name: &str) {
    pictures(client, None, name).await;
}

/// [`screenshots`] of the part of the page at `css`, scrolled to the top of the window at each
/// width: a section far down a phone's page is what its picture shows.
pub(crate) async fn screenshots_of(client: &Client, css: &str, name: &str) {
    pictures(client, Some(css), name).await;
}

async fn pictures(client: &Client, at: Option<&str>, name: &str) {
    for (label, size) in SIZES {
        fits_at(client, name, label, size).await;
        if let Some(css) = at {
            client
                .execute(
                    "document.querySelector(arguments[0]).scrollIntoView();",
                    vec![json!(css)],
                )
                .await
                .unwrap_or_else(|e| panic!("{name}: no {css} to picture: {e}"));
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let png = client.screenshot().await.expect("screenshot");
        check_picture(&png, size.0, &format!("{name}-{label}"));
        std::fs::write(screenshot_dir().join(format!("{name}-{label}.png")), &png).expect("save");
    }
    client
        .set_window_size(DESKTOP.0, DESKTOP.1)
        .await
        .expect("resize");
}

/// A real picture: decodes, has about the asked width, and is not one flat colour.
fn check_picture(png_bytes: &[u8], width: u32, name: &str) {
    assert!(
        png_bytes.len() > 2_000,
        "{name}: only {} bytes",
        png_bytes.len()
    );
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    assert!(
        info.width.abs_diff(width) <= width / 10,
        "{name}: {} px wide, asked for {width}",
        info.width
    );
    let channels = info.color_type.samples();
    let mut colours = std::collections::HashMap::<&[u8], usize>::new();
    for pixel in pixels[..info.buffer_size()].chunks(channels) {
        *colours.entry(pixel).or_default() += 1;
    }
    let total = (info.width * info.height) as usize;
    let commonest = colours.values().copied().max().unwrap_or(0);
    assert!(
        colours.len() >= 16,
        "{name}: only {} colours",
        colours.len()
    );
    assert!(
        commonest * 100 < total * 98,
        "{name}: nearly a single colour"
    );
}

/// Sends an order from a player's page by choosing visible labels.
pub(crate) async fn order(client: &Client, mv: &str, target: &str) {
    let form = wait_for(client, "#order-form").await;
    form.find(Locator::Css("#f-move"))
        .await
        .unwrap()
        .select_by_label(mv)
        .await
        .unwrap_or_else(|e| panic!("move {mv}: {e}"));
    form.find(Locator::Css("#f-target"))
        .await
        .unwrap()
        .select_by_label(target)
        .await
        .unwrap_or_else(|e| panic!("target {target}: {e}"));
    form.find(Locator::Css("button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    // Accepted orders come back as a 303 to `?sent=1`; a refused one stays on the form.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !client
        .current_url()
        .await
        .is_ok_and(|u| u.query() == Some("sent=1"))
    {
        if Instant::now() > deadline {
            let url = client.current_url().await.map(|u| u.to_string());
            let source = client.source().await.unwrap_or_default();
            panic!("the order {mv} → {target} was not accepted; at {url:?}:\n{source}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    wait_for(client, "h1").await;
    assert!(
        client.find(Locator::Css("#order-error")).await.is_err(),
        "the order was refused"
    );
}

async fn serve(dir: &Path, options: herald::Options) -> (String, oneshot::Sender<()>) {
    let url = format!("sqlite://{}?mode=rwc", dir.join("herald.db").display());
    let store = herald::store::Store::connect(&url).await.expect("store");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(herald::serve_with(
        listener,
        herald::host::Host::new(store),
        options,
        async move {
            let _ = stopped.await;
        },
    ));
    (base, stop)
}

/// Runs `game` against a fresh server with one browser session per name, then closes them.
pub(crate) async fn with_browsers<F>(who: &[&str], game: F)
where
    F: AsyncFnOnce(&str, &[Client]) -> Result<(), String>,
{
    with_browsers_serving(who, herald::Options::default(), game).await;
}

/// [`with_browsers`] against a server with these options (mail on, for example).
pub(crate) async fn with_browsers_serving<F>(who: &[&str], options: herald::Options, game: F)
where
    F: AsyncFnOnce(&str, &[Client]) -> Result<(), String>,
{
    with_browsers_in(who, options, Script::On, game).await;
}

/// [`with_browsers_serving`] in browsers that run no script of the pages.
pub(crate) async fn with_browsers_without_script<F>(who: &[&str], options: herald::Options, game: F)
where
    F: AsyncFnOnce(&str, &[Client]) -> Result<(), String>,
{
    with_browsers_in(who, options, Script::Off, game).await;
}

async fn with_browsers_in<F>(who: &[&str], options: herald::Options, script: Script, game: F)
where
    F: AsyncFnOnce(&str, &[Client]) -> Result<(), String>,
{
    let each: Vec<(&str, Script)> = who.iter().map(|name| (*name, script)).collect();
    with_browsers_each(&each, options, game).await;
}

/// [`with_browsers_serving`], each browser running the pages' script or not as `who` says.
pub(crate) async fn with_browsers_each<F>(who: &[(&str, Script)], options: herald::Options, game: F)
where
    F: AsyncFnOnce(&str, &[Client]) -> Result<(), String>,
{
    let dir = tempfile::tempdir().unwrap();
    let (base, stop) = serve(dir.path(), options).await;
    let driver = start_driver().await;
    let mut clients = Vec::new();
    for (name, script) in who {
        let profile = dir.path().join(format!("profile-{name}"));
        clients.push(browser(&driver, &profile, *script).await);
    }
    // A hung browser must fail the test, not the CI run. A whole Contests duel on two phones
    // takes about 2.5 minutes alone on two cores and over 5 beside the rest of the suite, so
    // the bound is twice that, still far below the CI run's own.
    let result = tokio::time::timeout(Duration::from_secs(600), game(&base, &clients))
        .await
        .unwrap_or_else(|_| Err("the browser game took more than 10 minutes".into()));
    for client in clients {
        let _ = client.close().await;
    }
    let _ = stop.send(());
    drop(driver);
    result.unwrap_or_else(|e| panic!("{e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_browsers_play_crossing_swords_to_the_end_with_live_updates() {
    if !browser_available() {
        return;
    }
    with_browsers(&["host", "ann", "bob", "cat"], play).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_browsers_play_a_bst_opening_through_a_decision_step() {
    if !browser_available() {
        return;
    }
    with_browsers(&["host", "ann", "bob"], play_bst).await;
}

async fn play(base: &str, clients: &[Client]) -> Result<(), String> {
    let [host, ann, bob, cat] = clients else {
        return Err("four browsers".into());
    };

    // The host creates the lobby from the home page.
    host.goto(base).await.map_err(|e| e.to_string())?;
    screenshots(host, "home").await;
    wait_for(host, "#lobby-name")
        .await
        .send_keys("Browser melee")
        .await
        .unwrap();
    host.find(Locator::Css("form[action='/lobbies'] button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let share = wait_for(host, "#share-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert!(
        share.starts_with(base) && share.contains("/lobbies/"),
        "{share}"
    );

    // Three players join from the shared link, each in their own browser.
    for (client, name) in [(ann, "Ann"), (bob, "Bob"), (cat, HOSTILE)] {
        client.goto(&share).await.unwrap();
        wait_for(client, "#player-name")
            .await
            .send_keys(name)
            .await
            .unwrap();
        client
            .find(Locator::Css("form[action$='/join'] button"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_for(client, "#nothing-owed").await;
        let heading = client
            .find(Locator::Css("h1"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            heading.starts_with(name) && heading.contains("your page in"),
            "the name is shown as text, not markup: {heading}"
        );
    }
    assert!(
        cat.get_alert_text().await.is_err(),
        "no script ran from a name"
    );

    // The host panel follows the joins live; the host starts.
    host.refresh().await.unwrap();
    wait_for_text(host, HOSTILE).await;
    screenshots(host, "host-panel").await;
    host.find(Locator::Css("form[action$='/host/start'] button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(host, "Round 1: orders are due").await;

    // Ann's page was open before the start: the order form appears on it by itself.
    wait_for(ann, "#order-form").await;
    goto(ann, &format!("{share}/play")).await;
    screenshots(ann, "orders-form").await;

    // Ann and Bob strike Cat, Cat strikes Ann, for four rounds: Cat falls.
    for round in 1..=4 {
        for (client, target) in [(ann, HOSTILE), (bob, HOSTILE)] {
            goto(client, &format!("{share}/play")).await;
            order(client, "Strike", target).await;
        }
        if round == 1 {
            // Bob's submission shows up on Ann's open page without a reload.
            wait_for_submitted(ann, "Bob").await;
            goto(host, &share).await;
            screenshots(host, "lobby-running").await;
        }
        mark_page(ann, round).await;
        goto(cat, &format!("{share}/play")).await;
        order(cat, "Strike", "Ann").await;
        // Bob's page (left open) is due a live update from this resolution as he leaves it:
        // where he goes is where he lands (the live-update race of docs/web.md).
        goto(bob, &share).await;
        // Ann's page (left open) shows the resolution in place, without loading itself again.
        wait_for_text(ann, &format!("What happened in round {round}")).await;
        assert_page_marked(ann, round).await;
    }
    for _ in 5..=7 {
        goto(ann, &format!("{share}/play")).await;
        order(ann, "Strike", "Bob").await;
        goto(bob, &format!("{share}/play")).await;
        order(bob, "Strike", "Ann").await;
    }

    // The final standings, on everyone's lobby page.
    for client in [host, ann, bob, cat] {
        goto(client, &share).await;
        wait_for_text(client, "Winner: Bob").await;
    }
    let rows = host
        .find_all(Locator::Css(".standings tbody tr"))
        .await
        .unwrap();
    let mut names = Vec::new();
    for row in rows {
        let cells = row.find_all(Locator::Css("td")).await.unwrap();
        names.push(cells[1].text().await.unwrap());
    }
    assert_eq!(names, vec!["Bob", "Ann", HOSTILE], "standings, best first");
    // The standings as a forum post: the winner, the places, a link back to the game.
    let post = host
        .find(Locator::Css("#standings-md"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(post.contains("Bob"), "{post}");
    assert!(post.contains(&format!("]({share})")), "{post}");
    screenshots(host, "lobby-finished").await;

    // A round page with its forum export; the copy button appears with JS on.
    host.goto(&format!("{share}/rounds/4")).await.unwrap();
    wait_for_text(host, "What happened").await;
    host.find(Locator::Css("details.export summary"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let bbcode = host
        .find(Locator::Css("#round-bb"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert!(bbcode.contains("［b］x［/b］"), "{bbcode}");
    let copy: Value = host
        .execute(
            "return document.querySelector('button.copy').hidden",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(copy, json!(false));
    screenshots(host, "round").await;
    Ok(())
}

/// Answers the decision form on the player's page, if there is one, by clicking: the pair for
/// Gather Power, otherwise No/Decline where offered, else the first choice(s). The Gather Power
/// form is pictured under `picture`.
pub(crate) async fn answer_decision(client: &Client, play: &str, picture: &str) -> Option<String> {
    client.goto(play).await.unwrap();
    wait_for(client, "h1").await;
    if client.find(Locator::Css("#order-form")).await.is_err()
        || client.find(Locator::Css("#f-move")).await.is_ok()
    {
        return None;
    }
    let step = client
        .find(Locator::Css("input[name=step]"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    if step == "gather-power" {
        screenshots(client, picture).await;
        let pair = client.find(Locator::Css("#f-tokens")).await.unwrap();
        pair.select_by_index(1).await.unwrap();
        submit_form(client, "#order-form button[type=submit]:not([name])").await;
    } else if client
        .find(Locator::Css("button[name=decline]"))
        .await
        .is_ok()
    {
        submit_form(client, "button[name=decline]").await;
    } else if let Ok(token) = client.find(Locator::Css("#f-token")).await {
        token.select_by_index(1).await.unwrap();
        submit_form(client, "#order-form button[type=submit]:not([name])").await;
    } else if client
        .find(Locator::Css("input[type=checkbox]"))
        .await
        .is_ok()
    {
        let hint = client
            .find(Locator::Css("legend .muted"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let need: usize = hint
            .split(|c: char| !c.is_ascii_digit())
            .find(|n| !n.is_empty())
            .and_then(|n| n.parse().ok())
            .unwrap_or(1);
        for box_ in client
            .find_all(Locator::Css("input[type=checkbox]"))
            .await
            .unwrap()
            .iter()
            .take(need)
        {
            box_.click().await.unwrap();
        }
        submit_form(client, "#order-form button[type=submit]:not([name])").await;
    } else {
        submit_form(client, "button[name=accept]").await;
    }
    assert!(
        client.find(Locator::Css("#order-error")).await.is_err(),
        "the {step} answer was refused"
    );
    Some(step)
}

async fn play_bst(base: &str, clients: &[Client]) -> Result<(), String> {
    let [host, ann, bob] = clients else {
        return Err("three browsers".into());
    };
    // The host sets up a known opening through the API (a page form has no setup field), then
    // takes the lobby over in the browser with the private host link.
    host.goto(base).await.unwrap();
    let created = host
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/api/v1/lobbies', {method: 'POST', headers: {'content-type': 'application/json'},
               body: JSON.stringify({game: 'bst', name: 'BST opening', settings: arguments[0]})})
               .then(r => r.json()).then(done);",
            vec![crate::pages_bst::opening()],
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

    for (client, name, character) in [(ann, "Ann", "Sellsword"), (bob, "Bob", "Sentinel")] {
        client.goto(&share).await.unwrap();
        wait_for(client, "#player-name")
            .await
            .send_keys(name)
            .await
            .unwrap();
        client
            .find(Locator::Css("#f-character"))
            .await
            .unwrap()
            .select_by_label(character)
            .await
            .unwrap();
        client
            .find(Locator::Css("form[action$='/join'] button"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_for(client, "#nothing-owed").await;
    }
    host.refresh().await.unwrap();
    wait_for(host, "form[action$='/host/start'] button")
        .await
        .click()
        .await
        .unwrap();
    wait_for_text(host, "Round 1: plays are due").await;

    let play = format!("{share}/play");
    for (client, mv, token) in [(ann, "guard", "B5"), (bob, "standard-strike", "B4")] {
        client.goto(&play).await.unwrap();
        let form = wait_for(client, "#order-form").await;
        if mv == "guard" {
            // The hand, as chips above the form.
            for token in ["R3", "Y3", "B5", "R6", "Y7"] {
                wait_for(client, &format!("#secrets .chip[title^='{token}:']")).await;
            }
            screenshots(client, "bst-play").await;
        }
        form.find(Locator::Css("#f-move"))
            .await
            .unwrap()
            .select_by_value(mv)
            .await
            .unwrap();
        form.find(Locator::Css("#f-token"))
            .await
            .unwrap()
            .select_by_value(token)
            .await
            .unwrap();
        submit_form(client, "#order-form button[type=submit]").await;
        wait_for(client, "#pending, #orders-h, #nothing-owed").await;
    }

    let mut answered = Vec::new();
    for _ in 0..12 {
        let a = answer_decision(ann, &play, "bst-decision").await;
        let b = answer_decision(bob, &play, "bst-decision").await;
        if a.is_none() && b.is_none() {
            break;
        }
        answered.extend(a.into_iter().chain(b));
    }
    assert!(answered.iter().any(|s| s == "gather-power"), "{answered:?}");
    ann.goto(&play).await.unwrap();
    wait_for_text(ann, "Round 2: Play").await;
    ann.goto(&format!("{share}/rounds/1")).await.unwrap();
    wait_for_text(ann, "Ann's gather power: tokens").await;
    // The revealed tokens are chips: the colour in words beside the code, a shape per colour.
    for (css, code, words, shape) in [
        (".orders .chip-red", "R3", "(red)", "●"),
        (".orders .chip-yellow", "Y3", "(yellow)", "▲"),
        (".orders .chip-blue", "B5", "(blue)", "■"),
    ] {
        let chip = wait_for(ann, css).await.text().await.unwrap();
        for part in [code, words, shape] {
            assert!(chip.contains(part), "{css}: {chip}");
        }
    }
    screenshots(ann, "bst-round-chips").await;
    Ok(())
}
