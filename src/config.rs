//! Configuration: command-line flags, each with an environment variable behind it.

use std::net::SocketAddr;

use clap::{Parser, Subcommand};

use crate::bots::bot::BotArgs;
use crate::bots::load::LoadArgs;
use crate::http::client::Exposure;
use crate::http::rate::RateLimits;
use crate::server::{Limits, Options};
use crate::store::retention::Retention;

/// Herald: a host server for play-by-mail games of simultaneous secret orders.
///
/// Without a subcommand Herald serves, with the server's flags given directly (`herald --bind
/// 0.0.0.0:3000`); each subcommand takes only its own flags (`herald bot --help`).
#[derive(Clone, Debug, Parser)]
#[command(version, about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The server's settings when no subcommand is given.
    #[command(flatten)]
    pub server: Config,
}

impl Cli {
    /// What to run: `serve` (with its settings) when no subcommand was given.
    pub fn into_command(self) -> Command {
        self.command.unwrap_or(Command::Serve(self.server))
    }
}

/// What to run; without a subcommand Herald serves.
#[derive(Clone, Debug, Subcommand)]
pub enum Command {
    /// Serve the API and the pages (the default).
    Serve(Config),
    /// Play one seat of a game as a bot, driven by the player's event stream.
    ///
    /// The player token is the `player_token` Herald answered when the player joined (POST
    /// /api/v1/lobbies/{id}/players), or the last part of the player's private link
    /// (/lobbies/{id}/as/{token}). Pass the private link itself as --lobby and the bot takes
    /// the server, the lobby and the token from it.
    Bot(BotArgs),
    /// Load a running server with many lobbies of bots and report throughput and latency.
    Load(LoadArgs),
    /// Measure the deadline scheduler on the configured database: idle CPU among many far
    /// deadlines, and how late due ones fire (docs/performance.md).
    DeadlineBench(crate::deadline_bench::DeadlineBenchArgs),
    /// Re-adjudicate a game's archive offline (GET /api/v1/lobbies/{id}/archive): exit 0 when
    /// every commitment, digest, log entry and pool matches, 1 on a mismatch, 2 when the file
    /// cannot be read. No server, no database (docs/fairness.md).
    Verify(crate::fairness::cli::VerifyArgs),
    /// Play many games between the reference strategies in the process (no server, no
    /// database) and report win and draw rates by strategy, seat and join choice, with their
    /// intervals, round counts and answer frequencies; `--html` writes the report with charts
    /// (docs/bots.md, "Simulating").
    Simulate(crate::bots::simulate::SimulateArgs),
    /// Play local bots (programs speaking JSON lines, or built-in strategies) against each
    /// other in the process, write each game's archive and print a results table
    /// (docs/bots.md, "The arena").
    Arena(crate::bots::arena::ArenaArgs),
    /// Ratings on the configured database (docs/ratings.md).
    #[command(subcommand)]
    Ratings(RatingsCommand),
}

/// `herald ratings ...`.
#[derive(Clone, Debug, Subcommand)]
pub enum RatingsCommand {
    /// Recompute every rating from the stored results, in the order the games ended, and
    /// write them (with every change's before and after). Run it with the server stopped;
    /// prints how many stored ratings differed from the recomputed ones (0 when they agree).
    Rebuild {
        /// Database URL, as the server's.
        #[arg(
            long,
            env = "DATABASE_URL",
            default_value = "sqlite://herald.db?mode=rwc"
        )]
        database_url: String,
    },
}

