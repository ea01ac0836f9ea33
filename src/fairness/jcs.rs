//! RFC 8785 (JCS) canonical JSON, written straight into a SHA-256 hasher.
//!
//! Every commitment and step digest hashes canonical JSON, and a step's digest covers its whole
//! reveal, log and pools: through `serde_json_canonicalizer` (which builds a UTF-16 copy of every
//! key and a buffer per value) plus the clone of those values into the hashed object, digesting
//! was about a fifth of the server's CPU per order under load. This writer streams the same bytes
//! into the hasher instead, and takes the hashed object's fields by reference.
//!
//! It writes what JCS prescribes: no white space; object members sorted by the UTF-16 code units
//! of their names; strings as ECMAScript's `JSON.stringify` escapes them (`\"`, `\\`, the short
//! forms `\b \f \n \r \t`, other control characters as `\u00xx` in lower case, everything else
//! as its UTF-8), which is serde_json's own escaping; integers a double holds exactly in
//! decimal. Any other number is left to `serde_json_canonicalizer`, whose ECMAScript number
//! formatting is the reference. The tests
//! compare both encoders on arbitrary values.
//!
//! A step's reveal, log and pools reach the digest as the text the host has just written for
//! the store. Parsing that text back into `Value`s (a map per object, a string per name) and
//! cloning the log's public entries cost the server more than the hashing itself, so stored
//! text is read into [`Node`]s instead: a tree that borrows its strings from the text and keeps
//! an object's members as a list, sorted only when written.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::io::{self, Write};

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::ser::{CompactFormatter, Formatter as _};
use serde_json::{Map, Number, Value};
use sha2::{Digest, Sha256};

mod typed;

pub use typed::{CanonicalList, to_canonical};

