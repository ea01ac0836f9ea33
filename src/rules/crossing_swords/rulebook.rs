//! The host's variant keys of rulings §3.1, pinned by §3.2: one typed field per key, each
//! defaulting to the rulings' default game. The settings carry it (flattened, so the keys sit
//! at the top of the lobby's `settings` object as §3.1 spells them) and the game state carries
//! a copy, so every resolution step reads the variant it plays by.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::moves::Move;

/// Every variant of §3.1 but `max_rounds` (kept beside it in `Settings` and `State`, where it
/// always was). `Default` is the default game of the rulings.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Rulebook {
    /// What a living player who sent nothing plays (Ruling 2, §3.2).
    pub missing_move: MissingMove,
    /// Strike, Lunge and Assail may name oneself (Ruling 3, §3.2).
    pub self_attacks: bool,
    /// What becomes of a Halt cycle of three or more (Ruling 7, §3.2).
    pub halt_cycle: HaltCycle,
    /// A Halted Taunt keeps its +1 penalty (Ruling 8, §3.2).
    pub halt_keeps_taunt_penalty: bool,
    /// Which Assail share a Focus doubles (Ruling 10, §3.2).
    pub focus_assail: FocusAssail,
    /// Taunt's +1 comes before Focus's ×2+1 (Ruling 11).
    pub taunt_before_focus: bool,
    /// The Assailer is a victim of his own Assail (Ruling 17, §3.2).
    pub assail_self: bool,
    /// Every Assail victim counts as targeted (Ruling 19, §3.2).
    pub assail_targets_all: bool,
    /// What becomes of Assail counters beyond the 8 (Ruling 20, §3.2).
    pub assail_cap: AssailCap,
    /// Which VP a Taunt steals from (Ruling 25).
    pub taunt_snapshot: TauntSnapshot,
    /// The most HP a Mend heals up to (Ruling 28).
    pub heal_cap: HealCap,
    /// How counters move when damage exceeds HP (Ruling 29).
    pub overkill: Overkill,
    /// Every survivor converts HP to VP at the round cap (Ruling 31, §3.2).
    pub convert_at_cap: bool,
    /// Who wins a tie for most VP (Ruling 32, §3.2).
    pub tiebreak: Tiebreak,
}

/// `missing_move` (Ruling 2, §3.2): Pass, or a fixed Defense or Action played on oneself.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissingMove {
    /// No card at all (Ruling 2).
    #[default]
    Pass,
    Dodge,
    Block,
    Riposte,
    Focus,
    Mend,
}

impl MissingMove {
    /// The move a player who sent nothing plays on himself; None: he passes.
    pub fn fixed_move(self) -> Option<Move> {
        match self {
            MissingMove::Pass => None,
            MissingMove::Dodge => Some(Move::Dodge),
            MissingMove::Block => Some(Move::Block),
            MissingMove::Riposte => Some(Move::Riposte),
            MissingMove::Focus => Some(Move::Focus),
            MissingMove::Mend => Some(Move::Mend),
        }
    }
}

/// `halt_cycle` (Ruling 7, §3.2).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HaltCycle {
    /// Every Halt on an unbroken cycle is void.
    #[default]
    Void,
    /// Every Halt on an unbroken cycle deals its 3 and is negated.
    AllFire,
}

/// `focus_assail` (Ruling 10, §3.2).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FocusAssail {
    /// Only an Assail declared at the Focus target doubles his share.
    #[default]
    Declared,
    /// The Focus target's share is doubled whenever the Assail hits him.
    Any,
}

/// `assail_cap` (Ruling 20, §3.2).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AssailCap {
    /// Counters beyond the 8 leave the game.
    #[default]
    Discard,
    /// Counters beyond the 8 go back to their victims' HP, in the keep order of §3.2.
    Return,
}

/// `taunt_snapshot` (Ruling 25).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TauntSnapshot {
    /// The target's VP at the start of the turn (R1).
    #[default]
    Start,
    /// The target's VP after R9, before any steal.
    PostDamage,
}

