//! The seed's effect model, as plain data that clones and serializes.
//!
//! - An [`Effect`] is what a played card leaves behind: its card, its user, its target and
//!   its own counters. `Setup` files it in the [`EffectFile`] and places its triggers;
//!   `Complete` removes the triggers and takes it out of the file.
//! - A [`Trigger`] is an effect's entry in a [`Delegate`]: one of a player's hooks
//!   (OnDamaged, OnDeath, OnCardDraw, OnSelect, OnTarget, OnTargeted, and OnAct, the
//!   per-action hook Suppression needs) or one of the state machine's transition hooks.
//! - Firing a delegate runs, in EffectFile order, what each effect placed there does — a
//!   `match` on the effect's kind in `rules.rs`, not a stored closure.
//!
//! Which triggers each card places is [`Effect::initial_triggers`]; the later ones (Pulling
//! G's and Into the Fog restrict targets only once the opposing Selection begins) are placed
//! by their own transition triggers.

use crate::cards::{Card, Side};
use crate::phase::{Stage, Transition};
use engine::Seat;
use serde::{Deserialize, Serialize};

pub type EffectId = u32;

/// A player's delegates (the seed's six, and OnAct).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Hook {
    /// `int OnDamaged(int damage)`: may change the damage about to be taken.
    OnDamaged,
    /// `void OnDeath()`: the player was shot down.
    OnDeath,
    /// `void OnCardDraw()`: the player drew a card.
    OnCardDraw,
    /// `Card OnSelect(Card card)`: the player's selection became final.
    OnSelect,
    /// `Player OnTarget(Player target)`: the player picks a target (a refusal forbids it).
    OnTarget,
    /// `void OnTargeted(Player origin)`: a card aimed at the player resolves.
    OnTargeted,
    /// The player's selected card is about to resolve (one "action"): Suppression's hook.
    OnAct,
}

/// Where a trigger sits. Compared by [`Delegate::key`]: delegates are compared while
/// scanning the trigger list, and a field-by-field compare branches on data the branch
/// predictor cannot guess.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Delegate {
    Player { seat: Seat, hook: Hook },
    Fsm { transition: Transition, stage: Stage },
}

impl PartialEq for Delegate {
    #[inline]
    fn eq(&self, other: &Delegate) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Delegate {}

impl std::hash::Hash for Delegate {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl Delegate {
    /// One number per delegate (equal keys, equal delegates).
    #[inline]
    pub const fn key(self) -> u32 {
        let (fsm, a, b) = self.parts();
        (fsm as u32) << 16 | (a as u32) << 8 | b as u32
    }

    /// The variant (true for a transition's) and its two fields as numbers. Both variants
    /// keep their fields at the same places, so this compiles to loads and no branch.
    #[inline]
    const fn parts(self) -> (bool, u8, u8) {
        match self {
            Delegate::Player { seat, hook } => (false, seat.0, hook as u8),
            Delegate::Fsm { transition, stage } => (true, transition as u8, stage as u8),
        }
    }

    pub const fn player(seat: Seat, hook: Hook) -> Delegate {
        Delegate::Player { seat, hook }
    }

    pub const fn exit(transition: Transition) -> Delegate {
        Delegate::Fsm { transition, stage: Stage::Exit }
    }
}

/// An effect's entry in a delegate. Stored as `{effect, at}`; it also carries the delegate's
/// [`Delegate::key`] and [`Delegate::bit`], worked out once when it is made (and when it is
/// read back), because the trigger list is scanned by key on every firing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "TriggerData")]
pub struct Trigger {
    pub(crate) effect: EffectId,
    pub(crate) at: Delegate,
    #[serde(skip)]
    key: u32,
    #[serde(skip)]
    bit: u64,
}

/// [`Trigger`] as stored.
#[derive(Deserialize)]
struct TriggerData {
    effect: EffectId,
    at: Delegate,
}

impl From<TriggerData> for Trigger {
    fn from(d: TriggerData) -> Trigger {
        Trigger::new(d.effect, d.at)
    }
}

impl Trigger {
    pub fn new(effect: EffectId, at: Delegate) -> Trigger {
        Trigger { effect, at, key: at.key(), bit: at.bit() }
    }

