//! How a ladder round pairs one game's entered bots (docs/bots.md, "How the ladder pairs"):
//! the highest-rated bot with room first, against the bot with room whose rating is closest
//! (never itself, never a bot of the same owner), then the next, each bot once per game in a
//! round and never beyond its room. Pure: the ratings and the room are read before.

use std::collections::BTreeMap;

use uuid::Uuid;

/// Who owns a bot: a person's profile, or the server (the boss bots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    Profile(Uuid),
    Server,
}

/// A bot that may be paired in one game's ladder.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub profile: Uuid,
    pub owner: Owner,
    /// Its leaderboard score in the pool `{game}/bots` (the pool's start rating if unrated).
    pub score: f64,
}

/// Pairs `candidates` for one game: each pair in seat order, the higher-rated first unless
/// `swap`. `room` is each bot's games left under the limit, in every game: it is spent here,
/// so that the next game's pairing sees what this one left.
pub fn pair(
    candidates: &[Candidate],
    room: &mut BTreeMap<Uuid, u32>,
    swap: bool,
) -> Vec<[Uuid; 2]> {
    let mut order: Vec<&Candidate> = candidates.iter().collect();
    order.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.profile.cmp(&b.profile)));
    let has_room =
        |room: &BTreeMap<Uuid, u32>, c: &Candidate| room.get(&c.profile).is_some_and(|r| *r > 0);
    let mut paired: Vec<Uuid> = Vec::new();
    let mut games = Vec::new();
    for first in &order {
        if paired.contains(&first.profile) || !has_room(room, first) {
            continue;
        }
        let opponent = order
            .iter()
            .filter(|other| {
                other.profile != first.profile
                    && other.owner != first.owner
                    && !paired.contains(&other.profile)
                    && has_room(room, other)
            })
            .min_by(|a, b| {
                let (da, db) = ((a.score - first.score).abs(), (b.score - first.score).abs());
                da.total_cmp(&db).then(a.profile.cmp(&b.profile))
            });
        let Some(second) = opponent else {
            continue;
        };
        for profile in [first.profile, second.profile] {
            paired.push(profile);
            if let Some(left) = room.get_mut(&profile) {
                *left -= 1;
            }
        }
        games.push(match swap {
            false => [first.profile, second.profile],
            true => [second.profile, first.profile],
        });
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot(n: u128, owner: Owner, score: f64) -> Candidate {
        Candidate {
            profile: Uuid::from_u128(n),
            owner,
            score,
        }
    }

    fn room_of(candidates: &[Candidate], room: u32) -> BTreeMap<Uuid, u32> {
        candidates.iter().map(|c| (c.profile, room)).collect()
    }

    #[test]
    fn close_ratings_meet_and_two_bots_of_one_owner_never_do() {
        let (ann, bob) = (
            Owner::Profile(Uuid::from_u128(100)),
            Owner::Profile(Uuid::from_u128(200)),
        );
        // 1 and 2 are Ann's: 1 would meet 2 on rating alone, so it meets 3, and 2 meets 4.
        let bots = [
            bot(1, ann, 1800.0),
            bot(2, ann, 1790.0),
            bot(3, bob, 1500.0),
            bot(4, Owner::Server, 1400.0),
        ];
        let games = pair(&bots, &mut room_of(&bots, 2), false);
        let ids = |a: u128, b: u128| [Uuid::from_u128(a), Uuid::from_u128(b)];
        assert_eq!(games, vec![ids(1, 3), ids(2, 4)]);
        assert_eq!(
            pair(&bots, &mut room_of(&bots, 2), true),
            vec![ids(3, 1), ids(4, 2)]
        );
    }

    #[test]
    fn the_bosses_never_meet_and_no_bot_meets_itself() {
        let bots = [bot(1, Owner::Server, 1500.0), bot(2, Owner::Server, 1500.0)];
        assert!(pair(&bots, &mut room_of(&bots, 2), false).is_empty());
        let one = [bot(1, Owner::Profile(Uuid::from_u128(9)), 1500.0)];
        assert!(pair(&one, &mut room_of(&one, 2), false).is_empty());
    }

    #[test]
    fn a_bot_without_room_waits_and_the_room_is_spent() {
        let owner = |n| Owner::Profile(Uuid::from_u128(n));
        let bots = [
            bot(1, owner(10), 1500.0),
            bot(2, owner(20), 1500.0),
            bot(3, owner(30), 1400.0),
        ];
        let mut room = room_of(&bots, 1);
        room.insert(Uuid::from_u128(1), 0);
        let games = pair(&bots, &mut room, false);
        assert_eq!(games, vec![[Uuid::from_u128(2), Uuid::from_u128(3)]]);
        assert_eq!(room.values().copied().collect::<Vec<_>>(), vec![0, 0, 0]);
        // The next game's pairing finds nobody with room.
        assert!(pair(&bots, &mut room, false).is_empty());
    }
}
