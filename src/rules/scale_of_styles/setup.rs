//! Settings, the fighters' values and the opening position (rulings S-1 to S-4, §3.5, §5.1).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cards::{Card, shuffled_rest};
use super::events::PlayerRef;
use super::refusal::{
    COMBAT_SIDES, FighterProblem, Refusal, STAMINA_LIMIT, SetupProblem, XP_LIMIT,
};
use super::rulebook::{DeckOrder, Rulebook};
use super::state::{Discarded, Fighter, State, Step};
use crate::rules::{Entrant, GameRng, ROUND_LIMIT, SettingsError};

/// The longest `dice` list: 8 dice for each of the most rounds a match can last (54).
pub const DICE_LIMIT: usize = 8 * 54;

/// The lobby's settings: the variant keys of §5.1 (flattened [`Rulebook`]), `max_rounds`,
/// and the test hooks of §3.5 (`seed`, `dice`, `setup`).
///
/// Serde's `deny_unknown_fields` does not work with `flatten`, so a client's settings go
/// through [`parse`], which refuses unknown keys and bad variant values by name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Must be 2 if given: the match is a duel (§1.3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_players: Option<u32>,
    /// The last round, as an absolute round number; then the match ends on points (Ruling 23).
    pub max_rounds: Option<u32>,
    /// Seeds the shuffles and the dice, so a match replays exactly (§3.5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Explicit die values replacing the RNG, 8 per round in R4 order (§3.5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice: Option<Vec<i64>>,
    /// A position at the start of a round's `play` step (§3.5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<Setup>,
    /// The variant keys of §5.1.
    #[serde(flatten)]
    pub rules: Rulebook,
}

/// A starting position (§3.5).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Setup {
    /// The round whose `play` step opens (default 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// Up to two fighters, matched to seats in join order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<SetupPlayer>>,
}

/// One fighter in a [`Setup`]; a value given here wins over the join field it overlaps.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SetupPlayer {
    /// The deck, top first (default: the cards not in the discard, shuffled).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<String>>,
    /// The face-up discard, oldest first (default: empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discard: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xp: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wounds: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stamina: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combat_dice: Option<Vec<i64>>,
}

/// A join request's game fields (S-1): all optional, public once given. A number may come as
/// JSON or as the text a join form posts (`"3"`); the dice as `[6, 8]` or `"6 8"`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    pub level: Option<Number>,
    pub xp: Option<Number>,
    pub stamina: Option<Number>,
    pub combat_dice: Option<DiceField>,
    /// Read only to be refused (`no-characters`), as Crossing Swords does.
    pub character: Option<Value>,
}

/// A join number, as JSON or as form text.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Number {
    Int(i64),
    Text(String),
}

impl Number {
    /// The number; a text that is none reads as -1, which every range refuses by name.
    fn value(&self) -> i64 {
        match self {
            Number::Int(n) => *n,
            Number::Text(t) => t.trim().parse().unwrap_or(-1),
        }
    }
}

/// The combat dice, as `[6, 8]` or as form text (`"6 8"`, `"d6+d8"`).
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum DiceField {
    List(Vec<i64>),
    Text(String),
}

impl DiceField {
    fn sides(&self) -> Vec<i64> {
        match self {
            DiceField::List(list) => list.clone(),
            DiceField::Text(text) => text
                .split(|c: char| c.is_whitespace() || c == '+' || c == ',')
                .filter(|part| !part.is_empty())
                .map(|part| part.trim_start_matches('d').parse().unwrap_or(-1))
                .collect(),
        }
    }
}

/// A fighter's values as checked at sign-up (S-1; defaults Level 0, XP 0, stamina 12, d6+d8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Join {
    pub level: u8,
    pub xp: u32,
    pub stamina: u32,
    pub combat_dice: [u8; 2],
}

impl Default for Join {
    fn default() -> Join {
        Join {
            level: 0,
            xp: 0,
            stamina: 12,
            combat_dice: [6, 8],
        }
    }
}

/// Every top-level settings key.
const KEYS: [&str; 5] = ["max_players", "max_rounds", "seed", "dice", "setup"];

/// Reads a client's settings object, refusing unknown keys (`unknown-setting`) and variant
/// values §5.1 does not list (`invalid-setting`) by name.
pub fn parse(raw: Value) -> Result<Settings, SettingsError<Refusal>> {
    if let Value::Object(map) = &raw {
        for (key, value) in map {
            if Rulebook::KEYS.contains(&key.as_str()) {
                let one = Value::Object([(key.clone(), value.clone())].into_iter().collect());
                if let Err(e) = serde_json::from_value::<Rulebook>(one) {
                    return Err(SettingsError::Refused(Refusal::InvalidSetting {
                        key: key.clone(),
                        problem: e.to_string(),
                    }));
                }
            } else if !KEYS.contains(&key.as_str()) {
                return Err(SettingsError::Refused(Refusal::UnknownSetting {
                    key: key.clone(),
                }));
            }
        }
    }
    crate::rules::read_settings(raw)
}

