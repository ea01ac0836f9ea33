//! Lobby and player names: what is stored, what is refused, and when two names are the same.
//!
//! A name is shown to other people (the lobby page, the reveal log, forum exports), so it must
//! read as what it is: it is stored in Unicode NFC with its whitespace collapsed, and refused
//! if it holds control or format characters (general categories Cc and Cf: among them the
//! bidirectional overrides that reorder a line, and the zero-width characters), or nothing
//! visible at all. Within a lobby two names are one if they are confusable once case is
//! folded: the key is the UTS #39 skeleton of the case-folded skeleton (`Ann`, `ann`, `ANN` and
//! `Аnn` with a Cyrillic А are one name).

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
use unicode_security::GeneralSecurityProfile;
use unicode_security::general_security_profile::IdentifierType;

use crate::error::AppError;
use crate::store::PlayerRow;

/// Longest lobby or player name, in characters (after normalisation).
pub const MAX_NAME_CHARS: usize = 40;

/// Why a name is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameFault {
    /// Nothing visible is left once whitespace and invisible characters are set aside.
    Blank,
    TooLong,
    /// A control character (Cc), such as a newline or a tab.
    Control,
    /// A format character (Cf): a bidirectional control, a zero-width space or joiner, a soft
    /// hyphen.
    Format,
}

impl NameFault {
    fn error(self, what: &str) -> AppError {
        AppError::rejected("invalid-name", self.message(what, MAX_NAME_CHARS))
    }

    /// The sentence for a `what` of at most `max` characters.
    fn message(self, what: &str, max: usize) -> String {
        match self {
            NameFault::Blank => format!(
                "The {what} must not be empty. (Whitespace and invisible characters do not count.)"
            ),
            NameFault::TooLong => format!("The {what} is too long: at most {max} characters."),
            NameFault::Control => format!("The {what} must not contain control characters."),
            NameFault::Format => format!(
                "The {what} must not contain invisible formatting characters \
                 (bidirectional controls, zero-width characters)."
            ),
        }
    }
}

/// Normalises and checks a name (`what` says which, for the error): NFC, whitespace runs
/// made one space and trimmed, 1 to [`MAX_NAME_CHARS`] characters, no control or format
/// character, something visible.
pub fn clean_name(raw: &str, what: &str) -> Result<String, AppError> {
    normalise(raw).map_err(|fault| fault.error(what))
}

fn normalise(raw: &str) -> Result<String, NameFault> {
    let composed = composed_and_shown(raw)?;
    let name = composed.split_whitespace().collect::<Vec<_>>().join(" ");
    if !name.chars().any(|c| !invisible(c)) {
        return Err(NameFault::Blank);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(NameFault::TooLong);
    }
    Ok(name)
}

/// `raw` in NFC, refused if it holds a control character other than whitespace (Cc) or a
/// format character (Cf): the character rule every shown text shares.
fn composed_and_shown(raw: &str) -> Result<String, NameFault> {
    let composed: String = raw.nfc().collect();
    for c in composed.chars() {
        match c.general_category() {
            GeneralCategory::Control if !c.is_whitespace() => return Err(NameFault::Control),
            GeneralCategory::Format => return Err(NameFault::Format),
            _ => {}
        }
    }
    Ok(composed)
}

/// Why a longer text (a table-talk message) is refused: the name's faults, with its own limit.
fn text_error(fault: NameFault, what: &str, max: usize) -> AppError {
    AppError::rejected("invalid-text", fault.message(what, max))
}

/// Normalises and checks a longer text a player writes for others (a table-talk message):
/// the characters a name may hold (NFC, no control character but whitespace, no format
/// character such as a bidirectional override), something visible, trimmed at both ends
/// (its lines and inner whitespace kept), 1 to `max` characters. Refused with 422
/// `invalid-text`.
pub fn clean_text(raw: &str, max: usize, what: &str) -> Result<String, AppError> {
    let composed = composed_and_shown(raw).map_err(|fault| text_error(fault, what, max))?;
    let text = composed.trim();
    if !text.chars().any(|c| !invisible(c)) {
        return Err(text_error(NameFault::Blank, what, max));
    }
    if text.chars().count() > max {
        return Err(text_error(NameFault::TooLong, what, max));
    }
    Ok(text.to_owned())
}

/// Characters that show nothing: whitespace, the default-ignorable code points (Hangul
/// fillers, variation selectors, the combining grapheme joiner…) and the blank Braille
/// pattern, which fonts draw as an empty cell.
fn invisible(c: char) -> bool {
    c.is_whitespace()
        || c == '\u{2800}'
        || c.identifier_type() == Some(IdentifierType::Default_Ignorable)
}

/// The form two names of one lobby are compared in: the UTS #39 skeleton (which maps
/// confusable characters to one prototype), case-folded, and the skeleton of that. The
/// skeleton comes first because folding can part confusables (`I` folds to `i`, but its
/// prototype is `l`), and again last because a prototype may be a capital that folds to a
/// letter with a prototype of its own.
pub fn name_key(name: &str) -> String {
    let skeleton: String = unicode_security::skeleton(name).collect();
    let folded = caseless::default_case_fold_str(&skeleton);
    unicode_security::skeleton(&folded).collect()
}

