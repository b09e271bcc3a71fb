//! The floor under the random-games bench: the same uniform random fights as
//! `engine::random_playout::<WolfPack>` — the same seeds, the same random draws, the same
//! rules, move for move — played by a plain simulator written only to be fast: fixed arrays,
//! cards as bytes, effects scanned where they act, no events, no legality check, no state
//! machine as data, no delegates. It is what the rules alone cost, the way
//! `../shared/bench/plain-sim.js` is for Buckshot; the engine cannot be cheaper than the
//! rules it runs.
//!
//! `plain [GAMES] [PILOTS] [CHECKED]` first checks, outside the timing, that it plays the
//! engine's fights (for CHECKED seeds, 20,000 unless given: the same number of moves, turns,
//! winner and every seat's final health), then prints games/s and moves/s in CPU time (user + system) over GAMES fights.
//!
//! Not a second implementation of the game: nothing uses it but this measurement, and the
//! check above fails loudly if the rules move on without it.

use engine::{Game, MatchRng, PlayoutBuffers, Seat, random_playout};

#[path = "common/cpu.rs"]
mod cpu;
use cpu::cpu_seconds;
use wolfpack::fast::plays;
use wolfpack::{Card, Config, Side, WolfPack};

const NONE: u8 = 255;
/// More live effects than a fight has ever held (the check below would fail on an overflow).
const MAX_EFFECTS: usize = 32;
const EMPTY: Effect = Effect { card: 0, user: 0, pilot_user: false, target: 0, actions: 0, turns: 0, on_target: 0 };
const MAX_PILOTS: usize = 5;

// Card numbers (`Card as u8`).
const OPEN_FIRE: u8 = Card::OpenFire as u8;
const SIDEWINDER: u8 = Card::Sidewinder as u8;
const DODGE_ROLL: u8 = Card::DodgeRoll as u8;
const SUPPRESSION: u8 = Card::Suppression as u8;
const PULLING_GS: u8 = Card::PullingGs as u8;
const REGROUP: u8 = Card::MidAirRegroup as u8;
const COVER_FIRE: u8 = Card::CoverFire as u8;
const INTO_THE_FOG: u8 = Card::IntoTheFog as u8;
const BARRAGE: u8 = Card::AirToAirBarrage as u8;
const SWEEPING_FIRE: u8 = Card::SweepingFire as u8;

/// Aim by card: 0 the other side, 1 one's own, 2 no target.
const AIM: [u8; 10] = [0, 0, 1, 0, 0, 1, 2, 2, 0, 2];

#[derive(Clone, Copy, PartialEq)]
enum Phase {
    Selection,
    Confirm,
    BossSelection,
    BossPhaseConfirm,
    Over,
}

/// A live effect, with the seats whose OnTarget it restricts (Pulling G's, Into the Fog).
#[derive(Clone, Copy)]
struct Effect {
    card: u8,
    user: u8,
    /// The user is a pilot.
    pilot_user: bool,
    target: u8,
    actions: u8,
    turns: u8,
    on_target: u32,
}

/// A deck's draw pile (top = last) and discard pile, in fixed arrays (no allocation a fight).
#[derive(Clone, Copy)]
struct Deck {
    draw: [u8; 64],
    draw_len: usize,
    discard: [u8; 64],
    discard_len: usize,
}

impl Deck {
    fn new(cards: &[u8]) -> Deck {
        let mut d = Deck { draw: [0; 64], draw_len: cards.len(), discard: [0; 64], discard_len: 0 };
        d.draw[..cards.len()].copy_from_slice(cards);
        d
    }

    fn discard(&mut self, card: u8) {
        self.discard[self.discard_len] = card;
        self.discard_len += 1;
    }
}

struct Fight {
    pilots: usize,
    ace: u8,
    health: [i32; MAX_PILOTS + 1],
    hands: [[u8; 8]; MAX_PILOTS + 1],
    hand_len: [usize; MAX_PILOTS + 1],
    debt: [u8; MAX_PILOTS],
    /// A pilot's pending choice: (kind 0 play / 1 discard, card or mask, target); kind NONE for none.
    choice: [(u8, u8, u8); MAX_PILOTS],
    living: u32,
    waiting: u32,
    picks_left: u8,
    phase: Phase,
    /// In the Ace's turn (Dodge Roll asks whose turn it is).
    ace_turn: bool,
    turn: u32,
    decks: [Deck; 2],
    queue: [(u8, u8, u8); 8],
    queue_len: usize,
    /// The next queued card to resolve.
    queue_head: usize,
    /// The live effects, oldest first.
    effects: [Effect; MAX_EFFECTS],
    effects_len: usize,
    winner: Option<Side>,
    rng: MatchRng,
    pilot_health: i32,
    pilot_hand: usize,
    ace_hand: usize,
    ace_plays: u8,
}

