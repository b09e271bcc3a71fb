//! Buckshot bots. Both decide from the `Observation` only (their view and legal actions).
//!
//! `heuristic` tracks the chance that the next shell is live from the public counts (exact
//! after its own Chamber Check) and plays the obvious odds: checks when unsure, shoots the
//! weakest opponent when a live shell is likely (doubling the damage or taking a Quickshot when
//! it is sure), shoots itself when a blank is likely (a blank at yourself is a free turn), skips
//! the most dangerous opponent, heals when hurt, and steals what it lacks.

use crate::{Action, Buckshot, ItemUse, Quickshot, Shell, View};
use engine::{Bot, MatchRng, Observation, RandomBot, Seat};

engine::bot_table!(Buckshot {
    "random" => RandomBot,
    "heuristic" => Heuristic,
});

/// Moves a searching level must never choose while another is legal: shooting oneself when the
/// next shell is surely live, or an opponent when it is surely a blank and a blank at oneself
/// would be a free turn (no Quickshot this turn, and shells left after it). Sure from `me`'s
/// own view: its Chamber Check, or shells of one kind left.
pub fn foolish(v: &View, me: Seat, action: &Action) -> bool {
    let sure = match v.next_shell {
        Some(s) => Some(s),
        None if v.blank_left == 0 && v.live_left > 0 => Some(Shell::Live),
        None if v.live_left == 0 && v.blank_left > 0 => Some(Shell::Blank),
        None => None,
    };
    match (*action, sure) {
        (Action::Shoot { target }, Some(Shell::Live)) => target == me,
        (Action::Shoot { target }, Some(Shell::Blank)) => {
            target != me && v.quickshot == Quickshot::Off && v.live_left + v.blank_left > 1
        }
        _ => false,
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

impl Bot<Buckshot> for Heuristic {
    fn choose(&mut self, obs: &Observation<'_, Buckshot>, rng: &mut MatchRng) -> Action {
        let legal = obs.legal();
        let view = obs.view();
        let me = obs.seat();
        choose(view, me, legal, rng).unwrap_or_else(|| *rng.pick(legal))
    }
}

fn choose(v: &View, me: Seat, legal: &[Action], rng: &mut MatchRng) -> Option<Action> {
    let has = |a: Action| legal.contains(&a).then_some(a);
    let use_ = |item: ItemUse| has(Action::Use { item });
    // Prefer our own item; failing that, steal it from whoever has it.
    let use_or_steal = |item: ItemUse| {
        use_(item).or_else(|| legal.iter().copied().find(|a| matches!(a, Action::Steal { item: i, .. } if *i == item)))
    };
    let my = v.player(me);
    let opponents: Vec<Seat> = v.players.iter().filter(|p| p.alive && p.seat != me).map(|p| p.seat).collect();

    if v.current != Some(me) {
        // Out of turn, only a Rebalancer is possible: add blanks, since others shoot next.
        return use_(ItemUse::Rebalancer { kind: Shell::Blank });
    }
    if v.quickshot == crate::Quickshot::Second {
        return shoot_decision(v, me, &opponents, legal, rng);
    }
    if my.lives < crate::state::MAX_LIVES
        && let Some(a) = use_or_steal(ItemUse::AddLife)
    {
        return Some(a);
    }
    let p = v.live_chance();
    if v.next_shell.is_none()
        && p > 0.0
        && p < 1.0
        && let Some(a) = use_or_steal(ItemUse::ChamberCheck)
    {
        return Some(a);
    }
    if v.rebalancer_window && v.next_shell.is_none() {
        // We shoot first this round: more live shells favour the shooter.
        if let Some(a) = use_(ItemUse::Rebalancer { kind: Shell::Live }) {
            return Some(a);
        }
    }
    // Deny the strongest opponent a turn.
    if let Some(strongest) =
        opponents.iter().copied().filter(|s| !v.player(*s).skipped).max_by_key(|s| v.player(*s).lives)
        && let Some(a) = use_(ItemUse::Skip { target: strongest })
    {
        return Some(a);
    }
    if p >= 0.999 {
        if !v.double_damage
            && let Some(a) = use_or_steal(ItemUse::DoubleDamage)
        {
            return Some(a);
        }
        if v.quickshot == crate::Quickshot::Off
            && v.live_left >= 2
            && let Some(a) = use_(ItemUse::Quickshot)
        {
            return Some(a);
        }
    }
    if p > 0.5 && p < 0.999 && my.lives <= 1 && opponents.len() > 1 {
        // Likely live and we cannot afford a mistake either way: fire it into the air.
        if let Some(a) = use_(ItemUse::ShootAir) {
            return Some(a);
        }
    }
    shoot_decision(v, me, &opponents, legal, rng)
}

fn shoot_decision(v: &View, me: Seat, opponents: &[Seat], legal: &[Action], rng: &mut MatchRng) -> Option<Action> {
    let p = v.live_chance();
    let target = if p < 0.5 || (p == 0.5 && v.players[me.index()].lives > 2) {
        me
    } else {
        // The opponent closest to elimination, then the one with more items; a random one of
        // those still tied (always taking the first would pick on low seat numbers).
        let key = |s: &Seat| {
            let pl = v.player(*s);
            (pl.lives, std::cmp::Reverse(pl.items.total()))
        };
        let best = opponents.iter().map(key).min()?;
        let tied: Vec<Seat> = opponents.iter().copied().filter(|s| key(s) == best).collect();
        *rng.pick(&tied)
    };
    let a = Action::Shoot { target };
    legal.contains(&a).then_some(a)
}
