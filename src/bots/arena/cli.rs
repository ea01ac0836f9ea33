//! `herald arena`: every pairing of the named bots plays the chosen number of games; each
//! game's archive is written as `herald verify` reads it, and a results table printed.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use rand::RngExt;
use serde_json::Value;

use super::game::{Played, Seated, Setup, play};
use super::process::BotProcess;
use super::results::Results;
use super::spec::{BotKind, BotSpec};
use crate::bots::seating;
use crate::fairness::archive::ArchivedLobby;
use crate::fairness::publish::rng_for;
use crate::games::{GameKind, GameUi, with_game};

/// `herald arena`: plays local bots against each other in the process.
#[derive(Clone, Debug, clap::Args)]
pub struct ArenaArgs {
    /// The game's id.
    #[arg(long)]
    pub game: String,
    /// A bot: a built-in strategy (`random`, `greedy`) or `NAME=COMMAND ARGS...`, a program
    /// that speaks the arena's JSON lines (docs/bots.md); repeat for each bot.
    #[arg(long = "bot", required = true)]
    pub bots: Vec<BotSpec>,
    /// Games per pairing (the seats turn each game).
    #[arg(long, default_value_t = 10)]
    pub games: u64,
    /// Seats per game (default: the fewest the game starts with).
    #[arg(long)]
    pub players: Option<usize>,
    /// The settings object, as a lobby's create request sends it.
    #[arg(long, default_value = "{}")]
    pub settings: String,
    /// A seat's join choice, repeated for each seat and cycled; without it each seat draws one
    /// from the game's join form.
    #[arg(long = "join")]
    pub joins: Vec<String>,
    /// How long a bot may think over one prompt before it plays the rules' default for it,
    /// in milliseconds.
    #[arg(long, default_value_t = 5000)]
    pub move_timeout_ms: u64,
    /// The seed the games' seeds are drawn from (default: a fresh one).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Where the archives (and each program's standard error) are written.
    #[arg(long, default_value = "arena")]
    pub out: PathBuf,
}

/// What an arena run did.
pub struct Arena {
    pub results: Results,
    /// The archives written, in the order played.
    pub archives: Vec<PathBuf>,
}

fn json(what: &str, text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("{what} {text:?} is not JSON: {e}"))
}

/// Runs the arena.
pub fn arena(args: &ArenaArgs) -> Result<Arena, String> {
    let game: GameKind = args.game.parse().map_err(|e| format!("{e}"))?;
    with_game!(game, G => arena_of::<G>(args))
}