    /// The effect that placed it.
    pub fn effect(&self) -> EffectId {
        self.effect
    }

    /// Where it sits.
    pub fn at(&self) -> Delegate {
        self.at
    }

    /// Whether it sits at the delegate of this [`Delegate::key`].
    #[inline]
    pub fn sits_at(&self, key: u32) -> bool {
        self.key == key
    }
}

/// An effect's own state: which card made it and its counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Kind {
    /// Negates the next Open Fire or Sweeping Fire hit on its target.
    DodgeRoll,
    /// 2 damage to its target before each of its next `actions` plays; gone after `turns` of
    /// the target's turns, whichever runs out first.
    Suppression { actions: u8, turns: u8 },
    /// Its target may not target its user.
    PullingGs,
    /// The Ace plays one card fewer.
    CoverFire,
    /// Pilots may not target each other.
    IntoTheFog,
}

pub const SUPPRESSION_ACTIONS: u8 = 4;
pub const SUPPRESSION_TURNS: u8 = 2;
pub const SUPPRESSION_DAMAGE: i32 = 2;

/// A live effect in the EffectFile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Effect {
    pub id: EffectId,
    pub card: Card,
    pub user: Seat,
    pub user_side: Side,
    pub target: Option<Seat>,
    pub kind: Kind,
}

impl Effect {
    /// The lasting effect of `card`, if it has one.
    pub fn lasting(id: EffectId, card: Card, user: Seat, user_side: Side, target: Option<Seat>) -> Option<Effect> {
        let kind = match card {
            Card::DodgeRoll => Kind::DodgeRoll,
            Card::Suppression => Kind::Suppression { actions: SUPPRESSION_ACTIONS, turns: SUPPRESSION_TURNS },
            Card::PullingGs => Kind::PullingGs,
            Card::CoverFire => Kind::CoverFire,
            Card::IntoTheFog => Kind::IntoTheFog,
            _ => return None,
        };
        Some(Effect { id, card, user, user_side, target, kind })
    }

    /// `PlaceTriggers()` at Setup. Every effect ends with its user's and its target's death
    /// (rules decision 9); "next turn" effects complete on entry to the opposing side's
    /// Confirm (decision 5), Suppression counts its target's turns there instead.
    pub fn initial_triggers(&self, mut place: impl FnMut(Delegate)) {
        let opposing = self.user_side.other();
        if self.user_side == Side::Pilots {
            place(Delegate::player(self.user, Hook::OnDeath));
        }
        if let Some(t) = self.target
            && t != self.user
        {
            place(Delegate::player(t, Hook::OnDeath));
        }
        match self.kind {
            Kind::DodgeRoll => {
                place(Delegate::player(self.target.expect("aimed"), Hook::OnDamaged));
                place(Delegate::exit(Transition::into_confirm(opposing)));
            }
            Kind::Suppression { .. } => {
                place(Delegate::player(self.target.expect("aimed"), Hook::OnAct));
                place(Delegate::exit(Transition::into_confirm(opposing)));
            }
            Kind::PullingGs => {
                place(Delegate::exit(Transition::into_selection(opposing)));
                place(Delegate::exit(Transition::into_confirm(opposing)));
            }
            Kind::CoverFire => {
                place(Delegate::exit(Transition::BossDrawToBossSelection));
                place(Delegate::exit(Transition::BossActionToBossPhaseConfirm));
            }
            Kind::IntoTheFog => {
                place(Delegate::exit(Transition::DrawToSelection));
                place(Delegate::exit(Transition::ActionToConfirm));
            }
        }
    }

    /// A short account for people: "Suppression on seat 5 (3 actions, 2 turns left)".
    pub fn describe(&self) -> String {
        let on = self.target.map(|t| format!(" on {t}")).unwrap_or_default();
        match self.kind {
            Kind::Suppression { actions, turns } => {
                format!("{}{on} ({actions} actions, {turns} turns left)", self.card.name())
            }
            _ => format!("{}{on} (from {})", self.card.name(), self.user),
        }
    }
}

