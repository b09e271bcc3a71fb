//! The legal actions: the one source of legality (`apply` accepts exactly these).

use crate::action::{Action, Choice, Targets, Zone};
use crate::cards::{CardId, Kind, Slot, Suit};
use crate::generals::{Gender, Kingdom, Skill};
use crate::state::*;
use engine::{RuleError, Seat, SeatSet};

impl ThreeKingdoms {
    pub fn to_act_set(&self) -> SeatSet {
        match self.step {
            Step::Over(_) => SeatSet::EMPTY,
            Step::LordChooses => SeatSet::one(self.lord),
            Step::OthersChoose => Seat::all(self.num_players()).filter(|&s| self.p(s).general.is_none()).collect(),
            _ => self.pending.map_or(SeatSet::EMPTY, |p| SeatSet::one(p.seat())),
        }
    }

    pub fn legal_into(&self, seat: Seat, out: &mut Vec<Action>) {
        match self.step {
            Step::Over(_) => return,
            Step::LordChooses | Step::OthersChoose => {
                if self.to_act_set().contains(seat) {
                    out.extend(self.p(seat).candidates.iter().map(|&general| Action::ChooseGeneral { general }));
                }
                return;
            }
            _ => {}
        }
        let Some(pending) = self.pending else { return };
        if pending.seat() != seat {
            return;
        }
        let p = self.p(seat);
        match pending {
            Pending::Play { .. } => self.play_actions(seat, out),
            Pending::Ask { .. } => self.ask_actions(seat, out),
            Pending::Confirm { .. } => out.extend([Action::Confirm { yes: true }, Action::Confirm { yes: false }]),
            Pending::Pick { from, hand, equip, judge, horses, optional, .. } => {
                self.pick_actions(from, [hand, equip, judge], horses, optional, out)
            }
            Pending::Discard { equip, except, .. } => {
                out.extend(p.hand.iter().map(|&card| Action::Discard { card }));
                if equip {
                    out.extend(
                        p.equip.iter().flatten().filter(|&&c| Some(c) != except).map(|&card| Action::Discard { card }),
                    );
                }
                if out.is_empty() {
                    out.push(Action::Pass);
                }
            }
            Pending::Unyielding { .. } => {
                out.push(Action::Choose { choice: Choice::TakeDamage });
                if p.hand.len() >= 2 {
                    out.push(Action::Choose { choice: Choice::DiscardTwo });
                }
            }
            Pending::YinYang { .. } => {
                out.extend(p.hand.iter().map(|&card| Action::Discard { card }));
                out.push(Action::Choose { choice: Choice::LetDraw });
            }
            Pending::Triumphant { .. } => {
                out.extend([Action::Choose { choice: Choice::Recover }, Action::Choose { choice: Choice::Draw }])
            }
            Pending::NameSuit { .. } => out.extend(Suit::ALL.map(|suit| Action::NameSuit { suit })),
            Pending::Harvest { .. } => {
                if let Some(Frame::Tool(t)) = self.stack.last() {
                    out.extend(t.revealed.iter().map(|&card| Action::Take { card }));
                }
            }
            Pending::Stargaze { .. } => {
                if let Some(Frame::Stargaze { cards, .. }) = self.stack.last() {
                    for &card in cards {
                        out.extend([Action::Place { card, top: true }, Action::Place { card, top: false }]);
                    }
                }
            }
            Pending::Give { .. } => {
                if let Some(Frame::Bequeathed { cards, .. }) = self.stack.last() {
                    for &card in cards {
                        out.extend(self.order_from(seat).map(|to| Action::Give { card, to }));
                    }
                }
            }
            Pending::Displace { attacker, .. } => {
                let targets: Vec<Seat> = self.displace_targets(seat, attacker).collect();
                for card in p.hand.iter().chain(p.equip.iter().flatten()) {
                    out.extend(targets.iter().map(|&to| Action::Displace { card: *card, to }));
                }
                out.push(Action::Pass);
            }
            Pending::Replace { .. } => {
                out.extend(p.hand.iter().map(|&card| Action::Respond { card, kind: card.kind() }));
                out.push(Action::Pass);
            }
            Pending::DrawPhase { .. } => self.draw_phase_actions(seat, out),
            Pending::Balance { .. } => {
                out.extend(p.hand.iter().chain(p.equip.iter().flatten()).map(|&card| Action::Discard { card }));
                if let Some(Frame::Balance { chosen, .. }) = self.stack.last()
                    && (*chosen > 0 || out.is_empty())
                {
                    out.push(Action::Done);
                }
            }
        }
    }

