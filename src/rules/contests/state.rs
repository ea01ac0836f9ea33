//! The whole duel, secrets included (rulings §2-§3): both combatants, the window or phase
//! under way, the contest in progress, the phases queued, and the end once reached.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

pub use super::answers::Declaration;
use super::answers::{Action, Order};
use super::ids::{Ability, Attribute, Card, Counted, Phase, Spell, Wish};
use super::rulebook::Rulebook;
use crate::rules::{PlayerId, Seat};

/// A player as named in the log: id and display name, so each line stands alone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRef {
    /// The player's id.
    pub id: PlayerId,
    /// The name shown to others.
    pub name: String,
}

impl std::fmt::Display for PlayerRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

/// A combatant's public build (§2.1, Ruling 53): ratings, abilities, the monster flag.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    /// Might rating, 1-6.
    pub might: u32,
    /// Skill rating, 1-6.
    pub skill: u32,
    /// Mind rating, 1-6.
    pub mind: u32,
    /// Up to `max_abilities` different in-scope abilities.
    pub abilities: Vec<Ability>,
    /// A monster never ends combat, flees or teleports away (Ruling 15).
    #[serde(default)]
    pub monster: bool,
}

impl Build {
    /// The default build of §2.7: 4/4/4, Tough as Nails, Crippling Shot, Tricky Teleport.
    pub fn default_build() -> Build {
        Build {
            might: 4,
            skill: 4,
            mind: 4,
            abilities: vec![
                Ability::ToughAsNails,
                Ability::CripplingShot,
                Ability::TrickyTeleport,
            ],
            monster: false,
        }
    }

    /// Whether the build holds `ability`.
    pub fn has(&self, ability: Ability) -> bool {
        self.abilities.contains(&ability)
    }

    /// The base rating of `attribute`.
    pub const fn rating(&self, attribute: Attribute) -> u32 {
        match attribute {
            Attribute::Might => self.might,
            Attribute::Skill => self.skill,
            Attribute::Mind => self.mind,
        }
    }

    /// Maximum HP: `hp` + 1 per +1 HP ability (§2.2).
    pub fn max_hp(&self, rules: &Rulebook) -> u32 {
        rules.hp + self.abilities.iter().filter(|a| a.adds_hit_point()).count() as u32
    }
}

/// How long a modifier lasts (§2.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lasts {
    /// To the end of combat.
    Combat,
    /// To the end of the phase it was gained in.
    Phase,
}

/// What a modifier came from (§2.5), for the public view and the log.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "kebab-case")]
pub enum Source {
    /// A combat card.
    Card(Card),
    /// An ability.
    Ability(Ability),
    /// A spell (frost-bolt).
    Spell(Spell),
    /// A `setup` position (§3.9).
    Setup,
}

/// A modifier in force (§2.5). Right where it hurts is not one: it is renewed, not stacked,
/// and kept as [`Fighter::rwih`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    /// The rating it changes.
    pub attribute: Attribute,
    /// Added to the rating (negative: a penalty).
    pub amount: i32,
    /// How long it holds.
    pub lasts: Lasts,
    /// Where it came from.
    pub source: Source,
}

/// One combatant (§2): build, pools, cards and the marks the rulings keep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    pub who: PlayerRef,
    pub build: Build,
    /// The maximum, which never changes (§2.2).
    pub max_hp: u32,
    pub hp: u32,
    /// Never regained (§2.2).
    pub energy: u32,
    /// Private to the owner, in draw order (§3.8).
    pub hand: Vec<Card>,
    /// Top first; nobody sees its order (§3.8).
    pub deck: Vec<Card>,
    /// Face up, oldest first (§2.6).
    pub discard: Vec<Card>,
    /// Cards played and not yet discarded (a window action or a contest under way).
    pub table: Vec<Card>,
    /// Modifiers in force (§2.5).
    pub mods: Vec<Modifier>,
    /// Right where it hurts: −2 Skill and −2 Mind until the next Melee phase (Ruling 35).
    pub rwih: bool,
    /// Lucky Punk has been used (once per combat, Ruling 34).
    pub lucky_used: bool,
    /// A won Backstab!: his first attack deals double damage (Ruling 39).
    pub backstab: bool,
    /// The last round of a Make Funny Faces surcharge on him; 0: none (Ruling 42).
    pub surcharge_until: u32,
    /// The last round he paid energy; 0: never (Ruling 42).
    pub spent_round: u32,
}

impl Fighter {
    /// Every card he owns, sorted in canonical order (§3.10's conservation).
    pub fn all_cards(&self) -> Vec<Card> {
        let mut all: Vec<Card> = self
            .hand
            .iter()
            .chain(&self.deck)
            .chain(&self.discard)
            .chain(&self.table)
            .copied()
            .collect();
        all.sort();
        all
    }

