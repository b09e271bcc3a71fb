//! `cardtable sorcery -graphics`: the graphical display is the web client's Sorcery table in a
//! read-only "watch" mode. A small web server on 127.0.0.1 (its own thread and tokio runtime)
//! serves it; the terminal game, which runs synchronously on the main thread, hands it a JSON
//! snapshot after every line of input through a `watch` channel, and every open page redraws.
//! The text interface is untouched: the snapshot is built from the session, not from the text.

use serde_json::json;
use sorcery::session::Session;
use std::collections::VecDeque;
use std::net::SocketAddr;
use tokio::sync::watch;

/// How many lines of the terminal's narration the page shows.
const LOG_LINES: usize = 60;

pub struct Display {
    tx: watch::Sender<String>,
    url: String,
    seq: u64,
}

impl Display {
    /// Starts the web server on a free port of 127.0.0.1.
    pub fn start() -> Result<Display, String> {
        let (tx, rx) = watch::channel(String::from("{}"));
        let (addr_tx, addr_rx) = std::sync::mpsc::channel::<Result<SocketAddr, String>>();
        std::thread::Builder::new()
            .name("graphics".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = addr_tx.send(Err(format!("cannot start the display's runtime: {e}")));
                        return;
                    }
                };
                runtime.block_on(async move {
                    let listener = match tokio::net::TcpListener::bind("127.0.0.1:0").await {
                        Ok(l) => l,
                        Err(e) => {
                            let _ = addr_tx.send(Err(format!("cannot listen on 127.0.0.1: {e}")));
                            return;
                        }
                    };
                    let _ = addr_tx.send(listener.local_addr().map_err(|e| e.to_string()));
                    // Serves until the process ends with the game.
                    let _ =
                        server::watch::serve_watch(listener, "sorcery", "Sorcery", rx, std::future::pending()).await;
                });
            })
            .map_err(|e| format!("cannot start the display thread: {e}"))?;
        let addr = addr_rx.recv().map_err(|_| "the display thread stopped".to_string())??;
        Ok(Display { tx, url: format!("http://{addr}/"), seq: 0 })
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// Tries to open the page in a browser (xdg-open); failing is fine, the URL is printed.
    /// `CARDTABLE_NO_BROWSER=1` skips it (tests).
    pub fn open_browser(&self) {
        if std::env::var_os("CARDTABLE_NO_BROWSER").is_some_and(|v| !v.is_empty()) {
            return;
        }
        let child = std::process::Command::new("xdg-open")
            .arg(&self.url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if let Ok(mut child) = child {
            // Reaped in the background so it never lingers as a zombie.
            std::thread::spawn(move || {
                let _ = child.wait();
            });
        }
    }

    /// Sends the table as it is now to every open page.
    pub fn show(&mut self, session: &Session, log: &VecDeque<String>) {
        self.seq += 1;
        let seat = session.display_seat();
        let game = session.game();
        let view = engine::Game::view(game, engine::Viewer::seat(seat));
        let names = session.names();
        let snapshot = json!({
            "seq": self.seq,
            "names": names,
            "bots": [session.is_bot(engine::Seat(0)), session.is_bot(engine::Seat(1))],
            "named": names.iter().all(|n| !n.is_empty()),
            "handOf": seat.0,
            "over": session.is_over(),
            "view": view,
            "cards": server::games::sorcery::card_table(),
            "log": log,
        });
        self.tx.send_replace(snapshot.to_string());
    }
}

/// Keeps the last lines of narration for the page: what the terminal printed, without the
/// card drawings (`board`, `hand`, `inspect`), which the page draws itself.
pub fn keep_lines(log: &mut VecDeque<String>, text: &str) {
    for line in text.lines() {
        let drawing =
            line.starts_with(['|', '-']) || line.chars().next().is_some_and(|c| ('\u{2500}'..='\u{257f}').contains(&c));
        if drawing || line.trim().is_empty() {
            continue;
        }
        if log.len() == LOG_LINES {
            log.pop_front();
        }
        log.push_back(line.to_string());
    }
}
