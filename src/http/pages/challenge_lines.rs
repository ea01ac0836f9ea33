//! What the pages show of challenges (docs/bots.md, "Challenges"): the challenge form's games
//! on another profile's page, and the lists on `/me` of the challenges to the profile and of
//! those it made. The forms' handlers are in `challenge_forms.rs`.

use super::home::GameOption;
use crate::host::GameKind;
use crate::host::challenges::{ChallengeView, SentChallenge, SentState};

/// The challenge form on another profile's page, for a signed-in visitor.
pub struct ChallengeOffer {
    /// Every hosted game, the first chosen.
    pub games: Vec<GameOption>,
    /// Why the last challenge from this form was refused.
    pub error: Option<String>,
}

impl ChallengeOffer {
    pub fn new() -> ChallengeOffer {
        ChallengeOffer {
            games: GameOption::all(GameKind::ALL[0].id()),
            error: None,
        }
    }
}

/// One challenge to the profile, with its Accept and Decline forms.
pub struct ReceivedLine {
    pub id: String,
    pub from: String,
    pub game: String,
}

/// One challenge the profile made, and where it stands.
pub struct SentLine {
    pub to: String,
    pub game: String,
    pub state: &'static str,
    /// The game's lobby, once accepted.
    pub lobby: Option<String>,
}

/// The challenges section of `/me`.
pub struct ChallengesShown {
    pub received: Vec<ReceivedLine>,
    pub sent: Vec<SentLine>,
}

fn game_title(id: &str) -> String {
    id.parse::<GameKind>()
        .map_or_else(|_| id.to_owned(), |kind| kind.title().to_owned())
}

impl ChallengesShown {
    pub fn of(received: &[ChallengeView], sent: &[SentChallenge]) -> ChallengesShown {
        ChallengesShown {
            received: received
                .iter()
                .map(|c| ReceivedLine {
                    id: c.id.to_string(),
                    from: c.from.clone(),
                    game: game_title(&c.game),
                })
                .collect(),
            sent: sent
                .iter()
                .map(|c| SentLine {
                    to: c.to.clone(),
                    game: game_title(&c.game),
                    state: match c.state {
                        SentState::Waiting => "waiting for an answer",
                        SentState::Accepted(_) => "accepted",
                        SentState::Declined => "declined",
                        SentState::Lapsed => "not answered within a day",
                    },
                    lobby: match c.state {
                        SentState::Accepted(lobby) => Some(lobby.to_string()),
                        SentState::Waiting | SentState::Declined | SentState::Lapsed => None,
                    },
                })
                .collect(),
        }
    }
}