/// The server's settings. Its `Debug` redacts the passwords in the database and SMTP URLs
/// (a `Config` may be logged or printed in a panic).
#[derive(Clone, clap::Args)]
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
    /// Timeouts and the connection cap.
    #[command(flatten)]
    pub limits: Limits,
    /// Trusted proxies and the public URL.
    #[command(flatten)]
    pub exposure: Exposure,
    /// Rate limits per client address.
    #[command(flatten)]
    pub rates: RateLimits,
    /// Days after its last change that a lobby which never started is deleted (0: never).
    #[arg(long, env = "HERALD_UNSTARTED_LOBBY_DAYS", default_value_t = 7)]
    pub unstarted_lobby_days: u32,
    /// Days after it finished that a game is deleted (0, the default: finished games are kept).
    #[arg(long, env = "HERALD_FINISHED_GAME_DAYS", default_value_t = 0)]
    pub finished_game_days: u32,
    /// Minutes between two retention sweeps.
    #[arg(
        long,
        env = "HERALD_RETENTION_SWEEP_MINUTES",
        default_value_t = 60,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub retention_sweep_minutes: u32,
    /// Webhooks may reach loopback and private addresses (tests, self-hosting on one network).
    /// The contract (`api.md`) spells it `HERALD_ALLOW_PRIVATE_TARGETS=1`: 1/0, yes/no, on/off
    /// and true/false are all read.
    #[arg(
        long,
        env = "HERALD_ALLOW_PRIVATE_TARGETS",
        value_parser = clap::builder::BoolishValueParser::new(),
        num_args = 0..=1,
        default_missing_value = "true",
        default_value = "false"
    )]
    pub allow_private_targets: bool,
    /// The SMTP relay players' mail goes through (`smtp://host:port`, `smtps://…`); unset: no mail.
    #[arg(long, env = "HERALD_SMTP_URL")]
    pub smtp_url: Option<String>,
    /// The From of players' mail.
    #[arg(
        long,
        env = "HERALD_MAIL_FROM",
        default_value = "Herald <herald@localhost>"
    )]
    pub mail_from: String,
    /// How much lower the delivery thread's CPU priority is than the orders' (a nice
    /// increment, 0 to 19; 0 keeps it equal): see `docs/notifications.md`.
    #[arg(
        long,
        env = "HERALD_DELIVERY_NICE",
        default_value_t = crate::notify::DEFAULT_NICE,
        value_parser = clap::value_parser!(i32).range(0..=19)
    )]
    pub delivery_nice: i32,
    /// Turns the bots' ladder on (docs/bots.md, "The ladder"): rated rounds among the
    /// entered bots and the boss bots. 1/0, yes/no, on/off and true/false are all read.
    #[arg(
        long,
        env = "HERALD_LADDER",
        value_parser = clap::builder::BoolishValueParser::new(),
        num_args = 0..=1,
        default_missing_value = "true",
        default_value = "false"
    )]
    pub ladder: bool,
    /// How often the ladder pairs a round (`10m`, `1h`; at least a second).
    #[arg(long, env = "HERALD_LADDER_INTERVAL", default_value = "10m", value_parser = ladder_interval)]
    pub ladder_interval: std::time::Duration,
    /// The most ladder games a bot has in progress at once.
    #[arg(
        long,
        env = "HERALD_LADDER_GAMES",
        default_value_t = 2,
        value_parser = clap::value_parser!(u32).range(1..=100)
    )]
    pub ladder_games: u32,
}

/// A ladder interval: a duration as the other flags write them, at least a second.
fn ladder_interval(text: &str) -> Result<std::time::Duration, String> {
    let interval = crate::server::limits::duration(text).map_err(|e| e.to_string())?;
    if interval < std::time::Duration::from_secs(1) {
        return Err("the ladder's interval is at least a second".into());
    }
    Ok(interval)
}

impl Config {
    /// The server's options, as `serve_with` takes them.
    pub fn options(&self) -> Options {
        Options {
            limits: self.limits.clone(),
            exposure: self.exposure.clone(),
            rates: self.rates.clone(),
            notifications: self.notifications(),
            ladder: self.ladder.then_some(crate::host::ladder::LadderSettings {
                interval: self.ladder_interval,
                games_per_bot: self.ladder_games,
            }),
        }
    }

    /// What notifications may do (`notify/mod.rs`). Links in them start at the public URL,
    /// or else at the bind address.
    pub fn notifications(&self) -> crate::notify::Settings {
        crate::notify::Settings {
            allow_private: self.allow_private_targets,
            smtp_url: self.smtp_url.clone().filter(|url| !url.is_empty()),
            mail_from: self.mail_from.clone(),
            nice: self.delivery_nice,
            public_url: Some(
                self.exposure
                    .public_url
                    .clone()
                    .unwrap_or_else(|| format!("http://{}", self.bind)),
            ),
            ..crate::notify::Settings::default()
        }
    }

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
        redacted_url(&self.database_url)
    }
}

/// `url` with the credentials' password (between `scheme://user:` and the last `@`) replaced
/// by `***`: what logs and `Debug` may show of a URL that can carry one.
fn redacted_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let creds = &url[scheme + 3..at];
            let user = creds.split(':').next().unwrap_or("");
            format!("{}{}:***{}", &url[..scheme + 3], user, &url[at..])
        }
        _ => url.to_owned(),
    }
}

