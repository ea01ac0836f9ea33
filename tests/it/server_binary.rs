//! The `herald` binary itself: it logs to standard error (standard output stays empty), logs
//! its open-file limit, a SIGTERM with a half-sent request open stops it within the
//! configured drain time, and its allocator asks the kernel for no huge pages.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::server_limits::PATIENCE;

/// The binary started on a fresh SQLite file with `envs`, once it logs that it listens: the
/// child, its address and the lines it logged until then.
pub struct Started {
    pub child: std::process::Child,
    pub address: String,
    pub log: Vec<String>,
    /// The lines it logs from then on.
    pub lines: std::sync::mpsc::Receiver<String>,
    _dir: Arc<tempfile::TempDir>,
}

/// A test that fails part-way leaves no server behind.
impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_binary(envs: &[(&str, &str)]) -> Started {
    start_binary_in(Arc::new(tempfile::tempdir().unwrap()), envs)
}

/// The binary on the SQLite file `h.db` in `dir`, with `envs`, not yet waited for.
pub fn spawn_binary(dir: &tempfile::TempDir, envs: &[(&str, &str)]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["--bind", "127.0.0.1:0", "--database-url"])
        .arg(format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("h.db").display()
        ))
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .envs(envs.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// [`start_binary`] on the SQLite file in `dir` (which may hold one already).
pub fn start_binary_in(dir: Arc<tempfile::TempDir>, envs: &[(&str, &str)]) -> Started {
    let mut child = spawn_binary(&dir, envs);
    let stderr = child.stderr.take().unwrap();
    let (lines, seen) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let mut log = Vec::new();
    let address = loop {
        let line = seen
            .recv_timeout(PATIENCE)
            .expect("Herald logs that it listens");
        log.push(line.clone());
        if line.contains("Herald is listening") {
            let at = line.find("127.0.0.1:").unwrap();
            let end = line[at..]
                .find(|c: char| c != '.' && c != ':' && !c.is_ascii_digit())
                .map_or(line.len(), |e| at + e);
            break line[at..end].to_owned();
        }
    };
    Started {
        child,
        address,
        log,
        lines: seen,
        _dir: dir,
    }
}

#[tokio::test]
async fn the_binary_logs_to_stderr_and_sigterm_ends_it_within_the_drain_time() {
    let mut started = start_binary(&[
        ("HERALD_DRAIN_TIMEOUT", "300ms"),
        ("HERALD_HEADER_TIMEOUT", "10m"),
    ]);
    let (child, address, log) = (&mut started.child, &started.address, &started.log);
    assert!(
        log.iter()
            .any(|l| l.contains("open-file limit") && l.contains("open_files")),
        "the open-file limit is logged: {log:#?}"
    );

    let mut half = TcpStream::connect(address.as_str()).await.unwrap();
    half.write_all(b"GET /api/v1/lobbies HTTP/1.1\r\nHost: t\r\nX-Half")
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());

    let deadline = std::time::Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "SIGTERM did not stop Herald within {PATIENCE:?} (drain time 300ms)"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(status.success(), "{status}");
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    assert_eq!(stdout, "", "logs go to standard error, not standard output");
}

/// The allocator never asks the kernel for transparent huge pages (mimalloc's `no_thp`
/// feature, Cargo.toml): with them, every 2 MB region of mimalloc's arena that a thread
/// touches at all became resident whole, which made an idle server hold 36 MB where it needs
/// 20 (docs/performance.md, "Idle memory and huge pages"). `hg` in a mapping's `VmFlags` is
/// the kernel's mark of `madvise(MADV_HUGEPAGE)`, so this holds whatever the machine's own
/// THP setting is.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn the_binarys_heap_asks_the_kernel_for_no_huge_pages() {
    let started = start_binary(&[]);
    // Some requests first, so that the runtime's threads have all allocated.
    for _ in 0..20 {
        let mut stream = TcpStream::connect(&started.address).await.unwrap();
        stream
            .write_all(b"GET /api/v1/lobbies HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut answer = Vec::new();
        tokio::io::AsyncReadExt::read_to_end(&mut stream, &mut answer)
            .await
            .unwrap();
        assert!(answer.starts_with(b"HTTP/1.1 200"), "{answer:?}");
    }
    let smaps = std::fs::read_to_string(format!("/proc/{}/smaps", started.child.id())).unwrap();
    // Each mapping is a header line (its address range first) and then `Name:` fields, the
    // last of them `VmFlags:`.
    let mut mapping = "";
    let mut madvised = Vec::new();
    for line in smaps.lines() {
        match line.strip_prefix("VmFlags:") {
            Some(flags) if flags.split_whitespace().any(|flag| flag == "hg") => {
                madvised.push(mapping)
            }
            Some(_) => {}
            None if !line.split_whitespace().next().unwrap_or(":").ends_with(':') => mapping = line,
            None => {}
        }
    }
    assert!(
        madvised.is_empty(),
        "mappings madvised for huge pages: {madvised:#?}"
    );
}

