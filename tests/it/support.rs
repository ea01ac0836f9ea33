//! Test support: the production router on a fresh database per test, driven in-process.
//!
//! Every store-backed test runs on SQLite (a temporary file) and, when
//! `HERALD_TEST_POSTGRES_URL` names a PostgreSQL server, again on a fresh database there.

use std::io::Write;
use std::sync::{Arc, Once};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tokio::sync::watch;
use tower::ServiceExt;

use herald::clock::Clock;
use herald::host::{Host, Scheduler};
use herald::store::Store;
use herald::{AppState, app};

pub const POSTGRES_ENV: &str = "HERALD_TEST_POSTGRES_URL";

/// One running application on one backend.
pub struct TestApp {
    /// The app's host (its state in memory, such as the rounds' kept logs, is this process's).
    pub host: Host,
    pub backend: &'static str,
    /// The database URL, to open a second "process" on the same database.
    pub url: String,
    pub router: Router,
    pub store: Store,
    /// The time this app runs on (a manual clock in `timed_apps`).
    pub clock: Clock,
    /// This app's deadline scheduler, as `herald::serve` runs one; stops when the app drops.
    _scheduler: Scheduler,
    /// The notification settings and worker, for apps made by [`notify_apps`].
    notify: Option<(herald::notify::Settings, Option<herald::notify::Worker>)>,
    /// Keeps the database alive for the test's duration (shared with the apps opened on it).
    _dir: Option<Arc<Scratch>>,
    /// Kept so that event streams stay open while the test runs.
    _stop: watch::Sender<bool>,
}

/// The apps a store-backed test runs against: SQLite always, PostgreSQL when configured.
pub async fn apps() -> Vec<TestApp> {
    apps_on(Clock::system).await
}

/// [`apps`], each on its own manual clock standing at `millis` until the test moves it.
pub async fn manual_apps(millis: i64) -> Vec<TestApp> {
    apps_on(|| Clock::manual(millis)).await
}

async fn apps_on(clock: impl Fn() -> Clock) -> Vec<TestApp> {
    let mut apps = vec![sqlite_app_on(clock()).await];
    match std::env::var(POSTGRES_ENV) {
        Ok(url) if !url.is_empty() => apps.push(postgres_app_on(&url, clock()).await),
        _ => announce_postgres_skip(),
    }
    apps
}

/// Says once per run, past the test harness's output capture, that PostgreSQL is skipped.
pub fn announce_postgres_skip() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = writeln!(
            std::io::stderr(),
            "NOTE: {POSTGRES_ENV} is unset: store-backed tests run on SQLite only; \
             the PostgreSQL runs are SKIPPED."
        );
    });
}

/// The apps of [`apps`], on a manual clock standing at [`T0`] that the test moves.
pub async fn timed_apps() -> Vec<TestApp> {
    manual_apps(T0).await
}

/// Where a manual clock starts: 2026-12-01T00:00:00Z.
pub const T0: i64 = 1_796_083_200_000;

pub async fn sqlite_app() -> TestApp {
    sqlite_app_on(Clock::system()).await
}

pub async fn sqlite_app_on(clock: Clock) -> TestApp {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("herald.db").display()
    );
    let store = Store::connect_with_clock(&url, clock)
        .await
        .expect("sqlite store");
    build(
        "sqlite",
        url,
        store,
        Some(Arc::new(Scratch::Dir { _dir: dir })),
    )
}

/// Where a test's database lives, removed when the last app on it is dropped: a temporary
/// directory (SQLite), or a database this run created on the PostgreSQL server. Held only to
/// be dropped.
pub enum Scratch {
    Dir { _dir: tempfile::TempDir },
    Postgres { _database: TestDatabase },
}

