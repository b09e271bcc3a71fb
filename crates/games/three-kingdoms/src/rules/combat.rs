//! Requests (Dodge, Attack, Peach, with Eight Trigrams and the helpers), damage, and the
//! stages of an Attack.

use crate::action::{Event, JudgeFor, Targets, Used};
use crate::cards::{Colour, Kind, Slot};
use crate::generals::{Kingdom, Skill};
use crate::state::*;
use engine::Seat;

impl ThreeKingdoms {
    pub(super) fn step_ask(&mut self, mut a: Ask, out: &mut Vec<Event>) {
        if a.done >= a.times {
            self.ret = Ret::Played(a.last.unwrap_or(Used::virtual_card(a.need)));
            return;
        }
        match a.waiting {
            AskWait::Trigrams => {
                a.waiting = AskWait::Answer;
                if let Ret::Judged(c) = self.take_ret() {
                    let red = c.is_red();
                    self.end_judgement(a.seat, c, out);
                    self.trigrams_result(&mut a, red, out);
                }
                self.stack.push(Frame::Ask(a));
            }
            AskWait::Helpers => {
                a.waiting = AskWait::Answer;
                if let Ret::Played(u) = self.take_ret() {
                    a.done += 1;
                    a.last = Some(u);
                    a.trigrams_tried = false;
                    a.helpers_tried = false;
                }
                self.stack.push(Frame::Ask(a));
            }
            AskWait::Answer => {
                if !self.alive(a.seat) {
                    self.ret = Ret::Failed;
                    return;
                }
                let seat = a.seat;
                // A seat with no card and no other way to answer is passed without asking
                // (its empty hand and equipment are public).
                let p = self.p(seat);
                let helped = (a.need == Kind::Dodge
                    && self.has(seat, Skill::Entourage)
                    && !self.helpers(seat, Kingdom::Wei).is_empty())
                    || (a.need == Kind::Attack
                        && self.has(seat, Skill::Rouse)
                        && !self.helpers(seat, Kingdom::Shu).is_empty());
                if p.hand.is_empty() && p.equip_count() == 0 && !helped {
                    out.push(Event::NoAnswer { seat, kind: a.need });
                    self.ret = Ret::Failed;
                    return;
                }
                self.wait(Frame::Ask(a), Pending::Ask { seat });
            }
        }
    }

