//! Account names: what a name may contain, and the key that makes two names the same name.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_security::GeneralSecurityProfile;

/// The fewest characters in a name.
pub const MIN_NAME: usize = 2;
/// The most characters in a name (characters, not bytes: "李小龙" is 3).
pub const MAX_NAME: usize = 20;

/// Words nobody may take as a name, nor anything that looks like one of them (compared by
/// [`name_key`], so "Admin", "ADMIN" and "Αdmin" with a Greek Α are all refused): the staff
/// and the machine, words the API or the pages could mean by themselves, the bot levels and
/// bot names rooms show.
pub const RESERVED: &[&str] = &[
    // The staff and the machine.
    "admin",
    "administrator",
    "system",
    "root",
    "moderator",
    "mod",
    "server",
    "cardtable",
    "support",
    "staff",
    "official",
    "host",
    // Stand-ins the pages and the API show or could mean.
    "deleted",
    "guest",
    "bot",
    "anonymous",
    "nobody",
    "everyone",
    "null",
    "undefined",
    "me",
    "api",
    // The games' bots (`random`, `heuristic`, Three Kingdoms' `seed`, Wolfpack's Ace tiers)
    // and the search bot's levels.
    "random",
    "heuristic",
    "seed",
    "rookie",
    "veteran",
    "ace",
    "easy",
    "medium",
    "hard",
    "expert",
    "foolish",
];

/// Beginnings nobody may give a name (compared by [`name_key`] as well): `guest-` is how
/// guests are named ([`crate::random_guest_name`]; a member named so would pass for a guest,
/// and would block that draw), `bot-` how rooms name the bots they seat, `deleted-` how the
/// store renames a deleted account. Names the server makes itself with these beginnings do
/// not go through [`check_name`].
pub const RESERVED_PREFIXES: &[&str] = &["guest-", "bot-", "deleted-"];

/// Why a name is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameError {
    /// Fewer than [`MIN_NAME`] characters.
    TooShort,
    /// More than [`MAX_NAME`] characters.
    TooLong,
    /// A character a name may not have there (the first one found).
    BadChar(char),
    /// The name is, or looks like, a [`RESERVED`] word (or begins with a
    /// [`RESERVED_PREFIXES`] entry).
    Reserved,
}

impl NameError {
    /// The stable code of the refusal, for the API's `{"error": CODE}`.
    pub fn code(&self) -> &'static str {
        match self {
            NameError::TooShort => "name_too_short",
            NameError::TooLong => "name_too_long",
            NameError::BadChar(_) => "name_bad_char",
            NameError::Reserved => "name_reserved",
        }
    }
}

impl std::fmt::Display for NameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NameError::TooShort => write!(f, "a name has at least {MIN_NAME} characters"),
            NameError::TooLong => write!(f, "a name has at most {MAX_NAME} characters"),
            NameError::BadChar('_' | '-') => {
                write!(f, "a name begins with a letter or a digit")
            }
            // The character is named by its code point: it may be invisible or turn the text
            // around.
            NameError::BadChar(c) => {
                write!(f, "a name may only use letters, digits, _ and - (not U+{:04X})", u32::from(*c))
            }
            NameError::Reserved => write!(f, "this name is reserved"),
        }
    }
}

impl std::error::Error for NameError {}

/// Checks a name: [`MIN_NAME`] to [`MAX_NAME`] characters; each a letter or digit of any
/// script (`char::is_alphanumeric`), `_` or `-`, or a combining mark after a letter, digit or
/// mark (the vowel signs, viramas and accents many scripts write names with, see
/// `mark_may_follow`); the first a letter or digit that is not a mark; no control, format,
/// invisible or direction character anywhere; and not a [`RESERVED`] word or beginning (by
/// [`name_key`]).
///
/// The name is checked as given: store what passed. A name typed with decomposed accents
/// ("Zoe" + U+0308) passes, and shows like "Zoë" (and has its key); pass input through
/// [`normalize_name`] first so that the stored name is the precomposed one.
pub fn check_name(name: &str) -> Result<(), NameError> {
    let len = name.chars().count();
    if len < MIN_NAME {
        return Err(NameError::TooShort);
    }
    if len > MAX_NAME {
        return Err(NameError::TooLong);
    }
    let mut prev: Option<char> = None;
    for c in name.chars() {
        // Said separately from the rule below: these must never pass, whatever the rule below
        // becomes, and four of them (the Hangul fillers, which draw nothing) are letters.
        if c.is_control() || is_invisible(c) {
            return Err(NameError::BadChar(c));
        }
        let ok = if is_combining_mark(c) {
            mark_may_follow(c, prev)
        } else {
            c.is_alphanumeric() || (prev.is_some() && (c == '_' || c == '-'))
        };
        if !ok {
            return Err(NameError::BadChar(c));
        }
        prev = Some(c);
    }
    let key = name_key(name);
    if RESERVED.iter().any(|r| name_key(r) == key) || RESERVED_PREFIXES.iter().any(|p| key.starts_with(&name_key(p))) {
        return Err(NameError::Reserved);
    }
    Ok(())
}

