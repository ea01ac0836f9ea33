//! `herald simulate`: the command line around a simulation run.

use std::time::Instant;

use serde_json::Value;

use super::html::html;
use super::plan::Plan;
use super::play::Table;
use super::report::Report;
use super::run::run;
use crate::bots::seating;
use crate::games::{GameKind, GameUi, Strategy, with_game};

/// `herald simulate`: plays games between strategies in the process and reports who won.
#[derive(Clone, Debug, clap::Args)]
pub struct SimulateArgs {
    /// The game's id (`herald simulate --game bst`).
    #[arg(long)]
    pub game: String,
    /// How many games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The strategies, seat by seat, repeated for each (cycled when fewer than the seats).
    #[arg(long = "strategy", value_enum, default_values = ["greedy", "random"])]
    pub strategies: Vec<Strategy>,
    /// Keep each strategy on its seat (by default the line-up turns one seat every game).
    #[arg(long)]
    pub fixed_seats: bool,
    /// Seats (default: the fewest the game starts with).
    #[arg(long)]
    pub players: Option<usize>,
    /// The settings object, as a lobby's create request sends it (rule variants, `max_rounds`).
    #[arg(long, default_value = "{}")]
    pub settings: String,
    /// A seat's join choice as the join request sends it (`{"character": "sellsword"}`),
    /// repeated for each seat and cycled; without it every seat draws one from the game's join
    /// form every game.
    #[arg(long = "join")]
    pub joins: Vec<String>,
    /// The run's seed: the same seed plays the same games, whatever the threads.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Also write the report as one self-contained HTML page with charts to this file.
    #[arg(long)]
    pub html: Option<std::path::PathBuf>,
}

fn json(what: &str, text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("{what} {text:?} is not JSON: {e}"))
}

impl SimulateArgs {
    /// The plan these flags ask for.
    pub fn plan(&self) -> Result<Plan, String> {
        let game: GameKind = self.game.parse().map_err(|e| format!("{e}"))?;
        let threads = self.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        Ok(Plan {
            game,
            settings: json("--settings", &self.settings)?,
            players: self.players,
            strategies: self.strategies.clone(),
            fixed_seats: self.fixed_seats,
            joins: self
                .joins
                .iter()
                .map(|j| json("--join", j))
                .collect::<Result<_, _>>()?,
            games: self.games,
            seed: self.seed,
            threads: threads.max(1),
        })
    }
}

/// Plays `plan` and reports.
pub fn simulate(plan: &Plan) -> Result<Report, String> {
    timed(plan).map(|(report, _)| report)
}

/// Plays `plan` and reports, with the CPU time the games took in seconds.
fn timed(plan: &Plan) -> Result<(Report, Option<f64>), String> {
    if plan.strategies.is_empty() {
        return Err("name at least one strategy".into());
    }
    with_game!(plan.game, G => simulate_game::<G>(plan))
}

fn simulate_game<G: GameUi>(plan: &Plan) -> Result<(Report, Option<f64>), String> {
    let settings = seating::settings::<G>(plan.settings.clone())?;
    if <G as crate::rules::Game>::seed(&settings).is_some() {
        return Err("the settings fix a seed, so every game would be the same: use --seed".into());
    }
    let players = seating::players::<G>(&settings, plan.players)?;
    let variants = G::variants(&settings);
    let table = Table::<G> { settings, players };
    let ran = run(plan, &table).map_err(|e| e.to_string())?;
    let report = Report::new(plan, players, variants, &ran.tally);
    Ok((report, ran.cpu_seconds))
}

/// Runs `herald simulate`: the table on standard output, the HTML page where asked, the time
/// taken on standard error. Returns the exit code.
pub fn main(args: &SimulateArgs) -> i32 {
    let began = Instant::now();
    let outcome = args.plan().and_then(|plan| {
        let (report, cpu) = timed(&plan)?;
        Ok((plan, report, cpu))
    });
    let (plan, report, cpu) = match outcome {
        Ok(done) => done,
        Err(why) => {
            eprintln!("herald simulate: {why}");
            return 2;
        }
    };
    let seconds = began.elapsed().as_secs_f64();
    print!("{}", report.text());
    if let Some(path) = &args.html {
        let written = html(&report)
            .map_err(|e| e.to_string())
            .and_then(|page| std::fs::write(path, page).map_err(|e| e.to_string()));
        if let Err(why) = written {
            eprintln!("herald simulate: cannot write {}: {why}", path.display());
            return 2;
        }
    }
    let rate = report.games as f64 / seconds.max(1e-9);
    let per_cpu = match cpu {
        Some(cpu) => format!(
            ", {:.0} games per CPU-second ({cpu:.2} CPU-seconds)",
            report.games as f64 / cpu.max(1e-9)
        ),
        None => String::new(),
    };
    eprintln!(
        "{} games in {seconds:.2} s on {} threads: {rate:.0} games/s{per_cpu}",
        report.games, plan.threads
    );
    0
}
