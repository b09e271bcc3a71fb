//! What one viewer may see: own hand and role, everyone's public areas, counts of the rest.

use crate::action::{Action, Event};
use crate::cards::{CardId, Kind};
use crate::config::Role;
use crate::generals::General;
use crate::state::{Frame, Pending, Step, ThreeKingdoms};
use engine::{MatchRng, Seat, Viewer};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub general: Option<General>,
    /// Known roles only: the Lord's, the dead's, and the viewer's own.
    pub role: Option<Role>,
    /// The role is face up for everyone: the Lord, the dead, a Spy who revealed itself (seed
    /// mode). A role seen only through `perfect_information` is not.
    pub revealed: bool,
    pub alive: bool,
    pub hp: i8,
    pub max_hp: i8,
    pub hand_count: u8,
    pub equip: [Option<CardId>; 4],
    pub judge: Vec<(CardId, Kind)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub viewer: Option<Seat>,
    pub players: Vec<PlayerView>,
    /// The viewer's hand.
    pub hand: Vec<CardId>,
    /// Setup: generals offered to the viewer.
    pub candidates: Vec<General>,
    pub draw_count: u8,
    pub discard: Vec<CardId>,
    /// Face-up cards in play (used cards, judgement cards, Bumper Harvest's revealed cards).
    pub table: Vec<CardId>,
    /// Cards only the viewer is looking at (Stargaze, Bequeathed Strategy).
    pub peek: Vec<CardId>,
    pub current: Seat,
    pub turn: u32,
    pub step: Step,
    /// Who must decide and what kind of decision it is.
    pub waiting: Option<Pending>,
    /// The request the decision answers, if any (public: what is asked of whom).
    pub request: Option<Kind>,
    /// What the request is about: the tool a Negate would cancel and its target, the seat
    /// being rescued, the Lord being helped, the Attack (and its user) a Dodge answers, the
    /// Barbarians or Rain of Arrows (and its user) an Attack or Dodge answers, the opponent of
    /// a Duel, the seat an Attack is to be used on (Borrowed Sword, Green Dragon Blade).
    pub about: Option<(Kind, Seat)>,
    /// In a Negate chain: whether the tool is cancelled as things stand (an odd number of
    /// Negates so far).
    pub negated: bool,
    pub attacks_used: u8,
    /// The public record of acts against (+) or for (−) the Lord, by seat.
    pub hostility: Vec<i16>,
}

impl ThreeKingdoms {
    pub fn make_view(&self, viewer: Viewer) -> View {
        let me = viewer.as_seat();
        let peek_cards: &[CardId] = self.peek.as_ref().map_or(&[], |(_, c)| c.as_slice());
        let players = Seat::all(self.num_players())
            .map(|s| {
                let p = self.p(s);
                // Generals are revealed all at once when the last seat has chosen.
                let general_public =
                    !matches!(self.step, Step::LordChooses | Step::OthersChoose) || s == self.lord || me == Some(s);
                PlayerView {
                    seat: s,
                    general: if general_public { p.general } else { None },
                    role: (p.revealed || me == Some(s) || self.config.seed_compat.perfect_information)
                        .then_some(p.role),
                    revealed: p.revealed,
                    alive: p.alive,
                    hp: p.hp,
                    max_hp: p.max_hp,
                    hand_count: p.hand.len() as u8,
                    equip: p.equip,
                    judge: p.judge.clone(),
                }
            })
            .collect();
        let request = match self.stack.last() {
            Some(Frame::Ask(a)) => Some(a.need),
            Some(Frame::Helpers { need, .. }) => Some(*need),
            Some(Frame::Negate { .. }) => Some(Kind::Negate),
            Some(Frame::Dying { .. }) => Some(Kind::Peach),
            _ => None,
        };
        let about = match self.stack.last() {
            Some(Frame::Negate { kind, target, .. }) => Some((*kind, *target)),
            Some(Frame::Dying { seat, .. }) => Some((Kind::Peach, *seat)),
            Some(Frame::Helpers { lord, need, .. }) => Some((*need, *lord)),
            // An Attack to use on a seat (Borrowed Sword, Green Dragon Blade), else what the
            // request answers (the Attack a Dodge is for, a Barbarians, a Duel's opponent).
            Some(Frame::Ask(a)) => a.use_on.map(|t| (Kind::Attack, t)).or(a.answers),
            _ => None,
        };
        View {
            viewer: me,
            players,
            hand: me.map(|s| self.p(s).hand.clone()).unwrap_or_default(),
            candidates: me.map(|s| self.p(s).candidates.clone()).unwrap_or_default(),
            draw_count: self.draw.len() as u8,
            discard: self.discard.clone(),
            table: self.processing.iter().filter(|c| !peek_cards.contains(c)).copied().collect(),
            peek: match &self.peek {
                Some((s, c)) if me == Some(*s) => c.clone(),
                _ => Vec::new(),
            },
            current: self.current,
            turn: self.turn,
            step: self.step,
            waiting: self.pending,
            request: self.pending.and(request),
            about: self.pending.and(about),
            negated: self.pending.is_some() && matches!(self.stack.last(), Some(Frame::Negate { cancelled: true, .. })),
            attacks_used: self.ts.attacks,
            hostility: self.hostility.clone(),
        }
    }

