//! The notice of a host's reminder (docs/notifications.md, "Reminders"), built like every
//! other notice from public material only: the lobby's name, the round and step the reminder
//! was for (as the public page names them) and the open step's deadline. It names no other
//! player and carries no event, so it can say nothing of anyone's orders.

use uuid::Uuid;

use super::notice::Notice;
use crate::games::telling::{in_utc, round_name};
use crate::host::Host;
use crate::store::Owner;

/// The reminder of `player` for step `step_seq` of `lobby`; the reason in words when it
/// cannot be built (the lobby or the reminder is gone).
pub async fn build(
    host: &Host,
    lobby: Uuid,
    player: Uuid,
    step_seq: i64,
    link: Option<String>,
) -> Result<Notice, String> {
    let facts = host
        .lobby_facts(lobby, Some(player))
        .await
        .map_err(|_| "the lobby is gone".to_owned())?;
    let (round, step, open) = host
        .reminder_of(lobby, player, step_seq)
        .await
        .map_err(|error| format!("the reminder: {error}"))?
        .ok_or_else(|| "the reminder is gone".to_owned())?;
    let deadline = facts.deadline_at.as_deref().filter(|_| open);
    Ok(Notice {
        kind: crate::store::REMINDER_KIND.into(),
        subject: Owner::Lobby(lobby),
        title: format!("Your answer is due in {}", facts.name),
        text: words(&round_name(round, facts.max_rounds), &step, deadline, open),
        name: facts.name,
        link,
        event: None,
    })
}

/// The reminder's lines: the step due and its deadline while it is open; that it closed, if
/// it closed before the reminder could go out.
fn words(round: &str, step: &str, deadline_at: Option<&str>, open: bool) -> String {
    let due = match (open, deadline_at) {
        (true, Some(at)) => format!(
            "{round}, step {step}: your answer is due by {}.",
            in_utc(at)
        ),
        (true, None) => format!("{round}, step {step}: your answer is due (no deadline is set)."),
        (false, _) => {
            format!("{round}, step {step}: your answer was due; that step has closed since.")
        }
    };
    format!("{due}\nThe host sent you this reminder.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reminder_names_the_round_the_step_and_the_deadline_while_the_step_is_open() {
        assert_eq!(
            words("Round 3 of 8", "orders", Some("2026-12-01T18:00:00Z"), true),
            "Round 3 of 8, step orders: your answer is due by 2026-12-01 18:00 UTC.\n\
             The host sent you this reminder."
        );
        assert!(words("Round 3", "orders", None, true).contains("no deadline is set"));
        assert!(
            words("Round 3", "orders", Some("2026-12-01T18:00:00Z"), false).contains("has closed")
        );
    }
}