/// The seats' bots of each pairing: every choice of distinct bots for the seats, or the bots
/// cycled over the seats when there are fewer bots than seats.
fn pairings(bots: usize, seats: usize) -> Vec<Vec<usize>> {
    if bots < seats {
        return vec![(0..seats).map(|s| s % bots).collect()];
    }
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..seats).collect();
    loop {
        out.push(pick.clone());
        let Some(i) = (0..seats).rev().find(|&i| pick[i] < bots - seats + i) else {
            return out;
        };
        pick[i] += 1;
        for j in i + 1..seats {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

fn arena_of<G: GameUi>(args: &ArenaArgs) -> Result<Arena, String> {
    let settings = seating::settings::<G>(json("--settings", &args.settings)?)?;
    let players = seating::players::<G>(&settings, args.players)?;
    let joins: Vec<Value> = args
        .joins
        .iter()
        .map(|j| json("--join", j))
        .collect::<Result<_, _>>()?;
    std::fs::create_dir_all(args.out.join("logs"))
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let base = args.seed.unwrap_or_else(|| rand::rng().random());
    let timeout = Duration::from_millis(args.move_timeout_ms);
    let mut results = Results::default();
    let mut archives = Vec::new();
    let mut number: u64 = 0;
    for pairing in pairings(args.bots.len(), players) {
        for g in 0..args.games {
            number += 1;
            let seed = match <G as crate::rules::Game>::seed(&settings) {
                Some(fixed) => fixed,
                None => rng_for(base, number).random(),
            };
            let lineup: Vec<&BotSpec> = (0..players)
                .map(|s| &args.bots[pairing[(s + g as usize) % players]])
                .collect();
            let mut join_rng = rng_for(seed, u64::MAX - 64);
            let mut chosen = Vec::with_capacity(players);
            for seat in 0..players {
                let joined = match joins.is_empty() {
                    true => seating::random_join::<G>(&settings, &mut join_rng)?,
                    false => seating::join::<G>(&settings, &joins[seat % joins.len()])?,
                };
                chosen.push(joined.join);
            }
            let names = seat_names(&lineup);
            let file = format!("game-{number:04}-{}.json", file_safe(&names.join("-vs-")));
            let mut seats = Vec::with_capacity(players);
            for (seat, (spec, name)) in lineup.iter().zip(&names).enumerate() {
                seats.push(match &spec.kind {
                    BotKind::Builtin(strategy) => {
                        Seated::builtin(name.clone(), *strategy, seed, seat)
                    }
                    BotKind::Command(argv) => {
                        let log = args
                            .out
                            .join("logs")
                            .join(format!("game-{number:04}-seat-{}.stderr", seat + 1));
                        Seated::program(name.clone(), start(argv, &log))
                    }
                });
            }
            let setup = Setup::<G> {
                settings: &settings,
                joins: chosen,
                seed,
                lobby: ArchivedLobby {
                    id: uuid::Uuid::new_v4(),
                    name: format!("Arena game {number}: {}", names.join(" vs ")),
                },
                move_timeout: timeout,
            };
            let Played {
                archive,
                results: seat_results,
            } = play::<G>(setup, &mut seats)?;
            let path = args.out.join(&file);
            let text = serde_json::to_string_pretty(&archive).map_err(|e| e.to_string())?;
            std::fs::write(&path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            archives.push(path);
            results.games += 1;
            for ((spec, seated), result) in lineup.iter().zip(&seats).zip(seat_results) {
                results.add(&spec.name, result, seated.faults);
            }
        }
    }
    Ok(Arena { results, archives })
}

/// Each seat's player name: its bot's, numbered when a bot holds several seats.
fn seat_names(lineup: &[&BotSpec]) -> Vec<String> {
    lineup
        .iter()
        .enumerate()
        .map(|(seat, spec)| {
            let same = lineup.iter().filter(|s| s.name == spec.name).count();
            match same {
                1 => spec.name.clone(),
                _ => format!("{} ({})", spec.name, seat + 1),
            }
        })
        .collect()
}

fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| match c.is_ascii_alphanumeric() || c == '-' {
            true => c,
            false => '_',
        })
        .collect()
}

/// Starts a program; a program that cannot start plays as one that crashed at once.
fn start(argv: &[String], log: &Path) -> Option<BotProcess> {
    let stderr = File::create(log)
        .map(Stdio::from)
        .unwrap_or_else(|_| Stdio::null());
    match BotProcess::spawn(argv, stderr) {
        Ok(process) => Some(process),
        Err(e) => {
            eprintln!("herald arena: cannot start {}: {e}", argv.join(" "));
            None
        }
    }
}

/// Runs `herald arena`: the table on standard output (and in `OUT/results.txt`). Returns the
/// exit code.
pub fn main(args: &ArenaArgs) -> i32 {
    match arena(args) {
        Ok(arena) => {
            let table = arena.results.table();
            print!("{table}");
            println!("archives in {}", args.out.display());
            let _ = std::fs::write(args.out.join("results.txt"), table);
            0
        }
        Err(why) => {
            eprintln!("herald arena: {why}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_are_every_choice_of_distinct_bots() {
        assert_eq!(pairings(3, 2), vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert_eq!(pairings(2, 2), vec![vec![0, 1]]);
        assert_eq!(pairings(1, 2), vec![vec![0, 0]]);
        assert_eq!(pairings(2, 3), vec![vec![0, 1, 0]]);
        assert_eq!(pairings(4, 3).len(), 4);
    }
}
