//! Ivanhoe in a room, through the generic packets: a client sends
//! `{"type":"Act","action":<ivanhoe::Action JSON>}` and hears
//! `{"type":"GameEvent","event":<ivanhoe::Event JSON + "text">}`, where `text` is a line for the
//! log with usernames ("ana plays Red 5."), written for that viewer (only the drawer reads which
//! card they drew). `GameDataSync` (whose common `seats` names the seats of `view`, `legal` and
//! events) adds `currentTurn`, `phase` and `reactionSeconds`, and per player
//! the public `handCount`, `tokens`, `total`, `shield`, `stunned`, `withdrawn`. `TurnStart`
//! comes with each turn's draw and `TurnEnd` with staying or withdrawing.
//!
//! Reaction windows are timed: a connected player asked about an action card (Ivanhoe or pass)
//! has [`REACTION`] before the engine's default (`Pass`) answers for them; everyone in the
//! tournament is asked, holder of Ivanhoe or not, so the clock tells nobody who holds it.

use crate::adapter::{Fields, GameAdapter, PacketError};
use engine::{Bot, DecisionKind, Game, Seat, Viewer};
use ivanhoe::{Action, Config, Event, Ivanhoe, PhaseView};
use protocol::ServerMsg;
use serde_json::Value;
use std::time::Duration;

pub struct IvanhoeAdapter;

/// How long a connected player may think about an action card before passing.
pub const REACTION: Duration = Duration::from_secs(15);
/// How long an owner may think about which copy to keep under Adapt.
pub const ADAPT_CHOICE: Duration = Duration::from_secs(30);

fn to_json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("packets serialize")
}

/// Every seat an action names, so a packet naming a seat that does not exist is refused
/// before it reaches the rules.
fn seats_named(a: &Action) -> Option<Seat> {
    a.target()
}

fn phase_name(p: &PhaseView) -> &'static str {
    match p {
        PhaseView::Start { .. } => "start",
        PhaseView::Turn { .. } => "turn",
        PhaseView::Window { .. } => "window",
        PhaseView::Adapt { .. } => "adapt",
        PhaseView::MaidenPenalty { .. } => "maidenPenalty",
        PhaseView::PurpleToken { .. } => "purpleToken",
        PhaseView::Over { .. } => "over",
    }
}

impl GameAdapter for IvanhoeAdapter {
    type G = Ivanhoe;
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = 5;
    // Turns are announced from the events (a turn starts with its draw and ends with staying
    // or withdrawing), so a reaction window is not announced as somebody's turn.
    const TURN_PACKETS_FROM_EVENTS: bool = true;

    fn config(players: usize, _options: &Value) -> Result<Config, String> {
        if !(Self::MIN_PLAYERS..=Self::MAX_PLAYERS).contains(&players) {
            return Err(format!("Ivanhoe is for 2 to 5 players, not {players}"));
        }
        Ok(Config { players: players as u8 })
    }

