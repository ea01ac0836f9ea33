//! The served OpenAPI document, assembled once from its parts: the common part beside the
//! routes (`openapi.common.json`: every route, every game-agnostic schema, and the unions a
//! game joins, left empty) and each registered game's fragment beside its module
//! (`src/games/<game>/openapi.json`, [`GameUi::OPENAPI`]). A game brings its own schemas, its
//! member of each union (the create request, the join request, the prompt, the order, the
//! fallback order), its examples, its steps and the properties it adds to the public views;
//! its id goes into `GameId` and the create request's discriminator. So adding a game edits
//! neither the common part nor this file.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::games::{GameKind, GameUi, with_game};

/// The common part: everything but what the games bring.
const COMMON: &str = include_str!("openapi.common.json");

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
    for kind in GameKind::ALL {
        let (id, text) = with_game!(kind, G => (kind.id(), <G as GameUi>::OPENAPI));
        let fragment: Fragment =
            serde_json::from_str(text).map_err(|e| AssemblyError::Unreadable(id, e))?;
        merge(&mut doc, id, fragment).map_err(|what| AssemblyError::Conflict { game: id, what })?;
    }
    tournament_settings(&mut doc).map_err(|what| AssemblyError::Conflict {
        game: "tournaments",
        what,
    })?;
    Ok(doc)
}

/// A tournament's `settings` are those of a lobby of its game: `TournamentSettings` is any of
/// the games' settings, as their create requests name them.
fn tournament_settings(doc: &mut Value) -> Result<(), String> {
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
        let schemas = doc
            .pointer_mut("/components/schemas")
            .and_then(Value::as_object_mut)
            .ok_or("the common part has no components.schemas")?;
        push(
            schemas,
            "TournamentSettings",
            "anyOf",
            serde_json::json!({"$ref": settings}),
        )?;
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
            match target.get(&name) {
                // Two games may share a pool (`hp`): it must then be described alike.
                Some(existing) if *existing != property => {
                    return Err(format!("{schema}.{name} differs from another game's"));
                }
                Some(_) => {}
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