/// `overkill` (Ruling 29, §3.2).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Overkill {
    /// The victim's HP are split by largest remainder.
    #[default]
    Proportional,
    /// Every damager gets his full damage; the excess comes from the supply.
    FullCredit,
}

/// `tiebreak` (Ruling 32, §3.2).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreak {
    /// Everyone tied for most VP wins.
    #[default]
    Share,
    /// Of those tied, the survivors win; if none survived, they share.
    SurvivorFirst,
}

/// `heal_cap` (Ruling 28): `"none"` (or null) or `20`, exactly as §3.1 lists it. Any other
/// number is refused: the rulings name no other ceiling.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum HealCap {
    /// No ceiling (Ruling 28).
    #[default]
    None,
    /// A Mend heals no one above 20 HP, the starting value (G2).
    Twenty,
}

/// The one ceiling `heal_cap` may name.
pub const HEAL_CAP: u32 = 20;

impl HealCap {
    /// The HP after healing `heal` onto `hp`: never above the cap, never below `hp` (a player
    /// already above the cap, from a setup, keeps his HP and gains none).
    pub fn heal(self, hp: u32, heal: u32) -> u32 {
        match self {
            HealCap::None => hp + heal,
            HealCap::Twenty => hp.max((hp + heal).min(HEAL_CAP)),
        }
    }
}

impl Serialize for HealCap {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            HealCap::None => s.serialize_str("none"),
            HealCap::Twenty => s.serialize_u32(HEAL_CAP),
        }
    }
}

impl<'de> Deserialize<'de> for HealCap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(u64),
            Text(String),
            Null(()),
        }
        match Raw::deserialize(d)? {
            Raw::Number(n) if n == u64::from(HEAL_CAP) => Ok(HealCap::Twenty),
            Raw::Text(t) if t == "none" => Ok(HealCap::None),
            Raw::Null(()) => Ok(HealCap::None),
            Raw::Number(_) | Raw::Text(_) => {
                Err(serde::de::Error::custom("heal_cap must be \"none\" or 20"))
            }
        }
    }
}

impl Rulebook {
    /// The keys of §3.1 this holds, in its order.
    pub const KEYS: [&'static str; 14] = [
        "missing_move",
        "self_attacks",
        "halt_cycle",
        "halt_keeps_taunt_penalty",
        "focus_assail",
        "taunt_before_focus",
        "assail_self",
        "assail_targets_all",
        "assail_cap",
        "taunt_snapshot",
        "heal_cap",
        "overkill",
        "convert_at_cap",
        "tiebreak",
    ];

