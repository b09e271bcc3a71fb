//! Legality and the effect of each action: `legal_actions_into`, `check`, `perform`, and the
//! turn and round machinery they share.

use crate::state::{ITEMS_PER_ROUND, MAX_LIVES, MAX_SEATS, bit};
use crate::{Action, Buckshot, Chamber, Config, Event, Item, ItemUse, Items, Quickshot, Shell};
use engine::{MatchRng, RuleError, Seat, SetupError};

/// Shells a Rebalancer may add at most; the chamber must have room for them.
const REBALANCE_MAX: u8 = 3;

/// The most actions one seat can have: 8 shots; own items: 7 skip targets and one use of each
/// other kind (2 for a Rebalancer); stealing from 7 others: the same per victim.
const MAX_ACTIONS: usize = 8 + 14 + 7 * 14;

/// Calls `f` with the index of every set bit, lowest first.
#[inline(always)]
fn for_each_bit(mut mask: u8, mut f: impl FnMut(u8)) {
    while mask != 0 {
        f(mask.trailing_zeros() as u8);
        mask &= mask - 1;
    }
}

fn err(code: &'static str, message: &'static str) -> RuleError {
    RuleError::new(code, message)
}

impl Buckshot {
    pub(crate) fn setup(config: &Config, seed: u64) -> Result<Self, SetupError> {
        if !(Config::MIN_PLAYERS..=Config::MAX_PLAYERS).contains(&config.players) {
            return Err(SetupError::new(
                "bad_player_count",
                format!("Buckshot is for 2 to 8 players, not {}", config.players),
            ));
        }
        let n = config.players;
        let mut lives = [0; MAX_SEATS];
        lives[..usize::from(n)].fill(MAX_LIVES);
        let mut game = Buckshot {
            n,
            lives,
            items: [Items::NONE; MAX_SEATS],
            skipped: 0,
            knows: 0,
            round: 0,
            turn: 0,
            current: Seat(0),
            chamber: Chamber::default(),
            fired: false,
            double_damage: false,
            quickshot: Quickshot::Off,
            winner: None,
            dealt: 0,
            spent: 0,
            rng: MatchRng::new(seed),
        };
        game.new_round(&mut Vec::new());
        Ok(game)
    }

    // ---- legality -------------------------------------------------------------------------

    pub(crate) fn legal_into(&self, seat: Seat, out: &mut Vec<Action>) {
        // Hot path of every playout: bit masks and one up-front reservation (free once the
        // caller's buffer has grown), so the pushes never reallocate.
        if self.winner.is_some() || !self.is_alive(seat) {
            return;
        }
        let mine = self.items[seat.index()];
        if seat != self.current {
            // Out of turn, only a Rebalancer during its window.
            if mine.has(Item::Rebalancer) && self.can_rebalance() {
                out.push(Action::Use { item: ItemUse::Rebalancer { kind: Shell::Live } });
                out.push(Action::Use { item: ItemUse::Rebalancer { kind: Shell::Blank } });
            }
            return;
        }
        out.reserve(MAX_ACTIONS);
        let buf = out;
        let alive = self.alive_mask();
        for_each_bit(alive, |t| buf.push(Action::Shoot { target: Seat(t) }));
        if self.quickshot != Quickshot::Second {
            const STEAL: u8 = 1 << Item::Steal as u8;
            let held = mine.kind_mask();
            for_each_bit(held & !STEAL, |k| {
                self.push_uses(seat, alive, Item::ALL[usize::from(k)], buf, |item| Action::Use { item });
            });
            if held & STEAL != 0 {
                for_each_bit(alive & !bit(seat), |from| {
                    let theirs = self.items[usize::from(from)].kind_mask() & !STEAL;
                    let from = Seat(from);
                    for_each_bit(theirs, |k| {
                        self.push_uses(seat, alive, Item::ALL[usize::from(k)], buf, |item| Action::Steal {
                            from,
                            item,
                        });
                    });
                });
            }
        }
    }

    pub(crate) fn alive_mask(&self) -> u8 {
        let mut m = 0;
        for s in 0..self.players() {
            if self.lives[s] > 0 {
                m |= 1 << s;
            }
        }
        m
    }