    pub fn redact(&self, event: &Event, viewer: Viewer) -> Option<Event> {
        Some(match event {
            Event::Dealt { seat, count, .. } if !viewer.is(*seat) => {
                Event::Dealt { seat: *seat, cards: Vec::new(), count: *count }
            }
            Event::Drew { seat, count, hand, .. } if !viewer.is(*seat) => {
                Event::Drew { seat: *seat, cards: Vec::new(), count: *count, hand: *hand }
            }
            Event::Looked { seat, .. } if !viewer.is(*seat) => Event::Looked { seat: *seat, cards: Vec::new() },
            Event::Moved { from, to, card, public } if !public && !viewer.is(*from) && !viewer.is(*to) => {
                let _ = card;
                Event::Moved { from: *from, to: *to, card: None, public: false }
            }
            // The others' picks are secret until all have chosen; the Lord's is public at once.
            Event::GeneralChosen { seat, .. }
                if matches!(self.step, Step::OthersChoose) && *seat != self.lord && !viewer.is(*seat) =>
            {
                return None;
            }
            _ => event.clone(),
        })
    }

    /// A copy where what `viewer` cannot see is resampled: the other players' hands and the
    /// draw pile are reshuffled together (sizes kept), unrevealed roles are permuted among
    /// the seats that hide them, and the RNG is reseeded.
    pub fn resample(&self, viewer: Viewer, rng: &mut MatchRng) -> Self {
        let mut g = self.clone();
        g.rng = rng.fork();
        let me = viewer.as_seat();
        let mut pool: Vec<CardId> = g.draw.clone();
        for s in Seat::all(g.num_players()) {
            if Some(s) != me {
                pool.extend(&g.p(s).hand);
            }
        }
        // Sorted before the shuffle, so the sample depends on which cards are unseen, not on
        // how they really lie (the draw pile's order, who holds what).
        pool.sort_unstable();
        rng.shuffle(&mut pool);
        let mut it = pool.into_iter();
        let n = g.draw.len();
        g.draw = it.by_ref().take(n).collect();
        for s in Seat::all(g.num_players()) {
            if Some(s) != me {
                let k = g.p(s).hand.len();
                g.pm(s).hand = it.by_ref().take(k).collect();
            }
        }
        let perfect = g.config.seed_compat.perfect_information;
        let hidden: Vec<Seat> =
            Seat::all(g.num_players()).filter(|&s| Some(s) != me && !g.p(s).revealed && !perfect).collect();
        // Gathered in a fixed order (not the real seats'), so the sample depends only on what
        // the viewer sees and the RNG.
        let mut roles: Vec<Role> = hidden.iter().map(|&s| g.p(s).role).collect();
        roles.sort_by_key(|r| *r as u8);
        rng.shuffle(&mut roles);
        weigh_roles(&hidden, &mut roles, &g.hostility, rng);
        for (s, r) in hidden.into_iter().zip(roles) {
            g.pm(s).role = r;
        }
        if g.step == Step::OthersChoose {
            g.resample_generals(me, rng);
        }
        g
    }

