//! The web client, compiled into the binary: plain JavaScript modules and CSS, no build step.

pub struct Asset {
    pub path: &'static str,
    pub mime: &'static str,
    pub body: &'static str,
}

macro_rules! asset {
    ($path:literal, $mime:literal) => {
        Asset { path: $path, mime: $mime, body: include_str!(concat!("../../../web/", $path)) }
    };
}

pub const ASSETS: &[Asset] = &[
    asset!("index.html", "text/html; charset=utf-8"),
    asset!("style.css", "text/css; charset=utf-8"),
    asset!("app.js", "text/javascript; charset=utf-8"),
    asset!("client.js", "text/javascript; charset=utf-8"),
    asset!("dom.js", "text/javascript; charset=utf-8"),
    asset!("account.js", "text/javascript; charset=utf-8"),
    asset!("profile.js", "text/javascript; charset=utf-8"),
    asset!("quickplay.js", "text/javascript; charset=utf-8"),
    asset!("leaderboard.js", "text/javascript; charset=utf-8"),
    asset!("admin.js", "text/javascript; charset=utf-8"),
    asset!("report.js", "text/javascript; charset=utf-8"),
    asset!("games/buckshot.js", "text/javascript; charset=utf-8"),
    asset!("games/ivanhoe.js", "text/javascript; charset=utf-8"),
    asset!("games/sorcery.js", "text/javascript; charset=utf-8"),
    asset!("games/wolfpack.js", "text/javascript; charset=utf-8"),
    asset!("games/wolfpack.css", "text/css; charset=utf-8"),
    asset!("games/three-kingdoms.js", "text/javascript; charset=utf-8"),
    asset!("games/three-kingdoms.css", "text/css; charset=utf-8"),
];

pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}
