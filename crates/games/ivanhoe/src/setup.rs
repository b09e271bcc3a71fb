//! A compact text notation for positions and scenario scripts, so rule tests are data.
//!
//! ## Positions
//! One statement per line, `#` starts a comment. Players are `P1`..`P5` (P1 is seat 0).
//! ```text
//! players 3            # 2..5 (default 3)
//! colour red           # the tournament colour, or `none` (default red)
//! previous purple      # the previous final colour (default none)
//! phase turn           # `turn` (default) or `start` (the active player must open)
//! active P1            # whose turn (default P1); they have already drawn
//! played no            # a card already played this turn (default no)
//! added 0              # cards already added to the display this turn
//! seed 7               # seeds the match RNG (reshuffles, Knock Down)
//! P2 display=R3,Sq2 hand=Y2,DODGE tokens=red,blue shield stunned withdrawn
//! draw R3,B2           # the draw pile, top card first
//! discard DODGE,R4     # the discard pile, bottom first
//! rest draw            # where unlisted cards go: draw (default, shuffled under `draw`),
//!                      # discard, or a player (P3)
//! ```
//! Card lists are comma-separated codes (`Pu3 R4 B2 Y3 G1 Sq2 Sq3 Md6 DODGE KNOCK_DOWN`), `-`
//! for none. The 110 cards are always all there: what is not listed goes to `rest`.
//!
//! ## Scenario scripts
//! Run by the engine's generic runner ([`engine::testing::scenario`], through [`Notation`]),
//! which also checks that accepted moves are legal actions and refused ones are not. A
//! position, then steps:
//! - `> P1 dodge P2 Sq2` — P1 enters a terminal command; it must be accepted;
//! - `> P1 dodge P2 Sq2 ! no_effect` — it must be refused with that code, changing nothing;
//! - `= P2 display=R3,R5 hand=... tokens=... shield|noshield stunned|nostunned withdrawn|in
//!   total=7 handcount=2` — checks the listed facts only;
//! - `= colour blue`, `= previous purple`, `= active P2`, `= phase window`, `= winner P1`,
//!   `= toact P2,P3`, `= allowed red,green`, `= tokenoptions red,blue`, `= supply blue 4`,
//!   `= discardtop DODGE,Sq2` (the top cards, any order), `= drawcount 12`,
//!   `= discardcount 0`, `= legalcount P1 1`, `= event CannotStart` / `= noevent Took` (in the last step's events).

use crate::action::{Action, Event};
use crate::cards::{Card, Colour, Colours, KINDS};
use crate::state::{Config, Hand, Ivanhoe, Phase, Player};
use crate::text::{self, parse_seat, seat_name};
use engine::testing::scenario;
use engine::{BySeat, Game, MatchRng, Seat, Viewer};

pub fn parse_cards(s: &str) -> Result<Vec<Card>, String> {
    if s == "-" || s.is_empty() {
        return Ok(Vec::new());
    }
    s.split(',').map(|c| Card::parse(c.trim()).ok_or_else(|| format!("unknown card `{c}`"))).collect()
}

pub fn parse_colours(s: &str) -> Result<Colours, String> {
    if s == "-" || s.is_empty() {
        return Ok(Colours::EMPTY);
    }
    s.split(',').map(|c| Colour::parse(c.trim()).ok_or_else(|| format!("unknown colour `{c}`"))).collect()
}

fn parse_colour_opt(s: &str) -> Result<Option<Colour>, String> {
    if s == "none" || s == "-" {
        return Ok(None);
    }
    Colour::parse(s).map(Some).ok_or_else(|| format!("unknown colour `{s}`"))
}

fn seat(s: &str) -> Result<Seat, String> {
    parse_seat(s).ok_or_else(|| format!("expected a player (P1..P5), got `{s}`"))
}

#[derive(Default)]
struct PlayerSpec {
    hand: Vec<Card>,
    display: Vec<Card>,
    tokens: Colours,
    shield: bool,
    stunned: bool,
    withdrawn: bool,
}

