//! My games (`docs/web.md`): a personal key, kept in a browser's cookie, remembers
//! which lobbies that browser hosts or plays in, so the home page can list them across lobbies
//! and the list can be carried to another device. The key is a token like the others
//! (256 random bits, stored only as its SHA-256); the lobbies' own tokens are never stored
//! with it: each stays in its lobby's cookie on the device that used it.

use uuid::Uuid;

use super::auth::hash_token;
use super::views::{LobbySummary, deadline_at};
use super::{Host, engine, with_game};
use crate::error::AppError;
use crate::fairness::hex;
use crate::rules::{Game, Seat};
use crate::store::{PlayerRow, Snapshot, Status};

/// What a personal key holds in a lobby.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MyRole {
    Host,
    Player,
}

impl MyRole {
    fn as_str(self) -> &'static str {
        match self {
            MyRole::Host => "host",
            MyRole::Player => "player",
        }
    }

    fn parse(text: &str) -> Result<MyRole, AppError> {
        match text {
            "host" => Ok(MyRole::Host),
            "player" => Ok(MyRole::Player),
            other => Err(AppError::Internal(format!(
                "unknown role {other:?} in my_games"
            ))),
        }
    }
}

/// One of my games: the lobby's public summary and the role held in it.
#[derive(Clone, Debug)]
pub struct MyGame {
    pub lobby: LobbySummary,
    pub role: MyRole,
}

/// A seat's mark: what a browser keeps beside its games to tell, on the home page, which seat
/// of a lobby it plays (`docs/web.md`, "Your turn"). Derived from the token's stored hash, so
/// it opens nothing (the token is never stored or sent with it) and stops matching the moment
/// the seat gets a new token (a substitute, a new link).
pub fn seat_mark(token: &str) -> String {
    mark_of_hash(&hash_token(token))
}

fn mark_of_hash(token_hash: &str) -> String {
    use sha2::{Digest, Sha256};
    hex(&Sha256::digest(
        format!("herald seat mark {token_hash}").as_bytes(),
    ))
}

/// A game whose open step waits for the marked seat's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MyTurn {
    pub lobby: Uuid,
    /// When the step resolves without it (RFC 3339 UTC), if it has a deadline and the clock
    /// runs.
    pub deadline_at: Option<String>,
}

/// Whether `key` has the shape of a personal key (64 hex digits), so that nothing else is
/// hashed or looked up.
pub fn well_formed_key(key: &str) -> bool {
    key.len() == 64 && key.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Whether the running game of `snapshot` waits for `player`'s answer: owed, not yet sent.
fn awaits(snapshot: &Snapshot, player: &PlayerRow) -> Result<bool, AppError> {
    if snapshot.lobby.status != Status::Running {
        return Ok(false);
    }
    let seat = Seat(player.seat);
    let kind = snapshot.lobby.game_kind()?;
    let owes = with_game!(kind, G => engine::state::<G>(snapshot)?
        .as_deref()
        .is_some_and(|state| G::owes(state).contains(&seat)));
    Ok(owes && !snapshot.orders.iter().any(|o| o.player_id == player.id))
}

impl Host {
    /// Remembers `role` in `lobby` under the personal `key`.
    pub async fn remember_game(
        &self,
        key: &str,
        lobby: Uuid,
        role: MyRole,
    ) -> Result<(), AppError> {
        Ok(self
            .store
            .remember_game(&hash_token(key), lobby, role.as_str())
            .await?)
    }

    /// Forgets `role` in `lobby` under the personal `key`.
    pub async fn forget_game(&self, key: &str, lobby: Uuid, role: MyRole) -> Result<(), AppError> {
        Ok(self
            .store
            .forget_game(&hash_token(key), lobby, role.as_str())
            .await?)
    }

    /// The games remembered under `key`, newest lobby first (unlisted ones included: they are
    /// this person's own).
    pub async fn my_games(&self, key: &str) -> Result<Vec<MyGame>, AppError> {
        let rows = self.store.my_games(&hash_token(key)).await?;
        rows.iter()
            .map(|row| {
                Ok(MyGame {
                    lobby: LobbySummary::of(&row.lobby)?,
                    role: MyRole::parse(&row.role)?,
                })
            })
            .collect()
    }

    /// Of the running games a browser marks a seat in (`marks`: lobby and [`seat_mark`]),
    /// those whose open step owes the marked seat an answer not yet sent. A mark that matches
    /// no seat (a stale one, a forged one) names no turn.
    pub async fn my_turns(&self, marks: &[(Uuid, String)]) -> Result<Vec<MyTurn>, AppError> {
        let mut turns = Vec::new();
        for (lobby, mark) in marks {
            let Some(snapshot) = self.store.snapshot(*lobby).await? else {
                continue;
            };
            if snapshot.lobby.status != Status::Running {
                continue;
            }
            let Some(player) = snapshot
                .players
                .iter()
                .find(|p| mark_of_hash(&p.token_hash) == *mark)
            else {
                continue;
            };
            if awaits(&snapshot, player)? {
                turns.push(MyTurn {
                    lobby: *lobby,
                    deadline_at: deadline_at(&snapshot.lobby),
                });
            }
        }
        Ok(turns)
    }

    /// The seats `profile` holds now, as a signed-in browser's games: each lobby, with its
    /// turn when the open step waits for that seat's answer (`docs/web.md`, "My games on any
    /// device"). Nothing in it opens a seat: the play page takes the browser's session.
    pub async fn my_seats(&self, profile: Uuid) -> Result<Vec<(MyGame, Option<MyTurn>)>, AppError> {
        let mut games = Vec::new();
        for seat in self.store.profile_seats(profile).await? {
            let Some(snapshot) = self.store.snapshot(seat.lobby).await? else {
                continue;
            };
            let turn = match snapshot.players.iter().find(|p| p.id == seat.player) {
                Some(player) if awaits(&snapshot, player)? => Some(MyTurn {
                    lobby: seat.lobby,
                    deadline_at: deadline_at(&snapshot.lobby),
                }),
                Some(_) | None => None,
            };
            let game = MyGame {
                lobby: LobbySummary::of(&snapshot.lobby)?,
                role: MyRole::Player,
            };
            games.push((game, turn));
        }
        Ok(games)
    }

    /// Whether `key` remembers any game (a carry link for an unknown key is refused).
    pub async fn key_known(&self, key: &str) -> Result<bool, AppError> {
        Ok(self.store.key_known(&hash_token(key)).await?)
    }

    /// Puts the games of key `from` under key `to` as well.
    pub async fn merge_games(&self, from: &str, to: &str) -> Result<(), AppError> {
        Ok(self
            .store
            .merge_games(&hash_token(from), &hash_token(to))
            .await?)
    }
}
