//! A resolved round's summary as a notice quotes it (docs/notifications.md): kept in memory from the round's
//! resolution (`host/round_logs.rs`), it must be exactly what the stored log says, for every
//! round of whole games of both games on every backend, host acts included, and the kept path
//! must be the one taken where this process saw the whole round.

use serde_json::{Value, json};
use uuid::Uuid;

use crate::api_fairness::{HostMove, Script, bst, play_out, seat, view};
use crate::support::{TestApp, apps};

/// Checks every round of `lobby` up to its last: where a log was kept, it equals the stored
/// one, quoted in full and cut short. Returns how many rounds were kept, and how many there are.
async fn kept_rounds_agree(app: &TestApp, lobby: &str, what: &str) -> (usize, usize) {
    let id: Uuid = lobby.parse().unwrap();
    let last = view(app, lobby).await["round"].as_u64().unwrap() as u32;
    let mut kept = 0;
    for round in 1..=last {
        for quoted in [12, 3] {
            let stored = app.host.stored_public_log(id, round, quoted).await.unwrap();
            if let Some(log) = app.host.kept_public_log(id, round, quoted) {
                assert_eq!(log, stored, "{what}: round {round}, {quoted} lines quoted");
                assert_eq!(
                    app.host.public_log(id, round, quoted).await.unwrap(),
                    stored
                );
                kept += usize::from(quoted == 12);
            }
        }
    }
    (kept, last as usize)
}

/// Sixteen players' joins.
fn melee() -> Vec<Value> {
    (1..=16)
        .map(|n| json!({"name": format!("Player {n}")}))
        .collect()
}

#[tokio::test]
async fn a_rounds_kept_summary_is_the_stored_logs_for_every_round_of_both_games() {
    for app in apps().await {
        let scripts: [Script; 3] = [
            &[],
            &[(1, HostMove::ResolveNow), (3, HostMove::Kick)],
            &[(2, HostMove::End("{}"))],
        ];
        let mut melee_lobby = String::new();
        for (i, script) in scripts.into_iter().enumerate() {
            let settings = json!({"max_players": 16, "max_rounds": 8, "miss_limit": 2});
            let mut game = seat(&app, "crossing-swords", settings, &melee()).await;
            play_out(&app, &mut game, 40 + i as u64, script).await;
            let what = format!("{} cs {i}", app.backend);
            let (kept, rounds) = kept_rounds_agree(&app, &game.lobby, &what).await;
            if i == 0 {
                // A melee's round is one step: every round was seen whole, and sixteen
                // players' round logs run past the dozen lines quoted.
                assert_eq!(kept, rounds, "{what}: every round kept");
                let id: Uuid = game.lobby.parse().unwrap();
                let first = app.host.kept_public_log(id, 1, 12).unwrap();
                assert!(first.lines > first.first.len(), "{what}: {first:?}");
                melee_lobby = game.lobby.clone();
            }
        }
        let duels: [(Script, [&str; 2]); 2] = [
            (&[], ["sellsword", "razorbeast"]),
            (
                &[
                    (2, HostMove::ResolveNow),
                    (4, HostMove::End(r#"{"result": "draw"}"#)),
                ],
                ["warpriest", "channeler"],
            ),
        ];
        for (i, (script, characters)) in duels.into_iter().enumerate() {
            let mut game = seat(
                &app,
                "bst",
                json!({"seed": 900 + i as u64}),
                &bst(characters),
            )
            .await;
            play_out(&app, &mut game, 50 + i as u64, script).await;
            let what = format!("{} bst {i}", app.backend);
            let (kept, rounds) = kept_rounds_agree(&app, &game.lobby, &what).await;
            // A duel's rounds have several steps and an opening: those this process saw whole
            // were kept.
            assert!(kept > 0 || rounds == 1, "{what}: {kept} of {rounds} kept");
        }
        // Another process on the same database saw none of it: it reads the stored log.
        let other = app.second_server().await;
        let id: Uuid = melee_lobby.parse().unwrap();
        assert!(app.host.kept_public_log(id, 1, 12).is_some());
        assert_eq!(other.host.kept_public_log(id, 1, 12), None);
        assert_eq!(
            other.host.public_log(id, 1, 12).await.unwrap(),
            app.host.public_log(id, 1, 12).await.unwrap()
        );
    }
}
