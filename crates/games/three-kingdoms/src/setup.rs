//! Positions built by hand, for scenario tests and terminal play's `--init`: generals, roles,
//! HP, hands, equipment, judgement areas and the top of the draw pile, written compactly
//! (`"♠7 Attack"`, `"S7 Attack"`, `"HQ Peach"`). The current seat starts in its Play phase.

use crate::cards::{CardId, DECK, Kind, rank_name};
use crate::config::{Config, Role};
use crate::generals::General;
use crate::state::{Pending, Player, Ret, Step, ThreeKingdoms, TurnState};
use engine::{MatchRng, Seat};

/// One seat of a [`Scenario`].
#[derive(Clone, Debug)]
pub struct SeatSetup {
    pub general: General,
    pub role: Role,
    pub hp: Option<i8>,
    pub hand: Vec<String>,
    pub equip: Vec<String>,
    pub judge: Vec<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Scenario {
    pub seats: Vec<SeatSetup>,
    pub current: u8,
    /// The first card is the top of the draw pile.
    pub draw_top: Vec<String>,
    pub config: Config,
}

/// Parses `"♠7 Attack"` / `"S7 Attack"` / `"sk Ferghana Horse"` into the first matching card not
/// yet `taken`.
pub fn parse_card(spec: &str, taken: &[bool]) -> Result<CardId, String> {
    let spec = spec.trim();
    let mut chars = spec.chars();
    let suit = match chars.next().map(|c| c.to_ascii_uppercase()) {
        Some('♠' | 'S') => crate::cards::Suit::Spade,
        Some('♥' | 'H') => crate::cards::Suit::Heart,
        Some('♣' | 'C') => crate::cards::Suit::Club,
        Some('♦' | 'D') => crate::cards::Suit::Diamond,
        _ => return Err(format!("{spec}: no suit")),
    };
    let rest: String = chars.collect();
    let (rank_s, kind_s) =
        rest.trim_start().split_once(' ').ok_or_else(|| format!("{spec}: expected 'suit rank kind'"))?;
    let rank =
        (1..=13u8).find(|&r| rank_name(r).eq_ignore_ascii_case(rank_s)).ok_or_else(|| format!("{spec}: bad rank"))?;
    let key = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect::<String>();
    let kind_key = key(kind_s);
    (0..DECK.len())
        .find(|&i| {
            let d = &DECK[i];
            !taken[i] && d.suit == suit && d.rank == rank && key(d.kind.name()) == kind_key
        })
        .map(|i| CardId(i as u8))
        .ok_or_else(|| format!("{spec}: no such card left"))
}

impl SeatSetup {
    pub fn new(general: General, role: Role) -> Self {
        SeatSetup { general, role, hp: None, hand: Vec::new(), equip: Vec::new(), judge: Vec::new() }
    }
    pub fn hp(mut self, hp: i8) -> Self {
        self.hp = Some(hp);
        self
    }
    pub fn hand(mut self, cards: &[&str]) -> Self {
        self.hand = cards.iter().map(|c| c.to_string()).collect();
        self
    }
    pub fn equip(mut self, cards: &[&str]) -> Self {
        self.equip = cards.iter().map(|c| c.to_string()).collect();
        self
    }
    /// Delayed tools, oldest first; a ♦ card written `"♦3 Dodge as Acedia"` is placed as Acedia.
    pub fn judge(mut self, cards: &[&str]) -> Self {
        self.judge = cards.iter().map(|c| c.to_string()).collect();
        self
    }
}

impl Scenario {
    pub fn new(seats: Vec<SeatSetup>) -> Self {
        Scenario { config: Config::players(seats.len() as u8), seats, current: 0, draw_top: Vec::new() }
    }
    pub fn current(mut self, seat: u8) -> Self {
        self.current = seat;
        self
    }
    pub fn draw_top(mut self, cards: &[&str]) -> Self {
        self.draw_top = cards.iter().map(|c| c.to_string()).collect();
        self
    }

