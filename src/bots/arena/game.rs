//! One arena game, in the process: the pure rules adjudicate, each seat's bot answers the `me`
//! view's prompt over its lines (or a built-in strategy answers it), and every step is
//! published as the host publishes it: each sent order sealed with a nonce and committed to,
//! the reveal, the log with the host's lines for the seats that sent nothing, the pools, the
//! chain of digests from the seed's commitment, and the acts that replay it. The steps
//! themselves come from the verifier's own replay (`fairness::replay`), fed the acts as they
//! happen, so the archive is one `herald verify` re-adjudicates.
//!
//! A bot that is silent past the move timeout, whose line is not an order, whose order the
//! rules refuse, or that has exited plays the rules' default for that step, as a seat whose
//! deadline passed does on a server; a bot that has exited is not asked again.

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::process::{BotProcess, Reply};
use super::protocol::{Answer, MeLine, PlayerLine, ToBot, prompt_value, read_answer};
use crate::bots::policy;
use crate::bots::seating::{self, SeatResult};
use crate::fairness::act::{Act, SeatOrder};
use crate::fairness::archive::{Archive, ArchivedEntrant, ArchivedLobby, ArchivedStep};
use crate::fairness::publish::rng_for;
use crate::fairness::replay::{Expected, Replay};
use crate::fairness::{
    FORMAT, StepContent, fresh_secret, order_commitment, seed_commitment, step_digest,
};
use crate::games::{GameUi, Strategy};
use crate::rules::{Game, GameRng, PlayerId, ROUND_LIMIT, Seat};

/// The stream the rules' defaults are drawn from (the rules' own streams count up from 0).
const DEFAULTS: u64 = u64::MAX;
/// More steps than any game takes before its round limit.
const STEP_LIMIT: usize = ROUND_LIMIT as usize * 64;

/// What plays a seat.
pub enum Player {
    Builtin {
        strategy: Strategy,
        rng: Box<GameRng>,
    },
    /// A program; None once it has exited (or could not start).
    Program(Option<BotProcess>),
}

/// What went wrong with a seat's answers over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Prompts left unanswered past the move timeout.
    pub timeouts: u32,
    /// Lines that were not an order for the prompt, and orders the rules refused.
    pub invalid: u32,
    /// The program exited (or never started) before the game was over.
    pub crashed: bool,
}

/// A seat: its bot's name (the player's name in the game), what plays it, and its faults.
pub struct Seated {
    pub name: String,
    pub player: Player,
    pub faults: Faults,
}

impl Seated {
    pub fn builtin(name: String, strategy: Strategy, seed: u64, seat: usize) -> Seated {
        Seated {
            name,
            player: Player::Builtin {
                strategy,
                rng: Box::new(rng_for(seed, DEFAULTS - 1 - seat as u64)),
            },
            faults: Faults::default(),
        }
    }

    pub fn program(name: String, process: Option<BotProcess>) -> Seated {
        let crashed = process.is_none();
        Seated {
            name,
            player: Player::Program(process),
            faults: Faults {
                crashed,
                ..Faults::default()
            },
        }
    }
}

/// A game to play.
pub struct Setup<'a, G: Game> {
    pub settings: &'a G::Settings,
    pub joins: Vec<G::Join>,
    pub seed: u64,
    pub lobby: ArchivedLobby,
    pub move_timeout: Duration,
}

/// A played game: its archive and each seat's result.
pub struct Played {
    pub archive: Archive,
    pub results: Vec<SeatResult>,
}

fn text<T: serde::Serialize>(value: &T) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|e| format!("serialize: {e}"))
}

/// A sent order with its nonce and commitment.
struct Sent<O> {
    order: O,
    nonce: String,
    commitment: String,
}

/// An owed seat's answer for the step: its sent order, or none, and whether it was silent
/// past the move timeout.
struct Asked<O> {
    seat: Seat,
    sent: Option<Sent<O>>,
    silent: bool,
}

