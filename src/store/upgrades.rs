//! Migrations that rebuild a table must carry every stored row across. These tests stop the
//! SQLite migrations just before such a rebuild, store rows the way the older schema held
//! them, apply the rest, and read the rows back bit for bit.

use std::borrow::Cow;

use sqlx::Row;
use sqlx::migrate::Migrator;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool};

use super::SQLITE_MIGRATOR;

/// SQLite's migrations up to and including `last`.
fn migrations_up_to(last: i64) -> Migrator {
    Migrator {
        migrations: Cow::Owned(
            SQLITE_MIGRATOR
                .migrations
                .iter()
                .filter(|m| m.version <= last)
                .cloned()
                .collect(),
        ),
        ..Migrator::DEFAULT
    }
}

async fn pool_at(dir: &tempfile::TempDir) -> SqlitePool {
    let options = SqliteConnectOptions::new()
        .filename(dir.path().join("herald.db"))
        .create_if_missing(true)
        .foreign_keys(true);
    SqlitePool::connect_with(options).await.expect("open")
}

/// Every rating column as text, so that a float that moved by one bit is seen.
const RATINGS: &str = "SELECT profile_id || '|' || pool || '|' || game || '|' || \
    quote(rating) || '|' || quote(deviation) || '|' || quote(volatility) || '|' || games || '|' || \
    quote(last_game_at) FROM ratings ORDER BY profile_id, pool";
const CHANGES: &str = "SELECT result_seq || '|' || ordinal || '|' || profile_id || '|' || \
    player_id || '|' || place || '|' || quote(before_rating) || '|' || quote(before_deviation) \
    || '|' || quote(before_volatility) || '|' || before_games || '|' || \
    quote(before_last_game_at) || '|' || quote(after_rating) || '|' || quote(after_deviation) \
    || '|' || quote(after_volatility) || '|' || after_games \
    FROM rating_changes ORDER BY result_seq, ordinal";

async fn texts(pool: &SqlitePool, query: &'static str) -> Vec<String> {
    sqlx::query(query)
        .fetch_all(pool)
        .await
        .expect("read")
        .iter()
        .map(|row| row.get::<String, _>(0))
        .collect()
}

#[tokio::test]
async fn ratings_clustered_on_their_keys_keep_every_stored_rating_and_change() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let pool = pool_at(&dir).await;
    migrations_up_to(27)
        .run(&pool)
        .await
        .expect("migrations to 0027");
    let stored = "INSERT INTO profiles (id, handle, handle_key, kind, created_at) VALUES \
        ('p1', 'Ann', 'ann', 'bot', 1), ('p2', 'Bob', 'bob', 'bot', 1); \
        INSERT INTO rated_results (lobby_id, pool, ended_at) VALUES ('l1', 'bst/bots', 7); \
        INSERT INTO ratings VALUES \
        ('p1', 'bst/bots', 'bst', 1662.3110847207025, 290.31896928180135, 0.05999967537518948, 1, 7), \
        ('p2', 'bst/bots', 'bst', 1337.6889152792975, 290.31896928180135, NULL, 1, NULL); \
        INSERT INTO rating_changes VALUES \
        (1, 0, 'p1', 'seat-1', 1, 1500.0, 350.0, 0.06, 0, NULL, \
         1662.3110847207025, 290.31896928180135, 0.05999967537518948, 1), \
        (1, 1, 'p2', 'seat-2', 2, 1500.0, 350.0, NULL, 0, NULL, \
         1337.6889152792975, 290.31896928180135, NULL, 1);";
    sqlx::raw_sql(stored)
        .execute(&pool)
        .await
        .expect("rows of 0017's shape");
    let (ratings, changes) = (texts(&pool, RATINGS).await, texts(&pool, CHANGES).await);
    assert_eq!((ratings.len(), changes.len()), (2, 2));

    SQLITE_MIGRATOR
        .run(&pool)
        .await
        .expect("the remaining migrations");
    assert_eq!(texts(&pool, RATINGS).await, ratings);
    assert_eq!(texts(&pool, CHANGES).await, changes);
    let clustered: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM sqlite_master WHERE name IN ('ratings', 'rating_changes') \
         AND sql LIKE '%WITHOUT ROWID'",
    )
    .fetch_one(&pool)
    .await
    .expect("schema");
    assert_eq!(clustered, 2);
    let dangling: Vec<String> =
        texts(&pool, "SELECT \"table\" FROM pragma_foreign_key_check").await;
    assert!(dangling.is_empty(), "{dangling:?}");
}
