//! The effect of each action: `apply_action` (which checks it with `legal.rs`'s checks and
//! carries it out), and the turn machinery (the start of a round is in `round.rs`).

use crate::item::REBALANCE_MAX;
use crate::legal::Refusal;
use crate::mask::next_after;
use crate::state::{MAX_LIVES, MAX_SEATS, bit};
use crate::{Action, Buckshot, Chamber, Config, Event, Item, ItemUse, Items, Quickshot, Shell};
use engine::{MatchRng, Seat, SetupError};

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
            alive: crate::mask::nonzero_bytes(lives),
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
        // The first round's events are the game's `start_events`.
        game.begin_round();
        Ok(game)
    }

    /// Checks `action` by `seat` and carries it out; on `Err` nothing changed.
    #[inline(always)]
    pub(crate) fn apply_action(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) -> Result<(), Refusal> {
        match action {
            Action::Shoot { target } => {
                self.check_actor(seat, &action)?;
                self.shoot(seat, target, out);
                Ok(())
            }
            Action::Use { item } => {
                self.check_actor(seat, &action)?;
                self.use_item(seat, item, None, out)
            }
            Action::Steal { from, item } => {
                self.check_actor(seat, &action)?;
                self.use_item(seat, item, Some(from), out)
            }
        }
    }

    // ---- effects --------------------------------------------------------------------------

    /// Checks the use of `item` by `by` (the rest of the action is checked), pays for it — one
    /// of their own items, or their Steal and the item taken `from` another — and carries it
    /// out.
    #[inline(always)]
    fn use_item(&mut self, by: Seat, item: ItemUse, from: Option<Seat>, out: &mut Vec<Event>) -> Result<(), Refusal> {
        match item {
            ItemUse::Skip { target } => {
                self.check_use(by, item)?;
                self.spend(by, item, from, out);
                self.skipped |= bit(target);
                out.push(Event::SkipUsed { by, target });
            }
            ItemUse::DoubleDamage => {
                self.check_use(by, item)?;
                self.spend(by, item, from, out);
                self.double_damage = true;
                out.push(Event::DoubleDamageUsed { by });
            }
            ItemUse::ChamberCheck => {
                self.check_use(by, item)?;
                self.spend(by, item, from, out);
                self.knows |= bit(by);
                out.push(Event::ChamberChecked { by, shell: self.chamber.peek() });
            }
            ItemUse::Rebalancer { kind } => {
                self.check_use(by, item)?;
                self.spend(by, item, from, out);
                self.rebalance(by, kind, out);
            }
            ItemUse::Quickshot => {
                self.check_use(by, item)?;
                self.spend(by, item, from, out);
                self.quickshot = Quickshot::Armed;
                out.push(Event::QuickshotUsed { by });
            }
            ItemUse::AddLife => {
                self.check_use(by, item)?;
                self.spend(by, item, from, out);
                self.lives[by.index()] += 1;
                out.push(Event::LifeAdded { by, lives: self.lives[by.index()] });
            }
            ItemUse::ShootAir => {
                self.check_use(by, item)?;
                self.spend(by, item, from, out);
                let shell = self.fire();
                out.push(Event::AirShot { by, shell });
                self.end_turn(out);
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn spend(&mut self, by: Seat, item: ItemUse, from: Option<Seat>, out: &mut Vec<Event>) {
        let item = item.item();
        match from {
            None => {
                self.items[by.index()].take(item);
                self.spent += 1;
            }
            Some(from) => {
                self.items[by.index()].take(Item::Steal);
                self.items[from.index()].take(item);
                self.spent += 2;
                out.push(Event::Stole { by, from, item });
            }
        }
    }

    #[inline(never)] // rare: kept out of the hot path
    fn rebalance(&mut self, by: Seat, kind: Shell, out: &mut Vec<Event>) {
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

    fn fire(&mut self) -> Shell {
        self.fired = true;
        self.knows = 0;
        self.chamber.fire().expect("a turn never starts with an empty chamber")
    }

    fn shoot(&mut self, by: Seat, target: Seat, out: &mut Vec<Event>) {
        let shell = self.fire();
        // 1 if live, doubled by Double Damage (arithmetic, not branches: the shell is random).
        let nominal = u8::from(shell == Shell::Live) << u8::from(self.double_damage);
        self.double_damage = false;
        let t = target.index();
        let damage = nominal.min(self.lives[t]);
        self.lives[t] -= damage;
        out.push(Event::Shot { by, target, shell, damage });
        // The target was alive, so 0 lives now means this shot killed. (Not `damage > 0 &&`
        // first: whether a shell is live is a coin toss, and a branch on it mispredicts.)
        if self.lives[t] == 0 {
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
    #[inline(never)] // rare: kept out of the shot's hot path
    fn eliminate(&mut self, seat: Seat, by: Option<Seat>, out: &mut Vec<Event>) {
        let s = seat.index();
        self.lives[s] = 0;
        self.alive &= !bit(seat);
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
        let alive = self.alive_mask();
        if alive.count_ones() == 1 {
            let winner = Seat(alive.trailing_zeros() as u8);
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
    #[inline(always)]
    fn end_turn(&mut self, out: &mut Vec<Event>) {
        out.push(Event::TurnEnded { seat: self.current });
        if self.chamber.is_empty() {
            self.new_round(out);
            return;
        }
        let alive = self.alive_mask();
        let mut s = self.current.0;
        loop {
            // The current seat is alive or at least two others are: there is a next one.
            s = next_after(alive, s).expect("a seat is alive");
            let seat = Seat(s);
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
        self.begin_turn(seat);
        out.push(Event::TurnStarted { seat, turn: self.turn });
    }

    /// `seat`'s turn begins (`start_turn` also tells the table).
    pub(crate) fn begin_turn(&mut self, seat: Seat) {
        self.current = seat;
        self.turn += 1;
        self.double_damage = false;
        self.quickshot = Quickshot::Off;
    }

    // ---- checks ---------------------------------------------------------------------------

    pub(crate) fn invariants(&self) -> Result<(), String> {
        let n = self.players();
        if self.lives.iter().any(|&l| l > MAX_LIVES) || self.lives[n..].iter().any(|&l| l > 0) {
            return Err(format!("lives out of range: {:?}", self.lives));
        }
        if self.alive != crate::mask::nonzero_bytes(self.lives) {
            return Err(format!("alive mask {:08b} disagrees with lives {:?}", self.alive, self.lives));
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
