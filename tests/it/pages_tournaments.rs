//! Tournaments on the pages, on every backend (docs/tournaments.md, "The pages"): the create
//! form and its refusals (4xx HTML, nothing written), entering and withdrawing as a signed-in
//! profile, the director's panel starting each round and saying why it cannot, and nobody
//! else reaching it. The director's token shows only on the director's own panel.

use axum::http::{StatusCode, header};
use serde_json::{Value, json};

use crate::api_profiles::profile;
use crate::api_tournaments::{Tournament, create, finish_round, view};
use crate::pages_client::{HOSTILE, Page, Visitor, assert_escaped};
use crate::support::{TestApp, apps};

/// A Swiss of BST duels, as the form sends it.
pub(crate) const SWISS: &[(&str, &str)] = &[
    ("game", "bst"),
    ("name", "Page Swiss"),
    ("format", "swiss"),
    ("rounds", "2"),
    ("deadline_hours", "24"),
];

fn html(page: &Page) -> bool {
    page.headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"))
}

/// Creates the tournament through the form: the panel's address and the director's cookie.
pub(crate) async fn create_from_form(
    director: &mut Visitor<'_>,
    fields: &[(&str, &str)],
) -> Tournament {
    let page = director.post("/tournaments", fields).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
    let id = page
        .location()
        .strip_prefix("/tournaments/")
        .and_then(|rest| rest.strip_suffix("/director?created=1"))
        .unwrap_or_else(|| panic!("to the panel: {}", page.location()))
        .to_owned();
    let cookie = page
        .set_cookies()
        .into_iter()
        .find(|c| c.starts_with("herald_director_"))
        .expect("the director's cookie");
    for attribute in [
        "HttpOnly",
        "SameSite=Lax",
        &format!("Path=/tournaments/{id}"),
    ] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    let token = cookie
        .split(';')
        .next()
        .and_then(|pair| pair.split_once('='))
        .unwrap()
        .1
        .to_owned();
    assert!(!page.location().contains(&token));
    Tournament {
        id,
        director: token,
    }
}

/// The text of the textarea `id`, as a reader of the page sees it.
fn textarea(page: &Page, id: &str) -> String {
    let start = page
        .html
        .find(&format!("<textarea id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}: {}", page.html));
    let rest = &page.html[start..];
    let open = rest.find('>').unwrap() + 1;
    let close = rest.find("</textarea>").unwrap();
    crate::pages_client::unescape(&rest[open..close])
}

async fn listed(app: &TestApp) -> usize {
    app.get("/api/v1/tournaments", None)
        .await
        .body
        .as_array()
        .unwrap()
        .len()
}

/// A visitor signed in as a new profile `handle`: (visitor, profile key).
async fn signed_in<'a>(app: &'a TestApp, handle: &str) -> (Visitor<'a>, String) {
    let (key, _) = profile(app, handle).await;
    let mut visitor = Visitor::new(app);
    let page = visitor.get(&format!("/me/as/{key}")).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
    (visitor, key)
}

