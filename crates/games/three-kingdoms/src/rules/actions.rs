//! Applying an action: the Play phase's cards and skills, answers, and choices.

use crate::action::{Action, Choice, Event, JudgeFor, Targets, Used};
use crate::cards::{CardId, Kind, Suit};
use crate::generals::{Kingdom, Skill};
use crate::state::*;
use engine::Seat;

impl ThreeKingdoms {
    /// Applies a legal action (the caller checked it is in `legal_actions`).
    pub(crate) fn execute(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) {
        if let Action::ChooseGeneral { general } = action {
            self.choose_general(seat, general, out);
            return;
        }
        let pending = self.pending.take().expect("a legal action answers a pending decision");
        match pending {
            Pending::Play { .. } => self.play(seat, action, out),
            Pending::Ask { .. } => self.answer(seat, action, out),
            _ => self.choose(seat, pending, action, out),
        }
        self.run(out);
    }

    /// A choice answering a pending decision other than the Play phase and a request (the card
    /// choices here, the skills' in [`Self::skill_choice`]).
    fn choose(&mut self, seat: Seat, pending: Pending, action: Action, out: &mut Vec<Event>) {
        match pending {
            Pending::Confirm { .. } => self.ret = Ret::Bool(action == Action::Confirm { yes: true }),
            Pending::Pick { .. } => {
                self.ret = match action {
                    Action::Pick { zone } => Ret::Zone(zone),
                    _ => Ret::None,
                }
            }
            Pending::Discard { seat: s, n, equip, except } => {
                if let Action::Discard { card } = action {
                    self.take_own(s, card, out);
                    self.discard_cards(s, vec![card], out);
                    if n > 1 {
                        self.pending = Some(Pending::Discard { seat: s, n: n - 1, equip, except });
                    }
                }
            }
            Pending::Unyielding { .. } => {
                self.ret = Ret::Bool(action == Action::Choose { choice: Choice::TakeDamage });
                if action == (Action::Choose { choice: Choice::DiscardTwo }) {
                    self.pending = Some(Pending::Discard { seat, n: 2, equip: false, except: None });
                }
            }
            Pending::YinYang { .. } => match action {
                Action::Discard { card } => {
                    self.remove_from_hand(seat, card);
                    self.discard_cards(seat, vec![card], out);
                }
                _ => {
                    if let Some(Frame::Attack(f)) = self.stack.last() {
                        let user = f.user;
                        self.draw_cards(user, 1, out);
                    }
                }
            },
            Pending::Triumphant { .. } => {
                if action == (Action::Choose { choice: Choice::Recover }) {
                    self.recover(seat, 1, out);
                } else {
                    self.draw_cards(seat, 1, out);
                }
                self.stack.pop();
            }
            Pending::NameSuit { .. } => {
                if let (Action::NameSuit { suit }, Some(Frame::SowDissension { suit: s, .. })) =
                    (action, self.stack.last_mut())
                {
                    *s = Some(suit);
                    out.push(Event::NamedSuit { seat, suit });
                }
            }
            Pending::Harvest { .. } => {
                if let (Action::Take { card }, Some(Frame::Tool(t))) = (action, self.stack.last_mut()) {
                    t.revealed.retain(|&c| c != card);
                    self.unprocess(card);
                    self.pm(seat).hand.push(card);
                    out.push(Event::Gained { seat, card });
                }
            }
            _ => self.skill_choice(seat, pending, action, out),
        }
    }

