//! The Contests forms, from its typed prompt: the join form's build (a few ready builds of
//! §2.1; any other build is sent through the API), and a form for each of the seven steps
//! of §3.7. Numbers, flags and window actions are sent as the JSON the order holds
//! ([`Field::json`]); the contest and tie-break an answer is for ride along as hidden
//! fields, so that a form left open from an earlier contest is refused, not replayed.

use serde_json::{Value, json};

use crate::games::form::{Choice, Effect, Field, OrderForm, words};
use crate::rules::Game;
use crate::rules::contests::prompts::DeclareOptions;
use crate::rules::contests::{Action, Card, Contests, Phase, Prompt, Spell};

/// The ready builds the join form offers (§2.1: 12 points, 1-6 each, up to 3 abilities, no
/// more in an attribute than its rating; Art of Killing needs Skill 3). The first is the
/// default build of §2.7.
pub const BUILDS: &[(&str, &str, [u32; 3], &[&str])] = &[
    (
        "default",
        "All-rounder (the default build)",
        [4, 4, 4],
        &["tough-as-nails", "crippling-shot", "tricky-teleport"],
    ),
    (
        "brute",
        "Brute",
        [6, 3, 3],
        &["berserk", "crush-to-mush", "art-of-killing"],
    ),
    (
        "archer",
        "Archer",
        [3, 6, 3],
        &["crippling-shot", "rapid-shot", "lucky-punk"],
    ),
    (
        "mage",
        "Mage",
        [3, 3, 6],
        &["tricky-teleport", "cool", "really-hot"],
    ),
    (
        "rogue",
        "Rogue",
        [3, 5, 4],
        &["backstab", "run-like-hell", "point-blank-shot"],
    ),
    (
        "tank",
        "Tank",
        [5, 4, 3],
        &["tough-as-nails", "iron-jaw", "just-plain-big"],
    ),
];

/// A ready build as the join request's `build`.
pub fn build_json(ratings: [u32; 3], abilities: &[&str]) -> Value {
    json!({"might": ratings[0], "skill": ratings[1], "mind": ratings[2], "abilities": abilities})
}

/// The join form: one of the ready builds.
pub fn join_fields() -> Vec<Field> {
    let choices = BUILDS
        .iter()
        .enumerate()
        .map(|(i, (_, name, [might, skill, mind], abilities))| {
            let names: Vec<String> = abilities.iter().map(|a| words(a)).collect();
            let label = format!(
                "{name}: Might {might}, Skill {skill}, Mind {mind}; {}",
                names.join(", ")
            );
            let value = build_json([*might, *skill, *mind], abilities).to_string();
            Choice::new(&value, label, i == 0)
        })
        .collect();
    let mut field = Field::select("build", "Your combatant's build", choices, true);
    field.json = true;
    vec![field]
}

