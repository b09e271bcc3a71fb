//! Passwords: the length rule, Argon2id hashing to PHC strings, and verification.

use argon2::{Algorithm, Argon2, Params, PasswordHash, PasswordHasher, PasswordVerifier, Version};
use unicode_normalization::UnicodeNormalization;

/// The fewest characters in a password.
pub const MIN_PASSWORD: usize = 8;
/// The most characters in a password.
pub const MAX_PASSWORD: usize = 256;

/// Argon2id memory cost in KiB (19 MiB).
pub const ARGON2_M_KIB: u32 = 19_456;
/// Argon2id passes over the memory.
pub const ARGON2_T: u32 = 2;
/// Argon2id lanes (one thread per check).
pub const ARGON2_P: u32 = 1;

/// The salt's length in bytes (the PHC string format's recommendation).
const SALT_LEN: usize = 16;

/// A PHC string with the parameters above, of a password nobody knows (made once by
/// `hash_password` from 24 bytes of the operating system's random source, then forgotten),
/// that [`verify_dummy`] checks against. A test holds that its parameters are the ones above.
const DUMMY_PHC: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$ZgSkv1R3m7Kv/6dZ5CpPBw$YgWlBQ8yY0VSdlVp4eXlQjuQKEl3vCXcv3ygH/c7w9A";

/// Why a password is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PasswordError {
    /// Fewer than [`MIN_PASSWORD`] characters.
    TooShort,
    /// More than [`MAX_PASSWORD`] characters.
    TooLong,
}

impl PasswordError {
    /// The stable code of the refusal, for the API's `{"error": CODE}`.
    pub fn code(&self) -> &'static str {
        match self {
            PasswordError::TooShort => "password_too_short",
            PasswordError::TooLong => "password_too_long",
        }
    }
}

impl std::fmt::Display for PasswordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PasswordError::TooShort => write!(f, "a password has at least {MIN_PASSWORD} characters"),
            PasswordError::TooLong => write!(f, "a password has at most {MAX_PASSWORD} characters"),
        }
    }
}

impl std::error::Error for PasswordError {}

/// Checks a new password's length: [`MIN_PASSWORD`] to [`MAX_PASSWORD`] characters (not
/// bytes). Any character is allowed, spaces too; there are no composition rules (NIST SP
/// 800-63B: length is what counts, and rules make people pick worse passwords).
pub fn check_password(pw: &str) -> Result<(), PasswordError> {
    let len = pw.chars().count();
    if len < MIN_PASSWORD {
        return Err(PasswordError::TooShort);
    }
    if len > MAX_PASSWORD {
        return Err(PasswordError::TooLong);
    }
    Ok(())
}