    /// Every valid use of `item` by `user`, wrapped by `wrap`.
    #[inline(always)]
    fn push_uses(&self, user: Seat, alive: u8, item: Item, out: &mut Vec<Action>, wrap: impl Fn(ItemUse) -> Action) {
        match item {
            Item::Skip => for_each_bit(alive & !bit(user) & !self.skipped, |t| {
                out.push(wrap(ItemUse::Skip { target: Seat(t) }));
            }),
            Item::DoubleDamage if !self.double_damage => out.push(wrap(ItemUse::DoubleDamage)),
            Item::ChamberCheck => out.push(wrap(ItemUse::ChamberCheck)),
            Item::Rebalancer if self.can_rebalance() => {
                out.push(wrap(ItemUse::Rebalancer { kind: Shell::Live }));
                out.push(wrap(ItemUse::Rebalancer { kind: Shell::Blank }));
            }
            Item::Quickshot if self.quickshot == Quickshot::Off => out.push(wrap(ItemUse::Quickshot)),
            Item::AddLife if self.lives[user.index()] < MAX_LIVES => out.push(wrap(ItemUse::AddLife)),
            Item::ShootAir => out.push(wrap(ItemUse::ShootAir)),
            _ => {}
        }
    }

    fn can_rebalance(&self) -> bool {
        self.rebalancer_window() && self.chamber.len() + REBALANCE_MAX <= Chamber::CAPACITY
    }

    /// Why `seat` may not take `action` now, if it may not. Written independently of
    /// `legal_into`; the invariant suite checks that the two agree.
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<(), RuleError> {
        if self.winner.is_some() {
            return Err(RuleError::game_over());
        }
        if !self.is_alive(seat) {
            return Err(err("not_playing", "you are not a living player in this game"));
        }
        if let Action::Use { item: ItemUse::Rebalancer { .. } } = action
            && seat != self.current
        {
            if !self.items[seat.index()].has(Item::Rebalancer) {
                return Err(err("no_such_item", "you do not hold that item"));
            }
            return self.check_use(seat, &ItemUse::Rebalancer { kind: Shell::Live });
        }
        if seat != self.current {
            return Err(RuleError::not_your_turn());
        }
        if self.quickshot == Quickshot::Second && !matches!(action, Action::Shoot { .. }) {
            return Err(err("must_shoot", "Quickshot: you must fire your second shot now"));
        }
        match *action {
            Action::Shoot { target } => {
                if !self.is_alive(target) {
                    return Err(err("invalid_target", "that is not a living player"));
                }
                Ok(())
            }
            Action::Use { item } => {
                if !self.items[seat.index()].has(item.item()) {
                    return Err(err("no_such_item", "you do not hold that item"));
                }
                self.check_use(seat, &item)
            }
            Action::Steal { from, item } => {
                if !self.items[seat.index()].has(Item::Steal) {
                    return Err(err("no_such_item", "you do not hold a Steal"));
                }
                if from == seat {
                    return Err(err("cannot_target_self", "you cannot steal from yourself"));
                }
                if !self.is_alive(from) {
                    return Err(err("invalid_target", "that is not a living player"));
                }
                if !self.items[from.index()].has(item.item()) {
                    return Err(err("target_lacks_item", "that player does not hold that item"));
                }
                self.check_use(seat, &item)
            }
        }
    }

    fn check_use(&self, user: Seat, item: &ItemUse) -> Result<(), RuleError> {
        match *item {
            ItemUse::Skip { target } => {
                if target == user {
                    Err(err("cannot_target_self", "you cannot skip yourself"))
                } else if !self.is_alive(target) {
                    Err(err("invalid_target", "that is not a living player"))
                } else if self.is_skipped(target) {
                    Err(err("already_skipped", "that player is already skipped"))
                } else {
                    Ok(())
                }
            }
            ItemUse::DoubleDamage if self.double_damage => {
                Err(err("already_active", "Double Damage is already active this turn"))
            }
            ItemUse::Rebalancer { .. } if !self.rebalancer_window() => Err(err(
                "rebalancer_window_closed",
                "a Rebalancer can only be used before the round's first shell is fired",
            )),
            ItemUse::Rebalancer { .. } if !self.can_rebalance() => {
                Err(err("chamber_full", "the chamber has no room for more shells"))
            }
            ItemUse::Quickshot if self.quickshot != Quickshot::Off => {
                Err(err("already_active", "Quickshot is already active this turn"))
            }
            ItemUse::AddLife if self.lives[user.index()] >= MAX_LIVES => {
                Err(err("lives_full", "you already have the most lives a player can have"))
            }
            _ => Ok(()),
        }
    }

    // ---- effects --------------------------------------------------------------------------

    /// Carries out an action that `check` accepted.
    pub(crate) fn perform(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) {
        match action {
            Action::Shoot { target } => self.shoot(seat, target, out),
            Action::Use { item } => {
                self.items[seat.index()].take(item.item());
                self.spent += 1;
                self.use_item(seat, item, out);
            }
            Action::Steal { from, item } => {
                self.items[seat.index()].take(Item::Steal);
                self.items[from.index()].take(item.item());
                self.spent += 2;
                out.push(Event::Stole { by: seat, from, item: item.item() });
                self.use_item(seat, item, out);
            }
        }
    }

