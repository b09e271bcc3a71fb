//! Golden transcripts of the terminal game: each `tests/sorcery_transcripts/**/NAME.args` holds the
//! command-line arguments (one line, as after `cardtable sorcery`); files it names (`-init`,
//! `-deck1`, `-deck2`, `default.deck`) are read from the same directory; `NAME.stdin`, if
//! present, is standard input. The expected standard output is `NAME.out`, the expected
//! standard error `NAME.err` (empty if absent), the expected exit code `NAME.code` (0 if
//! absent).
//!
//! Every expected output was checked by reading it against the spec and the rules
//! reference; the comments in each init file say what to look for. To rewrite them after an
//! intended change, run with `UPDATE_TRANSCRIPTS=1` and review the diff line by line.

use super::{Io, drive};
use std::path::{Path, PathBuf};

fn find(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("transcripts dir") {
        let p = entry.expect("entry").path();
        if p.is_dir() {
            find(&p, out);
        } else if p.extension().is_some_and(|e| e == "args") {
            out.push(p);
        }
    }
}

/// Runs one transcript; returns (stdout, stderr, exit code).
fn run(args_file: &Path) -> (String, String, u8) {
    let dir = args_file.parent().expect("parent").to_path_buf();
    let args: Vec<String> =
        std::fs::read_to_string(args_file).expect("args").split_whitespace().map(str::to_string).collect();
    let stdin = std::fs::read_to_string(args_file.with_extension("stdin")).unwrap_or_default();
    let mut lines = stdin.lines().map(str::to_string);
    let (mut out, mut err) = (String::new(), String::new());
    let code = drive(
        &args,
        // No test relies on this seed: shuffled games pass -seed.
        0,
        &mut lines,
        Io {
            read_file: &mut |name| std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}")),
            out: &mut |s| out.push_str(s),
            err: &mut |s| err.push_str(s),
            echo_input: true,
        },
    );
    (out, err, code)
}

#[test]
fn golden_transcripts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sorcery_transcripts");
    let mut files = Vec::new();
    find(&root, &mut files);
    files.sort();
    assert!(files.len() >= 20, "only {} transcripts found", files.len());
    let update = std::env::var_os("UPDATE_TRANSCRIPTS").is_some();
    let mut failures = Vec::new();
    for f in &files {
        let (out, err, code) = run(f);
        let name = f.strip_prefix(&root).unwrap().display().to_string();
        if update {
            std::fs::write(f.with_extension("out"), &out).unwrap();
            if err.is_empty() {
                let _ = std::fs::remove_file(f.with_extension("err"));
            } else {
                std::fs::write(f.with_extension("err"), &err).unwrap();
            }
            if code == 0 {
                let _ = std::fs::remove_file(f.with_extension("code"));
            } else {
                std::fs::write(f.with_extension("code"), format!("{code}\n")).unwrap();
            }
            continue;
        }
        let want_out = std::fs::read_to_string(f.with_extension("out")).unwrap_or_default();
        let want_err = std::fs::read_to_string(f.with_extension("err")).unwrap_or_default();
        let want_code: u8 =
            std::fs::read_to_string(f.with_extension("code")).map_or(0, |s| s.trim().parse().expect("code"));
        if out != want_out {
            let line = out.lines().zip(want_out.lines()).position(|(a, b)| a != b);
            failures.push(format!("{name}: stdout differs (first differing line: {line:?})\n--- got ---\n{out}"));
        }
        if err != want_err {
            failures.push(format!("{name}: stderr differs\n--- got ---\n{err}--- want ---\n{want_err}"));
        }
        if code != want_code {
            failures.push(format!("{name}: exit code {code}, expected {want_code}"));
        }
    }
    assert!(failures.is_empty(), "{} transcript(s) failed:\n{}", failures.len(), failures.join("\n"));
}