/// Checks a fighter's values (S-1, Rulings 21, 22, 25), each given or defaulted.
fn fighter_values(
    base: Join,
    level: Option<i64>,
    xp: Option<i64>,
    stamina: Option<i64>,
    dice: Option<&[i64]>,
) -> Result<Join, FighterProblem> {
    let level = level.unwrap_or(i64::from(base.level));
    let level = u8::try_from(level)
        .ok()
        .filter(|l| *l <= 11)
        .ok_or(FighterProblem::Level { got: level })?;
    let xp = xp.unwrap_or(i64::from(base.xp));
    let xp = u32::try_from(xp)
        .ok()
        .filter(|_| xp <= XP_LIMIT)
        .ok_or(FighterProblem::Xp { got: xp })?;
    let stamina = stamina.unwrap_or(i64::from(base.stamina));
    let stamina = u32::try_from(stamina)
        .ok()
        .filter(|s| *s >= 1 && i64::from(*s) <= STAMINA_LIMIT)
        .ok_or(FighterProblem::Stamina { got: stamina })?;
    let combat_dice = match dice {
        None => base.combat_dice,
        Some(got) => {
            let sides = |v: i64| COMBAT_SIDES.into_iter().find(|s| i64::from(*s) == v);
            match got {
                [a, b] => match (sides(*a), sides(*b)) {
                    (Some(a), Some(b)) => [a, b],
                    _ => return Err(FighterProblem::CombatDice { got: got.to_vec() }),
                },
                _ => return Err(FighterProblem::CombatDice { got: got.to_vec() }),
            }
        }
    };
    Ok(Join {
        level,
        xp,
        stamina,
        combat_dice,
    })
}

/// Checks a join's fighter values (S-1).
pub fn check_join(body: JoinBody) -> Result<Join, Refusal> {
    if body.character.as_ref().is_some_and(|c| !c.is_null()) {
        return Err(Refusal::NoCharacters);
    }
    let dice = body.combat_dice.as_ref().map(DiceField::sides);
    fighter_values(
        Join::default(),
        body.level.as_ref().map(Number::value),
        body.xp.as_ref().map(Number::value),
        body.stamina.as_ref().map(Number::value),
        dice.as_deref(),
    )
    .map_err(Refusal::InvalidFighter)
}

/// Checks the settings alone: ranges, the dice list as far as no join is needed (every value
/// fits some die), and the setup's own consistency.
pub fn check(settings: &Settings) -> Result<(), Refusal> {
    if let Some(got) = settings.max_players
        && got != 2
    {
        return Err(Refusal::InvalidMaxPlayers { got });
    }
    if let Some(got) = settings.max_rounds
        && !(1..=ROUND_LIMIT).contains(&got)
    {
        return Err(Refusal::InvalidMaxRounds { got });
    }
    if let Some(dice) = &settings.dice {
        // The largest die is the d12 (Ruling 25, R4); which die each value falls on is
        // known only once the fighters have joined, and is checked at the start.
        let bad = dice
            .iter()
            .enumerate()
            .find(|(_, v)| !(1..=12).contains(*v));
        if let Some((index, &value)) = bad {
            return Err(Refusal::InvalidDice {
                index,
                value,
                sides: 12,
            });
        }
        if dice.len() > DICE_LIMIT {
            return Err(Refusal::InvalidDice {
                index: DICE_LIMIT,
                value: dice[DICE_LIMIT],
                sides: 12,
            });
        }
    }
    match &settings.setup {
        None => Ok(()),
        Some(setup) => {
            // The joins are not known yet: the setup's own values are checked against the
            // widest a join may give (its wounds against its stamina again at the start).
            let widest = Join {
                stamina: STAMINA_LIMIT as u32,
                ..Join::default()
            };
            opening(setup, settings, &[widest; 2]).map(|_| ())
        }
    }
}

/// A setup entry read into cards and values.
struct Seated {
    join: Join,
    wounds: u32,
    deck: Option<Vec<Card>>,
    discard: Vec<Card>,
}

fn cards(entry: usize, list: &[String]) -> Result<Vec<Card>, SetupProblem> {
    list.iter()
        .map(|code| {
            code.parse().map_err(|_| SetupProblem::UnknownCard {
                entry,
                got: code.clone(),
            })
        })
        .collect()
}

