//! Setup and the effects of each action (its follow-ups worked on the effect queue, in
//! [`crate::queue`]). Legality is in [`crate::legal`].

use crate::action::{Action, DrawReason, Event, MinionRef, Target, TargetRef};
use crate::cards::{AbilityEffect, Kind, Modifier, SpellEffect, When};
use crate::queue::{Effect, Zone, triggers};
use crate::state::{
    BOARD_SIZE, Card, Config, HAND_SIZE, Player, Ritual, START_LIFE, START_MAGIC, Sorcery, Status, can_bring_minion,
    other,
};
use engine::flow::EffectQueue;
use engine::{MatchRng, RuleError, Seat, SetupError};

impl Sorcery {
    pub(crate) fn setup(config: &Config, seed: u64) -> Result<Self, SetupError> {
        let mut rng = MatchRng::new(seed);
        let mut players = config.decks.clone().map(|list| {
            // Stored top-last, so the first line of the deck file is drawn first.
            let deck: Vec<Card> = list.iter().rev().map(|&id| Card::new(id)).collect();
            Player {
                life: START_LIFE,
                magic: START_MAGIC,
                initial: deck.len() as u32,
                deck,
                hand: Vec::with_capacity(HAND_SIZE),
                board: Vec::with_capacity(BOARD_SIZE),
                ritual: None,
                graveyard: Vec::new(),
                removed: 0,
                created: 0,
            }
        });
        if !config.testing {
            for p in &mut players {
                rng.shuffle(&mut p.deck);
            }
        }
        for p in &mut players {
            for _ in 0..HAND_SIZE {
                if let Some(c) = p.deck.pop() {
                    p.hand.push(c);
                }
            }
        }
        let mut game = Sorcery {
            testing: config.testing,
            turn_limit: config.turn_limit,
            draw_when_stuck: config.draw_when_stuck,
            players,
            active: Seat(0),
            turn: 1,
            status: Status::Playing,
            next_uid: 1,
            rng,
            queue: EffectQueue::with_capacity(16),
        };
        // Turn 1 is an ordinary turn: player 1 gains a magic and tries to draw (rules 3.1.3).
        let mut ignored = Vec::new();
        game.start_turn(&mut ignored);
        Ok(game)
    }

    /// The events of the first turn's start, for clients that follow from the beginning.
    pub(crate) fn opening_events(&self) -> Vec<Event> {
        vec![Event::TurnStarted { player: Seat(0), turn: 1, magic: START_MAGIC + 1 }]
    }

    // ----- doing ----------------------------------------------------------------------------

    fn pay(&mut self, seat: Seat, cost: i32) -> i32 {
        let p = self.player_mut(seat);
        // Testing mode lets a player go ahead without enough magic; magic then becomes 0.
        p.magic = if p.magic >= cost { p.magic - cost } else { 0 };
        p.magic
    }

    fn uid_of(&self, target: Target) -> Option<u32> {
        match target {
            Target::Minion { player, index } => self.player(player).board.get(index as usize).map(|m| m.uid),
            Target::Ritual { .. } => None,
        }
    }

    fn target_ref(&self, target: Option<Target>) -> Option<TargetRef> {
        Some(match target? {
            Target::Minion { player, index } => TargetRef::Minion {
                minion: MinionRef { player, card: self.player(player).board[index as usize].card.id },
            },
            Target::Ritual { player } => {
                TargetRef::Ritual { player, card: self.player(player).ritual.expect("checked").id }
            }
        })
    }

