//! Bots. Pilots: `random` (a random card and target, locked in at once) and `heuristic`
//! (co-operative). The Ace, by tier: `rookie` (the seed's: random cards and targets),
//! `veteran` (heuristic) and `ace` (determinized rollouts). Every bot decides from its
//! `Observation` only: its view, its legal actions, and (for `ace`) determinized copies.

use crate::action::Action;
use crate::cards::Card;
use crate::config::AceTier;
use crate::fast::{HandTargets, Shape};
use crate::phase::Phase;
use crate::state::WolfPack;
use crate::view::View;
use engine::{Bot, Game, MatchRng, Observation, Seat};

/// Pilot bots.
pub const PILOT_BOTS: &[&str] = &["random", "heuristic"];
/// Every bot name: the pilot bots, then the Ace tiers.
pub const BOTS: &[&str] = &["random", "heuristic", "rookie", "veteran", "ace"];

/// Moves a searching pilot must never choose while another is legal: Mid-Air Regroup aimed at a
/// pilot at full health (it heals nothing). Judged from `me`'s own view (its hand, the public
/// health).
pub fn foolish(view: &View, me: Seat, action: &Action) -> bool {
    let Action::Select { card, target: Some(t), .. } = *action else { return false };
    let Some(hand) = view.pilot(me).and_then(|p| p.hand.as_ref()) else { return false };
    hand.get(usize::from(card)) == Some(&Card::MidAirRegroup) && view.pilot(t).is_some_and(|p| p.health >= p.max_health)
}

/// A bot by name (see [`BOTS`]).
pub fn bot(name: &str) -> Option<Box<dyn Bot<WolfPack>>> {
    match name {
        "random" => Some(Box::new(RandomPilot)),
        "heuristic" => Some(Box::new(HeuristicPilot)),
        _ => AceTier::parse(name).map(ace_bot),
    }
}

/// The Ace policy of a tier.
pub fn ace_bot(tier: AceTier) -> Box<dyn Bot<WolfPack>> {
    match tier {
        AceTier::Rookie => Box::new(Rookie),
        AceTier::Veteran => Box::new(Veteran),
        AceTier::Ace => Box::new(AceSearch::default()),
    }
}

/// One bot per seat for a fight: `pilot` at every pilot seat, the config's Ace tier last.
pub fn lineup(game: &WolfPack, pilot: &str) -> Option<Vec<Box<dyn Bot<WolfPack>>>> {
    let mut v = Vec::with_capacity(game.num_seats());
    for _ in 0..game.pilot_count() {
        v.push(bot(pilot)?);
    }
    v.push(ace_bot(game.config().ace_tier));
    Some(v)
}

/// One bot per seat: `names[i]` for pilot `i` (the last name repeated), the Ace's tier last.
pub fn lineup_named(game: &WolfPack, names: &[&str]) -> Result<Vec<Box<dyn Bot<WolfPack>>>, String> {
    let mut v = Vec::with_capacity(game.num_seats());
    for i in 0..game.pilot_count() {
        let name = names.get(i).or(names.last()).copied().unwrap_or("random");
        if !PILOT_BOTS.contains(&name) {
            return Err(format!("unknown pilot bot `{name}` (pilot bots: {})", PILOT_BOTS.join(", ")));
        }
        v.push(bot(name).expect("listed"));
    }
    v.push(ace_bot(game.config().ace_tier));
    Ok(v)
}

/// Picks a card uniformly among those with a legal target, then a target uniformly: the seed's
/// "random cards and targets". Two draws (`below(cards with plays)`, `below(its plays)`); no
/// draw and `None` when no card has a play. Drawn from the hand's target masks
/// ([`engine::LegalShape`]), so no legal list is built.
fn card_then_target(hand: &HandTargets, rng: &mut MatchRng) -> Option<(u8, Option<Seat>)> {
    let mut playable = [0u8; 8];
    let mut cards = 0;
    for c in 0..hand.len().min(8) {
        if hand.plays(c) > 0 {
            playable[cards] = c as u8;
            cards += 1;
        }
    }
    if cards == 0 {
        return None;
    }
    let card = playable[rng.below(cards as u32) as usize];
    let t = rng.below(hand.plays(usize::from(card)));
    Some((card, hand.target(usize::from(card), t)))
}

/// What every cheap bot does the same way: the host proceeds at once, a pilot with a choice
/// confirms it, and the Ace plays a random card at a random target, or passes.
fn shared_choice(shape: &Shape, rng: &mut MatchRng) -> Option<Action> {
    match shape {
        Shape::Proceed => Some(Action::Proceed),
        Shape::Pilot { confirm: true, .. } => Some(Action::Confirm),
        Shape::Ace { hand } => Some(match card_then_target(hand, rng) {
            Some((card, target)) => Action::Play { card, target },
            None => Action::Pass,
        }),
        Shape::Pilot { .. } | Shape::Nothing => None,
    }
}

