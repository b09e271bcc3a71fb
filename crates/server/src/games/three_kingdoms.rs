//! Three Kingdoms in a room, through the generic packets: a client sends
//! `{"type":"Act","action":<three_kingdoms::Action JSON>}` and hears
//! `{"type":"GameEvent","event":<three_kingdoms::Event JSON + "text">}`, where `text` is the
//! table's plain-English line for the event (`three_kingdoms::text::describe_event`: seats
//! named by username, the viewer's own as "you"), told from what that viewer may see. `GameDataSync` carries the engine's `view` for the viewer (own hand and
//! role, the Lord's and the dead's roles, public areas) and `legal`; the adapter adds per
//! player the public `general`, `kingdom`, `hp`, `maxHp`, `handCount`, `alive` and `role`
//! (known roles only), on top `currentTurn`, `phase`, `turn`, `responseSeconds`,
//! `chooseSeconds`, and for a seated viewer `distance` and `inRange` by seat.
//!
//! Clocks (room `gameOptions`): a response window (Dodge, Attack, Peach, Negate, ...) waits
//! `responseSeconds` (default [`RESPONSE`], [`FAST_RESPONSE`] at `"pace": "fast"`) for a
//! connected seat before answering `Pass`; the general choice and the other choices wait
//! `chooseSeconds` (default [`CHOOSE`], [`FAST_CHOOSE`] fast) before the engine's default
//! answer. A person who is not asked is not waited on: passed at a random moment 1-4 s in
//! (0.5-2 s fast), with the full clock shown, when they can only pass
//! ([`GameAdapter::only_passes`]), in the later windows of a trick they passed on as a whole
//! (`Act` with `forCard`), and in the windows on their own trick unless they asked for those
//! (`SetPrompts`; [`GameAdapter::pass_scope`]). At the fast pace bots wait at most
//! [`FAST_WINDOW_BOT_MS`] in a window. A Play phase has no clock for a connected person; a
//! disconnected one's turn goes to a stand-in bot after the room's turn timer, as in every
//! game.
//!
//! Every data function here reads only a view (`public_json` the spectator's, `private_json`
//! the viewer's), so nothing hidden can reach a packet through the adapter.

use crate::adapter::{Fields, GameAdapter, Pace, PacketError, PassScope, Table};
use engine::{Bot, DecisionKind, Seat, Viewer};
use protocol::ServerMsg;
use serde_json::Value;
use std::time::Duration;
use three_kingdoms::cards::Slot;
use three_kingdoms::text::skill_text;
use three_kingdoms::view::View;
use three_kingdoms::{Action, Config, Event, Skill, Step, ThreeKingdoms};

pub struct ThreeKingdomsAdapter;

/// How long a connected seat may think about a response window by default.
pub const RESPONSE: Duration = Duration::from_secs(15);
/// How long a connected seat may think about its general and other choices by default.
pub const CHOOSE: Duration = Duration::from_secs(30);
/// The response clock at the fast pace.
pub const FAST_RESPONSE: Duration = Duration::from_secs(8);
/// The choice clock at the fast pace.
pub const FAST_CHOOSE: Duration = Duration::from_secs(20);
/// At the fast pace: the most a bot waits in a window (the room's `botDelayMs` if shorter;
/// never less than a seated searching level may think there).
pub const FAST_WINDOW_BOT_MS: u64 = 300;
/// At the fast pace: when (ms into the window) the room passes for a person who is not asked.
pub const FAST_QUIET_PASS_MS: (u32, u32) = (500, 2_000);
/// The longest clock an option may set.
const MAX_SECONDS: u64 = 600;

/// How fast the room plays (`"pace"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speed {
    #[default]
    Normal,
    /// Shorter clocks and windows: see [`FAST_RESPONSE`] and the constants after it.
    Fast,
}

/// The room's game options: `{"responseSeconds": n, "chooseSeconds": n, "pace": "normal" |
/// "fast", "twoSpies": bool, "huaXiong": bool}`, each optional. A clock given in seconds
/// wins over the pace's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    pub response: Duration,
    pub choose: Duration,
    pub speed: Speed,
    pub two_spies: bool,
    pub hua_xiong: bool,
}

