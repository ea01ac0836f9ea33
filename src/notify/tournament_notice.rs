//! What a tournament's notice says (docs/notifications.md, "Tournament webhooks"), built from
//! the event its pairing or its end wrote and nothing else: the round's pairings as a forum
//! director posts them (each game with its lobby's link, the byes, the deadline), or the final
//! standings with the winner. The event was written public: an anonymous tournament's games
//! name their seats' pseudonyms, never handles (`host/tournaments/news.rs`).

use serde_json::value::RawValue;
use uuid::Uuid;

use super::Settings;
use super::notice::{Notice, NoticeEvent};
use crate::error::AppError;
use crate::games::telling::{in_utc, listed};
use crate::host::Host;
use crate::host::tournaments::news::{
    FINISHED, FinalPlace, ROUND_STARTED, RoundStarted, TournamentFinished,
};
use crate::store::{EventRow, Owner};
use crate::tournament::Format;

/// Builds the notice of `event` of tournament `id`.
pub async fn build(
    host: &Host,
    settings: &Settings,
    id: Uuid,
    event: &EventRow,
) -> Result<Notice, AppError> {
    let name = host.tournament_name(id).await?;
    let unreadable = || AppError::Internal(format!("tournament event {:?}", event.kind));
    let (title, text) = match event.kind.as_str() {
        ROUND_STARTED => {
            let round: RoundStarted =
                serde_json::from_str(&event.data).map_err(|_| unreadable())?;
            round_started(&name, &round, |lobby| settings.lobby_link(lobby))
        }
        FINISHED => {
            let end: TournamentFinished =
                serde_json::from_str(&event.data).map_err(|_| unreadable())?;
            finished(&name, &end.standings)
        }
        _ => (format!("{name}: {}", event.kind), String::new()),
    };
    Ok(Notice {
        kind: event.kind.clone(),
        subject: Owner::Tournament(id),
        name,
        title,
        text,
        link: settings.tournament_link(id),
        event: Some(NoticeEvent {
            data: RawValue::from_string(event.data.clone())
                .unwrap_or_else(|_| RawValue::NULL.to_owned()),
            seq: event.seq,
        }),
    })
}

/// A round's pairings: "Game 1: Ann vs. Bob (link)", a melee's "Board 1: Ann, Bob and Cat",
/// then the byes and the deadline.
fn round_started(
    name: &str,
    round: &RoundStarted,
    link: impl Fn(Uuid) -> Option<String>,
) -> (String, String) {
    let of = format!("round {} of {}", round.round, round.rounds_total);
    let what = match round.format {
        Format::Melee => "Board",
        Format::Swiss | Format::RoundRobin | Format::Knockout => "Game",
    };
    let mut lines = vec![format!("Pairings for {of}:")];
    for (n, game) in round.games.iter().enumerate() {
        let players: Vec<&str> = game.players.iter().map(String::as_str).collect();
        let players = match (round.format, players.as_slice()) {
            (Format::Melee, _) => listed(&players),
            (_, [a, b]) => format!("{a} vs. {b}"),
            (_, other) => listed(other),
        };
        let place = match link(game.lobby) {
            Some(link) => format!(" ({link})"),
            None => String::new(),
        };
        lines.push(format!("{what} {}: {players}{place}", n + 1));
    }
    if !round.byes.is_empty() {
        let byes: Vec<&str> = round.byes.iter().map(String::as_str).collect();
        lines.push(format!("Bye: {}.", listed(&byes)));
    }
    lines.push(match &round.deadline_at {
        Some(at) => format!("First answers are due by {}.", in_utc(at)),
        None => "No deadline: each game moves on once every answer is in.".to_owned(),
    });
    (format!("{name}: {of} is paired"), lines.join("\n"))
}

/// The final standings, headed by the winner (or the winners sharing first place).
fn finished(name: &str, standings: &[FinalPlace]) -> (String, String) {
    let first: Vec<&str> = standings
        .iter()
        .filter(|place| place.rank == 1)
        .map(|place| place.handle.as_str())
        .collect();
    let headline = match first.as_slice() {
        [] => format!("{name} is over."),
        [one] => format!("{name} is over. Winner: {one}."),
        many => format!("{name} is over. Winners: {}.", listed(many)),
    };
    let mut lines = vec!["Final standings:".to_owned()];
    lines.extend(standings.iter().map(|place| {
        let unit = match place.points.as_f64() {
            Some(1.0) => "point",
            _ => "points",
        };
        format!("{}. {}, {} {unit}", place.rank, place.handle, place.points)
    }));
    (headline, lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::tournaments::news::PairedGame;

    #[test]
    fn a_round_reads_as_a_director_posts_its_pairings() {
        let round = RoundStarted {
            round: 2,
            rounds_total: 4,
            format: Format::Swiss,
            games: vec![PairedGame {
                lobby: Uuid::nil(),
                players: vec!["Ann".into(), "Bob".into()],
            }],
            byes: vec!["Cat".into()],
            deadline_at: Some("2026-12-01T18:00:00.000Z".into()),
        };
        let (title, text) = round_started("Winter Swiss", &round, |_| Some("L".into()));
        assert_eq!(title, "Winter Swiss: round 2 of 4 is paired");
        assert_eq!(
            text,
            "Pairings for round 2 of 4:\nGame 1: Ann vs. Bob (L)\nBye: Cat.\n\
             First answers are due by 2026-12-01 18:00 UTC."
        );
    }

    #[test]
    fn the_end_names_the_winner_and_every_place_with_half_points() {
        let place = |rank, handle: &str, points: &str| FinalPlace {
            rank,
            handle: handle.into(),
            points: points.parse().unwrap(),
            tiebreaks: Default::default(),
        };
        let (title, text) = finished(
            "Winter Swiss",
            &[
                place(1, "Ann", "2.5"),
                place(2, "Bob", "1"),
                place(3, "Cat", "0"),
            ],
        );
        assert_eq!(title, "Winter Swiss is over. Winner: Ann.");
        assert_eq!(
            text,
            "Final standings:\n1. Ann, 2.5 points\n2. Bob, 1 point\n3. Cat, 0 points"
        );
    }
}
