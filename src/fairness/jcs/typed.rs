//! Canonical JSON (RFC 8785) written straight from a `Serialize` value, without a `Value` in
//! between.
//!
//! A step's log is stored in canonical form so that its digest can hash the stored text as it
//! is (see `fairness::stored_step_digest`). Building each entry as a `Value` and writing that,
//! or writing plain JSON and reading it back to sort it, cost the writer more than the hashing
//! itself; this formatter lets serde_json drive the serialization (flatten, tags and all) and
//! only reorders an object's members, in place, when they did not come sorted.
//!
//! serde_json escapes strings exactly as JCS does (`\"`, `\\`, `\b \f \n \r \t`, other
//! control characters as `\u00xx` in lower case, everything else as its UTF-8), and integers
//! are written as themselves while a double holds them exactly; any other number goes through
//! [`super::write_number`], which defers to the reference for ECMAScript's formatting.

use std::cmp::Ordering;
use std::io;
use std::ops::Range;

use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter};
use serde_json::{Number, Value};

use super::utf16_order_of_utf8 as utf16_order;
use crate::fairness::HEX_DIGITS;

/// `value`'s canonical encoding as text.
pub fn to_canonical<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Vec::new();
    write_canonical(&mut out, &mut Room::default(), value)?;
    Ok(String::from_utf8(out).expect("serde_json writes UTF-8"))
}

/// Appends `value`'s canonical encoding to `out`, working in `room`.
fn write_canonical<T: Serialize + ?Sized>(
    out: &mut Vec<u8>,
    room: &mut Room,
    value: &T,
) -> Result<(), serde_json::Error> {
    let formatter = Canonical {
        out,
        room,
        key: None,
    };
    let mut serializer = serde_json::Serializer::with_formatter(io::sink(), formatter);
    value.serialize(&mut serializer)
}

/// The canonical encodings of several values, written one after another into one buffer
/// with one working room: a step's log is written entry by entry (so that its public entries
/// can be joined apart), and each entry on its own would allocate its buffers anew.
#[derive(Default)]
pub struct CanonicalList {
    out: Vec<u8>,
    room: Room,
    /// Where each element's text ends in `out`.
    ends: Vec<usize>,
}

impl CanonicalList {
    /// Adds `value`'s canonical encoding as the next element.
    pub fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), serde_json::Error> {
        let start = self.out.len();
        match write_canonical(&mut self.out, &mut self.room, value) {
            Ok(()) => {
                self.ends.push(self.out.len());
                Ok(())
            }
            Err(e) => {
                // Nothing of a value that failed stays behind.
                self.out.truncate(start);
                self.room = Room::default();
                Err(e)
            }
        }
    }

    /// The elements' texts, in the order they were added.
    pub fn elements(&self) -> impl Iterator<Item = &str> + Clone {
        let text = std::str::from_utf8(&self.out).expect("serde_json writes UTF-8");
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(self.ends.iter().copied())
            .map(|(start, end)| &text[start..end])
    }
}

/// Writes into `out`, ignoring the writer serde_json hands it (a sink), so that an object's
/// members can be reordered once it ends.
struct Canonical<'a> {
    out: &'a mut Vec<u8>,
    room: &'a mut Room,
    /// The member name being written, if any.
    key: Option<Key>,
}

/// The canonical writer's working space, kept from one value to the next.
#[derive(Default)]
struct Room {
    /// The objects being written, innermost last.
    objects: Vec<Object>,
    /// Member lists and a copy buffer kept for reuse: a log writes hundreds of small objects.
    spare: Vec<Vec<Member>>,
    scratch: Vec<u8>,
}

struct Object {
    /// Where the first member starts in `out`.
    start: usize,
    members: Vec<Member>,
}

struct Member {
    /// The member's text in `out`, from its name's opening quote to the end of its value.
    text: Range<usize>,
    /// The name's length in `out` without its quotes.
    name_len: usize,
    /// The name itself when its text holds escapes (the text is then not the name).
    escaped_name: Option<String>,
    /// The name's first eight bytes, zero-padded, read as a big-endian number: ordered as the
    /// names are wherever they differ (see [`Member::order`]). None when one of those bytes
    /// starts a character from U+E000 up, where UTF-16 order is not byte order.
    prefix: Option<u64>,
}

struct Key {
    /// Where the name's opening quote is in `out`.
    start: usize,
    /// The name as read from its fragments, kept only once an escape appears in it.
    escaped: Option<String>,
}

