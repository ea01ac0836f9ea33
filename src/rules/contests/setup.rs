//! Settings, builds and the opening position (rulings §2.1-§2.7, S1-S5, §3.9, §5.1).

use std::collections::VecDeque;

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::engine::Run;
use super::ids::{Ability, Attribute, Card, OUT_OF_SCOPE_ABILITIES, Phase};
use super::refusal::Refusal;
use super::rulebook::Rulebook;
use super::state::{Build, Fighter, Lasts, Modifier, PlayerRef, Source, State, Step};
use crate::rules::{Entrant, GameRng, SettingsError};

/// The lobby's settings: the variant keys of §5.1 (flattened [`Rulebook`]) and the test
/// hooks of §3.9 (`seed`, `decks`, `default_dice`, `setup`), which stay secret while the
/// duel runs. Read through [`parse`], which refuses unknown keys and out-of-range values.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Must be 2 if given: the duel has two combatants (§1.3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_players: Option<u32>,
    /// Seeds the shuffles and the absent players' dice (§3.9).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Both decks, top first, in place of the shuffles (§3.9).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decks: Option<Decks>,
    /// Values 1-6 used before the RNG for absent players' dice and guesses (§3.9).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_dice: Option<Vec<i64>>,
    /// A position at the opening of a round's window (§3.9).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<Setup>,
    /// The variant keys of §5.1.
    #[serde(flatten)]
    pub rules: Rulebook,
}

/// The `decks` hook (§3.9): each list the 17 cards, top first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decks {
    pub p1: Vec<String>,
    pub p2: Vec<String>,
}

/// The `setup` hook (§3.9): a position at the opening of round `round`'s window.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Setup {
    pub round: u32,
    /// The phase just played; null exactly at round 1.
    pub after: Option<Phase>,
    /// Archery phases played so far (Rapid Shot, Ruling 33).
    pub archery_phases: u32,
    /// Up to two combatants, seat order.
    pub players: Vec<SetupPlayer>,
}

/// One combatant in a [`Setup`]; what it leaves out is as at the start of a duel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SetupPlayer {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hp: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub energy: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discard: Option<Vec<String>>,
    /// Combat-long modifiers as `[attribute, amount, "combat"]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mods: Vec<(String, i64, String)>,
    pub rwih: bool,
    pub lucky_used: bool,
    pub backstab: bool,
    pub surcharge_until: u32,
    pub spent_round: u32,
    /// With a `discard` and neither `hand` nor `deck`: the cards not in the discard are
    /// shuffled as the start shuffles a deck (S4), and this many of them form the hand (a
    /// fork's position, whose hands and deck orders were published with its archive).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand_size: Option<i64>,
}

impl SetupPlayer {
    /// Only the discard is given: the rest is shuffled again (see [`SetupPlayer::hand_size`]).
    fn reshuffles(&self) -> bool {
        self.discard.is_some() && self.hand.is_none() && self.deck.is_none()
    }
}

/// A join request's game field (§2.1): `build`, default §2.7.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    pub build: Option<BuildBody>,
}

/// A build as sent (§2.1).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildBody {
    pub might: Option<i64>,
    pub skill: Option<i64>,
    pub mind: Option<i64>,
    #[serde(default)]
    pub abilities: Vec<String>,
    #[serde(default)]
    pub monster: bool,
}

/// The top-level keys besides the variant keys.
const HOOKS: [&str; 5] = ["max_players", "seed", "decks", "default_dice", "setup"];

/// Reads a client's settings (§5.1): an unknown key or a variant value out of its range is
/// refused by name (the host's 422); a shape serde cannot read is malformed.
pub fn parse(raw: Value) -> Result<Settings, SettingsError<Refusal>> {
    if let Value::Object(map) = &raw {
        for (key, value) in map {
            if Rulebook::is_key(key) {
                if let Some(problem) = Rulebook::problem(key, value) {
                    return Err(SettingsError::Refused(Refusal::InvalidSetting {
                        key: key.clone(),
                        problem,
                    }));
                }
            } else if !HOOKS.contains(&key.as_str()) {
                return Err(SettingsError::Refused(Refusal::UnknownSetting {
                    key: key.clone(),
                }));
            }
        }
    }
    crate::rules::read_settings(raw)
}

fn card(code: &str) -> Option<Card> {
    code.parse().ok()
}