/// The form for `prompt` at `step` of `round`.
pub fn form(
    round: crate::games::telling::RoundOf,
    step: &str,
    prompt: &Prompt,
    pending: Option<&Value>,
) -> OrderForm {
    let sent = |key: &str| pending.and_then(|p| p.get(key)).cloned();
    let (heading, help, fields, decline) = match prompt {
        Prompt::Window {
            after,
            wishes,
            actions,
            hand,
            default_wish,
            can_decline,
        } => {
            let mut fields = Vec::new();
            if !wishes.is_empty() {
                let chosen = sent("wish")
                    .and_then(|w| w.as_str().map(str::to_owned))
                    .or(default_wish.map(|w| w.id().to_owned()));
                let choices = wishes
                    .iter()
                    .map(|w| {
                        let value = Value::from(w.id()).to_string();
                        Choice::new(&value, words(w.id()), chosen.as_deref() == Some(w.id()))
                    })
                    .collect();
                fields.push(json_field(Field::select(
                    "wish",
                    "Your wish",
                    choices,
                    true,
                )));
            }
            if !actions.is_empty() {
                fields.push(action_field(actions, hand, sent("action").as_ref()));
            }
            let (heading, help) = match after {
                None => (
                    "Before the first phase".to_owned(),
                    "You may open the duel with one window action, or decline (W0). The \
                     combat then starts with a Magic phase unless an action moves it (W5-W9)."
                        .to_owned(),
                ),
                Some(phase) => (
                    format!("After the {} phase of {round}", phase.id()),
                    format!(
                        "Wish to stay in {phase} or move on, and play at most one window \
                         action (W0). The natural next phase follows the wishes (W5)."
                    ),
                ),
            };
            (heading, help, fields, *can_decline)
        }
        Prompt::Declare {
            phase,
            options,
            energy,
            ..
        } => (
            format!("The {} phase begins", phase.id()),
            format!(
                "Declare what you use this phase (P1); you have {energy} energy. Costs are \
                 paid together (P2). Declining takes the defaults."
            ),
            declare_fields(options, pending),
            true,
        ),
        Prompt::Dice {
            contest,
            tie,
            what,
            challenger,
            guesses,
            hand,
        } => {
            let side = if *challenger {
                "challenger"
            } else {
                "defender"
            };
            let mut fields = vec![
                hidden("contest", Value::from(*contest)),
                die_field(sent("die").as_ref()),
            ];
            if *guesses > 0 {
                fields.push(guesses_field(*guesses, sent("guesses").as_ref()));
            }
            let heading = match tie {
                Some(t) => {
                    fields.insert(1, hidden("tie", Value::from(*t)));
                    format!("Contest {contest} ({}): tie-break {t}", words(what))
                }
                None => format!("Contest {contest}: {}", words(what)),
            };
            if let Some(hand) = hand {
                fields.push(down_field(hand, sent("down").as_ref()));
                fields.push(face_up_field(sent("face_up").as_ref()));
            }
            let help = match tie {
                Some(_) => format!(
                    "The totals are tied: set a new die and guesses, no cards (K6). You are \
                     the {side}; a die the opponent guesses counts 0."
                ),
                None => format!(
                    "You are the {side}. Set a concealed die; a die the opponent guesses \
                     counts 0 (K1, K2). You may lay one card face down, and ask for the \
                     face-up step to play more cards once the guesses are known (K3)."
                ),
            };
            (heading, help, fields, false)
        }
        Prompt::Cards {
            contest,
            hand,
            exactly,
            can_decline,
        } => {
            let picked = sent("cards");
            let mut cards = cards_field(hand, picked.as_ref());
            let (heading, help) = match exactly {
                Some(n) => {
                    cards.hint = format!("exactly {n}");
                    (
                        "A kick below the waist".to_owned(),
                        format!("Discard {n} cards of your hand (A5)."),
                    )
                }
                None => {
                    cards.hint = "any number".into();
                    (
                        format!("Contest {contest}: face-up cards"),
                        "Play any cards of your hand face up; they are revealed with the \
                         face-down cards (K3, K4). Declining plays none."
                            .to_owned(),
                    )
                }
            };
            let _ = step;
            (
                heading,
                help,
                vec![hidden("contest", Value::from(*contest)), cards],
                *can_decline,
            )
        }
    };
    OrderForm {
        heading,
        help,
        fields,
        decline,
        accept: false,
        accept_label: String::new(),
        buttons: Vec::new(),
    }
}

fn json_field(mut field: Field) -> Field {
    field.json = true;
    field
}

fn hidden(name: &str, value: Value) -> Field {
    Field::hidden(name, &value.to_string())
}

/// A window action as its order writes it (W0's table).
pub fn action_body(action: &Action) -> Value {
    match action {
        Action::Backstab { discard, phase } => {
            json!({"ability": "backstab", "discard": discard, "phase": phase})
        }
        Action::Shoelace { phase } => json!({"card": Card::YourShoelaceIsUntied, "phase": phase}),
        Action::TeleportToMagic => json!({"ability": "tricky-teleport", "to": "magic"}),
        Action::TeleportAway => json!({"ability": "tricky-teleport", "to": "escape"}),
        other => match (other.card(), other.ability()) {
            (Some(card), _) => json!({"card": card}),
            (None, Some(ability)) => json!({"ability": ability}),
            (None, None) => Value::Null,
        },
    }
}

