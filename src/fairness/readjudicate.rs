//! The re-adjudication half of `herald verify`: replays a finished game's acts with the pure
//! rules and compares every step it publishes with the archive's.

use serde_json::Value;

use super::act::{Act, Vote};
use super::archive::{Archive, ArchivedStep};
use super::replay::{Expected, Replay};
use super::report::{HOST_LINE_KINDS, Report, Unreadable};
use crate::rules::Game;

/// The archive's step's revealed orders by seat, and its log without the host's lines.
fn published<G: Game>(
    replay: &Replay<G>,
    step: &ArchivedStep,
) -> (Vec<(usize, Value)>, Vec<Value>) {
    let mut orders: Vec<(usize, Value)> = step
        .revealed
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| !e["order"].is_null())
        .map(|e| {
            let seat = e["player"]["id"]
                .as_str()
                .and_then(|id| uuid::Uuid::parse_str(id).ok())
                .and_then(|id| replay.seat_of(id))
                .unwrap_or(usize::MAX);
            (seat, e["order"].clone())
        })
        .collect();
    orders.sort_by_key(|(seat, _)| *seat);
    let log = step
        .log
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| {
            !e["kind"]
                .as_str()
                .is_some_and(|k| HOST_LINE_KINDS.contains(&k))
        })
        .cloned()
        .collect();
    (orders, log)
}

fn compare<G: Game>(
    replay: &Replay<G>,
    expected: &Expected,
    step: &ArchivedStep,
    report: &mut Report,
) -> bool {
    let at = (step.round, step.step.as_str());
    if (expected.round, expected.step.as_str()) != at {
        report.mismatch(
            at,
            "step",
            format!(
                "the replay resolves round {}, step {} here",
                expected.round, expected.step
            ),
        );
        return false;
    }
    let (orders, log) = published(replay, step);
    let before = report.mismatches.len();
    if orders != expected.orders {
        report.mismatch(
            at,
            "orders",
            "the revealed orders are not those the acts played".into(),
        );
    }
    if log != expected.log {
        let at_entry = log
            .iter()
            .zip(&expected.log)
            .position(|(a, b)| a != b)
            .unwrap_or(log.len().min(expected.log.len()));
        report.mismatch(
            at,
            "log",
            format!(
                "{} game entries published, {} replayed; they differ from entry {at_entry}",
                log.len(),
                expected.log.len()
            ),
        );
    }
    if step.pools != expected.pools {
        report.mismatch(at, "pools", "the pools differ from the replay's".into());
    }
    report.mismatches.len() == before
}

pub(super) fn replay<G: Game>(
    archive: &Archive,
    seed: u64,
    report: &mut Report,
) -> Result<(), Unreadable> {
    let mut replay = match Replay::<G>::start(archive, seed) {
        Ok(replay) => replay,
        Err(e) => {
            report.mismatch((0, "start"), "replay", e);
            return Ok(());
        }
    };
    let mut queue = std::collections::VecDeque::new();
    let mut round_ok: Option<(u32, bool, usize)> = None;
    for (i, step) in archive.steps.iter().enumerate() {
        let at = (step.round, step.step.as_str());
        for act in step.acts.iter().flatten() {
            if *act == Act::DrawVote && !every_entry_voted::<G>(&archive.steps[..=i]) {
                report.mismatch(
                    at,
                    "acts",
                    "the game ends by a draw vote, but not every order of the round's main step voted a draw".into(),
                );
            }
            match replay.apply(act) {
                Ok(published) => queue.extend(published),
                Err(e) => {
                    report.mismatch(at, "acts", e);
                    return Ok(());
                }
            }
        }
        let Some(expected) = queue.pop_front() else {
            report.mismatch(at, "step", "the replay publishes no step here".into());
            return Ok(());
        };
        let aligned = (expected.round, expected.step.as_str()) == at;
        let ok = compare(&replay, &expected, step, report);
        round_ok = match round_ok {
            Some((round, all, n)) if round == step.round => Some((round, all && ok, n + 1)),
            Some((round, all, n)) => {
                report.lines.push(round_line(round, all, n));
                Some((step.round, ok, 1))
            }
            None => Some((step.round, ok, 1)),
        };
        if !aligned {
            return Ok(());
        }
    }
    if let Some((round, all, n)) = round_ok {
        report.lines.push(round_line(round, all, n));
    }
    if let Some(extra) = queue.front() {
        report.mismatch(
            (extra.round, &extra.step),
            "step",
            "the replay publishes a step the archive lacks".into(),
        );
    }
    Ok(())
}

/// Whether every entry of the last main step's reveal among `steps` carries a vote for a draw
/// (docs/table-talk.md, "End votes": the entries are the seats owed an order, every living one).
fn every_entry_voted<G: Game>(steps: &[ArchivedStep]) -> bool {
    let Some(main) = steps.iter().rev().find(|s| s.step == G::MAIN_STEP) else {
        return false;
    };
    let entries = main.revealed.as_array().map(Vec::as_slice).unwrap_or(&[]);
    let draw = serde_json::to_value(Vote::Draw).unwrap_or_default();
    !entries.is_empty() && entries.iter().all(|e| e["vote"] == draw)
}

fn round_line(round: u32, ok: bool, steps: usize) -> String {
    match ok {
        true => format!("round {round}: {steps} step(s) match the re-adjudication"),
        false => format!("round {round}: MISMATCH (see below)"),
    }
}
