//! Configuration: command-line flags, each with an environment variable behind it.

use std::net::SocketAddr;

use clap::{Parser, Subcommand};

use crate::bots::bot::BotArgs;
use crate::bots::load::LoadArgs;
use crate::store::retention::Retention;

/// Herald: a host server for play-by-mail games of simultaneous secret orders.
#[derive(Clone, Debug, Parser)]
#[command(version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The server's settings (also when no subcommand is given).
    #[command(flatten)]
    pub server: Config,
}

/// What to run; without a subcommand Herald serves.
#[derive(Clone, Debug, Subcommand)]
pub enum Command {
    /// Serve the API (the default).
    Serve,
    /// Play one seat of a game as a bot, driven by the player's event stream.
    Bot(BotArgs),
    /// Load a running server with many lobbies of bots and report throughput and latency.
    Load(LoadArgs),
}

/// The server's settings.
#[derive(Clone, Debug, clap::Args)]
pub struct Config {
    /// Database URL: `sqlite://FILE?mode=rwc` (created and migrated on start) or `postgres://…`.
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://herald.db?mode=rwc",
        global = true
    )]
    pub database_url: String,
    /// Address to listen on.
    #[arg(
        long,
        env = "HERALD_BIND",
        default_value = "127.0.0.1:3000",
        global = true
    )]
    pub bind: SocketAddr,
    /// Days after its last change that a lobby which never started is deleted (0: never).
    #[arg(
        long,
        env = "HERALD_UNSTARTED_LOBBY_DAYS",
        default_value_t = 7,
        global = true
    )]
    pub unstarted_lobby_days: u32,
    /// Days after it finished that a game is deleted (0, the default: finished games are kept).
    #[arg(
        long,
        env = "HERALD_FINISHED_GAME_DAYS",
        default_value_t = 0,
        global = true
    )]
    pub finished_game_days: u32,
    /// Minutes between two retention sweeps.
    #[arg(
        long,
        env = "HERALD_RETENTION_SWEEP_MINUTES",
        default_value_t = 60,
        value_parser = clap::value_parser!(u32).range(1..),
        global = true
    )]
    pub retention_sweep_minutes: u32,
}

impl Config {
    /// What the retention sweep keeps (`store/retention.rs`).
    pub fn retention(&self) -> Retention {
        let days = |d: u32| (d > 0).then_some(d);
        Retention {
            unstarted_days: days(self.unstarted_lobby_days),
            finished_days: days(self.finished_game_days),
            every: std::time::Duration::from_secs(u64::from(self.retention_sweep_minutes) * 60),
        }
    }

    /// The database URL with any password replaced, for logs.
    pub fn redacted_database_url(&self) -> String {
        match (self.database_url.find("://"), self.database_url.rfind('@')) {
            (Some(scheme), Some(at)) if at > scheme => {
                let creds = &self.database_url[scheme + 3..at];
                let user = creds.split(':').next().unwrap_or("");
                format!(
                    "{}{}:***{}",
                    &self.database_url[..scheme + 3],
                    user,
                    &self.database_url[at..]
                )
            }
            _ => self.database_url.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_in_the_database_url_is_redacted() {
        let mut config = Cli::try_parse_from(["herald"]).unwrap().server;
        config.database_url = "postgres://herald:s3cret@db:5432/herald".into();
        assert_eq!(
            config.redacted_database_url(),
            "postgres://herald:***@db:5432/herald"
        );
    }

    #[test]
    fn no_subcommand_means_serve_and_bot_takes_its_flags() {
        let cli = Cli::try_parse_from(["herald", "--bind", "127.0.0.1:4000"]).unwrap();
        assert!(cli.command.is_none());
        assert_eq!(cli.server.bind.port(), 4000);
        let cli = Cli::try_parse_from(["herald", "bot", "--lobby", "x", "--token", "t"]).unwrap();
        assert!(matches!(cli.command, Some(Command::Bot(_))));
    }

    #[test]
    fn unstarted_lobbies_go_after_a_week_and_finished_games_stay_unless_asked() {
        let defaults = Cli::try_parse_from(["herald"]).unwrap().server.retention();
        assert_eq!(defaults.unstarted_days, Some(7));
        assert_eq!(defaults.finished_days, None);
        assert_eq!(defaults.every.as_secs(), 3600);
        let args = [
            "herald",
            "--unstarted-lobby-days",
            "0",
            "--finished-game-days",
            "30",
        ];
        let set = Cli::try_parse_from(args).unwrap().server.retention();
        assert_eq!((set.unstarted_days, set.finished_days), (None, Some(30)));
        assert!(Cli::try_parse_from(["herald", "--retention-sweep-minutes", "0"]).is_err());
    }
}
