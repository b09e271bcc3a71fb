//! A compact text notation for test setups and state summaries, so rule scenarios read as
//! data:
//!
//! ```text
//! active 2; testing; p1 magic 5; p1 hand Banish, Blizzard;
//! p1 board Bone Golem 1/2, Earth Elemental 4/3 @0 +Giant Strength; p1 ritual Dark Ritual 2;
//! p2 board Bone Golem 1/3; p2 grave Air Elemental 1/-3; p2 deck Air Elemental, Banish
//! ```
//!
//! Clauses (`;`-separated, any order): `active 1|2`, `turn N`, `limit N` (the turn limit of
//! [`crate::Config::turn_limit`]; none unless given), `testing`, and per player
//! `pN life L`, `pN magic M`, `pN hand CARDS`, `pN deck CARDS` (top first), `pN grave CARDS`
//! (bottom first, top last), `pN board MINIONS` (left to right), `pN ritual NAME CHARGES`.
//! A card is `Name` or `Name a/d` (a minion's own values); a minion is `Name [a/d] [@actions]
//! [+Enchantment ...]` (oldest enchantment first; 1 action unless `@N`). Unmentioned: 20
//! life, 3 magic, nothing anywhere, player 1 active on turn 1.
//!
//! [`Sorcery::summary`] prints the same clauses (board minions with their *current* values,
//! `(own a/d)` added when the own values differ; the deck as a count).

use crate::cards::CardId;
use crate::state::{Card, Minion, Player, Ritual, START_LIFE, START_MAGIC, Sorcery, Status};
use engine::{MatchRng, Seat};

fn card_name(text: &str) -> Result<CardId, String> {
    CardId::from_name(text.trim()).ok_or_else(|| format!("unknown card `{}`", text.trim()))
}

/// `Name` or `Name a/d`.
fn card(text: &str) -> Result<Card, String> {
    let text = text.trim();
    if let Some((name, stats)) = text.rsplit_once(' ')
        && let Some((a, d)) = stats.split_once('/')
        && let (Ok(a), Ok(d)) = (a.parse(), d.parse())
    {
        return Ok(Card { id: card_name(name)?, attack: a, defence: d });
    }
    Ok(Card::new(card_name(text)?))
}

fn minion(text: &str, uid: u32) -> Result<Minion, String> {
    let mut parts = text.split(" +");
    let mut head = parts.next().unwrap_or("").trim().to_string();
    let enchantments = parts.map(card_name).collect::<Result<Vec<_>, _>>()?;
    let mut actions = 1;
    if let Some((rest, n)) = head.rsplit_once(" @") {
        actions = n.parse().map_err(|_| format!("bad actions in `{text}`"))?;
        head = rest.to_string();
    }
    Ok(Minion { card: card(&head)?, uid, actions, enchantments, leaving: false })
}

fn list(text: &str) -> impl Iterator<Item = &str> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty())
}

fn empty_player() -> Player {
    Player {
        life: START_LIFE,
        magic: START_MAGIC,
        deck: Vec::new(),
        hand: Vec::new(),
        board: Vec::new(),
        ritual: None,
        graveyard: Vec::new(),
        removed: 0,
        created: 0,
        initial: 0,
    }
}

impl Sorcery {
    /// Builds a state from the notation above. Its cards count as the players' decks (for the
    /// conservation invariant).
    pub fn from_setup(text: &str) -> Result<Sorcery, String> {
        let mut g = Sorcery {
            testing: false,
            turn_limit: None,
            draw_when_stuck: false,
            players: [empty_player(), empty_player()],
            active: Seat(0),
            turn: 1,
            status: Status::Playing,
            next_uid: 1,
            rng: MatchRng::new(0),
            queue: engine::flow::EffectQueue::new(),
        };
        for clause in text.split(';').map(str::trim).filter(|c| !c.is_empty()) {
            let (key, rest) = clause.split_once(' ').unwrap_or((clause, ""));
            let rest = rest.trim();
            match key {
                "testing" => g.testing = true,
                "active" => g.active = player_seat(rest)?,
                "turn" => g.turn = rest.parse().map_err(|_| format!("bad turn `{rest}`"))?,
                "limit" => g.turn_limit = Some(rest.parse().map_err(|_| format!("bad turn limit `{rest}`"))?),
                "p1" | "p2" => {
                    let seat = player_seat(&key[1..])?;
                    let (what, value) = rest.split_once(' ').unwrap_or((rest, ""));
                    let num = |v: &str| v.trim().parse::<i32>().map_err(|_| format!("bad number in `{clause}`"));
                    match what {
                        "life" => g.players[seat.index()].life = num(value)?,
                        "magic" => g.players[seat.index()].magic = num(value)?,
                        "hand" => g.players[seat.index()].hand = list(value).map(card).collect::<Result<_, _>>()?,
                        "grave" => {
                            g.players[seat.index()].graveyard = list(value).map(card).collect::<Result<_, _>>()?;
                        }
                        "deck" => {
                            let mut d: Vec<Card> = list(value).map(card).collect::<Result<_, _>>()?;
                            d.reverse();
                            g.players[seat.index()].deck = d;
                        }
                        "board" => {
                            for m in list(value) {
                                let uid = g.next_uid;
                                g.next_uid += 1;
                                g.players[seat.index()].board.push(minion(m, uid)?);
                            }
                        }
                        "ritual" => {
                            let (name, charges) = value.rsplit_once(' ').ok_or("`ritual NAME CHARGES`")?;
                            g.players[seat.index()].ritual =
                                Some(Ritual { id: card_name(name)?, charges: num(charges)? });
                        }
                        _ => return Err(format!("unknown clause `{clause}`")),
                    }
                }
                _ => return Err(format!("unknown clause `{clause}`")),
            }
        }
        for p in &mut g.players {
            p.initial = p.card_count();
        }
        Ok(g)
    }

