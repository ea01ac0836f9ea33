//! The reference bot for a whole profile (`herald bot --profile`): one stream,
//! `GET /api/v1/me/events`, for every seat the profile's key holds, as a Lichess bot account
//! plays all its games from one event stream. It answers each prompt with the profile key on
//! that seat's lobby, may accept the challenges it is sent, and stops when the profile has no
//! game left to play (unless told to stay for new ones).

use std::collections::HashSet;
use std::time::Duration;

use rand::SeedableRng;
use serde_json::Value;

use super::bot::{BotArgs, BotError, DEFAULT_URL};
use super::client::{Api, ClientError};
use super::narrate;
use super::policy;

fn refused(error: ClientError, url: &str) -> BotError {
    match error.status {
        0 => BotError::Unreachable {
            url: url.to_string(),
            detail: error.message,
        },
        401 | 403 => BotError::TokenRefused {
            message: error.message,
        },
        status => BotError::Refused {
            status,
            code: error.code,
            message: error.message,
        },
    }
}

/// Plays every seat of the profile whose key is `--token` until none is left to play (or for
/// ever with `--stay`). Reconnects if the stream drops: the server sends every standing prompt
/// again.
pub async fn run(args: BotArgs) -> Result<(), BotError> {
    let url = args.url.clone().unwrap_or_else(|| DEFAULT_URL.to_string());
    let key = args
        .token
        .clone()
        .filter(|t| !t.trim().is_empty())
        .ok_or(BotError::NoKey)?;
    let key = key.trim().to_string();
    let api = Api::new(&url);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed.unwrap_or_else(rand::random));
    let mut failures = 0u32;
    loop {
        let mut events = match api.profile_events(&key).await {
            Ok(events) => events,
            Err(error) if error.status == 0 && failures < 10 => {
                failures += 1;
                println!("Cannot reach Herald ({}); trying again.", error.message);
                tokio::time::sleep(Duration::from_secs(u64::from(failures))).await;
                continue;
            }
            Err(error) => return Err(refused(error, &url)),
        };
        failures = 0;
        // The seats whose game is not over, as the opening snapshot and the events tell.
        let mut playing: HashSet<String> = HashSet::new();
        while let Some(event) = events.next().await {
            let data = event.data();
            match event.kind.as_str() {
                "seats" => {
                    playing = open_seats(&data);
                    println!("Playing {} seat(s) of this profile.", playing.len());
                }
                "prompt" => {
                    let lobby = data["lobby"].as_str().unwrap_or_default().to_string();
                    playing.insert(lobby.clone());
                    answer(&api, &url, &key, &lobby, &data, args.strategy, &mut rng).await?;
                }
                "finished" => {
                    let lobby = data["lobby"].as_str().unwrap_or_default();
                    playing.remove(lobby);
                    println!("{lobby}: {}", narrate::finished(&data["result"]));
                }
                "challenge" if args.accept_challenges => {
                    let id = data["id"].as_str().unwrap_or_default();
                    match api.accept_challenge(&key, id).await {
                        Ok(lobby) => {
                            println!("Accepted {}'s challenge: lobby {lobby}.", data["from"]);
                            playing.insert(lobby);
                        }
                        Err(error) => println!("Could not accept a challenge: {}", error.message),
                    }
                }
                "challenge" => println!(
                    "{} challenges this profile to {} (pass --accept-challenges to play).",
                    data["from"], data["game"]
                ),
                _ => {}
            }
            if playing.is_empty() && !args.stay {
                println!("No game left to play.");
                return Ok(());
            }
        }
        println!("The event stream ended; reconnecting.");
    }
}

/// The lobbies of the opening snapshot whose game is not over.
pub(super) fn open_seats(seats: &Value) -> HashSet<String> {
    seats
        .as_array()
        .into_iter()
        .flatten()
        .filter(|seat| seat["status"] != "finished")
        .filter_map(|seat| seat["lobby"].as_str().map(str::to_string))
        .collect()
}

async fn answer(
    api: &Api,
    url: &str,
    key: &str,
    lobby: &str,
    me: &Value,
    strategy: policy::Strategy,
    rng: &mut impl rand::Rng,
) -> Result<(), BotError> {
    if !me["pending"].is_null() {
        return Ok(()); // answered before a reconnection
    }
    let Some(order) = policy::answer(me, strategy, rng) else {
        println!("{lobby}: no answer found for this prompt: {}", me["prompt"]);
        return Ok(());
    };
    match api.submit(lobby, key, &order).await {
        Ok(receipt) => {
            println!("{lobby}: {}", narrate::played(&me["prompt"], &receipt));
            Ok(())
        }
        // The step moved on while we chose, or the seat is no longer ours: the stream says
        // what comes next.
        Err(error) if matches!(error.status, 401 | 409) => {
            println!("{lobby}: not played ({}).", error.message);
            Ok(())
        }
        Err(error) => Err(refused(error, url)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_the_seats_still_in_play_are_waited_for() {
        let seats = json!([
            {"lobby": "a", "status": "running"},
            {"lobby": "b", "status": "finished"},
            {"lobby": "c", "status": "signups"},
        ]);
        let open = open_seats(&seats);
        assert_eq!(open, HashSet::from(["a".to_string(), "c".to_string()]));
    }
}
