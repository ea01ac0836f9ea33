//! Contests' forms beyond declining, posted as a browser without JavaScript posts them, with
//! the `decks` and `setup` hooks of rulings §3.9 forcing the situations: a spell at the Magic
//! declare and a card played face up (P1, K3, K4), a window action at `next` and Berserk at
//! the Melee declare (W0, W8, P1, P2). Each answer is checked by what the duel then shows.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::api_contests::deck;
use crate::pages_client::{Page, Visitor};
use crate::pages_contests::{hidden, options};
use crate::support::{TestApp, sqlite_app};

/// Cards that are relevant only inside a contest: a hand of them offers no opening action.
const CONTEST_CARDS: [&str; 5] = [
    "check-out-my-diploma",
    "illegal-doping",
    "dwarven-ale",
    "my-daddy-was-an-elf",
    "am-i-good-or-what",
];

/// The play page, which must hold an order form for `step`.
async fn form_for(visitor: &mut Visitor<'_>, lobby: &str, step: &str) -> Page {
    let page = visitor.get(&format!("/lobbies/{lobby}/play")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(
        hidden(&page.html, "step").as_deref(),
        Some(step),
        "{}",
        page.html
    );
    page
}

/// Posts the page's form with its hidden fields and `fields`; it must be accepted.
async fn send(visitor: &mut Visitor<'_>, lobby: &str, page: &Page, fields: &[(&str, &str)]) {
    let mut all: Vec<(String, String)> = ["round", "step", "contest", "tie"]
        .iter()
        .filter_map(|name| hidden(&page.html, name).map(|v| ((*name).to_owned(), v)))
        .collect();
    all.extend(
        fields
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    let sent: Vec<(&str, &str)> = all.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let reply = visitor.post(&format!("/lobbies/{lobby}/play"), &sent).await;
    assert_eq!(
        reply.status,
        StatusCode::SEE_OTHER,
        "{sent:?}: {}",
        reply.html
    );
}

/// The value of the option of select `id` whose words start with `label`.
fn option(page: &Page, id: &str, label: &str) -> String {
    let all = options(page, id);
    all.iter()
        .find(|(_, words)| words.starts_with(label))
        .unwrap_or_else(|| panic!("no {label:?} in #{id}: {all:?}"))
        .0
        .clone()
}

async fn view(app: &TestApp, lobby: &str) -> Value {
    app.get(&format!("/api/v1/lobbies/{lobby}"), None)
        .await
        .body
}

/// The orders of `step` in `round` (a round of the API, or a view's `current_round`), as
/// revealed, in seat order.
fn revealed(round: &Value, step: &str) -> Vec<Value> {
    round["orders"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["step"] == step)
        .map(|o| o["order"].clone())
        .collect()
}

#[tokio::test]
async fn a_spell_is_declared_and_a_card_played_face_up_from_the_forms() {
    let app = sqlite_app().await;
    let decks = json!({"p1": deck(&CONTEST_CARDS), "p2": deck(&CONTEST_CARDS)});
    let (lobby, host) = app.create_lobby("contests", json!({"decks": decks})).await;
    let (mut ann, mut bob) = (Visitor::new(&app), Visitor::new(&app));
    for (who, name) in [(&mut ann, "Ann"), (&mut bob, "Bob")] {
        assert_eq!(who.join(&lobby, name).await.status, StatusCode::SEE_OTHER);
    }
    app.start(&lobby, &host).await;

    // Round 1, Magic (no opening action in either hand): Ann casts, Bob declines.
    let page = form_for(&mut ann, &lobby, "declare").await;
    let fire = option(&page, "f-spell", "Fire-bolt");
    send(&mut ann, &lobby, &page, &[("spell", &fire)]).await;
    let page = form_for(&mut bob, &lobby, "declare").await;
    send(&mut bob, &lobby, &page, &[("decline", "true")]).await;

    // Contest 1, Ann's spell (Mind, K1): Ann asks for the face-up step, Bob does not; Ann's
    // guess of 6 takes Bob's die (K2).
    let page = form_for(&mut ann, &lobby, "set").await;
    send(
        &mut ann,
        &lobby,
        &page,
        &[
            ("die", "5"),
            ("guesses", "6"),
            ("down", "null"),
            ("face_up", "true"),
        ],
    )
    .await;
    let page = form_for(&mut bob, &lobby, "set").await;
    send(
        &mut bob,
        &lobby,
        &page,
        &[
            ("die", "6"),
            ("guesses", "4"),
            ("down", "null"),
            ("face_up", "false"),
        ],
    )
    .await;

    // K3: only Ann owes the face-up step; she plays her Mind card.
    assert!(
        !bob.get(&format!("/lobbies/{lobby}/play"))
            .await
            .html
            .contains("id=\"order-form\""),
        "Bob did not ask for the face-up step"
    );
    let page = form_for(&mut ann, &lobby, "face-up").await;
    assert!(
        page.html
            .contains("type=\"checkbox\" name=\"cards\" value=\"check-out-my-diploma\""),
        "{}",
        page.html
    );
    send(
        &mut ann,
        &lobby,
        &page,
        &[("cards", "check-out-my-diploma")],
    )
    .await;

    // K4, K5: Ann 4 + 3 + 5 = 12 against Bob 4 + 0: the fire-bolt burns 3 (§2.3).
    let now = view(&app, &lobby).await;
    let [a, b] = [&now["players"][0], &now["players"][1]];
    assert_eq!(
        (a["energy"].as_u64(), b["hp"].as_u64()),
        (Some(4), Some(4)),
        "{now}"
    );
    assert_eq!(a["discard"], json!(["check-out-my-diploma"]), "{now}");
    let round = app
        .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
        .await
        .body;
    assert_eq!(
        revealed(&round, "declare")[0]["spell"],
        "fire-bolt",
        "{round}"
    );
    assert_eq!(
        revealed(&round, "face-up")[0]["cards"],
        json!(["check-out-my-diploma"]),
        "{round}"
    );
}

#[tokio::test]
async fn a_window_action_and_berserk_are_chosen_from_the_forms() {
    let app = sqlite_app().await;
    let ann_hand = [
        "dis-arm",
        "illegal-doping",
        "dwarven-ale",
        "my-daddy-was-an-elf",
        "no-way",
    ];
    let decks = json!({"p1": deck(&ann_hand), "p2": deck(&CONTEST_CARDS)});
    // Round 2's window, after an Archery phase (§3.9's setup).
    let setup = json!({"round": 2, "after": "archery", "archery_phases": 1});
    let (lobby, host) = app
        .create_lobby("contests", json!({"decks": decks, "setup": setup}))
        .await;
    let (mut ann, mut bob) = (Visitor::new(&app), Visitor::new(&app));
    let join = ann.get(&format!("/lobbies/{lobby}/join")).await;
    let brute = option(&join, "f-build", "Brute");
    let joined = ann
        .post(
            &format!("/lobbies/{lobby}/join"),
            &[("name", "Ann"), ("build", &brute)],
        )
        .await;
    assert_eq!(joined.status, StatusCode::SEE_OTHER, "{}", joined.html);
    assert_eq!(bob.join(&lobby, "Bob").await.status, StatusCode::SEE_OTHER);
    app.start(&lobby, &host).await;

    // W0: Ann advances and plays Dis-arm from the window action select; Bob stays.
    let page = form_for(&mut ann, &lobby, "next").await;
    let advance = option(&page, "f-wish", "Advance");
    let dis_arm = option(&page, "f-action", "Dis");
    send(
        &mut ann,
        &lobby,
        &page,
        &[("wish", &advance), ("action", &dis_arm)],
    )
    .await;
    let page = form_for(&mut bob, &lobby, "next").await;
    let stay = option(&page, "f-wish", "Stay");
    assert!(
        options(&page, "f-action").is_empty(),
        "Bob has no window action"
    );
    send(&mut bob, &lobby, &page, &[("wish", &stay)]).await;

    // W5, W8: the next phase is Melee, so Dis-arm is a contest of Might + Skill.
    let now = view(&app, &lobby).await;
    let round = &now["current_round"];
    assert_eq!(
        revealed(round, "next")[0]["action"],
        json!({"action": "dis-arm"}),
        "{now}"
    );
    assert_eq!(now["step"], "set", "{now}");
    for (who, die, guess) in [(&mut ann, "6", "2"), (&mut bob, "1", "3")] {
        let page = form_for(who, &lobby, "set").await;
        let fields = [
            ("die", die),
            ("guesses", guess),
            ("down", "null"),
            ("face_up", "false"),
        ];
        send(who, &lobby, &page, &fields).await;
    }

    // P1: the Melee declare is Ann's alone (the default build has no Melee choice); she
    // goes Berserk and pays 1 HP for it (P2).
    let now = view(&app, &lobby).await;
    assert_eq!(
        (now["step"].as_str(), now["phase"].as_str()),
        (Some("declare"), Some("melee")),
        "{now}"
    );
    assert!(
        !bob.get(&format!("/lobbies/{lobby}/play"))
            .await
            .html
            .contains("id=\"order-form\""),
        "Bob has no Melee choice"
    );
    let page = form_for(&mut ann, &lobby, "declare").await;
    send(
        &mut ann,
        &lobby,
        &page,
        &[("berserk", "true"), ("art_of_killing", "false")],
    )
    .await;
    let now = view(&app, &lobby).await;
    assert_eq!(
        revealed(&now["current_round"], "declare")[0]["berserk"],
        true,
        "{now}"
    );
    assert_eq!(now["players"][0]["hp"], 5, "Berserk's price: {now}");
    assert_eq!(now["step"], "set", "the first blow's contest: {now}");
}