    /// Picking a card of `from`'s: in its hand, equipment (only horses with `horses`) or
    /// judgement area, as `zones` (hand, equipment, judgement) allow; `Pass` when optional or
    /// when there is nothing to pick.
    fn pick_actions(&self, from: Seat, zones: [bool; 3], horses: bool, optional: bool, out: &mut Vec<Action>) {
        let [hand, equip, judge] = zones;
        let f = self.p(from);
        if hand {
            out.extend((0..f.hand.len() as u8).map(|i| Action::Pick { zone: Zone::Hand(i) }));
        }
        if equip {
            for slot in Slot::ALL {
                let horse = matches!(slot, Slot::PlusHorse | Slot::MinusHorse);
                if f.equip[slot.index()].is_some() && (!horses || horse) {
                    out.push(Action::Pick { zone: Zone::Equip(slot) });
                }
            }
        }
        if judge {
            out.extend((0..f.judge.len() as u8).map(|i| Action::Pick { zone: Zone::Judge(i) }));
        }
        if optional || out.is_empty() {
            out.push(Action::Pass);
        }
    }

    /// The Draw phase: draw normally, or Bare-Chested, or Raid one or two seats with a hand.
    fn draw_phase_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.push(Action::DrawNormally);
        if self.has(seat, Skill::BareChested) {
            out.push(Action::BareChested);
        }
        if self.has(seat, Skill::Raid) {
            let with_hand: Vec<Seat> =
                self.order_from(seat).filter(|&s| s != seat && !self.p(s).hand.is_empty()).collect();
            for (i, &a) in with_hand.iter().enumerate() {
                out.push(Action::Raid { targets: Targets::one(a) });
                for &b in &with_hand[i + 1..] {
                    out.push(Action::Raid { targets: Targets::two(a, b) });
                }
            }
        }
    }

    /// Cards of `seat` (hand, then equipment when `equip`) that can serve as `kind`.
    fn as_kind(&self, seat: Seat, kind: Kind, equip: bool, out: &mut Vec<Action>, respond: bool) {
        let p = self.p(seat);
        let mut push = |card: CardId, from_equip: bool| {
            let ok = if from_equip {
                // Only conversion skills use equipped cards, and Impetus takes hand cards only.
                self.conversion_skill(seat, card, kind).is_some_and(|s| s != Skill::Impetus)
            } else {
                card.kind() == kind || self.conversion_skill(seat, card, kind).is_some()
            };
            if ok {
                out.push(if respond {
                    Action::Respond { card, kind }
                } else {
                    Action::Use { card, kind, targets: Targets::NONE }
                });
            }
        };
        for &c in &p.hand {
            push(c, false);
        }
        if equip {
            for &c in p.equip.iter().flatten() {
                push(c, true);
            }
        }
    }

    fn spear_pairs(&self, seat: Seat, mut f: impl FnMut([CardId; 2])) {
        let p = self.p(seat);
        if p.weapon() != Some(Kind::SerpentSpear) {
            return;
        }
        for i in 0..p.hand.len() {
            for j in i + 1..p.hand.len() {
                f([p.hand[i], p.hand[j]]);
            }
        }
    }

    fn ask_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        match self.stack.last() {
            Some(Frame::Ask(a)) => {
                self.as_kind(seat, a.need, true, out, true);
                if a.need == Kind::Attack {
                    self.spear_pairs(seat, |cards| out.push(Action::RespondSpear { cards }));
                }
                if a.need == Kind::Dodge
                    && !a.ignore_armour
                    && !a.trigrams_tried
                    && self.p(seat).armour() == Some(Kind::EightTrigrams)
                {
                    out.push(Action::EightTrigrams);
                }
                let (skill, kingdom) =
                    if a.need == Kind::Dodge { (Skill::Entourage, Kingdom::Wei) } else { (Skill::Rouse, Kingdom::Shu) };
                if !a.helpers_tried && self.has(seat, skill) && !self.helpers_of(seat, kingdom).is_empty() {
                    out.push(Action::AskHelpers);
                }
            }
            Some(Frame::Helpers { need, .. }) => {
                self.as_kind(seat, *need, true, out, true);
                if *need == Kind::Attack {
                    self.spear_pairs(seat, |cards| out.push(Action::RespondSpear { cards }));
                }
            }
            Some(Frame::Negate { .. }) => {
                out.extend(
                    self.p(seat)
                        .hand
                        .iter()
                        .filter(|c| c.kind() == Kind::Negate)
                        .map(|&card| Action::Respond { card, kind: Kind::Negate }),
                );
            }
            Some(Frame::Dying { .. }) => self.as_kind(seat, Kind::Peach, true, out, true),
            _ => {}
        }
        out.push(Action::Pass);
    }

    pub(crate) fn helpers_of(&self, lord: Seat, kingdom: Kingdom) -> Vec<Seat> {
        self.order_from(lord)
            .filter(|&s| {
                s != lord && self.general(s).is_some_and(|g| g.def().kingdom == kingdom) && self.p(s).card_count() > 0
            })
            .collect()
    }

    fn others(&self, seat: Seat) -> impl Iterator<Item = Seat> + '_ {
        self.order_from(seat).filter(move |&s| s != seat)
    }

    fn play_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        self.play_actions_for(seat, out, None);
    }

    /// The Play-phase actions; with `only`, just the uses of that one card (what `apply`
    /// needs to check a `Use` without listing everything).
    pub(crate) fn play_actions_for(&self, seat: Seat, out: &mut Vec<Action>, only: Option<CardId>) {
        let p = self.p(seat);
        let attack_ok = self.attack_available(seat);
        let attack_targets: Vec<Seat> =
            if attack_ok { self.others(seat).filter(|&t| self.can_attack(seat, t)).collect() } else { Vec::new() };
        let halberd = p.weapon() == Some(Kind::SkyPiercingHalberd) && p.hand.len() == 1;
        let mut candidates: Vec<(CardId, Kind)> = Vec::new();
        for &c in p.hand.iter().filter(|&&c| only.is_none_or(|o| o == c)) {
            candidates.push((c, c.kind()));
            for k in [Kind::Attack, Kind::Dismantle, Kind::Acedia] {
                if k != c.kind() && self.conversion_skill(seat, c, k).is_some() {
                    candidates.push((c, k));
                }
            }
        }
        for &c in p.equip.iter().flatten().filter(|&&c| only.is_none_or(|o| o == c)) {
            for k in [Kind::Attack, Kind::Dismantle, Kind::Acedia] {
                if self.conversion_skill(seat, c, k).is_some() {
                    candidates.push((c, k));
                }
            }
        }
        for (card, kind) in candidates {
            let use1 = |t: Seat| Action::Use { card, kind, targets: Targets::one(t) };
            let none = Action::Use { card, kind, targets: Targets::NONE };
            match kind {
                Kind::Attack => {
                    for (i, &t) in attack_targets.iter().enumerate() {
                        out.push(use1(t));
                        if halberd && p.hand.contains(&card) {
                            for (j, &u) in attack_targets.iter().enumerate().skip(i + 1) {
                                out.push(Action::Use { card, kind, targets: Targets::two(t, u) });
                                for &v in &attack_targets[j + 1..] {
                                    let mut three = Targets::two(t, u);
                                    three.push(v);
                                    out.push(Action::Use { card, kind, targets: three });
                                }
                            }
                        }
                    }
                }
                Kind::Dodge | Kind::Negate => {}
                Kind::Peach => {
                    if p.wounded() {
                        out.push(none);
                    }
                }
                Kind::Dismantle => {
                    out.extend(
                        self.others(seat).filter(|&t| self.p(t).card_count() + self.p(t).judge.len() > 0).map(use1),
                    );
                }
                Kind::StealingSheep => out.extend(
                    self.others(seat)
                        .filter(|&t| {
                            self.p(t).card_count() + self.p(t).judge.len() > 0
                                && (self.has(seat, Skill::Genius) || self.distance(seat, t) <= 1)
                                && !self.has(t, Skill::Humility)
                        })
                        .map(use1),
                ),
                Kind::Duel => out.extend(self.others(seat).filter(|&t| !self.empty_city(t)).map(use1)),
                Kind::BorrowedSword => {
                    for a in self.others(seat).filter(|&a| self.p(a).weapon().is_some()) {
                        for b in self.order_from(a).filter(|&b| self.can_attack(a, b)) {
                            out.push(Action::Use { card, kind, targets: Targets::two(a, b) });
                        }
                    }
                }
                Kind::Acedia => out.extend(
                    self.others(seat)
                        .filter(|&t| {
                            !self.has(t, Skill::Humility) && !self.p(t).judge.iter().any(|&(_, k)| k == Kind::Acedia)
                        })
                        .map(use1),
                ),
                Kind::Lightning => {
                    if !p.judge.iter().any(|&(_, k)| k == Kind::Lightning) {
                        out.push(none);
                    }
                }
                _ => out.push(none),
            }
        }
        if only.is_some() {
            return;
        }
        if attack_ok {
            let targets = &attack_targets;
            self.spear_pairs(seat, |cards| {
                out.extend(targets.iter().map(|&t| Action::UseSpear { cards, targets: Targets::one(t) }))
            });
            if self.has(seat, Skill::Rouse) && !self.helpers_of(seat, Kingdom::Shu).is_empty() {
                out.extend(targets.iter().map(|&t| Action::Rouse { targets: Targets::one(t) }));
            }
        }
        self.skill_actions(seat, out);
        out.push(Action::EndPlay);
    }

    /// The Play-phase skills' actions, in skill order.
    fn skill_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        let p = self.p(seat);
        if self.has(seat, Skill::Benevolence) {
            if self.config.seed_compat.seed_benevolence {
                if p.hp < 2 && p.hand.len() >= 2 && !self.ts.benevolence_healed {
                    out.extend(p.hand.iter().map(|&card| Action::Benevolence { card, to: seat }));
                }
            } else {
                for &card in &p.hand {
                    out.extend(self.others(seat).map(|to| Action::Benevolence { card, to }));
                }
            }
        }
        if self.has(seat, Skill::BalanceOfPower) && !self.ts.used(Skill::BalanceOfPower) && p.card_count() > 0 {
            out.push(Action::Balance);
        }
        if self.has(seat, Skill::TrojanFlesh) {
            out.push(Action::TrojanFlesh);
        }
        if self.has(seat, Skill::SowDissension) && !self.ts.used(Skill::SowDissension) && !p.hand.is_empty() {
            out.extend(self.others(seat).map(|target| Action::SowDissension { target }));
        }
        if self.has(seat, Skill::Marriage) && !self.ts.used(Skill::Marriage) && p.hand.len() >= 2 {
            let males: Vec<Seat> = self
                .others(seat)
                .filter(|&t| self.p(t).wounded() && self.general(t).is_some_and(|g| g.def().gender == Gender::Male))
                .collect();
            for i in 0..p.hand.len() {
                for j in i + 1..p.hand.len() {
                    out.extend(males.iter().map(|&target| Action::Marriage { cards: [p.hand[i], p.hand[j]], target }));
                }
            }
        }
        if self.has(seat, Skill::GreenSalve) && !self.ts.used(Skill::GreenSalve) {
            let wounded: Vec<Seat> = self.order_from(seat).filter(|&t| self.p(t).wounded()).collect();
            for &card in &p.hand {
                out.extend(wounded.iter().map(|&target| Action::GreenSalve { card, target }));
            }
        }
        if self.has(seat, Skill::SeedOfAnimosity) && !self.ts.used(Skill::SeedOfAnimosity) {
            let males: Vec<Seat> = self
                .others(seat)
                .filter(|&t| self.general(t).is_some_and(|g| g.def().gender == Gender::Male))
                .collect();
            for &card in p.hand.iter().chain(p.equip.iter().flatten()) {
                for &first in &males {
                    for &second in &males {
                        if first != second && !self.empty_city(first) {
                            out.push(Action::SeedOfAnimosity { card, first, second });
                        }
                    }
                }
            }
        }
    }

    /// Legal actions plus plausible illegal ones, for the invariant suite.
    pub fn candidates(&self, seat: Seat, out: &mut Vec<Action>) {
        self.legal_into(seat, out);
        out.push(Action::Pass);
        out.push(Action::EndPlay);
        out.push(Action::Done);
        let n = self.num_players() as u8;
        for c in self.p(seat).hand.iter().take(3) {
            for t in 0..n {
                out.push(Action::Use { card: *c, kind: Kind::Attack, targets: Targets::one(Seat(t)) });
                out.push(Action::Use { card: *c, kind: c.kind(), targets: Targets::one(Seat(t)) });
            }
            out.push(Action::Use { card: *c, kind: c.kind(), targets: Targets::NONE });
            out.push(Action::Respond { card: *c, kind: Kind::Dodge });
            out.push(Action::Respond { card: *c, kind: Kind::Peach });
        }
        out.push(Action::Use { card: CardId(0), kind: Kind::Duel, targets: Targets::one(Seat(0)) });
        out.push(Action::Pick { zone: Zone::Hand(40) });
    }

    /// The first reason `action` is refused, for people (the list of legal actions decides).
    pub(crate) fn refusal(&self, seat: Seat, action: &Action) -> RuleError {
        if self.is_over() {
            return RuleError::game_over();
        }
        if !self.to_act_set().contains(seat) {
            return RuleError::not_your_turn();
        }
        let in_hand = |c: &CardId| self.p(seat).hand.contains(c) || self.p(seat).equip.contains(&Some(*c));
        match action {
            Action::Use { card, kind, targets } => {
                if !in_hand(card) {
                    return RuleError::new("not_your_card", format!("{card} is not yours to use"));
                }
                if card.kind() != *kind && self.conversion_skill(seat, *card, *kind).is_none() {
                    return RuleError::new("cannot_convert", format!("{card} cannot be used as {kind}"));
                }
                if *kind == Kind::Attack && !self.attack_available(seat) {
                    return RuleError::new("attack_limit", "you have already used an Attack this Play phase");
                }
                if *kind == Kind::Attack && targets.iter().any(|t| !self.can_attack(seat, t)) {
                    return RuleError::new("out_of_range", "the target is not within your attack range");
                }
                if *kind == Kind::Peach && !self.p(seat).wounded() {
                    return RuleError::new("not_wounded", "you are not wounded");
                }
                if matches!(kind, Kind::Dodge | Kind::Negate) {
                    return RuleError::new("not_usable", format!("{kind} is only used in answer to something"));
                }
                RuleError::new("bad_target", "that card cannot be used on those targets")
            }
            Action::Pass if matches!(self.pending, Some(Pending::Play { .. })) => {
                RuleError::new("nothing_to_answer", "nothing is waiting for an answer; end the phase instead")
            }
            Action::ChooseGeneral { .. } => RuleError::new("not_offered", "that general was not offered to you"),
            _ => RuleError::new("illegal_action", "that action is not allowed now"),
        }
    }
}
