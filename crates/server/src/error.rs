//! The server's one error type: what creating, restoring or storing a room can fail with.
//! (Refusals of a client's packet are not errors of the server: they are `ActionFailed`
//! packets with a stable code, see [`crate::adapter::PacketError`].)

/// Why the server could not create, restore or store a room. Each one's text is what a client
/// reads in the `{"error": …}` of a refused `POST /api/rooms`, or the log says of a room not
/// restored.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A room option out of its range, or game options the game refuses (the reason names
    /// the option).
    #[error("{0}")]
    BadOptions(String),
    /// A game name the registry does not know.
    #[error(transparent)]
    UnknownGame(#[from] registry::UnknownGame),
    /// A game in the registry that has no adapter in the server yet (its title).
    #[error("{0} cannot be played on the server yet")]
    NoAdapter(&'static str),
    /// A stored room that cannot be rebuilt (its id, and why).
    #[error("room {room}: {why}")]
    Restore { room: String, why: String },
    /// The database failed.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// Over one of the server's limits (rooms per address, live rooms): the reason to show.
    #[error("{0}")]
    Refused(String),
}

impl Error {
    /// A stored room that cannot be rebuilt.
    pub fn restore(room: &str, why: impl std::fmt::Display) -> Self {
        Error::Restore { room: room.to_string(), why: why.to_string() }
    }
}

/// An HTTP refusal with a stable code and a sentence: `{"error": code, "reason": sentence}`
/// (the accounts' routes and profiles).
pub(crate) fn fail(status: axum::http::StatusCode, code: &str, reason: impl Into<String>) -> axum::response::Response {
    use axum::response::IntoResponse;
    (status, axum::Json(serde_json::json!({ "error": code, "reason": reason.into() }))).into_response()
}

/// `503 store_unavailable` with `Retry-After: 1`, when the store cannot answer.
pub(crate) fn store_down(e: &store::StoreError) -> axum::response::Response {
    let mut r = fail(
        axum::http::StatusCode::SERVICE_UNAVAILABLE,
        "store_unavailable",
        format!("the database cannot be reached: {e}"),
    );
    r.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from_static("1"));
    r
}