/// The ordered list of live effects the state machine holds, and every trigger they placed.
/// Deserializing works `hooked` out again from the triggers (a state saved by a build whose
/// bit layout differed still fires every hook).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "EffectFileData")]
pub struct EffectFile {
    /// Oldest first: the order in which delegates run their triggers.
    pub effects: Vec<Effect>,
    pub triggers: Vec<Trigger>,
    pub next_id: EffectId,
    /// Which delegates hold a trigger (bit [`Delegate::bit`]): most transitions and most
    /// player hooks have none, and firing them should cost one test, not a scan. Kept exact:
    /// set when a trigger is placed, worked out again when triggers are removed and when the
    /// file is deserialized.
    pub hooked: u64,
    /// What each seat's OnTarget delegate refuses, worked out when a trigger is placed there
    /// or removed (rarely) rather than on every legality test (often): the users of the
    /// Pulling G's that bind the seat, by seat, and the seats Into the Fog binds. Derived
    /// like `hooked` (not stored; worked out again when read back).
    #[serde(skip)]
    pub(crate) on_target: OnTarget,
}

/// The OnTarget delegates' refusals, by origin seat (see [`EffectFile::on_target`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct OnTarget {
    /// For each origin seat, the seats its Pulling G's triggers forbid it to aim at.
    pub(crate) pulled: [u32; 6],
    /// The origin seats an Into the Fog trigger binds (each may not aim at another pilot).
    pub(crate) fogged: u32,
}

impl OnTarget {
    /// An effect of `kind` used by `user` put a trigger in `seat`'s OnTarget delegate.
    fn bind(&mut self, seat: Seat, kind: Kind, user: Seat) {
        let Some(pulled) = self.pulled.get_mut(seat.index()) else { return };
        match kind {
            Kind::PullingGs => *pulled |= 1 << user.0,
            Kind::IntoTheFog => self.fogged |= 1 << seat.0,
            _ => {}
        }
    }
}

/// [`EffectFile`] as stored: `hooked` is read but not trusted.
#[derive(Deserialize)]
struct EffectFileData {
    effects: Vec<Effect>,
    triggers: Vec<Trigger>,
    next_id: EffectId,
    #[serde(default)]
    #[allow(dead_code)]
    hooked: u64,
}

impl From<EffectFileData> for EffectFile {
    fn from(d: EffectFileData) -> EffectFile {
        let mut file = EffectFile {
            effects: d.effects,
            triggers: d.triggers,
            next_id: d.next_id,
            hooked: 0,
            on_target: OnTarget::default(),
        };
        file.rehook();
        file.on_target = file.work_out_on_target();
        file
    }
}

/// A player hook's slot among a seat's six bits, by `Hook as usize` (OnCardDraw and
/// OnTargeted, which no card hooks, share one).
const HOOK_SLOT: [u32; 7] = [0, 1, 2, 3, 4, 2, 5];

impl Delegate {
    /// The delegate's bit in [`EffectFile::hooked`]: a player's hooks at `6 * seat + slot`
    /// (six seats: bits 0..36; OnCardDraw and OnTargeted, which no card hooks, share a slot),
    /// a transition's Exit at `36 + transition` and its Enter at `36 + Transition::COUNT + transition`. So a bit
    /// is set while a trigger sits at its delegate (or, for the shared slot, at its twin):
    /// testing it is the whole of [`EffectFile::any_at`].
    #[inline]
    pub const fn bit(self) -> u64 {
        // Arithmetic rather than a `match`: triggers are scanned in an order the branch
        // predictor cannot guess.
        let (fsm, a, b) = self.parts();
        let (a, b) = (a as u32, b as u32);
        let player = a * 6 + HOOK_SLOT[(b % 7) as usize];
        // Stage::Enter is 0, Stage::Exit 1.
        let transition = 36 + a + Transition::COUNT as u32 * (b == Stage::Enter as u32) as u32;
        let shift = if fsm { transition } else { player };
        // No seat past the sixth exists: it has no bit, so it never looks hooked.
        let exists = fsm | (a < 6);
        (exists as u64) << (shift & 63)
    }
}

impl Delegate {
    /// [`Delegate::bit`] of `Delegate::player(seat, hook)`, straight from its parts (the hot
    /// paths test one before firing it).
    #[inline]
    pub const fn player_bit(seat: Seat, hook: Hook) -> u64 {
        let shift = seat.0 as u32 * 6 + HOOK_SLOT[hook as usize];
        ((seat.0 < 6) as u64) << (shift & 63)
    }