    fn use_item(&mut self, by: Seat, item: ItemUse, out: &mut Vec<Event>) {
        match item {
            ItemUse::Skip { target } => {
                self.skipped |= bit(target);
                out.push(Event::SkipUsed { by, target });
            }
            ItemUse::DoubleDamage => {
                self.double_damage = true;
                out.push(Event::DoubleDamageUsed { by });
            }
            ItemUse::ChamberCheck => {
                self.knows |= bit(by);
                out.push(Event::ChamberChecked { by, shell: self.chamber.peek() });
            }
            ItemUse::Rebalancer { kind } => {
                let added = self.rng.range_inclusive(1, u32::from(REBALANCE_MAX)) as u8;
                let (mut live, mut blank) = (self.chamber.live(), self.chamber.blank());
                match kind {
                    Shell::Live => live += added,
                    Shell::Blank => blank += added,
                }
                self.chamber = Chamber::load(live, blank, &mut self.rng);
                self.knows = 0;
                out.push(Event::Rebalanced { by, kind, added, live, blank });
            }
            ItemUse::Quickshot => {
                self.quickshot = Quickshot::Armed;
                out.push(Event::QuickshotUsed { by });
            }
            ItemUse::AddLife => {
                self.lives[by.index()] += 1;
                out.push(Event::LifeAdded { by, lives: self.lives[by.index()] });
            }
            ItemUse::ShootAir => {
                let shell = self.fire();
                out.push(Event::AirShot { by, shell });
                self.end_turn(out);
            }
        }
    }

    fn fire(&mut self) -> Shell {
        self.fired = true;
        self.knows = 0;
        self.chamber.fire().expect("a turn never starts with an empty chamber")
    }

    fn shoot(&mut self, by: Seat, target: Seat, out: &mut Vec<Event>) {
        let shell = self.fire();
        let nominal = match shell {
            Shell::Live if self.double_damage => 2,
            Shell::Live => 1,
            Shell::Blank => 0,
        };
        self.double_damage = false;
        let t = target.index();
        let damage = nominal.min(self.lives[t]);
        self.lives[t] -= damage;
        out.push(Event::Shot { by, target, shell, damage });
        if damage > 0 && self.lives[t] == 0 {
            self.eliminate(target, Some(by), out);
        }
        if self.winner.is_some() {
            return;
        }
        match self.quickshot {
            Quickshot::Armed if self.is_alive(by) && !self.chamber.is_empty() => {
                self.quickshot = Quickshot::Second;
            }
            Quickshot::Armed | Quickshot::Second => self.end_turn(out),
            Quickshot::Off if shell == Shell::Blank && target == by && !self.chamber.is_empty() => {
                // A blank at yourself: you go again, as a new turn.
                out.push(Event::TurnEnded { seat: by });
                self.start_turn(by, out);
            }
            Quickshot::Off => self.end_turn(out),
        }
    }

    /// `seat` is out: lives 0, skip and knowledge gone. A shooter other than the victim takes
    /// the victim's items; otherwise they are discarded.
    fn eliminate(&mut self, seat: Seat, by: Option<Seat>, out: &mut Vec<Event>) {
        let s = seat.index();
        self.lives[s] = 0;
        self.skipped &= !bit(seat);
        self.knows &= !bit(seat);
        let items = std::mem::take(&mut self.items[s]);
        match by {
            Some(killer) if killer != seat && self.is_alive(killer) => {
                self.items[killer.index()].absorb(items);
                out.push(Event::Eliminated { seat, by: Some(killer), items });
            }
            _ => {
                self.spent += items.total();
                out.push(Event::Eliminated { seat, by, items: Items::NONE });
            }
        }
        if self.alive_count() == 1 {
            let winner = self.alive_seats().next().expect("one seat is alive");
            self.winner = Some(winner);
            out.push(Event::GameOver { winner });
        }
    }

    pub(crate) fn leave(&mut self, seat: Seat, out: &mut Vec<Event>) {
        if self.winner.is_some() || !self.is_alive(seat) {
            return;
        }
        out.push(Event::Left { seat });
        self.eliminate(seat, None, out);
        if self.winner.is_none() && seat == self.current {
            self.end_turn(out);
        }
    }

    /// Ends the current player's turn: a new round if the chamber is empty, otherwise the next
    /// living seat in order, consuming pending skips on the way.
    fn end_turn(&mut self, out: &mut Vec<Event>) {
        out.push(Event::TurnEnded { seat: self.current });
        if self.chamber.is_empty() {
            self.new_round(out);
            return;
        }
        let n = self.n;
        let mut s = self.current.0;
        loop {
            s = (s + 1) % n;
            let seat = Seat(s);
            if !self.is_alive(seat) {
                continue;
            }
            if self.is_skipped(seat) {
                self.skipped &= !bit(seat);
                out.push(Event::TurnSkipped { seat });
                continue;
            }
            self.start_turn(seat, out);
            return;
        }
    }