/// Plays the game to its end.
pub fn play<G: GameUi>(setup: Setup<'_, G>, seats: &mut [Seated]) -> Result<Played, String> {
    let salt = fresh_secret();
    let ids: Vec<Uuid> = seats.iter().map(|_| Uuid::new_v4()).collect();
    let mut entrants = Vec::with_capacity(seats.len());
    for ((seat, id), join) in seats.iter().zip(&ids).zip(&setup.joins) {
        entrants.push(ArchivedEntrant {
            id: *id,
            name: seat.name.clone(),
            real_name: None,
            join: text(join)?,
        });
    }
    let commitment = seed_commitment(setup.seed, &salt);
    let mut archive = Archive {
        format: FORMAT.to_owned(),
        game: G::ID.to_owned(),
        lobby: setup.lobby.clone(),
        status: "running".to_owned(),
        settings: text(&G::public_settings(setup.settings, true))?,
        entrants,
        seed_commitment: Some(commitment.clone()),
        seed: Some(setup.seed.to_string()),
        seed_salt: Some(salt),
        steps: Vec::new(),
        messages: Vec::new(),
    };
    let mut replay = Replay::<G>::start(&archive, setup.seed)?;
    let mut defaults = rng_for(setup.seed, DEFAULTS);
    let mut head = commitment;
    loop {
        let state = replay.state();
        let owed = G::owes(state);
        if owed.is_empty() && !G::unasked(state) {
            break;
        }
        if archive.steps.len() > STEP_LIMIT {
            return Err("the game did not end".into());
        }
        let answers = ask::<G>(state, &owed, seats, (&archive, &ids), setup.move_timeout)?;
        let timed_out = answers.iter().any(|a| a.silent);
        let mut orders: Vec<(Seat, G::Order)> = Vec::with_capacity(owed.len());
        let mut sealed: Vec<(usize, String, String)> = Vec::new();
        let mut filled: Vec<(usize, String)> = Vec::new();
        for Asked {
            seat: Seat(seat),
            sent,
            ..
        } in answers
        {
            match sent {
                Some(sent) => {
                    sealed.push((seat, sent.nonce, sent.commitment));
                    orders.push((Seat(seat), sent.order));
                }
                None => {
                    let order = G::default_order(state, Seat(seat), &mut defaults);
                    filled.push((seat, G::describe_order(state, order.as_ref())));
                    if let Some(order) = order {
                        orders.push((Seat(seat), order));
                    }
                }
            }
        }
        let mut act_orders = Vec::with_capacity(orders.len());
        for (Seat(seat), order) in &orders {
            act_orders.push(SeatOrder {
                seat: *seat,
                order: text(order)?,
            });
        }
        let act = Act::Resolve { orders: act_orders };
        let published = replay.apply(&act)?;
        for (i, expected) in published.into_iter().enumerate() {
            let (acts, host) = match i {
                0 => (vec![act.clone()], host_lines(&archive, timed_out, &filled)),
                _ => (Vec::new(), Vec::new()),
            };
            let revealed = match i {
                0 => reveal(&archive, &expected, &sealed, &filled),
                _ => Value::Array(Vec::new()),
            };
            let mut log = host;
            log.extend(expected.log);
            let log = Value::Array(log);
            let digest = step_digest(
                &head,
                StepContent {
                    round: expected.round,
                    step: &expected.step,
                    revealed: &revealed,
                    log: &log,
                    pools: &expected.pools,
                },
            );
            archive.steps.push(ArchivedStep {
                round: expected.round,
                step: expected.step,
                acts: Some(acts),
                revealed,
                log,
                pools: expected.pools,
                previous_digest: std::mem::replace(&mut head, digest.clone()),
                digest,
            });
        }
    }
    let state = replay.state();
    let players: Vec<PlayerId> = ids.iter().map(|id| PlayerId(*id)).collect();
    let results = seating::results::<G>(state, &players).ok_or("the game has no outcome")?;
    let result = text(&G::outcome(state))?;
    archive.status = "finished".to_owned();
    for seat in seats.iter_mut() {
        if let Player::Program(process) = &mut seat.player
            && let Some(mut process) = process.take()
        {
            let lobby = archive.lobby.id;
            process.send(
                ToBot::Finished {
                    lobby,
                    result: &result,
                }
                .line(),
            );
            process.finish();
        }
    }
    Ok(Played { archive, results })
}

/// Asks every owed seat (the programs all at once, so that they think side by side) and
/// collects the answers in seat order: the sealed order, or none, and whether it timed out.
fn ask<G: GameUi>(
    state: &G::State,
    owed: &[Seat],
    seats: &mut [Seated],
    (archive, ids): (&Archive, &[Uuid]),
    timeout: Duration,
) -> Result<Vec<Asked<G::Order>>, String> {
    let (round, step) = (G::round(state), G::step(state));
    let lobby = archive.lobby.id;
    let mut lines = Vec::with_capacity(owed.len());
    for &Seat(seat) in owed {
        let Some(body) = G::prompt(state, Seat(seat)) else {
            lines.push(None);
            continue;
        };
        let private = match text(&G::private(state, Seat(seat)))? {
            Value::Object(fields) => fields,
            _ => Map::new(),
        };
        let me = MeLine {
            lobby,
            game: G::ID,
            player: PlayerLine {
                id: ids[seat],
                name: &seats[seat].name,
                seat,
            },
            status: "running",
            round,
            step,
            prompt: prompt_value(G::ID, round, step, text(&body)?),
            pending: None,
            deadline_at: None,
            paused: false,
            fallback: None,
            private,
        };
        lines.push(Some(ToBot::Prompt(me).line()));
    }
    let sent_at = Instant::now();
    for (&Seat(seat), line) in owed.iter().zip(&lines) {
        if let (Player::Program(Some(process)), Some(line)) = (&mut seats[seat].player, line) {
            process.send(line.clone());
        }
    }
    let mut answers = Vec::with_capacity(owed.len());
    for (&Seat(seat), line) in owed.iter().zip(lines) {
        let Some(line) = line else {
            answers.push(Asked {
                seat: Seat(seat),
                sent: None,
                silent: false,
            });
            continue;
        };
        let seated = &mut seats[seat];
        let (body, silent) = answer_of(seated, &line, (round, step), sent_at + timeout);
        let sent = match body {
            None => None,
            Some(body) => match judge::<G>(state, Seat(seat), body) {
                Ok(order) => {
                    let nonce = fresh_secret();
                    let commitment =
                        order_commitment(&text(&order)?, round, step, ids[seat], &nonce);
                    Some(Sent {
                        order,
                        nonce,
                        commitment,
                    })
                }
                Err((code, message)) => {
                    seated.faults.invalid += 1;
                    if let Player::Program(Some(process)) = &mut seated.player {
                        let refused = ToBot::Refused {
                            lobby,
                            round,
                            step,
                            code,
                            message,
                        };
                        process.send(refused.line());
                    }
                    None
                }
            },
        };
        answers.push(Asked {
            seat: Seat(seat),
            sent,
            silent,
        });
    }
    Ok(answers)
}

