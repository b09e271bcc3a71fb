//! Tool cards: each target's Negate window and effect, and the delayed tools' judgements.

use crate::action::{Event, JudgeFor, Targets, Zone};
use crate::cards::{CardId, Kind, Slot, Suit};
use crate::state::*;
use engine::Seat;

impl ThreeKingdoms {
    pub(super) fn step_tool(&mut self, mut t: ToolFrame, out: &mut Vec<Event>) {
        loop {
            let next = match t.stage {
                0 => self.tool_next_target(t),
                1 => self.tool_effect(t, out),
                _ => self.tool_after(t, out),
            };
            match next {
                Some(n) => t = n,
                None => return,
            }
        }
    }

    /// A tool card moves on to its next target (asking for Negates first), or is done.
    /// `Some` to go on working the frame, `None` when it waits or is done.
    fn tool_next_target(&mut self, mut t: ToolFrame) -> Option<ToolFrame> {
        let kind = t.used.kind;
        let Some(&target) = t.targets.get(t.idx as usize) else {
            self.settle(t.used);
            for c in std::mem::take(&mut t.revealed) {
                if self.unprocess(c) {
                    self.discard.push(c);
                }
            }
            return None;
        };
        let skip = !self.alive(target)
            || (kind == Kind::PeachGarden && !self.p(target).wounded())
            || (kind == Kind::BumperHarvest && t.revealed.is_empty());
        if skip {
            t.idx += 1;
            return Some(t);
        }
        t.stage = 1;
        self.stack.push(Frame::Tool(t));
        self.stack.push(self.negate_frame(kind, target, false, kind));
        None
    }

    /// A tool card takes effect on the current target, unless Negated. `Some` to go on
    /// working the frame, `None` when it waits or is done.
    fn tool_effect(&mut self, mut t: ToolFrame, out: &mut Vec<Event>) -> Option<ToolFrame> {
        let kind = t.used.kind;
        let user = t.user;
        let target = t.targets[t.idx as usize];
        if self.take_ret() == Ret::Bool(true) {
            out.push(Event::Nullified { seat: target, kind });
            t.idx += 1;
            t.stage = 0;
            return Some(t);
        }
        t.stage = 2;
        let all = |s: &Self| s.p(target).card_count() + s.p(target).judge.len();
        match kind {
            Kind::Dismantle | Kind::StealingSheep => {
                if all(self) == 0 || !self.alive(user) {
                    t.stage = 0;
                    t.idx += 1;
                    return Some(t);
                }
                self.wait(
                    Frame::Tool(t),
                    Pending::Pick {
                        seat: user,
                        from: target,
                        why: JudgeFor::Card(kind),
                        hand: true,
                        equip: true,
                        judge: true,
                        horses: false,
                        optional: false,
                    },
                );
                None
            }
            Kind::SomethingOutOfNothing => {
                self.draw_cards(target, 2, out);
                t.stage = 0;
                t.idx += 1;
                self.stack.push(Frame::Tool(t));
                None
            }
            Kind::Duel => {
                // The Duel card itself deals the damage (Treachery takes it); it
                // stays in the processing area until the Duel is over.
                let used = t.used;
                self.stack.push(Frame::Tool(t));
                self.stack.push(Frame::Duel { user, target, used, responder: target, stage: 0 });
                None
            }
            Kind::BorrowedSword => {
                let victim = t.victim.filter(|&v| self.alive(v));
                if self.p(target).weapon().is_none() || victim.is_none() {
                    t.stage = 0;
                    t.idx += 1;
                    return Some(t);
                }
                let mut ask = Ask::answering(target, Kind::Attack, 1, Kind::BorrowedSword, user);
                ask.use_on = victim;
                self.stack.push(Frame::Tool(t));
                self.stack.push(Frame::Ask(ask));
                None
            }
            Kind::Barbarians | Kind::RainArrows => {
                let need = if kind == Kind::Barbarians { Kind::Attack } else { Kind::Dodge };
                self.stack.push(Frame::Tool(t));
                self.stack.push(Frame::Ask(Ask::answering(target, need, 1, kind, user)));
                None
            }
            Kind::PeachGarden => {
                self.recover(target, 1, out);
                t.stage = 0;
                t.idx += 1;
                Some(t)
            }
            Kind::BumperHarvest => {
                self.wait(Frame::Tool(t), Pending::Harvest { seat: target });
                None
            }
            _ => {
                t.stage = 0;
                t.idx += 1;
                Some(t)
            }
        }
    }