/// The cards of `codes`, each a card of the deck (`what` names the list in the message).
fn cards(codes: &[String], what: &str) -> Result<Vec<Card>, String> {
    codes
        .iter()
        .map(|c| card(c).ok_or_else(|| format!("{what}: '{c}' is not a combat card")))
        .collect()
}

/// Whether `cards` are the 17 cards once each (§2.6).
fn is_deck(cards: &[Card]) -> bool {
    let mut sorted = cards.to_vec();
    sorted.sort();
    sorted == Card::deck()
}

/// Checks the settings alone (§5.1 and the hooks of §3.9, as far as no build is needed).
pub fn check(settings: &Settings) -> Result<(), Refusal> {
    let rules = &settings.rules;
    if let Some(got) = settings.max_players
        && got != 2
    {
        return Err(Refusal::InvalidMaxPlayers { got });
    }
    let numbers = [
        ("hp", rules.hp),
        ("energy", rules.energy),
        ("points", rules.points),
        ("max_abilities", rules.max_abilities),
        ("base_guesses", rules.base_guesses),
        ("max_ties", rules.max_ties),
        ("max_phases", rules.max_phases),
        ("opening_hand", rules.opening_hand),
        ("hand_limit", rules.hand_limit),
    ];
    for (key, value) in numbers {
        if let Some(problem) = Rulebook::problem(key, &Value::from(value)) {
            return Err(Refusal::InvalidSetting {
                key: key.into(),
                problem,
            });
        }
    }
    if rules.hand_limit < rules.opening_hand {
        return Err(Refusal::InvalidSetting {
            key: "hand_limit".into(),
            problem: format!(
                "hand_limit {} is below opening_hand {}",
                rules.hand_limit, rules.opening_hand
            ),
        });
    }
    if let Some(decks) = &settings.decks {
        for (who, list) in [("p1", &decks.p1), ("p2", &decks.p2)] {
            let got = cards(list, who).map_err(|problem| Refusal::InvalidDecks { problem })?;
            if !is_deck(&got) {
                return Err(Refusal::InvalidDecks {
                    problem: format!("{who} must list the 17 combat cards once each"),
                });
            }
        }
    }
    if let Some(dice) = &settings.default_dice
        && let Some((index, &value)) = dice.iter().enumerate().find(|(_, v)| !(1..=6).contains(*v))
    {
        return Err(Refusal::InvalidDefaultDice { index, value });
    }
    if let Some(setup) = &settings.setup {
        check_setup(setup, rules).map_err(|problem| Refusal::InvalidSetup { problem })?;
    }
    Ok(())
}

/// §3.9's checks of a setup that need no build.
fn check_setup(setup: &Setup, rules: &Rulebook) -> Result<(), String> {
    if setup.round < 1 || setup.round > rules.max_phases {
        return Err(format!(
            "round must be 1 to max_phases ({}), not {}",
            rules.max_phases, setup.round
        ));
    }
    if (setup.round == 1) != setup.after.is_none() {
        return Err("after is null exactly at round 1".into());
    }
    if setup.archery_phases >= setup.round {
        return Err("archery_phases counts phases already played".into());
    }
    if setup.players.len() > 2 {
        return Err(format!("{} players; a duel has 2", setup.players.len()));
    }
    for (i, p) in setup.players.iter().enumerate() {
        let at = format!("players[{i}]");
        if p.reshuffles() {
            let discard = cards(p.discard.as_deref().unwrap_or_default(), &at)?;
            let mut distinct = discard.clone();
            distinct.sort();
            distinct.dedup();
            if distinct.len() != discard.len() {
                return Err(format!("{at}.discard lists a card twice"));
            }
            let left = Card::ALL.len() - discard.len();
            match p.hand_size {
                Some(n) if n < 0 || n as usize > left || n > i64::from(rules.hand_limit) => {
                    return Err(format!(
                        "{at}.hand_size is 0 to hand_limit and to the {left} cards not discarded"
                    ));
                }
                _ => {}
            }
        } else if p.hand_size.is_some() {
            return Err(format!(
                "{at}.hand_size goes with a discard alone, without hand or deck"
            ));
        } else if p.hand.is_some() || p.deck.is_some() || p.discard.is_some() {
            let all: Vec<String> = [&p.hand, &p.deck, &p.discard]
                .into_iter()
                .flatten()
                .flatten()
                .cloned()
                .collect();
            if !is_deck(&cards(&all, &at)?) {
                return Err(format!(
                    "{at}: hand + deck + discard must be the 17 combat cards once each"
                ));
            }
        }
        let hand = p.hand.as_ref().map_or(0, Vec::len);
        if hand > rules.hand_limit as usize {
            return Err(format!("{at}.hand holds more than hand_limit cards"));
        }
        if p.hp.is_some_and(|hp| hp < 1) {
            return Err(format!("{at}.hp must be at least 1"));
        }
        if p.energy
            .is_some_and(|e| !(0..=i64::from(u32::MAX)).contains(&e))
        {
            return Err(format!("{at}.energy must be 0 or more"));
        }
        for (attribute, amount, lasts) in &p.mods {
            if attribute.parse::<Attribute>().is_err() {
                return Err(format!("{at}.mods: '{attribute}' is not an attribute"));
            }
            if lasts != "combat" {
                return Err(format!(
                    "{at}.mods: a window has only combat-long modifiers, not '{lasts}'"
                ));
            }
            if amount.abs() > 100 {
                return Err(format!("{at}.mods: {amount} is out of range"));
            }
        }
    }
    Ok(())
}

