//! A compact notation for test positions. One clause per line (or separated by `;`):
//!
//! ```text
//! pilots 2                       # how many (required, first)
//! ace plays 3 max 250            # the Ace's plays a turn and maximum health (optional)
//! p0 health 20 hand OpenFire,DodgeRoll
//! ace health 30 hand AirToAirBarrage,OpenFire*2
//! pilot deck OpenFire*5,CoverFire  # top card first
//! ace deck SweepingFire,OpenFire*9
//! ```
//!
//! The fight is in turn 1's Selection with exactly these hands, health and draw piles (both
//! discard piles empty); each deck's counts are what the position holds, so card conservation
//! holds from the start. Card names are parsed by [`Card::parse`]; `Card*n` repeats.

use crate::cards::{Card, Side};
use crate::config::{Config, DeckCounts};
use crate::state::WolfPack;

fn cards(list: &str) -> Result<Vec<Card>, String> {
    let mut out = Vec::new();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, n) = match item.split_once('*') {
            Some((name, n)) => match n.trim().parse::<usize>() {
                // A deck holds a few dozen cards: a count past 255 is a typo, not a position.
                Ok(n) if n <= 255 => (name, n),
                _ => return Err(format!("bad count in `{item}` (1 to 255)")),
            },
            None => (item, 1),
        };
        let c = Card::parse(name).ok_or_else(|| format!("unknown card `{name}`"))?;
        out.extend(std::iter::repeat_n(c, n));
    }
    Ok(out)
}

#[derive(Default)]
struct Who {
    health: Option<i32>,
    hand: Vec<Card>,
}

/// Reads `health H` and `hand LIST` pairs.
fn who(words: &[&str]) -> Result<Who, String> {
    let mut w = Who::default();
    let mut i = 0;
    while i < words.len() {
        let value = words.get(i + 1).ok_or_else(|| format!("`{}` needs a value", words[i]))?;
        match words[i] {
            "health" => w.health = Some(value.parse().map_err(|_| format!("bad health `{value}`"))?),
            "hand" => w.hand = cards(value)?,
            other => return Err(format!("unknown field `{other}`")),
        }
        i += 2;
    }
    Ok(w)
}

impl WolfPack {
    /// Which Ace policy plays this fight's Ace ([`crate::ace_bot`]); the rules do not depend
    /// on it, so a position from the notation can be flown against any tier.
    pub fn set_ace_tier(&mut self, tier: crate::AceTier) {
        self.config.ace_tier = tier;
    }

    /// A position from the notation above (see the module docs).
    pub fn from_setup(text: &str) -> Result<WolfPack, String> {
        // Comments first (to the end of their line, `;` in them included), then clauses.
        let clauses: Vec<Vec<&str>> = text
            .lines()
            .flat_map(|l| l.split('#').next().unwrap_or("").split(';'))
            .map(|c| c.split_whitespace().collect::<Vec<_>>())
            .filter(|w| !w.is_empty())
            .collect();
        let Some(["pilots", n]) = clauses.first().map(Vec::as_slice) else {
            return Err("the first clause must be `pilots N`".into());
        };
        let n: u8 = n.parse().map_err(|_| format!("bad pilot count `{n}`"))?;
        let mut config = Config::rules(n);
        let mut pilots: Vec<Who> = (0..n).map(|_| Who::default()).collect();
        let mut ace = Who::default();
        let (mut pilot_deck, mut ace_deck) = (Vec::new(), Vec::new());
        for c in &clauses[1..] {
            match c.as_slice() {
                ["pilot", "deck", list @ ..] => pilot_deck = cards(&list.concat())?,
                ["ace", "deck", list @ ..] => ace_deck = cards(&list.concat())?,
                ["ace", "plays", p, rest @ ..] => {
                    config.ace_plays = p.parse().map_err(|_| format!("bad plays `{p}`"))?;
                    if config.ace_plays == 0 || config.ace_plays > config.ace_hand {
                        return Err(format!("bad plays `{p}`: the Ace plays 1 to {} cards a turn", config.ace_hand));
                    }
                    if let ["max", m] = rest {
                        config.ace_health = m.parse().map_err(|_| format!("bad max `{m}`"))?;
                    }
                }
                ["ace", rest @ ..] => ace = who(rest)?,
                [p, rest @ ..] if p.starts_with('p') => {
                    let i: usize = p[1..].parse().map_err(|_| format!("bad clause `{}`", c.join(" ")))?;
                    *pilots.get_mut(i).ok_or_else(|| format!("no pilot {i}"))? = who(rest)?;
                }
                _ => return Err(format!("bad clause `{}`", c.join(" "))),
            }
        }
        let count = |list: &mut dyn Iterator<Item = Card>| {
            let mut d = DeckCounts([0; Card::COUNT]);
            for c in list {
                d.0[c as usize] += 1;
            }
            d
        };
        config.pilot_deck =
            count(&mut pilots.iter().flat_map(|p| p.hand.iter().copied()).chain(pilot_deck.iter().copied()));
        config.ace_deck = count(&mut ace.hand.iter().copied().chain(ace_deck.iter().copied()));
        for side in [Side::Pilots, Side::Ace] {
            let d = if side == Side::Pilots { &config.pilot_deck } else { &config.ace_deck };
            if let Some(c) = Card::ALL.iter().find(|&&c| d.count(c) > 0 && !c.allowed_for(side)) {
                return Err(format!("{} is not a {side:?} card", c.name()));
            }
        }
        // Setup needs decks big enough to deal from; the position then replaces what it dealt.
        let mut dealing = config;
        dealing.pilot_deck = crate::config::RULES_PILOT_DECK;
        dealing.ace_deck = crate::config::RULES_ACE_DECK;
        let mut g = WolfPack::setup(&dealing, 0, &mut Vec::new()).map_err(|e| e.to_string())?;
        g.config = config;
        for (i, w) in pilots.into_iter().enumerate() {
            let p = &mut g.pilots[i];
            p.hand = w.hand;
            p.health = w.health.unwrap_or(config.pilot_health);
        }
        g.ace.hand = ace.hand;
        g.ace.health = ace.health.unwrap_or(config.ace_health);
        pilot_deck.reverse();
        ace_deck.reverse();
        g.decks[0].draw = pilot_deck;
        g.decks[0].discard.clear();
        g.decks[1].draw = ace_deck;
        g.decks[1].discard.clear();
        g.resummarise();
        g.invariants()?;
        Ok(g)
    }
}
