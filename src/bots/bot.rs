//! The reference bot: one player, driven by its event stream. It answers each prompt it is sent
//! and stops when the game is over. Start here to write your own: replace `policy::answer`.

use std::time::Duration;

use rand::SeedableRng;
use serde_json::Value;

use super::client::{Api, ClientError};
use super::policy::{self, Strategy};

/// What the bot is to do.
#[derive(Clone, Debug, clap::Args)]
pub struct BotArgs {
    /// Herald's base URL.
    #[arg(long, default_value = "http://127.0.0.1:3000")]
    pub url: String,
    /// The lobby's id.
    #[arg(long)]
    pub lobby: String,
    /// The player's token (from joining).
    #[arg(long, env = "HERALD_BOT_TOKEN")]
    pub token: String,
    /// How to choose answers.
    #[arg(long, value_enum, default_value = "random")]
    pub strategy: Strategy,
    /// Seed for the bot's own choices (random if absent).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Plays until the game is over. Reconnects (resuming from the last event) if the stream drops.
pub async fn run(args: BotArgs) -> Result<(), ClientError> {
    let api = Api::new(&args.url);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed.unwrap_or_else(rand::random));
    let mut last_event: Option<String> = None;
    let mut failures = 0u32;
    loop {
        let mut events = match api
            .player_events(
                &args.lobby,
                &args.token,
                last_event.as_deref(),
                Some("prompt,finished"),
            )
            .await
        {
            Ok(events) => events,
            Err(error) if error.status == 0 && failures < 10 => {
                failures += 1;
                tracing::warn!(%error, "cannot reach Herald; retrying");
                tokio::time::sleep(Duration::from_secs(u64::from(failures))).await;
                continue;
            }
            Err(error) => return Err(error),
        };
        failures = 0;
        while let Some(event) = events.next().await {
            last_event = Some(event.id.clone());
            match event.kind.as_str() {
                "prompt" => answer(&api, &args, &event.data(), &mut rng).await?,
                "finished" => {
                    println!("game over: {}", event.data()["result"]);
                    return Ok(());
                }
                _ => {}
            }
        }
        tracing::info!("event stream ended; reconnecting");
    }
}

async fn answer(
    api: &Api,
    args: &BotArgs,
    me: &Value,
    rng: &mut impl rand::Rng,
) -> Result<(), ClientError> {
    if !me["pending"].is_null() {
        return Ok(()); // already answered this step (e.g. before a reconnect)
    }
    let Some(order) = policy::answer(me, args.strategy, rng) else {
        tracing::warn!(prompt = %me["prompt"], "no answer for this prompt");
        return Ok(());
    };
    match api.submit(&args.lobby, &args.token, &order).await {
        Ok(receipt) => {
            println!(
                "round {} {}: sent {}",
                receipt["round"], receipt["step"], receipt["order"]
            );
            Ok(())
        }
        // The step moved on while we chose (e.g. a deadline or a race): wait for the next prompt.
        Err(error) if error.status == 409 => {
            tracing::info!(%error, "order refused as stale");
            Ok(())
        }
        Err(error) => Err(error),
    }
}
