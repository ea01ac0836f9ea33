//! The reference bot: one player, driven by its event stream. It answers each prompt it is sent
//! and stops when the game is over. Start here to write your own: replace `policy::answer`.
//!
//! It tells its operator, in sentences on standard output, what it is waiting for and what it
//! played; errors are sentences too (see [`BotError`]).

use std::time::Duration;

use rand::SeedableRng;
use serde_json::Value;
use uuid::Uuid;

use super::client::{Api, ClientError};
use super::narrate;
use super::policy::{self, Strategy};

/// What the bot is to do.
#[derive(Clone, Debug, clap::Args)]
pub struct BotArgs {
    /// Herald's base URL [default: http://127.0.0.1:3000, or the server of --lobby when that
    /// is an address].
    #[arg(long)]
    pub url: Option<String>,
    /// The lobby: its id, its address (http://host/lobbies/ID) or the player's private link
    /// (http://host/lobbies/ID/as/TOKEN). Not with --profile.
    #[arg(long, required_unless_present = "profile", conflicts_with = "profile")]
    pub lobby: Option<String>,
    /// The player's token (the `player_token` from joining); not needed when --lobby is the
    /// player's private link. With --profile, the profile's key.
    #[arg(long, env = "HERALD_BOT_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Play every seat of the profile whose key is --token, from its one stream
    /// (`GET /api/v1/me/events`), until none is left to play.
    #[arg(long)]
    pub profile: bool,
    /// With --profile: keep playing when no game is left, waiting for new seats.
    #[arg(long, requires = "profile")]
    pub stay: bool,
    /// With --profile: accept every challenge the profile is sent.
    #[arg(long, requires = "profile")]
    pub accept_challenges: bool,
    /// How to choose answers.
    #[arg(long, value_enum, default_value = "random")]
    pub strategy: Strategy,
    /// Seed for the bot's own choices (random if absent).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Why the bot stopped before the game was over, in words for its operator.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error(
        "{0:?} is neither a lobby id nor a lobby address (http://host/lobbies/ID, or a private link http://host/lobbies/ID/as/TOKEN)"
    )]
    NotALobby(String),
    #[error(
        "no player token: pass --token (the player_token you got when joining, or the last part of your private link), or pass the private link itself as --lobby"
    )]
    NoToken,
    #[error("no profile key: with --profile, pass the profile's key (hpk_...) as --token")]
    NoKey,
    #[error("cannot reach Herald at {url}: {detail}")]
    Unreachable { url: String, detail: String },
    #[error(
        "the lobby did not accept this token ({message}): check that it is this lobby's player token, not the host's"
    )]
    TokenRefused { message: String },
    #[error("there is no lobby {lobby} on {url}")]
    NoSuchLobby { lobby: String, url: String },
    #[error("Herald refused a request: {message} (HTTP {status}, {code})")]
    Refused {
        status: u16,
        code: String,
        message: String,
    },
}

/// Where the bot plays: the server, the lobby and the player's token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub url: String,
    pub lobby: String,
    pub token: String,
}

pub(super) const DEFAULT_URL: &str = "http://127.0.0.1:3000";

impl Seat {
    /// Reads the seat from the arguments: `--lobby` may be an id, a lobby address or a private
    /// link (which brings the token); `--url` and `--token` win over what an address says.
    pub fn from_args(args: &BotArgs) -> Result<Seat, BotError> {
        let lobby = args.lobby.as_deref().unwrap_or_default().trim();
        let (url, id, link_token) = if lobby.contains("://") {
            parse_address(lobby).ok_or_else(|| BotError::NotALobby(lobby.to_string()))?
        } else {
            let id = Uuid::parse_str(lobby).map_err(|_| BotError::NotALobby(lobby.to_string()))?;
            (DEFAULT_URL.to_string(), id, None)
        };
        let token = args
            .token
            .clone()
            .filter(|t| !t.trim().is_empty())
            .or(link_token)
            .ok_or(BotError::NoToken)?;
        Ok(Seat {
            url: args.url.clone().unwrap_or(url),
            lobby: id.to_string(),
            token: token.trim().to_string(),
        })
    }
}

/// `http://host[/prefix]/lobbies/ID[/as/TOKEN][/...]` as (base URL, lobby id, token).
fn parse_address(address: &str) -> Option<(String, Uuid, Option<String>)> {
    let (scheme, rest) = address.split_once("://")?;
    let rest = rest.split(['?', '#']).next()?;
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let segments: Vec<&str> = path.split('/').collect();
    let at = segments.iter().position(|s| *s == "lobbies")?;
    let id = Uuid::parse_str(segments.get(at + 1)?).ok()?;
    let token = match (segments.get(at + 2), segments.get(at + 3)) {
        (Some(&"as"), Some(token)) if !token.is_empty() => Some((*token).to_string()),
        _ => None,
    };
    let prefix = segments[..at].join("/");
    let base = if prefix.is_empty() {
        format!("{scheme}://{authority}")
    } else {
        format!("{scheme}://{authority}/{prefix}")
    };
    Some((base, id, token))
}