/// The rules' judgement of an order body, or the refusal's code and words.
fn judge<G: Game>(
    state: &G::State,
    seat: Seat,
    body: Value,
) -> Result<G::Order, (&'static str, String)> {
    let body: G::OrderBody =
        serde_json::from_value(body).map_err(|e| ("malformed-order", e.to_string()))?;
    G::check_order(state, seat, body).map_err(|r| (crate::rules::Refusal::code(&r), r.to_string()))
}

/// A seat's answer to the prompt `line` (its order body, or none) and whether it was silent
/// until `deadline`.
fn answer_of(
    seated: &mut Seated,
    line: &str,
    (round, step): (u32, &str),
    deadline: Instant,
) -> (Option<Value>, bool) {
    match &mut seated.player {
        Player::Builtin { strategy, rng } => {
            let order = policy::answer_json(line, *strategy, rng.as_mut());
            match order.map(|o| read_answer(&o.to_string(), round, step)) {
                Some(Answer::Order(body)) => (Some(body), false),
                _ => {
                    seated.faults.invalid += 1;
                    (None, false)
                }
            }
        }
        Player::Program(None) => (None, false),
        Player::Program(Some(process)) => loop {
            match process.receive(deadline) {
                Reply::Line(reply) => match read_answer(&reply, round, step) {
                    Answer::Order(body) => return (Some(body), false),
                    Answer::Stale => continue,
                    Answer::Garbage(why) => {
                        tracing::debug!(bot = %seated.name, %why, "not an order");
                        seated.faults.invalid += 1;
                        return (None, false);
                    }
                },
                Reply::Silent => {
                    seated.faults.timeouts += 1;
                    return (None, true);
                }
                Reply::Gone => {
                    seated.faults.crashed = true;
                    seated.player = Player::Program(None);
                    return (None, false);
                }
            }
        },
    }
}

/// The host's lines at the head of a step's log: the deadline, when a seat was silent past
/// it, and what each seat that sent no order played instead (as `host::resolve` writes them).
fn host_lines(archive: &Archive, timed_out: bool, filled: &[(usize, String)]) -> Vec<Value> {
    let mut lines = Vec::new();
    if timed_out {
        lines.push(json!({
            "kind": "deadline-passed",
            "text": "The deadline passed before every order was in.",
        }));
    }
    for (seat, words) in filled {
        let who = &archive.entrants[*seat];
        lines.push(json!({
            "kind": "order-missing",
            "player": {"id": who.id, "name": who.name},
            "source": "default",
            "text": format!("{} sent no order: {words}", who.name),
        }));
    }
    lines
}

/// A step's reveal as the host writes it: each order with its source, a sent one with its
/// nonce and commitment, and a seat that played no order at all as `"order": null`.
fn reveal(
    archive: &Archive,
    expected: &Expected,
    sealed: &[(usize, String, String)],
    filled: &[(usize, String)],
) -> Value {
    let player = |seat: usize| {
        let who = &archive.entrants[seat];
        json!({"id": who.id, "name": who.name})
    };
    let mut entries: Vec<(usize, Value)> = Vec::new();
    for (seat, order) in &expected.orders {
        let entry = match sealed.iter().find(|(s, _, _)| s == seat) {
            Some((_, nonce, commitment)) => json!({
                "commitment": commitment, "nonce": nonce, "order": order,
                "player": player(*seat), "source": "order",
            }),
            None => json!({"order": order, "player": player(*seat), "source": "default"}),
        };
        entries.push((*seat, entry));
    }
    for (seat, _) in filled {
        if !expected.orders.iter().any(|(s, _)| s == seat) {
            entries.push((
                *seat,
                json!({"order": null, "player": player(*seat), "source": "default"}),
            ));
        }
    }
    entries.sort_by_key(|(seat, _)| *seat);
    Value::Array(entries.into_iter().map(|(_, e)| e).collect())
}