    pub(super) fn trigrams_result(&mut self, a: &mut Ask, red: bool, out: &mut Vec<Event>) {
        if red {
            a.done += 1;
            let used = Used::virtual_card(Kind::Dodge);
            a.last = Some(used);
            a.trigrams_tried = false;
            a.helpers_tried = false;
            out.push(Event::Played { seat: a.seat, used, hand: self.p(a.seat).hand.len() as u8 });
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn step_damage(
        &mut self,
        src: Option<Seat>,
        to: Seat,
        amount: i8,
        cause: Option<Used>,
        stage: u8,
        point: i8,
        out: &mut Vec<Event>,
    ) {
        if !self.alive(to) {
            return;
        }
        let again = |stage: u8, point: i8| Frame::Damage { src, to, amount, cause, stage, point };
        let src_alive = src.filter(|&s| self.alive(s) && s != to);
        match stage {
            0 => {
                let mut amount = amount;
                let by_card = cause.is_some_and(|u| matches!(u.kind, Kind::Attack | Kind::Duel));
                if src == Some(self.current) && self.ts.bare_chested && by_card {
                    amount += 1;
                }
                let p = self.pm(to);
                p.hp -= amount;
                let hp = p.hp;
                out.push(Event::Damaged { seat: to, source: src, amount, hp });
                self.stack.push(Frame::Damage { src, to, amount, cause, stage: 1, point: 0 });
                if hp <= 0 {
                    self.stack.push(self.dying_frame(to, src));
                }
                // Kirin Bow resolves as the blow lands: before the rescue and the after-damage
                // skills (so Retaliation cannot take the Bow first). The victim is announced
                // dying once the Bow is done (`step_kirin_bow`), as the rescue begins, so that
                // the log reads in the rules' order (issue 46: the pick came after "dying").
                if let Some(user) = src.filter(|&u| u != to && self.alive(u))
                    && cause.is_some_and(|u| u.kind == Kind::Attack)
                    && self.p(user).weapon() == Some(Kind::KirinBow)
                    && self.has_horse(to)
                {
                    self.stack.push(Frame::KirinBow { user, target: to, stage: 0 });
                } else if hp <= 0 {
                    out.push(Event::Dying { seat: to, hp });
                }
            }
            1 => {
                self.stack.push(again(2, 0));
                let red_attack = cause.is_some_and(|u| u.kind == Kind::Attack && u.colour() == Colour::Red);
                if let (true, true, Some(s)) = (self.has(to, Skill::Triumphant), red_attack, src_alive) {
                    out.push(Event::SkillUsed { seat: to, skill: Skill::Triumphant });
                    self.stack.push(Frame::Triumphant { src: s });
                }
            }
            2 => {
                self.stack.push(again(3, 0));
                if let (true, Some(u)) = (self.has(to, Skill::Treachery), cause) {
                    let mut took = false;
                    for c in u.physical() {
                        if self.unprocess(c) {
                            self.pm(to).hand.push(c);
                            if !took {
                                out.push(Event::SkillUsed { seat: to, skill: Skill::Treachery });
                                took = true;
                            }
                            out.push(Event::Gained { seat: to, card: c });
                        }
                    }
                }
            }
            3 => {
                self.stack.push(again(4, 0));
                if let (true, Some(s)) = (self.has(to, Skill::Retaliation), src_alive)
                    && self.p(s).card_count() > 0
                {
                    self.stack.push(Frame::Retaliation { seat: to, from: s, stage: 0 });
                }
            }
            4 => {
                self.stack.push(again(5, 0));
                if let (true, Some(s)) = (self.has(to, Skill::Unyielding), src_alive) {
                    self.stack.push(Frame::Unyielding { seat: to, src: s, stage: 0 });
                }
            }
            5 if self.has(to, Skill::BequeathedStrategy) && point < amount => {
                self.stack.push(again(5, point + 1));
                let mut cards = Vec::new();
                for _ in 0..2 {
                    match self.top_card(out) {
                        Some(c) => cards.push(c),
                        None => return,
                    }
                }
                self.processing.extend(&cards);
                out.push(Event::SkillUsed { seat: to, skill: Skill::BequeathedStrategy });
                out.push(Event::Looked { seat: to, cards: cards.clone() });
                self.stack.push(Frame::Bequeathed { seat: to, cards });
            }
            _ => {}
        }
    }

    pub(super) fn step_attack(&mut self, mut f: AttackFrame, out: &mut Vec<Event>) {
        use AttackStage::*;
        if f.stage != Finish && (!self.alive(f.target) || !self.alive(f.user)) {
            f.stage = Finish;
        }
        match f.stage {
            Displace | AfterDisplace | IronCavalry | AfterIronCavalry | Swords | AfterSwordsConfirm => {
                self.attack_to_dodge(f, out)
            }
            Armour | AfterDodge | AfterFollowUp | AfterAxeConfirm | AfterAxeDiscard => self.attack_dodged(f, out),
            Hit | AfterFrostConfirm | AfterFrostPick | AfterDamage | Finish => self.attack_hit(f, out),
        }
    }

    /// An Attack up to its Dodge request: Displacement, Iron Cavalry, the Yin-Yang Swords.
    fn attack_to_dodge(&mut self, mut f: AttackFrame, out: &mut Vec<Event>) {
        use AttackStage::*;
        let (user, target) = (f.user, f.target);
        match f.stage {
            Displace => {
                f.stage = IronCavalry;
                if self.has(target, Skill::Displacement)
                    && self.p(target).card_count() > 0
                    && self.displace_targets(target, user).next().is_some()
                {
                    f.stage = AfterDisplace;
                    self.wait(Frame::Attack(f), Pending::Displace { seat: target, attacker: user });
                    return;
                }
                self.stack.push(Frame::Attack(f));
            }
            AfterDisplace => {
                f.stage = IronCavalry;
                self.stack.push(Frame::Attack(f));
            }
            IronCavalry => {
                if self.has(user, Skill::IronCavalry) {
                    out.push(Event::SkillUsed { seat: user, skill: Skill::IronCavalry });
                    f.stage = AfterIronCavalry;
                    self.stack.push(Frame::Attack(f));
                    self.stack.push(Frame::Judge {
                        seat: user,
                        reason: JudgeFor::Skill(Skill::IronCavalry),
                        card: None,
                        asked: false,
                    });
                } else {
                    f.stage = Swords;
                    self.stack.push(Frame::Attack(f));
                }
            }
            AfterIronCavalry => {
                if let Ret::Judged(c) = self.take_ret() {
                    f.no_dodge = c.is_red();
                    self.end_judgement(user, c, out);
                }
                f.stage = Swords;
                self.stack.push(Frame::Attack(f));
            }
            Swords => {
                let genders = |s: Seat| self.general(s).map(|g| g.def().gender);
                if self.p(user).weapon() == Some(Kind::YinYangSwords) && genders(user) != genders(target) {
                    f.stage = AfterSwordsConfirm;
                    if self.config.seed_compat.random_weapon_choices {
                        self.ret = Ret::Bool(true);
                        self.stack.push(Frame::Attack(f));
                    } else {
                        self.wait(
                            Frame::Attack(f),
                            Pending::Confirm { seat: user, skill: None, card: Some(Kind::YinYangSwords) },
                        );
                    }
                    return;
                }
                f.stage = Armour;
                self.stack.push(Frame::Attack(f));
            }
            AfterSwordsConfirm => {
                f.stage = Armour;
                if self.take_ret() == Ret::Bool(true) {
                    out.push(Event::Equipment { seat: user, kind: Kind::YinYangSwords, target: Some(target) });
                    if self.config.seed_compat.random_weapon_choices || self.p(target).hand.is_empty() {
                        let discard = !self.p(target).hand.is_empty() && self.rng.chance(1, 2);
                        self.stack.push(Frame::Attack(f));
                        if discard {
                            let i = self.rng.index(self.p(target).hand.len());
                            let c = self.pm(target).hand.remove(i);
                            self.discard_cards(target, vec![c], out);
                        } else {
                            self.draw_cards(user, 1, out);
                        }
                    } else {
                        self.wait(Frame::Attack(f), Pending::YinYang { seat: target });
                    }
                    return;
                }
                self.stack.push(Frame::Attack(f));
            }
            _ => unreachable!("{:?} is another part of the Attack", f.stage),
        }
    }

    /// An Attack from the armour to the Dodge and what follows one: Green Dragon, Stone Axe.
    fn attack_dodged(&mut self, mut f: AttackFrame, out: &mut Vec<Event>) {
        use AttackStage::*;
        let (user, target) = (f.user, f.target);
        match f.stage {
            Armour => {
                f.ignore_armour = self.p(user).weapon() == Some(Kind::BlueSteelBlade);
                if f.ignore_armour && self.p(target).armour().is_some() {
                    out.push(Event::Equipment { seat: user, kind: Kind::BlueSteelBlade, target: Some(target) });
                }
                if !f.ignore_armour
                    && self.p(target).armour() == Some(Kind::RenwangShield)
                    && f.used.colour() == Colour::Black
                {
                    out.push(Event::Equipment { seat: target, kind: Kind::RenwangShield, target: None });
                    f.stage = Finish;
                    self.stack.push(Frame::Attack(f));
                    return;
                }
                if f.no_dodge {
                    f.stage = Hit;
                    self.stack.push(Frame::Attack(f));
                    return;
                }
                f.stage = AfterDodge;
                let times = if self.has(user, Skill::Unrivaled) { 2 } else { 1 };
                let mut ask = Ask::answering(target, Kind::Dodge, times, Kind::Attack, user);
                ask.ignore_armour = f.ignore_armour;
                self.stack.push(Frame::Attack(f));
                self.stack.push(Frame::Ask(ask));
            }
            AfterDodge => match self.take_ret() {
                Ret::Played(_) => {
                    self.raise_risk(target, RISK_DODGED, out);
                    let weapon = self.p(user).weapon();
                    if weapon == Some(Kind::GreenDragonBlade) && self.p(user).card_count() > 0 {
                        f.stage = AfterFollowUp;
                        let mut ask = Ask::new(user, Kind::Attack, 1);
                        ask.use_on = Some(target);
                        self.stack.push(Frame::Attack(f));
                        self.stack.push(Frame::Ask(ask));
                    } else if weapon == Some(Kind::RockCleavingAxe) && self.p(user).card_count() >= 3 {
                        f.stage = AfterAxeConfirm;
                        self.wait(
                            Frame::Attack(f),
                            Pending::Confirm { seat: user, skill: None, card: Some(Kind::RockCleavingAxe) },
                        );
                    } else {
                        f.stage = Finish;
                        self.stack.push(Frame::Attack(f));
                    }
                }
                _ => {
                    f.stage = Hit;
                    self.stack.push(Frame::Attack(f));
                }
            },
            AfterFollowUp => {
                f.stage = Finish;
                self.stack.push(Frame::Attack(f));
                if let Ret::Played(u) = self.take_ret() {
                    out.push(Event::Equipment { seat: user, kind: Kind::GreenDragonBlade, target: Some(target) });
                    out.push(Event::UsedCard { seat: user, used: u, targets: Targets::one(target) });
                    if self.ts_in_play(user) {
                        self.ts.attack_in_play = true;
                    }
                    self.stack.push(Frame::Attack(AttackFrame {
                        user,
                        target,
                        used: u,
                        stage: Displace,
                        no_dodge: false,
                        ignore_armour: false,
                        frost_picks: 0,
                    }));
                }
            }
            AfterAxeConfirm => {
                if self.take_ret() == Ret::Bool(true) {
                    out.push(Event::Equipment { seat: user, kind: Kind::RockCleavingAxe, target: Some(target) });
                    f.stage = AfterAxeDiscard;
                    let except = self.p(user).equip[Slot::Weapon.index()];
                    self.wait(Frame::Attack(f), Pending::Discard { seat: user, n: 2, equip: true, except });
                } else {
                    f.stage = Finish;
                    self.stack.push(Frame::Attack(f));
                }
            }
            AfterAxeDiscard => {
                f.stage = Hit;
                self.stack.push(Frame::Attack(f));
            }
            _ => unreachable!("{:?} is another part of the Attack", f.stage),
        }
    }

    /// An Attack that hits: Frost Sword, the damage, and the settling.
    fn attack_hit(&mut self, mut f: AttackFrame, out: &mut Vec<Event>) {
        use AttackStage::*;
        let (user, target) = (f.user, f.target);
        match f.stage {
            Hit => {
                if self.p(user).weapon() == Some(Kind::FrostBlade) && self.p(target).card_count() > 0 {
                    f.stage = AfterFrostConfirm;
                    self.wait(
                        Frame::Attack(f),
                        Pending::Confirm { seat: user, skill: None, card: Some(Kind::FrostBlade) },
                    );
                    return;
                }
                f.stage = AfterDamage;
                self.stack.push(Frame::Attack(f));
                self.push_damage(Some(user), target, 1, Some(f.used));
            }
            AfterFrostConfirm => {
                if self.take_ret() == Ret::Bool(true) {
                    out.push(Event::Equipment { seat: user, kind: Kind::FrostBlade, target: Some(target) });
                    f.stage = AfterFrostPick;
                    self.wait(
                        Frame::Attack(f),
                        Pending::Pick {
                            seat: user,
                            from: target,
                            why: JudgeFor::Card(Kind::FrostBlade),
                            hand: true,
                            equip: true,
                            judge: false,
                            horses: false,
                            optional: false,
                        },
                    );
                } else {
                    f.stage = AfterDamage;
                    self.stack.push(Frame::Attack(f));
                    self.push_damage(Some(user), target, 1, Some(f.used));
                }
            }
            AfterFrostPick => {
                if let Ret::Zone(z) = self.take_ret() {
                    if let Some(c) = self.take_picked(target, z, out) {
                        self.discard_cards(target, vec![c], out);
                    }
                    f.frost_picks += 1;
                }
                if f.frost_picks < 2 && self.p(target).card_count() > 0 {
                    self.wait(
                        Frame::Attack(f),
                        Pending::Pick {
                            seat: user,
                            from: target,
                            why: JudgeFor::Card(Kind::FrostBlade),
                            hand: true,
                            equip: true,
                            judge: false,
                            horses: false,
                            optional: false,
                        },
                    );
                } else {
                    f.stage = Finish;
                    self.stack.push(Frame::Attack(f));
                }
            }
            AfterDamage => {
                // Kirin Bow has acted as the damage landed (Frame::KirinBow).
                self.raise_risk(target, RISK_HIT, out);
                f.stage = Finish;
                self.stack.push(Frame::Attack(f));
            }
            Finish => self.settle(f.used),
            _ => unreachable!("{:?} is another part of the Attack", f.stage),
        }
    }

    pub(super) fn has_horse(&self, s: Seat) -> bool {
        let e = &self.p(s).equip;
        e[Slot::PlusHorse.index()].is_some() || e[Slot::MinusHorse.index()].is_some()
    }

    pub(super) fn ts_in_play(&self, seat: Seat) -> bool {
        seat == self.current && self.step == Step::Play
    }

    /// Where Da Qiao may move an Attack: living seats in her attack range, not herself nor
    /// the attacker.
    pub(crate) fn displace_targets(&self, daqiao: Seat, attacker: Seat) -> impl Iterator<Item = Seat> + '_ {
        self.order_from(daqiao).filter(move |&t| {
            t != daqiao && t != attacker && self.distance(daqiao, t) <= self.attack_range(daqiao) && !self.empty_city(t)
        })
    }
}
