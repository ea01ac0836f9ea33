//! The turn log: one typed event per thing that happened, each with a line a person can follow.

use serde::{Deserialize, Serialize};

use super::arithmetic::Step;
use super::halt::HaltFate;
use super::moves::Move;
use crate::rules::PlayerId;

/// How much a Mend healed (M, Ruling 28).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MendAmount {
    /// 3 HP: the Mender had no un-negated Focus last turn.
    Plain,
    /// 7 HP: the Mender Focused last turn, on anyone (Ruling 12).
    Focused,
}

/// One damager's part of a victim's counters (R8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Share {
    /// Who dealt the damage.
    pub damager: PlayerRef,
    /// His total ledgered damage to this victim.
    pub damage: u32,
    /// The counters he receives (less than `damage` only on overkill, Ruling 29).
    pub counters: u32,
}

/// Assail counters beyond the 8 given back to one victim (Ruling 20, `assail_cap = return`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Returned {
    /// Whose HP they go back to.
    pub victim: PlayerRef,
    /// How many.
    pub counters: u32,
}

/// One entry of a turn's log. Serialized with a `kind` tag; every audience is Everyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Event {
    /// R0, Ruling 2: a living player without a valid order passes.
    Passed {
        player: PlayerRef,
        reason: PassReason,
    },
    /// R0, Ruling 2 with `missing_move` (§3.2): a living player without an order plays the
    /// fixed move on himself.
    Defaulted {
        player: PlayerRef,
        #[serde(rename = "move")]
        mv: Move,
    },
    /// R2: what became of a Halt.
    /// `target_move` is what the target played (null: he passed); an effective Halt acts only
    /// on an Action (Ruling 5).
    HaltResolved {
        halter: PlayerRef,
        target: PlayerRef,
        fate: HaltFate,
        target_move: Option<Move>,
    },
    /// R2.4, Ruling 8: an Action lost its whole effect to effective Halts.
    ActionNegated {
        player: PlayerRef,
        #[serde(rename = "move")]
        mv: Move,
        by: Vec<PlayerRef>,
    },
    /// R3: an effective Halt deals a fixed 3 to its Action-playing target.
    HaltDamage {
        halter: PlayerRef,
        target: PlayerRef,
        damage: u32,
    },
    /// R4: a Mend heals its target and gives the Mender 1 VP (Rulings 27-28). `hp` is what
    /// it healed: less than 3 or 7 when `heal_cap` stopped it (`capped`).
    Mended {
        mender: PlayerRef,
        target: PlayerRef,
        amount: MendAmount,
        hp: u32,
        vp: u32,
        capped: bool,
    },
    /// R5: one Attack card's damage to one victim, with its arithmetic (Ruling 11).
    CardDamage {
        attacker: PlayerRef,
        victim: PlayerRef,
        card: Move,
        base: u32,
        steps: Vec<Step>,
        damage: u32,
    },
    /// R6: a Block reflects a fixed 2 to its target (Ruling 22).
    BlockReflection {
        blocker: PlayerRef,
        attacker: PlayerRef,
        damage: u32,
    },
    /// R6: a Riposte counters its target for a fixed 3 (Ruling 23).
    RiposteCounter {
        riposter: PlayerRef,
        attacker: PlayerRef,
        damage: u32,
    },
    /// R7: the Lunge target damaged the Lunger, so he deals 3 (or 9) more (Rulings 13-16).
    LungeBonus {
        target: PlayerRef,
        lunger: PlayerRef,
        trigger: u32,
        focused: bool,
        damage: u32,
    },
    /// R8: a victim's counters move to his damagers (G5; split on overkill, Ruling 29; or,
    /// with `full_credit`, each gets his full damage, the excess from the supply).
    CountersMoved {
        victim: PlayerRef,
        hp: u32,
        damage: u32,
        overkill: bool,
        full_credit: bool,
        shares: Vec<Share>,
    },
    /// R9: an Assailer won more than 8 counters; the excess leaves the game (Ruling 20).
    AssailCapped {
        assailer: PlayerRef,
        counters: u32,
        credited: u32,
        discarded: u32,
    },
    /// R9 with `assail_cap = return` (Ruling 20, §3.2): an Assailer won more than 8 counters;
    /// the excess goes back to the victims last in the keep order.
    AssailReturned {
        assailer: PlayerRef,
        counters: u32,
        credited: u32,
        returned: Vec<Returned>,
    },
    /// R10: an active Taunt steals from the target's start-of-turn VP (Rulings 24-25).
    TauntSteal {
        taunter: PlayerRef,
        target: PlayerRef,
        pool: u32,
        taunters: u32,
        stolen: u32,
    },
    /// R12: a player at 0 HP is out (Ruling 30).
    Died { player: PlayerRef },
    /// The host removed a player from the game between turns: out as if dead (Ruling 30), his
    /// `hp` counters leave the game, he keeps his `vp` (see `host_acts.rs`).
    Kicked { player: PlayerRef, hp: u32, vp: u32 },
    /// R13, G6: the last player standing moves all his HP to VP.
    Converted { player: PlayerRef, hp: u32 },
    /// R13 with `convert_at_cap` (Ruling 31, §3.2): at the round cap a survivor moves all his
    /// HP to VP.
    ConvertedAtCap { player: PlayerRef, hp: u32 },
    /// R13: the game is over; the most VP wins, ties share (G7, Rulings 31-32).
    GameOver {
        reason: EndReason,
        winners: Vec<PlayerRef>,
    },
}

/// A player as events, prompts and standings name him: `{"id", "name"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRef {
    /// The player's id.
    pub id: PlayerId,
    /// The player's name.
    pub name: String,
}

impl std::fmt::Display for PlayerRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

/// Why the game ended (R13, Ruling 31).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// Exactly one player is left; he converted his HP to VP (G6).
    LastStanding,
    /// Everyone left died in the same turn; no conversion (Ruling 31).
    NoSurvivors,
    /// The `max_rounds` turn was played with two or more alive; no conversion (Ruling 31).
    RoundCap,
    /// The host ended the game with two or more alive; no conversion (Ruling 31).
    EndedByHost,
    /// Every living player voted for a draw: the living share the win; no conversion.
    DrawVote,
}

/// Why a living player's turn became a Pass (R0, Ruling 2). The host refuses illegal orders at
/// submission and resolves only once every living player has answered, so through the host a
/// Pass cannot arise; these cover a caller that breaks that contract.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PassReason {
    /// No order was given for this seat.
    NoOrder,
    /// Several different orders were given for this seat.
    ConflictingOrders,
    /// The target is not a player of this game.
    UnknownTarget,
    /// The target is dead (Ruling 30).
    DeadTarget,
    /// The move may not target its own player (Ruling 3).
    SelfTarget,
}
