//! The loop: the turn's phases and the resolution stack, one function per frame kind
//! (requests, damage and the Attack in [`super::combat`], tool cards in [`super::tools`]).

use super::NEGATES;
use crate::action::{Event, JudgeFor, Targets, Used, Zone};
use crate::cards::{CardId, Kind, Slot, Suit};
use crate::generals::{General, Kingdom, Skill};
use crate::state::*;
use engine::flow::{Answering, Window};
use engine::{Seat, SeatSet};

impl ThreeKingdoms {
    /// Works the stack and the turn until a decision is needed or the game ends.
    pub(crate) fn run(&mut self, out: &mut Vec<Event>) {
        loop {
            if self.is_over() || self.pending.is_some() {
                return;
            }
            // One After Another: Lu Xun draws when his last hand card is gone.
            for s in Seat::all(self.num_players()) {
                let p = self.p(s);
                if p.hand.is_empty() && p.general == Some(General::LuXun) && self.has(s, Skill::OneAfterAnother) {
                    out.push(Event::SkillUsed { seat: s, skill: Skill::OneAfterAnother });
                    self.draw_cards(s, 1, out);
                }
            }
            if self.is_over() {
                return;
            }
            match self.stack.pop() {
                Some(f) => self.step_frame(f, out),
                None => self.advance(out),
            }
        }
    }

    /// The stack is empty: the phase in `step` has nothing more to do, so the turn moves on
    /// (the Play phase asks its player again until they end it).
    fn advance(&mut self, out: &mut Vec<Event>) {
        let seat = self.current;
        match self.step {
            Step::LordChooses | Step::OthersChoose | Step::Over(_) => {}
            Step::Start => self.enter(Step::Judgement, out),
            Step::Judgement => self.enter(Step::Draw, out),
            Step::Draw => self.enter(Step::Play, out),
            Step::Play => self.pending = Some(Pending::Play { seat }),
            Step::Discard => self.enter(Step::End, out),
            Step::End => {
                if self.has(seat, Skill::EclipseTheMoon) {
                    out.push(Event::SkillUsed { seat, skill: Skill::EclipseTheMoon });
                    self.draw_cards(seat, 1, out);
                    if self.is_over() {
                        return;
                    }
                }
                let next = self.next_alive(seat);
                self.begin_turn(next, out);
            }
        }
    }

    /// Enters phase `step` of the current player's turn and stacks what it does, so `step` is
    /// the phase every decision inside it arises in (the web header and views read it).
    pub(super) fn enter(&mut self, step: Step, out: &mut Vec<Event>) {
        let seat = self.current;
        self.step = step;
        match step {
            Step::Start => {
                if self.has(seat, Skill::GoddessLuo) {
                    self.stack.push(Frame::GoddessLuo { seat, stage: 0 });
                }
                if self.has(seat, Skill::Stargaze) {
                    let x = self.alive_count().min(5);
                    let mut cards = Vec::new();
                    for _ in 0..x {
                        match self.top_card(out) {
                            Some(c) => cards.push(c),
                            None => return,
                        }
                    }
                    self.processing.extend(&cards);
                    self.peek = Some((seat, cards.clone()));
                    out.push(Event::SkillUsed { seat, skill: Skill::Stargaze });
                    out.push(Event::Looked { seat, cards: cards.clone() });
                    self.stack.push(Frame::Stargaze { seat, cards, top: Vec::new(), bottom: Vec::new() });
                }
            }
            Step::Judgement => {
                if !self.p(seat).judge.is_empty() {
                    self.stack.push(Frame::Delayed { seat, stage: 0, card: None });
                }
            }
            Step::Draw => self.stack.push(Frame::DrawPhase { seat }),
            Step::Play => {
                if self.ts.skip_play {
                    out.push(Event::PlaySkipped { seat });
                    self.enter(Step::Discard, out);
                }
            }
            Step::Discard => self.stack.push(Frame::DiscardPhase { seat }),
            Step::End | Step::LordChooses | Step::OthersChoose | Step::Over(_) => {}
        }
    }