impl Member {
    /// A member whose name's text (between its quotes) is `written`, unless escaped.
    fn new(text: Range<usize>, written: &[u8], escaped_name: Option<String>) -> Member {
        let name = escaped_name
            .as_ref()
            .map_or(written, |name| name.as_bytes());
        let prefix = match name.first_chunk::<8>() {
            Some(head) => u64::from_be_bytes(*head),
            None => name
                .iter()
                .enumerate()
                .fold(0, |word, (i, &byte)| word | u64::from(byte) << (56 - 8 * i)),
        };
        // ASCII throughout (every name Herald writes), or no byte from 0xEE up.
        let prefix = match prefix & 0x8080_8080_8080_8080 == 0
            || prefix.to_be_bytes().iter().all(|&byte| byte < 0xEE)
        {
            true => Some(prefix),
            false => None,
        };
        Member {
            text,
            name_len: written.len(),
            escaped_name,
            prefix,
        }
    }

    /// JCS's order of two members' names, `written` holding `out` from `offset` on. Two
    /// different prefixes differ at the names' first differing byte, or where the shorter name
    /// ends (its padding, zero, is below any byte that goes on: a name holding U+0000 ties and
    /// goes to the full comparison); bytes below 0xEE order as UTF-16 does. Only names that
    /// share their first eight bytes are compared whole.
    fn order(&self, other: &Member, written: &[u8], offset: usize) -> Ordering {
        match (self.prefix, other.prefix) {
            (Some(a), Some(b)) if a != b => a.cmp(&b),
            _ => utf16_order(self.name(written, offset), other.name(written, offset)),
        }
    }

    /// The member's name as UTF-8, `written` holding `out` from `offset` on.
    fn name<'o>(&'o self, written: &'o [u8], offset: usize) -> &'o [u8] {
        match &self.escaped_name {
            Some(name) => name.as_bytes(),
            None => {
                let start = self.text.start - offset + 1;
                &written[start..start + self.name_len]
            }
        }
    }
}

impl Canonical<'_> {
    /// The member name being written, once it holds an escape.
    fn escaped_name(&mut self) -> Option<&mut String> {
        self.key.as_mut().and_then(|key| key.escaped.as_mut())
    }

    /// An escaped character is about to be written: inside a member name, the name is kept
    /// apart from then on.
    fn escape_in_name(&mut self, char: u8) {
        let out = &*self.out;
        if let Some(key) = &mut self.key {
            let name = key.escaped.get_or_insert_with(|| {
                // No escape so far: the text since the opening quote is the name.
                String::from_utf8_lossy(&out[key.start + 1..]).into_owned()
            });
            name.push(char::from(char));
        }
    }

    fn number(&mut self, n: Number) -> io::Result<()> {
        let start = self.out.len();
        super::write_number(&mut *self.out, &n)?;
        // A number used as a map key is written between quotes, as part of the name.
        if self.escaped_name().is_some() {
            let digits = String::from_utf8_lossy(&self.out[start..]).into_owned();
            if let Some(name) = self.escaped_name() {
                name.push_str(&digits);
            }
        }
        Ok(())
    }

    /// Puts the members of the object that just ended in JCS's order, if they did not come so
    /// (a log entry's members come tag first, then the game's fields as declared).
    fn sort_members(&mut self, mut object: Object) {
        let out = &*self.out;
        let in_order = object
            .members
            .windows(2)
            .all(|pair| pair[0].order(&pair[1], out, 0) == Ordering::Less);
        if !in_order {
            let offset = object.start;
            let written = &mut self.room.scratch;
            written.clear();
            written.extend_from_slice(&self.out[offset..]);
            object
                .members
                .sort_unstable_by(|a, b| a.order(b, written, offset));
            self.out.truncate(offset);
            for (i, member) in object.members.iter().enumerate() {
                if i > 0 {
                    self.out.push(b',');
                }
                let text = member.text.start - offset..member.text.end - offset;
                self.out.extend_from_slice(&written[text]);
            }
        }
        object.members.clear();
        self.room.spare.push(object.members);
    }
}

/// The formatter's methods for integers that a `Number` holds as they are.
macro_rules! integers {
    ($($method:ident: $type:ty),* $(,)?) => {
        $(
            fn $method<W: ?Sized + io::Write>(&mut self, _: &mut W, value: $type) -> io::Result<()> {
                self.number(value.into())
            }
        )*
    };
}

