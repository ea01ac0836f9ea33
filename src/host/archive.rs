//! The archive of a game (`GET /api/v1/lobbies/{id}/archive`, docs/fairness.md): everything needed to
//! re-adjudicate it offline, and nothing that is still secret. While the game runs it holds the
//! steps resolved so far with their reveals, public logs, pools and digests; once the game is
//! over it adds the seed, its salt and the acts that replay it.

use serde_json::Value;
use uuid::Uuid;

use super::anonymity::pseudonym_after_end;
use super::chain::commitment_of;
use super::engine::{self, from_stored};
use super::{GameKind, Host, with_game};
use crate::error::AppError;
use crate::fairness::FORMAT;
use crate::fairness::act::{Act, Ledger};
use crate::fairness::archive::{Archive, ArchivedEntrant, ArchivedLobby, ArchivedStep};
use crate::fairness::public_log;
use crate::rules::Game;
use crate::store::{PlayerRow, Snapshot, Status, StepRow};

impl Host {
    /// The lobby's archive, as of its last resolved step.
    pub async fn archive(&self, id: Uuid) -> Result<Archive, AppError> {
        let snapshot = self.snapshot(id).await?;
        let rows = self.store.steps(id, None).await?;
        let mut archive = build(&snapshot, &rows)?;
        archive.messages = self.archived_messages(&snapshot).await?;
        Ok(archive)
    }
}

fn build(snapshot: &Snapshot, rows: &[StepRow]) -> Result<Archive, AppError> {
    let lobby = &snapshot.lobby;
    let finished = lobby.status == Status::Finished;
    let kind: GameKind = lobby.game_kind()?;
    let settings = with_game!(kind, G => public_settings::<G>(snapshot, finished)?);
    let mut steps = Vec::with_capacity(rows.len());
    let mut acts: Vec<Act> = Vec::new();
    for row in rows {
        let filed: Vec<Act> = from_stored(&row.acts)?;
        acts.extend(filed.iter().cloned());
        steps.push(ArchivedStep {
            round: row.round,
            step: row.step.clone(),
            // A running game's acts wait for its end: they would tell nothing the reveal
            // does not, but the archive then holds only what was published.
            acts: finished.then_some(filed),
            revealed: from_stored(&row.revealed)?,
            log: public_log(&from_stored(&row.log)?),
            pools: from_stored(&row.pools)?,
            previous_digest: row.previous_digest.clone(),
            digest: row.digest.clone(),
        });
    }
    acts.extend(Ledger::read(&lobby.fairness).pending);
    Ok(Archive {
        format: FORMAT.to_string(),
        game: kind.id().to_string(),
        lobby: ArchivedLobby {
            id: lobby.id,
            name: lobby.name.clone(),
        },
        status: lobby.status.as_str().to_string(),
        settings,
        entrants: entrants(snapshot, &acts)?,
        seed_commitment: commitment_of(lobby),
        seed: finished.then(|| lobby.seed.to_string()),
        seed_salt: finished.then(|| lobby.seed_salt.clone()).flatten(),
        steps,
        messages: Vec::new(),
    })
}

fn public_settings<G: Game>(snapshot: &Snapshot, finished: bool) -> Result<Value, AppError> {
    let settings = engine::settings::<G>(snapshot)?;
    engine::to_json(&G::public_settings(&settings, finished))
}

/// The players as seated at the start: today's names, with every substitute's rename undone;
/// an anonymous game's pseudonyms, with the real names once it is over (`anonymity.rs`).
fn entrants(snapshot: &Snapshot, acts: &[Act]) -> Result<Vec<ArchivedEntrant>, AppError> {
    let played_as = |p: &PlayerRow| pseudonym_after_end(snapshot, p).unwrap_or(p.name.clone());
    let mut names: Vec<String> = snapshot.players.iter().map(played_as).collect();
    for act in acts.iter().rev() {
        if let Act::Rename { seat, previous, .. } = act
            && let Some(name) = names.get_mut(*seat)
        {
            *name = previous.clone();
        }
    }
    snapshot
        .players
        .iter()
        .zip(names)
        .map(|(player, name)| {
            Ok(ArchivedEntrant {
                id: player.id,
                real_name: pseudonym_after_end(snapshot, player).map(|_| player.name.clone()),
                name,
                join: from_stored(&player.join_data)?,
            })
        })
        .collect()
}