/// The setup's round and each fighter's position, over the join values `joins`.
fn opening(
    setup: &Setup,
    settings: &Settings,
    joins: &[Join; 2],
) -> Result<(u32, Vec<Seated>), Refusal> {
    let bad = Refusal::InvalidSetup;
    let round = setup.round.unwrap_or(1);
    if !(1..=ROUND_LIMIT).contains(&round) {
        return Err(bad(SetupProblem::RoundOutOfRange { round }));
    }
    if let Some(max_rounds) = settings.max_rounds
        && round > max_rounds
    {
        return Err(bad(SetupProblem::RoundPastCap { round, max_rounds }));
    }
    let entries = setup.players.clone().unwrap_or_default();
    if entries.len() > 2 {
        return Err(bad(SetupProblem::TooManyEntries {
            entries: entries.len(),
        }));
    }
    let pack = Card::pack(settings.rules.jokers.count());
    let mut seated = Vec::with_capacity(2);
    for (entry, join) in joins.iter().enumerate() {
        let p = entries.get(entry).cloned().unwrap_or_default();
        let join = fighter_values(*join, p.level, p.xp, p.stamina, p.combat_dice.as_deref())
            .map_err(|problem| bad(SetupProblem::Fighter { entry, problem }))?;
        let wounds = p.wounds.unwrap_or(0);
        if wounds < 0 || wounds >= i64::from(join.stamina) {
            return Err(bad(SetupProblem::WoundsNotBelowStamina { entry }));
        }
        let discard = cards(entry, p.discard.as_deref().unwrap_or_default()).map_err(bad)?;
        let deck = p
            .deck
            .as_deref()
            .map(|d| cards(entry, d))
            .transpose()
            .map_err(bad)?;
        let mut all: Vec<Card> = discard.clone();
        all.extend(deck.iter().flatten());
        all.sort();
        let whole = match &deck {
            Some(_) => all == pack,
            None => all.windows(2).all(|w| w[0] != w[1]) && all.iter().all(|c| pack.contains(c)),
        };
        if !whole {
            return Err(bad(SetupProblem::NotThePack { entry }));
        }
        if deck
            .as_ref()
            .map_or(discard.len() >= pack.len(), Vec::is_empty)
        {
            return Err(bad(SetupProblem::EmptyDeck { entry }));
        }
        seated.push(Seated {
            join,
            wounds: u32::try_from(wounds).unwrap_or(0),
            deck,
            discard,
        });
    }
    Ok((round, seated))
}

/// Checks the `dice` list against the fighters' dice (§3.5): value `i` falls on die
/// `i mod 8` of the R4 order.
fn check_dice(dice: &[i64], fighters: &[Fighter; 2]) -> Result<(), Refusal> {
    let order = super::round::die_order(fighters);
    for (index, &value) in dice.iter().enumerate() {
        let sides = order[index % 8];
        if !(1..=i64::from(sides)).contains(&value) {
            return Err(Refusal::InvalidDice {
                index,
                value,
                sides,
            });
        }
    }
    Ok(())
}

/// Seats the two entrants (S-1), builds their decks (S-2, S-3; or the setup's position) and
/// opens the first step. With `deck_order=shuffled` the decks are shuffled now, P1 then P2;
/// with a planned order the `plan` step opens on canonical-order packs.
pub fn start(
    settings: &Settings,
    entrants: &[Entrant<Join>],
    rng: &mut GameRng,
) -> Result<State, Refusal> {
    check(settings)?;
    let [e1, e2] = entrants else {
        return Err(Refusal::WrongPlayerCount {
            got: entrants.len(),
        });
    };
    let joins = [e1.join, e2.join];
    let rules = settings.rules;
    let pack = Card::pack(rules.jokers.count());
    let (round, seated, step) = match &settings.setup {
        Some(setup) => {
            let (round, seated) = opening(setup, settings, &joins)?;
            (round, seated, Step::Play)
        }
        None => {
            let seated = joins
                .iter()
                .map(|&join| Seated {
                    join,
                    wounds: 0,
                    deck: match rules.deck_order {
                        DeckOrder::Planned => Some(pack.clone()),
                        DeckOrder::Shuffled => None,
                    },
                    discard: Vec::new(),
                })
                .collect();
            let step = match rules.deck_order {
                DeckOrder::Planned => Step::Plan,
                DeckOrder::Shuffled => Step::Play,
            };
            (1, seated, step)
        }
    };
    let fighters: Vec<Fighter> = [e1, e2]
        .into_iter()
        .zip(seated)
        .map(|(e, s)| Fighter {
            who: PlayerRef {
                id: e.id,
                name: e.name.clone(),
            },
            level: s.join.level,
            xp: s.join.xp,
            stamina: s.join.stamina,
            wounds: s.wounds,
            combat_dice: s.join.combat_dice,
            // Seat order: P1's missing deck is shuffled before P2's (S-3).
            deck: s
                .deck
                .unwrap_or_else(|| shuffled_rest(&pack, &s.discard, rng)),
            discard: s
                .discard
                .into_iter()
                .map(|card| Discarded {
                    card,
                    stripped: false,
                })
                .collect(),
        })
        .collect();
    let fighters: [Fighter; 2] = fighters
        .try_into()
        .map_err(|_| Refusal::WrongPlayerCount { got: 2 })?;
    let dice = settings.dice.clone().unwrap_or_default();
    check_dice(&dice, &fighters)?;
    // A play step nobody is asked about (every window holds one card) is left open: the
    // host plays it as any step (`Game::unasked`), so that its round is published.
    Ok(State {
        round,
        max_rounds: settings.max_rounds,
        rules,
        fighters,
        step,
        scripted_dice: dice.iter().map(|&v| u8::try_from(v).unwrap_or(1)).collect(),
        end: None,
    })
}
