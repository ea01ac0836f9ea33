//! `herald verify FILE`: the command line around [`super::verify`].

use super::verify::{Unreadable, read, verify};

/// `herald verify FILE`.
#[derive(Clone, Debug, clap::Args)]
pub struct VerifyArgs {
    /// The archive (a JSON file), or `-` for standard input.
    pub file: String,
}

/// Runs `herald verify`: prints the report and returns the exit code (0 everything matches,
/// 1 a mismatch, 2 unreadable).
pub fn run(args: &VerifyArgs) -> i32 {
    let text = match args.file.as_str() {
        "-" => std::io::read_to_string(std::io::stdin()),
        path => std::fs::read_to_string(path),
    };
    let outcome = text
        .map_err(|e| Unreadable(format!("cannot read {}: {e}", args.file)))
        .and_then(|text| read(&text))
        .and_then(|archive| verify(&archive).map(|report| (archive, report)));
    match outcome {
        Err(Unreadable(why)) => {
            eprintln!("herald verify: {why}");
            2
        }
        Ok((archive, report)) => {
            println!(
                "{} lobby {} ({}), {}",
                archive.game, archive.lobby.id, archive.lobby.name, archive.status
            );
            for line in &report.lines {
                println!("{line}");
            }
            for mismatch in &report.mismatches {
                println!("{mismatch}");
            }
            match report.mismatches.is_empty() {
                true => {
                    println!("OK: everything matches");
                    0
                }
                false => 1,
            }
        }
    }
}
