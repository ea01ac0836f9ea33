//! A bot program, run as a child process that reads lines on its standard input and writes
//! lines on its standard output (docs/bots.md, "The arena's protocol"). A thread writes to it
//! and one reads from it, so that a bot that neither reads nor writes can stall neither the
//! arena nor the other bots: the arena only ever waits on a channel, up to a deadline.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// The longest line read from a bot; the rest of a longer one is read as a line of its own
/// (and is garbage either way), so that a bot cannot fill the arena's memory.
const MAX_LINE: u64 = 1 << 20;
/// How long a bot has to exit after its standard input is closed before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// What a bot said next.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    Line(String),
    /// Nothing before the deadline.
    Silent,
    /// Its standard output closed: it exited or crashed.
    Gone,
}

/// A running bot program.
pub struct BotProcess {
    child: Child,
    to_bot: Option<Sender<String>>,
    from_bot: Receiver<String>,
}

impl BotProcess {
    /// Starts `argv` (the program, then its arguments), its standard error going to `stderr`.
    pub fn spawn(argv: &[String], stderr: Stdio) -> std::io::Result<BotProcess> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| std::io::Error::other("an empty command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (to_bot, lines_out) = channel();
        let (lines_in, from_bot) = channel();
        std::thread::spawn(move || write_lines(stdin, lines_out));
        std::thread::spawn(move || read_lines(stdout, lines_in));
        Ok(BotProcess {
            child,
            to_bot: Some(to_bot),
            from_bot,
        })
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: String) {
        if let Some(to_bot) = &self.to_bot {
            let _ = to_bot.send(line);
        }
    }

    /// The bot's next line, waiting until `deadline` at most.
    pub fn receive(&mut self, deadline: Instant) -> Reply {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.from_bot.recv_timeout(wait) {
            Ok(line) => Reply::Line(line),
            Err(RecvTimeoutError::Timeout) => Reply::Silent,
            Err(RecvTimeoutError::Disconnected) => Reply::Gone,
        }
    }

    /// Closes its standard input (the end of the game), gives it a moment to exit, then
    /// kills it if it has not.
    pub fn finish(mut self) {
        self.to_bot = None;
        let until = Instant::now() + EXIT_GRACE;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn write_lines(mut stdin: ChildStdin, lines: Receiver<String>) {
    for mut line in lines {
        line.push('\n');
        if stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

fn read_lines(stdout: ChildStdout, lines: Sender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match reader
            .by_ref()
            .take(MAX_LINE)
            .read_until(b'\n', &mut buffer)
        {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buffer).trim().to_owned();
                if !line.is_empty() && lines.send(line).is_err() {
                    return;
                }
            }
        }
    }
}