/// A name a player may take in a lobby: `raw` cleaned ([`clean_name`]) with its key
/// ([`name_key`]), the key the players table stores and keeps unique per lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatName {
    pub name: String,
    pub key: String,
}

impl SeatName {
    /// The name a seated player holds now, with the key it is stored under from now on.
    pub fn held(player: &PlayerRow) -> SeatName {
        SeatName {
            name: player.name.clone(),
            key: key_of(player).to_owned(),
        }
    }
}

/// The one rule for a name that is given to a seat, whoever gives it (a join, a substitute's
/// rename): `raw` cleaned, and refused with 409 `name-taken` when it is one name with a
/// player of `players` other than `seat_of` (the seat being renamed keeps no claim on its
/// old name). Each seated name is compared by its key, and also by the key a lobby created
/// before this rule stored for it (its name in lowercase), which the table's UNIQUE (lobby,
/// name_key) would otherwise refuse as a database error.
pub fn seat_name(
    raw: &str,
    players: &[PlayerRow],
    seat_of: Option<uuid::Uuid>,
) -> Result<SeatName, AppError> {
    let name = clean_name(raw, "player name")?;
    let key = name_key(&name);
    let taken = players
        .iter()
        .filter(|p| Some(p.id) != seat_of)
        .any(|p| key_of(p) == key || p.name.to_lowercase() == key || masked_as(p, &key));
    if taken {
        return Err(AppError::conflict(
            "name-taken",
            format!("Someone in this lobby is already called {name:?}; pick another name."),
        ));
    }
    Ok(SeatName { name, key })
}

/// Whether `key` is the key of the pseudonym an anonymous seat is named by (its name while it
/// has an alias), so that nobody joins as "player 1" or a look-alike of another seat's
/// pseudonym (docs/table-talk.md, "Anonymous games").
fn masked_as(player: &PlayerRow, key: &str) -> bool {
    player.alias.is_some() && name_key(&player.name) == key
}

/// A seated player's key, worked out once per row the writer keeps.
fn key_of(player: &PlayerRow) -> &str {
    // An anonymous seat's alias is the name its player gave (docs/table-talk.md).
    let name = player.alias.as_deref().unwrap_or(&player.name);
    player.name_rule_key.get_or_init(|| name_key(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_stored_composed_with_its_whitespace_collapsed() {
        assert_eq!(
            normalise("  Zoe\u{0301}\t \u{3000} Ann \n"),
            Ok("Zoé Ann".into())
        );
        assert_eq!(
            normalise("Zo\u{e9}"),
            normalise("Zoe\u{301}"),
            "NFC and NFD are one"
        );
    }

    #[test]
    fn invisible_bidirectional_and_control_characters_are_refused() {
        assert_eq!(
            normalise("\u{200b}"),
            Err(NameFault::Format),
            "zero-width space"
        );
        assert_eq!(normalise("A\u{200b}nn"), Err(NameFault::Format));
        assert_eq!(normalise("Ann\u{202e}nnA"), Err(NameFault::Format), "RLO");
        assert_eq!(normalise("\u{2067}Ann"), Err(NameFault::Format), "RLI");
        assert_eq!(
            normalise("A\u{00ad}nn"),
            Err(NameFault::Format),
            "soft hyphen"
        );
        assert_eq!(normalise("A\u{7}nn"), Err(NameFault::Control));
        assert_eq!(
            normalise("\u{3164}"),
            Err(NameFault::Blank),
            "Hangul filler"
        );
        assert_eq!(normalise("\u{2800} \u{fe0f}"), Err(NameFault::Blank));
        assert_eq!(normalise("   "), Err(NameFault::Blank));
        assert_eq!(normalise(""), Err(NameFault::Blank));
    }

    #[test]
    fn forty_characters_after_normalising_is_the_longest_name() {
        let forty = "é".repeat(40);
        assert_eq!(normalise(&"e\u{301}".repeat(40)), Ok(forty.clone()));
        assert_eq!(normalise(&format!("{forty}é")), Err(NameFault::TooLong));
    }

    #[test]
    fn confusable_and_case_variants_share_a_key() {
        let key = name_key("Ann");
        for same in ["ann", "ANN", "\u{410}nn", "\u{430}nn"] {
            assert_eq!(name_key(same), key, "{same:?}");
        }
        assert_eq!(name_key("Il"), name_key("lI"));
        assert_eq!(name_key("Bob"), name_key("\u{412}\u{43e}b"), "Cyrillic Вo");
        assert_ne!(
            name_key("Ann"),
            name_key("\u{410}\u{43d}\u{43d}"),
            "Cyrillic н is an H"
        );
        assert_eq!(name_key("paypal"), name_key("p\u{430}yp\u{430}l"));
        assert_eq!(name_key("Straße"), name_key("STRASSE"));
        assert_ne!(name_key("Ann"), name_key("Anne"));
        assert_ne!(name_key("Bob"), name_key("Rob"));
    }
}