/// A database this run created on the PostgreSQL server: dropped when the test drops it, so
/// that a run removes what it made and nothing else (another run on the same server keeps
/// its databases).
pub struct TestDatabase {
    admin_url: String,
    name: String,
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        use sqlx::Executor;
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        // Drop runs inside the test's runtime, which cannot block on a future of its own: the
        // DROP runs on a thread with a runtime of its own. FORCE ends this database's own
        // connections that the test's pool still holds.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime to drop the test database");
            runtime.block_on(async {
                let admin = sqlx::AnyPool::connect(&admin_url).await?;
                let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                admin.execute(sqlx::AssertSqlSafe(sql)).await?;
                admin.close().await;
                Ok::<(), sqlx::Error>(())
            })
        })
        .join();
        if let Ok(Err(e)) = dropped {
            let _ = writeln!(
                std::io::stderr(),
                "NOTE: test database {} was not dropped: {e}",
                self.name
            );
        }
    }
}

/// The prefix of every test database's name; after it come the second it was created (Unix
/// time) and a random part: `herald_test_1796083200_<32 hex digits>`.
const TEST_DATABASE_PREFIX: &str = "herald_test_";

/// How old a test database must be before a run takes it for a crashed run's leftover: far
/// longer than any run, so that a database another run is still using is never dropped.
const STALE_AFTER: Duration = Duration::from_secs(6 * 60 * 60);

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A new test database's name, with the time it is created in it.
pub fn test_database_name() -> String {
    format!(
        "{TEST_DATABASE_PREFIX}{}_{}",
        unix_now(),
        uuid::Uuid::new_v4().simple()
    )
}

/// Whether `name` is a test database made more than [`STALE_AFTER`] before `now`: only a
/// name that says when it was made can be; any other database is left alone.
fn stale(name: &str, now: u64) -> bool {
    let Some((secs, random)) = name
        .strip_prefix(TEST_DATABASE_PREFIX)
        .and_then(|rest| rest.split_once('_'))
    else {
        return false;
    };
    let random_ok = random.len() == 32 && random.bytes().all(|b| b.is_ascii_hexdigit());
    match secs.parse::<u64>() {
        Ok(made) if random_ok => now.saturating_sub(made) > STALE_AFTER.as_secs(),
        _ => false,
    }
}

#[test]
fn only_a_test_database_made_hours_ago_is_stale() {
    let now = 1_796_083_200;
    let hex = "0123456789abcdef0123456789abcdef";
    assert!(stale(&format!("herald_test_{}_{hex}", now - 7 * 3600), now));
    assert!(!stale(&format!("herald_test_{}_{hex}", now - 60), now));
    assert!(!stale(&format!("herald_test_{now}_{hex}"), now));
    // A name that does not say when it was made (another tool's, or an older run's) is not.
    assert!(!stale(&format!("herald_test_{hex}"), now));
    assert!(!stale(&format!("herald_test_1_{hex}x"), now));
    assert!(!stale("herald", now));
    let made = unix_now();
    assert!(stale(&test_database_name(), made + 7 * 3600));
    assert!(!stale(&test_database_name(), made));
}

/// A fresh PostgreSQL database for one test, created through the configured server.
pub async fn postgres_app(admin_url: &str) -> TestApp {
    postgres_app_on(admin_url, Clock::system()).await
}

pub async fn postgres_app_on(admin_url: &str, clock: Clock) -> TestApp {
    use sqlx::Executor;
    sqlx::any::install_default_drivers();
    let name = test_database_name();
    let admin = sqlx::AnyPool::connect(admin_url)
        .await
        .expect("connect to PostgreSQL");
    drop_stale_databases(&admin).await;
    admin
        .execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .await
        .expect("create test database");
    admin.close().await;
    let database = Scratch::Postgres {
        _database: TestDatabase {
            admin_url: admin_url.to_owned(),
            name: name.clone(),
        },
    };
    let url = match admin_url.rfind('/') {
        Some(slash) if slash > admin_url.find("://").map_or(0, |i| i + 2) => {
            let (base, rest) = admin_url.split_at(slash);
            let query = rest.find('?').map(|q| &rest[q..]).unwrap_or("");
            format!("{base}/{name}{query}")
        }
        _ => format!("{admin_url}/{name}"),
    };
    let store = Store::connect_with_clock(&url, clock)
        .await
        .expect("postgres store");
    build("postgres", url, store, Some(Arc::new(database)))
}