/// Whether the list offers Confirm (a variant test, cheaper than `contains`' full compare).
/// Confirm closes a pilot's legal list when it is there (the legal list's documented order),
/// so only the last action needs looking at.
fn offers_confirm(legal: &[Action]) -> bool {
    matches!(legal.last(), Some(Action::Confirm))
}

/// A pilot playing a random card at a random legal target, locked in at once; with nothing
/// playable it discards one random card. Chooses from the [`Shape`] (no legal list).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPilot;

impl Bot<WolfPack> for RandomPilot {
    fn choose(&mut self, obs: &Observation<'_, WolfPack>, rng: &mut MatchRng) -> Action {
        random_pilot(&obs.legal_shape(), rng).unwrap_or_else(|| *rng.pick(obs.legal()))
    }
}

fn random_pilot(shape: &Shape, rng: &mut MatchRng) -> Option<Action> {
    if let Some(a) = shared_choice(shape, rng) {
        return Some(a);
    }
    let Shape::Pilot { hand, .. } = shape else { return None };
    if let Some((card, target)) = card_then_target(hand, rng) {
        return Some(Action::Select { card, target, confirm: true });
    }
    // One card, drawn as a pick among the one-card discards (listed in mask order).
    (!hand.is_empty()).then(|| Action::Discard { cards: 1 << rng.index(hand.len()), confirm: true })
}

/// The seed's Ace: random cards, random targets.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rookie;

impl Bot<WolfPack> for Rookie {
    fn choose(&mut self, obs: &Observation<'_, WolfPack>, rng: &mut MatchRng) -> Action {
        shared_choice(&obs.legal_shape(), rng).unwrap_or_else(|| *rng.pick(obs.legal()))
    }
}

/// Picks the best-scoring legal action, ties broken at random.
fn best(legal: &[Action], rng: &mut MatchRng, mut score: impl FnMut(&Action) -> Option<i32>) -> Option<Action> {
    let mut top: Option<(i32, Action)> = None;
    let mut ties = 0;
    for a in legal {
        let Some(s) = score(a) else { continue };
        match top {
            Some((t, _)) if s < t => {}
            Some((t, _)) if s == t => {
                ties += 1;
                if rng.below(ties + 1) == 0 {
                    top = Some((s, *a));
                }
            }
            _ => {
                top = Some((s, *a));
                ties = 0;
            }
        }
    }
    top.map(|(_, a)| a)
}

/// A co-operative pilot: heals the weakest, dodges what is coming, keeps Suppression on the
/// Ace without piling it up, saves Sidewinder for a Dodge Roll, plays Cover Fire, and
/// discards only what it cannot play.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicPilot;