impl Options {
    pub fn parse(v: &Value) -> Result<Options, String> {
        let mut o =
            Options { response: RESPONSE, choose: CHOOSE, speed: Speed::Normal, two_spies: false, hua_xiong: false };
        let map = match v {
            Value::Null => return Ok(o),
            Value::Object(m) => m,
            _ => return Err("Three Kingdoms options are an object".into()),
        };
        if let Some(pace) = map.get("pace") {
            o.speed = match pace.as_str() {
                Some("normal") => Speed::Normal,
                Some("fast") => Speed::Fast,
                _ => return Err("`pace` is \"normal\" or \"fast\"".into()),
            };
            if o.speed == Speed::Fast {
                (o.response, o.choose) = (FAST_RESPONSE, FAST_CHOOSE);
            }
        }
        for (key, value) in map {
            match key.as_str() {
                "pace" => {}
                "responseSeconds" | "chooseSeconds" => {
                    let secs = value
                        .as_u64()
                        .filter(|s| (1..=MAX_SECONDS).contains(s))
                        .ok_or_else(|| format!("`{key}` is a number of seconds from 1 to {MAX_SECONDS}"))?;
                    if key == "responseSeconds" {
                        o.response = Duration::from_secs(secs);
                    } else {
                        o.choose = Duration::from_secs(secs);
                    }
                }
                "twoSpies" | "huaXiong" => {
                    let b = value.as_bool().ok_or_else(|| format!("`{key}` is true or false"))?;
                    if key == "twoSpies" {
                        o.two_spies = b;
                    } else {
                        o.hua_xiong = b;
                    }
                }
                other => {
                    return Err(format!(
                        "no option `{other}` (responseSeconds, chooseSeconds, pace, twoSpies, huaXiong)"
                    ));
                }
            }
        }
        Ok(o)
    }
}

/// The trick whose Negate window `seat` is asked in now: the tool card resolving (every
/// target, and the windows on the Negates played on it) or the delayed tool being judged.
/// Its key tells it from every other card used in the match (the turn, the user or the
/// judged seat, the card and its targets); `own` when the seat used it and a Negate from it
/// now would cancel it (no Negate, or an even number, played so far).
pub fn negate_scope(game: &ThreeKingdoms, seat: Seat) -> Option<PassScope> {
    use std::hash::{Hash, Hasher};
    use three_kingdoms::state::{Frame, Pending};
    if game.pending != Some(Pending::Ask { seat }) {
        return None;
    }
    let mut frames = game.stack.iter().rev();
    let Some(Frame::Negate { cancelled, .. }) = frames.next() else { return None };
    let mut h = std::collections::hash_map::DefaultHasher::new();
    game.turn.hash(&mut h);
    for f in frames {
        match f {
            Frame::Negate { .. } => continue,
            Frame::Tool(t) => {
                (0u8, t.user, t.used, &t.targets).hash(&mut h);
                return Some(PassScope { key: h.finish(), own: t.user == seat && !cancelled });
            }
            Frame::Delayed { seat: judged, card, .. } => {
                (1u8, *judged, *card).hash(&mut h);
                return Some(PassScope { key: h.finish(), own: false });
            }
            _ => return None,
        }
    }
    None
}

/// The name `gameData.phase` gives a step (also the `--log --json` prompt lines' `phase`).
pub fn step_name(s: Step) -> &'static str {
    match s {
        Step::LordChooses => "lordChooses",
        Step::OthersChoose => "othersChoose",
        Step::Start => "start",
        Step::Judgement => "judgement",
        Step::Draw => "draw",
        Step::Play => "play",
        Step::Discard => "discard",
        Step::End => "end",
        Step::Over(_) => "over",
    }
}

