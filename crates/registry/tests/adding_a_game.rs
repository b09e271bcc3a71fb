//! `docs/adding-a-game.md`, followed to the letter: a throwaway sixth game built from the
//! doc's own snippets, so the walkthrough cannot drift from the code it describes.
//!
//! Every fenced block of the doc whose info string names a file (```` ```rust file=PATH ````)
//! is written into a scratch copy of the workspace (under Cargo's per-test scratch directory):
//! the new game crate whole, and the registry (a copy of this crate) changed as the doc says.
//! A block's info string may add how it changes the file:
//!
//! - nothing: the block is the whole file;
//! - `in=[TABLE]`: its lines go into that TOML table, right after the table's header;
//! - `append`: its lines are added at the end;
//! - `replace`: it replaces the file's lines from one equal to the block's first line to the
//!   next one equal to its last line (the `games!` list).
//!
//! Then the new game's tests run and the changed registry builds: the test fails as soon as a
//! snippet stops compiling, a step is missing from the doc, or the doc's game breaks the
//! engine's contract. It runs a nested `cargo` offline, on the dependencies already
//! downloaded for this workspace (pinned by a copy of its `Cargo.lock`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One file-naming block of the doc.
#[derive(Debug)]
struct Snippet {
    file: String,
    how: How,
    text: String,
}

#[derive(Debug, PartialEq)]
enum How {
    Whole,
    InTable(String),
    Append,
    Replace,
}

fn snippets(doc: &str) -> Vec<Snippet> {
    let mut out = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else { continue };
        let mut words = info.split_whitespace();
        let _lang = words.next();
        let mut file = None;
        let mut how = How::Whole;
        for w in words {
            if let Some(f) = w.strip_prefix("file=") {
                file = Some(f.to_string());
            } else if let Some(t) = w.strip_prefix("in=") {
                how = How::InTable(t.to_string());
            } else if w == "append" {
                how = How::Append;
            } else if w == "replace" {
                how = How::Replace;
            } else {
                panic!("unknown word `{w}` in the info string `{info}`");
            }
        }
        let mut text = String::new();
        for l in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            text.push_str(l);
            text.push('\n');
        }
        if let Some(file) = file {
            out.push(Snippet { file, how, text });
        }
    }
    out
}

fn apply(root: &Path, s: &Snippet) {
    let path = root.join(&s.file);
    fs::create_dir_all(path.parent().expect("a file in a directory")).expect("mkdir");
    let old = || {
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (the doc edits a file that is not there)", s.file))
    };
    let new = match &s.how {
        How::Whole => s.text.clone(),
        How::Append => old() + &s.text,
        How::InTable(table) => {
            let old = old();
            let header = format!("{table}\n");
            let at = old.find(&header).unwrap_or_else(|| panic!("{}: no table {table}", s.file)) + header.len();
            format!("{}{}{}", &old[..at], s.text, &old[at..])
        }
        How::Replace => {
            let old = old();
            let first = s.text.lines().next().expect("a non-empty block");
            let last = s.text.lines().last().expect("a non-empty block");
            let lines: Vec<&str> = old.lines().collect();
            let from =
                lines.iter().position(|l| *l == first).unwrap_or_else(|| panic!("{}: no line `{first}`", s.file));
            let to = from + lines[from..].iter().position(|l| *l == last).expect("the block's last line");
            let mut v: Vec<String> = lines[..from].iter().map(|l| l.to_string()).collect();
            v.extend(s.text.lines().map(str::to_string));
            v.extend(lines[to + 1..].iter().map(|l| l.to_string()));
            v.join("\n") + "\n"
        }
    };
    fs::write(&path, new).expect("write");
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("mkdir");
    for e in fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() { copy_dir(&src, &dst) } else { fs::copy(&src, &dst).map(|_| ()).expect("copy") }
    }
}

fn cargo(root: &Path, args: &[&str]) {
    let status = Command::new(env!("CARGO"))
        .args(args)
        .args(["--offline", "--quiet"])
        .current_dir(root)
        .env("CARGO_TARGET_DIR", root.join("target"))
        .status()
        .expect("cargo runs");
    assert!(
        status.success(),
        "`cargo {}` failed in {}: the doc's snippets do not build",
        args.join(" "),
        root.display()
    );
}

#[test]
fn the_docs_sixth_game_builds_and_keeps_the_contract() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository");
    let doc = fs::read_to_string(repo.join("docs/adding-a-game.md")).expect("the doc");
    let snippets = snippets(&doc);
    assert!(snippets.iter().any(|s| s.file.ends_with("src/lib.rs")), "the doc names no crate files");

    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("adding-a-game");
    // Fresh sources every run (the scratch target directory is kept, so reruns are quick).
    let _ = fs::remove_dir_all(root.join("crates"));
    fs::create_dir_all(&root).expect("mkdir");
    // The workspace manifest: the new game and the registry copy are its members; every other
    // crate is this repository's own.
    let manifest = fs::read_to_string(repo.join("Cargo.toml")).expect("Cargo.toml");
    let members = manifest.lines().find(|l| l.starts_with("members = ")).expect("a members line");
    let manifest = manifest
        .replace(members, r#"members = ["crates/games/*", "crates/registry"]"#)
        .replace("path = \"crates/", &format!("path = \"{}/crates/", repo.display()))
        .replace(&format!("path = \"{}/crates/registry\"", repo.display()), "path = \"crates/registry\"");
    // Built unoptimized: the repository's profiles optimize every dependency for the long
    // suites, which here would cost CI minutes for a few tests of a tiny game.
    let profiles = manifest.find("\n[profile.").map_or(manifest.len(), |at| at + 1);
    let manifest = format!("{}[profile.dev]\nopt-level = 0\ndebug = false\n", &manifest[..profiles]);
    fs::write(root.join("Cargo.toml"), manifest).expect("write");
    fs::copy(repo.join("Cargo.lock"), root.join("Cargo.lock")).expect("Cargo.lock");
    fs::copy(repo.join("rustfmt.toml"), root.join("rustfmt.toml")).expect("rustfmt.toml");
    fs::create_dir_all(root.join("crates/registry")).expect("mkdir");
    fs::copy(repo.join("crates/registry/Cargo.toml"), root.join("crates/registry/Cargo.toml")).expect("copy");
    copy_dir(&repo.join("crates/registry/src"), &root.join("crates/registry/src"));
    // The registry compiles in the bot ladder's ratings.
    fs::create_dir_all(root.join("docs")).expect("mkdir");
    fs::copy(repo.join("docs/bot-ladder.md"), root.join("docs/bot-ladder.md")).expect("docs/bot-ladder.md");

    for s in &snippets {
        apply(&root, s);
    }
    let game = snippets
        .iter()
        .find_map(|s| s.file.strip_prefix("crates/games/")?.strip_suffix("/Cargo.toml"))
        .expect("the doc writes the game's Cargo.toml");
    cargo(&root, &["test", "-p", game]);
    cargo(&root, &["check", "-p", "registry"]);
}

#[test]
fn the_block_syntax_is_read_as_documented() {
    let doc =
        "text\n```rust file=a/b.rs\nfn x() {}\n```\n```toml file=C.toml in=[t]\nk = 1\n```\n```rust\nno file\n```\n";
    let s = snippets(doc);
    assert_eq!(s.len(), 2);
    assert_eq!((s[0].file.as_str(), &s[0].how, s[0].text.as_str()), ("a/b.rs", &How::Whole, "fn x() {}\n"));
    assert_eq!(s[1].how, How::InTable("[t]".into()));
}
