//! People over HTTP, for the tests of every file: requests as the server's own page sends them
//! (its `Origin`, the session cookie), a guest, a member, and a room's WebSocket carrying a
//! session.

use super::Client;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

pub struct Resp {
    pub status: u16,
    /// The status line and headers, as sent.
    pub head: String,
    pub body: Value,
}

impl Resp {
    /// A header's value (the first, by case-insensitive name).
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }

    /// The session id the answer's `Set-Cookie` sets (`Some("")` when it clears it).
    pub fn session(&self) -> Option<String> {
        let c = self.header("set-cookie")?;
        let v = c.strip_prefix("ct_session=")?;
        Some(v.split(';').next().unwrap_or("").to_string())
    }
}

/// One HTTP request with the page's headers: `Origin` of the server itself (as a browser on
/// its page sends), the session cookie if given, JSON if there is a body.
pub async fn req(addr: &str, method: &str, path: &str, session: Option<&str>, body: Option<Value>) -> Resp {
    let origin = format!("http://{addr}");
    req_with(addr, method, path, session, body, &[("Origin", origin.as_str())]).await
}

pub async fn req_with(
    addr: &str,
    method: &str,
    path: &str,
    session: Option<&str>,
    body: Option<Value>,
    headers: &[(&str, &str)],
) -> Resp {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (n, v) in headers {
        head += &format!("{n}: {v}\r\n");
    }
    if let Some(id) = session {
        head += &format!("Cookie: other=1; ct_session={id}\r\n");
    }
    let body = body.map(|b| b.to_string());
    if let Some(b) = &body {
        if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("content-type")) {
            head += "Content-Type: application/json\r\n";
        }
        head += &format!("Content-Length: {}\r\n", b.len());
    } else if method != "GET" {
        head += "Content-Length: 0\r\n";
    }
    head += "\r\n";
    head += body.as_deref().unwrap_or("");
    s.write_all(head.as_bytes()).await.unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).await.unwrap();
    let (head, body) = resp.split_once("\r\n\r\n").unwrap_or((resp.as_str(), ""));
    let status: u16 = head[9..12].parse().unwrap();
    let start = body.find(['{', '[']).unwrap_or(0);
    let end = body.rfind(['}', ']']).map_or(body.len(), |e| e + 1);
    let body = serde_json::from_str(body.get(start..end).unwrap_or("")).unwrap_or(Value::Null);
    Resp { status, head: head.to_string(), body }
}

/// A new guest: its session id and name.
pub async fn guest(addr: &str) -> (String, String) {
    let r = req(addr, "POST", "/api/auth/guest", None, None).await;
    assert_eq!(r.status, 201, "{}", r.body);
    (r.session().unwrap(), r.body["account"]["name"].as_str().unwrap().to_string())
}

/// A new member `name`: its session id.
pub async fn member(addr: &str, name: &str, password: &str) -> String {
    let r = req(addr, "POST", "/api/auth/register", None, Some(json!({"name": name, "password": password}))).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.session().unwrap()
}

/// A WebSocket to room `room` carrying the session cookie.
pub async fn signed_client(addr: &str, room: &str, session: &str) -> Client {
    let mut request = format!("ws://{addr}/api/rooms/{room}/ws").into_client_request().unwrap();
    request.headers_mut().insert("cookie", format!("ct_session={session}").parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    Client { ws, seen: Vec::new(), closed: None }
}
