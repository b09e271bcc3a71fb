//! What a viewer may know (rules decision 12): everything on the table, the EffectFile with
//! its countdowns, who has confirmed; the pilots' hands (to pilots and spectators, not to the
//! Ace); a pilot's choice only to that pilot until Selection ends; the Ace's hand and its
//! picks only to the Ace until they resolve. `determinize` resamples exactly what is left out.

use crate::action::{Action, Choice, Event};
use crate::cards::{Card, Side};
use crate::config::AceTier;
use crate::effect::Effect;
use crate::phase::Phase;
use crate::state::WolfPack;
use engine::{MatchRng, Seat, SeatSet, Viewer};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PilotView {
    pub seat: Seat,
    pub health: i32,
    pub max_health: i32,
    pub alive: bool,
    /// `None` for the Ace.
    pub hand: Option<Vec<Card>>,
    pub hand_size: usize,
    pub debt: u8,
    /// Everyone sees who has locked in; only the pilot sees what.
    pub confirmed: bool,
    pub choice: Option<Choice>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AceView {
    pub seat: Seat,
    pub health: i32,
    pub max_health: i32,
    /// Only in the Ace's own view.
    pub hand: Option<Vec<Card>>,
    pub hand_size: usize,
    pub picks_left: u8,
    pub plays_per_turn: u8,
    pub tier: AceTier,
}

/// A card waiting in the Action queue; the Ace's picks show no card to pilots until
/// BossSelection ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuedView {
    pub seat: Seat,
    pub card: Option<Card>,
    pub target: Option<Seat>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub viewer: Viewer,
    pub phase: Phase,
    pub turn: u32,
    pub to_act: SeatSet,
    pub host: Option<Seat>,
    pub pilots: Vec<PilotView>,
    pub ace: AceView,
    /// The EffectFile, oldest first.
    pub effects: Vec<Effect>,
    pub queue: Vec<QueuedView>,
    pub pilot_deck: usize,
    pub pilot_discard: Vec<Card>,
    pub ace_deck: usize,
    pub ace_discard: Vec<Card>,
    pub winner: Option<Side>,
}

impl View {
    pub fn pilot(&self, seat: Seat) -> Option<&PilotView> {
        self.pilots.get(seat.index())
    }

    pub fn is_ace(&self, seat: Seat) -> bool {
        seat == self.ace.seat
    }

    pub fn health(&self, seat: Seat) -> i32 {
        self.pilot(seat).map_or(self.ace.health, |p| p.health)
    }

    /// Live effects made by `card` aimed at `target`.
    pub fn effects_on(&self, target: Seat, card: Card) -> impl Iterator<Item = &Effect> {
        self.effects.iter().filter(move |e| e.target == Some(target) && e.card == card)
    }

    pub fn living_pilots(&self) -> impl Iterator<Item = &PilotView> {
        self.pilots.iter().filter(|p| p.alive)
    }
}