    /// Effective rating (§2.5): base + modifiers in force + `bonus`, floored at 0.
    pub fn rating(&self, attribute: Attribute, bonus: i32) -> u32 {
        let base = self.build.rating(attribute) as i32;
        let mods: i32 = self
            .mods
            .iter()
            .filter(|m| m.attribute == attribute)
            .map(|m| m.amount)
            .sum();
        let hurt = match (self.rwih, attribute) {
            (true, Attribute::Skill | Attribute::Mind) => -2,
            _ => 0,
        };
        (base + mods + hurt + bonus).max(0) as u32
    }

    /// Whether a Make Funny Faces surcharge holds in `round` (Ruling 42).
    pub const fn surcharged(&self, round: u32) -> bool {
        round <= self.surcharge_until
    }

    /// One use's energy cost at `round`: `base` + 1 under a surcharge (§2.2).
    pub const fn cost(&self, base: u32, round: u32) -> u32 {
        match self.surcharged(round) {
            true => base + 1,
            false => base,
        }
    }
}

/// A phase queued by a window (W9): its kind, who fires (a free Archery phase) and who makes
/// no attack (Point Blank Shot).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Queued {
    pub phase: Phase,
    /// Who attacks at all: both, except in Caught with Pants Down's free phase.
    pub fires: [bool; 2],
    /// Point Blank Shot's users make no attack in this Melee phase (Ruling 32).
    pub no_attack: [bool; 2],
}

/// Where a window is in W1-W9.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WindowStage {
    /// Waiting for the `opening` or `next` orders.
    Asking,
    /// A Run like Hell contest is under way (W4).
    Escape,
    /// W7's contested choices, from this window-order position on.
    Contested(usize),
    /// W8's actions before Melee, from this window-order position on.
    BeforeMelee(usize),
}

/// A window (§3.2): the orders revealed, the natural next phase N and what is queued.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    /// The phase just played; none at the opening.
    pub after: Option<Phase>,
    pub stage: WindowStage,
    /// Each combatant's wish (none at the opening).
    pub wishes: [Option<Wish>; 2],
    /// Each combatant's action, after No Way! (W3).
    pub actions: [Option<Action>; 2],
    /// The next phase (W5-W7).
    pub next: Phase,
    /// An Archery phase is inserted before N (W7, W8).
    pub insert_archery: bool,
    /// Who played Caught with Pants Down (W9).
    pub caught: [bool; 2],
    /// Who used Point Blank Shot to effect (W8).
    pub point_blank: [bool; 2],
    /// Window order: higher Skill, then Mind, then the initiator (§3.2).
    pub order: [Seat; 2],
}

/// A phase under way (§3.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseState {
    pub phase: Phase,
    /// The combat's first phase: no draws (§2.6).
    pub first: bool,
    pub fires: [bool; 2],
    pub no_attack: [bool; 2],
    /// Waiting for `declare` orders (P1).
    pub declaring: bool,
    pub declared: [Declaration; 2],
    /// The attack order (P3).
    pub order: [Seat; 2],
    /// Attacks each has left (P4).
    pub left: [u32; 2],
    /// Attacks each has made this phase.
    pub made: [u32; 2],
    /// Who attacked last.
    pub last: Option<Seat>,
    /// Lucky Punk's first shot is still to come (A2).
    pub lucky: [bool; 2],
}

/// What a contest decides (§3.4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Purpose {
    /// An offensive spell (A1).
    Spell { spell: Spell },
    /// A shot (A2).
    Shot,
    /// A blow (A3).
    Blow,
    /// Run like Hell (W4).
    RunLikeHell,
    /// Backstab! naming its phase (W7).
    Backstab { phase: Phase },
    /// Your Shoelace is untied naming its phase (W7).
    Shoelace { phase: Phase },
    /// Now you see me, now you don't (W7).
    NowYouSeeMe,
    /// Dis-arm (W8).
    DisArm,
}

impl Purpose {
    /// The attribute the contest counts (Ruling 16).
    pub const fn counted(self) -> Counted {
        match self {
            Purpose::Spell { .. } | Purpose::Shoelace { .. } => Counted::Mind,
            Purpose::Shot
            | Purpose::RunLikeHell
            | Purpose::Backstab { .. }
            | Purpose::NowYouSeeMe => Counted::Skill,
            Purpose::Blow => Counted::Might,
            Purpose::DisArm => Counted::MightSkill,
        }
    }

    /// An attack (spell, shot or blow), not a window contest.
    pub const fn is_attack(self) -> bool {
        matches!(self, Purpose::Spell { .. } | Purpose::Shot | Purpose::Blow)
    }

    /// The id in the log.
    pub const fn id(self) -> &'static str {
        match self {
            Purpose::Spell { spell } => spell.id(),
            Purpose::Shot => "shot",
            Purpose::Blow => "blow",
            Purpose::RunLikeHell => "run-like-hell",
            Purpose::Backstab { .. } => "backstab",
            Purpose::Shoelace { .. } => "your-shoelace-is-untied",
            Purpose::NowYouSeeMe => "now-you-see-me",
            Purpose::DisArm => "dis-arm",
        }
    }
}