    /// While the other seats choose their generals, what each was offered and what each has
    /// secretly picked are hidden from everyone else: they are dealt again from the generals
    /// the viewer has not seen (the Lord's is public; the viewer's own offer or pick stays).
    fn resample_generals(&mut self, me: Option<Seat>, rng: &mut MatchRng) {
        let lord = self.lord;
        let hidden: Vec<Seat> = Seat::all(self.num_players()).filter(|&s| s != lord && Some(s) != me).collect();
        let mut seen: Vec<General> = self.general(lord).into_iter().collect();
        if let Some(m) = me {
            seen.extend(self.p(m).general);
            seen.extend(self.p(m).candidates.iter().copied());
        }
        let mut pool: Vec<General> = General::STANDARD.into_iter().filter(|g| !seen.contains(g)).collect();
        if self.config.hua_xiong && !seen.contains(&General::HuaXiong) {
            pool.push(General::HuaXiong);
        }
        // In a fixed order before the shuffle, as the cards above.
        pool.sort_unstable();
        rng.shuffle(&mut pool);
        let mut it = pool.into_iter();
        for s in hidden {
            let p = self.pm(s);
            if p.general.is_some() {
                p.general = it.next();
            } else {
                let k = p.candidates.len();
                p.candidates = it.by_ref().take(k).collect();
            }
        }
    }

    /// The action a seat is taken to answer if it does not act in time.
    pub fn default_action(&self, seat: Seat) -> Option<Action> {
        let legal = {
            let mut v = Vec::new();
            self.legal_into(seat, &mut v);
            v
        };
        for a in [Action::Pass, Action::EndPlay, Action::DrawNormally, Action::Done, Action::Confirm { yes: false }] {
            if legal.contains(&a) {
                return Some(a);
            }
        }
        legal.first().copied()
    }
}

/// How likely a seat of role `r` is to have earned the public hostility `h` (acts against the
/// Lord count up, help counts down; see `record`): tens, relative. Rebels go for the Lord;
/// Loyalists and an early Spy help it.
fn role_weight(r: Role, h: i16) -> u32 {
    let col = match h {
        i16::MIN..=-1 => 0,
        0 => 1,
        1 => 2,
        _ => 3,
    };
    match r {
        Role::Rebel => [1, 10, 30, 200][col],
        Role::Loyalist => [30, 10, 5, 1][col],
        Role::Spy => [30, 10, 10, 3][col],
        Role::Lord => 10,
    }
}

/// Moves a uniform permutation of the hidden roles towards the public record: a few Metropolis
/// swaps whose stationary law weighs each assignment by the product of [`role_weight`]s. A
/// search that determinizes through this reads roles from behaviour as the heuristic does,
/// instead of treating a seat that has attacked the Lord as likely a Loyalist as any other.
fn weigh_roles(hidden: &[Seat], roles: &mut [Role], hostility: &[i16], rng: &mut MatchRng) {
    let n = roles.len();
    if n < 2 || hidden.iter().all(|s| hostility.get(s.index()).copied().unwrap_or(0) == 0) {
        return;
    }
    let h = |i: usize| hostility.get(hidden[i].index()).copied().unwrap_or(0);
    for _ in 0..4 * n {
        let a = rng.index(n);
        let b = (a + 1 + rng.index(n - 1)) % n;
        if roles[a] == roles[b] {
            continue;
        }
        let num = role_weight(roles[b], h(a)) * role_weight(roles[a], h(b));
        let den = role_weight(roles[a], h(a)) * role_weight(roles[b], h(b));
        if num >= den || rng.chance(num, den) {
            roles.swap(a, b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_that_attacked_the_lord_is_sampled_a_rebel() {
        let hidden = [Seat(1), Seat(2), Seat(3), Seat(4)];
        let hostility = [0, 4, 0, 0, -2];
        let mut rng = MatchRng::new(7);
        let (mut rebel, mut friendly, runs) = (0, 0, 2_000);
        for _ in 0..runs {
            let mut roles = [Role::Loyalist, Role::Rebel, Role::Rebel, Role::Spy];
            rng.shuffle(&mut roles);
            weigh_roles(&hidden, &mut roles, &hostility, &mut rng);
            let mut sorted = roles.map(|r| r as u8);
            sorted.sort_unstable();
            assert_eq!(sorted, [Role::Loyalist as u8, Role::Rebel as u8, Role::Rebel as u8, Role::Spy as u8]);
            rebel += usize::from(roles[0] == Role::Rebel);
            friendly += usize::from(roles[3] != Role::Rebel);
        }
        // Uniform would give a half each.
        assert!(rebel > runs * 9 / 10, "{rebel}/{runs}");
        assert!(friendly > runs * 8 / 10, "{friendly}/{runs}");
    }
}