/// Every concrete action the prompt's kinds stand for: a phase for Your Shoelace is untied,
/// and a card of the hand and a phase for Backstab!.
pub fn concrete_actions(actions: &[Action], hand: &[Card]) -> Vec<Action> {
    let mut out = Vec::new();
    for action in actions {
        match action {
            Action::Shoelace { .. } => {
                out.extend(Phase::ALL.iter().map(|&phase| Action::Shoelace { phase }))
            }
            Action::Backstab { .. } => {
                for &discard in hand {
                    out.extend(
                        Phase::ALL
                            .iter()
                            .map(|&phase| Action::Backstab { discard, phase }),
                    );
                }
            }
            other => out.push(other.clone()),
        }
    }
    out
}

fn action_field(actions: &[Action], hand: &[Card], sent: Option<&Value>) -> Field {
    let mut choices = vec![Choice::new("null", "No action".into(), sent.is_none())];
    for action in concrete_actions(actions, hand) {
        let body = action_body(&action);
        let selected = sent == Some(&body);
        let mut choice = Choice::new(&body.to_string(), action_words(&action), selected);
        choice.effect = Some(action_effect(&action));
        choices.push(choice);
    }
    json_field(Field::select("action", "Window action", choices, false))
}

fn action_words(action: &Action) -> String {
    match action {
        Action::Backstab { discard, phase } => format!(
            "Backstab! for {}, discarding {}",
            phase.id(),
            words(discard.id())
        ),
        Action::Shoelace { phase } => format!("Your Shoelace is untied: {}", phase.id()),
        Action::TeleportToMagic => "Tricky Teleport to Magic".into(),
        Action::TeleportAway => "Tricky Teleport away (escape)".into(),
        other => words(&other.words()),
    }
}

/// What an action does, in one line, linked to its row on the rules page.
fn action_effect(action: &Action) -> Effect {
    let (anchor, name, text) = match action {
        Action::Charge => ("charge", "Charge", "The combat starts with a Melee phase."),
        Action::CaughtWithPantsDown => (
            "caught-with-pants-down",
            "Caught with Pants Down",
            "A free Archery phase first, in which only you fire.",
        ),
        Action::Backstab { .. } => (
            "backstab",
            "Backstab!",
            "A Skill contest; won: the combat starts in the phase you name and your first attack deals double damage.",
        ),
        Action::Shoelace { .. } => (
            "your-shoelace-is-untied",
            "Your Shoelace is untied",
            "A Mind contest; won: the next phase is the one you name.",
        ),
        Action::NoWay => ("no-way", "No Way!", "Cancels the opponent's window card."),
        Action::RunLikeHell => (
            "run-like-hell",
            "Run like Hell",
            "A Skill contest; won: you escape; lost: 1 damage.",
        ),
        Action::DisArm => (
            "dis-arm",
            "Dis-arm",
            "If the next phase is Melee: a Might + Skill contest; won: the opponent's Might -3.",
        ),
        Action::PointBlankShot => (
            "point-blank-shot",
            "Point Blank Shot",
            "If the next phase is Melee, an Archery phase comes first; you make no blow in that Melee.",
        ),
        Action::NowYouSeeMe => (
            "now-you-see-me",
            "Now you see me",
            "A Skill contest; won: an Archery phase comes before the next phase.",
        ),
        Action::TeleportToMagic => (
            "tricky-teleport",
            "Tricky Teleport",
            "1 energy: the next phase is Magic.",
        ),
        Action::TeleportAway => (
            "tricky-teleport",
            "Tricky Teleport",
            "2 energy: you escape and the duel ends.",
        ),
    };
    Effect {
        name: name.to_owned(),
        text: text.to_owned(),
        href: format!("/rules/{}#{anchor}", Contests::ID),
    }
}

fn yes_no(name: &str, label: &str, sent: Option<&Value>) -> Field {
    let yes = sent == Some(&Value::Bool(true));
    json_field(Field::select(
        name,
        label,
        vec![
            Choice::new("false", "No".into(), !yes),
            Choice::new("true", "Yes".into(), yes),
        ],
        true,
    ))
}