    pub(super) fn take_ret(&mut self) -> Ret {
        std::mem::take(&mut self.ret)
    }

    pub(super) fn wait(&mut self, frame: Frame, pending: Pending) {
        self.stack.push(frame);
        self.pending = Some(pending);
    }

    fn step_frame(&mut self, frame: Frame, out: &mut Vec<Event>) {
        match frame {
            Frame::Ask(a) => self.step_ask(a, out),
            Frame::Helpers { lord, need, asked, into_processing, waiting } => {
                self.step_helpers(lord, need, asked, into_processing, waiting)
            }
            Frame::Negate { kind, target, cancelled, window } => self.step_negate(kind, target, cancelled, window),
            Frame::Judge { seat, reason, card, asked } => self.step_judge(seat, reason, card, asked, out),
            Frame::Damage { src, to, amount, cause, stage, point } => {
                self.step_damage(src, to, amount, cause, stage, point, out)
            }
            Frame::Dying { seat, killer, window } => self.step_dying(seat, killer, window, out),
            Frame::Attack(a) => self.step_attack(a, out),
            Frame::Tool(t) => self.step_tool(t, out),
            Frame::Duel { user, target, used, responder, stage } => {
                self.step_duel(user, target, used, responder, stage)
            }
            Frame::Delayed { seat, stage, card } => self.step_delayed(seat, stage, card, out),
            Frame::DiscardPhase { seat } => self.step_discard_phase(seat, out),
            Frame::GoddessLuo { seat, stage } => self.step_goddess_luo(seat, stage, out),
            Frame::Stargaze { seat, cards, top, bottom } => self.step_stargaze(seat, cards, top, bottom),
            Frame::KirinBow { user, target, stage } => self.step_kirin_bow(user, target, stage, out),
            Frame::Retaliation { seat, from, stage } => self.step_retaliation(seat, from, stage, out),
            Frame::Unyielding { seat, src, stage } => self.step_unyielding(seat, src, stage, out),
            Frame::Bequeathed { seat, cards } => self.step_bequeathed(seat, cards),
            Frame::Triumphant { src } => self.step_triumphant(src, out),
            Frame::TrojanFlesh { seat, stage } => self.step_trojan_flesh(seat, stage, out),
            Frame::SowDissension { seat, target, suit, stage } => {
                self.step_sow_dissension(seat, target, suit, stage, out)
            }
            Frame::Balance { seat, chosen } => {
                self.wait(Frame::Balance { seat, chosen }, Pending::Balance { seat });
            }
            Frame::RouseUse { seat, targets, stage } => self.step_rouse_use(seat, targets, stage, out),
            Frame::DrawPhase { seat } => self.step_draw_phase(seat, out),
            Frame::Raid { seat, targets, idx } => self.step_raid(seat, targets, idx, out),
        }
    }

    /// Works a [`Frame::Helpers`].
    fn step_helpers(&mut self, lord: Seat, need: Kind, asked: u8, into_processing: bool, waiting: bool) {
        let _ = waiting;
        let kingdom = if need == Kind::Dodge { Kingdom::Wei } else { Kingdom::Shu };
        let helpers = self.helpers(lord, kingdom);
        match helpers.get(asked as usize) {
            None => self.ret = Ret::Failed,
            Some(&h) => self
                .wait(Frame::Helpers { lord, need, asked, into_processing, waiting: true }, Pending::Ask { seat: h }),
        }
    }

    /// Works a [`Frame::Negate`].
    fn step_negate(&mut self, kind: Kind, target: Seat, cancelled: bool, mut window: Window<Kind>) {
        // A seat whose hand is empty (public) passes without being asked.
        while let Some(s) = window.next().filter(|&s| !self.alive(s) || self.p(s).hand.is_empty()) {
            let _ = window.pass(s);
        }
        match window.next() {
            None => self.ret = Ret::Bool(cancelled),
            Some(s) => self.wait(Frame::Negate { kind, target, cancelled, window }, Pending::Ask { seat: s }),
        }
    }

