//! Faults with several Herald processes (the real binary) on PostgreSQL (docs/scale-out.md):
//! a process killed with SIGKILL under load behind the real HAProxy with the repository's
//! configuration (`deploy/haproxy.cfg`), and a PostgreSQL server of the test's own stopped and
//! started again under load. Also: through the proxy, Herald tells clients apart by the address
//! HAProxy forwards, so one client's rate limit is not everyone's; and the proxy keeps each
//! lobby on one process.
//!
//! PostgreSQL only: skipped (and said so) without `HERALD_TEST_POSTGRES_URL`. Without HAProxy
//! the proxy tests say loudly that they skipped, except under `CI=true`, where that is a failure
//! (`.ci/install-proxy` installs it; `.ci/run` runs it). Deadlines firing once across processes are covered by
//! `api_race::the_last_order_racing_the_deadline_on_two_servers_resolves_each_round_once` (two
//! servers on one database, each with its own deadline scheduler, 200 rounds whose last order
//! races the deadline), and notifications by
//! `notify_delivery::two_servers_on_one_database_deliver_each_notification_once`.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{POSTGRES_ENV, announce_postgres_skip};

/// How long anything the tests wait for may take on a loaded machine before it is a failure.
const PATIENCE: Duration = Duration::from_secs(120);
/// The address HAProxy connects to the Herald processes from: the only one they trust to name
/// the client (as `scripts/scale-out.sh` sets it up).
const PROXY_SOURCE: &str = "127.0.0.3";
const PLAYERS: usize = 16;

// ---------------------------------------------------------------------------------------------
// Processes: Herald, HAProxy and a PostgreSQL server of the test's own.

/// A child process that is killed (SIGKILL) and reaped when dropped, so that a failing test
/// leaves nothing running.
struct Process {
    child: Child,
    /// What it wrote to standard error, for a failure's message.
    log: Arc<Mutex<Vec<String>>>,
}

impl Process {
    fn spawn(command: &mut Command) -> Process {
        let mut child = command
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {command:?}: {e}"));
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().expect("piped stderr");
        let lines = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                lines.lock().unwrap().push(line);
            }
        });
        Process { child, log }
    }

    fn log(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }

    /// SIGKILL, as a crash or the kernel's OOM killer would end it.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A Herald process (the binary under test) on `database`, with `env` set; returns it and the
/// address it listens on (it picks a free port and logs it).
fn herald(database: &str, env: &[(&str, &str)]) -> (Process, SocketAddr) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_herald"));
    command
        .args(["--bind", "127.0.0.1:0", "--database-url", database])
        .env("RUST_LOG", "info,sqlx=warn")
        .env("NO_COLOR", "1");
    for (name, value) in env {
        command.env(name, value);
    }
    let process = Process::spawn(&mut command);
    let deadline = Instant::now() + PATIENCE;
    loop {
        let listening = process
            .log
            .lock()
            .unwrap()
            .iter()
            .find(|l| l.contains("Herald is listening"))
            .cloned();
        if let Some(line) = listening {
            let at = line.find("127.0.0.1:").expect("the address is logged");
            let end = line[at..]
                .find(|c: char| c != '.' && c != ':' && !c.is_ascii_digit())
                .map_or(line.len(), |e| at + e);
            return (process, line[at..end].parse().expect("an address"));
        }
        assert!(
            Instant::now() < deadline,
            "Herald did not start within {PATIENCE:?}:\n{}",
            process.log()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// HAProxy's binary, or `None` (said loudly) when it is missing outside CI; under `CI=true` a
/// missing proxy fails the test.
fn haproxy_binary() -> Option<PathBuf> {
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .chain([PathBuf::from("/usr/sbin")])
        .map(|dir| dir.join("haproxy"))
        .find(|path| path.is_file());
    if found.is_none() {
        assert!(
            !std::env::var("CI").is_ok_and(|v| v == "true"),
            "CI=true but HAProxy is missing: run .ci/install-proxy (apt-get install -y haproxy)"
        );
        eprintln!(
            "NOTE: HAProxy is missing: the scale-out proxy tests are SKIPPED \
             (apt-get install -y haproxy)."
        );
    }
    found
}

/// The PostgreSQL server the tests may create databases on, or `None` (said once).
fn postgres_admin() -> Option<String> {
    match std::env::var(POSTGRES_ENV) {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            announce_postgres_skip();
            None
        }
    }
}

/// A fresh database on the configured server, as a URL. It is named as the other tests' are
/// (with the time it was made), so that a later run drops it once it is hours old; the
/// servers this test spawns outlive any guard it could hold.
async fn fresh_database(admin_url: &str) -> String {
    use sqlx::Executor;
    sqlx::any::install_default_drivers();
    let name = crate::support::test_database_name();
    let admin = sqlx::AnyPool::connect(admin_url)
        .await
        .expect("connect to PostgreSQL");
    admin
        .execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .await
        .expect("create test database");
    admin.close().await;
    let (base, query) = match admin_url.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (admin_url, String::new()),
    };
    let server = base
        .rsplit_once('/')
        .filter(|(s, _)| s.contains("://") && !s.ends_with('/'));
    match server {
        Some((server, _)) => format!("{server}/{name}{query}"),
        None => format!("{base}/{name}{query}"),
    }
}