impl Bot<WolfPack> for HeuristicPilot {
    fn choose(&mut self, obs: &Observation<'_, WolfPack>, rng: &mut MatchRng) -> Action {
        let legal = obs.legal();
        if let [Action::Proceed] = legal {
            return Action::Proceed;
        }
        if offers_confirm(legal) {
            return Action::Confirm;
        }
        let v = obs.view();
        let me = obs.seat();
        if v.is_ace(me) {
            // Asked to play the Ace (a search's playouts play every seat with one bot): play it
            // as the fight's Ace tier does, the searching tier as its veteran rollout policy,
            // rather than at random, so a pilot's search meets the Ace it will face.
            return match v.ace.tier {
                AceTier::Rookie => Rookie.choose(obs, rng),
                AceTier::Veteran | AceTier::Ace => Veteran.choose(obs, rng),
            };
        }
        let Some(hand) = v.pilot(me).and_then(|p| p.hand.as_ref()) else { return *rng.pick(legal) };
        let ace = v.ace.seat;
        let ace_dodges = v.effects_on(ace, Card::DodgeRoll).count() as i32;
        let ace_suppressed = v.effects_on(ace, Card::Suppression).count();
        let cover = v.effects.iter().any(|e| e.card == Card::CoverFire);
        let weakest = v.living_pilots().map(|p| p.health).min().unwrap_or(0);
        let finishing = v.ace.health <= 5;
        // Choices are hidden but hands are not: pilots holding the same card split the work
        // by seat order (the first holder takes the first job, and so on).
        let rank = |card: Card| {
            v.living_pilots().filter(|p| p.seat < me && p.hand.as_ref().is_some_and(|h| h.contains(&card))).count()
        };
        let mut hurt: Vec<(i32, Seat)> =
            v.living_pilots().filter(|p| p.max_health - p.health >= 10).map(|p| (p.health, p.seat)).collect();
        hurt.sort();
        let heal_target = hurt.get(rank(Card::MidAirRegroup)).map(|&(_, s)| s);
        let mut exposed: Vec<(i32, Seat)> = v
            .living_pilots()
            .filter(|p| v.effects_on(p.seat, Card::DodgeRoll).next().is_none())
            .map(|p| (p.health, p.seat))
            .collect();
        exposed.sort();
        let dodge_target = exposed.get(rank(Card::DodgeRoll)).map(|&(_, s)| s);
        let choice = best(legal, rng, |a| {
            let Action::Select { card, target, confirm: true } = *a else { return None };
            let c = hand[usize::from(card)];
            let missing = |t: Option<Seat>| t.map_or(0, |t| v.pilot(t).map_or(0, |p| p.max_health - p.health));
            Some(match c {
                Card::OpenFire | Card::Sidewinder if finishing => 100,
                Card::OpenFire if ace_dodges > 0 => 6,
                Card::OpenFire => 14,
                Card::Sidewinder if ace_dodges > 0 => 18,
                Card::Sidewinder => 11,
                // Against an Ace that plays one card a turn the 2-turn limit caps it at 4 damage.
                Card::Suppression if v.ace.plays_per_turn < 2 => 11,
                Card::Suppression if ace_suppressed + rank(Card::Suppression) < 2 => 16,
                Card::Suppression => 9,
                Card::CoverFire if !cover && rank(Card::CoverFire) == 0 => 24,
                Card::CoverFire => 4,
                Card::MidAirRegroup if target.is_some() && target == heal_target => 20 + missing(target),
                Card::MidAirRegroup if missing(target) >= 10 => 8,
                Card::MidAirRegroup => 1,
                Card::DodgeRoll if target.is_some() && target == dodge_target => {
                    10 + (50 - v.health(target.expect("aimed"))) / 4
                }
                Card::DodgeRoll => 3,
                Card::PullingGs => {
                    let me_h = v.health(me);
                    if me_h <= weakest + 5 { 12 + (50 - me_h) / 4 } else { 7 }
                }
                _ => 0,
            })
        });
        choice.unwrap_or_else(|| {
            // Nothing playable: discard every card that has no legal target (k-1 draw debt).
            let playable =
                |i: usize| legal.iter().any(|a| matches!(a, Action::Select { card, .. } if usize::from(*card) == i));
            let mask = (0..hand.len()).filter(|&i| !playable(i)).fold(0u8, |m, i| m | 1 << i);
            let a = Action::Discard { cards: mask.max(1), confirm: true };
            if legal.contains(&a) { a } else { *rng.pick(legal) }
        })
    }
}

/// Damage already picked this turn against each seat (the Ace sees its own picks).
fn queued_damage(v: &View, seat: Seat) -> i32 {
    v.queue
        .iter()
        .filter(|q| q.seat == v.ace.seat)
        .map(|q| match (q.card, q.target) {
            (Some(c @ (Card::OpenFire | Card::Sidewinder | Card::AirToAirBarrage)), Some(t)) if t == seat => {
                c.def().damage
            }
            (Some(Card::SweepingFire), _) => 5,
            _ => 0,
        })
        .sum()
}

/// The veteran Ace's score of an action, from its view.
fn veteran_score(v: &View, a: &Action) -> Option<i32> {
    let Action::Play { card, target } = *a else { return None };
    let hand = v.ace.hand.as_ref()?;
    let c = hand[usize::from(card)];
    let limited = v.ace.picks_left + (v.queue.len() as u8) < v.ace.plays_per_turn;
    let health = |t: Seat| v.health(t) - queued_damage(v, t);
    let dodges = |t: Seat| v.effects_on(t, Card::DodgeRoll).count();
    let focus = |t: Seat| 50 - health(t).max(0);
    let living = v.living_pilots().count() as i32;
    let mut s = match (c, target) {
        (Card::AirToAirBarrage, Some(t)) => 30 + focus(t) + if health(t) <= 10 { 50 } else { 0 },
        (Card::OpenFire, Some(t)) if dodges(t) > 0 => 3,
        (Card::OpenFire | Card::Sidewinder, Some(t)) => {
            22 + focus(t) + if health(t) <= 5 { 50 } else { 0 } + if dodges(t) > 0 { 5 } else { 0 }
        }
        (Card::SweepingFire, None) => {
            let exposed = v.living_pilots().filter(|p| dodges(p.seat) == 0).count() as i32;
            if exposed >= 3 || exposed == living && living >= 2 { 20 + 8 * exposed } else { 2 }
        }
        (Card::Suppression, Some(t)) => {
            if v.effects_on(t, Card::Suppression).next().is_some() {
                4
            } else {
                14 + focus(t) / 3
            }
        }
        (Card::IntoTheFog, None) => {
            let hurt = v.living_pilots().filter(|p| p.max_health - p.health >= 15).count();
            if hurt > 0 && living > 1 { 16 } else { 3 }
        }
        (Card::PullingGs, Some(t)) => 6 + (v.health(t) / 10),
        (Card::DodgeRoll, _) => {
            if v.effects_on(v.ace.seat, Card::DodgeRoll).next().is_some() {
                3
            } else {
                11
            }
        }
        _ => 0,
    };
    // Under Cover Fire every play counts: damage first.
    if limited {
        s += if c.def().damage > 0 { 10 } else { -5 };
    }
    Some(s)
}