    /// Works a [`Frame::Judge`].
    fn step_judge(
        &mut self,
        seat: Seat,
        reason: crate::action::JudgeFor,
        card: Option<CardId>,
        asked: bool,
        out: &mut Vec<Event>,
    ) {
        let card = match card {
            Some(c) => c,
            None => {
                let Some(c) = self.top_card(out) else { return };
                self.processing.push(c);
                out.push(Event::Judged { seat, card: c, reason });
                c
            }
        };
        if !asked {
            let sima = self
                .order_from(self.current)
                .find(|&s| self.has(s, Skill::DemonicTalent) && !self.p(s).hand.is_empty());
            if let Some(sima) = sima {
                self.wait(
                    Frame::Judge { seat, reason, card: Some(card), asked: true },
                    Pending::Replace { seat: sima },
                );
                return;
            }
        }
        self.ret = Ret::Judged(card);
    }

    /// Works a [`Frame::Dying`].
    fn step_dying(&mut self, seat: Seat, killer: Option<Seat>, mut window: Window<Kind>, out: &mut Vec<Event>) {
        if !self.alive(seat) || self.p(seat).hp >= 1 {
            return;
        }
        while let Some(s) = window.next().filter(|&s| !self.can_rescue(s)) {
            let _ = window.pass(s);
        }
        match window.next() {
            None => self.die(seat, killer, out),
            Some(s) => self.wait(Frame::Dying { seat, killer, window }, Pending::Ask { seat: s }),
        }
    }

    /// Works a [`Frame::Duel`].
    fn step_duel(&mut self, user: Seat, target: Seat, used: Used, responder: Seat, stage: u8) {
        let other = if responder == user { target } else { user };
        if stage == 2 || !self.alive(user) || !self.alive(target) {
            self.settle(used);
            return;
        }
        if stage == 0 {
            let times = if self.has(other, Skill::Unrivaled) { 2 } else { 1 };
            self.stack.push(Frame::Duel { user, target, used, responder, stage: 1 });
            self.stack.push(Frame::Ask(Ask::answering(responder, Kind::Attack, times, Kind::Duel, other)));
            return;
        }
        match self.take_ret() {
            Ret::Played(_) => self.stack.push(Frame::Duel { user, target, used, responder: other, stage: 0 }),
            _ => {
                self.stack.push(Frame::Duel { user, target, used, responder, stage: 2 });
                self.push_damage(Some(other), responder, 1, Some(used));
            }
        }
    }

    /// Works a [`Frame::DiscardPhase`].
    fn step_discard_phase(&mut self, seat: Seat, out: &mut Vec<Event>) {
        if self.has(seat, Skill::Restraint) && !self.ts.attack_in_play {
            out.push(Event::SkillUsed { seat, skill: Skill::Restraint });
            out.push(Event::DiscardSkipped { seat });
            return;
        }
        let p = self.p(seat);
        let excess = p.hand.len() as i32 - (p.hp.max(0) as i32);
        if excess > 0 {
            self.pending = Some(Pending::Discard { seat, n: excess as u8, equip: false, except: None });
        }
    }

    /// Works a [`Frame::GoddessLuo`].
    fn step_goddess_luo(&mut self, seat: Seat, stage: u8, out: &mut Vec<Event>) {
        match stage {
            0 => self.wait(
                Frame::GoddessLuo { seat, stage: 1 },
                Pending::Confirm { seat, skill: Some(Skill::GoddessLuo), card: None },
            ),
            1 => {
                if self.take_ret() == Ret::Bool(true) {
                    out.push(Event::SkillUsed { seat, skill: Skill::GoddessLuo });
                    self.stack.push(Frame::GoddessLuo { seat, stage: 2 });
                    self.stack.push(Frame::Judge {
                        seat,
                        reason: JudgeFor::Skill(Skill::GoddessLuo),
                        card: None,
                        asked: false,
                    });
                }
            }
            _ => {
                if let Ret::Judged(c) = self.take_ret() {
                    if !c.is_red() && self.alive(seat) {
                        self.unprocess(c);
                        self.pm(seat).hand.push(c);
                        out.push(Event::Gained { seat, card: c });
                        self.stack.push(Frame::GoddessLuo { seat, stage: 0 });
                    } else {
                        self.end_judgement(seat, c, out);
                    }
                }
            }
        }
    }