    /// Reads a position from text (terminal play's `--init FILE`), one directive a line, `#`
    /// starts a comment:
    ///
    /// ```text
    /// seat Lord CaoCao hp 3 | hand: ♠7 Attack, ♥3 Peach | equip: ♠6 Blue Steel Blade
    /// seat Rebel ZhaoYun | judge: ♠6 Acedia
    /// seat Loyalist GuanYu
    /// seat Spy LvBu
    /// current 0
    /// top: ♥2 Dodge, ♠8 Attack
    /// ```
    pub fn parse(text: &str) -> Result<Scenario, String> {
        let mut seats = Vec::new();
        let mut current = 0u8;
        let mut top = Vec::new();
        let list =
            |s: &str| s.split(',').map(str::trim).filter(|c| !c.is_empty()).map(String::from).collect::<Vec<_>>();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |m: &str| format!("line {}: {m}: {line}", n + 1);
            if let Some(rest) = line.strip_prefix("seat ") {
                let mut parts = rest.split('|');
                let head: Vec<&str> = parts.next().unwrap_or("").split_whitespace().collect();
                let role = match head.first().map(|r| r.to_ascii_lowercase()).as_deref() {
                    Some("lord") => Role::Lord,
                    Some("loyalist") => Role::Loyalist,
                    Some("rebel") => Role::Rebel,
                    Some("spy") => Role::Spy,
                    _ => return Err(err("a seat starts with its role")),
                };
                let general = head.get(1).and_then(|g| General::parse(g)).ok_or_else(|| err("unknown general"))?;
                let mut seat = SeatSetup::new(general, role);
                if let Some(i) = head.iter().position(|&w| w == "hp") {
                    seat.hp =
                        Some(head.get(i + 1).and_then(|h| h.parse().ok()).ok_or_else(|| err("hp needs a number"))?);
                }
                for part in parts {
                    let (key, cards) =
                        part.split_once(':').ok_or_else(|| err("expected 'hand:', 'equip:' or 'judge:'"))?;
                    match key.trim() {
                        "hand" => seat.hand = list(cards),
                        "equip" => seat.equip = list(cards),
                        "judge" => seat.judge = list(cards),
                        _ => return Err(err("expected 'hand:', 'equip:' or 'judge:'")),
                    }
                }
                seats.push(seat);
            } else if let Some(rest) = line.strip_prefix("current") {
                current = rest.trim().parse().map_err(|_| err("current needs a seat number"))?;
            } else if let Some(rest) = line.strip_prefix("top:") {
                top = list(rest);
            } else {
                return Err(err("unknown directive"));
            }
        }
        if !(4..=10).contains(&seats.len()) {
            return Err(format!("{} seats: Three Kingdoms is for 4 to 10", seats.len()));
        }
        if usize::from(current) >= seats.len() {
            return Err(format!("current seat {current} does not exist"));
        }
        let mut s = Scenario::new(seats);
        s.current = current;
        s.draw_top = top;
        s.build()?; // every card named exists once
        Ok(s)
    }

    /// The position, waiting on the current seat's Play phase.
    pub fn build(&self) -> Result<ThreeKingdoms, String> {
        let n = self.seats.len();
        if !(2..=10).contains(&n) {
            return Err("2 to 10 seats".into());
        }
        let mut taken = vec![false; DECK.len()];
        let mut take = |spec: &str| -> Result<CardId, String> {
            let c = parse_card(spec, &taken)?;
            taken[c.index()] = true;
            Ok(c)
        };
        let mut players = Vec::new();
        for s in &self.seats {
            let mut hp = s.general.def().hp as i8;
            if s.role == Role::Lord && n >= 5 {
                hp += 1;
            }
            let mut p = Player {
                general: Some(s.general),
                candidates: Vec::new(),
                role: s.role,
                revealed: s.role == Role::Lord,
                alive: true,
                hp: s.hp.unwrap_or(hp),
                max_hp: hp,
                hand: Vec::new(),
                equip: [None; 4],
                judge: Vec::new(),
            };
            for spec in &s.hand {
                p.hand.push(take(spec)?);
            }
            for spec in &s.equip {
                let c = take(spec)?;
                let slot = c.kind().slot().ok_or_else(|| format!("{spec} is not equipment"))?;
                p.equip[slot.index()] = Some(c);
            }
            for spec in &s.judge {
                let (spec, kind) = match spec.split_once(" as ") {
                    Some((a, "Acedia")) => (a, Some(Kind::Acedia)),
                    _ => (spec.as_str(), None),
                };
                let c = take(spec)?;
                p.judge.push((c, kind.unwrap_or(c.kind())));
            }
            players.push(p);
        }
        let mut top = Vec::new();
        for spec in &self.draw_top {
            top.push(take(spec)?);
        }
        let mut draw: Vec<CardId> = CardId::all().filter(|c| !taken[c.index()]).collect();
        draw.extend(top.iter().rev());
        let lord = Seat(self.seats.iter().position(|s| s.role == Role::Lord).unwrap_or(0) as u8);
        let current = Seat(self.current);
        let mut config = self.config.clone();
        config.players = n as u8;
        Ok(ThreeKingdoms {
            config,
            rng: MatchRng::new(7),
            players,
            draw,
            discard: Vec::new(),
            processing: Vec::new(),
            lord,
            current,
            turn: 1,
            step: Step::Play,
            ts: TurnState::default(),
            stack: Vec::new(),
            pending: Some(Pending::Play { seat: current }),
            ret: Ret::None,
            peek: None,
            decisions: Default::default(),
            hostility: vec![0; n],
            risk: 0,
        })
    }
}

/// The card a spec names, for tests (the first copy in the deck).
pub fn card(spec: &str) -> CardId {
    parse_card(spec, &[false; 108]).unwrap_or_else(|e| panic!("{e}"))
}
