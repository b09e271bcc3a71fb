//! Setup, the turn, and the resolution stack: every card, window and skill as frames worked
//! to completion.

use crate::action::{Action, Choice, Event, JudgeFor, Side, Targets, Used, Zone};
use crate::cards::{CardId, Colour, Kind, Slot, Suit};
use crate::config::{Config, Role, role_counts};
use crate::generals::{General, Kingdom, Skill};
use crate::state::*;
use engine::flow::{Answering, Window};
use engine::{MatchRng, RuleError, Seat, SeatSet, SetupError};

/// The four Negate cards: when all are face up in the discard pile, no Negate window opens.
static NEGATES: [CardId; 4] = {
    let mut ids = [CardId(0); 4];
    let (mut i, mut n) = (0, 0);
    while i < crate::cards::DECK_SIZE {
        if matches!(crate::cards::DECK[i].kind, Kind::Negate) {
            ids[n] = CardId(i as u8);
            n += 1;
        }
        i += 1;
    }
    ids
};

impl ThreeKingdoms {
    pub fn new_with_events(config: &Config, seed: u64) -> Result<(Self, Vec<Event>), SetupError> {
        if !(4..=10).contains(&config.players) {
            return Err(SetupError::new("bad_player_count", "Three Kingdoms is for 4 to 10 players"));
        }
        let n = config.players as usize;
        let mut rng = MatchRng::new(seed);
        let (l, r, s) = role_counts(config.players, config.two_spies);
        let mut roles = vec![Role::Lord];
        roles.extend(std::iter::repeat_n(Role::Loyalist, l as usize));
        roles.extend(std::iter::repeat_n(Role::Rebel, r as usize));
        roles.extend(std::iter::repeat_n(Role::Spy, s as usize));
        rng.shuffle(&mut roles);
        let lord = Seat(roles.iter().position(|&r| r == Role::Lord).expect("one lord") as u8);
        let mut others: Vec<General> = General::STANDARD.into_iter().filter(|g| !General::LORDS.contains(g)).collect();
        if config.hua_xiong {
            others.push(General::HuaXiong);
        }
        rng.shuffle(&mut others);
        let mut lord_candidates = General::LORDS.to_vec();
        lord_candidates.extend(others.iter().take(LORD_CANDIDATES - 3));
        let players = roles
            .iter()
            .enumerate()
            .map(|(i, &role)| Player {
                general: None,
                candidates: if i == lord.index() { lord_candidates.clone() } else { Vec::new() },
                role,
                revealed: role == Role::Lord,
                alive: true,
                hp: 0,
                max_hp: 0,
                hand: Vec::new(),
                equip: [None; 4],
                judge: Vec::new(),
            })
            .collect();
        let game = ThreeKingdoms {
            config: config.clone(),
            rng,
            players,
            draw: CardId::all().collect(),
            discard: Vec::new(),
            processing: Vec::new(),
            lord,
            current: lord,
            turn: 0,
            step: Step::LordChooses,
            ts: TurnState::default(),
            stack: Vec::new(),
            pending: None,
            ret: Ret::None,
            peek: None,
            decisions: Default::default(),
            hostility: vec![0; n],
            risk: 0,
        };
        Ok((game, vec![Event::RolesDealt { lord }]))
    }

    fn choose_general(&mut self, seat: Seat, general: General, out: &mut Vec<Event>) {
        let p = self.pm(seat);
        p.general = Some(general);
        p.candidates.clear();
        if self.step == Step::LordChooses {
            self.set_hp(seat);
            out.push(Event::GeneralChosen { seat, general, hp: self.p(seat).hp });
            // Deal 3 (2 with 10 players) of the remaining generals to each other seat.
            // Every general is in play at most once: the Lord's pick (Hua Xiong too) is out.
            let mut pool: Vec<General> = General::STANDARD.into_iter().collect();
            if self.config.hua_xiong {
                pool.push(General::HuaXiong);
            }
            pool.retain(|&g| g != general);
            self.rng.shuffle(&mut pool);
            let each = if self.num_players() == 10 { 2 } else { 3 };
            let mut it = pool.into_iter();
            for s in 0..self.num_players() {
                if Seat(s as u8) != self.lord {
                    self.players[s].candidates = it.by_ref().take(each).collect();
                }
            }
            self.step = Step::OthersChoose;
            return;
        }
        if self.players.iter().all(|p| p.general.is_some()) {
            let lord = self.lord;
            for s in Seat::all(self.num_players()).filter(|&s| s != lord) {
                self.set_hp(s);
                out.push(Event::GeneralChosen { seat: s, general: self.general(s).expect("chosen"), hp: self.p(s).hp });
            }
            self.rng.shuffle(&mut self.draw);
            for s in self.order_from(self.lord).collect::<Vec<_>>() {
                let cards: Vec<CardId> = (0..HAND_START).filter_map(|_| self.draw.pop()).collect();
                self.pm(s).hand.extend(&cards);
                out.push(Event::Dealt { seat: s, count: cards.len() as u8, cards });
            }
            self.begin_turn(self.lord, out);
            self.run(out);
        }
    }