    /// Works a [`Frame::Stargaze`].
    fn step_stargaze(&mut self, seat: Seat, cards: Vec<CardId>, top: Vec<CardId>, bottom: Vec<CardId>) {
        if cards.is_empty() {
            for &c in top.iter().rev() {
                self.unprocess(c);
                self.draw.push(c);
            }
            for &c in &bottom {
                self.unprocess(c);
                self.draw.insert(0, c);
            }
            self.peek = None;
        } else {
            self.wait(Frame::Stargaze { seat, cards, top, bottom }, Pending::Stargaze { seat });
        }
    }

    /// Works a [`Frame::KirinBow`].
    fn step_kirin_bow(&mut self, user: Seat, target: Seat, stage: u8, out: &mut Vec<Event>) {
        self.kirin_bow(user, target, stage, out);
        // The Bow is done (neither waiting for its wielder's pick nor going on to it): a victim
        // the blow left at 0 or less is dying now, and its rescue (the Dying frame under this
        // one) begins.
        let going_on = self.pending.is_some() || matches!(self.stack.last(), Some(Frame::KirinBow { .. }));
        let hp = self.p(target).hp;
        if !going_on && hp <= 0 && self.alive(target) {
            out.push(Event::Dying { seat: target, hp });
        }
    }

    fn kirin_bow(&mut self, user: Seat, target: Seat, stage: u8, out: &mut Vec<Event>) {
        if !self.alive(user) || !self.alive(target) || !self.has_horse(target) {
            return;
        }
        if stage == 0 {
            if self.config.seed_compat.random_weapon_choices {
                let slots: Vec<Slot> = [Slot::PlusHorse, Slot::MinusHorse]
                    .into_iter()
                    .filter(|s| self.p(target).equip[s.index()].is_some())
                    .collect();
                self.ret = Ret::Zone(Zone::Equip(*self.rng.pick(&slots)));
                self.stack.push(Frame::KirinBow { user, target, stage: 1 });
            } else {
                self.wait(
                    Frame::KirinBow { user, target, stage: 1 },
                    Pending::Pick {
                        seat: user,
                        from: target,
                        why: JudgeFor::Card(Kind::KirinBow),
                        hand: false,
                        equip: true,
                        judge: false,
                        horses: true,
                        optional: true,
                    },
                );
            }
        } else if let Ret::Zone(z) = self.take_ret()
            && self.zone_card(target, z).is_some()
        {
            // The Bow acts first; the horse leaving may then set off Warrior Woman.
            out.push(Event::Equipment { seat: user, kind: Kind::KirinBow, target: Some(target) });
            if let Some(c) = self.take_zone(target, z, out) {
                self.discard_cards(target, vec![c], out);
            }
        }
    }

    /// Works a [`Frame::Retaliation`].
    fn step_retaliation(&mut self, seat: Seat, from: Seat, stage: u8, out: &mut Vec<Event>) {
        if stage == 0 {
            self.wait(
                Frame::Retaliation { seat, from, stage: 1 },
                Pending::Pick {
                    seat,
                    from,
                    why: JudgeFor::Skill(Skill::Retaliation),
                    hand: true,
                    equip: true,
                    judge: false,
                    horses: false,
                    optional: true,
                },
            );
        } else if let Ret::Zone(z) = self.take_ret() {
            out.push(Event::SkillUsed { seat, skill: Skill::Retaliation });
            if let Some(c) = self.take_picked(from, z, out) {
                self.pm(seat).hand.push(c);
                out.push(Event::Moved { from, to: seat, card: Some(c), public: !matches!(z, Zone::Hand(_)) });
            }
        }
    }

