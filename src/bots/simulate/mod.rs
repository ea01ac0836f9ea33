//! `herald simulate`: many games between the reference strategies, played in the process
//! through the pure rules (no server, no database), over the cores, and reported as win and
//! draw rates with their intervals by strategy, seat and join choice, the rounds games
//! lasted, and what each strategy answered (docs/bots.md, "Simulating"). Generic over the
//! registered games: a new game is simulated through `with_game!` with nothing added here.

pub mod cli;
mod html;
pub mod plan;
mod play;
pub mod report;
mod run;
pub mod tally;

pub use cli::{SimulateArgs, simulate};
pub use html::html;

#[cfg(test)]
mod tests {
    //! The promises: the same seed gives the same report whatever the threads, a stronger
    //! strategy is measured as stronger, and every registered game is simulated.

    use serde_json::json;

    use super::plan::Plan;
    use super::{html, simulate};
    use crate::games::{GameKind, Strategy};

    fn plan(game: &str, games: u64, threads: usize, seed: u64) -> Plan {
        Plan {
            game: game.parse().unwrap(),
            settings: json!({}),
            players: None,
            strategies: vec![Strategy::Greedy, Strategy::Random],
            fixed_seats: false,
            joins: Vec::new(),
            games,
            seed,
            threads,
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_report_whatever_the_threads() {
        let one = simulate(&plan("bst", 40, 1, 7)).unwrap();
        let three = simulate(&plan("bst", 40, 3, 7)).unwrap();
        assert_eq!(one, three);
        assert_eq!(one.text(), three.text());
        assert_eq!(html(&one).unwrap(), html(&three).unwrap());
        assert_eq!(one.games, 40);
        let other = simulate(&plan("bst", 40, 2, 8)).unwrap();
        assert_ne!(one.answers, other.answers, "another seed plays other games");
    }

    #[test]
    fn the_greedy_strategy_is_measured_as_stronger_than_the_random_one() {
        let report = simulate(&plan("bst", 300, 2, 1)).unwrap();
        let greedy = report
            .by_strategy
            .iter()
            .find(|r| r.label == "greedy")
            .unwrap();
        assert_eq!(greedy.record.games(), 300);
        assert!(greedy.win.low > 0.5, "{:?}", greedy);
        // Both seats and every character were played: the line-up turns, the joins are drawn.
        assert_eq!(report.by_seat.len(), 2);
        assert!(report.by_join.len() > 3, "{:?}", report.by_join);
        // Random against itself is even, within its interval.
        let mut even = plan("bst", 300, 2, 1);
        even.strategies = vec![Strategy::Random];
        let even = simulate(&even).unwrap();
        let seat = &even.by_seat[0];
        assert!(
            seat.win.low < 0.5 && seat.win.high > 0.5 - seat.draw.share,
            "{seat:?}"
        );
    }

    #[test]
    fn every_registered_game_is_simulated_and_reported() {
        for game in GameKind::ALL {
            let report = simulate(&plan(game.id(), 6, 2, 3)).unwrap();
            assert_eq!(report.games, 6, "{}", game.id());
            assert!(!report.answers.is_empty());
            let page = html(&report).unwrap();
            assert!(page.contains("<svg") && !page.contains("<script"));
            assert!(
                !page.contains("http://") || page.contains("xmlns=\"http://www.w3.org/2000/svg\"")
            );
        }
    }

    #[test]
    fn fixed_joins_and_settings_are_checked_by_the_rules() {
        let mut bad = plan("bst", 2, 1, 1);
        bad.joins = vec![json!({"character": "nobody"})];
        assert!(simulate(&bad).unwrap_err().contains("join"));
        let mut bad = plan("bst", 2, 1, 1);
        bad.settings = json!({"no_such_setting": 1});
        assert!(simulate(&bad).is_err());
        let mut fixed = plan("bst", 4, 1, 1);
        fixed.joins = vec![json!({"character": "sellsword"})];
        let report = simulate(&fixed).unwrap();
        assert_eq!(report.by_join.len(), 1);
        assert_eq!(report.by_join[0].label, "sellsword");
    }
}