    /// A choice a skill asked for.
    fn skill_choice(&mut self, seat: Seat, pending: Pending, action: Action, out: &mut Vec<Event>) {
        match pending {
            Pending::Stargaze { .. } => {
                if let (Action::Place { card, top }, Some(Frame::Stargaze { cards, top: t, bottom, .. })) =
                    (action, self.stack.last_mut())
                {
                    cards.retain(|&c| c != card);
                    if top { t.push(card) } else { bottom.push(card) }
                }
            }
            Pending::Give { .. } => {
                if let (Action::Give { card, to }, Some(Frame::Bequeathed { cards, .. })) =
                    (action, self.stack.last_mut())
                {
                    cards.retain(|&c| c != card);
                    self.unprocess(card);
                    self.pm(to).hand.push(card);
                    out.push(Event::Moved { from: seat, to, card: Some(card), public: false });
                }
            }
            Pending::Displace { .. } => {
                if let Action::Displace { card, to } = action {
                    self.take_own(seat, card, out);
                    self.discard_cards(seat, vec![card], out);
                    out.push(Event::SkillUsed { seat, skill: Skill::Displacement });
                    if let Some(Frame::Attack(f)) = self.stack.last_mut() {
                        f.target = to;
                    }
                }
            }
            Pending::Replace { .. } => {
                if let (Action::Respond { card, .. }, Some(Frame::Judge { card: Some(old), .. })) =
                    (action, self.stack.last().cloned())
                {
                    self.remove_from_hand(seat, card);
                    self.unprocess(old);
                    self.discard.push(old);
                    self.processing.push(card);
                    if let Some(Frame::Judge { card: c, .. }) = self.stack.last_mut() {
                        *c = Some(card);
                    }
                    out.push(Event::SkillUsed { seat, skill: Skill::DemonicTalent });
                    out.push(Event::JudgementReplaced { by: seat, card });
                }
            }
            Pending::DrawPhase { .. } => match action {
                Action::BareChested => {
                    out.push(Event::SkillUsed { seat, skill: Skill::BareChested });
                    self.ts.bare_chested = true;
                    self.draw_cards(seat, 1, out);
                }
                Action::Raid { targets } => {
                    out.push(Event::SkillUsed { seat, skill: Skill::Raid });
                    self.stack.push(Frame::Raid { seat, targets, idx: 0 });
                }
                _ => self.normal_draw(seat, out),
            },
            Pending::Balance { .. } => match action {
                Action::Discard { card } => {
                    self.take_own(seat, card, out);
                    self.discard_cards(seat, vec![card], out);
                    if let Some(Frame::Balance { chosen, .. }) = self.stack.last_mut() {
                        *chosen += 1;
                    }
                }
                _ => {
                    if let Some(Frame::Balance { chosen, .. }) = self.stack.pop() {
                        self.draw_cards(seat, chosen, out);
                    }
                }
            },
            _ => unreachable!("{pending:?} is not a skill's choice"),
        }
    }

