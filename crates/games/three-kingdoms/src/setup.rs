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
    pub hand: Vec<&'static str>,
    pub equip: Vec<&'static str>,
    pub judge: Vec<&'static str>,
}

#[derive(Clone, Debug, Default)]
pub struct Scenario {
    pub seats: Vec<SeatSetup>,
    pub current: u8,
    /// The first card is the top of the draw pile.
    pub draw_top: Vec<&'static str>,
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
    pub fn hand(mut self, cards: &[&'static str]) -> Self {
        self.hand = cards.to_vec();
        self
    }
    pub fn equip(mut self, cards: &[&'static str]) -> Self {
        self.equip = cards.to_vec();
        self
    }
    /// Delayed tools, oldest first; a ♦ card written `"♦3 Dodge as Acedia"` is placed as Acedia.
    pub fn judge(mut self, cards: &[&'static str]) -> Self {
        self.judge = cards.to_vec();
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
    pub fn draw_top(mut self, cards: &[&'static str]) -> Self {
        self.draw_top = cards.to_vec();
        self
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
                    _ => (*spec, None),
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
        })
    }
}

/// The card a spec names, for tests (the first copy in the deck).
pub fn card(spec: &str) -> CardId {
    parse_card(spec, &[false; 108]).unwrap_or_else(|e| panic!("{e}"))
}