    fn start_turn(&mut self, seat: Seat, out: &mut Vec<Event>) {
        self.current = seat;
        self.turn += 1;
        self.double_damage = false;
        self.quickshot = Quickshot::Off;
        out.push(Event::TurnStarted { seat, turn: self.turn });
    }

    /// Clears items and pending skips, deals 4 items to each living seat, loads 1-4 live and
    /// 1-4 blank shells, and starts a random living seat's turn.
    fn new_round(&mut self, out: &mut Vec<Event>) {
        self.round += 1;
        self.items = [Items::NONE; MAX_SEATS];
        self.skipped = 0;
        self.knows = 0;
        self.fired = false;
        self.dealt = 0;
        self.spent = 0;
        let alive = self.alive_count() as u32;
        let mut deck = ItemDeck::for_round(alive, self.round);
        for s in 0..self.players() {
            if self.lives[s] > 0 {
                for _ in 0..ITEMS_PER_ROUND {
                    let item = deck.draw(&mut self.rng);
                    self.items[s].add(item);
                    self.dealt += 1;
                }
            }
        }
        let live = self.rng.range_inclusive(1, 4) as u8;
        let blank = self.rng.range_inclusive(1, 4) as u8;
        self.chamber = Chamber::load(live, blank, &mut self.rng);
        out.push(Event::RoundStarted {
            round: self.round,
            live,
            blank,
            items: crate::SeatItems::new(&self.items[..self.players()]),
        });
        let k = self.rng.below(alive) as usize;
        let starter = self.alive_seats().nth(k).expect("k < alive");
        self.start_turn(starter, out);
    }

    // ---- checks ---------------------------------------------------------------------------

    pub(crate) fn invariants(&self) -> Result<(), String> {
        let n = self.players();
        if self.lives.iter().any(|&l| l > MAX_LIVES) || self.lives[n..].iter().any(|&l| l > 0) {
            return Err(format!("lives out of range: {:?}", self.lives));
        }
        for s in 0..MAX_SEATS {
            if (s >= n || self.lives[s] == 0) && self.items[s] != Items::NONE {
                return Err(format!("seat {s} is out but holds items"));
            }
        }
        let alive_mask: u8 = self.alive_seats().map(bit).fold(0, |a, b| a | b);
        if self.skipped & !alive_mask != 0 || self.knows & !alive_mask != 0 {
            return Err("a skip or a chamber check belongs to a seat that is out".into());
        }
        let held: u32 = self.items.iter().map(|i| i.total()).sum();
        if held + self.spent != self.dealt {
            return Err(format!("items not conserved: held {held} + spent {} != dealt {}", self.spent, self.dealt));
        }
        match self.winner {
            Some(w) => {
                if self.alive_count() != 1 || !self.is_alive(w) {
                    return Err("the winner must be the one seat alive".into());
                }
            }
            None => {
                if self.alive_count() < 2 {
                    return Err("fewer than two alive and no winner".into());
                }
                if !self.is_alive(self.current) {
                    return Err("the current seat is out".into());
                }
                if self.chamber.is_empty() {
                    return Err("a turn is running with an empty chamber".into());
                }
                if self.is_skipped(self.current) {
                    return Err("the current seat has a pending skip".into());
                }
            }
        }
        if self.fired && self.knows != 0 && self.chamber.is_empty() {
            return Err("a chamber check outlived the chamber".into());
        }
        Ok(())
    }
}

/// The item deck of one round: built in order from the counts, then dealt by a partial
/// Fisher–Yates (one draw per card dealt, not a full shuffle).
struct ItemDeck {
    cards: [Item; 22 * 4],
    len: usize,
    dealt: usize,
}

impl ItemDeck {
    /// With `n` living players and k = ⌈n/2⌉: 3k of each item except Rebalancer, k
    /// Rebalancers; from round 6 on, Add Life is replaced by more Double Damage.
    fn for_round(n: u32, round: u32) -> Self {
        let k = n.div_ceil(2) as usize;
        let mut cards = [Item::Skip; 22 * 4];
        let mut len = 0;
        for item in Item::ALL {
            let count = match item {
                Item::Rebalancer => k,
                Item::AddLife if round > 5 => 0,
                Item::DoubleDamage if round > 5 => 6 * k,
                _ => 3 * k,
            };
            cards[len..len + count].fill(item);
            len += count;
        }
        ItemDeck { cards, len, dealt: 0 }
    }

    fn draw(&mut self, rng: &mut MatchRng) -> Item {
        let i = self.dealt;
        let j = i + rng.below((self.len - i) as u32) as usize;
        self.cards.swap(i, j);
        self.dealt += 1;
        self.cards[i]
    }
}
