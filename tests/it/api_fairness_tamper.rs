//! Tampered archives (docs/fairness.md): one changed order, a changed pool, a dropped log line, a
//! swapped nonce, a wrong seed; each is named at its round and step by `herald verify`'s
//! checks, whether or not the forger recomputed the chain of digests.

use serde_json::json;

use herald::fairness::archive::Archive;
use herald::fairness::verify::{Mismatch, verify};
use herald::fairness::{StepContent, seed_commitment, step_digest};

use crate::api_fairness::{archive, bst, clean, crossing_swords, play_out, seat};
use crate::support::apps;

/// A tampering: its name, what it does, the fields it may be caught by as it is, and those
/// once the forger has recomputed the chain.
type Tampering<'a> = (
    &'a str,
    &'a dyn Fn(&mut Archive),
    &'a [&'a str],
    &'a [&'a str],
);

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
pub(crate) fn reseal(archive: &mut Archive) {
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
