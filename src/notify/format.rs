//! A notice as each webhook format's body.
//!
//! Discord (its "Execute Webhook" body, <https://discord.com/developers/docs/resources/webhook>):
//! `content` of at most 2,000 characters and one embed within Discord's limits (title 256,
//! description 4,096, footer 2,048, all of an embed's text 6,000). Long text is cut to fit with an
//! ellipsis, never refused. `allowed_mentions` is empty, so a player named `@everyone` pings
//! nobody.
//!
//! Standard: `{"type", "timestamp", "data"}` as the Standard Webhooks specification suggests,
//! signed by the worker (`sign.rs`); `type` is `lobby.<event>` or `tournament.<event>`.

use serde::Serialize;
use serde_json::{Value, json};

use super::notice::{Notice, NoticeEvent};
use crate::store::Owner;

pub const DISCORD_CONTENT: usize = 2000;
pub const DISCORD_TITLE: usize = 256;
pub const DISCORD_DESCRIPTION: usize = 4096;
pub const DISCORD_FOOTER: usize = 2048;
pub const DISCORD_EMBED_TOTAL: usize = 6000;

/// `text` cut to at most `limit` characters (not bytes: Discord counts characters), ending in
/// an ellipsis when cut.
pub fn cut(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(limit.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The Discord body of a notice.
pub fn discord(notice: &Notice, at_rfc3339: &str) -> Value {
    let title = cut(&notice.title, DISCORD_TITLE);
    let footer = cut(&format!("Herald · {}", notice.name), DISCORD_FOOTER);
    // The embed's text all told stays within its total: the description gets what is left.
    let room = DISCORD_EMBED_TOTAL
        .saturating_sub(title.chars().count() + footer.chars().count())
        .min(DISCORD_DESCRIPTION);
    let description = cut(&notice.text, room);
    let mut embed = json!({
        "title": title,
        "description": description,
        "footer": {"text": footer},
        "timestamp": at_rfc3339,
    });
    if let Some(link) = &notice.link {
        embed["url"] = json!(link);
    }
    json!({
        "content": cut(&notice.title, DISCORD_CONTENT),
        "embeds": [embed],
        "allowed_mentions": {"parse": []},
    })
}

/// The Standard Webhooks body of a notice, as the bytes to sign and send. Written from
/// borrowed fields in one pass (building a `Value` tree first cost more than the signature);
/// the keys are in sorted order, as a `Value` object wrote them before.
pub fn standard(notice: &Notice, at_rfc3339: &str) -> Vec<u8> {
    #[derive(Serialize)]
    struct Body<'a> {
        data: Data<'a>,
        timestamp: &'a str,
        #[serde(rename = "type")]
        kind: String,
    }
    // A lobby's notice names its `lobby`, a tournament's its `tournament` (after `title`, so
    // that the keys stay sorted).
    #[derive(Serialize)]
    struct Data<'a> {
        event: &'a Option<NoticeEvent>,
        #[serde(skip_serializing_if = "Option::is_none")]
        lobby: Option<Subject<'a>>,
        summary: &'a str,
        title: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        tournament: Option<Subject<'a>>,
    }
    #[derive(Serialize)]
    struct Subject<'a> {
        id: uuid::Uuid,
        name: &'a str,
        url: Option<&'a str>,
    }
    let subject = Subject {
        id: notice.subject.id(),
        name: &notice.name,
        url: notice.link.as_deref(),
    };
    let (lobby, tournament, prefix) = match notice.subject {
        Owner::Lobby(_) => (Some(subject), None, "lobby"),
        Owner::Tournament(_) => (None, Some(subject), "tournament"),
    };
    let body = Body {
        data: Data {
            event: &notice.event,
            lobby,
            summary: &notice.text,
            title: &notice.title,
            tournament,
        },
        timestamp: at_rfc3339,
        kind: format!("{prefix}.{}", notice.kind),
    };
    // Serializing borrowed strings, a UUID and a raw value cannot fail.
    serde_json::to_vec(&body).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

    fn notice(title: &str, text: &str) -> Notice {
        Notice {
            kind: "round-resolved".into(),
            subject: Owner::Lobby(Uuid::nil()),
            name: "Lobby".into(),
            title: title.into(),
            text: text.into(),
            link: Some("https://herald.example/lobbies/x".into()),
            event: None,
        }
    }

    fn chars(value: &Value) -> usize {
        value.as_str().unwrap().chars().count()
    }

    #[test]
    fn long_text_is_cut_to_discords_limits_not_refused() {
        let body = discord(
            &notice(&"T".repeat(3000), &"é".repeat(10_000)),
            "2026-12-01T00:00:00Z",
        );
        assert_eq!(chars(&body["content"]), DISCORD_CONTENT);
        let embed = &body["embeds"][0];
        assert_eq!(chars(&embed["title"]), DISCORD_TITLE);
        assert!(chars(&embed["description"]) <= DISCORD_DESCRIPTION);
        let total =
            chars(&embed["title"]) + chars(&embed["description"]) + chars(&embed["footer"]["text"]);
        assert!(total <= DISCORD_EMBED_TOTAL, "{total}");
        assert!(embed["description"].as_str().unwrap().ends_with('…'));
        assert_eq!(body["allowed_mentions"]["parse"], json!([]));
    }

    #[test]
    fn short_text_is_left_whole() {
        let body = discord(
            &notice("Round 1 is out", "A hits B."),
            "2026-12-01T00:00:00Z",
        );
        assert_eq!(body["content"], "Round 1 is out");
        assert_eq!(body["embeds"][0]["description"], "A hits B.");
        assert_eq!(body["embeds"][0]["url"], "https://herald.example/lobbies/x");
    }

    #[test]
    fn the_standard_body_names_the_lobby_the_event_and_the_summary_in_sorted_keys() {
        let mut notice = notice("Round 1 is out", "A hits B.\n\"Quoted\"");
        notice.event = Some(NoticeEvent {
            seq: 7,
            data: serde_json::value::RawValue::from_string(r#"{"round":1}"#.into()).unwrap(),
        });
        let body = standard(&notice, "2026-12-01T00:00:00Z");
        let text = String::from_utf8(body).unwrap();
        assert_eq!(
            text,
            concat!(
                r#"{"data":{"event":{"data":{"round":1},"seq":7},"#,
                r#""lobby":{"id":"00000000-0000-0000-0000-000000000000","name":"Lobby","#,
                r#""url":"https://herald.example/lobbies/x"},"#,
                r#""summary":"A hits B.\n\"Quoted\"","title":"Round 1 is out"},"#,
                r#""timestamp":"2026-12-01T00:00:00Z","type":"lobby.round-resolved"}"#
            )
        );
        notice.event = None;
        let value: Value = serde_json::from_slice(&standard(&notice, "t")).unwrap();
        assert_eq!(value["data"]["event"], Value::Null);
    }
}