    /// Works a [`Frame::Unyielding`].
    fn step_unyielding(&mut self, seat: Seat, src: Seat, stage: u8, out: &mut Vec<Event>) {
        match stage {
            0 => {
                out.push(Event::SkillUsed { seat, skill: Skill::Unyielding });
                self.stack.push(Frame::Unyielding { seat, src, stage: 1 });
                self.stack.push(Frame::Judge {
                    seat,
                    reason: JudgeFor::Skill(Skill::Unyielding),
                    card: None,
                    asked: false,
                });
            }
            1 => {
                if let Ret::Judged(c) = self.take_ret() {
                    let hit = c.suit() != Suit::Heart;
                    self.end_judgement(seat, c, out);
                    if hit && self.alive(src) {
                        if self.p(src).hand.len() < 2 {
                            self.push_damage(Some(seat), src, 1, None);
                        } else {
                            self.wait(Frame::Unyielding { seat, src, stage: 2 }, Pending::Unyielding { seat: src });
                        }
                    }
                }
            }
            _ => {
                if self.take_ret() == Ret::Bool(true) {
                    self.push_damage(Some(seat), src, 1, None);
                }
            }
        }
    }

    /// Works a [`Frame::Bequeathed`].
    fn step_bequeathed(&mut self, seat: Seat, cards: Vec<CardId>) {
        if cards.is_empty() {
            self.peek = None;
        } else {
            self.peek = Some((seat, cards.clone()));
            self.wait(Frame::Bequeathed { seat, cards }, Pending::Give { seat });
        }
    }

    /// Works a [`Frame::Triumphant`].
    fn step_triumphant(&mut self, src: Seat, out: &mut Vec<Event>) {
        if self.alive(src) {
            if self.p(src).wounded() {
                self.wait(Frame::Triumphant { src }, Pending::Triumphant { seat: src });
            } else {
                self.draw_cards(src, 1, out);
            }
        }
    }

    /// Works a [`Frame::TrojanFlesh`].
    fn step_trojan_flesh(&mut self, seat: Seat, stage: u8, out: &mut Vec<Event>) {
        if stage == 0 {
            let p = self.pm(seat);
            p.hp -= 1;
            let hp = p.hp;
            out.push(Event::LostHp { seat, hp });
            self.stack.push(Frame::TrojanFlesh { seat, stage: 1 });
            if hp <= 0 {
                out.push(Event::Dying { seat, hp });
                self.stack.push(self.dying_frame(seat, None));
            }
        } else if self.alive(seat) {
            self.draw_cards(seat, 2, out);
        }
    }

    /// Works a [`Frame::SowDissension`].
    fn step_sow_dissension(
        &mut self,
        seat: Seat,
        target: Seat,
        suit: Option<crate::cards::Suit>,
        stage: u8,
        out: &mut Vec<Event>,
    ) {
        if stage == 0 {
            self.wait(Frame::SowDissension { seat, target, suit, stage: 1 }, Pending::NameSuit { seat: target });
            return;
        }
        let (Some(named), true) = (suit, self.alive(target)) else { return };
        let hand = &self.p(seat).hand;
        if hand.is_empty() {
            return;
        }
        let i = self.rng.index(hand.len());
        let c = self.pm(seat).hand.remove(i);
        self.pm(target).hand.push(c);
        out.push(Event::Moved { from: seat, to: target, card: Some(c), public: true });
        if c.suit() != named {
            self.push_damage(Some(seat), target, 1, None);
        }
    }

    /// Works a [`Frame::RouseUse`].
    fn step_rouse_use(&mut self, seat: Seat, targets: Targets, stage: u8, out: &mut Vec<Event>) {
        if stage == 0 {
            out.push(Event::SkillUsed { seat, skill: Skill::Rouse });
            self.stack.push(Frame::RouseUse { seat, targets, stage: 1 });
            self.stack.push(Frame::Helpers {
                lord: seat,
                need: Kind::Attack,
                asked: 0,
                into_processing: true,
                waiting: false,
            });
        } else if let Ret::Played(used) = self.take_ret() {
            self.ts.attacks += 1;
            self.ts.attack_in_play = true;
            out.push(Event::UsedCard { seat, used, targets });
            self.push_attacks(seat, used, targets);
        }
    }