/// The name as it should be checked and stored: NFC, so a name typed with decomposed accents
/// ("Zoe" + U+0308) becomes the precomposed "Zoë" it shows as. Nothing else changes (no
/// trimming, no case folding).
pub fn normalize_name(name: &str) -> String {
    name.nfc().collect()
}

/// The uniqueness key of a name: NFKC, lowercase, the Unicode confusable skeleton (UTS #39,
/// `unicode_security::skeleton`), lowercase again, and `i` made `l`. Two names with the same
/// key are the same name: "Alice", "ALICE", "Аlice" (a Cyrillic А) and "AIice" (a capital
/// I); "rn" and "m" (the skeleton of "m" is "rn"); "paypal" and "paypa1". The key is for
/// comparing only; never show it.
///
/// Known gap: look-alikes that only the capitals share, other than `I` and `l`, stay apart
/// ("НАТ" in Cyrillic capitals is not "HAT", "ΚΕΥ" in Greek is not "KEY": in lowercase they
/// do not look alike, and the lowercase is what the skeleton sees). Joining case and the
/// skeleton in general chains letters together (`t`, `r`, `u` and `y` end up one), so that
/// was not done.
pub fn name_key(name: &str) -> String {
    // NFKC first: the compatibility forms (full-width "Ａｌｉｃｅ", ligatures, mathematical
    // letters) become the letters they stand for. Lowercase before the skeleton, so that
    // "ALICE" and "alice" have one key; lowercase after, as some prototypes are uppercase.
    let folded: String = name.nfkc().collect::<String>().to_lowercase();
    let skeleton: String = unicode_security::skeleton(&folded).collect();
    // The skeleton maps `I` (and `1`, `|`, `ı`) to `l` but `i` to itself, and the lowercase
    // before it turns `I` into `i`: so "AIice" (a capital I, which most sans-serif fonts draw
    // as an `l`) would not be "Alice". Joining `i` and `l` in the key closes that; names that
    // differ only by `i` against `l` ("alice", "allce") are then one name, the safe side.
    skeleton.to_lowercase().replace('i', "l")
}

/// Whether combining mark `c` may follow `prev`: after a letter, a digit or another mark
/// (never first, never after `_` or `-`), and only the marks of the scripts in everyday use:
/// alphanumeric ones (Devanagari's vowel signs) or ones UTS #39 allows in identifiers
/// (`Identifier_Status=Allowed`: Devanagari's virama U+094D, Latin accents; not enclosing
/// circles or the marks of obsolete and technical scripts).
fn mark_may_follow(c: char, prev: Option<char>) -> bool {
    prev.is_some_and(|p| p != '_' && p != '-') && (c.is_alphanumeric() || c.identifier_allowed())
}

