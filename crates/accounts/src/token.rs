//! Session ids and other random ids.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

/// The random bytes in a session id (256 bits; the issue asks for at least 128).
pub const SESSION_BYTES: usize = 32;
/// The characters of a session id: [`SESSION_BYTES`] in base64url without padding.
pub const SESSION_ID_LEN: usize = 43;

/// A new session: the id goes to the browser (in the cookie) and nowhere else; the hash goes
/// to the store, which never sees the id.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionToken {
    /// [`SESSION_BYTES`] random bytes, base64url without padding ([`SESSION_ID_LEN`] characters).
    pub id: String,
    /// [`hash_session_id`] of `id`: 64 lowercase hex digits.
    pub hash: String,
}

/// Shows the hash only: a session id must never reach a log line, and `{:?}` of a struct is
/// the easiest way for one to get there.
impl std::fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionToken").field("id", &"<secret>").field("hash", &self.hash).finish()
    }
}

/// Draws a new session id from the operating system's random source.
pub fn new_session() -> SessionToken {
    let id = random_id(SESSION_BYTES);
    let hash = hash_session_id(&id);
    SessionToken { id, hash }
}

/// The hash the store keeps of a session id: SHA-256 of the id's characters (as the cookie
/// carries them), as 64 lowercase hex digits. A plain hash, no salt and no work factor: the
/// id is 256 random bits, so nothing can be guessed from its hash, and every request computes
/// it. Looking a session up by this hash also keeps the store's comparison of ids out of
/// reach of timing (an attacker would have to control the hash's bytes).
pub fn hash_session_id(id: &str) -> String {
    let digest = Sha256::digest(id.as_bytes());
    let mut hex = String::with_capacity(64);
    for b in digest.iter() {
        hex.push(char::from_digit(u32::from(b >> 4), 16).expect("a nibble is a hex digit"));
        hex.push(char::from_digit(u32::from(b & 0xf), 16).expect("a nibble is a hex digit"));
    }
    hex
}

/// `bytes` bytes from the operating system's random source, in base64url without padding
/// (`4 * bytes / 3` characters, rounded up): ids for WebAuthn ceremonies and the like.
pub fn random_id(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).expect("the operating system's random source works");
    URL_SAFE_NO_PAD.encode(&buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn is_base64url(s: &str) -> bool {
        s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    }

    #[test]
    fn session_ids_are_43_base64url_characters_of_32_bytes() {
        let t = new_session();
        assert_eq!(t.id.len(), SESSION_ID_LEN);
        assert_eq!(SESSION_ID_LEN, 43);
        assert!(is_base64url(&t.id), "{}", t.id);
        assert_eq!(URL_SAFE_NO_PAD.decode(&t.id).unwrap().len(), 32);
        assert_eq!(t.hash, hash_session_id(&t.id));
    }

    #[test]
    fn session_ids_do_not_repeat() {
        let ids: HashSet<String> = (0..1000).map(|_| new_session().id).collect();
        assert_eq!(ids.len(), 1000);
        // Nor do their hashes.
        let hashes: HashSet<String> = ids.iter().map(|id| hash_session_id(id)).collect();
        assert_eq!(hashes.len(), 1000);
    }

    #[test]
    fn the_hash_is_sha256_in_hex_and_stable() {
        // The SHA-256 test vector of "abc" (FIPS 180-2).
        assert_eq!(hash_session_id("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        let t = new_session();
        let h = hash_session_id(&t.id);
        assert_eq!(h.len(), 64);
        assert!(h.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)), "{h}");
        assert_eq!(h, hash_session_id(&t.id));
        assert_ne!(h, hash_session_id(&t.id[1..]));
    }

    #[test]
    fn random_ids_of_any_size() {
        assert_eq!(random_id(0), "");
        assert_eq!(random_id(16).len(), 22);
        assert_eq!(random_id(32).len(), 43);
        assert!(is_base64url(&random_id(100)));
        assert_ne!(random_id(16), random_id(16));
    }

    #[test]
    fn debug_hides_the_id() {
        let t = new_session();
        let shown = format!("{t:?}");
        assert!(!shown.contains(&t.id), "{shown}");
        assert!(shown.contains(&t.hash), "{shown}");
    }
}