    fn set_hp(&mut self, seat: Seat) {
        let g = self.general(seat).expect("chosen");
        let mut hp = g.def().hp as i8;
        if g == General::LiuBei && self.config.seed_compat.liu_bei_five_hp {
            hp = 5;
        }
        if self.p(seat).role == Role::Lord && self.num_players() >= 5 {
            hp += 1;
        }
        let p = self.pm(seat);
        p.hp = hp;
        p.max_hp = hp;
    }

    fn begin_turn(&mut self, seat: Seat, out: &mut Vec<Event>) {
        self.current = seat;
        self.turn += 1;
        self.ts = TurnState::default();
        self.step = Step::Start;
        out.push(Event::TurnStarted { seat, turn: self.turn });
        // Seed mode: the seed's `spyReveal()` at the start of a Spy's turn — once no Rebel is
        // left (it can win only by killing the Lord last) or the Lord's risk level is high.
        let p = self.p(seat);
        if self.config.seed_compat.spy_reveal
            && p.role == Role::Spy
            && !p.revealed
            && (self.risk >= RISK_REVEAL || !self.players.iter().any(|p| p.alive && p.role == Role::Rebel))
        {
            self.pm(seat).revealed = true;
            out.push(Event::SpyRevealed { seat });
        }
        self.enter(Step::Start, out);
    }

    /// Seed mode (`spy_reveal`): the Lord was attacked; the observers' risk level rises.
    fn raise_risk(&mut self, target: Seat, by: u16, out: &mut Vec<Event>) {
        if self.config.seed_compat.spy_reveal && target == self.lord {
            self.risk = self.risk.saturating_add(by);
            out.push(Event::RiskLevel { level: self.risk });
        }
    }

    // ----- card movement -------------------------------------------------------------------

    /// The top card of the draw pile, reshuffling the discard pile when it is empty. `None`
    /// (and the game ends with no winner) when both are empty.
    fn top_card(&mut self, out: &mut Vec<Event>) -> Option<CardId> {
        if self.draw.is_empty() {
            if self.discard.is_empty() {
                self.finish(Side::Nobody, out);
                return None;
            }
            std::mem::swap(&mut self.draw, &mut self.discard);
            self.rng.shuffle(&mut self.draw);
            out.push(Event::Reshuffled { cards: self.draw.len() as u8 });
        }
        self.draw.pop()
    }

    pub(crate) fn draw_cards(&mut self, seat: Seat, n: u8, out: &mut Vec<Event>) {
        let mut cards = Vec::with_capacity(n as usize);
        for _ in 0..n {
            match self.top_card(out) {
                Some(c) => cards.push(c),
                None => return,
            }
        }
        self.pm(seat).hand.extend(&cards);
        let hand = self.p(seat).hand.len() as u8;
        out.push(Event::Drew { seat, count: cards.len() as u8, cards, hand });
    }

    fn remove_from_hand(&mut self, seat: Seat, card: CardId) -> bool {
        let hand = &mut self.pm(seat).hand;
        match hand.iter().position(|&c| c == card) {
            Some(i) => {
                hand.remove(i);
                true
            }
            None => false,
        }
    }

    /// Takes `card` from `seat`'s hand or equipment (Warrior Woman draws for equipment).
    fn take_own(&mut self, seat: Seat, card: CardId, out: &mut Vec<Event>) {
        if self.remove_from_hand(seat, card) {
            return;
        }
        if let Some(slot) = Slot::ALL.into_iter().find(|s| self.p(seat).equip[s.index()] == Some(card)) {
            self.unequip(seat, slot, out);
        }
    }

    fn unequip(&mut self, seat: Seat, slot: Slot, out: &mut Vec<Event>) -> Option<CardId> {
        let c = self.pm(seat).equip[slot.index()].take();
        if c.is_some() && self.has(seat, Skill::WarriorWoman) {
            out.push(Event::SkillUsed { seat, skill: Skill::WarriorWoman });
            self.draw_cards(seat, 2, out);
        }
        c
    }