/// Every write goes to `out`; the sink serde_json holds receives nothing.
impl Formatter for Canonical<'_> {
    fn write_null<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    fn write_bool<W: ?Sized + io::Write>(&mut self, _: &mut W, value: bool) -> io::Result<()> {
        self.out
            .extend_from_slice(if value { b"true" } else { b"false" });
        Ok(())
    }

    integers! {
        write_i8: i8,
        write_i16: i16,
        write_i32: i32,
        write_i64: i64,
        write_u8: u8,
        write_u16: u16,
        write_u32: u32,
        write_u64: u64,
    }

    fn write_i128<W: ?Sized + io::Write>(&mut self, _: &mut W, value: i128) -> io::Result<()> {
        match i64::try_from(value) {
            Ok(n) => self.number(n.into()),
            // As a double, which is what JCS reads every number as.
            Err(_) => self.write_f64(&mut io::sink(), value as f64),
        }
    }

    fn write_u128<W: ?Sized + io::Write>(&mut self, _: &mut W, value: u128) -> io::Result<()> {
        match u64::try_from(value) {
            Ok(n) => self.number(n.into()),
            Err(_) => self.write_f64(&mut io::sink(), value as f64),
        }
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, _: &mut W, value: f32) -> io::Result<()> {
        self.write_f64(&mut io::sink(), f64::from(value))
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, _: &mut W, value: f64) -> io::Result<()> {
        // serde_json writes a non-finite float as null, and so does JCS's reference.
        match Number::from_f64(value) {
            Some(n) => self.number(n),
            None => self.write_null(&mut io::sink()),
        }
    }

    fn write_number_str<W: ?Sized + io::Write>(
        &mut self,
        _: &mut W,
        value: &str,
    ) -> io::Result<()> {
        let n: Number = value.parse().map_err(io::Error::other)?;
        self.number(n)
    }

    fn begin_string<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.out.push(b'"');
        Ok(())
    }

    fn end_string<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.out.push(b'"');
        Ok(())
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        _: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        self.out.extend_from_slice(fragment.as_bytes());
        if let Some(name) = self.escaped_name() {
            name.push_str(fragment);
        }
        Ok(())
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        _: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        let (text, char): (&[u8], u8) = match escape {
            CharEscape::Quote => (b"\\\"", b'"'),
            CharEscape::ReverseSolidus => (b"\\\\", b'\\'),
            // JCS writes `/` as itself; serde_json never asks for this escape.
            CharEscape::Solidus => (b"/", b'/'),
            CharEscape::Backspace => (b"\\b", 0x08),
            CharEscape::FormFeed => (b"\\f", 0x0c),
            CharEscape::LineFeed => (b"\\n", b'\n'),
            CharEscape::CarriageReturn => (b"\\r", b'\r'),
            CharEscape::Tab => (b"\\t", b'\t'),
            CharEscape::AsciiControl(byte) => {
                let text = [
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX_DIGITS[usize::from(byte >> 4)],
                    HEX_DIGITS[usize::from(byte & 0xf)],
                ];
                self.escape_in_name(byte);
                self.out.extend_from_slice(&text);
                return Ok(());
            }
        };
        self.escape_in_name(char);
        self.out.extend_from_slice(text);
        Ok(())
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.out.push(b'[');
        Ok(())
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.out.push(b']');
        Ok(())
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        _: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if !first {
            self.out.push(b',');
        }
        Ok(())
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.out.push(b'{');
        let members = self.room.spare.pop().unwrap_or_default();
        self.room.objects.push(Object {
            start: self.out.len(),
            members,
        });
        Ok(())
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        let object = self
            .room
            .objects
            .pop()
            .expect("an object ends after it began");
        self.sort_members(object);
        self.out.push(b'}');
        Ok(())
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        _: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if !first {
            self.out.push(b',');
        }
        self.key = Some(Key {
            start: self.out.len(),
            escaped: None,
        });
        Ok(())
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        let key = self.key.take().expect("a value follows its name");
        let end = self.out.len();
        // The text is completed at the value's end.
        let member = Member::new(
            key.start..end,
            &self.out[key.start + 1..end - 1],
            key.escaped,
        );
        self.room
            .objects
            .last_mut()
            .expect("a member is inside an object")
            .members
            .push(member);
        self.out.push(b':');
        Ok(())
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        let end = self.out.len();
        let member = self
            .room
            .objects
            .last_mut()
            .and_then(|o| o.members.last_mut())
            .expect("a value ends inside its object");
        member.text.end = end;
        Ok(())
    }

    fn write_raw_fragment<W: ?Sized + io::Write>(
        &mut self,
        _: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // Raw JSON is read and written again in canonical form.
        let value: Value = serde_json::from_str(fragment).map_err(io::Error::other)?;
        let text = super::canonical(&value);
        self.out.extend_from_slice(text.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::any_json;
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn reference<T: Serialize>(value: &T) -> String {
        String::from_utf8(
            serde_json_canonicalizer::to_vec(&serde_json::to_value(value).unwrap()).unwrap(),
        )
        .unwrap()
    }

    #[derive(Serialize)]
    #[serde(tag = "kind", rename_all = "kebab-case")]
    enum Event {
        Struck {
            round: u32,
            target: String,
            damage: i64,
        },
        Drew {
            card: Option<char>,
        },
    }

    #[derive(Serialize)]
    struct Entry<'a> {
        #[serde(flatten)]
        event: &'a Event,
        text: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        private_to_seat: Option<usize>,
    }

    /// Values written one after another share the buffer and the room, and each element reads
    /// back as its own canonical text; a value that fails leaves nothing behind.
    #[test]
    fn a_list_holds_each_values_canonical_text_and_nothing_of_a_failure() {
        struct Fails;
        impl Serialize for Fails {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;
                let mut map = s.serialize_map(None)?;
                map.serialize_entry("z", &1)?;
                Err(serde::ser::Error::custom("no"))
            }
        }
        let values = [
            json!({"b": {"y": [1, {"d": 2, "c": 3}], "x": null}, "a": "\u{e000}"}),
            json!([]),
            json!({"kind": "drew", "private_to_seat": 0, "text": "You drew R7."}),
            json!("plain"),
        ];
        let mut list = CanonicalList::default();
        for (i, value) in values.iter().enumerate() {
            list.push(value).unwrap();
            if i == 1 {
                assert!(list.push(&Fails).is_err());
            }
        }
        let texts: Vec<&str> = list.elements().collect();
        let expected: Vec<String> = values.iter().map(reference).collect();
        assert_eq!(texts, expected);
    }

    #[test]
    fn a_log_entry_with_a_flattened_tagged_event_comes_out_sorted() {
        let struck = Event::Struck {
            round: 3,
            target: "Bob \"B\"\n".into(),
            damage: -2,
        };
        let drew = Event::Drew { card: Some('7') };
        let entries = [
            Entry {
                event: &struck,
                text: "Ann strikes Bob.".into(),
                private_to_seat: None,
            },
            Entry {
                event: &drew,
                text: "You drew 7.".into(),
                private_to_seat: Some(1),
            },
        ];
        let text = to_canonical(&entries).unwrap();
        assert_eq!(text, reference(&entries));
        assert_eq!(
            text,
            r#"[{"damage":-2,"kind":"struck","round":3,"target":"Bob \"B\"\n","text":"Ann strikes Bob."},{"card":"7","kind":"drew","private_to_seat":1,"text":"You drew 7."}]"#
        );
    }

    #[test]
    fn names_with_escapes_and_beyond_the_plane_sort_by_utf16() {
        let value = json!({"b\n": 1, "b": 2, "\u{e000}": 3, "\u{1f600}": 4, "a\"z": {"y": 1, "x": [2, {"d": 0, "c": 1}]}});
        assert_eq!(to_canonical(&value).unwrap(), reference(&value));
        let map: std::collections::BTreeMap<u32, &str> = [(10, "ten"), (9, "nine")].into();
        assert_eq!(to_canonical(&map).unwrap(), reference(&map));
        assert_eq!(to_canonical(&map).unwrap(), r#"{"10":"ten","9":"nine"}"#);
    }

    /// Members written in the order given, as a struct's or a flattened entry's are.
    struct InOrder(Vec<(String, i64)>);

    impl Serialize for InOrder {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_map(self.0.iter().map(|(name, value)| (name, value)))
        }
    }

    proptest! {
        #[test]
        fn any_value_comes_out_as_the_reference_writes_it(value in any_json()) {
            prop_assert_eq!(to_canonical(&value).unwrap(), reference(&value));
        }

        /// Objects of any size, their members arriving in any order (a `Value`'s map always
        /// arrives sorted by bytes). Half the names share their first seven bytes, so that
        /// members tie on the eight compared first, or part where one name ends or holds
        /// U+0000 (as its padding does) or a character on either side of U+E000.
        #[test]
        fn members_in_any_order_come_out_sorted(
            names in prop::collection::btree_set(
                "(abcdefg)?[a-c\u{0}\u{e000}\u{1f600}\n\"]{0,4}",
                0..48,
            ),
            seed in any::<u64>(),
        ) {
            let mut members: Vec<(String, i64)> =
                names.into_iter().enumerate().map(|(i, n)| (n, i as i64)).collect();
            // A fixed shuffle from the seed: rotate and reverse parts of the list.
            let len = members.len().max(1);
            members.rotate_left(seed as usize % len);
            if seed & 1 == 1 {
                members.reverse();
            }
            let as_value: Value = members
                .iter()
                .map(|(name, value)| (name.clone(), json!(value)))
                .collect::<serde_json::Map<_, _>>()
                .into();
            let nested = json!([as_value.clone(), {"inner": as_value.clone()}]);
            prop_assert_eq!(to_canonical(&InOrder(members)).unwrap(), reference(&as_value));
            prop_assert_eq!(to_canonical(&nested).unwrap(), reference(&nested));
        }
    }
}