impl Fight {
    /// A fight from both decks in card order (`DeckCounts::cards`), shuffled as setup does.
    fn new(config: &Config, decks: &[Vec<u8>; 2], seed: u64) -> Fight {
        let mut rng = MatchRng::new(seed);
        let mut pilot_deck = Deck::new(&decks[0]);
        let mut ace_deck = Deck::new(&decks[1]);
        rng.shuffle(&mut pilot_deck.draw[..pilot_deck.draw_len]);
        rng.shuffle(&mut ace_deck.draw[..ace_deck.draw_len]);
        let pilots = usize::from(config.pilots);
        let mut health = [config.pilot_health; MAX_PILOTS + 1];
        health[pilots] = config.ace_health;
        let mut f = Fight {
            pilots,
            ace: pilots as u8,
            health,
            hands: [[0; 8]; MAX_PILOTS + 1],
            hand_len: [0; MAX_PILOTS + 1],
            debt: [0; MAX_PILOTS],
            choice: [(NONE, 0, 0); MAX_PILOTS],
            living: (1 << pilots) - 1,
            waiting: 0,
            picks_left: 0,
            phase: Phase::Selection,
            ace_turn: false,
            turn: 1,
            decks: [pilot_deck, ace_deck],
            queue: [(0, 0, 0); 8],
            queue_len: 0,
            queue_head: 0,
            effects: [EMPTY; MAX_EFFECTS],
            effects_len: 0,
            winner: None,
            rng,
            pilot_health: config.pilot_health,
            pilot_hand: usize::from(config.pilot_hand),
            ace_hand: usize::from(config.ace_hand),
            ace_plays: config.ace_plays,
        };
        f.pilots_turn();
        f
    }

    fn draw(&mut self, side: usize) -> Option<u8> {
        let deck = &mut self.decks[side];
        if deck.draw_len == 0 {
            if deck.discard_len == 0 {
                return None;
            }
            deck.draw = deck.discard;
            deck.draw_len = deck.discard_len;
            deck.discard_len = 0;
            self.rng.shuffle(&mut deck.draw[..deck.draw_len]);
        }
        deck.draw_len -= 1;
        Some(deck.draw[deck.draw_len])
    }

    fn remove_effect(&mut self, i: usize) {
        self.effects.copy_within(i + 1..self.effects_len, i);
        self.effects_len -= 1;
    }

    fn remove(&mut self, seat: usize, i: usize) -> u8 {
        let len = self.hand_len[seat];
        let hand = &mut self.hands[seat];
        let c = hand[i];
        // A hand holds at most 5 cards: a loop, not a call to memmove.
        for k in i..len - 1 {
            hand[k] = hand[k + 1];
        }
        self.hand_len[seat] = len - 1;
        c
    }

    /// Draw, then into Selection: Into the Fog binds the living pilots; Pulling G's played by
    /// the Ace binds its target.
    fn pilots_turn(&mut self) {
        self.ace_turn = false;
        for i in 0..self.pilots {
            if self.health[i] <= 0 {
                continue;
            }
            let n = self.pilot_hand.saturating_sub(self.hand_len[i] + usize::from(self.debt[i]));
            self.debt[i] = 0;
            for _ in 0..n {
                let Some(c) = self.draw(0) else { break };
                self.hands[i][self.hand_len[i]] = c;
                self.hand_len[i] += 1;
            }
        }
        let living = self.living;
        for e in &mut self.effects[..self.effects_len] {
            match e.card {
                INTO_THE_FOG => e.on_target |= living,
                PULLING_GS if !e.pilot_user => e.on_target |= 1 << e.target,
                _ => {}
            }
        }
        self.phase = Phase::Selection;
        self.waiting = 0;
        for i in 0..self.pilots {
            self.waiting |= u32::from(self.health[i] > 0 && self.hand_len[i] > 0) << i;
        }
        self.selection_done();
    }

