//! Configuration: command-line flags, each with an environment variable behind it.

use std::net::SocketAddr;

use clap::{Parser, Subcommand};

use crate::bots::bot::BotArgs;
use crate::bots::load::LoadArgs;

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
    /// Measure the deadline scheduler on the configured database: idle CPU among many far
    /// deadlines, and how late due ones fire (docs/performance.md).
    DeadlineBench(crate::deadline_bench::DeadlineBenchArgs),
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
}

impl Config {
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
        let config = Config {
            database_url: "postgres://herald:s3cret@db:5432/herald".into(),
            bind: "127.0.0.1:1".parse().unwrap(),
        };
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
}
