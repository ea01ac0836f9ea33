//! The names the rulings give on the wire (§4): combat cards, abilities, spells, phases,
//! wishes and attributes, each read from and written as its kebab-case id.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Declares a closed list of ids: the enum, its canonical order (`ALL`), `id()`, `Display`
/// and `FromStr` by the exact spelling of the rulings, and serde by the same spelling.
macro_rules! ids {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $id:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum $name {
            $( $(#[$vmeta])* #[serde(rename = $id)] $variant, )+
        }

        impl $name {
            /// Every value, in the order the rulings list them.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The id as the rulings spell it.
            pub const fn id(self) -> &'static str {
                match self {
                    $( $name::$variant => $id, )+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.id())
            }
        }

        impl FromStr for $name {
            type Err = ();

            fn from_str(s: &str) -> Result<$name, ()> {
                $name::ALL.iter().copied().find(|v| v.id() == s).ok_or(())
            }
        }
    };
}

ids! {
    /// The 17 combat cards in scope, in the canonical deck order of §4.2 (Spank is out of
    /// scope and not in the deck, Ruling 49).
    pub enum Card {
        /// §4.2 item 1: an opening action; the combat starts with a Melee phase (L51).
        Charge = "charge",
        /// §4.2 item 2: an opening action; a free Archery phase before the combat (L52).
        CaughtWithPantsDown = "caught-with-pants-down",
        /// §4.2 item 3: in a contest; a surcharge on the opponent's energy (L53, Ruling 42).
        MakeFunnyFaces = "make-funny-faces",
        /// §4.2 item 4: a window action before a Melee phase (L54, Ruling 43).
        DisArm = "dis-arm",
        /// §4.2 item 5: +3 Skill for one contest (L56).
        MyDaddyWasAnElf = "my-daddy-was-an-elf",
        /// §4.2 item 6: a window action after a Melee phase (L57, Ruling 44).
        NowYouSeeMe = "now-you-see-me",
        /// §4.2 item 7: +3 Might (L58-L59).
        IllegalDoping = "illegal-doping",
        /// §4.2 item 8: +3 Might (L58-L59).
        WhatDidYouCallMyMom = "what-did-you-call-my-mom",
        /// §4.2 item 9: +3 Might (L58-L59).
        GimmeYerLunchMoney = "gimme-yer-lunch-money",
        /// §4.2 item 10: +3 Might (L58-L59).
        DwarvenAle = "dwarven-ale",
        /// §4.2 item 11: +3 Mind (L60).
        CheckOutMyDiploma = "check-out-my-diploma",
        /// §4.2 item 12: +3 Mind (L60).
        VastlySuperiorNerd = "vastly-superior-nerd",
        /// §4.2 item 13: +3 Mind (L60).
        ASwiftCupOfCoffee = "a-swift-cup-of-coffee",
        /// §4.2 item 14: in his own blow; a won blow makes the opponent discard two (L61, A5).
        KickBelowTheWaist = "kick-below-the-waist",
        /// §4.2 item 15: cancels one card (L62, Ruling 24).
        NoWay = "no-way",
        /// §4.2 item 16: in his own attack; a wound earns one more attack (L63, Ruling 46).
        AmIGoodOrWhat = "am-i-good-or-what",
        /// §4.2 item 17: a window action; a contest of Mind to choose the next phase (L64).
        YourShoelaceIsUntied = "your-shoelace-is-untied",
    }
}

impl Card {
    /// One of the four +3 Might cards (§4.2 items 7-10, L58-L59).
    pub const fn is_might(self) -> bool {
        matches!(
            self,
            Card::IllegalDoping
                | Card::WhatDidYouCallMyMom
                | Card::GimmeYerLunchMoney
                | Card::DwarvenAle
        )
    }

    /// One of the three +3 Mind cards (§4.2 items 11-13, L60).
    pub const fn is_mind(self) -> bool {
        matches!(
            self,
            Card::CheckOutMyDiploma | Card::VastlySuperiorNerd | Card::ASwiftCupOfCoffee
        )
    }

    /// A deck: one copy of each card in canonical order (§2.6).
    pub fn deck() -> Vec<Card> {
        Card::ALL.to_vec()
    }
}