impl BotError {
    fn from_client(error: ClientError, seat: &Seat) -> BotError {
        match error.status {
            0 => BotError::Unreachable {
                url: seat.url.clone(),
                detail: error.message,
            },
            401 | 403 => BotError::TokenRefused {
                message: error.message,
            },
            404 if error.code == "unknown-lobby" => BotError::NoSuchLobby {
                lobby: seat.lobby.clone(),
                url: seat.url.clone(),
            },
            status => BotError::Refused {
                status,
                code: error.code,
                message: error.message,
            },
        }
    }
}

/// Plays until the game is over. Reconnects (resuming from the last event) if the stream drops.
/// (`herald bot --profile` is `profile_bot::run`; the command line chooses.)
pub async fn run(args: BotArgs) -> Result<(), BotError> {
    let seat = Seat::from_args(&args)?;
    let api = Api::new(&seat.url);
    let fail = |error: ClientError| BotError::from_client(error, &seat);
    let me = api.me(&seat.lobby, &seat.token).await.map_err(fail)?;
    println!("{}", narrate::seated(&me));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed.unwrap_or_else(rand::random));
    let mut last_event: Option<String> = None;
    let mut failures = 0u32;
    loop {
        let mut events = match api
            .player_events(
                &seat.lobby,
                &seat.token,
                last_event.as_deref(),
                Some("prompt,finished"),
            )
            .await
        {
            Ok(events) => events,
            Err(error) if error.status == 0 && failures < 10 => {
                failures += 1;
                println!("Cannot reach Herald ({}); trying again.", error.message);
                tokio::time::sleep(Duration::from_secs(u64::from(failures))).await;
                continue;
            }
            Err(error) => return Err(fail(error)),
        };
        failures = 0;
        while let Some(event) = events.next().await {
            last_event = Some(event.id.clone());
            match event.kind.as_str() {
                "prompt" => answer(&api, &seat, args.strategy, &event.data(), &mut rng).await?,
                "finished" => {
                    println!("{}", narrate::finished(&event.data()["result"]));
                    return Ok(());
                }
                _ => {}
            }
        }
        println!("The event stream ended; reconnecting.");
    }
}

async fn answer(
    api: &Api,
    seat: &Seat,
    strategy: Strategy,
    me: &Value,
    rng: &mut impl rand::Rng,
) -> Result<(), BotError> {
    if !me["pending"].is_null() {
        return Ok(()); // already answered this step (e.g. before a reconnect)
    }
    let Some(order) = policy::answer(me, strategy, rng) else {
        println!(
            "No answer found for this prompt; waiting for the next one: {}",
            me["prompt"]
        );
        return Ok(());
    };
    match api.submit(&seat.lobby, &seat.token, &order).await {
        Ok(receipt) => {
            println!("{}", narrate::played(&me["prompt"], &receipt));
            println!("{}", narrate::waiting(&receipt));
            Ok(())
        }
        // The step moved on while we chose (e.g. a deadline or a race): wait for the next prompt.
        Err(error) if error.status == 409 => {
            println!(
                "Too late for that step ({}); waiting for the next prompt.",
                error.message
            );
            Ok(())
        }
        Err(error) => Err(BotError::from_client(error, seat)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(lobby: &str, url: Option<&str>, token: Option<&str>) -> BotArgs {
        BotArgs {
            url: url.map(str::to_string),
            lobby: Some(lobby.into()),
            token: token.map(str::to_string),
            profile: false,
            stay: false,
            accept_challenges: false,
            strategy: Strategy::Random,
            seed: None,
        }
    }

    const ID: &str = "6f1c1c9e-0000-4000-8000-000000000000";

    #[test]
    fn the_lobby_may_be_an_id_an_address_or_a_private_link() {
        let seat = Seat::from_args(&args(ID, None, Some("t"))).unwrap();
        assert_eq!((seat.url.as_str(), seat.lobby.as_str()), (DEFAULT_URL, ID));
        let seat = Seat::from_args(&args(
            &format!("https://herald.example/lobbies/{ID}"),
            None,
            Some("t"),
        ))
        .unwrap();
        assert_eq!(seat.url, "https://herald.example");
        let seat = Seat::from_args(&args(
            &format!("http://127.0.0.1:4000/games/lobbies/{ID}/as/abc123?x=1"),
            None,
            None,
        ))
        .unwrap();
        assert_eq!(
            seat,
            Seat {
                url: "http://127.0.0.1:4000/games".into(),
                lobby: ID.into(),
                token: "abc123".into()
            }
        );
        let seat = Seat::from_args(&args(
            &format!("http://a/lobbies/{ID}/as/abc"),
            Some("http://b"),
            Some("mine"),
        ))
        .unwrap();
        assert_eq!(
            (seat.url.as_str(), seat.token.as_str()),
            ("http://b", "mine")
        );
    }

    #[test]
    fn a_bad_lobby_or_a_missing_token_is_said_in_a_sentence() {
        let error = Seat::from_args(&args("lobby-7", None, Some("t"))).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("neither a lobby id nor a lobby address"),
            "{error}"
        );
        let error = Seat::from_args(&args(ID, None, None)).unwrap_err();
        assert!(error.to_string().starts_with("no player token"), "{error}");
        let error = Seat::from_args(&args("http://a/players/x", None, Some("t"))).unwrap_err();
        assert!(matches!(error, BotError::NotALobby(_)));
    }
}
