//! Who plays in the arena: a built-in strategy (`random`, `greedy`), or a program
//! (`NAME=COMMAND ARGS...`, the command split on spaces and run without a shell).

use std::str::FromStr;

use crate::games::Strategy;

/// What plays a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotKind {
    /// A reference strategy, played in the process.
    Builtin(Strategy),
    /// A program and its arguments.
    Command(Vec<String>),
}

/// A bot as the command line names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    pub name: String,
    pub kind: BotKind,
}

impl FromStr for BotSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<BotSpec, String> {
        let text = text.trim();
        if let Ok(strategy) = <Strategy as clap::ValueEnum>::from_str(text, true) {
            return Ok(BotSpec {
                name: text.to_owned(),
                kind: BotKind::Builtin(strategy),
            });
        }
        let (name, command) = match text.split_once('=') {
            Some((name, command)) if !name.is_empty() && !name.contains(char::is_whitespace) => {
                (name.to_owned(), command)
            }
            _ => (text.to_owned(), text),
        };
        let argv: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        match argv.is_empty() {
            true => Err(format!("{text:?} names no command")),
            false => Ok(BotSpec {
                name,
                kind: BotKind::Command(argv),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_is_a_strategy_or_a_named_command() {
        assert_eq!(
            "greedy".parse::<BotSpec>().unwrap().kind,
            BotKind::Builtin(Strategy::Greedy)
        );
        let spec: BotSpec = "py=python3 bot.py --x=1".parse().unwrap();
        assert_eq!(spec.name, "py");
        assert_eq!(
            spec.kind,
            BotKind::Command(vec!["python3".into(), "bot.py".into(), "--x=1".into()])
        );
        let bare: BotSpec = "./bot --fast".parse().unwrap();
        assert_eq!(bare.name, "./bot --fast");
        assert!("py=".parse::<BotSpec>().is_err());
    }
}