fn declare_fields(options: &DeclareOptions, pending: Option<&Value>) -> Vec<Field> {
    let sent = |key: &str| pending.and_then(|p| p.get(key)).cloned();
    let mut fields = Vec::new();
    if !options.spells.is_empty() {
        let chosen = sent("spell").and_then(|s| s.as_str().map(str::to_owned));
        let choices = options
            .spells
            .iter()
            .map(|s| {
                let label = match s {
                    Spell::None => "No spell".to_owned(),
                    Spell::FireBolt => "Fire-bolt: 3 fire damage (1 energy)".to_owned(),
                    Spell::FrostBolt => "Frost-bolt: 2 cold damage, Skill -1 (1 energy)".to_owned(),
                    Spell::Mend => "Mend: heal 2 (1 energy)".to_owned(),
                };
                let selected = chosen.as_deref().map_or(*s == Spell::None, |c| c == s.id());
                Choice::new(&Value::from(s.id()).to_string(), label, selected)
            })
            .collect();
        fields.push(json_field(Field::select("spell", "Spell", choices, true)));
    }
    if options.rapid_shot {
        fields.push(yes_no(
            "rapid_shot",
            "Rapid Shot: two shots at Skill -3",
            sent("rapid_shot").as_ref(),
        ));
    }
    if options.lucky_punk {
        fields.push(yes_no(
            "lucky_punk",
            "Lucky Punk: your first shot hits (1 energy)",
            sent("lucky_punk").as_ref(),
        ));
    }
    if options.berserk {
        fields.push(yes_no(
            "berserk",
            "Berserk: pay 1 HP for Might +3 and +2 damage per blow",
            sent("berserk").as_ref(),
        ));
    }
    if let Some(max) = options.fury_max {
        let chosen = sent("fury").and_then(|v| v.as_u64()).unwrap_or(0);
        let choices = (0..=max)
            .map(|k| {
                Choice::new(
                    &k.to_string(),
                    format!("{k} energy: Might +{}", 2 * k),
                    u64::from(k) == chosen,
                )
            })
            .collect();
        fields.push(json_field(Field::select(
            "fury",
            "Gift of Fury",
            choices,
            true,
        )));
    }
    if options.art_of_killing {
        fields.push(yes_no(
            "art_of_killing",
            "Art of Killing: one more blow (1 energy)",
            sent("art_of_killing").as_ref(),
        ));
    }
    fields
}

fn die_field(sent: Option<&Value>) -> Field {
    let chosen = sent.and_then(Value::as_u64);
    let choices = (1..=6u64)
        .map(|n| Choice::new(&n.to_string(), n.to_string(), chosen == Some(n)))
        .collect();
    json_field(Field::select("die", "Your concealed die", choices, true))
}

fn guesses_field(allowed: u32, sent: Option<&Value>) -> Field {
    let sent: Vec<u64> = sent
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .collect();
    let choices = (1..=6u64)
        .map(|n| Choice::new(&n.to_string(), n.to_string(), sent.contains(&n)))
        .collect();
    let mut field = json_field(Field::select(
        "guesses",
        "Your guesses of the opponent's die",
        choices,
        false,
    ));
    field.multiple = true;
    field.hint = format!("up to {allowed}");
    field
}

fn down_field(hand: &[Card], sent: Option<&Value>) -> Field {
    let chosen = sent.and_then(Value::as_str);
    let mut choices = vec![Choice::new("null", "No card".into(), chosen.is_none())];
    choices.extend(hand.iter().map(|c| {
        Choice::new(
            &Value::from(c.id()).to_string(),
            words(c.id()),
            chosen == Some(c.id()),
        )
    }));
    json_field(Field::select("down", "A card face down", choices, true))
}

fn face_up_field(sent: Option<&Value>) -> Field {
    let no = sent == Some(&Value::Bool(false));
    json_field(Field::select(
        "face_up",
        "The face-up step",
        vec![
            Choice::new("true", "Yes: I may play cards face up".into(), !no),
            Choice::new("false", "No".into(), no),
        ],
        true,
    ))
}

fn cards_field(hand: &[Card], sent: Option<&Value>) -> Field {
    let sent: Vec<&str> = sent
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let choices = hand
        .iter()
        .map(|c| Choice::new(c.id(), words(c.id()), sent.contains(&c.id())))
        .collect();
    let mut field = Field::select("cards", "Cards", choices, false);
    field.multiple = true;
    field
}