/// Rules §5.5 from what a view shows: seats counted over the living, ± horses, Horsemanship.
pub fn distance(v: &View, from: Seat, to: Seat) -> u8 {
    if from == to {
        return 0;
    }
    let n = v.players.len();
    let alive = |s: Seat| v.players[s.index()].alive;
    let mut steps: i32 = 0;
    let mut s = from;
    while s != to {
        s = Seat(((s.index() + 1) % n) as u8);
        if alive(s) {
            steps += 1;
        }
    }
    let total = v.players.iter().filter(|p| p.alive).count() as i32;
    let mut d = steps.min(total - steps);
    let p = &v.players[from.index()];
    if p.equip[Slot::MinusHorse.index()].is_some() {
        d -= 1;
    }
    if p.general.is_some_and(|g| g.skill_bits() & (1 << Skill::Horsemanship as u32) != 0) {
        d -= 1;
    }
    if v.players[to.index()].equip[Slot::PlusHorse.index()].is_some() {
        d += 1;
    }
    d.max(1) as u8
}

/// The seat's attack range: its weapon's, else 1.
pub fn attack_range(v: &View, s: Seat) -> u8 {
    v.players[s.index()].equip[Slot::Weapon.index()].map_or(1, |c| c.kind().range())
}

/// What every viewer sees alike, from the spectator's view.
pub fn public_json(v: &View, names: &[String], seats: &mut [Fields], top: &mut Fields) {
    for (fields, p) in seats.iter_mut().zip(&v.players) {
        fields
            .put("general", &p.general.map(|g| g.name()))
            .put("kingdom", &p.general.map(|g| g.def().kingdom))
            .put("hp", &p.hp)
            .put("maxHp", &p.max_hp)
            .put("handCount", &p.hand_count)
            .put("alive", &p.alive)
            .put("role", &p.role)
            .put("skills", &p.general.map(|g| g.def().skills.iter().map(|s| s.name()).collect::<Vec<_>>()))
            .put("skillTexts", &p.general.map(|g| g.def().skills.iter().map(|s| skill_text(*s)).collect::<Vec<_>>()));
    }
    let over = matches!(v.step, Step::Over(_));
    let current = (!over && !matches!(v.step, Step::LordChooses | Step::OthersChoose))
        .then(|| names.get(v.current.index()).map(String::as_str))
        .flatten();
    top.put("currentTurn", &current).put("phase", step_name(v.step)).put("turn", &v.turn);
}

/// What only a seated viewer sees besides its view: its distance to each seat and whether
/// each is within its attack range.
pub fn private_json(v: &View, top: &mut Fields) {
    let Some(me) = v.viewer else { return };
    let seats = (0..v.players.len()).map(|i| Seat(i as u8));
    let dist: Vec<u8> = seats.clone().map(|s| distance(v, me, s)).collect();
    let range = attack_range(v, me);
    let in_range: Vec<bool> =
        seats.map(|s| s != me && v.players[s.index()].alive && dist[s.index()] <= range).collect();
    top.put("distance", &dist).put("inRange", &in_range).put("attackRange", &range);
    if !v.candidates.is_empty() {
        let offered: Vec<Value> = v
            .candidates
            .iter()
            .map(|g| {
                let d = g.def();
                serde_json::json!({
                    "general": g, "name": d.name, "kingdom": d.kingdom, "hp": d.hp,
                    "skills": d.skills.iter().map(|s| s.name()).collect::<Vec<_>>(),
                    "skillTexts": d.skills.iter().map(|s| skill_text(*s)).collect::<Vec<_>>(),
                })
            })
            .collect();
        top.put("candidates", &offered);
    }
}

/// `GET /api/games/three-kingdoms/cards`: every card of the deck in id order, as
/// `{"id": 0, "name": "Duel", "suit": "Spade", "rank": 1, "kind": "Duel"}` (`kind` is the name
/// actions and events use; `name` the one people read).
pub fn cards_json() -> Value {
    three_kingdoms::CardId::all()
        .map(|c| {
            serde_json::json!({
                "id": c.0, "name": c.kind().name(), "suit": c.suit(), "rank": c.rank(), "kind": c.kind(),
            })
        })
        .collect()
}

