//! A golden transcript of terminal play: a `Session` (the pure driver behind
//! `cardtable play ivanhoe`) fed a fixed list of commands, its output compared with
//! `tests/golden/session.txt`. Set `UPDATE_GOLDEN=1` to rewrite the file after a deliberate
//! change, and read the diff.

use engine::Seat;
use ivanhoe::text::Session;

const SEED: u64 = 7;
const COMMANDS: &[&str] = &[
    "help",
    "dance",
    "draw",
    "play 99",
    "change weapon blue",
    "start Sq2",
    "start purple 99",
    "start blue B2",
    "B3",
    "R3",
    "end",
    "dodge P2 B3",
    "Md6",
    "2",
    "B2",
    "end",
    "change weapon blue",
    "change weapon red",
    "R4",
    "3",
    "end",
    "quit",
];

fn transcript() -> String {
    let bots = vec!["heuristic".to_string(), "random".to_string()];
    let (mut session, opening) = Session::new(3, SEED, Seat(0), &bots).expect("session");
    let mut out = format!("# Ivanhoe, 3 players, seed {SEED}, you are P1\n{opening}");
    out.push_str(&session.advance());
    out.push_str(&session.render());
    for cmd in COMMANDS {
        if session.is_over() {
            break;
        }
        out.push_str(&format!("> {cmd}\n"));
        let (text, stop) = session.handle(cmd);
        out.push_str(&text);
        if stop {
            break;
        }
    }
    out
}

#[test]
fn golden_session() {
    let got = transcript();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/session.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &got).expect("write golden file");
        return;
    }
    let want = std::fs::read_to_string(path).expect("golden file (run with UPDATE_GOLDEN=1 to create it)");
    if got != want {
        let first = got.lines().zip(want.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "transcript differs from tests/golden/session.txt at line {}:\n got: {:?}\nwant: {:?}\n\nfull transcript:\n{got}",
            first + 1,
            got.lines().nth(first),
            want.lines().nth(first)
        );
    }
}

#[test]
fn bad_commands_change_nothing() {
    let bots = vec!["random".to_string()];
    let (mut session, _) = Session::new(3, 3, Seat(0), &bots).expect("session");
    session.advance();
    let before = session.game().clone();
    for cmd in ["dance", "play", "play 99", "dodge P9 1", "outwit", "token white", "keep", "start", "unhorse"] {
        let (text, stop) = session.handle(cmd);
        assert!(text.starts_with("? "), "{cmd}: {text}");
        assert!(!stop);
        assert!(*session.game() == before, "{cmd} changed the game");
    }
    let (text, stop) = session.handle("quit");
    assert!(stop && text.contains("Bye"));
}