/// Characters that draw nothing on their own or change the direction of the text around them:
/// format characters, fillers, variation selectors, direction marks, embeddings, overrides and
/// isolates (the list `protocol::check_chat` refuses whole messages of), and the byte-order
/// mark.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{2800}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}' | '\u{1D159}' | '\u{1D173}'..='\u{1D17A}'
        | '\u{E0000}'..='\u{E0FFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_people_use_pass() {
        for name in [
            "Zoë",
            "李小龙",
            "Ωmega",
            "ab",
            "12",
            "bob_smith",
            "Ana-Maria",
            "x-_-y",
            "a\u{300}\u{301}", // marks may stack
            "नमस्ते",            // Devanagari: vowel signs and a virama, which are marks, not letters
            "Zoe\u{308}",      // a decomposed ë: a mark after a letter
            "Ålesund_42",
            "Müller",
            "محمد",
            "Ёжик",
            "さくら",
            "guest4821", // not the `guest-` beginning
            "deletedfan",
            &"a".repeat(MAX_NAME),
            &"李".repeat(MAX_NAME), // 60 bytes: the limit counts characters
        ] {
            assert_eq!(check_name(name), Ok(()), "{name:?}");
        }
    }

    #[test]
    fn names_refused_with_the_right_reason() {
        use NameError::*;
        let long = "a".repeat(MAX_NAME + 1);
        let long_han = "李".repeat(MAX_NAME + 1);
        let table: &[(&str, NameError)] = &[
            ("", TooShort),
            ("a", TooShort),
            ("李", TooShort),
            (&long, TooLong),
            (&long_han, TooLong),
            ("bad name", BadChar(' ')),
            ("x\u{202E}y", BadChar('\u{202E}')), // right-to-left override
            ("x\u{2066}y", BadChar('\u{2066}')), // left-to-right isolate
            ("x\u{200F}y", BadChar('\u{200F}')), // right-to-left mark
            ("x\u{200B}y", BadChar('\u{200B}')), // zero-width space
            ("x\u{200D}y", BadChar('\u{200D}')), // zero-width joiner (allowed in UTS #39 identifiers)
            ("x\u{200C}y", BadChar('\u{200C}')), // zero-width non-joiner (likewise)
            ("x\u{00AD}y", BadChar('\u{00AD}')), // soft hyphen
            ("x\u{FEFF}y", BadChar('\u{FEFF}')), // byte-order mark
            ("x\u{3164}y", BadChar('\u{3164}')), // Hangul filler
            ("xy\u{FE0F}", BadChar('\u{FE0F}')), // variation selector
            ("a\u{0}b", BadChar('\u{0}')),
            ("a\nb", BadChar('\n')),
            ("a\tb", BadChar('\t')),
            ("a\u{7F}b", BadChar('\u{7F}')),
            ("a\u{9B}b", BadChar('\u{9B}')), // C1 control
            ("_lead", BadChar('_')),
            ("-lead", BadChar('-')),
            ("\u{301}ab", BadChar('\u{301}')), // a mark cannot begin a name
            ("a_\u{301}", BadChar('\u{301}')), // nor follow `_`
            ("a.b", BadChar('.')),
            ("a'b", BadChar('\'')),
            ("a·b", BadChar('·')),
            ("a@b", BadChar('@')),
            ("a😀b", BadChar('😀')),
            ("a\u{2010}b", BadChar('\u{2010}')), // the Unicode hyphen: only ASCII `-`
        ];
        for (name, err) in table {
            assert_eq!(check_name(name).as_ref(), Err(err), "{name:?}");
        }
    }

    #[test]
    fn reserved_words_and_their_look_alikes_are_refused() {
        for name in [
            "admin",
            "Admin",
            "ADMIN",
            "\u{391}dmin", // Greek capital Alpha
            "\u{430}dmin", // Cyrillic small a
            "ＡＤＭＩＮ",  // full width (NFKC)
            "adrnin",      // "rn" is the skeleton of "m"
            "system",
            "Moderator",
            "me",
            "ME",
            "ace",
            "Expert",
            "heuristic",
            "cardtable",
            "deleted",
            "guest",
            "guest-4821",
            "Guest-1",
            "gu\u{435}st-7", // Cyrillic е
            "bot-ana",
            "deleted-12",
        ] {
            assert_eq!(check_name(name), Err(NameError::Reserved), "{name:?}");
        }
        // Every reserved word is refused as it is written (a word that broke the name rules
        // would be refused for that instead, and the list would not say what it means).
        for word in RESERVED {
            assert_eq!(check_name(word), Err(NameError::Reserved), "{word:?}");
        }
        // Near misses pass.
        for name in ["admins", "adm1nistrate", "systems", "mee", "guest4821", "botany", "bot_ana"] {
            assert_eq!(check_name(name), Ok(()), "{name:?}");
        }
    }

    /// The explicit refusal of invisible and direction characters, apart from the
    /// letters-and-digits rule: none of them may pass in any place (four of them are letters,
    /// so the rule alone would let those in).
    #[test]
    fn invisible_characters_are_refused_everywhere() {
        let invisible: Vec<char> = (0..=0x10FFFF).filter_map(char::from_u32).filter(|&c| is_invisible(c)).collect();
        assert!(invisible.len() > 4000, "{}", invisible.len()); // the tag block alone has 4096
        for c in invisible {
            // The Hangul fillers are letters (Lo) that draw nothing: the explicit list is what
            // keeps them out.
            let filler = matches!(c, '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}');
            assert_eq!(c.is_alphanumeric(), filler, "U+{:04X}", u32::from(c));
            for name in [format!("{c}ab"), format!("a{c}b"), format!("ab{c}")] {
                assert_eq!(check_name(&name), Err(NameError::BadChar(c)), "U+{:04X}", u32::from(c));
            }
        }
    }

    #[test]
    fn marks_only_after_letters_and_only_everyday_ones() {
        assert_eq!(check_name("ab\u{94D}"), Ok(())); // Devanagari virama: a mark, not alphanumeric
        assert!(!'\u{94D}'.is_alphanumeric());
        assert_eq!(check_name("\u{93E}ab"), Err(NameError::BadChar('\u{93E}'))); // a vowel sign first
        assert_eq!(check_name("a-\u{93E}"), Err(NameError::BadChar('\u{93E}')));
        assert_eq!(check_name("ab\u{20DD}"), Err(NameError::BadChar('\u{20DD}'))); // enclosing circle
        assert_eq!(check_name("ab\u{489}"), Err(NameError::BadChar('\u{489}'))); // Cyrillic millions sign
    }

    #[test]
    fn keys_join_what_looks_alike() {
        assert_eq!(name_key("Alice"), name_key("\u{410}lice")); // Cyrillic А
        assert_eq!(name_key("alice"), name_key("\u{430}lice")); // Cyrillic а
        assert_eq!(name_key("ALICE"), name_key("alice"));
        assert_eq!(name_key("Ａｌｉｃｅ"), name_key("alice")); // full width
        assert_eq!(name_key("Zoë"), name_key("Zoe\u{308}")); // composed or not
        // UTS #39's confusables map "m" to "rn", "1" and "I" to "l", "0" to "O".
        assert_eq!(name_key("m"), name_key("rn"));
        assert_eq!(name_key("paypal"), name_key("paypa1"));
        assert_eq!(name_key("root"), name_key("r00t"));
        assert_eq!(name_key("bill"), name_key("biII"));
        // Look-alikes in uppercase only: a capital I, Cyrillic capitals, Greek capitals.
        assert_eq!(name_key("Alice"), name_key("AIice"));
        assert_eq!(name_key("ALICE"), name_key("AIICE"));
        assert_eq!(name_key("ALICE"), name_key("A\u{399}ICE")); // Greek capital iota
        // The known gap: Cyrillic and Greek capitals whose lowercase look like nothing Latin.
        assert_ne!(name_key("HAT"), name_key("\u{41D}\u{410}\u{422}"));
        assert_ne!(name_key("KEY"), name_key("\u{39A}\u{395}\u{3A5}"));
        assert_eq!(name_key("Ωmega"), name_key("ωmega"));
        // A key reads like the name where nothing needed joining.
        assert_eq!(name_key("Bob"), "bob");
        assert_eq!(name_key("李小龙"), "李小龙");
    }

    #[test]
    fn keys_keep_different_names_apart() {
        for (a, b) in [
            ("bob", "alice"),
            ("alice", "alicia"),
            ("anna", "anne"),
            ("李小龙", "李小虎"),
            ("Zoë", "Zoe"),
            ("ab", "a-b"),
            ("a_b", "a-b"),
            ("guest-1", "guest-2"),
        ] {
            assert_ne!(name_key(a), name_key(b), "{a:?} {b:?}");
        }
    }

    /// The Latin letters keep 25 keys (`i` and `l` share one, as `I` looks like `l`; `m` is
    /// `rn`), and the digits are letters only where they look like one (`0` is `o`, `1` is
    /// `l`).
    #[test]
    fn keys_do_not_join_what_differs() {
        let letters: std::collections::BTreeSet<String> = ('a'..='z').map(|c| name_key(&c.to_string())).collect();
        assert_eq!(letters.len(), 25, "{letters:?}");
        assert_eq!(name_key("i"), name_key("l"));
        for (a, b) in [("0", "o"), ("1", "l")] {
            assert_eq!(name_key(a), name_key(b));
        }
        for d in '2'..='9' {
            assert!(!letters.contains(&name_key(&d.to_string())), "{d}");
        }
    }

    #[test]
    fn errors_have_codes_and_sentences() {
        use NameError::*;
        for (e, code) in [
            (TooShort, "name_too_short"),
            (TooLong, "name_too_long"),
            (BadChar('\u{202E}'), "name_bad_char"),
            (Reserved, "name_reserved"),
        ] {
            assert_eq!(e.code(), code);
            assert!(e.to_string().starts_with("a name") || e == Reserved, "{e}");
        }
        assert_eq!(TooLong.to_string(), "a name has at most 20 characters");
        // An invisible character is named by its code point, never printed as itself.
        assert!(BadChar('\u{202E}').to_string().contains("U+202E"));
        assert!(!BadChar('\u{202E}').to_string().contains('\u{202E}'));
        assert_eq!(check_name("_ab").unwrap_err().to_string(), "a name begins with a letter or a digit");
    }

    #[test]
    fn normalize_composes() {
        assert_eq!(normalize_name("Zoe\u{308}"), "Zoë");
        assert_eq!(normalize_name("Zoë"), "Zoë");
        assert_eq!(normalize_name("ＡＤ"), "ＡＤ"); // NFC, not NFKC: what shows stays
    }
}
