//! The mail section of a player's page (`docs/notifications.md` "Mail from the player's
//! page"): the boxes a player may tick, what each stands for, and what the section shows. The
//! address is never shown back, not even to its owner: the section says only that mail is on and
//! for what.

use uuid::Uuid;

use super::PageError;
use crate::error::AppError;
use crate::events::EventKind;
use crate::http::AppState;

/// One box of the form: what a person reads, and the stream events it stands for.
pub struct MailChoice {
    pub value: &'static str,
    pub label: &'static str,
    events: &'static [EventKind],
}

/// What a player may hear about by mail. "Your answer is due" is the start and every new step:
/// the notice for those says "Your answer is due" when the player owes one (decision steps
/// included), and what happened otherwise. A game the host ends counts as over.
pub const CHOICES: [MailChoice; 4] = [
    MailChoice {
        value: "due",
        label: "Your answer is due",
        events: &[EventKind::Started, EventKind::StepResolved],
    },
    MailChoice {
        value: "deadline",
        label: "The deadline is approaching",
        events: &[EventKind::DeadlineApproaching],
    },
    MailChoice {
        value: "round",
        label: "A round is resolved",
        events: &[EventKind::RoundResolved],
    },
    MailChoice {
        value: "over",
        label: "The game is over",
        events: &[EventKind::Finished, EventKind::EndedByHost],
    },
];

/// A box as the page shows it.
pub struct MailBox {
    pub value: &'static str,
    pub label: &'static str,
    pub checked: bool,
}

/// The mail section of the player's page.
pub struct MailSection {
    /// This server sends mail (an SMTP relay is configured); without it there is no form.
    pub on: bool,
    /// What the player gets mail for, when they gave an address (never the address).
    pub current: Option<Vec<&'static str>>,
    pub boxes: Vec<MailBox>,
    /// Why the last POST was refused.
    pub error: Option<String>,
    /// What was typed, shown again only when it was not an address (so it can be corrected):
    /// an address that was refused for another reason is not shown back.
    pub typed: String,
    /// Just saved or stopped (`?mail=saved`, `?mail=stopped`).
    pub done: Option<&'static str>,
}

impl MailSection {
    /// The section for the player holding `token`.
    pub async fn of(app: &AppState, id: Uuid, token: &str) -> Result<MailSection, PageError> {
        let on = app.host.notify_settings().mail_on();
        let current = match on {
            true => app.host.my_mail(id, Some(token)).await?,
            false => None,
        };
        let wants = |choice: &MailChoice| match &current {
            Some(kinds) => choice
                .events
                .iter()
                .any(|e| kinds.iter().any(|k| k == e.as_str())),
            None => true,
        };
        Ok(MailSection {
            on,
            boxes: CHOICES
                .iter()
                .map(|c| MailBox {
                    value: c.value,
                    label: c.label,
                    checked: wants(c),
                })
                .collect(),
            current: current.as_ref().map(|_| {
                CHOICES
                    .iter()
                    .filter(|c| wants(c))
                    .map(|c| c.label)
                    .collect()
            }),
            error: None,
            typed: String::new(),
            done: None,
        })
    }

    /// The section after a refused POST: the reason, and the boxes as they were sent.
    pub(super) fn refused(self, error: String, typed: String, ticked: &[String]) -> MailSection {
        MailSection {
            boxes: self
                .boxes
                .into_iter()
                .map(|b| MailBox {
                    checked: ticked.iter().any(|t| t == b.value),
                    ..b
                })
                .collect(),
            error: Some(error),
            typed,
            ..self
        }
    }

    /// The notice after a redirect, from the `mail` query flag.
    pub fn done_from(flag: Option<&str>) -> Option<&'static str> {
        match flag {
            Some("saved") => Some("Saved: Herald will mail you about what you ticked."),
            Some("stopped") => {
                Some("Stopped: your address is deleted and Herald sends you no mail.")
            }
            _ => None,
        }
    }
}

/// The events the ticked boxes stand for; an unknown box is a 422 in words.
pub(super) fn events_of(ticked: &[String]) -> Result<Vec<String>, AppError> {
    let mut events = Vec::new();
    for value in ticked {
        let choice = CHOICES.iter().find(|c| c.value == value).ok_or_else(|| {
            AppError::rejected(
                "unknown-event",
                "That is not one of the things Herald can mail you about; reload the page.",
            )
        })?;
        events.extend(choice.events.iter().map(|e| e.as_str().to_string()));
    }
    if events.is_empty() {
        return Err(AppError::rejected(
            "no-events",
            "Tick at least one thing to be told about, or stop mail altogether.",
        ));
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_box_stands_for_events_a_player_may_subscribe_to() {
        for choice in &CHOICES {
            for event in choice.events {
                assert!(
                    crate::store::outbox::NOTIFIABLE.contains(event),
                    "{event:?}"
                );
            }
        }
    }

    #[test]
    fn no_box_ticked_or_an_unknown_box_is_refused_in_words() {
        assert_eq!(events_of(&[]).unwrap_err().code(), "no-events");
        assert_eq!(
            events_of(&["everything".into()]).unwrap_err().code(),
            "unknown-event"
        );
        assert_eq!(
            events_of(&["due".into(), "over".into()]).unwrap(),
            ["started", "step-resolved", "finished", "ended-by-host"]
        );
    }
}
