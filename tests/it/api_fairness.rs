//! Provable fairness over HTTP (issue 17), on every backend: archives of random games of both
//! games (with a substitute, a kick, a step the host resolved early with defaults, an early end)
//! re-adjudicate cleanly; tampered archives are caught at the right round and step; receipts
//! bind the order the reveal later shows; and the nonce and seed stay hidden until then.

use axum::http::StatusCode;
use rand::SeedableRng;
use serde_json::{Value, json};

use herald::bots::policy::{Strategy, answer};
use herald::fairness::archive::Archive;
use herald::fairness::verify::{Mismatch, verify};
use herald::fairness::{StepContent, order_commitment, seed_commitment, step_digest};

use crate::support::{TestApp, apps};

/// What the host does at a given turn of the driving loop.
#[derive(Clone, Copy, PartialEq)]
enum HostMove {
    /// A substitute takes seat 1.
    Replace,
    /// The last owing player sends nothing and the host resolves the step now (a default or a
    /// fallback plays for them).
    ResolveNow,
    /// The host kicks the last seat.
    Kick,
    /// The host ends the game (its ending body).
    End(&'static str),
}

/// A host's script: what it does before which turn.
type Script = &'static [(usize, HostMove)];

/// A tampering: its name, what it does, the fields it may be caught by as it is, and those
/// once the forger has recomputed the chain.
type Tampering<'a> = (
    &'a str,
    &'a dyn Fn(&mut Archive),
    &'a [&'a str],
    &'a [&'a str],
);

struct Game {
    lobby: String,
    host: String,
    players: Vec<(String, String)>,
}

async fn seat(app: &TestApp, game: &str, settings: Value, joins: &[Value]) -> Game {
    let (lobby, host) = app.create_lobby(game, settings).await;
    let mut players = Vec::new();
    for join in joins {
        players.push(app.join(&lobby, join.clone()).await);
    }
    app.start(&lobby, &host).await;
    Game {
        lobby,
        host,
        players,
    }
}

async fn view(app: &TestApp, lobby: &str) -> Value {
    app.get(&format!("/api/v1/lobbies/{lobby}"), None)
        .await
        .body
}

/// Plays random legal answers to the end, doing `script[i]` before turn `i`.
async fn play_out(app: &TestApp, game: &mut Game, seed: u64, script: &[(usize, HostMove)]) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let lobby = game.lobby.clone();
    for turn in 0..3_000 {
        let now = view(app, &lobby).await;
        if now["status"] == "finished" {
            return;
        }
        let planned = script.iter().find(|(at, _)| *at == turn).map(|(_, m)| *m);
        let host = Some(game.host.as_str());
        match planned {
            Some(HostMove::Replace) => {
                let path = format!(
                    "/api/v1/lobbies/{lobby}/players/{}/replace",
                    game.players[1].0
                );
                let reply = app.post(&path, host, json!({"name": "Substitute"})).await;
                assert_eq!(reply.status, StatusCode::OK, "replace: {}", reply.text);
                game.players[1].1 = reply.body["player_token"].as_str().unwrap().into();
            }
            Some(HostMove::Kick) => {
                let last = game.players.last().unwrap().0.clone();
                let path = format!("/api/v1/lobbies/{lobby}/players/{last}/kick");
                let reply = app.post(&path, host, json!({})).await;
                assert!(
                    reply.status.is_success() || reply.status == StatusCode::CONFLICT,
                    "{}",
                    reply.text
                );
                continue;
            }
            Some(HostMove::End(body)) => {
                let body: Value = serde_json::from_str(body).unwrap();
                let reply = app
                    .post(&format!("/api/v1/lobbies/{lobby}/end"), host, body)
                    .await;
                assert_eq!(reply.status, StatusCode::OK, "end: {}", reply.text);
                continue;
            }
            Some(HostMove::ResolveNow) | None => {}
        }
        let owing: Vec<(String, String)> = game
            .players
            .iter()
            .filter(|(id, _)| {
                now["players"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|p| p["id"] == id.as_str() && p["owes"] == true)
            })
            .cloned()
            .collect();
        assert!(
            !owing.is_empty(),
            "someone owes an answer while the game runs: {now}"
        );
        let silent = match planned {
            Some(HostMove::ResolveNow) => 1,
            _ => 0,
        };
        for (_, token) in &owing[..owing.len() - silent] {
            let me = app
                .get(&format!("/api/v1/lobbies/{lobby}/me"), Some(token))
                .await
                .body;
            let order = answer(&me, Strategy::Random, &mut rng)
                .unwrap_or_else(|| panic!("no answer for {}", me["prompt"]));
            let reply = app
                .post(
                    &format!("/api/v1/lobbies/{lobby}/orders"),
                    Some(token),
                    order,
                )
                .await;
            assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        }
        if silent == 1 {
            let path = format!("/api/v1/lobbies/{lobby}/resolve-now");
            let reply = app.post(&path, host, json!({})).await;
            assert_eq!(reply.status, StatusCode::OK, "resolve-now: {}", reply.text);
        }
    }
    panic!("the game did not end");
}