/// A port nobody listens on now, on loopback (for a server that must be told its port).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// HAProxy with the repository's configuration in front of `upstreams`.
struct Proxy {
    _process: Process,
    url: String,
    _dir: tempfile::TempDir,
}

fn proxy(binary: &Path, upstreams: &[SocketAddr]) -> Proxy {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    let mut servers = String::from("backend herald\n");
    for (i, upstream) in upstreams.iter().enumerate() {
        servers.push_str(&format!(
            "    server herald-{i} {upstream} source {PROXY_SOURCE}\n"
        ));
    }
    let list = dir.path().join("upstreams.cfg");
    std::fs::write(&list, servers).expect("write the upstream list");
    let port = free_port();
    let process = Process::spawn(
        Command::new(binary)
            .arg("-db")
            .arg("-f")
            .arg(repository.join("deploy/haproxy.cfg"))
            .arg("-f")
            .arg(&list)
            .env("HERALD_PROXY_BIND", format!("127.0.0.1:{port}"))
            .env("HERALD_PROXY_ERRORS", repository.join("deploy/errors")),
    );
    let deadline = Instant::now() + PATIENCE;
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "HAProxy did not listen within {PATIENCE:?}:\n{}",
            process.log()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    Proxy {
        _process: process,
        url: format!("http://127.0.0.1:{port}"),
        _dir: dir,
    }
}

/// A PostgreSQL server of the test's own (initdb in a temporary directory, on a free loopback
/// port), so that stopping it disturbs no other test. As root, its programs run as the user
/// `postgres` (PostgreSQL refuses to run as root).
struct OwnPostgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
}

impl OwnPostgres {
    fn init() -> OwnPostgres {
        let bin = postgres_bin();
        let dir = tempfile::tempdir().expect("temp dir");
        if running_as_root() {
            run(Command::new("chown")
                .arg("-R")
                .arg("postgres:")
                .arg(dir.path()));
        }
        let server = OwnPostgres {
            dir,
            bin,
            port: free_port(),
        };
        run(server
            .command("initdb")
            .args(["--auth=trust", "--username=postgres", "--no-sync", "-D"])
            .arg(server.data()));
        server
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// `pg_ctl start`, waiting until it accepts connections.
    fn start(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1",
            self.port,
            self.dir.path().display()
        );
        run(self
            .command("pg_ctl")
            .args(["-w", "-t", "60", "-o", &options, "-l"])
            .arg(self.dir.path().join("server.log"))
            .arg("-D")
            .arg(self.data())
            .arg("start"));
    }

