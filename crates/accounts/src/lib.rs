//! Identities for cardtable (issue 42): the rules and secrets of accounts, as pure helpers.
//! No database, no async runtime, no clock: the store keeps what these functions make, the
//! server calls them, and times are passed in.
//!
//! # Names ([`check_name`], [`name_key`])
//! - [`MIN_NAME`]..=[`MAX_NAME`] (2 to 20) characters, counted as `char`s, not bytes.
//! - Letters and digits of any script (`char::is_alphanumeric`: "Zoë", "李小龙", "Ωmega"), `_`
//!   and `-`, and after a letter or digit the combining marks of the scripts in everyday use
//!   (vowel signs, viramas, accents: UTS #39 `Identifier_Status=Allowed`). The first
//!   character is a letter or digit.
//! - Never a control character, a format or invisible character (zero-width spaces and
//!   joiners, soft hyphen, fillers, variation selectors, byte-order mark) or a direction
//!   character (marks, embeddings, overrides, isolates: U+200E/F, U+202A-E, U+2066-9).
//! - Not a [`RESERVED`] word (staff and machine words, stand-ins like `deleted` and `guest`,
//!   the bot names and levels) and not beginning with a [`RESERVED_PREFIXES`] entry (`guest-`,
//!   `bot-`, `deleted-`), both compared by key, so look-alikes are refused too.
//! - Unique by [`name_key`]: NFKC, lowercase, the UTS #39 confusable skeleton, lowercase, and
//!   `i` joined with `l`. "Alice", "ALICE", "Аlice" (Cyrillic А) and "AIice" (capital I) have
//!   one key; so do "rn" and "m". The store keeps the key beside the name and refuses a
//!   second name with the same key. (Look-alikes only in capitals, like Cyrillic "НАТ" and
//!   "HAT", stay apart: see [`name_key`].)
//!
//! # Passwords ([`hash_password`], [`verify_password`], [`verify_dummy`])
//! - [`MIN_PASSWORD`]..=[`MAX_PASSWORD`] (8 to 256) characters, no composition rules (NIST
//!   SP 800-63B). Hashed in NFKC, so differently composed input of the same text verifies.
//! - Argon2id (RustCrypto's `argon2`, version 0x13), m = [`ARGON2_M_KIB`] = 19,456 KiB
//!   (19 MiB), t = [`ARGON2_T`] = 2 passes, p = [`ARGON2_P`] = 1 lane, 16-byte random salt,
//!   32-byte output, stored as a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$...`). These are
//!   OWASP's Password Storage Cheat Sheet's first recommendation for Argon2id (and the
//!   crate's defaults): memory-hard enough that a GPU guesses far slower than against a fast
//!   hash, while one check stays in the tens of milliseconds on one core and 19 MiB per
//!   check in flight, which a throttled sign-in keeps few. `cargo bench -p accounts` on the
//!   2-core development machine (load average 13 from other builds): verify 50 ms fastest,
//!   70 ms median; hash 49 ms and 81 ms. Verification reads the parameters from the stored string,
//!   so they can be raised later ([`needs_rehash`] tells which hashes are older).
//! - A sign-in with an unknown name runs [`verify_dummy`]: the same work against a hash of a
//!   password nobody knows, so a wrong name and a wrong password take the same time.
//!
//! # Sessions ([`new_session`], [`hash_session_id`], [`random_id`])
//! - A session id is [`SESSION_BYTES`] = 32 random bytes (256 bits) from the operating
//!   system, base64url without padding: [`SESSION_ID_LEN`] = 43 characters. Only its SHA-256
//!   (64 hex digits) is stored, so a leaked database holds no usable session.
//! - [`random_id`] makes other ids (WebAuthn ceremonies) the same way, of any size.
//!
//! # Guests ([`random_guest_name`])
//! - `guest-` and a number drawn uniformly from 1000..=99999 (4 or 5 digits). The store
//!   refuses a taken one and the server draws again.
//!
//! # Throttling ([`Throttle`])
//! - A sliding window per key; an attempt over the limit is refused with the wait until a
//!   place frees (for `Retry-After`, in seconds by [`retry_after_secs`]) and is not counted.
//! - Sign-in: [`SIGNIN_PER_ACCOUNT`] 10 attempts per account name key and
//!   [`SIGNIN_PER_ADDRESS`] 30 per client address, each in 15 minutes; a successful sign-in
//!   clears the account's count. Guest identities: [`GUESTS_PER_ADDRESS`] 30 an hour per
//!   address.
//! - A renamed guest's old name and a deleted account's name are held [`NAME_HOLD_MS`]
//!   (30 days) before anyone else may take them.
//!
//! Everything is at the crate's root (`accounts::check_name`) and in its module
//! (`accounts::names::check_name`).

pub mod guest;
pub mod names;
pub mod password;
pub mod throttle;
pub mod token;

pub use guest::{GUEST_MAX, GUEST_MIN, guest_name, is_guest_name, random_guest_name};
pub use names::{MAX_NAME, MIN_NAME, NameError, RESERVED, RESERVED_PREFIXES, check_name, name_key, normalize_name};
pub use password::{
    ARGON2_M_KIB, ARGON2_P, ARGON2_T, MAX_PASSWORD, MIN_PASSWORD, PasswordError, check_password, hash_password,
    needs_rehash, verify_dummy, verify_password,
};
pub use throttle::{
    GUESTS_PER_ADDRESS, NAME_HOLD_MS, SIGNIN_PER_ACCOUNT, SIGNIN_PER_ADDRESS, Throttle, retry_after_secs,
};
pub use token::{SESSION_BYTES, SESSION_ID_LEN, SessionToken, hash_session_id, new_session, random_id};