    /// What a tool card does after its target's answer or pick. `Some` to go on working the
    /// frame, `None` when it waits or is done.
    fn tool_after(&mut self, mut t: ToolFrame, out: &mut Vec<Event>) -> Option<ToolFrame> {
        let kind = t.used.kind;
        let user = t.user;
        let target = t.targets[t.idx as usize];
        t.stage = 0;
        t.idx += 1;
        let ret = self.take_ret();
        match kind {
            Kind::Dismantle | Kind::StealingSheep => {
                if let Ret::Zone(z) = ret
                    && let Some(c) = self.take_picked(target, z, out)
                {
                    if kind == Kind::Dismantle {
                        self.discard_cards(target, vec![c], out);
                    } else {
                        self.pm(user).hand.push(c);
                        out.push(Event::Moved {
                            from: target,
                            to: user,
                            card: Some(c),
                            public: !matches!(z, Zone::Hand(_)),
                        });
                    }
                }
            }
            Kind::BorrowedSword => match ret {
                Ret::Played(u) => {
                    let victim = t.victim.expect("victim");
                    out.push(Event::UsedCard { seat: target, used: u, targets: Targets::one(victim) });
                    self.stack.push(Frame::Tool(t));
                    self.stack.push(Frame::Attack(AttackFrame {
                        user: target,
                        target: victim,
                        used: u,
                        stage: AttackStage::Displace,
                        no_dodge: false,
                        ignore_armour: false,
                        frost_picks: 0,
                    }));
                    return None;
                }
                _ => {
                    if self.alive(user)
                        && let Some(w) = self.unequip(target, Slot::Weapon, out)
                    {
                        self.pm(user).hand.push(w);
                        out.push(Event::Moved { from: target, to: user, card: Some(w), public: true });
                    }
                }
            },
            Kind::Barbarians | Kind::RainArrows if ret == Ret::Failed => {
                let used = t.used;
                self.stack.push(Frame::Tool(t));
                self.push_damage(Some(user), target, 1, Some(used));
                return None;
            }
            _ => {}
        }
        Some(t)
    }

    pub(super) fn step_delayed(&mut self, seat: Seat, stage: u8, card: Option<(CardId, Kind)>, out: &mut Vec<Event>) {
        if !self.alive(seat) {
            if let Some((c, _)) = card
                && self.unprocess(c)
            {
                self.discard.push(c);
            }
            return;
        }
        match (stage, card) {
            (0, _) => {
                let Some((c, k)) = self.pm(seat).judge.pop() else { return };
                self.processing.push(c);
                self.stack.push(Frame::Delayed { seat, stage: 1, card: Some((c, k)) });
                self.stack.push(self.negate_frame(k, seat, false, k));
            }
            (1, Some((c, k))) => {
                if self.take_ret() == Ret::Bool(true) {
                    out.push(Event::Nullified { seat, kind: k });
                    if k == Kind::Lightning {
                        self.pass_lightning(seat, c, out);
                    } else if self.unprocess(c) {
                        self.discard.push(c);
                    }
                    self.stack.push(Frame::Delayed { seat, stage: 0, card: None });
                } else {
                    self.stack.push(Frame::Delayed { seat, stage: 2, card });
                    self.stack.push(Frame::Judge { seat, reason: JudgeFor::Card(k), card: None, asked: false });
                }
            }
            (2, Some((c, k))) => {
                let Ret::Judged(j) = self.take_ret() else { return };
                self.stack.push(Frame::Delayed { seat, stage: 0, card: None });
                if k == Kind::Acedia {
                    self.end_judgement(seat, j, out);
                    if j.suit() != Suit::Heart {
                        self.ts.skip_play = true;
                    }
                    if self.unprocess(c) {
                        self.discard.push(c);
                    }
                } else if j.suit() == Suit::Spade && (2..=9).contains(&j.rank()) {
                    if self.unprocess(c) {
                        self.discard.push(c);
                    }
                    // The result is applied, then the judgement card goes (rules §5.4): Envy of
                    // Heaven takes it after Lightning's damage, if Guo Jia lives.
                    self.stack.push(Frame::Delayed { seat, stage: 3, card: Some((j, k)) });
                    self.push_damage(None, seat, 3, None);
                } else {
                    self.end_judgement(seat, j, out);
                    self.pass_lightning(seat, c, out);
                }
            }
            (3, Some((j, _))) => self.end_judgement(seat, j, out),
            _ => {}
        }
    }

    fn pass_lightning(&mut self, from: Seat, card: CardId, out: &mut Vec<Event>) {
        if !self.unprocess(card) {
            return;
        }
        let to =
            self.order_from(from).find(|&s| s != from && !self.p(s).judge.iter().any(|&(_, k)| k == Kind::Lightning));
        match to {
            Some(to) => {
                self.pm(to).judge.push((card, Kind::Lightning));
                out.push(Event::LightningMoved { from, to });
            }
            None => self.discard.push(card),
        }
    }
}