/// Builds a position from the notation above.
pub fn position(text: &str) -> Result<Ivanhoe, String> {
    let mut players = 3usize;
    let mut colour = Some(Colour::Red);
    let mut previous = None;
    let mut phase = Phase::Turn;
    let mut active = Seat(0);
    let mut played = false;
    let mut added = 0u8;
    let mut seed = 0u64;
    let mut specs: Vec<PlayerSpec> = (0..5).map(|_| PlayerSpec::default()).collect();
    let mut draw: Option<Vec<Card>> = None;
    let mut discard = Vec::new();
    let mut rest = "draw".to_string();
    for (no, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let ctx = |e: String| format!("line {}: {e}: `{line}`", no + 1);
        let mut words = line.split_whitespace();
        let head = words.next().expect("non-empty");
        let arg = words.clone().next().unwrap_or("");
        match head {
            "players" => players = arg.parse().map_err(|_| ctx("bad player count".into()))?,
            "colour" | "color" => colour = parse_colour_opt(arg).map_err(ctx)?,
            "previous" => previous = parse_colour_opt(arg).map_err(ctx)?,
            "phase" => {
                phase = match arg {
                    "turn" => Phase::Turn,
                    "start" => Phase::Start,
                    _ => return Err(ctx("phase is `turn` or `start`".into())),
                }
            }
            "active" => active = seat(arg).map_err(ctx)?,
            "played" => played = arg == "yes",
            "added" => added = arg.parse().map_err(|_| ctx("bad count".into()))?,
            "seed" => seed = arg.parse().map_err(|_| ctx("bad seed".into()))?,
            "draw" => draw = Some(parse_cards(arg).map_err(ctx)?),
            "discard" => discard = parse_cards(arg).map_err(ctx)?,
            "rest" => rest = arg.to_string(),
            p if parse_seat(p).is_some() => {
                let s = parse_seat(p).expect("checked");
                player_fields(&mut specs[s.index()], words).map_err(ctx)?;
            }
            _ => return Err(ctx("unknown statement".into())),
        }
    }
    if !(2..=5).contains(&players) {
        return Err(format!("{players} players: Ivanhoe is for 2 to 5"));
    }
    specs.truncate(players);
    let mut leftover = leftover_cards(&specs, draw.as_deref(), &discard)?;
    let mut rng = MatchRng::new(seed);
    let mut hands: Vec<Hand> = specs.iter().map(|sp| sp.hand.iter().copied().collect()).collect();
    // Internally the top of the draw pile is the last element.
    let mut draw_pile: Vec<Card> = draw.clone().unwrap_or_default();
    draw_pile.reverse();
    match rest.as_str() {
        "draw" => {
            rng.shuffle(&mut leftover);
            leftover.extend(draw_pile);
            draw_pile = leftover;
        }
        "discard" => {
            leftover.extend(discard);
            discard = leftover;
        }
        p => {
            let s = seat(p)?;
            if s.index() >= players {
                return Err(format!("rest: no {p}"));
            }
            for c in leftover {
                hands[s.index()].add(c);
            }
        }
    }
    let n = players;
    let players_state: BySeat<Player> = BySeat::from_fn(n, |s| {
        let sp = &specs[s.index()];
        Player { hand: hands[s.index()], display: sp.display.clone(), tokens: sp.tokens, withdrawn: sp.withdrawn }
    });
    let mut supply = [5u8; 5];
    for sp in &specs {
        for c in sp.tokens.iter() {
            supply[c.index()] -= 1;
        }
    }
    let who = |f: fn(&PlayerSpec) -> bool| specs.iter().position(f).map(|i| Seat(i as u8));
    if active.index() >= n {
        return Err(format!("active player P{} is not at the table", active.0 + 1));
    }
    if matches!(phase, Phase::Start) {
        colour = None;
    }
    let game = Ivanhoe {
        rng,
        draw: draw_pile,
        discard,
        players: players_state,
        shield: who(|s| s.shield),
        stunned: who(|s| s.stunned),
        supply,
        colour,
        previous,
        active,
        played,
        added,
        phase,
        windows: engine::flow::WindowStack::new(),
        tournaments: 0,
        opening: Vec::new(),
        decisions: engine::DecisionSerial::default(),
    };
    game.check_invariants().map_err(|e| format!("the position is impossible: {e}"))?;
    Ok(game)
}

/// A player's fields (`hand=`, `display=`, `tokens=`, `shield`, `stunned`, `withdrawn`).
fn player_fields<'a>(spec: &mut PlayerSpec, words: impl Iterator<Item = &'a str>) -> Result<(), String> {
    for w in words {
        match w.split_once('=') {
            Some(("hand", v)) => spec.hand = parse_cards(v)?,
            Some(("display", v)) => spec.display = parse_cards(v)?,
            Some(("tokens", v)) => spec.tokens = parse_colours(v)?,
            None if w == "shield" => spec.shield = true,
            None if w == "stunned" => spec.stunned = true,
            None if w == "withdrawn" => spec.withdrawn = true,
            _ => return Err(format!("unknown player field `{w}`")),
        }
    }
    Ok(())
}