/// A field of an object to hash, borrowed from its owner.
#[derive(Clone, Copy, Debug)]
pub enum Field<'a> {
    Str(&'a str),
    Uint(u64),
    Json(&'a Value),
    Node(&'a Node<'a>),
    /// Text that is canonical JSON already ([`canonical`] wrote it): hashed as it is.
    Canonical(&'a str),
}

/// `value`'s canonical encoding as text. A step's reveal and pools are stored so, and their
/// digest hashes the stored text without reading it back.
pub fn canonical(value: &Value) -> String {
    let mut out = Vec::new();
    write_value(&mut out, value).expect("writing to a Vec never fails");
    String::from_utf8(out).expect("JSON text is UTF-8")
}

/// JSON read from text for hashing only: strings borrowed from the text where it holds them
/// unescaped, objects as member lists in the text's order. It encodes exactly as the `Value`
/// parsed from the same text does (the tests hold the two together), for text whose objects
/// have no repeated names, which is all text serde_json writes.
#[derive(Clone, Debug, PartialEq)]
pub enum Node<'a> {
    Null,
    Bool(bool),
    Number(Number),
    Str(Cow<'a, str>),
    Array(Vec<Node<'a>>),
    Object(Vec<(Cow<'a, str>, Node<'a>)>),
}

impl<'a> Node<'a> {
    /// Reads `text` as one JSON value.
    pub fn parse(text: &'a str) -> Result<Node<'a>, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The member named `name`, if this is an object that has one.
    pub fn get(&self, name: &str) -> Option<&Node<'a>> {
        match self {
            Node::Object(members) => members.iter().find(|(n, _)| n == name).map(|(_, v)| v),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Node<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Node<'de>, E> {
        Ok(Node::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Node<'de>, E> {
        Ok(Node::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Node<'de>, E> {
        Ok(Node::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Node<'de>, E> {
        Ok(Node::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node<'de>, E> {
        Number::from_f64(v)
            .map(Node::Number)
            .ok_or_else(|| E::custom("a number JSON cannot hold"))
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Node<'de>, E> {
        Ok(Node::Str(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Node<'de>, E> {
        Ok(Node::Str(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<Node<'de>, E> {
        Ok(Node::Str(Cow::Owned(v)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node<'de>, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(Name(name)) = map.next_key()? {
            members.push((name, map.next_value()?));
        }
        Ok(Node::Object(members))
    }
}

/// An object member's name, borrowed from the text when it holds it unescaped.
struct Name<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Name<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Node::deserialize(deserializer)? {
            Node::Str(name) => Ok(Name(name)),
            _ => Err(de::Error::custom("an object member's name is a string")),
        }
    }
}

/// SHA-256 of the canonical encoding of the object whose members are `fields` (names unique).
pub fn digest_fields(fields: &[(&str, Field<'_>)]) -> [u8; 32] {
    let mut sink = HashSink::new();
    write_fields(&mut sink, fields).expect("hashing never fails");
    sink.finish()
}

/// Feeds what is written to the hasher, through a buffer on the stack: the encoding comes in
/// pieces of a few bytes, each a call into the hasher, and an order's commitment is small
/// enough that a heap buffer cost more than the hashing.
struct HashSink {
    hasher: Sha256,
    buffer: [u8; 512],
    len: usize,
}

impl HashSink {
    fn new() -> HashSink {
        HashSink {
            hasher: Sha256::new(),
            buffer: [0; 512],
            len: 0,
        }
    }

    fn finish(mut self) -> [u8; 32] {
        self.hasher.update(&self.buffer[..self.len]);
        self.hasher.finalize().into()
    }
}

impl Write for HashSink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.len + bytes.len() > self.buffer.len() {
            self.hasher.update(&self.buffer[..self.len]);
            self.len = 0;
        }
        if bytes.len() >= self.buffer.len() {
            self.hasher.update(bytes);
        } else {
            self.buffer[self.len..self.len + bytes.len()].copy_from_slice(bytes);
            self.len += bytes.len();
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn write_fields(out: &mut impl Write, fields: &[(&str, Field<'_>)]) -> io::Result<()> {
    // Herald's callers list their fields sorted (an order's commitment is made for every
    // order): only a list that is not is copied and sorted.
    let in_order = fields
        .windows(2)
        .all(|pair| utf16_order(pair[0].0, pair[1].0) == Ordering::Less);
    if in_order {
        return write_field_list(out, fields.iter());
    }
    let mut sorted: Vec<&(&str, Field<'_>)> = fields.iter().collect();
    sorted.sort_unstable_by(|a, b| utf16_order(a.0, b.0));
    write_field_list(out, sorted.into_iter())
}

/// The object whose members are `fields`, in the order given.
fn write_field_list<'f, 'v: 'f>(
    out: &mut impl Write,
    fields: impl Iterator<Item = &'f (&'f str, Field<'v>)>,
) -> io::Result<()> {
    out.write_all(b"{")?;
    for (i, (name, field)) in fields.enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write_str(out, name)?;
        out.write_all(b":")?;
        match *field {
            Field::Str(text) => write_str(out, text)?,
            Field::Uint(n) => CompactFormatter.write_u64(out, n)?,
            Field::Json(value) => write_value(out, value)?,
            Field::Node(node) => write_node(out, node)?,
            Field::Canonical(text) => out.write_all(text.as_bytes())?,
        }
    }
    out.write_all(b"}")
}

fn write_node(out: &mut impl Write, node: &Node<'_>) -> io::Result<()> {
    match node {
        Node::Null => out.write_all(b"null"),
        Node::Bool(true) => out.write_all(b"true"),
        Node::Bool(false) => out.write_all(b"false"),
        Node::Number(n) => write_number(out, n),
        Node::Str(text) => write_str(out, text),
        Node::Array(items) => {
            out.write_all(b"[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                write_node(out, item)?;
            }
            out.write_all(b"]")
        }
        Node::Object(members) => {
            let mut sorted: Vec<&(Cow<'_, str>, Node<'_>)> = members.iter().collect();
            // Herald writes its structs' fields in declaration order, not sorted: sort always.
            sorted.sort_unstable_by(|a, b| utf16_order(&a.0, &b.0));
            out.write_all(b"{")?;
            for (i, (name, value)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                write_str(out, name)?;
                out.write_all(b":")?;
                write_node(out, value)?;
            }
            out.write_all(b"}")
        }
    }
}

fn write_value(out: &mut impl Write, value: &Value) -> io::Result<()> {
    match value {
        Value::Null => out.write_all(b"null"),
        Value::Bool(true) => out.write_all(b"true"),
        Value::Bool(false) => out.write_all(b"false"),
        Value::Number(n) => write_number(out, n),
        Value::String(text) => write_str(out, text),
        Value::Array(items) => {
            out.write_all(b"[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                write_value(out, item)?;
            }
            out.write_all(b"]")
        }
        Value::Object(members) => write_object(out, members),
    }
}

fn write_object(out: &mut impl Write, members: &Map<String, Value>) -> io::Result<()> {
    // A map usually iterates in code-point order already, which is UTF-16 order for every name
    // without characters beyond the Basic Multilingual Plane; sort only when it does not.
    let in_order = members
        .keys()
        .zip(members.keys().skip(1))
        .all(|(a, b)| utf16_order(a, b) == Ordering::Less);
    out.write_all(b"{")?;
    if in_order {
        write_members(out, members.iter())?;
    } else {
        let mut sorted: Vec<(&String, &Value)> = members.iter().collect();
        sorted.sort_unstable_by(|a, b| utf16_order(a.0, b.0));
        write_members(out, sorted.into_iter())?;
    }
    out.write_all(b"}")
}

fn write_members<'v>(
    out: &mut impl Write,
    members: impl Iterator<Item = (&'v String, &'v Value)>,
) -> io::Result<()> {
    for (i, (name, value)) in members.enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write_str(out, name)?;
        out.write_all(b":")?;
        write_value(out, value)?;
    }
    Ok(())
}

/// A string as JCS writes it: serde_json escapes exactly the characters ECMAScript's
/// `JSON.stringify` does, in the same forms. Most strings Herald hashes (ids, nonces, names,
/// log lines) need no escape at all and are written as they are.
fn write_str(out: &mut impl Write, text: &str) -> io::Result<()> {
    if !text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.write_all(b"\"")?;
        out.write_all(text.as_bytes())?;
        return out.write_all(b"\"");
    }
    serde_json::to_writer(out, text).map_err(io::Error::other)
}

fn write_number(out: &mut impl Write, n: &Number) -> io::Result<()> {
    // JCS numbers are IEEE doubles: an integer is written as itself only while a double holds
    // it exactly (up to 2^53); beyond, and for a fraction or an exponent (which Herald never
    // hashes, but a `Value` may hold), ECMAScript's formatting comes from the reference.
    // Integers go through serde_json's integer writer: `core::fmt` cost more than the rest of
    // a number's handling, and a step's log is mostly small integers.
    const EXACT: u64 = 1 << 53;
    match (n.as_i64(), n.as_u64()) {
        (Some(i), _) if i.unsigned_abs() <= EXACT => CompactFormatter.write_i64(out, i),
        (_, Some(u)) if u <= EXACT => CompactFormatter.write_u64(out, u),
        _ => {
            let text = serde_json_canonicalizer::to_vec(&Value::Number(n.clone()))
                .map_err(io::Error::other)?;
            out.write_all(&text)
        }
    }
}

/// JCS's member order: by the names' UTF-16 code units. UTF-8's byte order is code-point
/// order, which is the same except where the first differing characters are one from
/// U+E000-U+FFFF and one beyond the Basic Multilingual Plane (a surrogate pair, 0xD800-0xDFFF,
/// sorts before U+E000).
fn utf16_order(a: &str, b: &str) -> Ordering {
    utf16_order_of_utf8(a.as_bytes(), b.as_bytes())
}

/// [`utf16_order`] of two names' UTF-8 bytes, read only where they first differ.
fn utf16_order_of_utf8(a: &[u8], b: &[u8]) -> Ordering {
    let Some(at) = a.iter().zip(b).position(|(x, y)| x != y) else {
        return a.len().cmp(&b.len());
    };
    // A character that differs in its first byte differs in its lead byte; one that differs
    // later has the same lead byte in both, so both are in the same range and byte order
    // holds. Lead bytes 0xEE-0xEF start U+E000-U+FFFF, 0xF0-0xF4 the characters beyond.
    let (x, y) = (a[at], b[at]);
    let continuation = |byte: u8| byte & 0xC0 == 0x80;
    let high_bmp = |byte: u8| (0xEE..=0xEF).contains(&byte);
    let beyond = |byte: u8| byte >= 0xF0;
    if continuation(x) || continuation(y) {
        return x.cmp(&y);
    }
    match (high_bmp(x) && beyond(y), beyond(x) && high_bmp(y)) {
        (true, _) => Ordering::Greater,
        (_, true) => Ordering::Less,
        _ => x.cmp(&y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// SHA-256 of the canonical encoding of `value`.
    fn digest_value(value: &Value) -> [u8; 32] {
        let mut sink = HashSink::new();
        write_value(&mut sink, value).expect("hashing never fails");
        sink.finish()
    }

    /// The canonical encoding of `value`, as bytes (the tests compare it with the reference).
    fn to_vec(value: &Value) -> Vec<u8> {
        let mut out = Vec::new();
        write_value(&mut out, value).expect("writing to a Vec never fails");
        out
    }

    fn reference(value: &Value) -> Vec<u8> {
        serde_json_canonicalizer::to_vec(value).unwrap()
    }

    #[test]
    fn rfc_8785_orders_names_by_utf16_code_units() {
        // U+E000 sorts after U+1F600 in UTF-16 (the emoji is a surrogate pair, 0xD83D...) but
        // before it in code points: the map's own order is not JCS's.
        let value = json!({"\u{e000}": 1, "\u{1f600}": 2, "b": [true, null, "x\ny"], "a": -3});
        assert_eq!(to_vec(&value), reference(&value));
        assert_eq!(
            String::from_utf8(to_vec(&value)).unwrap(),
            "{\"a\":-3,\"b\":[true,null,\"x\\ny\"],\"\u{1f600}\":2,\"\u{e000}\":1}"
        );
    }

    #[test]
    fn fields_hash_as_the_object_they_make() {
        let log = json!([{"text": "Ann \u{1f}blocks", "round": 1}]);
        let object = json!({"kind": "k", "round": 7, "log": log, "seed": "18446744073709551615"});
        let fields = [
            ("round", Field::Uint(7)),
            ("kind", Field::Str("k")),
            ("seed", Field::Str("18446744073709551615")),
            ("log", Field::Json(&log)),
        ];
        let expected: [u8; 32] = Sha256::digest(reference(&object)).into();
        assert_eq!(digest_fields(&fields), expected);
        assert_eq!(digest_value(&object), expected);
    }

    /// Arbitrary JSON, names and strings with escapes and characters on both sides of the
    /// Basic Multilingual Plane's end (also `typed`'s tests).
    pub(super) fn any_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            any::<u64>().prop_map(|n| json!(n)),
            (-1e6f64..1e6).prop_map(|f| json!(f)),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| json!(f)),
            "\\PC{0,12}".prop_map(Value::String),
            "[\\x00-\\x1f\"\\\\/\u{7f}\u{2028}\u{e000}\u{1f600}a-z]{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec(("\\PC{0,6}", inner), 0..6)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    /// The canonical encoding of `text` read as nodes.
    fn node_to_vec(text: &str) -> Vec<u8> {
        let mut out = Vec::new();
        write_node(&mut out, &Node::parse(text).unwrap()).expect("writing to a Vec never fails");
        out
    }

    #[test]
    fn canonical_text_hashes_as_the_value_it_encodes() {
        let value = json!({"b": [1, "x\ny"], "a": {"\u{e000}": 1, "\u{1f600}": 2}});
        let text = canonical(&value);
        assert_eq!(text.as_bytes(), reference(&value).as_slice());
        assert_eq!(
            digest_fields(&[("v", Field::Canonical(&text))]),
            digest_fields(&[("v", Field::Json(&value))])
        );
    }

    #[test]
    fn names_sort_by_utf16_code_units_whatever_their_shared_prefix() {
        let cases = [
            ("a", "b"),
            ("ab", "a"),
            ("x\u{e000}", "x\u{1f600}"),
            ("\u{1f600}z", "\u{1f601}"),
            ("é", "e"),
            ("\u{ffff}", "\u{10000}"),
            ("same", "same"),
        ];
        for (a, b) in cases {
            assert_eq!(
                utf16_order(a, b),
                a.encode_utf16().cmp(b.encode_utf16()),
                "{a:?} {b:?}"
            );
        }
    }

    #[test]
    fn nodes_borrow_unescaped_strings_and_keep_escaped_ones() {
        let text = r#"{"b":"plain","a":"line\nbreak","c":[1,-2,2.5,null,true]}"#;
        let node = Node::parse(text).unwrap();
        assert!(matches!(
            node.get("b"),
            Some(Node::Str(Cow::Borrowed("plain")))
        ));
        assert!(matches!(node.get("a"), Some(Node::Str(Cow::Owned(s))) if s == "line\nbreak"));
        assert_eq!(
            node_to_vec(text),
            reference(&serde_json::from_str(text).unwrap())
        );
        assert!(Node::parse("{\"a\":").is_err());
    }

    proptest! {
        #[test]
        fn it_writes_what_the_reference_writes(value in any_json()) {
            prop_assert_eq!(to_vec(&value), reference(&value));
        }

        /// The hasher's buffer: pieces that fill it, cross its end or exceed it whole hash as
        /// the text they make.
        #[test]
        fn the_buffered_hash_is_the_hash_of_the_whole_text(
            pieces in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..700), 0..12)
        ) {
            let mut sink = HashSink::new();
            for piece in &pieces {
                sink.write_all(piece).unwrap();
            }
            let expected: [u8; 32] = Sha256::digest(pieces.concat()).into();
            prop_assert_eq!(sink.finish(), expected);
        }

        #[test]
        fn names_order_as_their_utf16_code_units(a in "\\PC{0,6}", b in "\\PC{0,6}") {
            prop_assert_eq!(utf16_order(&a, &b), a.encode_utf16().cmp(b.encode_utf16()));
        }

        /// Stored text read as nodes encodes as the value it was written from, whether
        /// serde_json wrote it compact or pretty.
        #[test]
        fn nodes_of_written_text_encode_as_their_value(value in any_json()) {
            prop_assert_eq!(node_to_vec(&value.to_string()), to_vec(&value));
            let pretty = serde_json::to_string_pretty(&value).unwrap();
            prop_assert_eq!(node_to_vec(&pretty), to_vec(&value));
        }
    }
}
