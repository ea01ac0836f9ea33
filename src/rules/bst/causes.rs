//! Why a log event happened: the effect behind each damage, heal, Off-Balance, poison counter,
//! Charge change and damage term, as reason enums. Each is serialized as a kebab-case name (the
//! log's structured entry) and displayed as the clause of its log line, citing its ruling.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::moves::Move;
use super::tokens::Token;

/// What dealt a `damage` event's damage.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "cause")]
pub enum DamageSource {
    /// The winning tile itself (T10: a Strike's hit, L209-L237; Counter-Attack, L252; Parry,
    /// L259).
    Win {
        /// The tile.
        #[serde(rename = "move")]
        tile: Move,
    },
    /// A Follow-up (L209).
    FollowUp,
    /// A Finishing Strike's extra tokens (L237, A40).
    FinishingExtras,
    /// A Power Surge (L215, L222, L230, A10).
    PowerSurge,
}

/// What healed a `healed` event's player (A22).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "cause")]
pub enum HealSource {
    /// A winning Defense played with a Blue (or Wild) token (L183; the Razorbeast's
    /// Counter-Attack, L315).
    BlueDefense {
        /// The Defense tile.
        #[serde(rename = "move")]
        tile: Move,
    },
    /// The Warpriest's Gather Power (L291).
    WarpriestGather,
}

/// What set a player Off-Balance (L188).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OffBalanceSource {
    /// A winning Piercing Strike (L215).
    PiercingStrike,
    /// A winning Dashing Strike (L222).
    DashingStrike,
    /// A winning Parry (L259).
    Parry,
    /// The Assassin's Red (or Wild) Follow-up (L299, A39).
    AssassinRedFollowUp,
    /// A surged Lightning Strike (L230).
    SurgedLightning,
}

/// What added a poison counter (L300, L314).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PoisonSource {
    /// The Razorbeast's winning or tied Lightning Strike (L314, A30).
    RazorbeastLightning,
    /// The Assassin's winning Counter-Attack (L300, A26).
    AssassinCounter,
    /// The Razorbeast's winning Counter-Attack (L314, A30).
    RazorbeastCounter,
}

/// Why a player's Charges changed (L139).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChargeCause {
    /// A Power-up win (L275; the Assassin gains 1, L302).
    PowerUp,
    /// A winning Evasion's refund (L266).
    EvasionRefund,
    /// Gather Power (L187).
    GatherPower,
    /// The Channeler's steal after a Power-up win (L306, A27).
    ChannelerSteal,
    /// A Power Surge's Charge (A10).
    PowerSurge,
    /// A Power Surge on a Warpriest's free turn costs nothing (A21).
    FreePowerSurge,
}

/// One term of a damage sum (A3, A4, A11, A29, L209, L237, L301, L315).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "term")]
pub enum Term {
    /// The played token's value (Standard, Dashing, Finishing).
    Token {
        /// The token.
        token: Token,
    },
    /// The Piercing Strike's fixed 5 (L215).
    PiercingBase,
    /// The Lightning Strike's fixed 7 (L230).
    LightningBase,
    /// A Red (or Wild) Strike token's +2 (A3, A4).
    RedBonus,
    /// The Sentinel's Piercing Strike +3 (the Sentinel, L281-L287).
    SentinelPiercing,
    /// The Channeler's Dashing Strike adds the Charges held (L308, A11).
    ChannelerCharges,
    /// The Channeler's Standard Strike -2 (A29).
    ChannelerStandard,
    /// Half a token's value, rounded down (Counter-Attack L252, Follow-up L209).
    HalfOf {
        /// The token.
        token: Token,
    },
    /// The Assassin's Counter-Attack deals no damage (L301).
    AssassinCounter,
    /// The Razorbeast's Red Counter-Attack +2 (L315).
    RazorbeastRedBonus,
    /// The Parry's fixed 6 (L259).
    Parry,
    /// A Finishing Strike's extra token, at full value (L237, A40).
    Extra {
        /// The token.
        token: Token,
    },
    /// A Power Surge's bonus (A10).
    Surge,
}

impl fmt::Display for DamageSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DamageSource::Win { tile } => f.write_str(tile.name()),
            DamageSource::FollowUp => f.write_str("Follow-up"),
            DamageSource::FinishingExtras => f.write_str("Finishing Strike extras"),
            DamageSource::PowerSurge => f.write_str("Power Surge"),
        }
    }
}

impl fmt::Display for HealSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HealSource::BlueDefense { tile } => write!(f, "blue {tile}, L183"),
            HealSource::WarpriestGather => f.write_str("the Warpriest's Gather Power, L291"),
        }
    }
}

impl fmt::Display for OffBalanceSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OffBalanceSource::PiercingStrike => "Piercing Strike, L215",
            OffBalanceSource::DashingStrike => "Dashing Strike, L222",
            OffBalanceSource::Parry => "Parry, L259",
            OffBalanceSource::AssassinRedFollowUp => "the Assassin's red Follow-up, L299",
            OffBalanceSource::SurgedLightning => "surged Lightning Strike, L230",
        })
    }
}

impl fmt::Display for PoisonSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PoisonSource::RazorbeastLightning => "the Razorbeast's Lightning Strike (L314, A30)",
            PoisonSource::AssassinCounter => "the Assassin's Counter-Attack (L300, A26)",
            PoisonSource::RazorbeastCounter => "the Razorbeast's Counter-Attack (L314, A30)",
        })
    }
}

impl fmt::Display for ChargeCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ChargeCause::PowerUp => "Power-up, L275",
            ChargeCause::EvasionRefund => "Evasion refund, L266",
            ChargeCause::GatherPower => "Gather Power, L187",
            ChargeCause::ChannelerSteal => "taken by the Channeler's Power-up, L306",
            ChargeCause::PowerSurge => "Power Surge",
            ChargeCause::FreePowerSurge => "Power Surge, free turn (A21)",
        })
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Token { token } => write!(f, "token {token}"),
            Term::PiercingBase => f.write_str("Piercing base"),
            Term::LightningBase => f.write_str("Lightning base"),
            Term::RedBonus => f.write_str("red bonus"),
            Term::SentinelPiercing => f.write_str("Sentinel Piercing"),
            Term::ChannelerCharges => f.write_str("Channeler's Charges"),
            Term::ChannelerStandard => f.write_str("Channeler Standard"),
            Term::HalfOf { token } => write!(f, "half of {token}"),
            Term::AssassinCounter => {
                f.write_str("the Assassin's Counter-Attack deals no damage (L301)")
            }
            Term::RazorbeastRedBonus => f.write_str("red bonus (Razorbeast, L315)"),
            Term::Parry => f.write_str("Parry"),
            Term::Extra { token } => write!(f, "extra {token}"),
            Term::Surge => f.write_str("surge"),
        }
    }
}