    /// A card answering the request on top of the stack.
    pub(super) fn answer(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) {
        let used = match action {
            Action::Respond { card, kind } => Some(Used::one(kind, card)),
            Action::RespondSpear { cards } => Some(Used::two(Kind::Attack, cards[0], cards[1])),
            _ => None,
        };
        let top = self.stack.last_mut().expect("a request is on the stack");
        match (top, action) {
            (Frame::Ask(a), Action::EightTrigrams) => {
                a.trigrams_tried = true;
                let s = a.seat;
                if self.config.seed_compat.coin_flip_eight_trigrams {
                    let red = self.rng.chance(1, 2);
                    let mut a = *a;
                    self.trigrams_result(&mut a, red, out);
                    if let Some(Frame::Ask(top)) = self.stack.last_mut() {
                        *top = a;
                    }
                } else {
                    a.waiting = AskWait::Trigrams;
                    self.stack.push(Frame::Judge {
                        seat: s,
                        reason: JudgeFor::Card(Kind::EightTrigrams),
                        card: None,
                        asked: false,
                    });
                }
            }
            (Frame::Ask(a), Action::AskHelpers) => {
                a.helpers_tried = true;
                a.waiting = AskWait::Helpers;
                let (lord, need, into_processing) = (a.seat, a.need, a.use_on.is_some());
                out.push(Event::SkillUsed {
                    seat: lord,
                    skill: if need == Kind::Dodge { Skill::Entourage } else { Skill::Rouse },
                });
                self.stack.push(Frame::Helpers { lord, need, asked: 0, into_processing, waiting: false });
            }
            (Frame::Ask(a), Action::Pass) => {
                out.push(Event::NoAnswer { seat, kind: a.need });
                self.stack.pop();
                self.ret = Ret::Failed;
            }
            (Frame::Ask(a), _) => {
                let used = used.expect("a card");
                a.done += 1;
                a.last = Some(used);
                a.trigrams_tried = false;
                a.helpers_tried = false;
                let keep = a.use_on.is_some();
                self.spend(seat, used, keep, out);
                if used.kind == Kind::Attack && self.ts_in_play(seat) {
                    self.ts.attack_in_play = true;
                }
            }
            (Frame::Helpers { asked, .. }, Action::Pass) => *asked += 1,
            (Frame::Helpers { into_processing, .. }, _) => {
                let keep = *into_processing;
                let used = used.expect("a card");
                self.stack.pop();
                self.spend(seat, used, keep, out);
                self.ret = Ret::Played(used);
            }
            (Frame::Negate { window, .. }, Action::Pass) => {
                let _ = window.pass(seat);
            }
            (Frame::Negate { cancelled, target, kind, .. }, _) => {
                let (target, kind, flipped) = (*target, *kind, !*cancelled);
                let used = used.expect("a card");
                for c in used.physical() {
                    self.remove_from_hand(seat, c);
                    self.discard.push(c);
                }
                out.push(Event::UsedCard { seat, used, targets: Targets::one(target) });
                self.wisdom(seat, out);
                // A new window opens on this Negate.
                let fresh = self.negate_frame(kind, target, flipped, Kind::Negate);
                if let Some(top) = self.stack.last_mut() {
                    *top = fresh;
                }
            }
            (Frame::Dying { window, .. }, Action::Pass) => {
                let _ = window.pass(seat);
            }
            (Frame::Dying { seat: dying, .. }, _) => {
                let dying = *dying;
                let used = used.expect("a card");
                for c in used.physical() {
                    self.take_own(seat, c, out);
                    self.discard.push(c);
                }
                out.push(Event::UsedCard { seat, used, targets: Targets::one(dying) });
                if used.kind != Kind::Peach || used.cards[0].is_some_and(|c| c.kind() != Kind::Peach) {
                    out.push(Event::SkillUsed { seat, skill: Skill::FirstAid });
                }
                let wu = self.general(seat).is_some_and(|g| g.def().kingdom == Kingdom::Wu);
                let extra = if seat != dying && wu && self.has(dying, Skill::Rescued) { 1 } else { 0 };
                if extra > 0 {
                    out.push(Event::SkillUsed { seat: dying, skill: Skill::Rescued });
                }
                self.recover(dying, 1 + extra, out);
            }
            _ => {}
        }
    }

    /// Plays `used` from `seat`'s cards: into the processing area if it is being used on
    /// someone, else onto the discard pile.
    fn spend(&mut self, seat: Seat, used: Used, keep: bool, out: &mut Vec<Event>) {
        let mut conv = None;
        for c in used.physical() {
            self.take_own(seat, c, out);
            if keep {
                self.processing.push(c);
            } else {
                self.discard.push(c);
            }
            if c.kind() != used.kind {
                conv = self.conversion_skill(seat, c, used.kind);
            }
        }
        if let Some(skill) = conv {
            out.push(Event::SkillUsed { seat, skill });
        }
        if !keep {
            out.push(Event::Played { seat, used, hand: self.p(seat).hand.len() as u8 });
        }
    }