    /// Takes the card at `zone` from `from`.
    fn take_zone(&mut self, from: Seat, zone: Zone, out: &mut Vec<Event>) -> Option<CardId> {
        match zone {
            Zone::Hand(i) => {
                let h = &mut self.pm(from).hand;
                ((i as usize) < h.len()).then(|| h.remove(i as usize))
            }
            Zone::Equip(slot) => self.unequip(from, slot, out),
            Zone::Judge(i) => {
                let j = &mut self.pm(from).judge;
                ((i as usize) < j.len()).then(|| j.remove(i as usize).0)
            }
        }
    }

    /// Takes the card another seat picked at `zone` of `from`. Hand cards are chosen blind: the
    /// hand is presented to the picker in an order shuffled for this pick from the match RNG,
    /// so a position carries no information (not even where a card seen entering the hand lies).
    fn take_picked(&mut self, from: Seat, zone: Zone, out: &mut Vec<Event>) -> Option<CardId> {
        match zone {
            Zone::Hand(i) => {
                let n = self.p(from).hand.len();
                if (i as usize) >= n {
                    return None;
                }
                let mut order: Vec<u8> = (0..n as u8).collect();
                self.rng.shuffle(&mut order);
                self.take_zone(from, Zone::Hand(order[i as usize]), out)
            }
            _ => self.take_zone(from, zone, out),
        }
    }

    fn discard_cards(&mut self, seat: Seat, cards: Vec<CardId>, out: &mut Vec<Event>) {
        if cards.is_empty() {
            return;
        }
        self.discard.extend(&cards);
        let hand = self.p(seat).hand.len() as u8;
        let hp = self.p(seat).hp;
        out.push(Event::Discarded { seat, cards, hand, hp });
    }

    fn unprocess(&mut self, card: CardId) -> bool {
        match self.processing.iter().position(|&c| c == card) {
            Some(i) => {
                self.processing.remove(i);
                true
            }
            None => false,
        }
    }

    /// Puts whatever of `used` is still being processed on the discard pile.
    fn settle(&mut self, used: Used) {
        for c in used.physical() {
            if self.unprocess(c) {
                self.discard.push(c);
            }
        }
    }

    fn equip(&mut self, seat: Seat, card: CardId, out: &mut Vec<Event>) {
        let slot = card.kind().slot().expect("equipment");
        if let Some(old) = self.unequip(seat, slot, out) {
            self.discard_cards(seat, vec![old], out);
        }
        self.pm(seat).equip[slot.index()] = Some(card);
        out.push(Event::Equipped { seat, card });
    }

    fn recover(&mut self, seat: Seat, amount: i8, out: &mut Vec<Event>) {
        let p = self.pm(seat);
        let gained = amount.min(p.max_hp - p.hp);
        if gained > 0 {
            p.hp += gained;
            let hp = p.hp;
            out.push(Event::Recovered { seat, amount: gained, hp });
        }
    }

    fn end_judgement(&mut self, seat: Seat, card: CardId, out: &mut Vec<Event>) {
        if !self.unprocess(card) {
            return;
        }
        if self.has(seat, Skill::EnvyOfHeaven) {
            self.pm(seat).hand.push(card);
            out.push(Event::SkillUsed { seat, skill: Skill::EnvyOfHeaven });
            out.push(Event::Gained { seat, card });
        } else {
            self.discard.push(card);
        }
    }

    fn finish(&mut self, side: Side, out: &mut Vec<Event>) {
        if self.is_over() {
            return;
        }
        self.step = Step::Over(side);
        self.stack.clear();
        self.pending = None;
        for p in &mut self.players {
            p.revealed = true;
        }
        let roles = Seat::all(self.num_players()).map(|s| (s, self.p(s).role)).collect();
        let alive = Seat::all(self.num_players()).filter(|&s| self.alive(s)).collect();
        out.push(Event::GameOver { winners: side, roles, alive });
    }