/// Accounts for every card the position places; the cards it does not place, in deck order.
fn leftover_cards(specs: &[PlayerSpec], draw: Option<&[Card]>, discard: &[Card]) -> Result<Vec<Card>, String> {
    let mut left = Card::COPIES;
    let mut take = |c: Card, what: &str| -> Result<(), String> {
        let k = &mut left[c.index()];
        if *k == 0 {
            return Err(format!("too many {c} ({what}): the deck has {}", Card::COPIES[c.index()]));
        }
        *k -= 1;
        Ok(())
    };
    for (i, sp) in specs.iter().enumerate() {
        let who = format!("P{}", i + 1);
        for &c in sp.hand.iter().chain(&sp.display) {
            take(c, &who)?;
        }
        if sp.display.iter().any(|c| c.is_action()) {
            return Err(format!("{who}: action cards cannot be in a display"));
        }
        if sp.shield {
            take(Card::Shield, &who)?;
        }
        if sp.stunned {
            take(Card::Stunned, &who)?;
        }
    }
    for &c in draw.unwrap_or_default().iter().chain(discard) {
        take(c, "piles")?;
    }
    let mut leftover: Vec<Card> = Vec::new();
    for c in Card::ALL {
        for _ in 0..left[c.index()] {
            leftover.push(c);
        }
    }
    Ok(leftover)
}

/// Ivanhoe's scenario notation for [`engine::testing::scenario`]: the position above, moves
/// `P<k> <terminal command>`, and the checks of `expect` below.
pub struct Notation;

impl scenario::Notation for Notation {
    type G = Ivanhoe;

    fn setup(&self, text: &str) -> Result<Ivanhoe, String> {
        position(text)
    }

    fn parse_move(&self, game: &Ivanhoe, text: &str) -> Result<(Seat, Action), String> {
        let (who, command) = text.split_once(' ').ok_or("expected `P<k> <command>`")?;
        let s = seat(who)?;
        match text::parse_command(&game.view(Viewer::seat(s)), command) {
            Ok(text::Command::Act(a)) => Ok((s, a)),
            Ok(other) => Err(format!("not an action: {other:?}")),
            Err(e) => Err(e.to_string()),
        }
    }

    fn check(&self, game: &Ivanhoe, events: &[Event], fact: &str) -> Result<(), String> {
        expect(game, events, fact)
    }
}

/// Runs a scenario script (position, then `>` and `=` steps) with the generic runner; `Err`
/// says which step failed.
pub fn run_scenario(script: &str) -> Result<Ivanhoe, String> {
    scenario::run(&Notation, &scenario::Scenario::parse("scenario", script)?)
}

fn expect(game: &Ivanhoe, events: &[Event], check: &str) -> Result<(), String> {
    let mut words = check.split_whitespace();
    let head = words.next().unwrap_or("");
    let arg = words.clone().next().unwrap_or("");
    let eq = |what: &str, got: String, want: String| {
        if got == want { Ok(()) } else { Err(format!("{what}: got {got}, expected {want}")) }
    };
    match head {
        "colour" | "color" => eq("colour", format!("{:?}", game.colour), format!("{:?}", parse_colour_opt(arg)?)),
        "previous" => eq("previous", format!("{:?}", game.previous), format!("{:?}", parse_colour_opt(arg)?)),
        "active" => eq("active", seat_name(game.active), seat(arg).map(seat_name)?),
        "phase" => {
            let got = match game.phase {
                Phase::Window => "window",
                Phase::Start => "start",
                Phase::Turn => "turn",
                Phase::Adapt { .. } => "adapt",
                Phase::MaidenPenalty => "maiden",
                Phase::PurpleToken { .. } => "token",
                Phase::Over { .. } => "over",
            };
            eq("phase", got.into(), arg.into())
        }
        "winner" => eq("winner", format!("{:?}", game.outcome().map(|o| o.winners)), {
            let w = if arg == "none" { engine::SeatSet::EMPTY } else { engine::SeatSet::one(seat(arg)?) };
            format!("{:?}", Some(w))
        }),
        "toact" => {
            let want: Vec<String> = arg.split(',').filter(|s| !s.is_empty() && *s != "-").map(String::from).collect();
            eq("to act", game.to_act().iter().map(seat_name).collect::<Vec<_>>().join(","), want.join(","))
        }
        "allowed" => eq(
            "allowed colours",
            format!("{:?}", game.allowed_colours(game.active)),
            format!("{:?}", parse_colours(arg)?),
        ),
        "tokenoptions" => {
            let s = game.to_act().first().ok_or("nobody to act")?;
            let got: Colours = game
                .legal_actions(s)
                .into_iter()
                .filter_map(|a| match a {
                    Action::ChooseToken { colour } => Some(colour),
                    _ => None,
                })
                .collect();
            eq("token options", format!("{got:?}"), format!("{:?}", parse_colours(arg)?))
        }
        "supply" => {
            let c = Colour::parse(arg).ok_or("unknown colour")?;
            let want = words.nth(1).unwrap_or("");
            eq("supply", game.supply(c).to_string(), want.to_string())
        }
        "discardtop" => {
            let want = parse_cards(arg)?;
            let d = &game.discard;
            if d.len() < want.len() {
                return Err(format!("the discard pile has only {} cards", d.len()));
            }
            eq("top of the discard pile", counts(&d[d.len() - want.len()..]), counts(&want))
        }
        "drawcount" => eq("draw pile size", game.draw.len().to_string(), arg.into()),
        "legalcount" => {
            let s = seat(arg)?;
            let want = words.nth(1).unwrap_or("");
            eq("legal actions", game.legal_actions(s).len().to_string(), want.to_string())
        }
        "discardcount" => eq("discard pile size", game.discard.len().to_string(), arg.into()),
        "event" | "noevent" => {
            let found = events.iter().any(|e| event_name(e) == arg);
            if found == (head == "event") { Ok(()) } else { Err(format!("event {arg} found={found} in {events:?}")) }
        }
        p if parse_seat(p).is_some() => {
            let s = parse_seat(p).expect("checked");
            if s.index() >= game.num_players() {
                return Err(format!("no {p}"));
            }
            let pl = &game.players[s];
            for w in words {
                match w.split_once('=') {
                    Some(("hand", v)) => {
                        eq("hand", counts(&pl.hand.cards().collect::<Vec<_>>()), counts(&parse_cards(v)?))?
                    }
                    Some(("display", v)) => eq("display", list(&pl.display), list(&parse_cards(v)?))?,
                    Some(("tokens", v)) => {
                        eq("tokens", format!("{:?}", pl.tokens), format!("{:?}", parse_colours(v)?))?
                    }
                    Some(("total", v)) => eq("total", game.total(s).to_string(), v.into())?,
                    Some(("handcount", v)) => eq("hand size", pl.hand.len().to_string(), v.into())?,
                    None if w == "shield" => eq("shield", (game.shield == Some(s)).to_string(), "true".into())?,
                    None if w == "noshield" => eq("shield", (game.shield == Some(s)).to_string(), "false".into())?,
                    None if w == "stunned" => eq("stunned", (game.stunned == Some(s)).to_string(), "true".into())?,
                    None if w == "nostunned" => eq("stunned", (game.stunned == Some(s)).to_string(), "false".into())?,
                    None if w == "withdrawn" => eq("withdrawn", pl.withdrawn.to_string(), "true".into())?,
                    None if w == "in" => eq("withdrawn", pl.withdrawn.to_string(), "false".into())?,
                    _ => return Err(format!("unknown check `{w}`")),
                }
            }
            Ok(())
        }
        _ => Err(format!("unknown check `{head}`")),
    }
}

