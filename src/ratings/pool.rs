//! Who is rated against whom: one pool per game and kind (`docs/ratings.md`, "Pools"), and
//! which rating system a game's pools use, asked of the game itself.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::games::{GameKind, GameUi, with_game};
use crate::rules::Game;

/// Whose games a pool rates: humans and bots never share a pool (`docs/ratings.md`, "Who is
/// rated"). Named in the plural, as the pool's name spells it (`bst/bots`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Humans,
    Bots,
}

impl Kind {
    /// Both kinds, humans first.
    pub const ALL: [Kind; 2] = [Kind::Humans, Kind::Bots];

    /// The kind's word in a pool's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Humans => "humans",
            Kind::Bots => "bots",
        }
    }

    /// The one kind every seat of a rated game is of, or `MixedKinds` when humans and bots
    /// sit together (the start gate's 422 `mixed-kinds`; such a game is never rated). `None`
    /// when there are no seats to judge.
    pub fn common(kinds: impl IntoIterator<Item = Kind>) -> Result<Option<Kind>, MixedKinds> {
        let mut kinds = kinds.into_iter();
        let Some(first) = kinds.next() else {
            return Ok(None);
        };
        match kinds.all(|kind| kind == first) {
            true => Ok(Some(first)),
            false => Err(MixedKinds),
        }
    }
}

/// Humans and bots in one game: it cannot be rated, so a rated lobby refuses to start.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a rated game seats only humans or only bots")]
pub struct MixedKinds;

impl MixedKinds {
    /// The machine-readable code the start gate answers with.
    pub const CODE: &'static str = "mixed-kinds";
}

/// The rating system of a game's pools. A duel (two players, ended by a winner or a draw) is
/// rated by Glicko-2, every other game by Weng-Lin, which ranks any number of players.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum System {
    Glicko2,
    WengLin,
}

impl System {
    /// The system `game`'s pools use, as the game declares itself: a duel
    /// ([`GameUi::DUEL`]) by Glicko-2, any other game by Weng-Lin.
    pub fn of(game: GameKind) -> System {
        match with_game!(game, G => <G as GameUi>::DUEL) {
            true => System::Glicko2,
            false => System::WengLin,
        }
    }
}

/// A rating pool: one game, one kind of player (`crossing-swords/humans`, `bst/bots`). Written
/// and read as that string (`Display`, `FromStr`, serde).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Pool {
    pub game: GameKind,
    pub kind: Kind,
}

impl Pool {
    pub fn new(game: GameKind, kind: Kind) -> Pool {
        Pool { game, kind }
    }

    /// The rating system of this pool's game.
    pub fn system(self) -> System {
        System::of(self.game)
    }

    /// Every pool, game by game in registration order, humans before bots.
    pub fn all() -> impl Iterator<Item = Pool> {
        GameKind::ALL
            .into_iter()
            .flat_map(|game| Kind::ALL.map(|kind| Pool::new(game, kind)))
    }
}

fn game_id(game: GameKind) -> &'static str {
    with_game!(game, G => <G as Game>::ID)
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", game_id(self.game), self.kind.as_str())
    }
}

/// Why a string is not a pool's name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    #[error("a pool is named `game/kind`, e.g. `{example}`")]
    Shape { example: String },
    #[error("no game `{0}` is hosted here")]
    UnknownGame(String),
    #[error("a pool's kind is `humans` or `bots`, not `{0}`")]
    UnknownKind(String),
}

impl PoolError {
    /// The machine-readable code of the refusal (the API's 404 for an unknown pool).
    pub fn code(&self) -> &'static str {
        match self {
            PoolError::Shape { .. } => "bad-pool",
            PoolError::UnknownGame(_) => "unknown-game",
            PoolError::UnknownKind(_) => "unknown-kind",
        }
    }
}

impl FromStr for Pool {
    type Err = PoolError;

    fn from_str(text: &str) -> Result<Pool, PoolError> {
        let Some((game, kind)) = text.split_once('/') else {
            return Err(PoolError::Shape {
                example: Pool::new(GameKind::ALL[0], Kind::Humans).to_string(),
            });
        };
        let game = GameKind::ALL
            .into_iter()
            .find(|g| game_id(*g) == game)
            .ok_or_else(|| PoolError::UnknownGame(game.to_owned()))?;
        let kind = Kind::ALL
            .into_iter()
            .find(|k| k.as_str() == kind)
            .ok_or_else(|| PoolError::UnknownKind(kind.to_owned()))?;
        Ok(Pool { game, kind })
    }
}

impl From<Pool> for String {
    fn from(pool: Pool) -> String {
        pool.to_string()
    }
}

impl TryFrom<String> for Pool {
    type Error = PoolError;

    fn try_from(text: String) -> Result<Pool, PoolError> {
        text.parse()
    }
}

/// Pools in the order of their names, so that a fold's pools are listed the same way
/// whatever order the games were registered in.
impl Ord for Pool {
    fn cmp(&self, other: &Pool) -> Ordering {
        (game_id(self.game), self.kind).cmp(&(game_id(other.game), other.kind))
    }
}

impl PartialOrd for Pool {
    fn partial_cmp(&self, other: &Pool) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pool_reads_back_from_its_name_and_its_json() {
        for pool in Pool::all() {
            let name = pool.to_string();
            assert_eq!(name.parse::<Pool>().unwrap(), pool);
            let json = serde_json::to_value(pool).unwrap();
            assert_eq!(json, serde_json::Value::from(name.clone()));
            assert_eq!(serde_json::from_value::<Pool>(json).unwrap(), pool);
        }
        assert_eq!(
            "crossing-swords/humans".parse::<Pool>().unwrap(),
            Pool::new(GameKind::CrossingSwords, Kind::Humans)
        );
        assert_eq!(Pool::new(GameKind::Bst, Kind::Bots).to_string(), "bst/bots");
    }

    #[test]
    fn a_name_that_is_no_pool_says_which_part_is_wrong() {
        assert!(matches!(
            "bst".parse::<Pool>(),
            Err(PoolError::Shape { .. })
        ));
        assert_eq!(
            "chess/humans".parse::<Pool>(),
            Err(PoolError::UnknownGame("chess".into()))
        );
        assert_eq!(
            "bst/people".parse::<Pool>(),
            Err(PoolError::UnknownKind("people".into()))
        );
        assert_eq!(
            "bst/humans/x".parse::<Pool>(),
            Err(PoolError::UnknownKind("humans/x".into()))
        );
        assert!(serde_json::from_str::<Pool>("\"bst/robots\"").is_err());
    }

    #[test]
    fn duels_are_rated_by_glicko_2_and_the_melee_by_weng_lin() {
        assert_eq!(System::of(GameKind::Bst), System::Glicko2);
        assert_eq!(System::of(GameKind::ScaleOfStyles), System::Glicko2);
        assert_eq!(System::of(GameKind::CrossingSwords), System::WengLin);
    }

    #[test]
    fn a_rated_game_seats_one_kind() {
        assert_eq!(Kind::common([]), Ok(None));
        assert_eq!(Kind::common([Kind::Bots, Kind::Bots]), Ok(Some(Kind::Bots)));
        assert_eq!(Kind::common([Kind::Humans, Kind::Bots]), Err(MixedKinds));
    }
}