    /// `pg_ctl stop -m MODE` (fast: sessions are ended; immediate: as a crash).
    fn stop(&self, mode: &str) {
        run(self
            .command("pg_ctl")
            .args(["-w", "-t", "60", "-m", mode, "-D"])
            .arg(self.data())
            .arg("stop"));
    }

    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        match running_as_root() {
            true => {
                let mut command = Command::new("runuser");
                command.args(["-u", "postgres", "--"]).arg(path);
                command
            }
            false => Command::new(path),
        }
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        let _ = self
            .command("pg_ctl")
            .args(["-m", "immediate", "-D"])
            .arg(self.data())
            .arg("stop")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// Where PostgreSQL's programs are: Debian's newest `/usr/lib/postgresql/*/bin`, else
/// `pg_config --bindir`.
fn postgres_bin() -> PathBuf {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return bin;
    }
    let output = Command::new("pg_config")
        .arg("--bindir")
        .output()
        .expect("PostgreSQL's programs: neither /usr/lib/postgresql/*/bin nor pg_config");
    PathBuf::from(String::from_utf8_lossy(&output.stdout).trim())
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn run(command: &mut Command) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        output.status.success(),
        "{command:?}: {}\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

// ---------------------------------------------------------------------------------------------
// A client: plain HTTP/1.1 with reqwest, as a bot would talk to the proxy.

fn client_from(local: Option<IpAddr>) -> reqwest::Client {
    herald::notify::install_crypto_provider();
    reqwest::Client::builder()
        .local_address(local)
        // Longer than anything the server may take (the pool's 10 s wait for a connection
        // included): a request that takes this long is a hang, and fails the test.
        .timeout(Duration::from_secs(30))
        .build()
        .expect("an HTTP client")
}

/// One answer: its status (0 when the transport failed), JSON body, `Retry-After`.
#[derive(Debug, Clone)]
struct Answer {
    status: u16,
    body: Value,
    retry_after: Option<String>,
}

async fn call(
    client: &reqwest::Client,
    method: reqwest::Method,
    url: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Answer {
    let mut request = client.request(method, url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(body);
    }
    match request.send().await {
        Ok(response) => {
            let status = response.status().as_u16();
            let retry_after = response
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            let bytes = response.bytes().await.unwrap_or_default();
            Answer {
                status,
                body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
                retry_after,
            }
        }
        Err(error) => {
            assert!(!error.is_timeout(), "a request hung: {error}");
            Answer {
                status: 0,
                body: Value::String(error.to_string()),
                retry_after: None,
            }
        }
    }
}

/// A call that must succeed; sent again while the answer is a passing failure (the transport,
/// or a 502/503/504 while a process or the database is away).
async fn call_ok(
    client: &reqwest::Client,
    method: reqwest::Method,
    url: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Value {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let answer = call(client, method.clone(), url, token, body).await;
        match answer.status {
            200..=299 => return answer.body,
            0 | 502..=504 if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            _ => panic!("{method} {url}: {answer:?}"),
        }
    }
}

/// A lobby of Crossing Swords with [`PLAYERS`] seated, not yet started.
#[derive(Clone)]
struct Table {
    id: String,
    host: String,
    ids: Vec<String>,
    tokens: Vec<String>,
}

async fn seated_lobby(client: &reqwest::Client, base: &str, max_rounds: u64) -> Table {
    let post = reqwest::Method::POST;
    let created = call_ok(
        client,
        post.clone(),
        &format!("{base}/api/v1/lobbies"),
        None,
        Some(&json!({"game": "crossing-swords", "name": "Scale-out", "settings": {"max_rounds": max_rounds}})),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let host = created["host_token"].as_str().unwrap().to_owned();
    let (mut ids, mut tokens) = (Vec::new(), Vec::new());
    for seat in 0..PLAYERS {
        let joined = call_ok(
            client,
            post.clone(),
            &format!("{base}/api/v1/lobbies/{id}/players"),
            None,
            Some(&json!({"name": format!("P{seat}")})),
        )
        .await;
        ids.push(joined["player_id"].as_str().unwrap().to_owned());
        tokens.push(joined["player_token"].as_str().unwrap().to_owned());
    }
    Table {
        id,
        host,
        ids,
        tokens,
    }
}

async fn start(client: &reqwest::Client, base: &str, lobby: &str, host: &str) {
    call_ok(
        client,
        reqwest::Method::POST,
        &format!("{base}/api/v1/lobbies/{lobby}/start"),
        Some(host),
        Some(&json!({})),
    )
    .await;
}

/// A harmless order that varies by round and seat (nobody dies, so every player owes every
/// round), so that a lost or swapped order shows.
fn order_for(round: u64, seat: usize, ids: &[String]) -> Value {
    let moves = ["dodge", "block", "riposte", "focus", "mend"];
    let target = &ids[(seat + 1 + round as usize % (PLAYERS - 1)) % PLAYERS];
    json!({"round": round, "step": "orders", "move": moves[(round as usize + seat) % moves.len()], "target": target})
}

// ---------------------------------------------------------------------------------------------
// kill -9 of one of two processes behind the proxy.

/// What the test itself saw acknowledged: (lobby, round, player id) → the order sent.
type Ledger = Arc<Mutex<BTreeMap<(String, u64, String), Value>>>;

/// Plays `rounds` rounds of one lobby through the proxy: each player sends its order and
/// sends it again after a passing failure until it is acknowledged (or the round has moved on,
/// which means an unanswered attempt was committed); every 202 goes into the ledger.
async fn play(
    client: reqwest::Client,
    base: String,
    table: Table,
    rounds: u64,
    ledger: Ledger,
    progress: Arc<AtomicU64>,
) {
    let lobby = table.id;
    let ids = Arc::new(table.ids);
    for round in 1..=rounds {
        let mut tasks = Vec::new();
        for (seat, token) in table.tokens.iter().enumerate() {
            let (client, base, lobby, token, ids, ledger) = (
                client.clone(),
                base.clone(),
                lobby.clone(),
                token.clone(),
                ids.clone(),
                ledger.clone(),
            );
            tasks.push(tokio::spawn(async move {
                let order = order_for(round, seat, &ids);
                let url = format!("{base}/api/v1/lobbies/{lobby}/orders");
                let deadline = Instant::now() + PATIENCE;
                let mut unanswered = false;
                loop {
                    let answer = call(
                        &client,
                        reqwest::Method::POST,
                        &url,
                        Some(&token),
                        Some(&order),
                    )
                    .await;
                    match answer.status {
                        202 => {
                            let key = (lobby.clone(), round, ids[seat].clone());
                            ledger.lock().unwrap().insert(key, order.clone());
                            return;
                        }
                        // The attempt the proxy could not answer did reach Herald, and the
                        // round resolved with it: not acknowledged, so not in the ledger.
                        409 | 422 if unanswered => return,
                        0 | 502..=504 if Instant::now() < deadline => {
                            unanswered |= answer.status != 503;
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        _ => panic!("round {round} seat {seat}: {answer:?}"),
                    }
                }
            }));
        }
        for task in tasks {
            task.await.expect("a player's task");
        }
        // Every player's order is in, so the round resolves; wait until the lobby says so.
        let deadline = Instant::now() + PATIENCE;
        loop {
            let view = call_ok(
                &client,
                reqwest::Method::GET,
                &format!("{base}/api/v1/lobbies/{lobby}"),
                None,
                None,
            )
            .await;
            if view["round"].as_u64().unwrap_or(0) > round || view["status"] == "finished" {
                break;
            }
            assert!(Instant::now() < deadline, "round {round} did not resolve");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        progress.fetch_max(round, Ordering::SeqCst);
    }
}

/// A listener on the lobby's public stream through the proxy: it reads every event until
/// `finished`, reconnecting with `Last-Event-ID` whenever the stream ends (its process was
/// killed). Returns the (event number, kind) it received, in order, and how often its stream
/// was cut.
async fn listen(
    base: String,
    lobby: String,
    opened: tokio::sync::oneshot::Sender<()>,
) -> (Vec<(i64, String)>, u32) {
    let api = herald::bots::client::Api::new(&base);
    let mut received: Vec<(i64, String)> = Vec::new();
    let mut cut = 0;
    let mut opened = Some(opened);
    let deadline = Instant::now() + PATIENCE;
    loop {
        let last = received.last().map(|(seq, _)| seq.to_string());
        let mut stream = match api.lobby_events(&lobby, last.as_deref(), None).await {
            Ok(stream) => stream,
            Err(error) => {
                assert!(
                    Instant::now() < deadline,
                    "the stream did not reopen: {error}"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        if let Some(opened) = opened.take() {
            let _ = opened.send(());
        }
        // A stream on one process hears another process's commits only when its own next
        // commit shows the gap (without docs/store.md's cross-process wake-up): a quiet stream is
        // reopened after a while, as a client that misses its keep-alives would.
        loop {
            match tokio::time::timeout(Duration::from_secs(20), stream.next()).await {
                Ok(Some(event)) => {
                    let seq: i64 = event.id.parse().expect("numbered events");
                    let finished = event.kind == "finished";
                    received.push((seq, event.kind));
                    if finished {
                        return (received, cut);
                    }
                }
                Ok(None) => {
                    cut += 1;
                    break;
                }
                Err(_quiet) => break,
            }
        }
        assert!(
            Instant::now() < deadline,
            "the stream did not reach the end of the game: {received:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn killing_one_of_two_processes_behind_the_proxy_loses_no_acknowledged_order_or_event() {
    let (Some(admin), Some(haproxy)) = (postgres_admin(), haproxy_binary()) else {
        return;
    };
    const LOBBIES: usize = 4;
    const ROUNDS: u64 = 8;
    let database = fresh_database(&admin).await;
    let env = [
        ("HERALD_TRUSTED_PROXIES", PROXY_SOURCE),
        ("HERALD_RATE_LIMIT_EXEMPT", "127.0.0.1"),
        ("RUST_LOG", REQUEST_LOG),
    ];
    // The first applies the migrations before the second starts.
    let mut processes = [herald(&database, &env), herald(&database, &env)];
    let proxy = proxy(&haproxy, &[processes[0].1, processes[1].1]);
    let client = client_from(None);

    let mut lobbies = Vec::new();
    for _ in 0..LOBBIES {
        lobbies.push(seated_lobby(&client, &proxy.url, ROUNDS).await);
    }
    // Two listeners on the first lobby, opened before any game starts. The proxy keeps a lobby
    // on one process, streams included: that process is the one that dies, so both listeners
    // lose their streams and resume on the other.
    let mut listeners = Vec::new();
    for _ in 0..2 {
        let (opened, is_open) = tokio::sync::oneshot::channel();
        listeners.push(tokio::spawn(listen(
            proxy.url.clone(),
            lobbies[0].id.clone(),
            opened,
        )));
        is_open.await.expect("the stream opens");
    }

    let ledger: Ledger = Arc::default();
    let progress = Arc::new(AtomicU64::new(0));
    let mut games = Vec::new();
    for table in &lobbies {
        start(&client, &proxy.url, &table.id, &table.host).await;
        games.push(tokio::spawn(play(
            client.clone(),
            proxy.url.clone(),
            table.clone(),
            ROUNDS,
            ledger.clone(),
            progress.clone(),
        )));
    }
    // Mid-game, with orders in flight, the process serving the first lobby dies.
    let deadline = Instant::now() + PATIENCE;
    while progress.load(Ordering::SeqCst) < 3 {
        assert!(Instant::now() < deadline, "the games did not get going");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let holder = usize::from(answered_for(&processes[0].0, &lobbies[0].id) == 0);
    processes[holder].0.kill();
    for game in games {
        game.await.expect("a game's players");
    }
    let mut heard = Vec::new();
    let mut cut = 0;
    for listener in listeners {
        let (events, times) = listener.await.expect("a listener");
        heard.push(events);
        cut += times;
    }
    assert!(
        cut >= 1,
        "the stream on the killed process was cut (and its listener reconnected to the other)"
    );

    eprintln!(
        "kill -9 behind the proxy: {} orders acknowledged of {}, {cut} stream(s) cut and resumed",
        ledger.lock().unwrap().len(),
        LOBBIES * PLAYERS * ROUNDS as usize
    );

    // The database, read by a store of the test's own, against the test's ledger.
    let store = herald::store::Store::connect(&database)
        .await
        .expect("a store on the test database");
    let ledger = ledger.lock().unwrap().clone();
    assert!(
        ledger.len() > LOBBIES * PLAYERS * ROUNDS as usize / 2,
        "most orders were acknowledged"
    );
    for Table { id: lobby, ids, .. } in &lobbies {
        let lobby_id = uuid::Uuid::parse_str(lobby).unwrap();
        let mut events = Vec::new();
        loop {
            let after = events.last().map_or(0, |e: &herald::store::EventRow| e.seq);
            let page = store.events_after(lobby_id, after).await.unwrap();
            if page.is_empty() {
                break;
            }
            events.extend(page);
        }
        let mut resolved: HashMap<u64, usize> = HashMap::new();
        for event in events.iter().filter(|e| e.kind == "round-resolved") {
            let data: Value = serde_json::from_str(&event.data).unwrap();
            *resolved.entry(data["round"].as_u64().unwrap()).or_default() += 1;
        }
        assert_eq!(
            resolved,
            (1..=ROUNDS).map(|r| (r, 1)).collect::<HashMap<_, _>>(),
            "every round resolved once"
        );
        assert_eq!(
            events.iter().filter(|e| e.kind == "finished").count(),
            1,
            "the game finished once"
        );
        for round in 1..=ROUNDS {
            let reveal = call_ok(
                &client,
                reqwest::Method::GET,
                &format!("{}/api/v1/lobbies/{lobby}/rounds/{round}", proxy.url),
                None,
                None,
            )
            .await;
            let revealed: HashMap<String, Value> = reveal["orders"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| {
                    (
                        o["player"]["id"].as_str().unwrap().to_owned(),
                        o["order"].clone(),
                    )
                })
                .collect();
            for player in ids {
                let Some(sent) = ledger.get(&(lobby.clone(), round, player.clone())) else {
                    continue;
                };
                let played = &revealed[player];
                assert_eq!(
                    (&played["move"], &played["target"]),
                    (&sent["move"], &sent["target"]),
                    "round {round}: the acknowledged order of {player} is the one revealed"
                );
            }
        }
        if lobby == &lobbies[0].id {
            let stored: Vec<(i64, String)> =
                events.iter().map(|e| (e.seq, e.kind.clone())).collect();
            for events in &heard {
                assert_eq!(
                    events, &stored,
                    "a listener heard every stored event once, in order"
                );
            }
        }
    }
    drop(processes);
}

// ---------------------------------------------------------------------------------------------
// Rate limits count each client behind the proxy by its own address.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_the_proxy_each_client_has_its_own_rate_limit() {
    let (Some(admin), Some(haproxy)) = (postgres_admin(), haproxy_binary()) else {
        return;
    };
    let database = fresh_database(&admin).await;
    let (_herald, address) = herald(
        &database,
        &[
            ("HERALD_TRUSTED_PROXIES", PROXY_SOURCE),
            ("HERALD_LOBBIES_PER_MINUTE", "2"),
        ],
    );
    let proxy = proxy(&haproxy, &[address]);
    let url = format!("{}/api/v1/lobbies", proxy.url);
    let body = json!({"game": "crossing-swords", "name": "Rate"});
    let create = |from: [u8; 4]| {
        let client = client_from(Some(IpAddr::V4(Ipv4Addr::from(from))));
        let (url, body) = (url.clone(), body.clone());
        async move { call(&client, reqwest::Method::POST, &url, None, Some(&body)).await }
    };
    // One client uses its allowance of two lobbies a minute...
    for _ in 0..2 {
        assert_eq!(create([127, 0, 0, 5]).await.status, 201);
    }
    let refused = create([127, 0, 0, 5]).await;
    assert_eq!(refused.status, 429, "{refused:?}");
    assert_eq!(refused.body["error"]["code"], "rate-limited");
    // ...and another client behind the same proxy still has its own.
    assert_eq!(create([127, 0, 0, 6]).await.status, 201);
}

/// What the processes log when a test must know which one answered a lobby's requests: each
/// request's path, when it was answered.
const REQUEST_LOG: &str = "info,sqlx=warn,herald::http=debug,tower_http=debug";
/// How many requests naming `lobby` (API or page) `process` answered, by its [`REQUEST_LOG`].
fn answered_for(process: &Process, lobby: &str) -> usize {
    let (api, page) = (format!("lobbies/{lobby}}}"), format!("lobbies/{lobby}/"));
    process
        .log()
        .lines()
        .filter(|l| l.contains("finished processing request"))
        .filter(|l| l.contains(&api) || l.contains(&page))
        .count()
}

/// Lobbies enough that all of them landing on one of two processes is not chance (about one in
/// ten thousand with a 60/40 split of the hash ring).
const AFFINITY_LOBBIES: usize = 24;

/// The proxy sends every request that names a lobby, API call or page, to one process (the
/// lobby's requests on one process find its state in that process's memory; spread over
/// several, each write made elsewhere makes the others reload it), and spreads the lobbies over
/// the processes. Read from each process's log of the paths it answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_the_proxy_each_lobby_is_served_by_one_process() {
    let (Some(admin), Some(haproxy)) = (postgres_admin(), haproxy_binary()) else {
        return;
    };
    let database = fresh_database(&admin).await;
    let env = [
        ("HERALD_TRUSTED_PROXIES", PROXY_SOURCE),
        ("HERALD_LOBBIES_PER_MINUTE", "0"),
        ("HERALD_JOINS_PER_MINUTE", "0"),
        ("RUST_LOG", REQUEST_LOG),
    ];
    let processes = [herald(&database, &env), herald(&database, &env)];
    let proxy = proxy(&haproxy, &[processes[0].1, processes[1].1]);
    let client = client_from(None);
    let (get, post) = (reqwest::Method::GET, reqwest::Method::POST);
    let base = &proxy.url;
    let mut lobbies = Vec::new();
    for i in 0..AFFINITY_LOBBIES {
        let created = call_ok(
            &client,
            post.clone(),
            &format!("{base}/api/v1/lobbies"),
            None,
            Some(&json!({"game": "crossing-swords", "name": format!("Affinity {i}")})),
        )
        .await;
        let id = created["id"].as_str().expect("a lobby id").to_owned();
        let joined = call_ok(
            &client,
            post.clone(),
            &format!("{base}/api/v1/lobbies/{id}/players"),
            None,
            Some(&json!({"name": "P"})),
        )
        .await;
        let token = joined["player_token"].as_str().expect("a player token");
        for (path, token) in [
            (format!("/api/v1/lobbies/{id}"), None),
            (format!("/api/v1/lobbies/{id}/me"), Some(token)),
            (format!("/lobbies/{id}"), None),
        ] {
            call_ok(&client, get.clone(), &format!("{base}{path}"), token, None).await;
        }
        lobbies.push(id);
    }
    // The join, the view, `me` and the page: four answered requests name each lobby.
    const NAMING: usize = 4;
    let answered = |lobby: &str| processes.each_ref().map(|(p, _)| answered_for(p, lobby));
    let mut served = [0, 0];
    for lobby in &lobbies {
        wait_until("every request in a process's log", || {
            answered(lobby).iter().sum::<usize>() == NAMING
        })
        .await;
        let counts = answered(lobby);
        assert!(
            counts.contains(&0),
            "lobby {lobby}'s requests were split between the processes: {counts:?}"
        );
        served[usize::from(counts[0] == 0)] += 1;
    }
    assert!(
        served.iter().all(|&n| n > 0),
        "every lobby went to one process: {served:?} lobbies per process"
    );
}

// ---------------------------------------------------------------------------------------------
// A PostgreSQL restart under load.

/// One request of the load during the restart: when it was sent and answered, against the
/// outage, and what came back.
#[derive(Debug)]
struct Seen {
    sent: u8,
    answered: u8,
    took: Duration,
    what: &'static str,
    answer: Answer,
}

/// Waits (without blocking the runtime) until `done`, failing after [`PATIENCE`].
async fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !done() {
        assert!(Instant::now() < deadline, "{what}: not within {PATIENCE:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The outage's phases, in order.
const UP: u8 = 0;
const DOWN: u8 = 1;
/// From the moment the database is started again.
const RESTARTED: u8 = 2;

/// One request of [`keep_asking`]: what it is, its method, URL, token and body.
type Request<'a> = (
    &'static str,
    reqwest::Method,
    String,
    Option<&'a str>,
    Option<Value>,
);

/// Sends what a table's players would (the lobby's view, each player's `me` and orders for the
/// round the view names) until `stop`, recording every answer with its phase.
async fn keep_asking(
    client: reqwest::Client,
    base: String,
    table: Table,
    seat: usize,
    phase: Arc<AtomicU8>,
    stop: Arc<AtomicU8>,
    seen: Arc<Mutex<Vec<Seen>>>,
) {
    let lobby = &table.id;
    let token = &table.tokens[seat];
    let mut round = 1;
    while stop.load(Ordering::SeqCst) == 0 {
        let requests: [Request<'_>; 3] = [
            (
                "view",
                reqwest::Method::GET,
                format!("{base}/api/v1/lobbies/{lobby}"),
                None,
                None,
            ),
            (
                "me",
                reqwest::Method::GET,
                format!("{base}/api/v1/lobbies/{lobby}/me"),
                Some(token),
                None,
            ),
            (
                "order",
                reqwest::Method::POST,
                format!("{base}/api/v1/lobbies/{lobby}/orders"),
                Some(token),
                Some(order_for(round, seat, &table.ids)),
            ),
        ];
        for (what, method, url, token, body) in requests {
            let sent = phase.load(Ordering::SeqCst);
            let started = Instant::now();
            let answer = call(&client, method, &url, token, body.as_ref()).await;
            let answered = phase.load(Ordering::SeqCst);
            if what == "view" && answer.status == 200 {
                round = answer.body["round"].as_u64().unwrap_or(round);
            }
            seen.lock().unwrap().push(Seen {
                sent,
                answered,
                took: started.elapsed(),
                what,
                answer,
            });
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_postgres_restart_under_load_answers_503_and_herald_recovers_by_itself() {
    if postgres_admin().is_none() {
        return;
    }
    let postgres = OwnPostgres::init();
    postgres.start();
    let (herald, address) = herald(
        &postgres.url(),
        &[("HERALD_RATE_LIMIT_EXEMPT", "127.0.0.1")],
    );
    let base = format!("http://{address}");
    let client = client_from(None);
    let table = seated_lobby(&client, &base, 10_000).await;
    start(&client, &base, &table.id, &table.host).await;

    let phase = Arc::new(AtomicU8::new(UP));
    let stop = Arc::new(AtomicU8::new(0));
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let askers: Vec<_> = (0..PLAYERS)
        .map(|seat| {
            tokio::spawn(keep_asking(
                client.clone(),
                base.clone(),
                table.clone(),
                seat,
                phase.clone(),
                stop.clone(),
                seen.clone(),
            ))
        })
        .collect();
    let count =
        |wanted: &dyn Fn(&Seen) -> bool| seen.lock().unwrap().iter().filter(|s| wanted(s)).count();
    wait_until("orders accepted before the outage", || {
        count(&|s| s.sent == UP && s.answer.status == 202) >= 2 * PLAYERS
    })
    .await;

    // A fast shutdown ends every session at once, as a restart does; the load goes on.
    let postgres = tokio::task::spawn_blocking(move || {
        postgres.stop("fast");
        postgres
    })
    .await
    .unwrap();
    phase.store(DOWN, Ordering::SeqCst);
    wait_until("answers during the outage", || {
        count(&|s| s.sent == DOWN && s.answered == DOWN) >= 2 * PLAYERS
    })
    .await;

    // PostgreSQL comes back; Herald, not restarted, must accept orders again by itself. The
    // phase moves before the start: a request waiting for a connection is answered as soon as
    // the database accepts one, which may be before `pg_ctl start` returns, and that answer
    // belongs to the restart, not to the outage.
    phase.store(RESTARTED, Ordering::SeqCst);
    let postgres = tokio::task::spawn_blocking(move || {
        postgres.start();
        postgres
    })
    .await
    .unwrap();
    wait_until("orders accepted again without restarting Herald", || {
        count(&|s| s.sent == RESTARTED && s.answer.status == 202) >= 2 * PLAYERS
    })
    .await;
    stop.store(1, Ordering::SeqCst);
    for asker in askers {
        asker.await.expect("a client");
    }

    let seen = seen.lock().unwrap();
    let faults: Vec<&Seen> = seen
        .iter()
        .filter(|s| s.answer.status == 0 || s.answer.status >= 500 && s.answer.status != 503)
        .collect();
    assert!(
        faults.is_empty(),
        "no 500, no dropped connection: {faults:#?}\nHerald's log:\n{}",
        herald.log()
    );
    let outage: Vec<&Seen> = seen
        .iter()
        .filter(|s| s.sent == DOWN && s.answered == DOWN)
        .collect();
    assert!(outage.len() >= 2 * PLAYERS);
    for seen in &outage {
        assert_eq!(seen.answer.status, 503, "during the outage: {seen:#?}");
        assert_eq!(
            seen.answer.body["error"]["code"], "database-unavailable",
            "{seen:#?}"
        );
        assert!(seen.answer.body["error"]["message"].is_string());
        assert_eq!(seen.answer.retry_after.as_deref(), Some("1"), "{seen:#?}");
    }
    let slowest = seen.iter().map(|s| s.took).max().unwrap();
    eprintln!(
        "PostgreSQL restart: {} requests, {} answered during the outage (all 503), the \
         slowest answer took {slowest:?}; kinds during the outage: {:?}",
        seen.len(),
        outage.len(),
        outage
            .iter()
            .fold(BTreeMap::<&str, usize>::new(), |mut m, s| {
                *m.entry(s.what).or_default() += 1;
                m
            })
    );
    drop(herald);
    drop(postgres);
}

// ---------------------------------------------------------------------------------------------
// Requests in flight when a process dies behind the proxy.

/// One HTTP/1.1 answer read off `stream`: its status and JSON body, or `None` if the
/// connection closed before a single byte of an answer (what a client cannot tell from a
/// lost network).
async fn read_answer(stream: &mut tokio::net::TcpStream) -> Option<(u16, Value)> {
    use tokio::io::AsyncReadExt;
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        let read = tokio::time::timeout(PATIENCE, stream.read(&mut chunk))
            .await
            .expect("an answer or a close within the patience")
            .unwrap_or(0);
        if read == 0 {
            assert!(bytes.is_empty(), "a partial answer: {bytes:?}");
            return None;
        }
        bytes.extend_from_slice(&chunk[..read]);
    };
    let head = String::from_utf8_lossy(&bytes[..head_end]).to_lowercase();
    let status = head[9..12].parse().expect("a status line");
    // Without a length (the proxy's own error answers), the body runs to the close.
    let length: Option<usize> = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .map(|n| n.trim().parse().expect("a length"));
    while length.is_none_or(|length| bytes.len() < head_end + length) {
        let read = tokio::time::timeout(PATIENCE, stream.read(&mut chunk))
            .await
            .expect("the rest of the body")
            .expect("the body reads");
        if read == 0 {
            assert!(length.is_none(), "the body was cut");
            break;
        }
        bytes.extend_from_slice(&chunk[..read]);
    }
    let end = length.map_or(bytes.len(), |length| head_end + length);
    let body = serde_json::from_slice(&bytes[head_end..end]).unwrap_or(Value::Null);
    Some((status, body))
}

/// `kill -STOP` or `kill -CONT` (`signal`) of `process`.
fn signal(process: &Process, signal: &str) {
    run(Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(process.child.id().to_string()));
}

/// Every request in flight when its process dies is answered: a read (GET) sent again to
/// the other process, anything else `502 upstream-failed` as `docs/scale-out.md` says, and
/// none has its connection closed unanswered. Each is the second request of a kept-alive
/// connection, as a bot's are (the case the proxy used to answer by closing). The process
/// is stopped first, so that every request is surely in flight (received, not answered)
/// when it is killed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_in_flight_when_a_process_dies_behind_the_proxy_are_all_answered() {
    use tokio::io::AsyncWriteExt;
    let (Some(admin), Some(haproxy)) = (postgres_admin(), haproxy_binary()) else {
        return;
    };
    const EACH: usize = 6;
    let database = fresh_database(&admin).await;
    let env = [
        ("HERALD_TRUSTED_PROXIES", PROXY_SOURCE),
        ("HERALD_RATE_LIMIT_EXEMPT", "127.0.0.1"),
        ("HERALD_JOINS_PER_MINUTE", "0"),
        ("RUST_LOG", REQUEST_LOG),
    ];
    let mut processes = [herald(&database, &env), herald(&database, &env)];
    let proxy = proxy(&haproxy, &[processes[0].1, processes[1].1]);
    let client = client_from(None);
    let created = call_ok(
        &client,
        reqwest::Method::POST,
        &format!("{}/api/v1/lobbies", proxy.url),
        None,
        Some(&json!({"game": "crossing-swords", "name": "In flight"})),
    )
    .await;
    let lobby = created["id"].as_str().unwrap().to_owned();
    let address = proxy.url.trim_start_matches("http://").to_owned();
    let view = format!("GET /api/v1/lobbies/{lobby} HTTP/1.1\r\nHost: h\r\n\r\n");
    // Each connection's first request, answered: the lobby's process is now known by its log.
    let mut connections = Vec::new();
    for _ in 0..2 * EACH {
        let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
        stream.write_all(view.as_bytes()).await.unwrap();
        let (status, _) = read_answer(&mut stream).await.expect("the first answer");
        assert_eq!(status, 200);
        connections.push(stream);
    }
    let holder = usize::from(answered_for(&processes[0].0, &lobby) == 0);
    assert!(answered_for(&processes[holder].0, &lobby) > 0);

    signal(&processes[holder].0, "STOP");
    for (i, stream) in connections.iter_mut().enumerate() {
        let request = if i < EACH {
            view.clone()
        } else {
            let body = json!({"name": format!("P{i}")}).to_string();
            format!(
                "POST /api/v1/lobbies/{lobby}/players HTTP/1.1\r\nHost: h\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
        };
        stream.write_all(request.as_bytes()).await.unwrap();
    }
    // Let the proxy pass them on (were one not yet passed on, it would go to the other
    // process once this one is gone, and be answered all the same).
    tokio::time::sleep(Duration::from_millis(300)).await;
    processes[holder].0.kill();

    let mut answers = Vec::new();
    for stream in &mut connections {
        answers.push(read_answer(stream).await);
    }
    let statuses: Vec<Option<u16>> = answers.iter().map(|a| a.as_ref().map(|a| a.0)).collect();
    eprintln!("in flight when the process died, answered: {statuses:?}");
    for (i, answer) in answers.iter().enumerate() {
        let Some((status, body)) = answer else {
            panic!("request {i} had its connection closed unanswered: {statuses:?}");
        };
        if i < EACH {
            assert_eq!(*status, 200, "a read is sent again: {statuses:?}");
            assert_eq!(body["id"], lobby.as_str());
        } else {
            assert_eq!(*status, 502, "a join is not sent again: {statuses:?}");
            assert_eq!(body["error"]["code"], "upstream-failed", "{body}");
        }
    }
    drop(processes);
}