/// Drops the test databases that crashed runs left behind (once per run): only those made
/// more than [`STALE_AFTER`] ago, as their names say. A run drops its own as each test ends
/// ([`TestDatabase`]), so that two runs on one server never drop each other's.
async fn drop_stale_databases(admin: &sqlx::AnyPool) {
    use sqlx::{Executor, Row};
    static CLEANED: tokio::sync::OnceCell<()> = tokio::sync::OnceCell::const_new();
    CLEANED
        .get_or_init(|| async {
            // As text: the Any driver cannot decode PostgreSQL's `name` type, and a row it
            // cannot read must not pass for no leftover at all.
            let sql =
                "SELECT datname::text FROM pg_database WHERE datname LIKE 'herald\\_test\\_%'";
            let names: Vec<String> = sqlx::query(sql)
                .fetch_all(admin)
                .await
                .expect("list the test databases")
                .iter()
                .map(|r| r.try_get(0).expect("a database name as text"))
                .collect();
            let now = unix_now();
            for name in names.into_iter().filter(|name| stale(name, now)) {
                let _ = admin
                    .execute(sqlx::AssertSqlSafe(format!(
                        "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                    )))
                    .await;
            }
        })
        .await;
}

/// [`timed_apps`] that deliver notifications with `settings`, each with its worker running.
pub async fn notify_apps(settings: herald::notify::Settings) -> Vec<TestApp> {
    timed_apps()
        .await
        .into_iter()
        .map(|app| app.with_notifications(settings.clone()))
        .collect()
}

fn build(backend: &'static str, url: String, store: Store, dir: Option<Arc<Scratch>>) -> TestApp {
    build_with(backend, url, store, dir, None)
}

fn build_with(
    backend: &'static str,
    url: String,
    store: Store,
    dir: Option<Arc<Scratch>>,
    notify: Option<herald::notify::Settings>,
) -> TestApp {
    let mut host = Host::new(store.clone());
    let notify = notify.map(|settings| {
        host = host.clone().with_notifications(settings.clone());
        let sender = herald::notify::Sender::new(settings.clone(), store.clock().clone())
            .expect("notification sender");
        let worker = herald::notify::worker::spawn(host.clone(), sender);
        (settings, Some(worker))
    });
    let scheduler = host.spawn_scheduler();
    let (stop, stopped) = watch::channel(false);
    let router = app(AppState::new(host.clone(), stopped));
    TestApp {
        host,
        backend,
        url,
        router,
        clock: store.clock().clone(),
        store,
        _scheduler: scheduler,
        notify,
        _dir: dir,
        _stop: stop,
    }
}

impl TestApp {
    /// Stops this app's delivery worker, keeping its notification settings: the test claims
    /// and settles deliveries itself, as another process's worker would.
    pub fn stop_worker(&mut self) {
        if let Some((_, worker)) = &mut self.notify {
            worker.take();
        }
    }

    /// This app, rebuilt with notifications delivered by a worker of its own.
    pub fn with_notifications(self, settings: herald::notify::Settings) -> TestApp {
        let TestApp {
            backend,
            url,
            store,
            _dir,
            ..
        } = self;
        build_with(backend, url, store, _dir, Some(settings))
    }

    /// This app with the bots' ladder on (as `HERALD_LADDER=1` serves it), its routes and
    /// pages included. Neither the rounds nor the boss bots run by themselves: the test
    /// starts what it needs.
    pub fn with_ladder(mut self, settings: herald::host::ladder::LadderSettings) -> TestApp {
        self.host = self.host.clone().with_ladder(settings);
        let (stop, stopped) = watch::channel(false);
        self.router = app(AppState::new(self.host.clone(), stopped));
        self._stop = stop;
        self
    }

    /// Another server on the same database, with its own connection pool (as a second
    /// process would have).
    pub async fn second_server(&self) -> TestApp {
        let store = Store::connect_with_clock(&self.url, self.clock.clone())
            .await
            .expect("second store");
        let settings = self.notify.as_ref().map(|(settings, _)| settings.clone());
        build_with(
            self.backend,
            self.url.clone(),
            store,
            self._dir.clone(),
            settings,
        )
    }

    /// Stops this server (closing its pool) and starts a new one on the same database, as a
    /// restart would.
    pub async fn restart(self) -> TestApp {
        let stopped = self.stop().await;
        stopped.start().await
    }

    /// Stops this server: its scheduler, its routes and its pool. The database stays.
    pub async fn stop(self) -> Stopped {
        let TestApp {
            backend,
            url,
            store,
            clock,
            _dir,
            _scheduler,
            notify,
            ..
        } = self;
        drop(_scheduler);
        let settings = notify.map(|(settings, worker)| {
            drop(worker);
            settings
        });
        store.close().await;
        Stopped {
            backend,
            url,
            clock,
            dir: _dir,
            settings,
        }
    }
}

/// A server that was stopped; its database (and clock) remain.
pub struct Stopped {
    pub backend: &'static str,
    pub url: String,
    pub clock: Clock,
    dir: Option<Arc<Scratch>>,
    settings: Option<herald::notify::Settings>,
}

impl Stopped {
    /// Starts a new server on the same database and clock.
    pub async fn start(self) -> TestApp {
        let store = Store::connect_with_clock(&self.url, self.clock)
            .await
            .expect("store after restart");
        build_with(self.backend, self.url, store, self.dir, self.settings)
    }
}

/// A response: status and JSON body (Null when empty or not JSON).
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: StatusCode,
    pub body: Value,
    pub text: String,
}

impl Reply {
    /// The error code of an error reply.
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }
}

impl TestApp {
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Body>,
    ) -> Reply {
        let mut request = Request::builder().method(method).uri(path);
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        if body.is_some() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        let request = request
            .body(body.unwrap_or_else(Body::empty))
            .expect("request");
        let response = self
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("response");
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Reply { status, body, text }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        self.send(Method::GET, path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Reply {
        self.send(
            Method::POST,
            path,
            token,
            Some(Body::from(body.to_string())),
        )
        .await
    }

    /// Creates a lobby and returns (lobby id, host token).
    pub async fn create_lobby(&self, game: &str, settings: Value) -> (String, String) {
        let reply = self
            .post(
                "/api/v1/lobbies",
                None,
                json!({"game": game, "name": "Test lobby", "settings": settings}),
            )
            .await;
        assert_eq!(
            reply.status,
            StatusCode::CREATED,
            "create lobby: {}",
            reply.text
        );
        (
            reply.body["id"].as_str().unwrap().to_string(),
            reply.body["host_token"].as_str().unwrap().to_string(),
        )
    }

    /// Joins `name` and returns (player id, player token).
    pub async fn join(&self, lobby: &str, body: Value) -> (String, String) {
        let reply = self
            .post(&format!("/api/v1/lobbies/{lobby}/players"), None, body)
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "join: {}", reply.text);
        (
            reply.body["player_id"].as_str().unwrap().to_string(),
            reply.body["player_token"].as_str().unwrap().to_string(),
        )
    }

    pub async fn start(&self, lobby: &str, host_token: &str) -> Reply {
        let reply = self
            .post(
                &format!("/api/v1/lobbies/{lobby}/start"),
                Some(host_token),
                json!({}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "start: {}", reply.text);
        reply
    }

    /// The two players of a started Crossing Swords duel, as `join` gave them (id, token),
    /// strike each other in round 1; each order must be accepted.
    pub async fn strike_each_other(&self, lobby: &str, players: &[(String, String)]) {
        for (author, (_, token)) in players.iter().enumerate() {
            let target = &players[1 - author].0;
            let reply = self
                .post(
                    &format!("/api/v1/lobbies/{lobby}/orders"),
                    Some(token),
                    json!({"round": 1, "step": "orders", "move": "strike", "target": target}),
                )
                .await;
            assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
        }
    }
}