    pub(crate) fn apply_checked(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let checked = self.check(seat, &action)?;
        match action {
            Action::End => self.end_turn(out),
            Action::Attack { minion, target } => {
                let me = &mut self.players[seat.index()];
                let m = &mut me.board[minion as usize];
                m.actions -= 1;
                let (uid, attack) = (m.uid, m.attack());
                let attacker = MinionRef { player: seat, card: m.card.id };
                let foe = other(seat);
                match target {
                    None => {
                        let life = self.player(foe).life - attack;
                        out.push(Event::AttackedPlayer { minion: attacker, player: foe, amount: attack, life });
                        self.schedule(&[Effect::HitPlayer { player: foe, amount: attack }]);
                    }
                    Some(j) => {
                        let d = &self.player(foe).board[j as usize];
                        let target = MinionRef { player: foe, card: d.card.id };
                        out.push(Event::AttackedMinion { minion: attacker, target });
                        // The attacker hits first and that is resolved completely (deaths and
                        // their triggers); then the defender hits back with the attack it had
                        // when the fight began.
                        self.schedule(&[
                            Effect::Damage { uid: d.uid, amount: attack },
                            Effect::Damage { uid, amount: d.attack() },
                        ]);
                    }
                }
            }
            Action::Play { card, target } => {
                let target_ref = self.target_ref(target);
                let magic = self.pay(seat, checked.cost);
                let c = self.player_mut(seat).hand.remove(card as usize);
                out.push(Event::CardPlayed { player: seat, card: c.id, target: target_ref, magic });
                self.play(seat, c, target, out);
            }
            Action::Use { minion, target } => {
                let target_ref = self.target_ref(target);
                let magic = self.pay(seat, checked.cost);
                let m = &mut self.players[seat.index()].board[minion as usize];
                m.actions -= 1;
                let user = MinionRef { player: seat, card: m.card.id };
                out.push(Event::AbilityUsed { minion: user, target: target_ref, magic });
                match user.card.def().ability.expect("checked").effect {
                    AbilityEffect::Damage(amount) => {
                        let uid = self.uid_of(target.expect("checked")).expect("checked");
                        self.schedule(&[Effect::Damage { uid, amount }]);
                    }
                    AbilityEffect::Summon { card, up_to } => {
                        let room = BOARD_SIZE - self.player(seat).board.len();
                        let n = room.min(up_to as usize);
                        let token = Effect::Enter { player: seat, card: Sorcery::token(card), created: true };
                        self.queue.schedule(std::iter::repeat_n(token, n));
                    }
                }
            }
            Action::Draw => self.draw(seat, out),
            Action::Discard { card } => {
                let p = self.player_mut(seat);
                let c = p.hand.remove(card as usize);
                p.removed += 1;
                out.push(Event::Discarded { player: seat, card: c.id });
            }
        }
        self.run_queue(out);
        Ok(())
    }

    /// A card has left `seat`'s hand and been paid for.
    fn play(&mut self, seat: Seat, card: Card, target: Option<Target>, out: &mut Vec<Event>) {
        let def = card.id.def();
        match def.kind {
            Kind::Minion => self.schedule(&[Effect::Enter { player: seat, card, created: false }]),
            Kind::Ritual => {
                let p = self.player_mut(seat);
                // A second ritual replaces the first, which is removed from the game.
                let replaced = p.ritual.replace(Ritual { id: card.id, charges: def.charges }).map(|r| r.id);
                if replaced.is_some() {
                    p.removed += 1;
                }
                out.push(Event::RitualPlaced { player: seat, card: card.id, replaced });
            }
            Kind::Enchantment => {
                let uid = self.uid_of(target.expect("checked")).expect("checked");
                let (owner, _) = self.find(uid).expect("checked");
                let m = self.minion_mut(uid).expect("checked");
                m.enchantments.push(card.id);
                if def.modifier == Some(Modifier::ExtraAction) {
                    // Haste grants its action at once (spec 6.3).
                    m.actions += 1;
                }
                let (attack, defence) = m.stats();
                let minion = MinionRef { player: owner, card: m.card.id };
                out.push(Event::MinionEnchanted { minion, enchantment: card.id, attack, defence });
            }
            Kind::Spell => {
                self.player_mut(seat).removed += 1;
                match def.spell.expect("spells have an effect") {
                    SpellEffect::Destroy => match target.expect("checked") {
                        Target::Ritual { player } => {
                            let p = self.player_mut(player);
                            let r = p.ritual.take().expect("checked");
                            p.removed += 1;
                            out.push(Event::RitualDestroyed { player, card: r.id });
                        }
                        t @ Target::Minion { .. } => {
                            let uid = self.uid_of(t).expect("checked");
                            self.minion_mut(uid).expect("checked").leaving = true;
                            self.schedule(&[Effect::Leave { uid, to: Zone::Graveyard }]);
                        }
                    },
                    SpellEffect::ReturnToHand => {
                        let uid = self.uid_of(target.expect("checked")).expect("checked");
                        self.minion_mut(uid).expect("checked").leaving = true;
                        self.schedule(&[Effect::Leave { uid, to: Zone::Hand }]);
                    }
                    SpellEffect::AddCharges(n) => {
                        let r = self.player_mut(seat).ritual.as_mut().expect("checked");
                        r.charges += n;
                        let (card, charges) = (r.id, r.charges);
                        out.push(Event::ChargesChanged { player: seat, card, charges });
                    }
                    SpellEffect::RemoveTopEnchantment => {
                        let t = target.expect("checked");
                        let uid = self.uid_of(t).expect("checked");
                        let m = self.minion_mut(uid).expect("checked");
                        let e = m.enchantments.pop().expect("checked");
                        let (attack, defence) = m.stats();
                        let minion = MinionRef { player: t.player(), card: m.card.id };
                        self.player_mut(t.player()).removed += 1;
                        out.push(Event::EnchantmentRemoved { minion, enchantment: e, attack, defence });
                    }
                    SpellEffect::Resurrect { defence } => {
                        let mut c = self.player_mut(seat).graveyard.pop().expect("checked");
                        c.defence = defence;
                        self.schedule(&[Effect::Enter { player: seat, card: c, created: false }]);
                    }
                    SpellEffect::DamageAll(amount) => {
                        let players = &self.players;
                        let hits = self.apnap().into_iter().flat_map(|s| &players[s.index()].board);
                        self.queue.schedule_with(|fx| fx.extend(hits.map(|m| Effect::Damage { uid: m.uid, amount })));
                    }
                }
            }
        }
    }

