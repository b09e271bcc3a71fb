//! Legality: why an action is refused (`check`, with the reasons in [`refusal`]), and
//! legal-move generation: `legal_actions_into`, the hot path of every playout and search.
//!
//! Everything is a bit mask: the living seats, the Skip targets, the item kinds a seat holds
//! and the kinds that have a valid use now. Each run of actions — the shots, the uses of one's
//! own items, the uses of what one may steal from one victim — is then one lookup in a table
//! built at compile time, copied into the list whole (a fixed size: no loop, no capacity check
//! per action) and cut to its length. The order is fixed: shots by target, then own items in
//! `Item::ALL` order (Skip by target, Rebalancer live before blank), then steals by victim in
//! the same order.

mod refusal;

pub(crate) use refusal::Refusal;

use crate::item::REBALANCE_MAX;
use crate::mask::for_each_bit;
use crate::state::{MAX_LIVES, MAX_SEATS, bit};
use crate::{Action, Buckshot, Chamber, Item, ItemUse, Quickshot, Shell};
use engine::Seat;

impl Buckshot {
    pub(crate) fn legal_into(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.winner.is_some() || !self.is_alive(seat) {
            return;
        }
        let alive = self.alive_mask();
        let usable = self.usable_kinds(seat, alive);
        let held = self.items[seat.index()].kind_mask();
        if seat != self.current {
            // Out of turn, only a Rebalancer during its window.
            USES.push(out, held & usable & Item::Rebalancer.bit());
            return;
        }
        SHOTS.push(out, alive);
        if self.quickshot == Quickshot::Second {
            return;
        }
        // A run is empty when its mask is, so what a seat holds decides the runs' lengths,
        // not which branches are taken (in a random playout, a branch on it is a coin toss).
        let targets = alive & !bit(seat) & !self.skipped;
        SKIPS.push(out, targets & all_if(held & Item::Skip.bit() != 0));
        USES.push(out, held & usable);
        if held & Item::Steal.bit() != 0 {
            for_each_bit(alive & !bit(seat), |from| {
                let theirs = self.items[usize::from(from)].kind_mask() & usable;
                STEAL_SKIPS[usize::from(from)].push(out, targets & all_if(theirs & Item::Skip.bit() != 0));
                STEALS[usize::from(from)].push(out, theirs);
            });
        }
    }

    /// The kinds of item `user` has a valid use for now, held or stolen, as a mask over
    /// `Item::ALL`: the conditions of `check_use`, for every kind at once. Never Steal, whose
    /// use is `Action::Steal`.
    fn usable_kinds(&self, user: Seat, alive: u8) -> u8 {
        let mut kinds = Item::ChamberCheck.bit() | Item::ShootAir.bit();
        if alive & !bit(user) & !self.skipped != 0 {
            kinds |= Item::Skip.bit();
        }
        if !self.double_damage {
            kinds |= Item::DoubleDamage.bit();
        }
        if self.can_rebalance() {
            kinds |= Item::Rebalancer.bit();
        }
        if self.quickshot == Quickshot::Off {
            kinds |= Item::Quickshot.bit();
        }
        if self.lives[user.index()] < MAX_LIVES {
            kinds |= Item::AddLife.bit();
        }
        kinds
    }
}

/// Every run is indexed by an 8-bit mask: of seats (shots, Skip targets) or of item kinds.
const MASKS: usize = 256;

/// All bits set if `c`, none otherwise.
fn all_if(c: bool) -> u8 {
    0u8.wrapping_sub(u8::from(c))
}

/// For each mask, a run of at most `N` actions, padded to `N` so that it is copied as one
/// fixed-size block and then cut to its length.
#[derive(Clone, Copy)]
struct Runs<const N: usize> {
    runs: [[Action; N]; MASKS],
    len: [u8; MASKS],
}

impl<const N: usize> Runs<N> {
    const EMPTY: Self = Runs { runs: [[Action::Shoot { target: Seat(0) }; N]; MASKS], len: [0; MASKS] };