    /// The skill that lets `seat` use `card` as `kind` (None for the card itself or a spear).
    pub(crate) fn conversion_skill(&self, seat: Seat, card: CardId, kind: Kind) -> Option<Skill> {
        let natural = card.kind();
        let s = |skill| self.has(seat, skill).then_some(skill);
        match kind {
            _ if natural == kind => None,
            Kind::Attack if natural == Kind::Dodge && s(Skill::DragonHeart).is_some() => Some(Skill::DragonHeart),
            Kind::Attack if card.is_red() => s(Skill::WarriorSaint),
            Kind::Dodge if natural == Kind::Attack && s(Skill::DragonHeart).is_some() => Some(Skill::DragonHeart),
            Kind::Dodge if !card.is_red() => s(Skill::Impetus),
            Kind::Dismantle if !card.is_red() => s(Skill::SurpriseRaid),
            Kind::Acedia if card.suit() == Suit::Diamond => s(Skill::NationalBeauty),
            Kind::Peach if card.is_red() && seat != self.current => s(Skill::FirstAid),
            _ => None,
        }
    }

    fn wisdom(&mut self, seat: Seat, out: &mut Vec<Event>) {
        if self.has(seat, Skill::Wisdom) {
            out.push(Event::SkillUsed { seat, skill: Skill::Wisdom });
            self.draw_cards(seat, 1, out);
        }
    }

    /// A Play-phase action.
    pub(super) fn play(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) {
        match action {
            Action::EndPlay => self.enter(Step::Discard, out),
            Action::Use { card, kind, targets } => {
                self.take_own(seat, card, out);
                if let Some(skill) = self.conversion_skill(seat, card, kind) {
                    out.push(Event::SkillUsed { seat, skill });
                }
                let used = Used::one(kind, card);
                self.use_card(seat, used, targets, out);
            }
            Action::UseSpear { cards, targets } => {
                out.push(Event::Equipment { seat, kind: Kind::SerpentSpear, target: None });
                for c in cards {
                    self.take_own(seat, c, out);
                }
                let used = Used::two(Kind::Attack, cards[0], cards[1]);
                if self.config.seed_compat.serpent_spear_extra_attack {
                    // The seed's spear Attack comes on top of the normal one.
                    self.processing.extend(used.physical());
                    out.push(Event::UsedCard { seat, used, targets });
                    self.ts.attack_in_play = true;
                    self.push_attacks(seat, used, targets);
                } else {
                    self.use_card(seat, used, targets, out);
                }
            }
            Action::Rouse { targets } => self.stack.push(Frame::RouseUse { seat, targets, stage: 0 }),
            Action::Benevolence { card, to } => {
                out.push(Event::SkillUsed { seat, skill: Skill::Benevolence });
                if self.config.seed_compat.seed_benevolence {
                    // The seed: discard 2 cards (the chosen one and a random other), recover 1.
                    self.remove_from_hand(seat, card);
                    let i = self.rng.index(self.p(seat).hand.len());
                    let other = self.pm(seat).hand.remove(i);
                    self.discard_cards(seat, vec![card, other], out);
                    self.ts.benevolence_healed = true;
                    self.recover(seat, 1, out);
                    return;
                }
                self.remove_from_hand(seat, card);
                self.pm(to).hand.push(card);
                out.push(Event::Moved { from: seat, to, card: Some(card), public: false });
                self.ts.benevolence_given = self.ts.benevolence_given.saturating_add(1);
                if self.ts.benevolence_given >= 2 && !self.ts.benevolence_healed {
                    self.ts.benevolence_healed = true;
                    self.recover(seat, 1, out);
                }
            }
            Action::Balance => {
                self.ts.mark(Skill::BalanceOfPower);
                out.push(Event::SkillUsed { seat, skill: Skill::BalanceOfPower });
                self.stack.push(Frame::Balance { seat, chosen: 0 });
            }
            Action::TrojanFlesh => {
                out.push(Event::SkillUsed { seat, skill: Skill::TrojanFlesh });
                self.stack.push(Frame::TrojanFlesh { seat, stage: 0 });
            }
            Action::SowDissension { target } => {
                self.ts.mark(Skill::SowDissension);
                out.push(Event::SkillUsed { seat, skill: Skill::SowDissension });
                self.stack.push(Frame::SowDissension { seat, target, suit: None, stage: 0 });
            }
            Action::Marriage { cards, target } => {
                self.ts.mark(Skill::Marriage);
                out.push(Event::SkillUsed { seat, skill: Skill::Marriage });
                for c in cards {
                    self.remove_from_hand(seat, c);
                }
                self.discard_cards(seat, cards.to_vec(), out);
                self.recover(seat, 1, out);
                self.recover(target, 1, out);
            }
            Action::GreenSalve { card, target } => {
                self.ts.mark(Skill::GreenSalve);
                out.push(Event::SkillUsed { seat, skill: Skill::GreenSalve });
                self.remove_from_hand(seat, card);
                self.discard_cards(seat, vec![card], out);
                self.recover(target, 1, out);
            }
            Action::SeedOfAnimosity { card, first, second } => {
                self.ts.mark(Skill::SeedOfAnimosity);
                out.push(Event::SkillUsed { seat, skill: Skill::SeedOfAnimosity });
                self.take_own(seat, card, out);
                self.discard_cards(seat, vec![card], out);
                let used = Used::virtual_card(Kind::Duel);
                out.push(Event::UsedCard { seat: second, used, targets: Targets::one(first) });
                self.stack.push(Frame::Duel { user: second, target: first, used, responder: first, stage: 0 });
            }
            _ => {}
        }
    }

