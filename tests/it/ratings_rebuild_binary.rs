//! `herald ratings rebuild`, the built binary, on a database a server stopped with (docs/
//! ratings.md, "How the server stores them"): SQLite always, PostgreSQL when configured. It
//! finds every stored rating equal to the fold of the stored results and leaves every value
//! as it was, to the bit.

use std::process::Command;
use std::time::Duration;

use serde_json::json;

use crate::api_profiles::profile;
use crate::api_ratings::{end, rated, stored};
use crate::support::manual_apps;

#[tokio::test]
async fn the_built_rebuild_reaches_exactly_the_stored_values() {
    const DAY: Duration = Duration::from_secs(24 * 3600);
    for app in manual_apps(1_800_000_000_000).await {
        let mut keys = Vec::new();
        for handle in ["Oda", "Pia", "Quin"] {
            keys.push(profile(&app, handle).await.0);
        }
        for game in 0..4usize {
            let (a, b) = (&keys[game % 3], &keys[(game + 1) % 3]);
            let (lobby, host, players) = rated(&app, "bst", json!({}), &[a, b]).await;
            let body = match game {
                2 => json!({"result": "draw"}),
                _ => json!({"winner": players[game % 2].0}),
            };
            end(&app, &lobby, &host, body).await;
            app.clock.advance(DAY * 2);
            let three: Vec<&str> = keys.iter().map(String::as_str).collect();
            let (lobby, host, _) = rated(&app, "crossing-swords", json!({}), &three).await;
            end(&app, &lobby, &host, json!({})).await;
            app.clock.advance(DAY);
        }
        let pools = ["bst/humans", "crossing-swords/humans"];
        let before = stored(&app, &pools).await;
        assert_eq!(before.len(), 6, "{}", app.backend);
        let backend = app.backend;
        let stopped = app.stop().await;
        let out = Command::new(env!("CARGO_BIN_EXE_herald"))
            .args(["ratings", "rebuild", "--database-url", &stopped.url])
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "{backend}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            text.trim(),
            "8 results replayed, 6 ratings written, 0 differed from the stored ones",
            "{backend}"
        );
        let app = stopped.start().await;
        assert_eq!(stored(&app, &pools).await, before, "{backend}");
    }
}