/// The heuristic Ace: focus fire on the weakest, Sweeping Fire only into a group, Into the Fog
/// when pilots need healing, damage first under Cover Fire.
#[derive(Clone, Copy, Debug, Default)]
pub struct Veteran;

impl Bot<WolfPack> for Veteran {
    fn choose(&mut self, obs: &Observation<'_, WolfPack>, rng: &mut MatchRng) -> Action {
        let legal = obs.legal();
        if !legal.iter().any(|a| matches!(a, Action::Play { .. })) {
            return shared_choice(&obs.legal_shape(), rng).unwrap_or_else(|| *rng.pick(legal));
        }
        let v = obs.view();
        best(legal, rng, |a| veteran_score(v, a)).unwrap_or_else(|| *rng.pick(legal))
    }
}

/// The strongest Ace: for each of its (veteran-ranked) best candidate plays, plays the fight on
/// from several determinized copies (veteran Ace, heuristic pilots) to the end of the pilots'
/// next turn and keeps the play with the best mean outcome.
#[derive(Clone, Copy, Debug)]
pub struct AceSearch {
    pub candidates: usize,
    pub samples: usize,
}

impl Default for AceSearch {
    fn default() -> Self {
        AceSearch { candidates: 6, samples: 6 }
    }
}

/// How good a position is for the Ace: pilots' health lost and pilots down, minus its own
/// health lost; a finished fight is worth more than any of that.
fn ace_eval(g: &WolfPack) -> i32 {
    match g.winner() {
        Some(crate::Side::Ace) => return 100_000,
        Some(crate::Side::Pilots) => return -100_000,
        None => {}
    }
    let pilots: i32 =
        g.pilots.iter().map(|p| (g.config.pilot_health - p.health) + if p.alive() { 0 } else { 25 }).sum();
    pilots * 3 - (g.config.ace_health - g.ace.health)
}

impl Bot<WolfPack> for AceSearch {
    fn choose(&mut self, obs: &Observation<'_, WolfPack>, rng: &mut MatchRng) -> Action {
        let legal = obs.legal();
        if !legal.iter().any(|a| matches!(a, Action::Play { .. })) || legal.len() == 1 {
            return shared_choice(&obs.legal_shape(), rng).unwrap_or_else(|| *rng.pick(legal));
        }
        let v = obs.view();
        let mut ranked: Vec<(i32, Action)> = legal.iter().filter_map(|a| Some((veteran_score(v, a)?, *a))).collect();
        ranked.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        ranked.truncate(self.candidates);
        let seat = obs.seat();
        let mut totals = vec![0i64; ranked.len()];
        for _ in 0..self.samples {
            let base = obs.determinize(rng);
            let seed = rng.next_u64();
            for (i, &(_, a)) in ranked.iter().enumerate() {
                let mut g = base.clone();
                g.apply_into(seat, a, &mut Vec::new()).expect("a legal candidate");
                // Same future for every candidate: common random numbers.
                let mut r = MatchRng::new(seed);
                let until = g.turn + 1;
                rollout(&mut g, until, &mut r);
                totals[i] += i64::from(ace_eval(&g) + ranked[i].0);
            }
        }
        let besti = (0..ranked.len()).max_by_key(|&i| (totals[i], std::cmp::Reverse(i))).expect("candidates");
        ranked[besti].1
    }
}

/// Plays `g` on with the veteran Ace and heuristic pilots until the end of turn `until`'s
/// Ace's Action (or the end of the fight).
fn rollout(g: &mut WolfPack, until: u32, rng: &mut MatchRng) {
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let mut steps = 0;
    while steps < 2_000 {
        if g.turn > until || (g.turn == until && g.phase == Phase::BossPhaseConfirm) {
            return;
        }
        let Some(seat) = g.to_act().first() else { return };
        legal.clear();
        g.legal_actions_into(seat, &mut legal);
        let a = {
            let obs = Observation::new(&*g, seat, &legal);
            if g.is_ace(seat) { Veteran.choose(&obs, rng) } else { HeuristicPilot.choose(&obs, rng) }
        };
        events.clear();
        g.apply_into(seat, a, &mut events).expect("bots choose legal actions");
        steps += 1;
    }
}