    /// Appends the run of `mask`.
    #[inline(always)]
    fn push(&self, out: &mut Vec<Action>, mask: u8) {
        let end = out.len() + usize::from(self.len[usize::from(mask)]);
        out.extend_from_slice(&self.runs[usize::from(mask)]);
        out.truncate(end);
    }

    const fn append(&mut self, mask: usize, action: Action) {
        self.runs[mask][self.len[mask] as usize] = action;
        self.len[mask] += 1;
    }
}

/// A shot at each seat of the mask.
static SHOTS: Runs<MAX_SEATS> = {
    let mut t = Runs::EMPTY;
    let mut mask = 0;
    while mask < MASKS {
        let mut s = 0;
        while s < MAX_SEATS {
            if mask >> s & 1 == 1 {
                t.append(mask, Action::Shoot { target: Seat(s as u8) });
            }
            s += 1;
        }
        mask += 1;
    }
    t
};

/// Using `item`: one's own (`from` is `None`) or stolen from `from`.
const fn use_of(from: Option<Seat>, item: ItemUse) -> Action {
    match from {
        None => Action::Use { item },
        Some(from) => Action::Steal { from, item },
    }
}

/// A Skip at each seat of the mask: of one's own (`from` is `None`) or stolen from `from`.
const fn skips(from: Option<Seat>) -> Runs<MAX_SEATS> {
    let mut t = Runs::EMPTY;
    let mut mask = 0;
    while mask < MASKS {
        let mut s = 0;
        while s < MAX_SEATS {
            if mask >> s & 1 == 1 {
                t.append(mask, use_of(from, ItemUse::Skip { target: Seat(s as u8) }));
            }
            s += 1;
        }
        mask += 1;
    }
    t
}

static SKIPS: Runs<MAX_SEATS> = skips(None);

/// `STEAL_SKIPS[from]`: a Skip stolen from `from` at each seat of the mask.
static STEAL_SKIPS: [Runs<MAX_SEATS>; MAX_SEATS] = {
    let mut t = [Runs::EMPTY; MAX_SEATS];
    let mut from = 0;
    while from < MAX_SEATS {
        t[from] = skips(Some(Seat(from as u8)));
        from += 1;
    }
    t
};

/// The most uses without a target one seat's items can have: one per kind, two for a
/// Rebalancer, none for Skip (it has targets) or Steal (it is no use).
const MAX_USES: usize = 7;

/// The uses without a target of the kinds in a mask, in `Item::ALL` order: of one's own items
/// (`from` is `None`) or stolen from `from`.
const fn uses(from: Option<Seat>) -> Runs<MAX_USES> {
    let mut t = Runs::EMPTY;
    let mut mask = 0;
    while mask < MASKS {
        let mut k = 0;
        while k < Item::ALL.len() {
            if mask >> k & 1 == 1 {
                let uses: &[ItemUse] = match Item::ALL[k] {
                    Item::Skip | Item::Steal => &[],
                    Item::DoubleDamage => &[ItemUse::DoubleDamage],
                    Item::ChamberCheck => &[ItemUse::ChamberCheck],
                    Item::Rebalancer => {
                        &[ItemUse::Rebalancer { kind: Shell::Live }, ItemUse::Rebalancer { kind: Shell::Blank }]
                    }
                    Item::Quickshot => &[ItemUse::Quickshot],
                    Item::AddLife => &[ItemUse::AddLife],
                    Item::ShootAir => &[ItemUse::ShootAir],
                };
                let mut u = 0;
                while u < uses.len() {
                    t.append(mask, use_of(from, uses[u]));
                    u += 1;
                }
            }
            k += 1;
        }
        mask += 1;
    }
    t
}

static USES: Runs<MAX_USES> = uses(None);

/// `STEALS[from]`: the uses of what one may steal from `from`.
static STEALS: [Runs<MAX_USES>; MAX_SEATS] = {
    let mut t = [Runs::EMPTY; MAX_SEATS];
    let mut from = 0;
    while from < MAX_SEATS {
        t[from] = uses(Some(Seat(from as u8)));
        from += 1;
    }
    t
};