/// The card table the web client (`web/games/three-kingdoms.js`) reads card ids with: one
/// `<suit><rank>:<Kind>` entry per card of the deck, in id order.
pub fn deck_table() -> String {
    use three_kingdoms::Suit;
    three_kingdoms::CardId::all()
        .map(|c| {
            let suit = match c.suit() {
                Suit::Spade => 'S',
                Suit::Heart => 'H',
                Suit::Club => 'C',
                Suit::Diamond => 'D',
            };
            let kind = serde_json::to_value(c.kind()).expect("kinds serialize");
            format!("{suit}{}:{}", c.rank(), kind.as_str().expect("a kind is a name"))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl GameAdapter for ThreeKingdomsAdapter {
    type G = ThreeKingdoms;
    const MIN_PLAYERS: usize = 4;
    const MAX_PLAYERS: usize = 10;
    // A turn starts with its event; the many response windows are not anyone's turn.
    const TURN_PACKETS_FROM_EVENTS: bool = true;

    fn config(players: usize, options: &Value) -> Result<Config, String> {
        if !(Self::MIN_PLAYERS..=Self::MAX_PLAYERS).contains(&players) {
            return Err(format!("Three Kingdoms is for 4 to 10 players, not {players}"));
        }
        let o = Options::parse(options)?;
        Ok(Config { two_spies: o.two_spies, hua_xiong: o.hua_xiong, ..Config::players(players as u8) })
    }

    fn bot_names() -> &'static [&'static str] {
        three_kingdoms::BOTS
    }

    fn make_bot(name: &str) -> Option<Box<dyn Bot<ThreeKingdoms>>> {
        three_kingdoms::bot(name)
    }

    fn decision_timeout(game: &ThreeKingdoms, _seat: Seat, kind: DecisionKind, options: &Value) -> Option<Duration> {
        let o = Options::parse(options).unwrap_or(Options::parse(&Value::Null).expect("defaults parse"));
        match kind {
            DecisionKind::Response => Some(o.response),
            DecisionKind::Simultaneous | DecisionKind::Choice => Some(o.choose),
            // The Lord's general choice is the only "turn" with a clock; a Play phase has none.
            DecisionKind::Turn => (game.step == Step::LordChooses).then_some(o.choose),
        }
    }

    /// A window where passing is all the seat can do (no Negate, Dodge or Peach to answer
    /// with): the room passes for them unasked, with the clock everyone sees unchanged.
    fn only_passes(game: &ThreeKingdoms, seat: Seat) -> bool {
        engine::Game::legal_actions(game, seat) == [Action::Pass]
    }

    const PASS_SCOPES: bool = true;

    /// A Negate window: "no Negate for this card" passes the rest of the trick; the windows
    /// on a seat's own trick are passed for it unless it asked for them.
    fn pass_scope(game: &ThreeKingdoms, seat: Seat) -> Option<PassScope> {
        negate_scope(game, seat)
    }

    fn pace(options: &Value) -> Pace {
        match Options::parse(options).map(|o| o.speed) {
            Ok(Speed::Fast) => Pace { quiet_pass_ms: FAST_QUIET_PASS_MS, window_bot_ms: Some(FAST_WINDOW_BOT_MS) },
            _ => Pace::NORMAL,
        }
    }

    fn parse_act(action: Value, _seat: Seat, names: &[String]) -> Result<Action, PacketError> {
        let action: Action = crate::adapter::action_from_json(action, "a Three Kingdoms action")?;
        let mut named: Vec<Seat> = Vec::new();
        match &action {
            Action::Use { targets, .. }
            | Action::UseSpear { targets, .. }
            | Action::Rouse { targets }
            | Action::Raid { targets } => named.extend(targets.iter()),
            Action::Benevolence { to, .. } | Action::Give { to, .. } | Action::Displace { to, .. } => named.push(*to),
            Action::SowDissension { target } | Action::Marriage { target, .. } | Action::GreenSalve { target, .. } => {
                named.push(*target)
            }
            Action::SeedOfAnimosity { first, second, .. } => named.extend([*first, *second]),
            _ => {}
        }
        if let Some(s) = named.into_iter().find(|s| s.index() >= names.len()) {
            return Err(PacketError::new(
                protocol::codes::UNKNOWN_PLAYER,
                format!("there is no seat {} in this game (seats 0 to {})", s.0, names.len().saturating_sub(1)),
            ));
        }
        Ok(action)
    }

    fn event_packets(event: &Event, viewer: Viewer, names: &[String], out: &mut Vec<String>) {
        if let Event::TurnStarted { seat, .. } = event {
            let username = names.get(seat.index()).cloned().unwrap_or_default();
            out.push(serde_json::to_string(&ServerMsg::TurnStart { username }).expect("packets serialize"));
        }
        let mut ev = serde_json::to_value(event).expect("events serialize");
        if let Value::Object(m) = &mut ev {
            let text = three_kingdoms::describe_event(event, viewer, names).unwrap_or_default();
            m.insert("text".into(), Value::String(text));
        }
        out.push(serde_json::to_string(&ServerMsg::GameEvent { event: ev }).expect("packets serialize"));
    }

    fn public_data(table: Option<&Table<'_, ThreeKingdoms>>, seats: &mut [Fields], top: &mut Fields) {
        let Some(table) = table else {
            top.put("currentTurn", &None::<&str>).put("phase", &None::<&str>);
            return;
        };
        public_json(table.view, table.names, seats, top);
    }

    fn private_data(table: &Table<'_, ThreeKingdoms>, top: &mut Fields) {
        if table.viewer.as_seat().is_some() {
            private_json(table.view, top);
        }
    }

    fn in_game(table: &Table<'_, ThreeKingdoms>, seat: Seat) -> bool {
        table.view.players.get(seat.index()).is_some_and(|p| p.alive)
    }

    fn unseated_player_fields(_lobby: bool, out: &mut Fields) {
        out.put("handCount", &0).put("alive", &false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Game;
    use serde_json::json;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("p{i}")).collect()
    }

    #[test]
    fn options_parse_with_clear_errors() {
        let o = Options::parse(&json!({"responseSeconds": 3, "twoSpies": true})).unwrap();
        assert_eq!((o.response, o.choose, o.two_spies, o.hua_xiong), (Duration::from_secs(3), CHOOSE, true, false));
        assert_eq!(Options::parse(&Value::Null).unwrap().response, RESPONSE);
        let fast = Options::parse(&json!({"pace": "fast"})).unwrap();
        assert_eq!((fast.response, fast.choose, fast.speed), (FAST_RESPONSE, FAST_CHOOSE, Speed::Fast));
        // A clock given in seconds wins over the pace's, in whichever order the keys come.
        let o = Options::parse(&json!({"responseSeconds": 3, "pace": "fast"})).unwrap();
        assert_eq!((o.response, o.choose), (Duration::from_secs(3), FAST_CHOOSE));
        assert_eq!(Options::parse(&json!({"pace": "normal"})).unwrap(), Options::parse(&Value::Null).unwrap());
        assert_eq!(ThreeKingdomsAdapter::pace(&json!({"pace": "fast"})).window_bot_ms, Some(FAST_WINDOW_BOT_MS));
        assert_eq!(ThreeKingdomsAdapter::pace(&Value::Null), Pace::NORMAL);
        for bad in [
            json!({"responseSeconds": 0}),
            json!({"chooseSeconds": "x"}),
            json!({"fast": 1}),
            json!(3),
            json!({"pace": "slow"}),
            json!({"pace": true}),
        ] {
            assert!(Options::parse(&bad).is_err(), "{bad}");
        }
        assert!(ThreeKingdomsAdapter::config(3, &Value::Null).is_err());
        assert!(ThreeKingdomsAdapter::config(11, &Value::Null).is_err());
        assert!(ThreeKingdomsAdapter::config(8, &json!({"twoSpies": true})).unwrap().two_spies);
    }

    #[test]
    fn packets_naming_missing_seats_are_refused() {
        let act = json!({"type": "Use", "card": 3, "kind": "Attack", "targets": [9]});
        let e = ThreeKingdomsAdapter::parse_act(act, Seat(0), &names(5)).unwrap_err();
        assert_eq!(e.code, "unknown_player");
        let act = json!({"type": "Respond", "card": 3, "kind": "Dodge"});
        assert!(ThreeKingdomsAdapter::parse_act(act, Seat(0), &names(5)).is_ok());
        for bad in [Value::Null, json!({"type": "Fly"})] {
            assert_eq!(ThreeKingdomsAdapter::parse_act(bad, Seat(0), &names(5)).unwrap_err().code, "bad_packet");
        }
    }

    #[test]
    fn distances_from_the_view_match_the_rules() {
        for seed in 0..20 {
            let mut g = ThreeKingdoms::new(&Config::players(7), seed).unwrap();
            let mut rng = engine::MatchRng::new(seed);
            let mut bots: Vec<_> = (0..7).map(|_| three_kingdoms::bot("random").unwrap()).collect();
            for _ in 0..400 {
                if g.outcome().is_some() {
                    break;
                }
                let v = g.view(Viewer::Spectator);
                // While generals are chosen they are secret (and nobody plays yet).
                let choosing = matches!(g.step, Step::LordChooses | Step::OthersChoose);
                for a in Seat::all(7).filter(|_| !choosing) {
                    for b in Seat::all(7) {
                        if g.alive(a) && g.alive(b) {
                            assert_eq!(distance(&v, a, b), g.distance(a, b), "seed {seed}: {a:?} to {b:?}");
                        }
                    }
                    assert_eq!(attack_range(&v, a), g.attack_range(a));
                }
                let seat = g.to_act().iter().next().unwrap();
                let legal = g.legal_actions(seat);
                let obs = engine::Observation::new(&g, seat, &legal);
                let a = bots[seat.index()].choose(&obs, &mut rng);
                g.apply(seat, a).unwrap();
            }
        }
    }

    /// The web client's copy of the deck is the deck, and the table the server serves.
    #[test]
    fn the_web_client_knows_every_card() {
        let js = include_str!("../../../../web/games/three-kingdoms.js");
        let line = format!("const DECK = '{}';", deck_table());
        assert!(js.contains(&line), "web/games/three-kingdoms.js needs the line\n{line}");
        let served = cards_json();
        let served = served.as_array().expect("a list");
        let from_js: Vec<&str> = line.trim_start_matches("const DECK = '").trim_end_matches("';").split(' ').collect();
        assert_eq!(served.len(), from_js.len());
        for (i, (card, entry)) in served.iter().zip(from_js).enumerate() {
            let suit = match card["suit"].as_str() {
                Some("Spade") => 'S',
                Some("Heart") => 'H',
                Some("Club") => 'C',
                Some("Diamond") => 'D',
                other => panic!("card {i}: suit {other:?}"),
            };
            assert_eq!(card["id"], i);
            assert_eq!(format!("{suit}{}:{}", card["rank"], card["kind"].as_str().unwrap()), entry, "card {i}");
        }
        assert_eq!(served[0], json!({"id": 0, "name": "Duel", "suit": "Spade", "rank": 1, "kind": "Duel"}));
    }

    #[test]
    fn events_carry_the_narrative_line() {
        let mut out = Vec::new();
        ThreeKingdomsAdapter::event_packets(
            &Event::TurnStarted { seat: Seat(2), turn: 4 },
            Viewer::Spectator,
            &names(5),
            &mut out,
        );
        assert_eq!(out[0], r#"{"type":"TurnStart","username":"p2"}"#);
        let v: Value = serde_json::from_str(&out[1]).unwrap();
        assert_eq!(v["event"]["text"], "Turn 4: p2's turn.");
    }
}
