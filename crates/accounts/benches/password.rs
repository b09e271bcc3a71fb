//! One password check's time with the chosen Argon2id parameters (m = 19,456 KiB, t = 2,
//! p = 1) on this machine: `cargo bench -p accounts`. Issue 42 asks for the figure; it is the
//! CPU a sign-in costs the server, and the time a wrong name costs too (`verify_dummy`).

use divan::Bencher;

const PASSWORD: &str = "correct horse battery staple";

fn main() {
    divan::main();
}

/// Hashing a new password (registration, password change): one Argon2id run and a salt.
#[divan::bench(sample_count = 30)]
fn hash_password(bencher: Bencher) {
    bencher.bench(|| accounts::hash_password(divan::black_box(PASSWORD)));
}

/// Checking a password at sign-in (the right one; a wrong one costs the same).
#[divan::bench(sample_count = 30)]
fn verify_password(bencher: Bencher) {
    let phc = accounts::hash_password(PASSWORD);
    bencher.bench(|| accounts::verify_password(divan::black_box(&phc), divan::black_box(PASSWORD)));
}

/// The stand-in check for a name without an account.
#[divan::bench(sample_count = 30)]
fn verify_dummy(bencher: Bencher) {
    bencher.bench(|| accounts::verify_dummy(divan::black_box(PASSWORD)));
}
