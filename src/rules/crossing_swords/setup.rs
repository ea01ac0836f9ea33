//! Host settings and the opening position (G1, G2, Ruling 31; api.md "Starting from a position").

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::refusal::{Refusal, SETUP_POOL_LIMIT, SetupProblem};
use super::rulebook::Rulebook;
use super::state::{Fighter, State};
use crate::rules::{Entrant, ROUND_LIMIT, Seat, SettingsError};

/// The most players a game seats (G1: "playable by up to 16 people").
pub const MOST_PLAYERS: u32 = 16;
/// Starting HP (G2: "starts with 20 HP").
pub const START_HP: u32 = 20;

/// Host-chosen settings: the seats, the variant keys of rulings §3.1 (`max_rounds` and the
/// [`Rulebook`], whose keys sit flattened beside it) and an optional opening position.
///
/// Serde's `deny_unknown_fields` does not work with `flatten`, so the derived `Deserialize`
/// ignores unknown keys: it reads only what Herald stored. A client's settings go through
/// [`parse`], which refuses unknown keys and bad variant values by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// How many may sign up, 2..=16 (G1); default 16.
    pub max_players: u32,
    /// The stall guard of Ruling 31: the game ends after this turn, with no conversion; 1 to
    /// [`ROUND_LIMIT`]. None: the host set no cap, and the game ends after round
    /// [`ROUND_LIMIT`] all the same.
    pub max_rounds: Option<u32>,
    /// A position to start from instead of the normal start.
    pub setup: Option<Setup>,
    /// Every other variant key of §3.1 (flattened: `{"halt_cycle": "all_fire", ...}`).
    #[serde(flatten)]
    pub rules: Rulebook,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_players: MOST_PLAYERS,
            max_rounds: None,
            setup: None,
            rules: Rulebook::default(),
        }
    }
}

/// Reads a client's settings object. A key that is no setting is refused (`unknown-setting`),
/// and so is a variant key whose value §3.1 does not list (`invalid-setting`), each naming the
/// key; a value of the wrong shape for `max_players`, `max_rounds` or `setup` is malformed.
pub fn parse(raw: Value) -> Result<Settings, SettingsError<Refusal>> {
    if let Value::Object(map) = &raw {
        // Every key the settings serialize is a key they take: the list cannot drift.
        let known = serde_json::to_value(Settings::default()).unwrap_or_default();
        for (key, value) in map {
            if known.get(key).is_none() {
                return Err(SettingsError::Refused(Refusal::UnknownSetting {
                    key: key.clone(),
                }));
            }
            if Rulebook::KEYS.contains(&key.as_str()) {
                let one = Value::Object([(key.clone(), value.clone())].into_iter().collect());
                if let Err(e) = serde_json::from_value::<Rulebook>(one) {
                    return Err(SettingsError::Refused(Refusal::InvalidSetting {
                        key: key.clone(),
                        problem: e.to_string(),
                    }));
                }
            }
        }
    }
    crate::rules::read_settings(raw)
}

/// An opening position: the moment round `round`'s orders fall due. Every field is optional
/// and defaults to the normal start (round 1, 20 HP, 0 VP, alive, no carry-over; G2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Setup {
    /// The round whose orders fall due; default 1.
    pub round: Option<u32>,
    /// One entry per entrant, in join (seat) order; default: everyone at the normal start.
    pub players: Option<Vec<SetupPlayer>>,
}

/// One player's position in a [`Setup`] (rulings §2.1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SetupPlayer {
    /// Life Pool; default 20 if alive, 0 if dead (R12: a dead player is at 0).
    pub hp: Option<i64>,
    /// Victory Pool; default 0.
    pub vp: Option<i64>,
    /// Default true.
    pub alive: Option<bool>,
    /// Seat index of last turn's un-negated Focus target (`focus_prev`, R11), or null.
    pub focus: Option<usize>,
    /// Seat index of last turn's Dodge target (`dodge_prev`, R11), or null.
    pub dodge: Option<usize>,
}