async fn enter_by_api(app: &TestApp, t: &Tournament, handles: &[&str]) {
    for handle in handles {
        let (key, _) = profile(app, handle).await;
        let reply = app
            .post(
                &format!("/api/v1/tournaments/{}/entrants", t.id),
                Some(&key),
                json!({}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    }
}

fn entrants(view: &Value) -> Vec<(String, bool)> {
    view["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["handle"].as_str().unwrap().to_owned(),
                e["withdrawn"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_director_creates_a_swiss_from_the_form_and_lands_on_the_panel() {
    for app in apps().await {
        let mut director = Visitor::new(&app);
        let home = director.get("/").await;
        assert!(home.html.contains("href=\"/tournaments/new\""));
        let form = director.get("/tournaments/new").await;
        assert_eq!(form.status, StatusCode::OK, "{}", form.html);
        assert_eq!(
            form.options("format")
                .iter()
                .map(|(v, _)| v.as_str())
                .collect::<Vec<_>>(),
            ["swiss", "round-robin", "knockout", "melee"]
        );
        let t = create_from_form(&mut director, SWISS).await;

        let v = view(&app, &t).await;
        assert_eq!(
            (
                v["name"].as_str(),
                v["format"].as_str(),
                v["rounds_total"].as_i64()
            ),
            (Some("Page Swiss"), Some("swiss"), Some(2))
        );
        let panel = director
            .get(&format!("/tournaments/{}/director?created=1", t.id))
            .await;
        assert_eq!(panel.status, StatusCode::OK, "{}", panel.html);
        assert!(panel.html.contains("id=\"created-notice\""));
        assert!(panel.html.contains("Entries are open"));
        assert!(
            panel
                .html
                .contains("A tournament needs at least two entrants to start."),
            "{}",
            panel.html
        );
        let private = format!("http://herald.test/tournaments/{}/as/{}", t.id, t.director);
        assert!(
            panel.html.contains(&format!("value=\"{private}\"")),
            "{}",
            panel.html
        );

        // The private link opens the panel on another device, and says no referrer.
        let mut phone = Visitor::new(&app);
        let page = phone
            .get(&format!("/tournaments/{}/as/{}", t.id, t.director))
            .await;
        assert_eq!(
            (page.status, page.location()),
            (
                StatusCode::SEE_OTHER,
                format!("/tournaments/{}/director", t.id).as_str()
            )
        );
        assert_eq!(
            page.headers.get(header::REFERRER_POLICY).unwrap(),
            "no-referrer"
        );
        let panel = phone.get(&format!("/tournaments/{}/director", t.id)).await;
        assert_eq!(panel.status, StatusCode::OK);
        let wrong = Visitor::new(&app)
            .get(&format!("/tournaments/{}/as/{}", t.id, "0".repeat(64)))
            .await;
        assert_eq!(wrong.status, StatusCode::NOT_FOUND);
        assert!(html(&wrong));

        // Everyone else reads the public page and the list, with no token on them.
        let mut walk_in = Visitor::new(&app);
        let page = walk_in.get(&format!("/tournaments/{}", t.id)).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.html.contains("Sign in with your profile"));
        assert!(!page.html.contains(&t.director));
        assert!(!page.html.contains("director-link"));
        let list = walk_in.get("/tournaments").await;
        assert!(list.html.contains("Page Swiss"), "{}", list.html);
        assert!(!list.html.contains(&t.director));
        let own = director.get(&format!("/tournaments/{}", t.id)).await;
        assert!(own.html.contains("id=\"director-link\""));
        // Followed while it runs: polled with the script, reloaded every 30 s without it.
        assert!(page.html.contains("data-stamp=\""), "{}", page.html);
        assert!(
            page.html
                .contains("<noscript><meta http-equiv=\"refresh\" content=\"30\">")
        );
        assert!(
            !panel.html.contains("http-equiv=\"refresh\""),
            "the panel answers forms"
        );
    }
}

#[tokio::test]
async fn bad_input_comes_back_as_the_form_with_the_reason_and_writes_nothing() {
    for app in apps().await {
        let mut director = Visitor::new(&app);
        let long = "x".repeat(5000);
        let with = |changes: &[(&'static str, &'static str)]| -> Vec<(&'static str, String)> {
            let mut fields: Vec<(&str, String)> =
                SWISS.iter().map(|(k, v)| (*k, v.to_string())).collect();
            for (key, value) in changes {
                match fields.iter_mut().find(|(k, _)| k == key) {
                    Some(field) => field.1 = value.to_string(),
                    None => fields.push((key, value.to_string())),
                }
            }
            fields
        };
        let cases: Vec<(Vec<(&str, String)>, &str)> = vec![
            (with(&[("rounds", "")]), "“Rounds”: 1 to 20"),
            (
                with(&[("rounds", "two")]),
                "“Rounds” must be a whole number",
            ),
            (with(&[("rounds", "21")]), "“Rounds”: 1 to 20"),
            (with(&[("format", "ladder")]), "Choose a format"),
            (with(&[("game", "chess")]), "chess"),
            (with(&[("name", "")]), "name"),
            (with(&[("name", "\u{200b}\u{2060}\u{200b}")]), "name"),
            (
                with(&[("forbidden_pairs", "Ann, Bob\nCat")]),
                "Forbidden pairs, line 2",
            ),
            (with(&[("forbidden_pairs", "Ann, ann")]), "two players"),
            (with(&[("format", "melee")]), "“Board size”: 2 to 16"),
            (with(&[("deadline_hours", "soon")]), "The deadline"),
            (with(&[("bst.seed", "-1")]), "Seed"),
        ];
        for (fields, says) in &cases {
            let borrowed: Vec<(&str, &str)> =
                fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let page = director.post("/tournaments", &borrowed).await;
            assert!(
                page.status.is_client_error(),
                "{fields:?}: {} {}",
                page.status,
                page.html
            );
            assert!(html(&page), "{fields:?}");
            assert!(
                crate::pages_client::unescape(&page.html).contains(says),
                "{fields:?} should say {says:?}: {}",
                page.html
            );
            assert!(page.html.contains("id=\"create-error\""), "{fields:?}");
            assert!(
                page.set_cookies()
                    .iter()
                    .all(|c| !c.starts_with("herald_director_")),
                "{fields:?}"
            );
        }
        // What was sent comes back in the form.
        let page = director
            .post(
                "/tournaments",
                &with(&[("rounds", "two"), ("name", "Kept <b>name</b>")])
                    .iter()
                    .map(|(k, v)| (*k, v.as_str()))
                    .collect::<Vec<_>>(),
            )
            .await;
        assert!(page.html.contains("value=\"two\""), "{}", page.html);
        assert!(
            page.html.contains("Kept &#60;b&#62;name&#60;/b&#62;"),
            "{}",
            page.html
        );
        // A huge name, and a form from elsewhere: refused as HTML.
        let page = director
            .post(
                "/tournaments",
                &[
                    ("game", "bst"),
                    ("name", &long),
                    ("format", "swiss"),
                    ("rounds", "2"),
                ],
            )
            .await;
        assert!(
            page.status.is_client_error() && html(&page),
            "{}",
            page.status
        );
        let page = director.post_raw("/tournaments", SWISS).await;
        assert_eq!(page.status, StatusCode::FORBIDDEN);
        assert!(html(&page));
        assert_eq!(listed(&app).await, 0, "nothing was written");
    }
}

#[tokio::test]
async fn a_hostile_tournament_name_stays_text_on_the_pages_and_in_the_post() {
    for app in apps().await {
        let t = create(
            &app,
            json!({"game": "bst", "name": HOSTILE, "format": "knockout"}),
        )
        .await;
        let mut walk_in = Visitor::new(&app);
        for path in [format!("/tournaments/{}", t.id), "/tournaments".to_owned()] {
            let page = walk_in.get(&path).await;
            assert_eq!(page.status, StatusCode::OK, "{path}");
            assert_escaped(&page);
        }
        let page = walk_in.get(&format!("/tournaments/{}", t.id)).await;
        let post = textarea(&page, "tournament-standings-bb");
        assert!(!post.contains("[b]x[/b]"), "BBCode escaped: {post}");
    }
}

#[tokio::test]
async fn a_signed_in_profile_enters_and_withdraws_from_the_page() {
    for app in apps().await {
        let t = create(
            &app,
            json!({"game": "bst", "name": "Entry Swiss", "format": "swiss", "rounds": 4}),
        )
        .await;
        let path = format!("/tournaments/{}", t.id);

        // Signed out: a link to sign in, and a post is a 401 page that changes nothing.
        let mut walk_in = Visitor::new(&app);
        let page = walk_in.get(&path).await;
        assert!(page.html.contains("href=\"/me\">Sign in with your profile"));
        let refused = walk_in.post(&format!("{path}/enter"), &[]).await;
        assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
        assert!(html(&refused));
        assert!(entrants(&view(&app, &t).await).is_empty());

        // A refusal answers a form: no reload that would GET the form's address.
        assert!(!refused.html.contains("http-equiv=\"refresh\""));

        let (mut ann, _) = signed_in(&app, "Ann Entrant").await;
        let page = ann.get(&path).await;
        assert!(page.html.contains("Enter as Ann Entrant"), "{}", page.html);
        let page = ann.post(&format!("{path}/enter"), &[]).await;
        assert_eq!(
            (page.status, page.location()),
            (StatusCode::SEE_OTHER, format!("{path}#entry").as_str()),
            "{}",
            page.html
        );
        assert_eq!(
            entrants(&view(&app, &t).await),
            [("Ann Entrant".to_owned(), false)]
        );
        let page = ann.get(&path).await;
        assert!(page.html.contains("You have entered as"), "{}", page.html);
        assert!(page.html.contains("id=\"withdraw\""));
        assert!(
            !page.html.contains("confirm-withdraw"),
            "no game to forfeit yet"
        );
        // Twice: the page again, saying why (409).
        let page = ann.post(&format!("{path}/enter"), &[]).await;
        assert_eq!(page.status, StatusCode::CONFLICT);
        assert!(page.html.contains("already entered"), "{}", page.html);
        assert!(page.html.contains("id=\"entry-error\""));

        // Withdrawing during entries leaves no trace; entering again is allowed.
        let page = ann.post(&format!("{path}/withdraw"), &[]).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        assert!(entrants(&view(&app, &t).await).is_empty());
        let page = ann.post(&format!("{path}/enter"), &[]).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);

        // Once games are played a withdrawal needs "I am sure", and forfeits the game.
        enter_by_api(&app, &t, &["Bob Entrant", "Cat Entrant"]).await;
        let reply = app
            .post(
                &format!("/api/v1/tournaments/{}/rounds", t.id),
                Some(&t.director),
                json!({}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        let page = ann.get(&path).await;
        assert!(
            page.html.contains("id=\"confirm-withdraw\""),
            "{}",
            page.html
        );
        // Her game of the round is linked, unless she has the bye.
        let v = view(&app, &t).await;
        let mine = v["rounds"][0]["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| {
                g["players"]
                    .as_array()
                    .unwrap()
                    .contains(&json!("Ann Entrant"))
            });
        assert_eq!(
            page.html.contains("id=\"your-game\""),
            mine.is_some(),
            "{}",
            page.html
        );
        if let Some(game) = mine {
            let lobby = game["lobby"].as_str().unwrap();
            assert!(
                page.html.contains(&format!(
                    "Your game of round 1: <a href=\"/lobbies/{lobby}\">"
                )),
                "{}",
                page.html
            );
        }
        let page = ann.post(&format!("{path}/withdraw"), &[]).await;
        assert_eq!(
            page.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            page.html
        );
        assert!(page.html.contains("I am sure"));
        assert!(
            !entrants(&view(&app, &t).await)
                .iter()
                .any(|(_, withdrawn)| *withdrawn)
        );
        let page = ann
            .post(&format!("{path}/withdraw"), &[("confirm", "yes")])
            .await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        let v = view(&app, &t).await;
        assert!(entrants(&v).contains(&("Ann Entrant".to_owned(), true)));
        let page = ann.get(&path).await;
        assert!(page.html.contains("have withdrawn"), "{}", page.html);
        assert!(!page.html.contains("id=\"enter\""));
        // A late entrant signs in and enters the running Swiss from the page.
        let (mut dan, _) = signed_in(&app, "Dan Late").await;
        let page = dan.post(&format!("{path}/enter"), &[]).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        assert!(entrants(&view(&app, &t).await).contains(&("Dan Late".to_owned(), false)));
    }
}

#[tokio::test]
async fn the_director_starts_each_round_from_the_panel_and_nobody_else_can() {
    for app in apps().await {
        let mut director = Visitor::new(&app);
        let t = create_from_form(&mut director, SWISS).await;
        let panel_path = format!("/tournaments/{}/director", t.id);
        let start = format!("{panel_path}/next-round");
        enter_by_api(&app, &t, &["Ann", "Bob", "Cat", "Dan"]).await;

        // Nobody else: no cookie, a wrong cookie, a signed-in entrant.
        let mut stranger = Visitor::new(&app);
        for page in [
            stranger.get(&panel_path).await,
            stranger.post(&start, &[]).await,
        ] {
            assert_eq!(page.status, StatusCode::UNAUTHORIZED, "{}", page.html);
            assert!(html(&page));
        }
        let mut forger = Visitor::new(&app);
        forger.cookies.insert(
            format!("herald_director_{}", t.id.replace('-', "")),
            "0".repeat(64),
        );
        assert_eq!(
            forger.post(&start, &[]).await.status,
            StatusCode::UNAUTHORIZED
        );
        let (mut entrant, _) = signed_in(&app, "Eve").await;
        assert_eq!(
            entrant.post(&start, &[]).await.status,
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(view(&app, &t).await["status"], "entries", "nothing started");

        // The director closes entries and starts round 1.
        let panel = director.get(&panel_path).await;
        assert!(
            panel.html.contains("Close entries and start round 1"),
            "{}",
            panel.html
        );
        let stamp = director
            .get(&format!("/tournaments/{}/stamp", t.id))
            .await
            .html;
        let page = director.post(&start, &[]).await;
        assert_eq!(
            (page.status, page.location()),
            (StatusCode::SEE_OTHER, panel_path.as_str()),
            "{}",
            page.html
        );
        let v = view(&app, &t).await;
        assert_eq!(
            (v["status"].as_str(), v["round"].as_i64()),
            (Some("running"), Some(1))
        );
        let moved = director
            .get(&format!("/tournaments/{}/stamp", t.id))
            .await
            .html;
        assert_ne!(stamp, moved, "a round started: the stamp moved");

        // The panel lists the round's games with their host links, and says why not yet.
        let panel = director.get(&panel_path).await;
        let lobbies: Vec<String> = v["rounds"][0]["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["lobby"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(lobbies.len(), 2);
        for lobby in &lobbies {
            assert!(
                panel
                    .html
                    .contains(&format!("/lobbies/{lobby}/as/{}", t.director)),
                "{}",
                panel.html
            );
        }
        assert!(
            panel
                .html
                .contains("A game of round 1 is not finished yet.")
        );
        assert!(!panel.html.contains("id=\"start-round\""));
        let page = director.post(&start, &[]).await;
        assert_eq!(page.status, StatusCode::CONFLICT);
        assert!(page.html.contains("id=\"director-error\""));
        assert!(page.html.contains("A game of round 1 is not finished yet."));

        // Its host link opens the game's host panel in the director's browser.
        let page = director
            .get(&format!("/lobbies/{}/as/{}", lobbies[0], t.director))
            .await;
        assert_eq!(
            page.location(),
            format!("/lobbies/{}/host", lobbies[0]),
            "{}",
            page.html
        );
        assert_eq!(
            director
                .get(&format!("/lobbies/{}/host", lobbies[0]))
                .await
                .status,
            StatusCode::OK
        );

        // Games end; the stamp moves with each; the panel offers round 2, then nothing.
        finish_round(&app, &t).await;
        let after = director
            .get(&format!("/tournaments/{}/stamp", t.id))
            .await
            .html;
        assert_ne!(after, moved, "results moved the stamp");
        let panel = director.get(&panel_path).await;
        assert!(panel.html.contains("Start round 2"), "{}", panel.html);
        let page = director.post(&start, &[]).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.html);
        finish_round(&app, &t).await;
        let v = view(&app, &t).await;
        assert_eq!(v["status"], "finished");
        let panel = director.get(&panel_path).await;
        assert!(
            panel
                .html
                .contains("Every round of this tournament has been played."),
            "{}",
            panel.html
        );
        assert!(!panel.html.contains("data-stamp"), "nothing left to follow");
        let page = director.post(&start, &[]).await;
        assert_eq!(page.status, StatusCode::CONFLICT);
        // The standings post is on the panel and the public page.
        for page in [panel, stranger.get(&format!("/tournaments/{}", t.id)).await] {
            let post = textarea(&page, "tournament-standings-bb");
            assert!(post.contains("final standings"), "{post}");
            for row in v["standings"].as_array().unwrap() {
                assert!(post.contains(row["handle"].as_str().unwrap()), "{post}");
            }
        }
        assert!(
            !stranger
                .get(&format!("/tournaments/{}", t.id))
                .await
                .html
                .contains(&t.director)
        );
    }
}
