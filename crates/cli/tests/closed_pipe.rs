//! `cardtable … | head`: when the reader goes away, a command stops quietly (exit 0, nothing
//! on standard error) instead of panicking on the closed pipe.

use std::io::Read;
use std::process::{Command, Stdio};

/// Runs `cardtable ARGS` with its standard output closed by the reader before it writes.
fn run_with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardtable"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cardtable");
    // The reader leaves at once, as `head -0` would.
    drop(child.stdout.take());
    let mut err = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut err).expect("read stderr");
    (child.wait().expect("wait").code(), err)
}

#[test]
fn sim_stops_quietly_when_its_reader_goes_away() {
    for args in [
        &["sim", "buckshot", "--games", "3000", "--threads", "1"][..],
        &["sim", "ivanhoe", "--games", "300", "--threads", "1", "--json"][..],
    ] {
        let (code, err) = run_with_closed_stdout(args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?} wrote to stderr: {err}");
    }
}