    fn use_card(&mut self, seat: Seat, used: Used, targets: Targets, out: &mut Vec<Event>) {
        let kind = used.kind;
        let card = used.cards[0].expect("a physical card");
        if kind.is_equipment() {
            self.equip(seat, card, out);
            return;
        }
        if kind.is_delayed() {
            let to = if kind == Kind::Lightning { seat } else { targets.first().expect("a target") };
            out.push(Event::UsedCard { seat, used, targets: Targets::one(to) });
            self.pm(to).judge.push((card, kind));
            return;
        }
        self.processing.extend(used.physical());
        match kind {
            Kind::Peach => {
                out.push(Event::UsedCard { seat, used, targets: Targets::one(seat) });
                self.recover(seat, 1, out);
                self.settle(used);
            }
            Kind::Attack => {
                out.push(Event::UsedCard { seat, used, targets });
                self.ts.attacks += 1;
                self.ts.attack_in_play = true;
                if self.p(seat).weapon() == Some(Kind::ZhugeCrossbow) && self.ts.attacks > 1 {
                    out.push(Event::Equipment { seat, kind: Kind::ZhugeCrossbow, target: None });
                }
                self.push_attacks(seat, used, targets);
            }
            _ => {
                let all_from = |s: &Self, from: Seat| s.order_from(from).collect::<Vec<_>>();
                let (list, victim) = match kind {
                    Kind::Barbarians | Kind::RainArrows => {
                        (all_from(self, seat).into_iter().filter(|&s| s != seat).collect(), None)
                    }
                    Kind::PeachGarden | Kind::BumperHarvest => (all_from(self, seat), None),
                    Kind::SomethingOutOfNothing => (vec![seat], None),
                    Kind::BorrowedSword => (vec![targets.first().expect("wielder")], targets.get(1)),
                    _ => (vec![targets.first().expect("target")], None),
                };
                let shown = if targets.is_empty() { Targets::NONE } else { targets };
                out.push(Event::UsedCard { seat, used, targets: shown });
                self.wisdom(seat, out);
                let mut revealed = Vec::new();
                if kind == Kind::BumperHarvest {
                    for _ in 0..list.len() {
                        match self.top_card(out) {
                            Some(c) => revealed.push(c),
                            None => return,
                        }
                    }
                    self.processing.extend(&revealed);
                    out.push(Event::HarvestRevealed { cards: revealed.clone() });
                }
                self.stack.push(Frame::Tool(ToolFrame {
                    user: seat,
                    used,
                    targets: list,
                    victim,
                    idx: 0,
                    stage: 0,
                    revealed,
                }));
            }
        }
    }
}