    /// Draws a card if the deck has one and the hand has room (otherwise it stays on top).
    fn draw(&mut self, seat: Seat, out: &mut Vec<Event>) {
        let p = self.player_mut(seat);
        if p.hand.len() < HAND_SIZE
            && let Some(c) = p.deck.pop()
        {
            p.hand.push(c);
            out.push(Event::CardDrawn { player: seat, card: Some(c.id) });
        }
    }

    fn end_turn(&mut self, out: &mut Vec<Event>) {
        let seat = self.active;
        let (players, active) = (&self.players, self.active);
        self.queue.schedule_with(|fx| triggers(players, active, When::EndOfTurn, None, fx));
        self.run_queue(out);
        if self.status != Status::Playing {
            return;
        }
        out.push(Event::TurnEnded { player: seat });
        if self.draw_when_stuck && self.stuck() {
            self.status = Status::Drawn;
            out.push(Event::GameDrawn { reason: DrawReason::NoDamagePossible });
            return;
        }
        if self.turn_limit.is_some_and(|limit| self.turn >= limit) {
            self.status = Status::Drawn;
            out.push(Event::GameDrawn { reason: DrawReason::TurnLimit });
            return;
        }
        self.active = other(seat);
        self.turn += 1;
        self.start_turn(out);
    }

    /// Gain a magic, draw, ready the minions, then "start of your turn" triggers.
    fn start_turn(&mut self, out: &mut Vec<Event>) {
        let seat = self.active;
        let p = self.player_mut(seat);
        p.magic += 1;
        let magic = p.magic;
        out.push(Event::TurnStarted { player: seat, turn: self.turn, magic });
        self.draw(seat, out);
        for m in &mut self.player_mut(seat).board {
            m.actions = m.actions_per_turn();
        }
        let (players, active) = (&self.players, self.active);
        self.queue.schedule_with(|fx| triggers(players, active, When::StartOfTurn, None, fx));
        self.run_queue(out);
    }

    /// Neither player can ever put a minion on the board again, and none is there.
    fn stuck(&self) -> bool {
        self.players
            .iter()
            .all(|p| p.board.is_empty() && !p.hand.iter().chain(p.deck.iter()).any(|c| can_bring_minion(c.id)))
    }

    /// Card conservation and bounds.
    pub(crate) fn invariants(&self) -> Result<(), String> {
        if !self.queue.is_empty() {
            return Err("effect queue not empty between actions".into());
        }
        // Conservation is global: an enchantment played on the other player's minion is on
        // their board (and owned by them, spec 1.1) until it is removed from the game.
        let count: u32 = self.players.iter().map(Player::card_count).sum();
        let expected: u32 = self.players.iter().map(|p| p.initial + p.created).sum();
        if count != expected {
            return Err(format!("{count} cards accounted for, expected {expected} (created included)"));
        }
        for (i, p) in self.players.iter().enumerate() {
            if p.hand.len() > HAND_SIZE || p.board.len() > BOARD_SIZE {
                return Err(format!("player {}: hand {} board {}", i + 1, p.hand.len(), p.board.len()));
            }
            if p.magic < 0 {
                return Err(format!("player {}: negative magic", i + 1));
            }
            for m in &p.board {
                if m.leaving || m.defence() <= 0 {
                    return Err(format!("player {}: dead minion {:?} on the board", i + 1, m.card.id));
                }
                if m.enchantments.iter().any(|e| e.kind() != Kind::Enchantment) {
                    return Err("a non-enchantment is enchanting a minion".into());
                }
            }
            if p.graveyard.iter().any(|c| c.id.kind() != Kind::Minion) {
                return Err("a non-minion is in a graveyard".into());
            }
            if p.ritual.is_some_and(|r| r.id.kind() != Kind::Ritual) {
                return Err("a non-ritual is in the ritual slot".into());
            }
        }
        if self.status == Status::Playing && self.players.iter().any(|p| p.life <= 0) {
            return Err("a player is at 0 life but the game goes on".into());
        }
        Ok(())
    }
}