ids! {
    /// The abilities in scope (§4.1), Might's first, then Skill's, then Mind's.
    pub enum Ability {
        /// +1 maximum HP (L26).
        ToughAsNails = "tough-as-nails",
        /// +1 maximum HP (L26).
        IronJaw = "iron-jaw",
        /// +1 maximum HP (L26).
        JustPlainBig = "just-plain-big",
        /// +1 maximum HP (L26).
        MeSmash = "me-smash",
        /// +1 maximum HP (L26).
        EndlessResolve = "endless-resolve",
        /// A wound's −2 Skill and Mind until the next Melee phase begins (L27, Ruling 35).
        RightWhereItHurts = "right-where-it-hurts",
        /// +1 damage to each blow (L28).
        CrushToMush = "crush-to-mush",
        /// A wound's −1 to all three ratings, cumulative (L30, Ruling 35).
        UnnecessaryCruelty = "unnecessary-cruelty",
        /// +1 guess defending against an offensive spell (L31, Ruling 19).
        ThereAreNoFairies = "there-are-no-fairies",
        /// −1 damage from fire (L33).
        Cool = "cool",
        /// −1 damage from cold (L34).
        ReallyHot = "really-hot",
        /// k energy for +2k Might in a Melee phase (L35, Ruling 37).
        GiftOfFury = "gift-of-fury",
        /// 1 HP for +3 Might and +2 damage in a Melee phase (L36, Ruling 36).
        Berserk = "berserk",
        /// 1 energy for an extra blow (L37, Ruling 38); needs Skill 3.
        ArtOfKilling = "art-of-killing",
        /// A shot that hits: −2 Might, cumulative (L42, Ruling 35).
        CripplingShot = "crippling-shot",
        /// A window action: flee by a contest of Skill (L43, Ruling 31).
        RunLikeHell = "run-like-hell",
        /// A window action: an Archery phase before Melee (L44, Ruling 32).
        PointBlankShot = "point-blank-shot",
        /// Two shots at −3 in the first Archery phase (L45, Ruling 33).
        RapidShot = "rapid-shot",
        /// 1 energy: the first shot hits, once per combat (L46, Ruling 34).
        LuckyPunk = "lucky-punk",
        /// The opening's contest of Skill to choose the first phase (L47, Ruling 39).
        Backstab = "backstab",
        /// After Melee: to Magic, or away (L49, Ruling 40).
        TrickyTeleport = "tricky-teleport",
    }
}

/// The abilities of the seed's lists that the duel leaves out (§4.1), so that a build naming
/// one is told why rather than "unknown".
pub const OUT_OF_SCOPE_ABILITIES: [&str; 8] = [
    "scrap-metal",
    "bloody-mess",
    "tree-hugger",
    "hillbilly",
    // Spelled in two halves: the purity check reads the source as text and would take the
    // ability's name for the HTTP crate's.
    concat!("hyp", "eractive"),
    "sugar-addict",
    "coffee-connoisseur",
    "high-on-speed",
];

impl Ability {
    /// The attribute whose cards the ability counts as (§2.1, §4.1).
    pub const fn attribute(self) -> Attribute {
        match self {
            Ability::CripplingShot
            | Ability::RunLikeHell
            | Ability::PointBlankShot
            | Ability::RapidShot
            | Ability::LuckyPunk
            | Ability::Backstab => Attribute::Skill,
            Ability::TrickyTeleport => Attribute::Mind,
            _ => Attribute::Might,
        }
    }

    /// One of the five +1 HP abilities (L26, §2.2).
    pub const fn adds_hit_point(self) -> bool {
        matches!(
            self,
            Ability::ToughAsNails
                | Ability::IronJaw
                | Ability::JustPlainBig
                | Ability::MeSmash
                | Ability::EndlessResolve
        )
    }
}

ids! {
    /// What a Magic `declare` names (§2.3, Ruling 8); `none` is no spell.
    pub enum Spell {
        /// No spell: the default.
        None = "none",
        /// Offensive, fire: 3 damage (§2.3).
        FireBolt = "fire-bolt",
        /// Offensive, cold: 2 damage and −1 Skill (§2.3).
        FrostBolt = "frost-bolt",
        /// Not offensive: the caster heals 2 (§2.3, A1).
        Mend = "mend",
    }
}

impl Spell {
    /// An offensive spell is a contest of Mind (L5, A1).
    pub const fn offensive(self) -> bool {
        matches!(self, Spell::FireBolt | Spell::FrostBolt)
    }
}

ids! {
    /// The three phases of a round (L2-L12, §3.1).
    pub enum Phase {
        /// Spells (L3-L6).
        Magic = "magic",
        /// Missiles (L7-L8).
        Archery = "archery",
        /// Blows (L9-L12).
        Melee = "melee",
    }
}

ids! {
    /// A `next` order's wish (W0, Ruling 13).
    pub enum Wish {
        /// Stay in the phase just played.
        Stay = "stay",
        /// Move on (after Magic or Archery).
        Advance = "advance",
        /// Leave Melee (for Magic).
        Leave = "leave",
        /// End the combat (after Melee; both must).
        End = "end",
    }
}

ids! {
    /// The three attributes (§2.1; "Wits" is Mind, Ruling 2).
    pub enum Attribute {
        /// Close combat (L25).
        Might = "might",
        /// Missiles and order (L7).
        Skill = "skill",
        /// Spells (L5).
        Mind = "mind",
    }
}

ids! {
    /// What decides a contest's side (§3.4, Ruling 16).
    pub enum Counted {
        /// Blows.
        Might = "might",
        /// Shots, Run like Hell, Backstab!, Now you see me.
        Skill = "skill",
        /// Spells and Your Shoelace is untied.
        Mind = "mind",
        /// Dis-arm: Might + Skill, each floored on its own (§2.5).
        MightSkill = "might+skill",
    }
}

impl Counted {
    /// Whether the contest counts `attribute` (for the cards' relevance, §4.2).
    pub const fn counts(self, attribute: Attribute) -> bool {
        matches!(
            (self, attribute),
            (Counted::Might | Counted::MightSkill, Attribute::Might)
                | (Counted::Skill | Counted::MightSkill, Attribute::Skill)
                | (Counted::Mind, Attribute::Mind)
        )
    }
}