    /// Updates the public hostility record from what just happened.
    pub(crate) fn record(&mut self, events: &[Event]) {
        let lord = self.lord;
        for e in events {
            match *e {
                Event::UsedCard { seat, used, targets } => {
                    let harmful = matches!(
                        used.kind,
                        Kind::Attack | Kind::Duel | Kind::Dismantle | Kind::StealingSheep | Kind::Acedia
                    );
                    for t in targets.iter() {
                        if t == seat || seat == lord && !harmful {
                            continue;
                        }
                        let h = &mut self.hostility;
                        match (harmful, t == lord) {
                            (true, true) => h[seat.index()] += 2,
                            (true, false) if h[t.index()] > 0 => h[seat.index()] -= 1,
                            (true, false) if h[t.index()] < 0 => h[seat.index()] += 1,
                            (false, true) if used.kind == Kind::Peach => h[seat.index()] -= 2,
                            _ => {}
                        }
                    }
                }
                Event::Damaged { seat, source: Some(src), .. } if seat == lord && src != lord => {
                    self.hostility[src.index()] += 1
                }
                _ => {}
            }
        }
    }

    // ----- death ---------------------------------------------------------------------------

    fn die(&mut self, seat: Seat, killer: Option<Seat>, out: &mut Vec<Event>) {
        let role = self.p(seat).role;
        {
            let p = self.pm(seat);
            p.alive = false;
            p.revealed = true;
        }
        out.push(Event::Died { seat, role, killer });
        // Victory first (rules §6.2, §7).
        let alive: Vec<Seat> = self.order_from(seat).collect();
        if role == Role::Lord {
            let side =
                if alive.len() == 1 && self.p(alive[0]).role == Role::Spy { Side::Spy(alive[0]) } else { Side::Rebels };
            self.finish(side, out);
            return;
        }
        if !alive.iter().any(|&s| matches!(self.p(s).role, Role::Rebel | Role::Spy)) {
            self.finish(Side::LordAndLoyalists, out);
            return;
        }
        let mut cards = std::mem::take(&mut self.pm(seat).hand);
        let p = self.pm(seat);
        cards.extend(p.equip.iter_mut().filter_map(Option::take));
        cards.extend(p.judge.drain(..).map(|(c, _)| c));
        self.discard_cards(seat, cards, out);
        if let Some(k) = killer.filter(|&k| self.alive(k)) {
            if role == Role::Rebel {
                out.push(Event::Reward { seat: k, victim: seat });
                self.draw_cards(k, 3, out);
            } else if role == Role::Loyalist && self.p(k).role == Role::Lord {
                out.push(Event::Penalty { seat: k, victim: seat });
                let mut lost = std::mem::take(&mut self.pm(k).hand);
                for slot in Slot::ALL {
                    if let Some(c) = self.unequip(k, slot, out) {
                        lost.push(c);
                    }
                }
                self.discard_cards(k, lost, out);
            }
        }
        if seat == self.current {
            // The turn of a dead player ends at once; what was resolving stops.
            for f in std::mem::take(&mut self.stack) {
                let _ = f;
            }
            let stray = std::mem::take(&mut self.processing);
            self.discard.extend(stray);
            self.peek = None;
            self.pending = None;
            self.step = Step::End;
        }
    }