    /// The state in the notation above, one clause per fact.
    pub fn summary(&self) -> String {
        let cards = |cs: &mut dyn Iterator<Item = &Card>| {
            cs.map(|c| {
                if c.id.kind() == crate::cards::Kind::Minion {
                    format!("{} {}/{}", c.id.name(), c.attack, c.defence)
                } else {
                    c.id.name().to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
        };
        let mut out = vec![format!("active {}", self.active.0 + 1), format!("turn {}", self.turn)];
        match self.status {
            Status::Playing => {}
            Status::Won { winner } => out.push(format!("winner {}", winner.0 + 1)),
            Status::Drawn => out.push("drawn".into()),
        }
        for (i, p) in self.players.iter().enumerate() {
            let n = i + 1;
            out.push(format!("p{n} life {}", p.life));
            out.push(format!("p{n} magic {}", p.magic));
            out.push(format!("p{n} hand {}", cards(&mut p.hand.iter())));
            let board: Vec<String> = p
                .board
                .iter()
                .map(|m| {
                    let (a, d) = m.stats();
                    let mut s = format!("{} {a}/{d}", m.card.id.name());
                    if (a, d) != (m.card.attack, m.card.defence) {
                        s += &format!(" (own {}/{})", m.card.attack, m.card.defence);
                    }
                    s += &format!(" @{}", m.actions);
                    for e in &m.enchantments {
                        s += &format!(" +{}", e.name());
                    }
                    s
                })
                .collect();
            out.push(format!("p{n} board {}", board.join(", ")));
            out.push(match p.ritual {
                Some(r) => format!("p{n} ritual {} {}", r.id.name(), r.charges),
                None => format!("p{n} ritual none"),
            });
            out.push(format!("p{n} grave {}", cards(&mut p.graveyard.iter())));
            out.push(format!("p{n} deck {}", p.deck.len()));
        }
        out.iter().map(|c| c.trim_end()).collect::<Vec<_>>().join("; ")
    }
}

fn player_seat(s: &str) -> Result<Seat, String> {
    match s.trim() {
        "1" => Ok(Seat(0)),
        "2" => Ok(Seat(1)),
        other => Err(format!("bad player `{other}` (1 or 2)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Game;

    #[test]
    fn setup_round_trips_through_summary() {
        let g = Sorcery::from_setup(
            "active 2; p1 magic 5; p1 hand Banish, Earth Elemental 4/3; p1 board Bone Golem 1/2, \
             Earth Elemental 4/3 @0 +Giant Strength; p1 ritual Dark Ritual 2; p2 grave Air Elemental 1/-3; \
             p2 deck Air Elemental, Banish",
        )
        .unwrap();
        let s = g.summary();
        for fact in [
            "active 2",
            "p1 magic 5",
            "p1 hand Banish, Earth Elemental 4/3",
            "p1 board Bone Golem 1/2 @1, Earth Elemental 6/5 (own 4/3) @0 +Giant Strength",
            "p1 ritual Dark Ritual 2",
            "p2 grave Air Elemental 1/-3",
            "p2 deck 2",
        ] {
            assert!(s.split("; ").any(|c| c == fact), "{fact} not in {s}");
        }
        assert_eq!(g.check_invariants(), Ok(()));
        assert_eq!(g.player(Seat(1)).deck.last().map(|c| c.id), Some(CardId::AirElemental));
        assert!(Sorcery::from_setup("p3 life 2").is_err());
        assert!(Sorcery::from_setup("p1 hand Bombe").is_err());
    }
}
