//! `herald arena`: the Python example bot against the built-in random one through the binary,
//! every archive accepted by `herald verify`; and bots that crash, hang or write garbage
//! played around without stalling the arena.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use herald::bots::arena::{ArenaArgs, arena};
use herald::fairness::verify::{read, verify};

const SETTINGS: &str = r#"{"max_players": 2, "max_rounds": 4}"#;

fn example_bot() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/arena_bot.py")
}

fn herald(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_python_example_plays_the_built_in_random_bot_and_every_archive_verifies() {
    let out = tempfile::tempdir().unwrap();
    let python = format!("py=python3 {}", example_bot().display());
    let dir = out.path().to_str().unwrap();
    let run = herald(&[
        "arena",
        "--game",
        "crossing-swords",
        "--bot",
        &python,
        "--bot",
        "random",
        "--games",
        "3",
        "--settings",
        SETTINGS,
        "--seed",
        "5",
        "--out",
        dir,
    ]);
    let table = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{table}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        table.contains("py") && table.contains("random") && table.contains("3 games"),
        "{table}"
    );
    let mut archives: Vec<PathBuf> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    archives.sort();
    assert_eq!(archives.len(), 3);
    let mut sent_by_python = 0;
    for archive in &archives {
        let checked = herald(&["verify", archive.to_str().unwrap()]);
        let said = String::from_utf8_lossy(&checked.stdout);
        assert!(checked.status.success(), "{}: {said}", archive.display());
        assert!(
            said.contains("OK: everything matches") && said.contains("match the re-adjudication"),
            "{said}"
        );
        let archive = read(&std::fs::read_to_string(archive).unwrap()).unwrap();
        for step in &archive.steps {
            for entry in step.revealed.as_array().unwrap() {
                if entry["player"]["name"] == "py" {
                    assert_eq!(
                        entry["source"], "order",
                        "the example bot answered in time: {entry}"
                    );
                    assert!(entry["commitment"].is_string());
                    sent_by_python += 1;
                }
            }
        }
    }
    assert!(sent_by_python >= 3, "{sent_by_python}");
    // A tampered archive does not verify: the check above can fail.
    let mut archive = read(&std::fs::read_to_string(&archives[0]).unwrap()).unwrap();
    archive.steps[0].pools = serde_json::json!({"players": []});
    assert!(!verify(&archive).unwrap().mismatches.is_empty());
}

/// The Python interpreter itself, not a launcher in front of it (a version manager's shim
/// takes longer to start than the bots are given).
fn python() -> String {
    let found = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    String::from_utf8(found.stdout).unwrap().trim().to_owned()
}

fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    format!(
        "{}={} {}",
        name.trim_end_matches(".py"),
        python(),
        path.display()
    )
}

#[test]
fn bots_that_crash_hang_or_write_garbage_play_their_defaults_and_the_arena_ends() {
    let dir = tempfile::tempdir().unwrap();
    let crash = script(
        dir.path(),
        "crash.py",
        "import sys\nsys.stdin.readline()\nsys.exit(3)\n",
    );
    let hang = script(
        dir.path(),
        "hang.py",
        "import sys, time\nfor line in sys.stdin:\n    time.sleep(3600)\n",
    );
    let garbage = script(
        dir.path(),
        "garbage.py",
        "import sys\nfor line in sys.stdin:\n    print('hello', flush=True)\n",
    );
    let out = dir.path().join("out");
    let args = ArenaArgs {
        game: "crossing-swords".into(),
        bots: [
            crash.as_str(),
            hang.as_str(),
            garbage.as_str(),
            "random",
            "missing=/no/such/program",
        ]
        .iter()
        .map(|b| b.parse().unwrap())
        .collect(),
        games: 1,
        players: None,
        settings: r#"{"max_players": 2, "max_rounds": 3}"#.into(),
        joins: Vec::new(),
        move_timeout_ms: 500,
        seed: Some(9),
        out: out.clone(),
    };
    let began = Instant::now();
    let done = arena(&args).unwrap();
    // Ten pairings of one game; only the hanging bot's four cost a timeout a step (three
    // steps each).
    assert!(
        began.elapsed() < Duration::from_secs(40),
        "{:?}",
        began.elapsed()
    );
    let bots = &done.results.bots;
    assert_eq!(done.results.games, 10);
    // A program that never started crashed in each of its four games; one that exits after
    // its first prompt is seen to have gone by the next (or timed out on the first, if it
    // started slowly on a loaded machine); neither ever scores a win.
    assert_eq!(bots["missing"].crashes, 4, "{bots:?}");
    assert!(bots["crash"].crashes >= 3, "{bots:?}");
    assert!(
        bots["hang"].timeouts >= 4 && bots["hang"].crashes == 0,
        "{bots:?}"
    );
    assert!(
        bots["garbage"].invalid >= 4 && bots["garbage"].crashes == 0,
        "{bots:?}"
    );
    for failing in ["crash", "missing", "hang", "garbage"] {
        assert_eq!(bots[failing].wins, 0, "{bots:?}");
    }
    assert_eq!(
        bots["random"],
        herald::bots::arena::results::Standing {
            timeouts: 0,
            invalid: 0,
            crashes: 0,
            ..bots["random"].clone()
        }
    );
    for path in &done.archives {
        let archive = read(&std::fs::read_to_string(path).unwrap()).unwrap();
        let report = verify(&archive).unwrap();
        assert!(
            report.replayed && report.mismatches.is_empty(),
            "{}: {:?}",
            path.display(),
            report.mismatches
        );
        let hung = archive.entrants.iter().any(|e| e.name == "hang");
        let deadline = archive
            .steps
            .iter()
            .any(|s| s.log.to_string().contains("deadline-passed"));
        // The hanging bot's every step passed its deadline (others may too, if a program
        // starts slowly on a loaded machine).
        assert!(!hung || deadline, "{}", path.display());
    }
}
