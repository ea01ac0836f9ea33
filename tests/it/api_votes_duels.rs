//! End votes in the duels that are not BST's (docs/table-talk.md, "End votes"): in The Scale of
//! Styles and in Contests a draw vote rides on the main step's answer (`Game::MAIN_STEP`), is
//! refused on any other step, ends the duel as a draw after the round both voted in, and the
//! round's post says who voted; the archive of a duel so ended verifies.

use axum::http::StatusCode;
use rand::SeedableRng;
use serde_json::{Value, json};

use herald::bots::policy::{Strategy, answer};

use crate::api_fairness::{archive, clean, seat, view};
use crate::support::{TestApp, apps};

/// `token`'s answer to its prompt, with a draw vote when `vote`; the reply.
async fn answer_with(app: &TestApp, lobby: &str, token: &str, vote: bool) -> (StatusCode, Value) {
    let me = app
        .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(token))
        .await
        .body;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut order = answer(&me, Strategy::Random, &mut rng).expect("an answer");
    if vote {
        order["vote"] = json!("draw");
    }
    let path = format!("/api/v1/lobbies/{lobby}/orders");
    let reply = app.post(&path, Some(token), order).await;
    (reply.status, reply.body)
}

/// Plays `game` with both seats voting for a draw on every main step; the round they voted in.
async fn vote_to_the_end(
    app: &TestApp,
    game: &str,
    seed: u64,
    joins: &[Value],
    main: &str,
) -> String {
    let seated = seat(app, game, json!({"seed": seed}), joins).await;
    let lobby = &seated.lobby;
    let mut voted = None;
    for _ in 0..400 {
        let now = view(app, lobby).await;
        if now["status"] == "finished" {
            break;
        }
        let (round, step) = (now["round"].as_u64().unwrap(), now["step"].clone());
        for (id, token) in &seated.players {
            let owes = now["players"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["id"] == id.as_str() && p["owes"] == true);
            if !owes {
                continue;
            }
            if step == main {
                voted.get_or_insert(round);
                let (status, body) = answer_with(app, lobby, token, true).await;
                assert_eq!(status, StatusCode::ACCEPTED, "{game}: {body}");
            } else {
                let (status, body) = answer_with(app, lobby, token, true).await;
                assert_eq!(
                    (status, &body["error"]["code"]),
                    (StatusCode::UNPROCESSABLE_ENTITY, &json!("vote-not-here")),
                    "{game}: a vote on step {step}: {body}"
                );
                let (status, body) = answer_with(app, lobby, token, false).await;
                assert_eq!(status, StatusCode::ACCEPTED, "{game}: {body}");
            }
        }
    }
    let finished = view(app, lobby).await;
    assert_eq!(finished["status"], "finished", "{game}: {finished}");
    assert_eq!(
        finished["result"]["reason"], "draw-vote",
        "{game}: {finished}"
    );
    let round = voted.expect("a main step was played");
    let post = app
        .get(&format!("/lobbies/{lobby}/rounds/{round}"), None)
        .await
        .text;
    assert!(
        post.contains(&format!("Voted for a draw in round {round}: Ann, Bob.")),
        "{game}: {post}"
    );
    let archived = archive(app, lobby).await;
    clean(&archived, &format!("{game} ended by a vote"));
    lobby.clone()
}

#[tokio::test]
async fn a_scale_of_styles_duel_ends_as_a_draw_when_both_vote() {
    for app in apps().await {
        let joins = [json!({"name": "Ann"}), json!({"name": "Bob"})];
        vote_to_the_end(&app, "scale-of-styles", 23, &joins, "play").await;
    }
}

#[tokio::test]
async fn a_contests_duel_ends_as_a_draw_when_both_vote() {
    for app in apps().await {
        let joins = crate::api_contests::joins();
        // A duel whose first round has no escape: an end by the rules would stand over the vote.
        vote_to_the_end(&app, "contests", 25, &joins, "next").await;
    }
}