    fn selection_done(&mut self) {
        if self.waiting != 0 {
            return;
        }
        // Reveal: plays join the queue in seat order, discards go to the pile.
        self.queue_len = 0;
        for i in 0..self.pilots {
            let (kind, x, target) = std::mem::replace(&mut self.choice[i], (NONE, 0, 0));
            match kind {
                0 => {
                    let c = self.remove(i, usize::from(x));
                    self.queue[self.queue_len] = (i as u8, c, target);
                    self.queue_len += 1;
                }
                1 => {
                    self.debt[i] = x.count_ones() as u8 - 1;
                    for k in (0..self.hand_len[i]).rev() {
                        if x & (1 << k) != 0 {
                            let c = self.remove(i, k);
                            self.decks[0].discard(c);
                        }
                    }
                }
                _ => {}
            }
        }
        self.actions();
        if self.winner.is_some() {
            return;
        }
        // Into Confirm: the pilots' "next turn" effects played by the Ace end, Suppression on
        // the Ace counts a turn.
        self.end_of_turn(false);
        self.phase = Phase::Confirm;
    }

    /// Works the Action queue (or BossAction's).
    fn actions(&mut self) {
        self.queue_head = 0;
        while self.queue_head < self.queue_len {
            let (seat, card, target) = self.queue[self.queue_head];
            self.queue_head += 1;
            if seat == NONE {
                continue;
            }
            self.resolve(seat, card, target);
            if self.winner.is_some() {
                return;
            }
        }
        self.queue_len = 0;
    }

    /// The entry to a Confirm: effects of the other side that lasted "the next turn" end.
    fn end_of_turn(&mut self, ace_turn: bool) {
        // The side whose "next turn" this was is the opposite of the effect's user.
        let mut i = 0;
        while i < self.effects_len {
            let e = &mut self.effects[i];
            let opposing_turn = e.pilot_user == ace_turn;
            let done = match e.card {
                DODGE_ROLL | PULLING_GS => opposing_turn,
                SUPPRESSION if opposing_turn => {
                    e.turns -= 1;
                    e.turns == 0
                }
                COVER_FIRE => ace_turn,
                INTO_THE_FOG => !ace_turn,
                _ => false,
            };
            if done {
                self.remove_effect(i);
            } else {
                i += 1;
            }
        }
    }

    fn resolve(&mut self, seat: u8, card: u8, target: u8) {
        let side = usize::from(seat == self.ace);
        self.decks[side].discard(card);
        // Suppression ticks on its target's actions.
        let mut i = 0;
        while i < self.effects_len {
            let e = &mut self.effects[i];
            if e.card == SUPPRESSION && e.target == seat {
                e.actions -= 1;
                if e.actions == 0 {
                    self.remove_effect(i);
                } else {
                    i += 1;
                }
                self.damage(seat, 2, SUPPRESSION);
                if self.winner.is_some() {
                    return;
                }
                // Shot down: every Suppression on it ended with it.
                if self.health[usize::from(seat)] <= 0 {
                    break;
                }
            } else {
                i += 1;
            }
        }
        if self.health[usize::from(seat)] <= 0 || (target != NONE && self.health[usize::from(target)] <= 0) {
            return;
        }
        match card {
            OPEN_FIRE | SIDEWINDER | BARRAGE => {
                let d = if card == BARRAGE { 10 } else { 5 };
                self.damage(target, d, card);
            }
            SWEEPING_FIRE => {
                for s in 0..self.pilots as u8 {
                    if self.health[usize::from(s)] <= 0 {
                        continue;
                    }
                    let spared = self.effects[..self.effects_len]
                        .iter()
                        .any(|e| e.card == PULLING_GS && e.on_target >> seat & 1 != 0 && e.user == s);
                    if spared {
                        continue;
                    }
                    self.damage(s, 5, SWEEPING_FIRE);
                    if self.winner.is_some() {
                        return;
                    }
                }
            }
            REGROUP => {
                let t = usize::from(target);
                self.health[t] = (self.health[t] + 10).min(self.pilot_health);
            }
            _ => {
                self.effects[self.effects_len] = Effect {
                    card,
                    user: seat,
                    pilot_user: seat != self.ace,
                    target,
                    actions: 4,
                    turns: 2,
                    on_target: 0,
                };
                self.effects_len += 1;
            }
        }
    }