    fn bot_names() -> &'static [&'static str] {
        ivanhoe::BOTS
    }

    fn make_bot(name: &str) -> Option<Box<dyn Bot<Ivanhoe>>> {
        ivanhoe::bot(name)
    }

    fn decision_timeout(_game: &Ivanhoe, _seat: Seat, kind: DecisionKind, _options: &Value) -> Option<Duration> {
        match kind {
            DecisionKind::Response => Some(REACTION),
            // Which copy to keep under Adapt, which token to give back or take.
            DecisionKind::Choice => Some(ADAPT_CHOICE),
            DecisionKind::Turn | DecisionKind::Simultaneous => None,
        }
    }

    fn is_action_packet(kind: &str) -> bool {
        kind == "Act"
    }

    fn parse_action(packet: &str, _seat: Seat, names: &[String]) -> Result<Action, PacketError> {
        let action: Action = crate::adapter::parse_act(packet, "an Ivanhoe action")?;
        if let Some(s) = seats_named(&action)
            && s.index() >= names.len()
        {
            return Err(PacketError::new(
                protocol::codes::UNKNOWN_PLAYER,
                format!("there is no seat {} in this game (seats 0 to {})", s.0, names.len().saturating_sub(1)),
            ));
        }
        Ok(action)
    }

    fn event_packets(event: &Event, viewer: Viewer, names: &[String], out: &mut Vec<String>) {
        let name = |s: &Seat| names.get(s.index()).cloned().unwrap_or_default();
        let turn = match event {
            // The first draw is part of the deal, so the first turn starts with the token draw.
            Event::FirstPlayer { seat, .. } | Event::Drew { seat, .. } | Event::NothingToDraw { seat } => {
                Some(ServerMsg::TurnStart { username: name(seat) })
            }
            _ => None,
        };
        if let Some(t) = turn {
            out.push(serde_json::to_string(&t).expect("packets serialize"));
        }
        let mut ev = to_json(event);
        if let Value::Object(m) = &mut ev {
            let text = ivanhoe::text::describe_event(event, viewer, names).unwrap_or_default();
            m.insert("text".into(), Value::String(text));
        }
        out.push(serde_json::to_string(&ServerMsg::GameEvent { event: ev }).expect("packets serialize"));
        if let Event::Stayed { seat } | Event::Withdrew { seat } | Event::CannotStart { seat, .. } = event {
            out.push(serde_json::to_string(&ServerMsg::TurnEnd { username: name(seat) }).expect("packets serialize"));
        }
    }

    fn public_data(game: Option<&Ivanhoe>, names: &[String], seats: &mut [Fields], top: &mut Fields) {
        top.put("reactionSeconds", &REACTION.as_secs());
        let Some(game) = game else {
            top.put("currentTurn", &None::<&str>).put("phase", &None::<&str>);
            return;
        };
        // Everything here is public: hand sizes, not hands.
        let v = game.view(Viewer::Spectator);
        for (fields, p) in seats.iter_mut().zip(&v.players) {
            fields
                .put("handCount", &p.hand_count)
                .put("tokens", &p.tokens)
                .put("total", &p.total)
                .put("shield", &p.shield)
                .put("stunned", &p.stunned)
                .put("withdrawn", &p.withdrawn);
        }
        let current = match v.phase {
            PhaseView::Start { seat } | PhaseView::Turn { seat } => Some(names[seat.index()].as_str()),
            _ => None,
        };
        top.put("currentTurn", &current).put("phase", phase_name(&v.phase));
    }

    fn unseated_player_fields(_lobby: bool, out: &mut Fields) {
        out.put("handCount", &0).put("tokens", &[(); 0]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ivanhoe::{Card, Colour};
    use serde_json::json;

    fn names() -> Vec<String> {
        vec!["ana".into(), "ben".into()]
    }

    #[test]
    fn parses_generic_act_packets() {
        let p = json!({"type": "Act", "action": {"type": "Play", "card": "R3"}});
        assert_eq!(
            IvanhoeAdapter::parse_action(&p.to_string(), Seat(0), &names()),
            Ok(Action::Play { card: Card::Red3 })
        );
        let p = json!({"type": "Act", "action": {"type": "Unhorse", "colour": "red"}});
        assert_eq!(
            IvanhoeAdapter::parse_action(&p.to_string(), Seat(0), &names()),
            Ok(Action::Unhorse { colour: Colour::Red })
        );
        for bad in [
            json!({"type": "Act"}),
            json!({"type": "Act", "action": {"type": "Play", "card": "R9"}}),
            json!({"type": "Act", "action": {"type": "Fly"}}),
            json!({"type": "Act", "action": 5}),
        ] {
            let e = IvanhoeAdapter::parse_action(&bad.to_string(), Seat(0), &names()).unwrap_err();
            assert_eq!(e.code, "bad_packet", "{bad}");
        }
        let p = json!({"type": "Act", "action": {"type": "KnockDown", "target": 4}});
        assert_eq!(IvanhoeAdapter::parse_action(&p.to_string(), Seat(0), &names()).unwrap_err().code, "unknown_player");
    }

    #[test]
    fn events_carry_a_log_line_for_the_viewer() {
        let mut out = Vec::new();
        let e = Event::Drew { seat: Seat(0), card: Some(Card::Red5) };
        IvanhoeAdapter::event_packets(&e, Viewer::seat(Seat(0)), &names(), &mut out);
        assert_eq!(out[0], r#"{"type":"TurnStart","username":"ana"}"#, "a turn starts with its draw");
        let v: Value = serde_json::from_str(&out[1]).unwrap();
        assert_eq!(v["type"], "GameEvent");
        assert_eq!(v["event"]["type"], "Drew");
        assert_eq!(v["event"]["text"], "You drew Red 5.");
        out.clear();
        let e = Event::Declared { seat: Seat(1), action: Action::Unhorse { colour: Colour::Blue } };
        IvanhoeAdapter::event_packets(&e, Viewer::seat(Seat(0)), &names(), &mut out);
        let v: Value = serde_json::from_str(&out[0]).unwrap();
        assert_eq!(v["event"]["text"], "ben played Unhorse (to blue).");
    }
}