// ---- checking ------------------------------------------------------------------------------

impl Buckshot {
    pub(crate) fn can_rebalance(&self) -> bool {
        // `&`, not `&&`: three cheap tests, no branches.
        self.rebalancer_window() & (self.chamber.len() + REBALANCE_MAX <= Chamber::CAPACITY)
    }

    // `check` says why an action is refused; `apply_action` checks it and carries it out. Both
    // use the same checks: `check_actor` (the game, the seat, the turn, the items held) and
    // `check_use` (the use of an item), written independently of `legal_into` — the invariant
    // suite checks that they agree. `apply_action` dispatches once on the shape of the action
    // (and once on the item) for both checking and acting: each arm calls the checks on a
    // variant it knows, which inline to that variant's checks alone. In a random playout the
    // shape of the next action is a coin toss, so every dispatch on it is a likely mispredict.

    /// Why `seat` may not take `action` now, if it may not.
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<(), Refusal> {
        self.check_actor(seat, action)?;
        match *action {
            Action::Shoot { .. } => Ok(()),
            Action::Use { item } | Action::Steal { item, .. } => self.check_use(seat, item),
        }
    }

    /// Everything `check` asks except whether the use of the item is valid now.
    #[inline(always)]
    pub(crate) fn check_actor(&self, seat: Seat, action: &Action) -> Result<(), Refusal> {
        if self.winner.is_some() {
            return Err(Refusal::GameOver);
        }
        if !self.is_alive(seat) {
            return Err(Refusal::NotPlaying);
        }
        if seat != self.current {
            return match action {
                Action::Use { item: ItemUse::Rebalancer { .. } } => {
                    if !self.items[seat.index()].has(Item::Rebalancer) {
                        return Err(Refusal::NoSuchItem);
                    }
                    Ok(())
                }
                _ => Err(Refusal::NotYourTurn),
            };
        }
        if self.quickshot == Quickshot::Second && !matches!(action, Action::Shoot { .. }) {
            return Err(Refusal::MustShoot);
        }
        match *action {
            Action::Shoot { target } => {
                if !self.is_alive(target) {
                    return Err(Refusal::NotLiving);
                }
                Ok(())
            }
            Action::Use { item } => {
                if !self.items[seat.index()].has(item.item()) {
                    return Err(Refusal::NoSuchItem);
                }
                Ok(())
            }
            Action::Steal { from, item } => {
                if !self.items[seat.index()].has(Item::Steal) {
                    return Err(Refusal::NoSteal);
                }
                if from == seat {
                    return Err(Refusal::StealFromSelf);
                }
                if !self.is_alive(from) {
                    return Err(Refusal::NotLiving);
                }
                if !self.items[from.index()].has(item.item()) {
                    return Err(Refusal::TargetLacksItem);
                }
                Ok(())
            }
        }
    }

    #[inline(always)]
    pub(crate) fn check_use(&self, user: Seat, item: ItemUse) -> Result<(), Refusal> {
        match item {
            ItemUse::Skip { target } => {
                if target == user {
                    Err(Refusal::SkipSelf)
                } else if !self.is_alive(target) {
                    Err(Refusal::NotLiving)
                } else if self.is_skipped(target) {
                    Err(Refusal::AlreadySkipped)
                } else {
                    Ok(())
                }
            }
            ItemUse::DoubleDamage if self.double_damage => Err(Refusal::DoubleDamageActive),
            ItemUse::Rebalancer { .. } if !self.rebalancer_window() => Err(Refusal::WindowClosed),
            ItemUse::Rebalancer { .. } if !self.can_rebalance() => Err(Refusal::ChamberFull),
            ItemUse::Quickshot if self.quickshot != Quickshot::Off => Err(Refusal::QuickshotActive),
            ItemUse::AddLife if self.lives[user.index()] >= MAX_LIVES => Err(Refusal::LivesFull),
            _ => Ok(()),
        }
    }
}