    fn damage(&mut self, seat: u8, amount: i32, source: u8) {
        if source == OPEN_FIRE || source == SWEEPING_FIRE {
            let dodge = self.effects[..self.effects_len]
                .iter()
                .position(|e| e.card == DODGE_ROLL && e.target == seat && e.pilot_user == self.ace_turn);
            if let Some(i) = dodge {
                self.remove_effect(i);
                return;
            }
        }
        let s = usize::from(seat);
        self.health[s] = (self.health[s] - amount).max(0);
        if self.health[s] == 0 {
            self.shoot_down(seat);
        }
    }

    fn shoot_down(&mut self, seat: u8) {
        if seat == self.ace {
            self.winner = Some(Side::Pilots);
            self.phase = Phase::Over;
            return;
        }
        let bit = 1 << seat;
        self.living &= !bit;
        self.waiting &= !bit;
        let mut kept = 0;
        for i in 0..self.effects_len {
            let e = self.effects[i];
            if !((e.pilot_user && e.user == seat) || e.target == seat) {
                self.effects[kept] = e;
                kept += 1;
            }
        }
        self.effects_len = kept;
        for e in &mut self.effects[..self.effects_len] {
            e.on_target &= !bit;
        }
        let s = usize::from(seat);
        self.choice[s] = (NONE, 0, 0);
        self.debt[s] = 0;
        for k in 0..self.hand_len[s] {
            self.decks[0].discard(self.hands[s][k]);
        }
        self.hand_len[s] = 0;
        for q in &mut self.queue[self.queue_head..self.queue_len] {
            if q.0 == seat {
                self.decks[0].discard(q.1);
                q.0 = NONE;
            }
        }
        if self.living == 0 {
            self.winner = Some(Side::Ace);
            self.phase = Phase::Over;
        }
    }

    /// The seats `origin` may aim at: (the other side, its own).
    fn aim_masks(&self, origin: u8) -> (u32, u32) {
        let mut forbidden = 0;
        for e in &self.effects[..self.effects_len] {
            if e.on_target >> origin & 1 != 0 {
                forbidden |=
                    if e.card == PULLING_GS { 1 << e.user } else { ((1u32 << self.pilots) - 1) & !(1 << origin) };
            }
        }
        let (ace, living) = (1u32 << self.ace, self.living);
        let (enemy, friend) = if origin == self.ace { (living, ace) } else { (ace, living) };
        (enemy & !forbidden, friend & !forbidden)
    }

    /// The engine's uniform random action, drawn the same way, and applied.
    fn step(&mut self, rng: &mut MatchRng) {
        match self.phase {
            Phase::Selection => {
                let seat = self.waiting.trailing_zeros() as u8;
                let s = usize::from(seat);
                let (enemy, friend) = self.aim_masks(seat);
                let masks = [enemy, friend, 0];
                let counts = [plays(enemy), plays(friend), 1];
                let len = self.hand_len[s];
                let hand = self.hands[s];
                let mut total = 0;
                for &c in &hand[..len] {
                    total += counts[usize::from(AIM[usize::from(c)])];
                }
                let discards = 2 * ((1u32 << len) - 1);
                let chosen = self.choice[s].0 != NONE;
                let mut i = rng.below(2 * total + discards + u32::from(chosen));
                let confirm;
                if i >= 2 * total {
                    let d = i - 2 * total;
                    if d < discards {
                        self.choice[s] = (1, (d / 2 + 1) as u8, 0);
                        confirm = d % 2 == 1;
                    } else {
                        confirm = true;
                    }
                } else {
                    let mut card = 0;
                    loop {
                        let aim = usize::from(AIM[usize::from(hand[card])]);
                        let n = 2 * counts[aim];
                        if i < n {
                            let target = if aim == 2 { NONE } else { nth(masks[aim], i / 2) };
                            self.choice[s] = (0, card as u8, target);
                            confirm = i % 2 == 1;
                            break;
                        }
                        i -= n;
                        card += 1;
                    }
                }
                if confirm {
                    self.waiting &= !(1 << seat);
                    self.selection_done();
                }
            }
            Phase::BossSelection => {
                let (enemy, friend) = self.aim_masks(self.ace);
                let masks = [enemy, friend, 0];
                let counts = [plays(enemy), plays(friend), 1];
                let a = usize::from(self.ace);
                let len = self.hand_len[a];
                let mut total = 0;
                for &c in &self.hands[a][..len] {
                    total += counts[usize::from(AIM[usize::from(c)])];
                }
                if total == 0 {
                    rng.index(1);
                } else {
                    let mut i = rng.below(total);
                    let mut card = 0;
                    loop {
                        let aim = usize::from(AIM[usize::from(self.hands[a][card])]);
                        let n = counts[aim];
                        if i < n {
                            let target = if aim == 2 { NONE } else { nth(masks[aim], i) };
                            let c = self.remove(a, card);
                            self.queue[self.queue_len] = (self.ace, c, target);
                            self.queue_len += 1;
                            break;
                        }
                        i -= n;
                        card += 1;
                    }
                }
                self.picks_left -= 1;
                if self.picks_left == 0 {
                    self.boss_actions();
                }
            }
            Phase::Confirm => {
                rng.index(1);
                self.ace_turn_start();
            }
            Phase::BossPhaseConfirm => {
                rng.index(1);
                self.turn += 1;
                self.pilots_turn();
            }
            Phase::Over => {}
        }
    }