    // ----- the loop ------------------------------------------------------------------------

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
    fn enter(&mut self, step: Step, out: &mut Vec<Event>) {
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

    fn take_ret(&mut self) -> Ret {
        std::mem::take(&mut self.ret)
    }

    fn wait(&mut self, frame: Frame, pending: Pending) {
        self.stack.push(frame);
        self.pending = Some(pending);
    }

    fn step_frame(&mut self, frame: Frame, out: &mut Vec<Event>) {
        match frame {
            Frame::Ask(a) => self.step_ask(a, out),
            Frame::Helpers { lord, need, asked, into_processing, waiting } => {
                let _ = waiting;
                let kingdom = if need == Kind::Dodge { Kingdom::Wei } else { Kingdom::Shu };
                let helpers = self.helpers(lord, kingdom);
                match helpers.get(asked as usize) {
                    None => self.ret = Ret::Failed,
                    Some(&h) => self.wait(
                        Frame::Helpers { lord, need, asked, into_processing, waiting: true },
                        Pending::Ask { seat: h },
                    ),
                }
            }
            Frame::Negate { kind, target, cancelled, mut window } => {
                // A seat whose hand is empty (public) passes without being asked.
                while let Some(s) = window.next().filter(|&s| !self.alive(s) || self.p(s).hand.is_empty()) {
                    let _ = window.pass(s);
                }
                match window.next() {
                    None => self.ret = Ret::Bool(cancelled),
                    Some(s) => self.wait(Frame::Negate { kind, target, cancelled, window }, Pending::Ask { seat: s }),
                }
            }
            Frame::Judge { seat, reason, card, asked } => {
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
            Frame::Damage { src, to, amount, cause, stage, point } => {
                self.step_damage(src, to, amount, cause, stage, point, out)
            }
            Frame::Dying { seat, killer, mut window } => {
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
            Frame::Attack(a) => self.step_attack(a, out),
            Frame::Tool(t) => self.step_tool(t, out),
            Frame::Duel { user, target, used, responder, stage } => {
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
            Frame::Delayed { seat, stage, card } => self.step_delayed(seat, stage, card, out),
            Frame::DiscardPhase { seat } => {
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
            Frame::GoddessLuo { seat, stage } => match stage {
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
            },
            Frame::Stargaze { seat, cards, top, bottom } => {
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
            Frame::KirinBow { user, target, stage } => {
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
            Frame::Retaliation { seat, from, stage } => {
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
            Frame::Unyielding { seat, src, stage } => match stage {
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
            },
            Frame::Bequeathed { seat, cards } => {
                if cards.is_empty() {
                    self.peek = None;
                } else {
                    self.peek = Some((seat, cards.clone()));
                    self.wait(Frame::Bequeathed { seat, cards }, Pending::Give { seat });
                }
            }
            Frame::Triumphant { src } => {
                if self.alive(src) {
                    if self.p(src).wounded() {
                        self.wait(Frame::Triumphant { src }, Pending::Triumphant { seat: src });
                    } else {
                        self.draw_cards(src, 1, out);
                    }
                }
            }
            Frame::TrojanFlesh { seat, stage } => {
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
            Frame::SowDissension { seat, target, suit, stage } => {
                if stage == 0 {
                    self.wait(
                        Frame::SowDissension { seat, target, suit, stage: 1 },
                        Pending::NameSuit { seat: target },
                    );
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
            Frame::Balance { seat, chosen } => {
                self.wait(Frame::Balance { seat, chosen }, Pending::Balance { seat });
            }
            Frame::RouseUse { seat, targets, stage } => {
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
            Frame::DrawPhase { seat } => {
                let raid = self.has(seat, Skill::Raid)
                    && self.order_from(seat).any(|s| s != seat && !self.p(s).hand.is_empty());
                if raid || self.has(seat, Skill::BareChested) {
                    self.pending = Some(Pending::DrawPhase { seat });
                } else {
                    self.normal_draw(seat, out);
                }
            }
            Frame::Raid { seat, targets, idx } => {
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
        }
    }

    fn normal_draw(&mut self, seat: Seat, out: &mut Vec<Event>) {
        let mut n = 2;
        if self.has(seat, Skill::Handsome) {
            out.push(Event::SkillUsed { seat, skill: Skill::Handsome });
            n += 1;
        }
        self.draw_cards(seat, n, out);
    }

    /// Living seats of `kingdom` other than `lord`, in turn order after him, with a card.
    fn helpers(&self, lord: Seat, kingdom: Kingdom) -> Vec<Seat> {
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

    fn push_damage(&mut self, src: Option<Seat>, to: Seat, amount: i8, cause: Option<Used>) {
        self.stack.push(Frame::Damage { src, to, amount, cause, stage: 0, point: 0 });
    }

    /// Attack frames for each target, the first target on top.
    fn push_attacks(&mut self, user: Seat, used: Used, targets: Targets) {
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

    fn step_ask(&mut self, mut a: Ask, out: &mut Vec<Event>) {
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

    fn trigrams_result(&mut self, a: &mut Ask, red: bool, out: &mut Vec<Event>) {
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
    fn step_damage(
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
                    out.push(Event::Dying { seat: to, hp });
                    self.stack.push(self.dying_frame(to, src));
                }
                // Kirin Bow resolves as the blow lands: before the rescue and the after-damage
                // skills (so Retaliation cannot take the Bow first).
                if let Some(user) = src.filter(|&u| u != to && self.alive(u))
                    && cause.is_some_and(|u| u.kind == Kind::Attack)
                    && self.p(user).weapon() == Some(Kind::KirinBow)
                    && self.has_horse(to)
                {
                    self.stack.push(Frame::KirinBow { user, target: to, stage: 0 });
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

    fn step_attack(&mut self, mut f: AttackFrame, out: &mut Vec<Event>) {
        use AttackStage::*;
        if f.stage != Finish && (!self.alive(f.target) || !self.alive(f.user)) {
            f.stage = Finish;
        }
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
        }
    }

    fn has_horse(&self, s: Seat) -> bool {
        let e = &self.p(s).equip;
        e[Slot::PlusHorse.index()].is_some() || e[Slot::MinusHorse.index()].is_some()
    }

    fn ts_in_play(&self, seat: Seat) -> bool {
        seat == self.current && self.step == Step::Play
    }

    /// Where Da Qiao may move an Attack: living seats in her attack range, not herself nor
    /// the attacker.
    pub(crate) fn displace_targets(&self, daqiao: Seat, attacker: Seat) -> impl Iterator<Item = Seat> + '_ {
        self.order_from(daqiao).filter(move |&t| {
            t != daqiao && t != attacker && self.distance(daqiao, t) <= self.attack_range(daqiao) && !self.empty_city(t)
        })
    }

    fn step_tool(&mut self, mut t: ToolFrame, out: &mut Vec<Event>) {
        let kind = t.used.kind;
        let user = t.user;
        loop {
            match t.stage {
                0 => {
                    let Some(&target) = t.targets.get(t.idx as usize) else {
                        self.settle(t.used);
                        for c in std::mem::take(&mut t.revealed) {
                            if self.unprocess(c) {
                                self.discard.push(c);
                            }
                        }
                        return;
                    };
                    let skip = !self.alive(target)
                        || (kind == Kind::PeachGarden && !self.p(target).wounded())
                        || (kind == Kind::BumperHarvest && t.revealed.is_empty());
                    if skip {
                        t.idx += 1;
                        continue;
                    }
                    t.stage = 1;
                    self.stack.push(Frame::Tool(t));
                    self.stack.push(self.negate_frame(kind, target, false, kind));
                    return;
                }
                1 => {
                    let target = t.targets[t.idx as usize];
                    if self.take_ret() == Ret::Bool(true) {
                        out.push(Event::Nullified { seat: target, kind });
                        t.idx += 1;
                        t.stage = 0;
                        continue;
                    }
                    t.stage = 2;
                    let all = |s: &Self| s.p(target).card_count() + s.p(target).judge.len();
                    match kind {
                        Kind::Dismantle | Kind::StealingSheep => {
                            if all(self) == 0 || !self.alive(user) {
                                t.stage = 0;
                                t.idx += 1;
                                continue;
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
                            return;
                        }
                        Kind::SomethingOutOfNothing => {
                            self.draw_cards(target, 2, out);
                            t.stage = 0;
                            t.idx += 1;
                            self.stack.push(Frame::Tool(t));
                            return;
                        }
                        Kind::Duel => {
                            // The Duel card itself deals the damage (Treachery takes it); it
                            // stays in the processing area until the Duel is over.
                            let used = t.used;
                            self.stack.push(Frame::Tool(t));
                            self.stack.push(Frame::Duel { user, target, used, responder: target, stage: 0 });
                            return;
                        }
                        Kind::BorrowedSword => {
                            let victim = t.victim.filter(|&v| self.alive(v));
                            if self.p(target).weapon().is_none() || victim.is_none() {
                                t.stage = 0;
                                t.idx += 1;
                                continue;
                            }
                            let mut ask = Ask::answering(target, Kind::Attack, 1, Kind::BorrowedSword, user);
                            ask.use_on = victim;
                            self.stack.push(Frame::Tool(t));
                            self.stack.push(Frame::Ask(ask));
                            return;
                        }
                        Kind::Barbarians | Kind::RainArrows => {
                            let need = if kind == Kind::Barbarians { Kind::Attack } else { Kind::Dodge };
                            self.stack.push(Frame::Tool(t));
                            self.stack.push(Frame::Ask(Ask::answering(target, need, 1, kind, user)));
                            return;
                        }
                        Kind::PeachGarden => {
                            self.recover(target, 1, out);
                            t.stage = 0;
                            t.idx += 1;
                            continue;
                        }
                        Kind::BumperHarvest => {
                            self.wait(Frame::Tool(t), Pending::Harvest { seat: target });
                            return;
                        }
                        _ => {
                            t.stage = 0;
                            t.idx += 1;
                            continue;
                        }
                    }
                }
                _ => {
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
                                return;
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
                            return;
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    fn step_delayed(&mut self, seat: Seat, stage: u8, card: Option<(CardId, Kind)>, out: &mut Vec<Event>) {
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

    // ----- actions -------------------------------------------------------------------------

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
        }
        self.run(out);
    }

    /// A card answering the request on top of the stack.
    fn answer(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) {
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
    fn play(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) {
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
