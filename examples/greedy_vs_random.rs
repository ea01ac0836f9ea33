//! The greedy BST bot against the random one, over every ordered pair of characters and both
//! seats: `cargo run --release --example greedy_vs_random [DUELS_PER_PAIRING] [SEED]`.
//! Prints the record and the greedy bot's win rate (docs/bots.md keeps the figure).

use herald::bots::duel;
use herald::bots::policy::Strategy;

fn main() {
    let mut args = std::env::args().skip(1);
    let per_pairing: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(14);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    match duel::record(Strategy::Greedy, Strategy::Random, per_pairing, seed) {
        Ok(record) => println!(
            "greedy vs random, BST: {} duels (36 character pairings x 2 seats x {per_pairing}, seeds from {seed}): \
             {} won, {} lost, {} drawn: win rate {:.1}%",
            record.games,
            record.wins,
            record.losses,
            record.draws,
            100.0 * record.win_rate()
        ),
        Err(error) => {
            eprintln!("a duel could not be played: {error}");
            std::process::exit(1);
        }
    }
}