/// The hasher with this crate's parameters (Argon2id, version 0x13).
fn argon2() -> Argon2<'static> {
    let params =
        Params::new(ARGON2_M_KIB, ARGON2_T, ARGON2_P, None).expect("the documented Argon2 parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The bytes that are hashed: the password in NFKC (NIST SP 800-63B asks for a normalization
/// before hashing), so "ｐａｓｓ" typed on a full-width keyboard, or an "é" one system sends
/// decomposed and another precomposed, still verify.
fn prepared(pw: &str) -> String {
    pw.nfkc().collect()
}

/// Hashes a password: Argon2id with [`ARGON2_M_KIB`], [`ARGON2_T`] and [`ARGON2_P`], a
/// 16-byte salt from the operating system's random source, a 32-byte output, as a PHC string
/// (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, about 97 characters). The length rule is
/// [`check_password`]'s, not this function's.
pub fn hash_password(pw: &str) -> String {
    let mut salt = [0u8; SALT_LEN];
    getrandom::fill(&mut salt).expect("the operating system's random source works");
    argon2()
        .hash_password_with_salt(prepared(pw).as_bytes(), &salt)
        .expect("Argon2id hashes any password with a 16-byte salt")
        .to_string()
}

/// Whether `pw` is the password of the PHC string `phc` (with the parameters the string
/// names, so hashes made with older parameters still verify). False when `phc` is not an
/// Argon2id PHC string with a salt and a hash (that answer comes at once: a row without a
/// usable hash must go through [`verify_dummy`] to take the time a check takes).
pub fn verify_password(phc: &str, pw: &str) -> bool {
    let Ok(hash) = PasswordHash::new(phc) else {
        return false;
    };
    if hash.algorithm != argon2::ARGON2ID_IDENT {
        return false;
    }
    argon2().verify_password(prepared(pw).as_bytes(), &hash).is_ok()
}

/// Does the work of a real [`verify_password`] (the same parameters, a password nobody knows)
/// and throws the answer away: for a sign-in with a name that has no account, or an account
/// without a password, so that it takes as long as one with a wrong password.
pub fn verify_dummy(pw: &str) {
    std::hint::black_box(verify_password(std::hint::black_box(DUMMY_PHC), pw));
}

/// Whether a stored hash was made with other parameters (or another algorithm) than
/// [`hash_password`] uses now: after a successful sign-in the server may store
/// `hash_password(pw)` in its place. False for a string that does not parse (there is nothing
/// to upgrade from).
pub fn needs_rehash(phc: &str) -> bool {
    let Ok(hash) = PasswordHash::new(phc) else {
        return false;
    };
    let Ok(params) = Params::try_from(&hash) else {
        return false;
    };
    hash.algorithm != argon2::ARGON2ID_IDENT
        || hash.version != Some(Version::V0x13.into())
        || params.m_cost() != ARGON2_M_KIB
        || params.t_cost() != ARGON2_T
        || params.p_cost() != ARGON2_P
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn length_rule_counts_characters() {
        assert_eq!(check_password(""), Err(PasswordError::TooShort));
        assert_eq!(check_password("1234567"), Err(PasswordError::TooShort));
        assert_eq!(check_password("12345678"), Ok(()));
        assert_eq!(check_password("ääääääää"), Ok(())); // 8 characters, 16 bytes
        assert_eq!(check_password("äääääää"), Err(PasswordError::TooShort)); // 7 characters, 14 bytes
        assert_eq!(check_password(&"x".repeat(MAX_PASSWORD)), Ok(()));
        assert_eq!(check_password(&"x".repeat(MAX_PASSWORD + 1)), Err(PasswordError::TooLong));
        assert_eq!(check_password(&"é".repeat(MAX_PASSWORD)), Ok(()));
        assert_eq!(check_password("        "), Ok(())); // no composition rules
        assert_eq!(PasswordError::TooShort.code(), "password_too_short");
        assert_eq!(PasswordError::TooLong.code(), "password_too_long");
        assert_eq!(PasswordError::TooShort.to_string(), "a password has at least 8 characters");
        assert_eq!(PasswordError::TooLong.to_string(), "a password has at most 256 characters");
    }

    #[test]
    fn hash_then_verify() {
        let phc = hash_password("correct horse battery staple");
        assert!(verify_password(&phc, "correct horse battery staple"));
        assert!(!verify_password(&phc, "correct horse battery stapler"));
        assert!(!verify_password(&phc, "Correct horse battery staple"));
        assert!(!verify_password(&phc, ""));
        // A fresh salt each time: the same password never hashes to the same string.
        let again = hash_password("correct horse battery staple");
        assert_ne!(phc, again);
        assert!(verify_password(&again, "correct horse battery staple"));
    }

    #[test]
    fn the_phc_string_names_argon2id_and_the_documented_parameters() {
        let phc = hash_password("hunter2hunter2");
        let prefix = format!("$argon2id$v=19$m={ARGON2_M_KIB},t={ARGON2_T},p={ARGON2_P}$");
        assert!(phc.starts_with(&prefix), "{phc}");
        // The documented numbers themselves (OWASP's), not only whatever the constants say.
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        // Then a 16-byte salt and a 32-byte hash in unpadded B64.
        let rest: Vec<&str> = phc[prefix.len()..].split('$').collect();
        assert_eq!(rest.iter().map(|s| s.len()).collect::<Vec<_>>(), [22, 43], "{phc}");
        assert!(!needs_rehash(&phc));
    }

    #[test]
    fn input_is_normalized_before_hashing() {
        let phc = hash_password("café-password");
        assert!(verify_password(&phc, "cafe\u{301}-password")); // decomposed é
        let phc = hash_password("ｐａｓｓｗｏｒｄ"); // full width
        assert!(verify_password(&phc, "password"));
    }

    #[test]
    fn malformed_or_foreign_hashes_never_verify() {
        let good = hash_password("password1");
        for bad in [
            "",
            "password1",
            "$argon2id$",
            "$argon2id$v=19$m=19456,t=2,p=1$",
            &good[..good.len() - 10],          // truncated hash
            &good[..good.rfind('$').unwrap()], // no hash at all
            &good.replace("$argon2id$", "$scrypt$"),
            "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW", // bcrypt
        ] {
            assert!(!verify_password(bad, "password1"), "{bad:?}");
        }
        // A well-formed Argon2i hash of the very password: only Argon2id is accepted.
        let argon2i = Argon2::new(Algorithm::Argon2i, Version::V0x13, Params::new(ARGON2_M_KIB, 2, 1, None).unwrap())
            .hash_password_with_salt(b"password1", b"0123456789abcdef")
            .unwrap()
            .to_string();
        assert!(argon2i.starts_with("$argon2i$"), "{argon2i}");
        assert!(!verify_password(&argon2i, "password1"));
        assert!(needs_rehash(&argon2i));
    }

    #[test]
    fn older_parameters_still_verify_and_ask_for_a_rehash() {
        let weak = Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::new(8, 1, 1, None).unwrap())
            .hash_password_with_salt(b"password1", b"0123456789abcdef")
            .unwrap()
            .to_string();
        assert!(verify_password(&weak, "password1"));
        assert!(!verify_password(&weak, "password2"));
        assert!(needs_rehash(&weak));
        assert!(!needs_rehash("not a hash"));
    }

    /// The dummy hash is a real Argon2id PHC string with today's parameters: were the
    /// parameters raised and this string left, a wrong name would answer faster than a wrong
    /// password.
    #[test]
    fn the_dummy_hash_has_todays_parameters() {
        assert!(PasswordHash::new(DUMMY_PHC).is_ok());
        assert!(!needs_rehash(DUMMY_PHC), "{DUMMY_PHC}");
        assert!(!verify_password(DUMMY_PHC, ""));
        assert!(!verify_password(DUMMY_PHC, "password"));
        verify_dummy("password");
    }

    /// `verify_dummy` costs what a real check costs: medians of 5 runs each (interleaved, so
    /// a burst of load on the machine falls on both), within a factor of 2. The server's test
    /// of a wrong name against a wrong password holds them to 20%; this one only guards
    /// against the dummy doing much less (or much more) work.
    #[test]
    fn dummy_takes_the_time_of_a_real_check() {
        let phc = hash_password("the real password");
        let time = |f: &dyn Fn()| {
            let start = Instant::now();
            f();
            start.elapsed()
        };
        let (mut real, mut dummy): (Vec<Duration>, Vec<Duration>) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            real.push(time(&|| assert!(!verify_password(&phc, "a wrong password"))));
            dummy.push(time(&|| verify_dummy("a wrong password")));
        }
        real.sort();
        dummy.sort();
        let (real, dummy) = (real[2].as_secs_f64(), dummy[2].as_secs_f64());
        let ratio = dummy / real;
        assert!((0.5..=2.0).contains(&ratio), "dummy {dummy:.4} s, real {real:.4} s");
        // And both did Argon2id work with 19 MiB, not nothing (a malformed string answers in
        // microseconds).
        assert!(real > 0.002, "{real}");
    }
}