    /// [`Delegate::bit`] of `Delegate::Fsm { transition, stage }`, straight from its parts.
    #[inline]
    pub const fn fsm_bit(transition: Transition, stage: Stage) -> u64 {
        1 << (36 + transition as u32 + Transition::COUNT as u32 * (stage as u32 == Stage::Enter as u32) as u32)
    }
}

// Every delegate's bit fits in the 64 of `hooked`.
const _: () = assert!(36 + 2 * Transition::COUNT as u32 <= 64);

/// How many of the triggers at one delegate [`Fired`] keeps inline (a fight rarely has more
/// than a handful of live effects); the rest go to a `Vec`.
pub const FIRE_INLINE: usize = 16;

/// The effects whose triggers sit at one delegate when it fires, copied out so that the
/// handlers may complete effects (and so edit the trigger list) while they run.
pub struct Fired {
    ids: [EffectId; FIRE_INLINE],
    len: usize,
    more: Vec<EffectId>,
}

impl Fired {
    pub fn iter(&self) -> impl Iterator<Item = EffectId> + '_ {
        self.ids[..self.len].iter().chain(&self.more).copied()
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl EffectFile {
    /// `Setup()`: files the effect and places its initial triggers.
    pub fn setup(&mut self, mut effect: Effect) -> Effect {
        effect.id = self.next_id;
        self.next_id += 1;
        self.effects.push(effect);
        let (triggers, hooked) = (&mut self.triggers, &mut self.hooked);
        effect.initial_triggers(|at| {
            triggers.push(Trigger::new(effect.id, at));
            *hooked |= at.bit();
        });
        effect
    }

    pub fn place(&mut self, effect: EffectId, at: Delegate) {
        self.triggers.push(Trigger::new(effect, at));
        self.hooked |= at.bit();
        if let Delegate::Player { seat, hook: Hook::OnTarget } = at
            && let Some(e) = self.get(effect)
        {
            let kind = e.kind;
            self.on_target.bind(seat, kind, e.user);
        }
    }

    /// [`EffectFile::on_target`] worked out from the triggers (after they were removed, and
    /// when the file is read back; the invariants check the kept one against it).
    pub(crate) fn work_out_on_target(&self) -> OnTarget {
        let mut on = OnTarget::default();
        for t in &self.triggers {
            if let Delegate::Player { seat, hook: Hook::OnTarget } = t.at
                && let Some(e) = self.get(t.effect)
            {
                on.bind(seat, e.kind, e.user);
            }
        }
        on
    }

    fn rehook(&mut self) {
        self.hooked = self.triggers.iter().fold(0, |m, t| m | t.bit);
    }

    /// `Complete()`: removes the effect's triggers (`RemoveTriggers()`) and the effect. Returns
    /// it, or `None` if it had already completed.
    pub fn complete(&mut self, id: EffectId) -> Option<Effect> {
        let i = self.index(id)?;
        // One pass drops the effect's triggers and works out the bits of those left (an OR of
        // each kept trigger's bit, without a branch on it).
        let mut hooked = 0;
        self.triggers.retain(|t| {
            let keep = t.effect != id;
            hooked |= t.bit * u64::from(keep);
            keep
        });
        self.hooked = hooked;
        let effect = self.effects.remove(i);
        // Only these two place OnTarget triggers.
        if matches!(effect.kind, Kind::PullingGs | Kind::IntoTheFog) {
            self.on_target = self.work_out_on_target();
        }
        Some(effect)
    }

    fn index(&self, id: EffectId) -> Option<usize> {
        self.effects.iter().position(|e| e.id == id)
    }

    pub fn get(&self, id: EffectId) -> Option<&Effect> {
        self.index(id).map(|i| &self.effects[i])
    }

    pub fn get_mut(&mut self, id: EffectId) -> Option<&mut Effect> {
        self.index(id).map(|i| &mut self.effects[i])
    }

    /// The effects with a trigger at `at`, in the order they were placed (ids only grow, so
    /// trigger order within one delegate is EffectFile order).
    #[inline]
    pub fn at(&self, at: Delegate) -> Fired {
        let mut f = Fired { ids: [0; FIRE_INLINE], len: 0, more: Vec::new() };
        let key = at.key();
        if self.triggers.len() <= FIRE_INLINE {
            // The usual case: no branch on each trigger (whether it sits at `at` is data the
            // branch predictor cannot guess): every id is written, and only the matching ones
            // are kept by moving on.
            for t in &self.triggers {
                f.ids[f.len % FIRE_INLINE] = t.effect;
                f.len += usize::from(t.key == key);
            }
            return f;
        }
        for t in &self.triggers {
            if t.key == key {
                if f.len < FIRE_INLINE {
                    f.ids[f.len] = t.effect;
                    f.len += 1;
                } else {
                    f.more.push(t.effect);
                }
            }
        }
        f
    }

    /// Whether any trigger sits at `at` (cheap test before firing): one bit test (a shared
    /// slot may say yes for its twin; firing then finds nothing).
    #[inline]
    pub fn any_at(&self, at: Delegate) -> bool {
        self.hooked & at.bit() != 0
    }

    /// [`EffectFile::any_at`] a player's delegate.
    #[inline]
    pub fn any_player(&self, seat: Seat, hook: Hook) -> bool {
        self.hooked & Delegate::player_bit(seat, hook) != 0
    }

    /// Removes every trigger a player's delegates hold (a shot-down pilot's).
    pub fn clear_player(&mut self, seat: Seat) {
        self.triggers.retain(|t| !matches!(t.at, Delegate::Player { seat: s, .. } if s == seat));
        self.rehook();
        self.on_target = self.work_out_on_target();
    }

    /// Live effects of a kind aimed at `target`.
    pub fn on(&self, target: Seat) -> impl Iterator<Item = &Effect> {
        self.effects.iter().filter(move |e| e.target == Some(target))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOOKS: [Hook; 7] = [
        Hook::OnDamaged,
        Hook::OnDeath,
        Hook::OnCardDraw,
        Hook::OnSelect,
        Hook::OnTarget,
        Hook::OnTargeted,
        Hook::OnAct,
    ];

    /// The bit layout [`Delegate::bit`] computes without branches, written as a `match`.
    fn bit_by_match(d: Delegate) -> u64 {
        match d {
            Delegate::Player { seat, hook } if seat.0 < 6 => {
                let slot = match hook {
                    Hook::OnDamaged => 0,
                    Hook::OnDeath => 1,
                    Hook::OnCardDraw | Hook::OnTargeted => 2,
                    Hook::OnSelect => 3,
                    Hook::OnTarget => 4,
                    Hook::OnAct => 5,
                };
                1 << (u32::from(seat.0) * 6 + slot)
            }
            Delegate::Player { .. } => 0,
            Delegate::Fsm { transition, stage: Stage::Exit } => 1 << (36 + transition as u32),
            Delegate::Fsm { transition, stage: Stage::Enter } => {
                1 << (36 + Transition::COUNT as u32 + transition as u32)
            }
        }
    }

    #[test]
    fn delegate_bits_and_keys() {
        let mut all = Vec::new();
        for seat in 0..=255u8 {
            for hook in HOOKS {
                all.push(Delegate::player(Seat(seat), hook));
            }
        }
        for (i, &transition) in Transition::ALL.iter().enumerate() {
            assert_eq!(transition as usize, i, "Transition::ALL in declaration order");
            all.push(Delegate::Fsm { transition, stage: Stage::Enter });
            all.push(Delegate::Fsm { transition, stage: Stage::Exit });
        }
        for &d in &all {
            assert_eq!(d.bit(), bit_by_match(d), "{d:?}");
            let parts = match d {
                Delegate::Player { seat, hook } => Delegate::player_bit(seat, hook),
                Delegate::Fsm { transition, stage } => Delegate::fsm_bit(transition, stage),
            };
            assert_eq!(parts, bit_by_match(d), "{d:?}");
        }
        let keys: std::collections::HashSet<u32> = all.iter().map(|d| d.key()).collect();
        assert_eq!(keys.len(), all.len(), "one key per delegate");
    }
}