/// The binary's resident memory, from `/proc` (`VmRSS`, in bytes).
#[cfg(target_os = "linux")]
fn resident_bytes(pid: u32) -> i64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: i64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kb| kb.parse().ok())
        .expect("VmRSS in /proc/PID/status");
    kb * 1024
}

/// Connections in the crowd: the figure the public-server probe measured.
const CROWD: usize = 3_000;

/// What a crowd of connections leaves behind once it has gone: the allocator gives the
/// memory back to the kernel (docs/performance.md, "Memory after a crowd"), where it stayed
/// resident for good (37-57 MB after 3,000 connections), however long the server stayed idle.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_freed_by_3000_closed_connections_goes_back_to_the_kernel() {
    use tokio::io::AsyncReadExt;
    // The crowd's sockets are this process's descriptors too.
    rlimit::increase_nofile_limit(u64::MAX).unwrap();
    // One address opens the whole crowd, as the probe did from one machine: the per-client
    // connection share (docs/api.md, "Bodies and errors") would refuse most of it, so this test raises it.
    let started = start_binary(&[("HERALD_MAX_CONNECTIONS_PER_CLIENT", "10000")]);
    let pid = started.child.id();
    let get = b"GET /api/v1/lobbies HTTP/1.1\r\nHost: t\r\n\r\n";
    // A few requests first, so that the runtime's threads and the server's tables have
    // reached their working size before the baseline.
    for _ in 0..20 {
        let mut stream = TcpStream::connect(&started.address).await.unwrap();
        stream.write_all(get).await.unwrap();
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).await.unwrap();
    }
    let baseline = resident_bytes(pid);
    let mut crowd = Vec::with_capacity(CROWD);
    for _ in 0..CROWD {
        let mut stream = TcpStream::connect(&started.address).await.unwrap();
        stream.write_all(get).await.unwrap();
        crowd.push(stream);
    }
    // Every connection has had its answer (and is kept alive, idle, by the server). On a
    // loaded machine the server may shed a share of 3,000 requests at once with its 503 (try
    // again): an answer too, and the connection's memory is what this test weighs.
    for stream in &mut crowd {
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).await.unwrap();
        assert!(
            &head == b"HTTP/1.1 200" || &head == b"HTTP/1.1 503",
            "{:?}",
            String::from_utf8_lossy(&head)
        );
    }
    let with_crowd = resident_bytes(pid);
    drop(crowd);
    let grown = with_crowd - baseline;
    assert!(
        grown > 10 << 20,
        "the measure sees the crowd: {grown} bytes"
    );
    // Two thirds of what the crowd took may stay (the allocator keeps some pages per thread
    // and size class, the runtime its grown tables; about 45% stays); before, all of it did,
    // however long the server stayed idle. Waited for, since the allocator purges a freed
    // page only after its delay (a second).
    let bound = grown * 2 / 3;
    let deadline = std::time::Instant::now() + PATIENCE;
    let mut left = resident_bytes(pid) - baseline;
    while left > bound && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
        left = resident_bytes(pid) - baseline;
    }
    eprintln!(
        "resident: baseline {} MB, with {CROWD} connections +{} MB, after they closed +{} MB",
        baseline >> 20,
        grown >> 20,
        left >> 20
    );
    assert!(
        left <= bound,
        "{left} of the {grown} bytes the crowd took stayed resident after it closed"
    );
}

/// One process per SQLite file (docs/store.md, "One process per SQLite file"): a second
/// server started on the file a first one serves refuses to start, saying why, and exits
/// non-zero, while the first goes on serving; once the first is gone (even by `kill -9`, which
/// runs none of its code) the file is free again.
#[tokio::test]
async fn a_second_server_on_one_sqlite_file_refuses_to_start() {
    let mut first = start_binary(&[]);
    let dir = first._dir.clone();
    let mut second = spawn_binary(&dir, &[]);
    let deadline = std::time::Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = second.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = second.kill();
            panic!("a second server on the same SQLite file kept running");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut second.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!status.success(), "{status}: {stderr}");
    assert!(
        stderr.contains("another Herald process is using this SQLite database")
            && stderr.contains("h.db.lock"),
        "the refusal says why: {stderr}"
    );
    assert!(
        !stderr.contains("Herald is listening"),
        "the second never listened: {stderr}"
    );
    assert!(
        first.child.try_wait().unwrap().is_none(),
        "the first server goes on"
    );
    let served = TcpStream::connect(first.address.as_str()).await;
    assert!(served.is_ok(), "the first server still accepts connections");

    first.child.kill().unwrap();
    first.child.wait().unwrap();
    drop(first);
    let again = start_binary_in(dir, &[]);
    assert!(
        again.log.iter().any(|l| l.contains("Herald is listening")),
        "the file is free once its server is gone"
    );
}