/// Where a contest is (K1-K6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "at", content = "tie", rename_all = "kebab-case")]
pub enum ContestStage {
    /// Waiting for `set` (K1).
    Set,
    /// Waiting for `face-up` (K3).
    FaceUp,
    /// Waiting for tie-break `n` (K6), counted from 1.
    Tie(u32),
}

/// One contestant's die: its face, the guesses he named, and whether it was guessed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die {
    pub face: u8,
    pub guesses: Vec<u8>,
    pub lost: bool,
}

impl Die {
    /// What it adds to the total: its face, or 0 when guessed (L16).
    pub fn value(&self) -> u32 {
        match self.lost {
            true => 0,
            false => u32::from(self.face),
        }
    }
}

/// A contest under way (§3.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contest {
    /// Numbered from 1 within the round (§3.1).
    pub number: u32,
    pub purpose: Purpose,
    pub challenger: Seat,
    pub stage: ContestStage,
    /// Guesses each may name (§2.4).
    pub guesses: [u32; 2],
    /// The dice of K1 (or of the latest tie-break).
    pub dice: [Option<Die>; 2],
    /// The face-down card (K1).
    pub down: [Option<Card>; 2],
    /// Whether each asked for the face-up step (K1).
    pub wants_face_up: [bool; 2],
    /// The face-up cards, in the order listed (K3).
    pub up: [Vec<Card>; 2],
    /// The `set` orders, revealed with the reveal (K4).
    pub set_orders: Vec<(Seat, Order)>,
    /// The totals of K5, kept for the tie-breaks.
    pub totals: [u32; 2],
    /// Relevant Kick below the waist / Am I good or what? of the challenger (K4).
    pub kick: bool,
    pub encore: bool,
    /// This contest's card bonuses (K4), per combatant, Might/Skill/Mind.
    pub bonus: [[i32; 3]; 2],
}

/// The `discard` step owed after a Kick below the waist (A5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiscardOwed {
    pub contest: u32,
    pub seat: Seat,
}

/// Why the duel ended (§3.6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// A combatant at 0 HP (E1).
    Defeated,
    /// An escape (E3).
    Escaped,
    /// Both ended combat (E2).
    Ended,
    /// The phase cap (E4).
    PhaseCap,
    /// The host removed a combatant: the other wins.
    Forfeit,
    /// The host ended the duel, naming the winner or a draw.
    EndedByHost,
    /// Both voted for a draw with their orders.
    DrawVote,
}

/// How the duel ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct End {
    pub reason: EndReason,
    /// None: a draw.
    pub winner: Option<Seat>,
}

/// The open step (§3.7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Round 1's window, for those with an opening action (W0).
    Opening,
    /// The window after a phase, for both (W0).
    Next,
    /// A phase's declarations, for those with a choice (P1).
    Declare,
    /// A contest's die, guesses and face-down card (K1).
    Set,
    /// A contest's face-up cards, for those who asked and hold a card (K3).
    FaceUp,
    /// A tie-break's die and guesses (K6).
    Tie,
    /// Kick below the waist's two cards (A5).
    Discard,
    /// The duel is over (§3.6).
    Over,
}

impl Step {
    /// The step's name on the wire.
    pub const fn name(self) -> &'static str {
        match self {
            Step::Opening => "opening",
            Step::Next => "next",
            Step::Declare => "declare",
            Step::Set => "set",
            Step::FaceUp => "face-up",
            Step::Tie => "tie",
            Step::Discard => "discard",
            Step::Over => "finished",
        }
    }
}

/// The whole duel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub rules: Rulebook,
    /// Round n: the window before phase n, and phase n (§3.1).
    pub round: u32,
    /// Phases played (or under way).
    pub phases: u32,
    /// Archery phases played, for Rapid Shot (Ruling 33).
    pub archery_phases: u32,
    /// Contests opened this round (§3.1).
    pub contests: u32,
    pub fighters: [Fighter; 2],
    /// The open step.
    pub step: Step,
    pub window: Option<Window>,
    pub phase: Option<PhaseState>,
    pub contest: Option<Contest>,
    pub discard: Option<DiscardOwed>,
    /// Phases a window queued, still to play (W9).
    pub queue: VecDeque<Queued>,
    /// What is left of `default_dice` (§3.9). Secret while the duel runs.
    #[serde(default, skip_serializing_if = "VecDeque::is_empty")]
    pub scripted: VecDeque<u8>,
    pub end: Option<End>,
    /// Dealt but not yet begun (S5): the start stops here, so that the round's opening,
    /// and a skipped `opening` step, are played by the host as a step nobody is asked
    /// about (`Game::unasked`) and filed, with their own lines, as round 1's first step.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unopened: bool,
}

impl State {
    /// The other seat of the duel.
    pub const fn other(seat: Seat) -> Seat {
        Seat(1 - seat.0)
    }

    /// The initiator's seat (Ruling 51).
    pub const fn initiator(&self) -> Seat {
        Seat(self.rules.initiator_seat())
    }
}