impl WolfPack {
    pub(crate) fn make_view(&self, viewer: Viewer) -> View {
        let ace_seat = self.ace_seat();
        let is_ace = viewer.is(ace_seat);
        View {
            viewer,
            phase: self.phase,
            turn: self.turn,
            to_act: self.acting(),
            host: self.host(),
            pilots: self
                .pilots
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let seat = Seat(i as u8);
                    PilotView {
                        seat,
                        health: p.health,
                        max_health: self.config.pilot_health,
                        alive: p.alive(),
                        hand: (!is_ace).then(|| p.hand.clone()),
                        hand_size: p.hand.len(),
                        debt: p.debt,
                        confirmed: p.confirmed,
                        choice: if viewer.is(seat) { p.choice } else { None },
                    }
                })
                .collect(),
            ace: AceView {
                seat: ace_seat,
                health: self.ace.health,
                max_health: self.config.ace_health,
                hand: is_ace.then(|| self.ace.hand.clone()),
                hand_size: self.ace.hand.len(),
                picks_left: self.ace.picks_left,
                plays_per_turn: self.config.ace_plays,
                tier: self.config.ace_tier,
            },
            effects: self.file.effects.clone(),
            queue: self
                .queue
                .iter()
                .map(|q| {
                    let hidden = self.phase == Phase::BossSelection && !is_ace;
                    QueuedView {
                        seat: q.seat,
                        card: (!hidden).then_some(q.card),
                        target: if hidden { None } else { q.target },
                    }
                })
                .collect(),
            pilot_deck: self.decks[0].draw.len(),
            pilot_discard: self.decks[0].discard.clone(),
            ace_deck: self.decks[1].draw.len(),
            ace_discard: self.decks[1].discard.clone(),
            winner: self.winner,
        }
    }

    pub(crate) fn redact(&self, event: &Event, viewer: Viewer) -> Option<Event> {
        let ace = self.ace_seat();
        Some(match *event {
            Event::Drew { seat, card } => {
                let sees = if seat == ace { viewer.is(ace) } else { !viewer.is(ace) };
                Event::Drew { seat, card: if sees { card } else { None } }
            }
            Event::Chose { seat, .. } if !viewer.is(seat) => return None,
            Event::AcePicked { index, .. } if !viewer.is(ace) => Event::AcePicked { index, card: None, target: None },
            ref e => e.clone(),
        })
    }

    /// Resamples what `viewer` cannot see: the Ace's hand and draw pile (for pilots and
    /// spectators) or the pilots' hands and draw pile (for the Ace), every draw pile's order,
    /// and the choices of other pilots (each replaced by a random legal one, confirmed or not
    /// as before). The RNG is reseeded from `rng`.
    pub(crate) fn resample(&self, viewer: Viewer, rng: &mut MatchRng) -> Self {
        let mut g = self.clone();
        let ace = self.ace_seat();
        if viewer.is(ace) {
            let sizes: Vec<usize> = g.pilots.iter().map(|p| p.hand.len()).collect();
            let mut pool: Vec<Card> = g.pilots.iter_mut().flat_map(|p| p.hand.drain(..)).collect();
            pool.append(&mut g.decks[0].draw);
            // Sorted first, so the copy depends only on what the viewer knows (the multiset).
            pool.sort_unstable();
            rng.shuffle(&mut pool);
            for (p, n) in g.pilots.iter_mut().zip(sizes) {
                p.hand.extend(pool.drain(pool.len() - n..));
            }
            g.decks[0].draw = pool;
            g.decks[1].draw.sort_unstable();
            rng.shuffle(&mut g.decks[1].draw);
        } else {
            let n = g.ace.hand.len();
            let mut pool: Vec<Card> = g.ace.hand.drain(..).collect();
            pool.append(&mut g.decks[1].draw);
            pool.sort_unstable();
            rng.shuffle(&mut pool);
            g.ace.hand.extend(pool.drain(pool.len() - n..));
            g.decks[1].draw = pool;
            g.decks[0].draw.sort_unstable();
            rng.shuffle(&mut g.decks[0].draw);
        }
        let mut legal = Vec::new();
        for i in 0..g.pilots.len() {
            let seat = Seat(i as u8);
            if viewer.is(seat) || g.pilots[i].choice.is_none() {
                continue;
            }
            let confirmed = g.pilots[i].confirmed;
            g.pilots[i].confirmed = false;
            g.pilots[i].choice = None;
            legal.clear();
            g.legal_into(seat, &mut legal);
            let choice = match *rng.pick(&legal) {
                Action::Select { card, target, .. } => Choice::Play { card, target },
                Action::Discard { cards, .. } => Choice::Discard { cards },
                other => unreachable!("{other:?} in a pilot's Selection"),
            };
            g.pilots[i].choice = Some(choice);
            g.pilots[i].confirmed = confirmed;
        }
        g.rng = rng.fork();
        g
    }
}
