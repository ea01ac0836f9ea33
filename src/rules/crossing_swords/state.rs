//! The game state carried between turns (rulings §2.1) and its public views.

use serde::{Deserialize, Serialize};

use super::events::{EndReason, PlayerRef};
use super::moves::{Attack, Category, Move};
use super::rulebook::Rulebook;
use crate::rules::{PlayerId, Seat};

/// The whole game: every player's pools and carry-overs, the round, and the end once reached.
/// Crossing Swords has no secrets outside the pending orders, which the host keeps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The turn whose orders fall due, counted from 1 (after the end: the last turn played).
    pub round: u32,
    /// Ruling 31's stall guard, copied from the settings.
    pub max_rounds: Option<u32>,
    /// The other variant keys of §3.1, copied from the settings; every step reads them here.
    /// A state stored before they existed reads as the default game.
    #[serde(default)]
    pub rules: Rulebook,
    /// Every player, dead or alive, in seat (sign-up) order (G1).
    pub players: Vec<Fighter>,
    /// Set once the game is over (R13).
    pub end: Option<End>,
    /// What the host did since the turn's orders fell due (a kick), logged at the head of the
    /// turn's resolution so that the round's log tells it where it affected play.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub host_log: Vec<super::events::Event>,
}

/// One player's state (rulings §2.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    /// The player's id.
    pub id: PlayerId,
    /// The name shown to others.
    pub name: String,
    /// Life Pool counters (G2, G5).
    pub hp: u32,
    /// Victory Pool counters (G2, G5).
    pub vp: u32,
    /// False once dead (R12, Ruling 30).
    pub alive: bool,
    /// `focus_prev`: the target of this player's un-negated Focus last turn (R11, Ruling 12).
    pub focus: Option<Seat>,
    /// `dodge_prev`: the target of this player's Dodge last turn (R11, Ruling 21).
    pub dodge: Option<Seat>,
}

/// How and with whom the game ended (R13).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct End {
    /// Why it ended.
    pub reason: EndReason,
    /// Everyone with the most VP, in seat order (G7, Ruling 32).
    pub winners: Vec<Seat>,
}

impl State {
    /// The seats still in the game, in seat order (Ruling 30).
    pub fn living(&self) -> impl Iterator<Item = Seat> + '_ {
        self.players
            .iter()
            .enumerate()
            .filter(|(_, p)| p.alive)
            .map(|(i, _)| Seat(i))
    }

    /// The player at `seat`, if there is one.
    pub fn fighter(&self, seat: Seat) -> Option<&Fighter> {
        self.players.get(seat.0)
    }

    /// The seat of the player with this id.
    pub fn seat_of(&self, id: PlayerId) -> Option<Seat> {
        self.players.iter().position(|p| p.id == id).map(Seat)
    }

    /// A player as events and prompts name him.
    pub fn player_ref(&self, seat: Seat) -> PlayerRef {
        let p = &self.players[seat.0];
        PlayerRef {
            id: p.id,
            name: p.name.clone(),
        }
    }

    /// Why `target` is not a legal target of `mv` for `seat` now, if it is not (Rulings 3, 30).
    pub fn target_problem(&self, seat: Seat, mv: Move, target: Seat) -> Option<TargetProblem> {
        match self.fighter(target) {
            None => Some(TargetProblem::Unknown),
            Some(t) if !t.alive => Some(TargetProblem::Dead),
            Some(_) if target == seat && !self.may_target_self(mv) => Some(TargetProblem::OwnSeat),
            Some(_) => None,
        }
    }

    /// Whether `mv` may name its own player: Ruling 3, and with `self_attacks` (§3.2) the
    /// Attack cards too; Taunt and Halt never may.
    pub fn may_target_self(&self, mv: Move) -> bool {
        mv.may_target_self() || (self.rules.self_attacks && mv.attack().is_some())
    }

    /// Whether `seat` is one of the living players an `attack` by `x` declared at `t` hits
    /// this turn (victims are decided on the start-of-turn state, Ruling 4).
    pub fn is_victim(&self, x: Seat, attack: Attack, t: Seat, seat: Seat) -> bool {
        match attack {
            Attack::Strike | Attack::Lunge => seat == t,
            // Ruling 17: every living player but the Assailer; `assail_self` adds him (§3.2).
            // Whether he is a victim is `assail_self`'s alone: an Assail declared at oneself
            // (`self_attacks`) does not hit him for being its declared target, so without
            // `assail_self` it hits only the others and nobody has Ruling 18's penalty.
            Attack::Assail => {
                self.fighter(seat).is_some_and(|p| p.alive) && (seat != x || self.rules.assail_self)
            }
        }
    }
}

/// Why a declared target is illegal (R0, Rulings 3 and 30).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TargetProblem {
    /// Not a player of this game.
    Unknown,
    /// A dead player (Ruling 30).
    Dead,
    /// Oneself, with a move that must name another player (Ruling 3).
    OwnSeat,
}

/// One player's public pools: `{"hp", "vp", "focus", "dodge"}`. The carry-overs are public:
/// they follow from the revealed moves (G4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pools {
    /// Life Pool.
    pub hp: u32,
    /// Victory Pool.
    pub vp: u32,
    /// The player id his Focus carries over to this turn, or null (R11).
    pub focus: Option<PlayerId>,
    /// The player id his Dodge carries over to this turn, or null (R11).
    pub dodge: Option<PlayerId>,
}

/// Crossing Swords has no public table state beyond the players: serializes as `{}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table {}

/// Crossing Swords has no private state (no hands): serializes as `{}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Private {}

/// What a living player owes: one move and a target for it (G3), with every legal pair.
///
/// The players are listed once, by seat, and each move names its targets by seat: a
/// sixteen-player prompt that spelled out every target of all ten moves as `{"id", "name"}`
/// was 10 KB, most of it the same fifteen players ten times over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    /// Every player of the game, dead or alive, in seat order: `players[seat]`.
    pub players: Vec<PlayerRef>,
    /// The ten moves, each with its legal targets (Ruling 3).
    pub moves: Vec<MoveChoice>,
}

impl Prompt {
    /// The players `choice` may name, in seat order.
    pub fn targets<'a>(&'a self, choice: &'a MoveChoice) -> impl Iterator<Item = &'a PlayerRef> {
        choice.targets.iter().map(|seat| &self.players[seat.0])
    }
}

/// One move and the players it may target now (Rulings 3, 30).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveChoice {
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
    /// Its category (§1).
    pub category: Category,
    /// The seats of the living players it may name, in seat order (indexes into the
    /// prompt's `players`).
    pub targets: Vec<Seat>,
}

/// The final result: `{"winners", "reason", "standings"}` (G7, Rulings 31-32).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Every player with the most VP (co-winners share the win, Ruling 32).
    pub winners: Vec<PlayerId>,
    /// Why the game ended.
    pub reason: EndReason,
    /// Every player, dead or alive, by VP (most first), then seat.
    pub standings: Vec<Standing>,
}

/// One line of the final standings (G7: "All players then count up their VP").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// The player's id.
    pub player: PlayerId,
    /// The player's name.
    pub name: String,
    /// Final VP.
    pub vp: u32,
    /// Final HP (0 for the dead and for a sole survivor who converted).
    pub hp: u32,
    /// Whether he was still alive at the end.
    pub alive: bool,
    /// 1 + the number of players with strictly more VP: equal VP share a place (Ruling 32).
    pub place: usize,
}
