//! The standings post: golden files for each markup, and hostile handles kept as text.

use super::*;
use crate::tournament::entrants::{Entrant, EntrantId};
use crate::tournament::points::Points;
use crate::tournament::record::{
    DuelGame, DuelResult, DuelRound, MeleeBoard, MeleeRound, MeleeSeat,
};
use crate::tournament::standings::{melee_standings, named, swiss_standings};

/// Compares `actual` with `tests/golden/<name>`; with `HERALD_BLESS=1` the file is written
/// instead, to review in the diff (as the lobby posts' golden files are).
fn golden(name: &str, actual: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var("HERALD_BLESS").as_deref() == Ok("1") {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with HERALD_BLESS=1 once)", path.display()));
    assert_eq!(actual, expected, "{name} differs from its golden file");
}

const HANDLES: [&str; 5] = [
    "[b]Ann[/b]",
    "**Bob**",
    "Cy|d_e",
    "<script>x</script>",
    "Eve",
];

fn handle(id: EntrantId) -> String {
    HANDLES[(id.0 - 1) as usize].to_owned()
}

fn id(n: u64) -> EntrantId {
    EntrantId(n)
}

fn game(a: u64, b: u64, result: DuelResult) -> DuelGame {
    DuelGame {
        players: [id(a), id(b)],
        result: Some(result),
    }
}

fn swiss_rows() -> Vec<StandingRow> {
    let mut entrants: Vec<Entrant> = (1..=5).map(|n| Entrant::new(id(n), n as u32)).collect();
    entrants[4].first_round = 2;
    let rounds = vec![
        DuelRound {
            games: vec![
                game(1, 2, DuelResult::Won { winner: id(1) }),
                game(3, 4, DuelResult::Drawn),
            ],
            byes: vec![],
        },
        DuelRound {
            games: vec![
                game(1, 3, DuelResult::Drawn),
                game(2, 5, DuelResult::Forfeited { winner: id(5) }),
            ],
            byes: vec![id(4)],
        },
    ];
    named(&swiss_standings(&entrants, &rounds).unwrap(), handle)
}

fn swiss_about() -> StandingsPost<'static> {
    StandingsPost {
        name: "Winter [Swiss]",
        format: Format::Swiss,
        round: 2,
        rounds_total: 5,
        finished: false,
        url: "http://herald.test/tournaments/winter)[x]",
    }
}

#[test]
fn the_swiss_standings_post_matches_its_golden_files() {
    let rows = swiss_rows();
    golden(
        "tournament-swiss.bbcode",
        &standings_bbcode(&swiss_about(), &rows),
    );
    golden(
        "tournament-swiss.md",
        &standings_markdown(&swiss_about(), &rows),
    );
}

#[test]
fn the_melee_standings_post_matches_its_golden_files() {
    let entrants: Vec<Entrant> = (1..=5).map(|n| Entrant::new(id(n), n as u32)).collect();
    let seat = |n, vp, won| MeleeSeat {
        entrant: id(n),
        vp,
        won,
    };
    let rounds = vec![MeleeRound {
        boards: vec![
            MeleeBoard {
                seats: vec![seat(1, 6, true), seat(2, 3, false), seat(3, 6, true)],
                finished: true,
            },
            MeleeBoard {
                seats: vec![seat(4, 2, false), seat(5, 9, true)],
                finished: true,
            },
        ],
        byes: vec![],
    }];
    let rows = named(&melee_standings(&entrants, &rounds).unwrap(), handle);
    let about = StandingsPost {
        name: "Crossing night",
        format: Format::Melee,
        round: 1,
        rounds_total: 1,
        finished: true,
        url: "http://herald.test/tournaments/night",
    };
    golden("tournament-melee.bbcode", &standings_bbcode(&about, &rows));
    golden("tournament-melee.md", &standings_markdown(&about, &rows));
}

#[test]
fn hostile_handles_stay_text_in_both_markups() {
    let rows = swiss_rows();
    let bb = standings_bbcode(&swiss_about(), &rows);
    let ours = [
        "[b]", "[/b]", "[u]", "[/u]", "[list]", "[/list]", "[*]", "[/url]",
    ];
    for (at, _) in bb.match_indices('[') {
        let tag = &bb[at..at + bb[at..].find(']').unwrap() + 1];
        assert!(
            ours.contains(&tag) || tag.starts_with("[url=http://herald.test/"),
            "unexpected tag {tag} in {bb}"
        );
    }
    assert!(bb.contains("[*][b]［b］Ann［/b］[/b]: Place 1 · Points 1.5"));
    let md = standings_markdown(&swiss_about(), &rows);
    let table: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(table.len(), 2 + HANDLES.len());
    for line in &table {
        assert_eq!(line.replace("\\|", "").matches('|').count(), 6, "{line}");
    }
    assert!(md.contains("| \\[b]Ann\\[/b] | 1 | 1.5 | 0.5 | 1 |"));
}

#[test]
fn the_heading_says_how_far_the_tournament_is() {
    let mut about = swiss_about();
    about.round = 0;
    assert_eq!(about.heading(), "Winter [Swiss]: entrants");
    about.round = 3;
    assert_eq!(
        about.heading(),
        "Winter [Swiss]: standings after round 3 of 5"
    );
    about.finished = true;
    assert_eq!(about.heading(), "Winter [Swiss]: final standings");
    let knockout = [StandingRow {
        rank: 1,
        handle: "Ann".into(),
        points: Points::whole(3),
        tiebreaks: Tiebreaks::Knockout {},
    }];
    about.format = Format::Knockout;
    let post = standings_post(&about, &knockout);
    assert!(matches!(&post.0[2], Block::Table { headings, rows, .. }
        if headings.len() == 3 && rows[0] == ["Ann", "1", "3"]));
}