fn invalid(problem: impl Into<String>) -> Refusal {
    Refusal::InvalidBuild {
        problem: problem.into(),
    }
}

/// Checks a build (§2.1): ratings 1-6 adding up to `points`, up to `max_abilities` different
/// in-scope abilities, no more in an attribute than its rating, Art of Killing with Skill 3+.
pub fn check_build(rules: &Rulebook, body: BuildBody) -> Result<Build, Refusal> {
    let rating = |name: &str, v: Option<i64>| -> Result<u32, Refusal> {
        match v {
            Some(n @ 1..=6) => Ok(n as u32),
            Some(n) => Err(invalid(format!("{name} is 1 to 6, not {n}"))),
            None => Err(invalid(format!("{name} is missing"))),
        }
    };
    let might = rating("might", body.might)?;
    let skill = rating("skill", body.skill)?;
    let mind = rating("mind", body.mind)?;
    if might + skill + mind != rules.points {
        return Err(invalid(format!(
            "the ratings add up to {}, not the {} points of a build",
            might + skill + mind,
            rules.points
        )));
    }
    let mut abilities = Vec::new();
    for id in &body.abilities {
        let ability: Ability =
            id.parse()
                .map_err(|()| match OUT_OF_SCOPE_ABILITIES.contains(&id.as_str()) {
                    true => invalid(format!(
                        "{id} belongs to the adventure map and is not in the duel"
                    )),
                    false => invalid(format!("'{id}' is not an ability")),
                })?;
        if abilities.contains(&ability) {
            return Err(invalid(format!("{id} is listed twice")));
        }
        abilities.push(ability);
    }
    if abilities.len() > rules.max_abilities as usize {
        return Err(invalid(format!(
            "{} abilities; a build holds at most {}",
            abilities.len(),
            rules.max_abilities
        )));
    }
    let build = Build {
        might,
        skill,
        mind,
        abilities,
        monster: body.monster,
    };
    for attribute in Attribute::ALL {
        let held = build
            .abilities
            .iter()
            .filter(|a| a.attribute() == *attribute)
            .count() as u32;
        if held > build.rating(*attribute) {
            return Err(invalid(format!(
                "{held} {attribute} abilities with a {attribute} rating of {}",
                build.rating(*attribute)
            )));
        }
    }
    if build.has(Ability::ArtOfKilling) && build.skill < 3 {
        return Err(invalid("art-of-killing needs Skill 3 or more"));
    }
    Ok(build)
}

/// Checks a join (S2): the build given, or the default build of §2.7.
pub fn check_join(settings: &Settings, body: JoinBody) -> Result<Build, Refusal> {
    match body.build {
        Some(build) => check_build(&settings.rules, build),
        None => {
            let default = Build::default_build();
            // The default build must fit the variant; a game with other points or fewer
            // abilities asks for a build.
            check_build(
                &settings.rules,
                BuildBody {
                    might: Some(i64::from(default.might)),
                    skill: Some(i64::from(default.skill)),
                    mind: Some(i64::from(default.mind)),
                    abilities: default
                        .abilities
                        .iter()
                        .map(|a| a.id().to_owned())
                        .collect(),
                    monster: false,
                },
            )
        }
    }
}

fn parse_list(codes: &Option<Vec<String>>) -> Vec<Card> {
    codes
        .as_ref()
        .map(|c| c.iter().filter_map(|c| card(c)).collect())
        .unwrap_or_default()
}

