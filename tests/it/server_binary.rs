//! The `herald` binary itself: it logs to standard error (standard output stays empty), logs
//! its open-file limit, and a SIGTERM with a half-sent request open stops it within the
//! configured drain time.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::server_limits::PATIENCE;

#[tokio::test]
async fn the_binary_logs_to_stderr_and_sigterm_ends_it_within_the_drain_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["--bind", "127.0.0.1:0", "--database-url"])
        .arg(format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("h.db").display()
        ))
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .env("HERALD_DRAIN_TIMEOUT", "300ms")
        .env("HERALD_HEADER_TIMEOUT", "10m")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
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
    assert!(
        log.iter()
            .any(|l| l.contains("open-file limit") && l.contains("open_files")),
        "the open-file limit is logged: {log:#?}"
    );

    let mut half = TcpStream::connect(&address).await.unwrap();
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
