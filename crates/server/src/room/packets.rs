//! Reading a client's packet: its `type` once, then the room's own packets handled here and
//! the game's passed on to [`Room::on_action_packet`].

use super::handle::ConnId;
use super::persist::{change_refusal, store_refusal};
use super::play::ActionPacket;
use super::state::{Member, random_token};
use super::sync::{MAX_QUOTED_TYPE, clip};
use super::{Room, now_ms};
use crate::adapter::GameAdapter;
use protocol::{ChatMessage, ClientMsg, ServerMsg, codes};
use serde::Deserialize;

const CHAT_KEPT: usize = store::CHAT_KEPT;
pub(super) const BOT_NAMES: [&str; 12] =
    ["ana", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lou"];

impl<A: GameAdapter> Room<A> {
    pub(super) async fn on_text(&mut self, conn: ConnId, text: &str) {
        /// Just the packet's `type` (the rest is read by the packet's own type).
        #[derive(Deserialize)]
        struct Kind<'a> {
            #[serde(rename = "type", borrow)]
            kind: std::borrow::Cow<'a, str>,
        }
        let kind = match serde_json::from_str::<Kind<'_>>(text) {
            Ok(k) => k.kind,
            Err(e) if e.is_data() => {
                return self.fail(conn, codes::BAD_PACKET, "a packet needs a string field `type`");
            }
            Err(e) => return self.fail(conn, codes::BAD_PACKET, &format!("not valid JSON: {e}")),
        };
        if ClientMsg::TYPES.contains(&kind.as_ref()) {
            match serde_json::from_str::<ClientMsg>(text) {
                Ok(ClientMsg::Act { action, serial, for_card }) => {
                    self.on_action_packet(conn, ActionPacket::Act(action, for_card), serial).await
                }
                Ok(msg) => self.on_room_packet(conn, msg).await,
                Err(e) => self.fail(conn, codes::BAD_PACKET, &format!("bad {kind} packet: {e}")),
            }
        } else if A::is_action_packet(&kind) {
            self.on_own_action_packet(conn, text).await;
        } else {
            let kind = clip(&kind, MAX_QUOTED_TYPE);
            self.fail(conn, codes::BAD_PACKET, &format!("unknown packet type `{kind}`"));
        }
    }

    /// Why a host's lobby packet (`AddBot`, `RemoveBot`) is refused, if it is.
    fn lobby_host_only(&self, is_host: bool) -> Option<(&'static str, &'static str)> {
        if self.quick_lobby() {
            Some((codes::QUICK_TABLE, "quick play seats this table: its bots are chosen by the server"))
        } else if !is_host {
            Some((codes::NOT_HOST, "only the host may add or remove bots"))
        } else if self.current.is_some() {
            Some((codes::GAME_RUNNING, "bots are added and removed in the lobby, between games"))
        } else {
            None
        }
    }

    /// One of the game's own action packets (Buckshot's), with the optional `serial` every
    /// action packet may carry (as `Act` does): read here and taken out, since the game's
    /// packets refuse fields they do not know.
    async fn on_own_action_packet(&mut self, conn: ConnId, text: &str) {
        #[derive(Deserialize)]
        struct Serial {
            #[serde(default)]
            serial: Option<u64>,
        }
        match serde_json::from_str::<Serial>(text) {
            Err(e) => self.fail(conn, codes::BAD_PACKET, &format!("bad action packet: {e}")),
            Ok(Serial { serial: None }) => self.on_action_packet(conn, ActionPacket::Own(text), None).await,
            Ok(Serial { serial: Some(serial) }) => {
                let Ok(mut fields) = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text) else {
                    return self.fail(conn, codes::BAD_PACKET, "an action packet is a JSON object");
                };
                fields.remove("serial");
                let text = serde_json::Value::Object(fields).to_string();
                self.on_action_packet(conn, ActionPacket::Own(&text), Some(serial)).await;
            }
        }
    }

    pub(super) async fn on_room_packet(&mut self, conn: ConnId, msg: ClientMsg) {
        let me = self.conn_member(conn);
        let is_host = me.is_some_and(|i| self.host.as_deref() == Some(&self.members[i].username));
        match msg {
            ClientMsg::JoinGame { username } => self.join(conn, username).await,
            ClientMsg::Reconnect { token } => self.reconnect(conn, &token).await,
            ClientMsg::GameDataRequest => self.sync(conn),
            ClientMsg::LeaveGame => {
                let Some(i) = me else { return self.fail(conn, codes::NOT_JOINED, "you are not in this room") };
                let name = self.conns.get_mut(&conn).and_then(|c| c.member.take());
                self.members[i].conn = None;
                if let Err(e) = self.leave(i, true).await {
                    // Not stored, so not left: still a member, connected as before.
                    self.members[i].conn = Some(conn);
                    if let Some(c) = self.conns.get_mut(&conn) {
                        c.member = name;
                    }
                    return self.fail(conn, e.code(), &store_refusal(&e));
                }
                self.sync(conn);
            }
            ClientMsg::SetHost { username } => {
                if !is_host {
                    return self.fail(conn, codes::NOT_HOST, "only the host may hand the host role on");
                }
                match self.member_index(&username) {
                    Some(j) if self.members[j].bot.is_none() => {
                        let before = self.host.replace(self.members[j].username.clone());
                        // Stored before anyone hears of it: refused, the host stays who it was.
                        if let Err(e) = self.try_save().await {
                            tracing::error!(room = %self.id, "saving a host change failed, it is refused: {e}");
                            self.host = before;
                            self.refresh_derived();
                            return self.fail(conn, e.code(), &change_refusal(&e, "the host was not changed"));
                        }
                        self.broadcast(&ServerMsg::HostSet { username: self.host.clone() });
                        self.sync_all();
                    }
                    _ => self.fail(conn, codes::UNKNOWN_PLAYER, &format!("{username} is not a person in this room")),
                }
            }
            ClientMsg::StartGame => {
                if !is_host {
                    return self.fail(conn, codes::NOT_HOST, "only the host may start the game");
                }
                if self.current.is_some() {
                    return self.fail(conn, codes::GAME_RUNNING, "the game has started already");
                }
                if self.quick_lobby() {
                    return self.fail(
                        conn,
                        codes::QUICK_TABLE,
                        "this quick-play game starts by itself once everyone is in",
                    );
                }
                self.start(Some(conn)).await;
            }
            ClientMsg::SendNewChatMessage { message } => {
                let Some(i) = me else { return self.fail(conn, codes::NOT_JOINED, "join the room to chat") };
                if let Err(reason) = protocol::check_chat(&message) {
                    return self.fail(conn, codes::BAD_MESSAGE, &reason);
                }
                let player = self.player_json(i);
                let msg = ChatMessage { message, player, timestamp: now_ms() };
                // A line is one insert in the store's chat table, not a rewrite of the room.
                // Stored before anyone reads it, as a move: refused by the store, the line is
                // not said (the sender hears why) and the chat is as before.
                let line = serde_json::to_string(&msg).expect("chat serializes");
                if let Err(e) = self.store.append_chat(&self.id, line).await {
                    self.note_store_error(&e);
                    tracing::error!(room = %self.id, "saving a chat line failed, the line is refused: {e}");
                    let reason = match e {
                        store::StoreError::Lost(_) => store_refusal(&e),
                        _ => "the message was not sent: the server cannot reach its database right now; try again in a moment"
                            .to_string(),
                    };
                    return self.fail(conn, e.code(), &reason);
                }
                self.chat.push(msg.clone());
                if self.chat.len() > CHAT_KEPT {
                    self.chat.remove(0);
                }
                self.room_fields.lock().expect("room fields lock").take();
                self.broadcast(&ServerMsg::NewChatMessageSent {
                    message: msg.message,
                    player: msg.player,
                    timestamp: msg.timestamp,
                });
            }
            ClientMsg::AddBot { bot } => {
                if let Some((code, reason)) = self.lobby_host_only(is_host) {
                    return self.fail(conn, code, reason);
                }
                let kind = bot.unwrap_or_else(|| crate::adapter::STAND_IN_LEVEL.to_string());
                if A::bot(&kind).is_none() {
                    return self.fail(
                        conn,
                        codes::UNKNOWN_BOT,
                        &format!(
                            "unknown bot `{kind}` (levels: {:?}; bots: {:?})",
                            search::Level::NAMES,
                            A::bot_names()
                        ),
                    );
                }
                if self.players_in_lobby() >= A::MAX_PLAYERS {
                    return self.fail(conn, codes::TOO_MANY_PLAYERS, &format!("at most {} players", A::MAX_PLAYERS));
                }
                let Some(name) = BOT_NAMES.iter().map(|n| format!("bot-{n}")).find(|n| self.member_index(n).is_none())
                else {
                    return self.fail(conn, codes::TOO_MANY_PLAYERS, "no more bot names");
                };
                let token = random_token();
                self.members.push(Member {
                    username: name,
                    token,
                    join_time: now_ms(),
                    bot: Some(kind),
                    spectator: false,
                    conn: None,
                    dropped_at: None,
                    account: None,
                    own_cards: false,
                });
                // Stored before anyone hears of it: refused, there is no bot.
                if let Err(e) = self.try_save().await {
                    tracing::error!(room = %self.id, "saving an added bot failed, it is refused: {e}");
                    self.members.pop();
                    self.refresh_derived();
                    return self.fail(conn, e.code(), &change_refusal(&e, "the bot was not added"));
                }
                let idx = self.members.len() - 1;
                self.broadcast(&ServerMsg::PlayerJoined { player: self.player_json(idx) });
                self.sync_all();
            }
            ClientMsg::RemoveBot { username } => {
                if let Some((code, reason)) = self.lobby_host_only(is_host) {
                    return self.fail(conn, code, reason);
                }
                match self.member_index(&username) {
                    Some(j) if self.members[j].bot.is_some() => {
                        if let Err(e) = self.leave(j, true).await {
                            self.fail(conn, e.code(), &store_refusal(&e));
                        }
                    }
                    _ => self.fail(conn, codes::UNKNOWN_PLAYER, &format!("{username} is not a bot in this room")),
                }
            }
            ClientMsg::Autopilot { level, noise } => {
                let Some(i) = me else { return self.fail(conn, codes::NOT_JOINED, "join the room first") };
                if !self.allow_autopilot {
                    return self.fail(conn, codes::NO_AUTOPILOT, "this server does not let bots play for people");
                }
                if A::bot(&level).is_none() || !(0.0..=1.0).contains(&noise) {
                    let reason = format!("unknown level `{level}`, or noise {noise} outside 0 to 1");
                    return self.fail(conn, codes::NO_AUTOPILOT, &reason);
                }
                self.autopilot.insert(self.members[i].username.clone(), (level, noise));
            }
            ClientMsg::SetPrompts { own_cards } => {
                let Some(i) = me else { return self.fail(conn, codes::NOT_JOINED, "join the room first") };
                if self.members[i].bot.is_some() || self.members[i].own_cards == own_cards {
                    return self.sync(conn);
                }
                self.members[i].own_cards = own_cards;
                // Stored before it counts, as every change of a member: refused, it is as before.
                if let Err(e) = self.try_save().await {
                    tracing::error!(room = %self.id, "saving a prompt setting failed, it is refused: {e}");
                    self.members[i].own_cards = !own_cards;
                    self.refresh_derived();
                    return self.fail(conn, e.code(), &change_refusal(&e, "the setting was not changed"));
                }
                // The room may pass for them now, or no longer: its clocks are worked out again
                // at the next turn of its loop; their page hears the setting.
                self.sync(conn);
            }
            // Handled in `on_text`, which passes the packet's text on to the game.
            ClientMsg::Act { .. } => {}
        }
    }
}