async fn archive(app: &TestApp, lobby: &str) -> Archive {
    let reply = app
        .get(&format!("/api/v1/lobbies/{lobby}/archive"), None)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "archive: {}", reply.text);
    assert_eq!(reply.body["format"], "herald-archive/1");
    serde_json::from_value(reply.body).unwrap()
}

/// The kinds of act an archive records, and the sources of its revealed orders.
fn kinds(archive: &Archive) -> Vec<String> {
    let mut kinds = Vec::new();
    for step in &archive.steps {
        for act in step.acts.iter().flatten() {
            kinds.push(
                serde_json::to_value(act).unwrap()["act"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            );
        }
        for entry in step.revealed.as_array().unwrap() {
            kinds.push(format!("source:{}", entry["source"].as_str().unwrap()));
        }
    }
    kinds
}

fn clean(archive: &Archive, what: &str) {
    let report = verify(archive).unwrap();
    assert!(
        report.mismatches.is_empty(),
        "{what}: {:#?}\n{}",
        report.mismatches,
        report.lines.join("\n")
    );
    assert!(report.replayed, "{what}: not re-adjudicated");
}

fn crossing_swords(players: usize) -> Vec<Value> {
    ["Ann", "Bob", "Cid", "Dan"][..players]
        .iter()
        .map(|name| json!({"name": name}))
        .collect()
}

fn bst(characters: [&str; 2]) -> Vec<Value> {
    vec![
        json!({"name": "Ann", "character": characters[0]}),
        json!({"name": "Bob", "character": characters[1]}),
    ]
}

#[tokio::test]
async fn archives_of_random_games_of_both_games_re_adjudicate_cleanly() {
    for app in apps().await {
        let mut seen = Vec::new();
        let cs = json!({"max_players": 4, "max_rounds": 12});
        let scripts: [Script; 3] = [
            &[],
            &[
                (1, HostMove::Replace),
                (2, HostMove::ResolveNow),
                (4, HostMove::Kick),
            ],
            &[(1, HostMove::ResolveNow), (3, HostMove::End("{}"))],
        ];
        for (i, script) in scripts.into_iter().enumerate() {
            let mut game = seat(&app, "crossing-swords", cs.clone(), &crossing_swords(4)).await;
            play_out(&app, &mut game, 10 + i as u64, script).await;
            let archived = archive(&app, &game.lobby).await;
            clean(&archived, &format!("{} cs {i}", app.backend));
            seen.extend(kinds(&archived));
        }
        let bst_scripts: [(Script, [&str; 2]); 3] = [
            (&[], ["sellsword", "razorbeast"]),
            (
                &[(1, HostMove::Replace), (2, HostMove::ResolveNow)],
                ["warpriest", "channeler"],
            ),
            (
                &[(3, HostMove::End(r#"{"result": "draw"}"#))],
                ["sentinel", "assassin"],
            ),
        ];
        for (i, (script, characters)) in bst_scripts.into_iter().enumerate() {
            let settings = json!({"seed": 7000 + i as u64});
            let mut game = seat(&app, "bst", settings, &bst(characters)).await;
            play_out(&app, &mut game, 20 + i as u64, script).await;
            let archived = archive(&app, &game.lobby).await;
            clean(&archived, &format!("{} bst {i}", app.backend));
            seen.extend(kinds(&archived));
        }
        // The host's acts and the stand-in orders were all in the histories replayed.
        for kind in [
            "resolve",
            "rename",
            "kick",
            "end",
            "source:order",
            "source:default",
        ] {
            assert!(
                seen.iter().any(|k| k == kind),
                "{}: no {kind} in {seen:?}",
                app.backend
            );
        }
    }
}

/// The first step with at least two orders its players sent, and game log entries.
fn tamperable(archive: &Archive) -> usize {
    archive
        .steps
        .iter()
        .position(|s| {
            let sent = s.revealed.as_array().unwrap();
            sent.iter().filter(|e| e["source"] == "order").count() >= 2
                && s.log.as_array().unwrap().len() >= 2
        })
        .expect("a step with two sent orders and a log")
}

/// Recomputes every digest, as a forger would to hide a change from the chain.
fn reseal(archive: &mut Archive) {
    let mut head = archive.seed_commitment.clone().unwrap();
    for step in &mut archive.steps {
        step.previous_digest = head;
        let content = StepContent {
            round: step.round,
            step: &step.step,
            revealed: &step.revealed,
            log: &step.log,
            pools: &step.pools,
        };
        step.digest = step_digest(&step.previous_digest, content);
        head = step.digest.clone();
    }
}

fn first(archive: &Archive) -> Mismatch {
    let report = verify(archive).unwrap();
    report
        .mismatches
        .first()
        .cloned()
        .unwrap_or_else(|| panic!("the tampering went unnoticed:\n{}", report.lines.join("\n")))
}

#[tokio::test]
async fn every_kind_of_tampering_is_named_at_its_round_and_step() {
    for app in apps().await {
        let mut cs = seat(
            &app,
            "crossing-swords",
            json!({"max_players": 3, "max_rounds": 8}),
            &crossing_swords(3),
        )
        .await;
        play_out(&app, &mut cs, 5, &[]).await;
        tampering_is_caught(&archive(&app, &cs.lobby).await);
        let mut duel = seat(
            &app,
            "bst",
            json!({"seed": 99}),
            &bst(["sellsword", "sentinel"]),
        )
        .await;
        play_out(&app, &mut duel, 6, &[]).await;
        let honest = archive(&app, &duel.lobby).await;
        tampering_is_caught(&honest);
        // With a forged commitment to match a wrong seed, the replay parts ways with the
        // published game at its first step (BST draws from its seeded pool at once; Crossing
        // Swords draws nothing at random, so there only the commitment tells).
        let mut wrong_seed = honest.clone();
        let seed: u64 = honest.seed.as_deref().unwrap().parse().unwrap();
        wrong_seed.seed = Some((seed + 1).to_string());
        wrong_seed.seed_commitment = Some(seed_commitment(
            seed + 1,
            honest.seed_salt.as_deref().unwrap(),
        ));
        reseal(&mut wrong_seed);
        let found = first(&wrong_seed);
        assert_eq!(
            (found.round, found.step.clone()),
            (honest.steps[0].round, honest.steps[0].step.clone()),
            "{found}"
        );
    }
}

fn tampering_is_caught(honest: &Archive) {
    {
        clean(honest, "honest");
        let k = tamperable(honest);
        let at = (honest.steps[k].round, honest.steps[k].step.clone());
        let sent: Vec<usize> = honest.steps[k]
            .revealed
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .filter(|(_, e)| e["source"] == "order")
            .map(|(i, _)| i)
            .collect();

        let changed_order = |a: &mut Archive| {
            let entry = &mut a.steps[k].revealed[sent[0]];
            entry["order"] = json!({"move": "rest"});
        };
        let changed_pool = |a: &mut Archive| {
            a.steps[k].pools["players"][0]["vp"] = json!(99);
        };
        let dropped_line = |a: &mut Archive| {
            a.steps[k].log.as_array_mut().unwrap().pop();
        };
        let swapped_nonce = |a: &mut Archive| {
            let revealed = a.steps[k].revealed.as_array_mut().unwrap();
            let (x, y) = (
                revealed[sent[0]]["nonce"].clone(),
                revealed[sent[1]]["nonce"].clone(),
            );
            revealed[sent[0]]["nonce"] = y;
            revealed[sent[1]]["nonce"] = x;
        };
        let tamperings: [Tampering<'_>; 4] = [
            (
                "a changed order",
                &changed_order,
                &["digest", "commitment"],
                &["commitment"],
            ),
            ("a changed pool", &changed_pool, &["digest"], &["pools"]),
            ("a dropped log line", &dropped_line, &["digest"], &["log"]),
            (
                "a swapped nonce",
                &swapped_nonce,
                &["digest", "commitment"],
                &["commitment"],
            ),
        ];
        for (what, tamper, fields, resealed_fields) in tamperings {
            let mut forged = honest.clone();
            tamper(&mut forged);
            let found = first(&forged);
            assert_eq!((found.round, found.step.clone()), at, "{what}: {found}");
            assert!(fields.contains(&found.field), "{what}: {found}");
            // A forger who recomputes the chain is still caught, by the commitments or the
            // re-adjudication, at the same step.
            reseal(&mut forged);
            let found = first(&forged);
            assert_eq!(
                (found.round, found.step.clone()),
                at,
                "{what}, resealed: {found}"
            );
            assert!(
                resealed_fields.contains(&found.field),
                "{what}, resealed: {found}"
            );
        }

        let mut wrong_seed = honest.clone();
        let seed: u64 = honest.seed.as_deref().unwrap().parse().unwrap();
        wrong_seed.seed = Some((seed + 1).to_string());
        let found = first(&wrong_seed);
        assert_eq!(
            (found.round, found.step.as_str(), found.field),
            (0, "start", "seed"),
            "{found}"
        );
    }
}

#[tokio::test]
async fn a_receipt_binds_the_order_the_reveal_shows_and_hides_its_nonce_until_then() {
    for app in apps().await {
        let game = seat(
            &app,
            "crossing-swords",
            json!({"max_players": 2}),
            &crossing_swords(2),
        )
        .await;
        let lobby = &game.lobby;
        let (ann, ann_token) = &game.players[0];
        let (bob, bob_token) = &game.players[1];
        let orders = format!("/api/v1/lobbies/{lobby}/orders");
        let first = json!({"round": 1, "step": "orders", "move": "strike", "target": bob});
        let second = json!({"round": 1, "step": "orders", "move": "block", "target": bob});
        let one = app.post(&orders, Some(ann_token), first).await;
        let two = app.post(&orders, Some(ann_token), second).await;
        assert_eq!(
            (one.status, two.status),
            (StatusCode::ACCEPTED, StatusCode::ACCEPTED)
        );
        let (c1, c2) = (
            one.body["commitment"].as_str().unwrap(),
            two.body["commitment"].as_str().unwrap(),
        );
        assert_eq!((c1.len(), c2.len()), (64, 64));
        assert_ne!(c1, c2, "a replacement gets a new receipt");
        assert!(one.body.get("nonce").is_none() && two.body.get("nonce").is_none());

        // Everything anyone can read before the reveal.
        let mut before = vec![one.text.clone(), two.text.clone()];
        for (path, token) in [
            (format!("/api/v1/lobbies/{lobby}"), None),
            (
                format!("/api/v1/lobbies/{lobby}/me"),
                Some(ann_token.as_str()),
            ),
            (
                format!("/api/v1/lobbies/{lobby}/me"),
                Some(bob_token.as_str()),
            ),
            (format!("/api/v1/lobbies/{lobby}/archive"), None),
            (format!("/api/v1/lobbies/{lobby}/rounds"), None),
        ] {
            before.push(app.get(&path, token).await.text);
        }
        let running = archive(&app, lobby).await;
        assert!(running.seed.is_none() && running.seed_salt.is_none());
        assert!(running.seed_commitment.is_some());

        let bob_order = json!({"round": 1, "step": "orders", "move": "block", "target": ann});
        let three = app.post(&orders, Some(bob_token), bob_order).await;
        assert_eq!(three.body["resolved"], true, "{}", three.text);
        let round = app
            .get(&format!("/api/v1/lobbies/{lobby}/rounds/1"), None)
            .await
            .body;
        let mine = round["orders"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["player"]["id"] == ann.as_str())
            .unwrap()
            .clone();
        let nonce = mine["nonce"].as_str().unwrap();
        let player = uuid::Uuid::parse_str(ann).unwrap();
        assert_eq!(
            order_commitment(&mine["order"], 1, "orders", player, nonce),
            c2,
            "the revealed order and nonce hash to the last receipt: {mine}"
        );
        assert_ne!(
            order_commitment(&mine["order"], 1, "orders", player, nonce),
            c1
        );
        for text in &before {
            assert!(
                !text.contains(nonce),
                "the nonce showed before the reveal: {text}"
            );
        }
        // The last order, which resolved the step without being stored, is bound too.
        let theirs = round["orders"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["player"]["id"] == bob.as_str())
            .unwrap();
        let bob_id = uuid::Uuid::parse_str(bob).unwrap();
        assert_eq!(
            order_commitment(
                &theirs["order"],
                1,
                "orders",
                bob_id,
                theirs["nonce"].as_str().unwrap()
            ),
            three.body["commitment"].as_str().unwrap()
        );
    }
}

#[tokio::test]
async fn the_seed_commitment_is_public_from_the_start_and_the_seed_matches_it_at_the_end() {
    for app in apps().await {
        let (lobby, host) = app.create_lobby("bst", json!({})).await;
        let created = view(&app, &lobby).await;
        let page = app.get(&format!("/lobbies/{lobby}"), None).await.text;
        assert!(
            !page.contains("herald verify"),
            "only a finished game's page: {page}"
        );
        let commitment = created["seed_commitment"].as_str().unwrap().to_string();
        assert!(created.get("seed").is_none() && created.get("seed_salt").is_none());
        app.join(&lobby, json!({"name": "Ann", "character": "sellsword"}))
            .await;
        app.join(&lobby, json!({"name": "Bob", "character": "sentinel"}))
            .await;
        app.start(&lobby, &host).await;
        let end = app
            .post(
                &format!("/api/v1/lobbies/{lobby}/end"),
                Some(&host),
                json!({"result": "draw"}),
            )
            .await;
        assert_eq!(end.status, StatusCode::OK, "{}", end.text);
        let over = view(&app, &lobby).await;
        assert_eq!(over["seed_commitment"], commitment.as_str());
        let seed: u64 = over["seed"].as_str().unwrap().parse().unwrap();
        assert_eq!(
            seed_commitment(seed, over["seed_salt"].as_str().unwrap()),
            commitment
        );
        clean(&archive(&app, &lobby).await, "ended at once");
        // The finished game's page says how to check it.
        let page = app.get(&format!("/lobbies/{lobby}"), None).await.text;
        assert!(
            page.contains(&format!("href=\"/api/v1/lobbies/{lobby}/archive\"")),
            "{page}"
        );
        assert!(
            page.contains("herald verify") && page.contains(&commitment),
            "{page}"
        );
    }
}

/// Runs `herald verify` on `input` (a path, or `-` with `stdin`); returns its exit code and
/// its output.
fn herald_verify(input: &str, stdin: Option<&str>) -> (i32, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["verify", input])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(pipe);
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap(), text)
}

#[tokio::test]
async fn herald_verify_exits_0_on_a_true_archive_1_on_a_forged_one_and_2_on_garbage() {
    let app = crate::support::sqlite_app().await;
    let mut duel = seat(
        &app,
        "bst",
        json!({"seed": 5}),
        &bst(["razorbeast", "channeler"]),
    )
    .await;
    play_out(&app, &mut duel, 8, &[]).await;
    let honest = archive(&app, &duel.lobby).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    std::fs::write(&path, serde_json::to_string(&honest).unwrap()).unwrap();
    let (code, out) = herald_verify(path.to_str().unwrap(), None);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("OK: everything matches") && out.contains("round 1:"),
        "{out}"
    );
    let (code, out) = herald_verify("-", Some(&serde_json::to_string(&honest).unwrap()));
    assert_eq!(code, 0, "from standard input: {out}");

    let mut forged = honest.clone();
    let last = forged.steps.len() - 1;
    forged.steps[last].pools["players"][1]["name"] = json!("Mallory");
    reseal(&mut forged);
    std::fs::write(&path, serde_json::to_string(&forged).unwrap()).unwrap();
    let (code, out) = herald_verify(path.to_str().unwrap(), None);
    assert_eq!(code, 1, "{out}");
    let at = format!(
        "MISMATCH round {}, step {}, field pools",
        forged.steps[last].round, forged.steps[last].step
    );
    assert!(out.contains(&at), "{at} in {out}");

    std::fs::write(&path, "{\"format\": \"herald-archive/1\"").unwrap();
    assert_eq!(herald_verify(path.to_str().unwrap(), None).0, 2);
    assert_eq!(herald_verify("/nonexistent/archive.json", None).0, 2);
}
