//! The event kinds are one enum (`herald::events::EventKind`): the page script listens to
//! exactly its kinds, and the OpenAPI document lists exactly its kinds wherever it names them
//! (the streams' `events` filters, their descriptions, the event schemas). The games are one
//! registration (`herald::games::GameKind`): the document's `GameId` lists exactly them.

use herald::events::EventKind;
use herald::games::GameKind;
use serde_json::Value;

fn kinds() -> Vec<&'static str> {
    EventKind::ALL.iter().map(|k| k.as_str()).collect()
}

fn document() -> Value {
    herald::http::api::openapi::DOCUMENT.clone()
}

#[test]
fn the_page_script_listens_to_every_kind_and_to_no_other() {
    let script = include_str!("../../static/herald.js");
    // The list is the array literal whose items are handed to `addEventListener`.
    let end = script
        .find("].forEach(function (kind)")
        .expect("herald.js subscribes to a list of kinds");
    let start = script[..end].rfind('[').expect("the list opens with [");
    let listed: Vec<&str> = script[start + 1..end]
        .split(',')
        .map(|item| item.trim().trim_matches('"'))
        .collect();
    assert_eq!(listed, kinds());
}

/// The alternatives of `^(a|b)(,(a|b))*$`.
fn pattern_kinds(pattern: &str) -> Vec<String> {
    let inner = pattern
        .strip_prefix("^(")
        .and_then(|p| p.split_once(")(,("))
        .map(|(first, _)| first)
        .expect("the filter's pattern is ^(kinds)(,(kinds))*$");
    let repeated = format!("^({inner})(,({inner}))*$");
    assert_eq!(pattern, repeated, "both halves list the same kinds");
    inner.split('|').map(str::to_owned).collect()
}

#[test]
fn the_documents_stream_filters_list_exactly_the_kinds() {
    let doc = document();
    for (path, extra) in [
        ("/api/v1/lobbies/{id}/events", None),
        ("/api/v1/lobbies/{id}/me/events", Some("prompt")),
    ] {
        let parameters = doc["paths"][path]["get"]["parameters"]
            .as_array()
            .expect("the stream has parameters");
        let events = parameters
            .iter()
            .find(|p| p["name"] == "events")
            .expect("the stream takes an events filter");
        let mut expected: Vec<String> = kinds().into_iter().map(str::to_owned).collect();
        expected.extend(extra.map(str::to_owned));
        let pattern = events["schema"]["pattern"].as_str().unwrap();
        assert_eq!(pattern_kinds(pattern), expected, "{path} pattern");
        let description = events["description"].as_str().unwrap();
        let listed = description
            .split_once("each one of ")
            .and_then(|(_, rest)| rest.split_once(';'))
            .map(|(list, _)| list)
            .expect("the description lists the kinds");
        assert_eq!(listed, expected.join(", "), "{path} description");
    }
}

#[test]
fn the_documents_event_schemas_are_exactly_the_kinds() {
    let doc = document();
    let schemas = &doc["components"]["schemas"];
    let consts: Vec<&str> = schemas["LobbyEvent"]["oneOf"]
        .as_array()
        .expect("LobbyEvent is one of the events")
        .iter()
        .map(|alternative| {
            let name = alternative["$ref"]
                .as_str()
                .and_then(|r| r.strip_prefix("#/components/schemas/"))
                .expect("each alternative is a schema of its own");
            schemas[name]["properties"]["event"]["const"]
                .as_str()
                .expect("each event schema names its kind")
        })
        .collect();
    assert_eq!(consts, kinds());
}

#[test]
fn the_documents_game_ids_are_exactly_the_registered_games() {
    let doc = document();
    let ids: Vec<&str> = doc["components"]["schemas"]["GameId"]["enum"]
        .as_array()
        .expect("GameId is an enum")
        .iter()
        .map(|id| id.as_str().unwrap())
        .collect();
    let registered: Vec<&str> = GameKind::ALL.iter().map(|g| g.id()).collect();
    assert_eq!(ids, registered);
}