    /// The variants that differ from the default game, each in words with its ruling, in §3.1
    /// order: what a lobby page lists ("Halt cycles all fire (Ruling 7)").
    pub fn in_words(&self) -> Vec<String> {
        let d = Rulebook::default();
        let mut out = Vec::new();
        let mut say = |differs: bool, text: String| {
            if differs {
                out.push(text);
            }
        };
        let missing = self
            .missing_move
            .fixed_move()
            .map_or("Pass".to_owned(), |m| format!("{} on himself", m.title()));
        say(
            self.missing_move != d.missing_move,
            format!("a missing order plays {missing} (Ruling 2)"),
        );
        say(
            self.self_attacks,
            "attacks may target oneself (Ruling 3)".into(),
        );
        say(
            self.halt_cycle != d.halt_cycle,
            "Halt cycles all fire (Ruling 7)".into(),
        );
        say(
            self.halt_keeps_taunt_penalty,
            "a Halted Taunt keeps its +1 (Ruling 8)".into(),
        );
        say(
            self.focus_assail != d.focus_assail,
            "Focus doubles any Assail on its target (Ruling 10)".into(),
        );
        say(
            self.taunt_before_focus,
            "Taunt +1 before Focus ×2+1 (Ruling 11)".into(),
        );
        say(
            self.assail_self,
            "Assail hits the Assailer too (Ruling 17)".into(),
        );
        say(
            self.assail_targets_all,
            "Assail targets every victim (Ruling 19)".into(),
        );
        say(
            self.assail_cap != d.assail_cap,
            "Assail counters beyond 8 return to their owners (Ruling 20)".into(),
        );
        say(
            self.taunt_snapshot != d.taunt_snapshot,
            "Taunt steals after damage (Ruling 25)".into(),
        );
        say(
            self.heal_cap != d.heal_cap,
            format!("heal cap {HEAL_CAP} (Ruling 28)"),
        );
        say(
            self.overkill != d.overkill,
            "overkill gives full credit (Ruling 29)".into(),
        );
        say(
            self.convert_at_cap,
            "survivors convert HP at the round cap (Ruling 31)".into(),
        );
        say(
            self.tiebreak != d.tiebreak,
            "ties go to survivors first (Ruling 32)".into(),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_default_rulebook_serializes_every_key_of_section_3_1_with_its_default() {
        let v = serde_json::to_value(Rulebook::default()).unwrap();
        assert_eq!(
            v,
            json!({
                "missing_move": "pass", "self_attacks": false, "halt_cycle": "void",
                "halt_keeps_taunt_penalty": false, "focus_assail": "declared",
                "taunt_before_focus": false, "assail_self": false, "assail_targets_all": false,
                "assail_cap": "discard", "taunt_snapshot": "start", "heal_cap": "none",
                "overkill": "proportional", "convert_at_cap": false, "tiebreak": "share"
            })
        );
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        let mut want = Rulebook::KEYS.to_vec();
        want.sort_unstable();
        assert_eq!(keys, want);
    }

    #[test]
    fn ruling_28_heal_cap_is_none_or_twenty_and_nothing_else() {
        let cap = |v| serde_json::from_value::<HealCap>(v);
        assert_eq!(cap(json!("none")).unwrap(), HealCap::None);
        assert_eq!(cap(json!(null)).unwrap(), HealCap::None);
        assert_eq!(cap(json!(20)).unwrap(), HealCap::Twenty);
        for bad in [json!(19), json!(21), json!("20"), json!(true), json!(-20)] {
            assert!(cap(bad.clone()).is_err(), "{bad} accepted");
        }
        assert_eq!(serde_json::to_value(HealCap::Twenty).unwrap(), json!(20));
    }

    #[test]
    fn ruling_28_the_cap_never_lowers_hp() {
        assert_eq!(HealCap::Twenty.heal(15, 7), 20);
        assert_eq!(HealCap::Twenty.heal(15, 3), 18);
        assert_eq!(HealCap::Twenty.heal(25, 3), 25);
        assert_eq!(HealCap::None.heal(19, 7), 26);
    }

    #[test]
    fn ruling_2_missing_move_takes_only_the_moves_section_3_2_lists() {
        for (text, mv) in [
            ("pass", None),
            ("dodge", Some(Move::Dodge)),
            ("block", Some(Move::Block)),
            ("riposte", Some(Move::Riposte)),
            ("focus", Some(Move::Focus)),
            ("mend", Some(Move::Mend)),
        ] {
            let m: MissingMove = serde_json::from_value(json!(text)).unwrap();
            assert_eq!(m.fixed_move(), mv);
        }
        for bad in ["strike", "taunt", "halt", "Pass", ""] {
            assert!(serde_json::from_value::<MissingMove>(json!(bad)).is_err());
        }
    }

    #[test]
    fn only_non_default_variants_are_put_in_words() {
        assert!(Rulebook::default().in_words().is_empty());
        let r = Rulebook {
            halt_cycle: HaltCycle::AllFire,
            heal_cap: HealCap::Twenty,
            ..Rulebook::default()
        };
        assert_eq!(
            r.in_words(),
            ["Halt cycles all fire (Ruling 7)", "heal cap 20 (Ruling 28)"]
        );
    }
}
