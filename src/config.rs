//! Configuration: command-line flags, each with an environment variable behind it.

use std::net::SocketAddr;

use clap::Parser;

/// Herald: a host server for play-by-mail games of simultaneous secret orders.
#[derive(Clone, Debug, Parser)]
#[command(version, about)]
pub struct Config {
    /// Database URL: `sqlite://FILE?mode=rwc` (created and migrated on start) or `postgres://…`.
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://herald.db?mode=rwc"
    )]
    pub database_url: String,
    /// Address to listen on.
    #[arg(long, env = "HERALD_BIND", default_value = "127.0.0.1:3000")]
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