/// Deals the opening position (S1-S5) and plays on to the first step somebody owes.
pub fn start(
    settings: &Settings,
    entrants: &[Entrant<Build>],
    rng: &mut GameRng,
) -> Result<State, Refusal> {
    if entrants.len() != 2 {
        return Err(Refusal::WrongPlayerCount {
            got: entrants.len(),
        });
    }
    let rules = settings.rules;
    let setup = settings.setup.clone().unwrap_or(Setup {
        round: 1,
        ..Setup::default()
    });
    let mut fighters = Vec::with_capacity(2);
    for (i, e) in entrants.iter().enumerate() {
        let max_hp = e.join.max_hp(&rules);
        // S4: P1's deck is shuffled first, then P2's, each from canonical order.
        let mut deck = match &settings.decks {
            Some(decks) => parse_list(&Some(if i == 0 {
                decks.p1.clone()
            } else {
                decks.p2.clone()
            })),
            None => {
                let mut deck = Card::deck();
                deck.shuffle(rng);
                deck
            }
        };
        let take = (rules.opening_hand as usize).min(deck.len());
        let mut hand: Vec<Card> = deck.drain(..take).collect();
        let mut discard = Vec::new();
        let mut f = Fighter {
            who: PlayerRef {
                id: e.id,
                name: e.name.clone(),
            },
            build: e.join.clone(),
            max_hp,
            hp: max_hp,
            energy: rules.energy,
            hand: Vec::new(),
            deck: Vec::new(),
            discard: Vec::new(),
            table: Vec::new(),
            mods: Vec::new(),
            rwih: false,
            lucky_used: false,
            backstab: false,
            surcharge_until: 0,
            spent_round: 0,
        };
        if let Some(p) = setup.players.get(i) {
            if p.reshuffles() {
                // The deck just shuffled (or dealt by the `decks` hook), less the discard.
                discard = parse_list(&p.discard);
                let mut rest: Vec<Card> = hand
                    .drain(..)
                    .chain(deck.drain(..))
                    .filter(|c| !discard.contains(c))
                    .collect();
                let size = p
                    .hand_size
                    .map_or(rules.opening_hand as usize, |n| n.max(0) as usize)
                    .min(rest.len());
                hand = rest.drain(..size).collect();
                deck = rest;
            } else if p.hand.is_some() || p.deck.is_some() || p.discard.is_some() {
                hand = parse_list(&p.hand);
                deck = parse_list(&p.deck);
                discard = parse_list(&p.discard);
            }
            if let Some(hp) = p.hp {
                if hp > i64::from(max_hp) {
                    return Err(Refusal::InvalidSetup {
                        problem: format!("players[{i}].hp {hp} is above the maximum {max_hp}"),
                    });
                }
                f.hp = hp as u32;
            }
            if let Some(energy) = p.energy {
                f.energy = energy as u32;
            }
            f.mods = p
                .mods
                .iter()
                .filter_map(|(a, amount, _)| {
                    Some(Modifier {
                        attribute: a.parse().ok()?,
                        amount: *amount as i32,
                        lasts: Lasts::Combat,
                        source: Source::Setup,
                    })
                })
                .collect();
            f.rwih = p.rwih;
            f.lucky_used = p.lucky_used;
            f.backstab = p.backstab;
            f.surcharge_until = p.surcharge_until;
            f.spent_round = p.spent_round;
        }
        f.hand = hand;
        f.deck = deck;
        f.discard = discard;
        fighters.push(f);
    }
    let fighters: [Fighter; 2] = fighters.try_into().map_err(|_| Refusal::WrongPlayerCount {
        got: entrants.len(),
    })?;
    let scripted: VecDeque<u8> = settings
        .default_dice
        .iter()
        .flatten()
        .filter_map(|v| u8::try_from(*v).ok())
        .collect();
    let mut state = State {
        rules,
        round: setup.round,
        phases: setup.round - 1,
        archery_phases: setup.archery_phases,
        contests: 0,
        fighters,
        step: Step::Opening,
        window: None,
        phase: None,
        contest: None,
        discard: None,
        queue: VecDeque::new(),
        scripted,
        end: None,
        unopened: true,
    };
    // S5: the window is laid out; the host plays it on (`Contests::resolve`) as an unasked
    // step, so that its lines are filed as their own step.
    Run::new(&mut state, rng).open_window(setup.after);
    Ok(state)
}