fn list(cards: &[Card]) -> String {
    if cards.is_empty() { "-".into() } else { cards.iter().map(|c| c.code()).collect::<Vec<_>>().join(",") }
}

fn counts(cards: &[Card]) -> String {
    let mut c = [0u8; KINDS];
    for k in cards {
        c[k.index()] += 1;
    }
    let v: Vec<String> =
        Card::ALL.into_iter().filter(|k| c[k.index()] > 0).map(|k| format!("{}x{}", c[k.index()], k.code())).collect();
    format!("[{}]", v.join(" "))
}

/// The serde tag of an event (`Drew`, `CannotStart`, ...).
pub fn event_name(e: &Event) -> &'static str {
    match e {
        Event::FirstPlayer { .. } => "FirstPlayer",
        Event::Drew { .. } => "Drew",
        Event::NothingToDraw { .. } => "NothingToDraw",
        Event::Reshuffled { .. } => "Reshuffled",
        Event::CannotStart { .. } => "CannotStart",
        Event::TournamentStarted { .. } => "TournamentStarted",
        Event::Played { .. } => "Played",
        Event::Declared { .. } => "Declared",
        Event::Passed { .. } => "Passed",
        Event::Cancelled { .. } => "Cancelled",
        Event::ColourChanged { .. } => "ColourChanged",
        Event::Discarded { .. } => "Discarded",
        Event::Moved { .. } => "Moved",
        Event::Retreated { .. } => "Retreated",
        Event::Took { .. } => "Took",
        Event::Swapped { .. } => "Swapped",
        Event::Placed { .. } => "Placed",
        Event::Kept { .. } => "Kept",
        Event::Stayed { .. } => "Stayed",
        Event::Withdrew { .. } => "Withdrew",
        Event::TokenReturned { .. } => "TokenReturned",
        Event::TournamentWon { .. } => "TournamentWon",
        Event::TokenGained { .. } => "TokenGained",
        Event::GameWon { .. } => "GameWon",
        Event::Stalled => "Stalled",
    }
}

/// A new match position with the default configuration, for doc examples and quick tests.
pub fn dealt(players: u8, seed: u64) -> Ivanhoe {
    Ivanhoe::new(&Config { players }, seed).expect("2..=5 players")
}
