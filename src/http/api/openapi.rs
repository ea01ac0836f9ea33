//! The served OpenAPI document, assembled once from its parts: the common part beside the
//! routes (`openapi.common.json`: every route, every game-agnostic schema, and the unions a
//! game joins, left empty) and each registered game's fragment beside its module
//! (`src/games/<game>/openapi.json`, [`GameUi::OPENAPI`]). A game brings its own schemas, its
//! member of each union (the create request, the join request, the prompt, the order, the
//! fallback order), its examples, its steps and the properties it adds to the public views;
//! its id goes into `GameId` and the create request's discriminator, and its settings schema
//! into those a tournament or a challenge takes (any game's). What the host reads
//! beside a game's settings (`openapi.host.json`: the deadlines, the press, the gates,
//! `unlisted`, and the create request's `fork`) is written once and added to every game's
//! create request and settings schema, as the host takes those keys out of every lobby's
//! settings before the game reads the rest (`host/timing.rs`, `host/gates.rs`). So adding a
//! game edits neither the common part nor this file.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::games::{GameKind, GameUi, with_game};

/// The common part: everything but what the games bring.
const COMMON: &str = include_str!("openapi.common.json");

/// The host's part of every game's create request and settings.
const HOST: &str = include_str!("openapi.host.json");

/// What the host reads in every create request, whatever its game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HostPart {
    /// The settings keys the host takes (deadlines, press, gates, `unlisted`).
    settings: Map<String, Value>,
    /// The create request's own fields beside `game`, `name` and `settings` (`fork`).
    create: Map<String, Value>,
}

/// The unions each game joins with one member, in the order the document lists them.
const UNIONS: [&str; 5] = [
    "CreateLobbyRequest",
    "JoinRequest",
    "Prompt",
    "Order",
    "FallbackOrder",
];

/// One game's part of the document, as its `openapi.json` writes it.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Fragment {
    /// The game's schema for each union it joins (`"Order": "BstOrder"`).
    members: BTreeMap<String, String>,
    /// Examples the game adds to a union's `examples`.
    examples: BTreeMap<String, Vec<Value>>,
    /// The game's step names, added to the `Step` enum (a name another game already has is
    /// listed once).
    steps: Vec<String>,
    /// Properties the game adds to a common schema (`PublicPlayer`'s pools, `MeView`'s hand).
    properties: BTreeMap<String, Map<String, Value>>,
    /// The game's own schemas, added to `components.schemas`.
    schemas: Map<String, Value>,
}

