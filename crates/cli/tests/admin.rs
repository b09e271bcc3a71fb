//! Moderation from the terminal (`cardtable admin ...`) on a server's SQLite database, with the
//! server stopped (it holds its file while it runs): grant, ban, rooms, close, log, unban; and
//! what the server does with them when it starts again (the ban refuses sign-in, the room asked
//! closed is closed).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

/// Raw HTTP with the page's `Origin`: `(status, body)`.
fn request(addr: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    let (head, body) = resp.split_once("\r\n\r\n").unwrap_or((resp.as_str(), ""));
    (head[9..12].parse().unwrap(), body.to_string())
}

/// The server, killed when the test ends, passed or failed.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(db: &Path) -> (Server, String) {
    let mut server = Server(
        Command::new(env!("CARGO_BIN_EXE_cardtable"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the server"),
    );
    let mut line = String::new();
    let mut out = BufReader::new(server.0.stdout.take().unwrap());
    out.read_line(&mut line).unwrap();
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).expect("the URL line").to_string();
    (server, addr)
}

/// `cardtable admin ARGS --db DB`: (success, stdout, stderr).
fn admin(db: &Path, args: &[&str]) -> (bool, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_cardtable")).arg("admin").args(args).arg("--db").arg(db).output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn the_terminal_grants_bans_closes_and_logs_and_the_server_obeys_at_its_start() {
    let dir = std::env::temp_dir().join(format!("cardtable-admin-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("admin.db");
    let (server, addr) = serve(&db);
    let creds = r#"{"name":"Quinn","password":"a long enough password"}"#;
    let (status, body) = request(&addr, "POST", "/api/auth/register", Some(creds));
    assert_eq!(status, 200, "{body}");
    let (status, body) = request(&addr, "POST", "/api/rooms", Some(r#"{"game":"buckshot"}"#));
    assert_eq!(status, 201, "{body}");
    let room = serde_json::from_str::<serde_json::Value>(&body).unwrap()["id"].as_str().unwrap().to_string();
    // While the server runs, its SQLite file is its own: the terminal says so.
    let (ok, _, err) = admin(&db, &["grant", "quinn"]);
    assert!(!ok && err.contains("in use by a running server"), "{err}");
    drop(server);

    let (ok, out, err) = admin(&db, &["grant", "quinn"]);
    assert!(ok && out.contains("Quinn is an admin now"), "{out}{err}");
    let (ok, _, err) = admin(&db, &["grant", "nobody"]);
    assert!(!ok && err.contains("no account is called that"), "{err}");
    let (ok, out, err) = admin(&db, &["ban", "QUINN", "--reason", "testing bans", "--hours", "2"]);
    assert!(ok && out.contains("Quinn is banned until "), "{out}{err}");
    let (ok, out, _) = admin(&db, &["rooms", "--json"]);
    assert!(ok);
    let rooms: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rooms[0]["id"], room.as_str(), "{rooms}");
    assert_eq!(rooms[0]["game"], "buckshot");
    let (ok, out, err) = admin(&db, &["close", &room, "--message", "closed from the terminal"]);
    assert!(ok && out.contains("when it starts"), "{out}{err}");
    let (ok, _, err) = admin(&db, &["close", "nosuchroom", "--message", "x"]);
    assert!(!ok && err.contains("no room nosuchroom"), "{err}");
    let (ok, out, _) = admin(&db, &["log", "--json"]);
    assert!(ok);
    let log: serde_json::Value = serde_json::from_str(&out).unwrap();
    let actions: Vec<&str> = log.as_array().unwrap().iter().map(|r| r["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["close_room", "ban", "grant_admin"], "newest first: {log}");
    assert!(log.as_array().unwrap().iter().all(|r| r["admin"] == "(terminal)"), "{log}");
    assert!(log[1]["reason"].as_str().unwrap().ends_with(": testing bans"), "{log}");

    // The server, started again: the room asked closed is gone, the ban refuses sign-in.
    let (server, addr) = serve(&db);
    let (status, _) = request(&addr, "GET", &format!("/api/rooms/{room}"), None);
    assert_eq!(status, 404, "the close asked for was taken at the start");
    let (status, body) = request(&addr, "POST", "/api/auth/login", Some(creds));
    assert_eq!(status, 403, "{body}");
    let refusal: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(refusal["error"], "banned");
    assert!(refusal["until"].as_u64().is_some(), "{refusal}");
    drop(server);

    let (ok, out, _) = admin(&db, &["unban", "quinn"]);
    assert!(ok && out.contains("Quinn is not banned any more"), "{out}");
    let (server, addr) = serve(&db);
    let (status, body) = request(&addr, "POST", "/api/auth/login", Some(creds));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""admin":true"#), "{body}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
