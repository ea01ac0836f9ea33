//! `herald verify`: checks an archive offline. The seed against its commitment, every step's
//! digest against its chain, every revealed order against its commitment, and (once the game
//! is over and its seed published) every step against a fresh re-adjudication from the seed
//! and the recorded acts. A mismatch names its round, its step and the field.

use super::archive::{Archive, ArchivedStep};
use super::readjudicate::replay;
pub use super::report::{HOST_LINE_KINDS, Mismatch, Report, Unreadable};
use super::{FORMATS_READ, StepContent, order_commitment, seed_commitment, step_digest};
use crate::games::{GameKind, with_game};

/// Reads an archive from its text.
pub fn read(text: &str) -> Result<Archive, Unreadable> {
    let archive: Archive =
        serde_json::from_str(text).map_err(|e| Unreadable(format!("not a Herald archive: {e}")))?;
    if !FORMATS_READ.contains(&archive.format.as_str()) {
        return Err(Unreadable(format!(
            "unknown archive format {:?} (this verifier reads {})",
            archive.format,
            FORMATS_READ.join(", ")
        )));
    }
    Ok(archive)
}

/// Checks an archive; see the module's documentation.
pub fn verify(archive: &Archive) -> Result<Report, Unreadable> {
    let kind: GameKind = archive
        .game
        .parse()
        .map_err(|_| Unreadable(format!("unknown game {:?}", archive.game)))?;
    let mut report = Report::default();
    let seed = check_seed(archive, &mut report);
    check_chain(archive, &mut report);
    check_commitments(archive, &mut report);
    let complete = archive.steps.iter().all(|s| s.acts.is_some());
    match (seed, complete, archive.status.as_str()) {
        (Some(seed), true, "finished") => {
            report.replayed = true;
            with_game!(kind, G => replay::<G>(archive, seed, &mut report))?;
        }
        _ => report.lines.push(
            "not re-adjudicated: the game is not over, so its seed and acts are not published yet"
                .into(),
        ),
    }
    Ok(report)
}

fn check_seed(archive: &Archive, report: &mut Report) -> Option<u64> {
    let (Some(seed), Some(salt)) = (&archive.seed, &archive.seed_salt) else {
        return None;
    };
    let Ok(value) = seed.parse::<u64>() else {
        report.mismatch((0, "start"), "seed", format!("{seed:?} is not a seed"));
        return None;
    };
    let commitment = seed_commitment(value, salt);
    match &archive.seed_commitment {
        Some(published) if *published == commitment => {
            report
                .lines
                .push(format!("seed {value}: matches the commitment {published}"));
        }
        published => report.mismatch(
            (0, "start"),
            "seed",
            format!("the seed and salt hash to {commitment}, the commitment was {published:?}"),
        ),
    }
    Some(value)
}

fn content(step: &ArchivedStep) -> StepContent<'_> {
    StepContent {
        round: step.round,
        step: &step.step,
        revealed: &step.revealed,
        log: &step.log,
        pools: &step.pools,
    }
}

fn check_chain(archive: &Archive, report: &mut Report) {
    let mut head = archive.seed_commitment.clone().unwrap_or_default();
    for step in &archive.steps {
        let at = (step.round, step.step.as_str());
        if step.previous_digest != head {
            report.mismatch(
                at,
                "previous_digest",
                format!("{} does not follow {head}", step.previous_digest),
            );
        }
        let digest = step_digest(&step.previous_digest, content(step));
        if digest != step.digest {
            report.mismatch(
                at,
                "digest",
                format!("the step hashes to {digest}, not {}", step.digest),
            );
        }
        head = step.digest.clone();
    }
    report.lines.push(format!(
        "chain: {} step digests checked",
        archive.steps.len()
    ));
}

fn check_commitments(archive: &Archive, report: &mut Report) {
    let mut count = 0;
    for step in &archive.steps {
        let at = (step.round, step.step.as_str());
        let Some(entries) = step.revealed.as_array() else {
            report.mismatch(at, "orders", "the reveal is not a list".into());
            continue;
        };
        for entry in entries.iter().filter(|e| e["source"] == "order") {
            let player = entry["player"]["id"]
                .as_str()
                .and_then(|id| uuid::Uuid::parse_str(id).ok())
                .unwrap_or_default();
            let Some(nonce) = entry["nonce"].as_str() else {
                report.mismatch(at, "nonce", format!("the order of {player} has no nonce"));
                continue;
            };
            let commitment =
                order_commitment(&entry["order"], step.round, &step.step, player, nonce);
            if entry["commitment"].as_str() != Some(commitment.as_str()) {
                report.mismatch(
                    at,
                    "commitment",
                    format!(
                        "the order of {player} with its nonce hashes to {commitment}, not {}",
                        entry["commitment"]
                    ),
                );
            }
            count += 1;
        }
    }
    report
        .lines
        .push(format!("orders: {count} commitments checked"));
}
