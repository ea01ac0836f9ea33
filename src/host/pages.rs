//! What the web pages need from the host beyond the JSON API: who a browser's cookies say it
//! is in a lobby (without acting), and how far the lobby's event stream has got (so a page's
//! live updates start after what it already shows).

use uuid::Uuid;

use super::Host;
use super::auth::{Caller, Presented, identify};
use super::rounds::{RoundView, is_resolved, round_view};
use super::substitutes::{self, Substitute};
use crate::error::AppError;
use crate::events::EventKind;
use crate::store::StepRow;

/// A seated player as the pages name them.
#[derive(Clone, Debug)]
pub struct SeatedPlayer {
    pub id: Uuid,
    pub name: String,
    pub seat: usize,
}

/// How a player left a running game other than by the rules: the `reason` of their
/// `player-kicked` event.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Removal {
    /// The host kicked them.
    ByHost,
    /// The missed-turn policy kicked them after this many steps missed in a row.
    MissedTurns(i64),
}

/// A `player-kicked` event's data, as `resolve::write_kick` writes it.
#[derive(serde::Deserialize)]
struct Kicked {
    player: KickedPlayer,
    reason: KickedWhy,
    #[serde(default)]
    misses: i64,
}

#[derive(serde::Deserialize)]
struct KickedPlayer {
    id: Uuid,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
enum KickedWhy {
    Host,
    MissedTurns,
}

/// Who a browser is in one lobby: its host, one of its players, both (a host who also plays,
/// with both cookies), or nobody.
#[derive(Clone, Debug, Default)]
pub struct Viewer {
    pub is_host: bool,
    pub player: Option<SeatedPlayer>,
}

/// The published history of a lobby: its resolved rounds, oldest first, and every
/// substitution so far (the running round's included).
#[derive(Debug)]
pub struct History {
    pub rounds: Vec<RoundView>,
    pub substitutes: Vec<Substitute>,
}

impl Host {
    /// Identifies the holder of a host cookie and a player cookie in lobby `id`. A token the
    /// lobby does not know (an old cookie), or one of the wrong role, simply counts for nothing.
    pub async fn viewer(
        &self,
        id: Uuid,
        host_token: Option<&str>,
        player_token: Option<&str>,
    ) -> Result<Viewer, AppError> {
        let snapshot = self.snapshot(id).await?;
        let mut viewer = Viewer::default();
        if let Some(token) = host_token {
            viewer.is_host = matches!(
                identify(&snapshot, &Presented::new(Some(token))),
                Ok(Caller::Host)
            );
        }
        // A profile's credential that no longer works (a revoked key, an ended session) counts
        // for nothing too.
        let presented = match player_token {
            Some(token) => self.presented(Some(token)).await.ok(),
            None => None,
        };
        if let Some(presented) = presented
            && let Ok(Caller::Player(p)) = identify(&snapshot, &presented)
        {
            viewer.player = Some(SeatedPlayer {
                id: p.id,
                name: p.name.clone(),
                seat: p.seat,
            });
        }
        Ok(viewer)
    }

    /// Every resolved round, oldest first, as [`Host::round`] shows each (with the private log
    /// lines of the player whose token is given), read in one pass over the stored steps.
    pub async fn history(&self, id: Uuid, player_token: Option<&str>) -> Result<History, AppError> {
        self.latest_rounds(id, player_token, usize::MAX).await
    }

    /// The `last` resolved rounds, oldest first, as [`Host::history`] shows them: only those
    /// are read into views, so a long game's lobby page costs what a short one's does.
    pub async fn latest_rounds(
        &self,
        id: Uuid,
        player_token: Option<&str>,
        last: usize,
    ) -> Result<History, AppError> {
        let snapshot = self.snapshot(id).await?;
        let presented = match player_token {
            Some(token) => self.presented(Some(token)).await.ok(),
            None => None,
        };
        let viewer_seat = presented.and_then(|presented| match identify(&snapshot, &presented) {
            Ok(Caller::Player(p)) => Some(p.seat),
            Ok(Caller::Host) | Err(_) => None,
        });
        let all = self.store.steps(id, None).await?;
        let substitutes = substitutes::of(&snapshot, &all)?;
        let mut rounds: Vec<Vec<StepRow>> = Vec::new();
        for step in all {
            if !is_resolved(&snapshot, step.round) {
                continue;
            }
            match rounds.last_mut() {
                Some(steps) if steps[0].round == step.round => steps.push(step),
                _ => rounds.push(vec![step]),
            }
        }
        Ok(History {
            rounds: rounds
                .iter()
                .skip(rounds.len().saturating_sub(last))
                .map(|steps| round_view(steps, viewer_seat))
                .collect::<Result<_, _>>()?,
            substitutes,
        })
    }

    /// Each seated player's steps missed in a row (docs/deadlines.md, "Missed turns"), by id,
    /// for the host panel's seats.
    pub async fn misses(&self, id: Uuid) -> Result<Vec<(Uuid, i64)>, AppError> {
        let snapshot = self.snapshot(id).await?;
        Ok(snapshot.players.iter().map(|p| (p.id, p.misses)).collect())
    }

    /// The number of the lobby's latest public event (0 if none): the counter its commits
    /// keep beside the events, so that no event need be read.
    pub async fn last_event_seq(&self, id: Uuid) -> Result<i64, AppError> {
        Ok(self.snapshot(id).await?.lobby.event_seq)
    }

    /// Whether `player` was kicked from the lobby's game, and by what: read from the lobby's
    /// `player-kicked` events (a player out by the rules has none).
    pub async fn removal(&self, id: Uuid, player: &str) -> Result<Option<Removal>, AppError> {
        let Ok(player) = Uuid::parse_str(player) else {
            return Ok(None);
        };
        let mut after = 0;
        loop {
            let page = self.store.events_after(id, after).await?;
            let Some(last) = page.last() else {
                return Ok(None);
            };
            after = last.seq;
            for row in &page {
                if EventKind::parse(&row.kind) != Some(EventKind::PlayerKicked) {
                    continue;
                }
                let Ok(kicked) = serde_json::from_str::<Kicked>(&row.data) else {
                    continue;
                };
                if kicked.player.id == player {
                    return Ok(Some(match kicked.reason {
                        KickedWhy::Host => Removal::ByHost,
                        KickedWhy::MissedTurns => Removal::MissedTurns(kicked.misses),
                    }));
                }
            }
        }
    }
}
