//! `cardtable sorcery`: the Sorcery command-line game of the spec, with its single-dash
//! arguments (`-deck1 FILE -deck2 FILE -init FILE -testing -graphics`, plus `-seed N`,
//! `-unicode`, `-bot1 NAME`, `-bot2 NAME`). The game logic, the argument parser and the
//! transcript format all live in `sorcery::session`; this module only supplies the file
//! system, standard input, standard output and standard error, and with `-graphics` the live
//! web display of [`graphics`] (standard output stays exactly the same).

mod graphics;

use graphics::{Display, keep_lines};
use sorcery::session::{Io, Session, drive_watched};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

pub fn run(args: &[String]) -> anyhow::Result<ExitCode> {
    // Lines are read lazily, so each command is answered before the next is typed. Invalid
    // UTF-8 is replaced rather than ending the game.
    let stdin = std::io::stdin();
    let echo_input = !stdin.is_terminal();
    // What the page's log shows: the narration, and the commands typed at a terminal (piped
    // commands are echoed by the game itself).
    let log = RefCell::new(VecDeque::new());
    let mut lines = stdin.lock().split(b'\n').map_while(Result::ok).map(|bytes| {
        let mut line = String::from_utf8_lossy(&bytes).into_owned();
        if line.ends_with('\r') {
            line.pop();
        }
        if !echo_input {
            keep_lines(&mut log.borrow_mut(), &format!("> {line}"));
        }
        line
    });
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let graphics = sorcery::session::parse_args(args).is_ok_and(|a| a.graphics);
    let mut display = if graphics {
        match Display::start() {
            Ok(d) => {
                eprintln!("Graphics: the board is at {} (it follows the game live).", d.url());
                d.open_browser();
                Some(d)
            }
            Err(e) => {
                eprintln!("-graphics: {e}");
                None
            }
        }
    } else {
        None
    };
    let shown = display.is_some();
    let mut show = |session: &Session| {
        if let Some(d) = display.as_mut() {
            d.show(session, &log.borrow());
        }
    };
    let stdout = std::io::stdout();
    let mut stdout = stdout.lock();
    let code = drive_watched(
        args,
        seed,
        &mut lines,
        Io {
            read_file: &mut |path| std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}")),
            // A closed pipe (`| head`) must not crash the game; output is best effort.
            out: &mut |text| {
                if shown {
                    keep_lines(&mut log.borrow_mut(), text);
                }
                let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
            },
            err: &mut |text| eprint!("{text}"),
            echo_input,
        },
        if shown { Some(&mut show) } else { None },
    );
    Ok(ExitCode::from(code))
}