/// Checks the settings alone (G1, Ruling 31, the setup's own consistency).
///
/// A living player must have HP above 0 and a dead one exactly 0 (R12). A carry-over may name
/// a dead player (Ruling 12: a Focus on a player who died that turn still enables Mend 7), but a
/// dead player carries none (Ruling 30), and at least two entries must be alive (R13).
pub fn check(settings: &Settings) -> Result<(), Refusal> {
    if !(2..=MOST_PLAYERS).contains(&settings.max_players) {
        return Err(Refusal::InvalidMaxPlayers {
            got: settings.max_players,
        });
    }
    if let Some(got) = settings.max_rounds
        && !(1..=ROUND_LIMIT).contains(&got)
    {
        return Err(Refusal::InvalidMaxRounds { got });
    }
    let Some(setup) = &settings.setup else {
        return Ok(());
    };
    check_setup(setup, settings).map_err(Refusal::InvalidSetup)
}

fn check_setup(setup: &Setup, settings: &Settings) -> Result<(), SetupProblem> {
    let round = setup.round.unwrap_or(1);
    if !(1..=ROUND_LIMIT).contains(&round) {
        return Err(SetupProblem::RoundOutOfRange { round });
    }
    if let Some(max_rounds) = settings.max_rounds
        && round > max_rounds
    {
        return Err(SetupProblem::RoundPastCap { round, max_rounds });
    }
    let Some(players) = &setup.players else {
        return Ok(());
    };
    let max = settings.max_players as usize;
    if players.len() > max {
        return Err(SetupProblem::TooManyEntries {
            entries: players.len(),
            max,
        });
    }
    for (entry, p) in players.iter().enumerate() {
        let alive = p.alive.unwrap_or(true);
        let hp = p.hp.unwrap_or(if alive { i64::from(START_HP) } else { 0 });
        let vp = p.vp.unwrap_or(0);
        if hp < 0 || vp < 0 {
            return Err(SetupProblem::Negative { entry });
        }
        if hp > SETUP_POOL_LIMIT || vp > SETUP_POOL_LIMIT {
            return Err(SetupProblem::TooLarge { entry });
        }
        if alive != (hp > 0) {
            return Err(SetupProblem::HpDoesNotFitAlive { entry });
        }
        for index in [p.focus, p.dodge].into_iter().flatten() {
            if index >= players.len() {
                return Err(SetupProblem::CarryOverOutOfRange { entry, index });
            }
            if !alive {
                return Err(SetupProblem::CarryOverOnDeadPlayer { entry });
            }
        }
    }
    let alive = players.iter().filter(|p| p.alive.unwrap_or(true)).count();
    if alive < 2 {
        return Err(SetupProblem::TooFewAlive { alive });
    }
    Ok(())
}

/// Seats the entrants in join order at the normal start (G2) or at the setup's position.
pub fn start<J>(settings: &Settings, entrants: &[Entrant<J>]) -> Result<State, Refusal> {
    check(settings)?;
    if entrants.len() < 2 {
        return Err(Refusal::TooFewPlayers {
            got: entrants.len(),
        });
    }
    let max = settings.max_players as usize;
    if entrants.len() > max {
        return Err(Refusal::TooManyPlayers {
            got: entrants.len(),
            max,
        });
    }
    let setup = settings.setup.clone().unwrap_or_default();
    let entries = match setup.players {
        Some(entries) if entries.len() != entrants.len() => {
            return Err(Refusal::SetupMismatch {
                entries: entries.len(),
                entrants: entrants.len(),
            });
        }
        Some(entries) => entries,
        None => vec![SetupPlayer::default(); entrants.len()],
    };
    let players = entrants
        .iter()
        .zip(entries)
        .map(|(e, p)| {
            let alive = p.alive.unwrap_or(true);
            let hp = p.hp.unwrap_or(if alive { i64::from(START_HP) } else { 0 });
            Fighter {
                id: e.id,
                name: e.name.clone(),
                // `check` bounded both to 0..=SETUP_POOL_LIMIT.
                hp: u32::try_from(hp).unwrap_or(0),
                vp: u32::try_from(p.vp.unwrap_or(0)).unwrap_or(0),
                alive,
                focus: p.focus.map(Seat),
                dodge: p.dodge.map(Seat),
            }
        })
        .collect();
    Ok(State {
        round: setup.round.unwrap_or(1),
        max_rounds: settings.max_rounds,
        rules: settings.rules,
        players,
        end: None,
        host_log: Vec::new(),
    })
}