/// Every field as derived `Debug` would show it, but the URLs that may carry a password.
impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Config {
            database_url,
            bind,
            limits,
            exposure,
            rates,
            unstarted_lobby_days,
            finished_game_days,
            retention_sweep_minutes,
            allow_private_targets,
            smtp_url,
            mail_from,
            delivery_nice,
            ladder,
            ladder_interval,
            ladder_games,
        } = self;
        f.debug_struct("Config")
            .field("database_url", &redacted_url(database_url))
            .field("bind", bind)
            .field("limits", limits)
            .field("exposure", exposure)
            .field("rates", rates)
            .field("unstarted_lobby_days", unstarted_lobby_days)
            .field("finished_game_days", finished_game_days)
            .field("retention_sweep_minutes", retention_sweep_minutes)
            .field("allow_private_targets", allow_private_targets)
            .field("smtp_url", &smtp_url.as_deref().map(redacted_url))
            .field("mail_from", mail_from)
            .field("delivery_nice", delivery_nice)
            .field("ladder", ladder)
            .field("ladder_interval", ladder_interval)
            .field("ladder_games", ladder_games)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_is_off_by_default_and_its_flags_are_read_as_the_other_durations() {
        let config = Cli::try_parse_from(["herald"]).unwrap().server;
        assert_eq!(config.options().ladder, None);
        let on = [
            "herald",
            "--ladder",
            "--ladder-interval",
            "90s",
            "--ladder-games",
            "3",
        ];
        let config = Cli::try_parse_from(on).unwrap().server;
        assert_eq!(
            config.options().ladder,
            Some(crate::host::ladder::LadderSettings {
                interval: std::time::Duration::from_secs(90),
                games_per_bot: 3,
            })
        );
        let config = Cli::try_parse_from(["herald", "--ladder"]).unwrap().server;
        assert_eq!(
            config.options().ladder,
            Some(crate::host::ladder::LadderSettings::default())
        );
        assert!(Cli::try_parse_from(["herald", "--ladder-interval", "500ms"]).is_err());
        assert!(Cli::try_parse_from(["herald", "--ladder-games", "0"]).is_err());
    }

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
    fn debug_shows_neither_the_database_nor_the_smtp_password() {
        let cli = Cli::try_parse_from([
            "herald",
            "--database-url",
            "postgres://u:secret@db.example:5432/herald",
            "--smtp-url",
            "smtps://mailer:secret@smtp.example:465",
        ])
        .unwrap();
        for shown in [format!("{:?}", cli.server), format!("{cli:?}")] {
            assert!(!shown.contains("secret"), "{shown}");
            assert!(
                shown.contains("postgres://u:***@db.example:5432/herald"),
                "{shown}"
            );
            assert!(
                shown.contains("smtps://mailer:***@smtp.example:465"),
                "{shown}"
            );
            assert!(shown.contains("bind: 127.0.0.1:3000"), "{shown}");
        }
        let config = Cli::try_parse_from(["herald"]).unwrap().server;
        let shown = format!("{config:?}");
        assert!(shown.contains("sqlite://herald.db?mode=rwc"), "{shown}");
        assert!(shown.contains("smtp_url: None"), "{shown}");
    }

    #[test]
    fn no_subcommand_means_serve_and_bot_takes_its_flags() {
        let cli = Cli::try_parse_from(["herald", "--bind", "127.0.0.1:4000"]).unwrap();
        assert!(matches!(cli.into_command(), Command::Serve(config) if config.bind.port() == 4000));
        let cli = Cli::try_parse_from(["herald", "serve", "--bind", "127.0.0.1:4001"]).unwrap();
        assert!(matches!(cli.into_command(), Command::Serve(config) if config.bind.port() == 4001));
        let cli = Cli::try_parse_from(["herald", "bot", "--lobby", "x", "--token", "t"]).unwrap();
        assert!(matches!(cli.command, Some(Command::Bot(_))));
    }

    #[test]
    fn the_bots_help_lists_only_its_own_flags_and_says_where_a_token_comes_from() {
        use clap::CommandFactory;
        let mut cli = Cli::command();
        let bot = cli.find_subcommand_mut("bot").expect("a bot subcommand");
        let help = bot.render_long_help().to_string();
        assert!(
            help.contains("--lobby") && help.contains("--token"),
            "{help}"
        );
        assert!(help.contains("player_token"), "{help}");
        // Not one of the server's flags, its limits and proxies included.
        for flag in [
            "--database-url",
            "--bind",
            "--max-connections",
            "--header-timeout",
            "--trusted-proxies",
            "--public-url",
            "--lobbies-per-minute",
            "--rate-limit-exempt",
        ] {
            assert!(
                !help.contains(flag),
                "{flag} is the server's, not the bot's: {help}"
            );
        }
        assert!(
            Cli::try_parse_from(["herald", "bot", "--lobby", "x", "--bind", "1.2.3.4:5"]).is_err()
        );
    }

    #[test]
    fn limits_are_read_from_flags_with_units() {
        let cli = Cli::try_parse_from([
            "herald",
            "--header-timeout",
            "250ms",
            "--max-connections",
            "7",
            "--trusted-proxies",
            "10.0.0.0/8,::1",
            "--lobbies-per-minute",
            "0",
            "--rate-limit-exempt",
            "127.0.0.1",
        ])
        .unwrap();
        let server = cli.server;
        assert_eq!(server.limits.header_timeout.as_millis(), 250);
        assert_eq!(server.limits.max_connections, 7);
        assert_eq!(server.exposure.trusted_proxies.len(), 2);
        assert_eq!(server.rates.lobbies_per_minute, 0);
        assert_eq!(server.rates.rate_limit_exempt.len(), 1);
        assert!(Cli::try_parse_from(["herald", "--trusted-proxies", "nope"]).is_err());
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