    /// Works a [`Frame::DrawPhase`].
    fn step_draw_phase(&mut self, seat: Seat, out: &mut Vec<Event>) {
        let raid =
            self.has(seat, Skill::Raid) && self.order_from(seat).any(|s| s != seat && !self.p(s).hand.is_empty());
        if raid || self.has(seat, Skill::BareChested) {
            self.pending = Some(Pending::DrawPhase { seat });
        } else {
            self.normal_draw(seat, out);
        }
    }

    /// Works a [`Frame::Raid`].
    fn step_raid(&mut self, seat: Seat, targets: Targets, idx: u8, out: &mut Vec<Event>) {
        if let Some(t) = targets.get(idx as usize) {
            self.stack.push(Frame::Raid { seat, targets, idx: idx + 1 });
            let n = self.p(t).hand.len();
            if n > 0 {
                let i = self.rng.index(n);
                let c = self.pm(t).hand.remove(i);
                self.pm(seat).hand.push(c);
                out.push(Event::Moved { from: t, to: seat, card: Some(c), public: false });
            }
        }
    }

    pub(super) fn normal_draw(&mut self, seat: Seat, out: &mut Vec<Event>) {
        let mut n = 2;
        if self.has(seat, Skill::Handsome) {
            out.push(Event::SkillUsed { seat, skill: Skill::Handsome });
            n += 1;
        }
        self.draw_cards(seat, n, out);
    }

    /// Living seats of `kingdom` other than `lord`, in turn order after him, with a card.
    pub(super) fn helpers(&self, lord: Seat, kingdom: Kingdom) -> Vec<Seat> {
        self.order_from(lord)
            .filter(|&s| {
                s != lord && self.general(s).is_some_and(|g| g.def().kingdom == kingdom) && self.p(s).card_count() > 0
            })
            .collect()
    }

    /// A Negate window on `on`: the living seats, in turn order from the current player, one
    /// at a time. The seat list is taken as the window opens; whether a seat holds a hand card
    /// (else it passes unasked) is looked at when its turn to answer comes, so a hand refilled
    /// in between (One After Another after negating with the last card) is asked.
    pub(crate) fn negate_frame(&self, kind: Kind, target: Seat, cancelled: bool, on: Kind) -> Frame {
        // With all four Negates face up in the discard pile nobody can answer: nobody is asked.
        let free = NEGATES.iter().any(|c| !self.discard.contains(c));
        let seats: SeatSet = if free { self.order_from(self.current).collect() } else { SeatSet::EMPTY };
        Frame::Negate { kind, target, cancelled, window: Window::new(on, seats, self.current, Answering::InOrder) }
    }

    /// The rescue window for `seat`: every living seat from the current player.
    pub(crate) fn dying_frame(&self, seat: Seat, killer: Option<Seat>) -> Frame {
        let seats: SeatSet = self.order_from(self.current).collect();
        Frame::Dying { seat, killer, window: Window::new(Kind::Peach, seats, self.current, Answering::InOrder) }
    }

    /// Whether `s` holds anything that could be a Peach (a seat with no card is passed over:
    /// its empty hand is public).
    fn can_rescue(&self, s: Seat) -> bool {
        self.alive(s)
            && (!self.p(s).hand.is_empty()
                || (self.has(s, Skill::FirstAid) && self.p(s).equip.iter().flatten().any(|c| c.is_red())))
    }

    pub(super) fn push_damage(&mut self, src: Option<Seat>, to: Seat, amount: i8, cause: Option<Used>) {
        self.stack.push(Frame::Damage { src, to, amount, cause, stage: 0, point: 0 });
    }

    /// Attack frames for each target, the first target on top.
    pub(super) fn push_attacks(&mut self, user: Seat, used: Used, targets: Targets) {
        let mut list: Vec<Seat> = targets.iter().collect();
        list.sort_by_key(|&t| (t.index() + self.num_players() - user.index()) % self.num_players());
        for &t in list.iter().rev() {
            self.stack.push(Frame::Attack(AttackFrame {
                user,
                target: t,
                used,
                stage: AttackStage::Displace,
                no_dodge: false,
                ignore_armour: false,
                frost_picks: 0,
            }));
        }
    }
}