    /// BossDraw, then into BossSelection: Pulling G's played by pilots binds the Ace, Cover
    /// Fire takes a play away.
    fn ace_turn_start(&mut self) {
        self.ace_turn = true;
        let a = usize::from(self.ace);
        while self.hand_len[a] < self.ace_hand {
            let Some(c) = self.draw(1) else { break };
            self.hands[a][self.hand_len[a]] = c;
            self.hand_len[a] += 1;
        }
        self.picks_left = self.ace_plays;
        for e in &mut self.effects[..self.effects_len] {
            match e.card {
                PULLING_GS if e.pilot_user => e.on_target |= 1 << e.target,
                COVER_FIRE => self.picks_left = self.picks_left.min(self.ace_plays - 1),
                _ => {}
            }
        }
        self.phase = Phase::BossSelection;
        self.queue_len = 0;
        if self.picks_left == 0 {
            self.boss_actions();
        }
    }

    fn boss_actions(&mut self) {
        self.actions();
        if self.winner.is_some() {
            return;
        }
        self.end_of_turn(true);
        self.phase = Phase::BossPhaseConfirm;
    }
}

/// The `k`-th seat of a mask (lowest first).
fn nth(mask: u32, k: u32) -> u8 {
    let mut m = mask;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as u8
}

/// Plays one uniform random fight; returns (moves, turns, winner, health by seat).
fn play(config: &Config, decks: &[Vec<u8>; 2], seed: u64) -> (usize, u32, Option<Side>, [i32; MAX_PILOTS + 1]) {
    let mut f = Fight::new(config, decks, seed);
    let mut rng = MatchRng::new(seed ^ 0xBEEF);
    let mut moves = 0;
    while f.phase != Phase::Over {
        f.step(&mut rng);
        moves += 1;
    }
    (moves, f.turn, f.winner, f.health)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let pilots: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let checked: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let config = Config::pilots(pilots);
    let cards = |d: wolfpack::DeckCounts| d.cards().iter().map(|&c| c as u8).collect::<Vec<u8>>();
    let decks = [cards(config.pilot_deck), cards(config.ace_deck)];

    // The same fights as the engine's random playouts.
    let mut buf = PlayoutBuffers::default();
    for seed in 0..checked {
        let (moves, turn, winner, health) = play(&config, &decks, seed);
        let engine_moves = random_playout::<WolfPack>(&config, seed, &mut buf);
        // random_playout returns only the moves: replay the fight to read its end.
        let mut g = WolfPack::new(&config, seed).expect("valid");
        let mut r = MatchRng::new(seed ^ 0xBEEF);
        while let Some(seat) = g.to_act().first() {
            let a = g.random_action(seat, &mut r).expect("legal");
            g.apply(seat, a).expect("legal");
        }
        let engine_health: Vec<i32> = (0..=pilots).map(|s| g.health(Seat(s))).collect();
        assert_eq!(
            (moves, turn, winner, &health[..=usize::from(pilots)]),
            (engine_moves, g.turn(), g.winner(), &engine_health[..]),
            "seed {seed}: the plain fight differs from the engine's"
        );
    }
    eprintln!("{checked} fights played exactly as the engine plays them");

    let (cpu0, start) = (cpu_seconds(), std::time::Instant::now());
    let mut moves = 0;
    for seed in 0..games {
        moves += std::hint::black_box(play(&config, &decks, seed)).0;
    }
    cpu::report("plain", &format!("{pilots} pilots, "), games, moves, cpu0, start);
}
