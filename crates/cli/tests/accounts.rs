//! Accounts from outside the server: a run that signs people up and in writes no secret to its
//! log (no password, no session id, no session hash), and `cardtable users` / `cardtable user`
//! read the accounts and a profile from its database afterwards.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// Raw HTTP with the page's `Origin` and a session cookie: `(status, head, body)`.
fn request(addr: &str, method: &str, path: &str, session: Option<&str>, body: Option<&str>) -> (u16, String, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    let cookie = session.map(|id| format!("Cookie: ct_session={id}\r\n")).unwrap_or_default();
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    let (head, body) = resp.split_once("\r\n\r\n").unwrap_or((resp.as_str(), ""));
    (head[9..12].parse().unwrap(), head.to_string(), body.to_string())
}

/// The server, killed when the test ends, passed or failed.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn session_of(head: &str) -> String {
    let line = head.lines().find_map(|l| l.strip_prefix("set-cookie: ct_session=")).expect("a session cookie");
    line.split(';').next().unwrap().to_string()
}

/// SHA-256 of the session id as the store keeps it (hex), computed by the accounts crate.
fn hash(id: &str) -> String {
    accounts::hash_session_id(id)
}

#[test]
fn a_run_that_signs_people_in_logs_no_secret_and_the_cli_reads_its_accounts() {
    let dir = std::env::temp_dir().join(format!("cardtable-accounts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("accounts.db");
    let log = dir.join("server.log");
    let mut server = Server(
        Command::new(env!("CARGO_BIN_EXE_cardtable"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(&db)
            // Everything the server and its libraries say, down to debug.
            .env("RUST_LOG", "debug")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("start the server"),
    );
    let mut line = String::new();
    let mut out = BufReader::new(server.0.stdout.take().unwrap());
    out.read_line(&mut line).unwrap();
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).expect("the URL line").to_string();

    let password = "Tr0ub4dor&3-secret";
    let mut secrets = vec![password.to_string()];
    let (status, head, body) = request(&addr, "POST", "/api/auth/guest", None, None);
    assert_eq!(status, 201, "{body}");
    let guest = session_of(&head);
    secrets.push(guest.clone());
    let register = format!(r#"{{"name":"Quinn","password":"{password}"}}"#);
    let (status, head, body) = request(&addr, "POST", "/api/auth/register", Some(&guest), Some(&register));
    assert_eq!(status, 200, "{body}");
    secrets.push(session_of(&head));
    let (status, _, _) =
        request(&addr, "POST", "/api/auth/login", None, Some(r#"{"name":"quinn","password":"wrong-password"}"#));
    assert_eq!(status, 401);
    secrets.push("wrong-password".into());
    let (status, head, body) = request(&addr, "POST", "/api/auth/login", None, Some(&register));
    assert_eq!(status, 200, "{body}");
    let session = session_of(&head);
    secrets.push(session.clone());
    let (status, _, _) = request(&addr, "GET", "/api/me", Some(&session), None);
    assert_eq!(status, 200);
    let (status, _, _) = request(&addr, "POST", "/api/auth/logout", Some(&session), None);
    assert_eq!(status, 204);
    let (status, head, _) = request(&addr, "POST", "/api/auth/guest", None, None);
    assert_eq!(status, 201);
    secrets.push(session_of(&head));
    drop(server);

    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("signed in"), "the log was written at debug: {}", &text[..text.len().min(2000)]);
    let hashes: Vec<String> = secrets[1..].iter().filter(|s| s.len() == 43).map(|s| hash(s)).collect();
    for secret in secrets.iter().chain(&hashes) {
        assert!(!text.contains(secret.as_str()), "the log holds a secret ({} characters)", secret.len());
    }
    assert!(!text.contains("$argon2id$"), "the log holds a password hash");

    // The accounts and the profile, read from the database the server left.
    let users = Command::new(env!("CARGO_BIN_EXE_cardtable")).args(["users", "--db"]).arg(&db).output().unwrap();
    assert!(users.status.success(), "{}", String::from_utf8_lossy(&users.stderr));
    let users = String::from_utf8(users.stdout).unwrap();
    assert!(users.contains("Quinn") && users.contains("member"), "{users}");
    assert!(users.contains("guest-"), "{users}");
    assert!(users.contains("2 accounts"), "{users}");
    let user = Command::new(env!("CARGO_BIN_EXE_cardtable"))
        .args(["user", "QUINN", "--json", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(user.status.success(), "{}", String::from_utf8_lossy(&user.stderr));
    let profile: serde_json::Value = serde_json::from_slice(&user.stdout).unwrap();
    assert_eq!(profile["name"], "Quinn");
    assert_eq!(profile["guest"], false);
    let nobody =
        Command::new(env!("CARGO_BIN_EXE_cardtable")).args(["user", "nobody", "--db"]).arg(&db).output().unwrap();
    assert!(!nobody.status.success());
    assert!(String::from_utf8_lossy(&nobody.stderr).contains("nobody is called nobody"));
    let _ = std::fs::remove_dir_all(&dir);
}
