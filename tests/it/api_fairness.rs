//! Provable fairness over HTTP (docs/fairness.md), on every backend: archives of random games of both
//! games (with a substitute, a kick, a step the host resolved early with defaults, an early end)
//! re-adjudicate cleanly, and `herald verify`'s exit codes. Receipts and the seed's commitment:
//! `api_fairness_receipts.rs`; tampering: `api_fairness_tamper.rs`.

use axum::body::Body;
use axum::http::{Method, StatusCode};
use rand::SeedableRng;
use serde_json::{Value, json};

use herald::bots::policy::{Strategy, answer};
use herald::fairness::archive::Archive;
use herald::fairness::verify::verify;

use crate::api_fairness_tamper::reseal;
use crate::support::{TestApp, apps};

/// What the host does at a given turn of the driving loop.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum HostMove {
    /// A substitute takes seat 1.
    Replace,
    /// The last owing player sends nothing and the host resolves the step now (a default or a
    /// fallback plays for them).
    ResolveNow,
    /// The host kicks the third seat (a 409 if it is already out).
    Kick,
    /// The host ends the game (its ending body).
    End(&'static str),
}

/// A host's script: what it does before which turn.
pub(crate) type Script = &'static [(usize, HostMove)];

pub(crate) struct Game {
    pub lobby: String,
    pub host: String,
    pub players: Vec<(String, String)>,
}

pub(crate) async fn seat(app: &TestApp, game: &str, settings: Value, joins: &[Value]) -> Game {
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

pub(crate) async fn view(app: &TestApp, lobby: &str) -> Value {
    app.get(&format!("/api/v1/lobbies/{lobby}"), None)
        .await
        .body
}

/// Plays random legal answers to the end, doing `script[i]` before turn `i`.
pub(crate) async fn play_out(
    app: &TestApp,
    game: &mut Game,
    seed: u64,
    script: &[(usize, HostMove)],
) {
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
                let third = game.players[2].0.clone();
                let path = format!("/api/v1/lobbies/{lobby}/players/{third}/kick");
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
        if silent == 1 && now["game"] == "crossing-swords" {
            // The silent player left a fallback order: it stands in, if legal now.
            let (_, token) = owing.last().unwrap();
            let target = &owing[0].0;
            let body = json!({"move": "block", "target": target}).to_string();
            let path = format!("/api/v1/lobbies/{lobby}/me/fallback");
            let reply = app
                .send(Method::PUT, &path, Some(token), Some(Body::from(body)))
                .await;
            assert_eq!(reply.status, StatusCode::OK, "fallback: {}", reply.text);
        }
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

pub(crate) async fn archive(app: &TestApp, lobby: &str) -> Archive {
    let reply = app
        .get(&format!("/api/v1/lobbies/{lobby}/archive"), None)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "archive: {}", reply.text);
    assert_eq!(reply.body["format"], "herald-archive/2");
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

pub(crate) fn clean(archive: &Archive, what: &str) {
    let report = verify(archive).unwrap();
    assert!(
        report.mismatches.is_empty(),
        "{what}: {:#?}\n{}",
        report.mismatches,
        report.lines.join("\n")
    );
    assert!(report.replayed, "{what}: not re-adjudicated");
}

pub(crate) fn crossing_swords(players: usize) -> Vec<Value> {
    ["Ann", "Bob", "Cid", "Dan"][..players]
        .iter()
        .map(|name| json!({"name": name}))
        .collect()
}

pub(crate) fn bst(characters: [&str; 2]) -> Vec<Value> {
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
            // The second game also has the missed-turn policy remove whoever lets a step pass.
            let mut settings = cs.clone();
            if i == 1 {
                settings["miss_limit"] = json!(1);
            }
            let mut game = seat(&app, "crossing-swords", settings, &crossing_swords(4)).await;
            play_out(&app, &mut game, 10 + i as u64, script).await;
            let archived = archive(&app, &game.lobby).await;
            clean(&archived, &format!("{} cs {i}", app.backend));
            if i == 1 {
                let missed = archived
                    .steps
                    .iter()
                    .flat_map(|s| s.log.as_array().unwrap());
                let kicks = missed.filter(|e| e["kind"] == "missed-turns").count();
                assert_eq!(kicks, 1, "the policy's kick was replayed");
                let acts = kinds(&archived);
                let kick_acts = acts.iter().filter(|k| *k == "kick").count();
                assert_eq!(kick_acts, 2, "the policy's kick and the host's: {acts:?}");
            }
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

/// A version 1 archive (`tests/fixtures/archive-v1-crossing-swords.json`: a three-player
/// Crossing Swords game of two rounds, in version 1's shape, without `messages`) still
/// verifies with the built binary (docs/table-talk.md, "The archive"). The file is kept as it
/// was written, so that a change to how archives are read cannot drop the old shape unseen.
#[test]
fn herald_verify_reads_a_version_1_archive_fixture() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/archive-v1-crossing-swords.json"
    );
    let (code, out) = herald_verify(fixture, None);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("OK: everything matches") && out.contains("round 2:"),
        "{out}"
    );
    let text = std::fs::read_to_string(fixture).unwrap();
    assert!(text.contains("\"format\":\"herald-archive/1\"") && !text.contains("\"messages\""));
}