/// Why the parts do not make one document: a fault in the repository's own files, which a
/// test finds before any server starts.
#[derive(Debug, thiserror::Error)]
pub enum AssemblyError {
    #[error("{0}: not JSON of the expected shape: {1}")]
    Unreadable(&'static str, serde_json::Error),
    #[error("{game}: {what}")]
    Conflict { game: &'static str, what: String },
}

/// The common part with every registered game's fragment merged in, in registration order.
pub fn assemble() -> Result<Value, AssemblyError> {
    let mut doc: Value =
        serde_json::from_str(COMMON).map_err(|e| AssemblyError::Unreadable("common", e))?;
    let host: HostPart =
        serde_json::from_str(HOST).map_err(|e| AssemblyError::Unreadable("host", e))?;
    for kind in GameKind::ALL {
        let (id, text) = with_game!(kind, G => (kind.id(), <G as GameUi>::OPENAPI));
        let mut fragment: Fragment =
            serde_json::from_str(text).map_err(|e| AssemblyError::Unreadable(id, e))?;
        let conflict = |what| AssemblyError::Conflict { game: id, what };
        with_host(&mut fragment, &host).map_err(conflict)?;
        merge(&mut doc, id, fragment).map_err(conflict)?;
    }
    any_games_settings(&mut doc).map_err(|what| AssemblyError::Conflict {
        game: "settings of any game",
        what,
    })?;
    Ok(doc)
}

/// Adds the host's part to the game's create request (its member of `CreateLobbyRequest`) and
/// to the settings schema that request names. A game that writes a host key itself is refused:
/// the host reads that key, not the game.
fn with_host(fragment: &mut Fragment, host: &HostPart) -> Result<(), String> {
    let create = fragment
        .members
        .get("CreateLobbyRequest")
        .ok_or("no member of CreateLobbyRequest")?
        .clone();
    let settings = fragment
        .schemas
        .get(&create)
        .and_then(|c| c.pointer("/properties/settings/$ref"))
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
        .ok_or(format!("{create} names no settings schema"))?
        .to_owned();
    for (schema, part) in [(create, &host.create), (settings, &host.settings)] {
        let properties = fragment
            .schemas
            .get_mut(&schema)
            .and_then(|s| s.get_mut("properties"))
            .and_then(Value::as_object_mut)
            .ok_or(format!("{schema} has no properties"))?;
        for (name, property) in part {
            if properties.insert(name.clone(), property.clone()).is_some() {
                return Err(format!("{schema}.{name} is the host's, not the game's"));
            }
        }
    }
    Ok(())
}

/// Where a request takes the settings of a lobby of whichever game it names: a tournament's
/// (`TournamentSettings`) and a challenge's (`ChallengeRequest.settings`). The common part
/// leaves both lists without the games; each game's settings schema, as its create request
/// names it, is added here, so that a game is listed by its registration alone.
const ANY_GAMES_SETTINGS: [&str; 2] = [
    "/components/schemas/TournamentSettings/anyOf",
    "/components/schemas/ChallengeRequest/properties/settings/anyOf",
];

/// Lists every game's settings schema in each of [`ANY_GAMES_SETTINGS`].
fn any_games_settings(doc: &mut Value) -> Result<(), String> {
    let members = doc
        .pointer("/components/schemas/CreateLobbyRequest/oneOf")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for member in members {
        let name = member["$ref"]
            .as_str()
            .and_then(|r| r.strip_prefix("#/components/schemas/"))
            .ok_or("a create request member that is no reference")?;
        let settings = doc
            .pointer(&format!(
                "/components/schemas/{name}/properties/settings/$ref"
            ))
            .cloned()
            .ok_or(format!("{name} has no settings schema"))?;
        for list in ANY_GAMES_SETTINGS {
            doc.pointer_mut(list)
                .and_then(Value::as_array_mut)
                .ok_or(format!("the common part has no list {list}"))?
                .push(serde_json::json!({"$ref": settings}));
        }
    }
    Ok(())
}

fn merge(doc: &mut Value, id: &str, fragment: Fragment) -> Result<(), String> {
    // A union the game does not join is reported after the rest, so that each fault of a
    // fragment is named by its own check.
    let mut missing = None;
    let schemas = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
        .ok_or("the common part has no components.schemas")?;
    for (name, schema) in fragment.schemas {
        if schemas.insert(name.clone(), schema).is_some() {
            return Err(format!("schema {name} is defined twice"));
        }
    }
    push(schemas, "GameId", "enum", Value::from(id))?;
    if let Some(union) = UNIONS.iter().find(|u| !fragment.members.contains_key(**u)) {
        missing = Some(*union);
    }
    for (union, member) in &fragment.members {
        if !UNIONS.contains(&union.as_str()) {
            return Err(format!("{union} is not a union a game joins"));
        }
        if !schemas.contains_key(member) {
            return Err(format!("{union}'s member {member} is not defined"));
        }
        let reference = Value::from(format!("#/components/schemas/{member}"));
        let list = match schemas[union.as_str()].get("oneOf") {
            Some(_) => "oneOf",
            None => "anyOf",
        };
        push(schemas, union, list, serde_json::json!({"$ref": reference}))?;
        if let Some(mapping) = schemas[union.as_str()]
            .pointer_mut("/discriminator/mapping")
            .and_then(Value::as_object_mut)
        {
            mapping.insert(id.to_owned(), reference);
        }
    }
    for (union, examples) in fragment.examples {
        for example in examples {
            push(schemas, &union, "examples", example)?;
        }
    }
    for step in fragment.steps {
        let known = schemas["Step"]["enum"]
            .as_array()
            .is_some_and(|steps| steps.iter().any(|s| s == step.as_str()));
        if !known {
            push(schemas, "Step", "enum", Value::from(step))?;
        }
    }
    for (schema, properties) in fragment.properties {
        let target = schemas
            .get_mut(&schema)
            .and_then(|s| s.get_mut("properties"))
            .and_then(Value::as_object_mut)
            .ok_or(format!("{schema} has no properties to add to"))?;
        for (name, property) in properties {
            match target.get_mut(&name) {
                // Two games may share a property (the `hp` pool, `MeView`'s `hand`): it must
                // then have the same schema; each game's words about it are kept, the
                // earlier game's first, so that no fragment speaks of another game.
                Some(existing) => share(existing, property)
                    .map_err(|()| format!("{schema}.{name} differs from another game's"))?,
                None => {
                    target.insert(name, property);
                }
            }
        }
    }
    match missing {
        Some(union) => Err(format!("no member of {union}")),
        None => Ok(()),
    }
}

/// Makes `existing` (a property another game added) describe `property` too: the same schema,
/// the descriptions joined when they differ.
fn share(existing: &mut Value, mut property: Value) -> Result<(), ()> {
    let described = |p: &mut Value| {
        p.as_object_mut()
            .and_then(|p| p.remove("description"))
            .and_then(|d| d.as_str().map(str::to_owned))
    };
    let theirs = described(existing);
    let ours = described(&mut property);
    if *existing != property {
        return Err(());
    }
    let joined = match (theirs, ours) {
        (Some(a), Some(b)) if a != b => Some(format!("{a} {b}")),
        (a, b) => a.or(b),
    };
    if let (Some(text), Some(object)) = (joined, existing.as_object_mut()) {
        object.insert("description".into(), Value::from(text));
    }
    Ok(())
}

/// Appends `item` to the array `key` of schema `name`, making the array if it is missing.
fn push(
    schemas: &mut Map<String, Value>,
    name: &str,
    key: &str,
    item: Value,
) -> Result<(), String> {
    let schema = schemas
        .get_mut(name)
        .and_then(Value::as_object_mut)
        .ok_or(format!("no schema {name}"))?;
    match schema
        .entry(key)
        .or_insert_with(|| Value::Array(Vec::new()))
    {
        Value::Array(items) => {
            items.push(item);
            Ok(())
        }
        _ => Err(format!("{name}.{key} is not a list")),
    }
}

/// The assembled document as served (`GET /api/v1/openapi.json`).
pub static DOCUMENT: LazyLock<Value> =
    LazyLock::new(|| assemble().expect("the OpenAPI parts assemble (a test checks them)"));

/// The assembled document's text, serialised once.
pub static TEXT: LazyLock<String> = LazyLock::new(|| DOCUMENT.to_string());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parts_assemble_and_every_game_joins_every_union() {
        let doc = assemble().unwrap();
        let schemas = &doc["components"]["schemas"];
        let ids: Vec<&str> = GameKind::ALL.iter().map(|k| k.id()).collect();
        assert_eq!(schemas["GameId"]["enum"], serde_json::json!(ids));
        for union in UNIONS {
            let list = schemas[union]
                .get("oneOf")
                .or(schemas[union].get("anyOf"))
                .and_then(Value::as_array)
                .unwrap();
            assert_eq!(list.len(), ids.len(), "{union}");
        }
        let mapping = schemas["CreateLobbyRequest"]["discriminator"]["mapping"]
            .as_object()
            .unwrap();
        assert_eq!(mapping.len(), ids.len());
        // A tournament's and a challenge's settings are any game's, each listed once.
        for list in ANY_GAMES_SETTINGS {
            let listed: Vec<&Value> = doc
                .pointer(list)
                .and_then(Value::as_array)
                .unwrap()
                .iter()
                .filter_map(|s| s.get("$ref"))
                .collect();
            assert_eq!(listed.len(), ids.len(), "{list}");
        }
        // The host's part, once in its file, is in every game's request and settings.
        let host: HostPart = serde_json::from_str(HOST).unwrap();
        for reference in mapping.values() {
            let create = doc.pointer(&reference.as_str().unwrap()[1..]).unwrap();
            let settings = create["properties"]["settings"]["$ref"].as_str().unwrap();
            let settings = doc.pointer(&settings[1..]).unwrap();
            for (part, schema) in [(&host.create, create), (&host.settings, settings)] {
                for (key, property) in part {
                    assert_eq!(&schema["properties"][key], property, "{reference}.{key}");
                }
            }
        }
    }

    #[test]
    fn a_game_that_writes_a_host_setting_itself_is_refused() {
        let host: HostPart = serde_json::from_str(HOST).unwrap();
        let mut fragment: Fragment =
            serde_json::from_str(<crate::rules::bst::Bst as GameUi>::OPENAPI).unwrap();
        fragment.schemas["BstSettings"]["properties"]["rated"] = Value::Bool(true);
        let err = with_host(&mut fragment, &host).unwrap_err();
        assert!(err.contains("BstSettings.rated"), "{err}");
    }

    #[test]
    fn a_schema_defined_twice_is_refused() {
        let mut doc: Value = serde_json::from_str(COMMON).unwrap();
        let twice = Fragment {
            schemas: Map::from_iter([("Error".to_owned(), Value::Bool(true))]),
            ..Fragment::default()
        };
        assert!(merge(&mut doc, "x", twice).unwrap_err().contains("twice"));
    }

    #[test]
    fn a_shared_property_keeps_each_games_words() {
        let mut existing = serde_json::json!({"type": "array", "description": "Yours: tokens."});
        let same = serde_json::json!({"type": "array", "description": "Yours: tokens."});
        share(&mut existing, same).unwrap();
        assert_eq!(existing["description"], "Yours: tokens.");
        let other = serde_json::json!({"type": "array", "description": "Or cards."});
        share(&mut existing, other).unwrap();
        assert_eq!(
            existing,
            serde_json::json!({"type": "array", "description": "Yours: tokens. Or cards."})
        );
    }

    #[test]
    fn a_shared_property_described_otherwise_is_refused() {
        let mut doc = assemble().unwrap();
        let other = serde_json::json!({"type": "string"});
        let fragment = Fragment {
            properties: BTreeMap::from([(
                "PublicPlayer".to_owned(),
                Map::from_iter([("hp".to_owned(), other)]),
            )]),
            ..Fragment::default()
        };
        let err = merge(&mut doc, "x", fragment).unwrap_err();
        assert!(err.contains("PublicPlayer.hp"), "{err}");
    }
}
