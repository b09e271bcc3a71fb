//! Bots: `random` (uniform over legal actions) and `heuristic`.
//!
//! The heuristic plays from its `Observation` only:
//! - **opening**: the colour whose cards (plus supporters) in hand add up most, weighted
//!   towards tokens it lacks; it opens with its cheapest card of that colour;
//! - **turn**: leads by just enough — the smallest card that gets it strictly ahead, else
//!   its biggest and look again; it gives a tournament up early (keeping its cards) when even
//!   its whole hand cannot lead, or when winning would bring no new token and leading is
//!   costly; it keeps a maiden back while it has tokens to lose;
//! - **action cards** are held for the right moment: an attack (Dodge, Riposte, Charge, ...)
//!   is played when it puts the bot in the lead or swings the gap by 4 or more; Stunned goes
//!   on the strongest rival, Shield on a display worth protecting, Knock Down whenever it is
//!   free, colour changes when its hand is much stronger in the new colour;
//! - **Ivanhoe** answers cards that hurt it: aimed at it, or costing it 2 points or more.
//!
//! It judges a display-changing card by resolving it on a determinized copy and reading only
//! public facts (displays, colour) afterwards, so what it cannot see never sways it — the
//! `bot_ignores_hidden_information` test checks that.

use crate::action::Action;
use crate::cards::{Card, Colour};
use crate::state::{Ivanhoe, Phase};
use crate::view::{PhaseView, View};
use engine::{Bot, Game, MatchRng, Observation, RandomBot, Seat};

engine::bot_table!(Ivanhoe {
    "random" => RandomBot,
    "heuristic" => HeuristicBot,
});

/// See the module documentation.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

impl Bot<Ivanhoe> for HeuristicBot {
    fn choose(&mut self, obs: &Observation<'_, Ivanhoe>, rng: &mut MatchRng) -> Action {
        let legal = obs.legal();
        if legal.len() == 1 {
            return legal[0];
        }
        let view = obs.view();
        let me = obs.seat();
        let choice = match view.phase {
            PhaseView::Start { .. } => open(view, legal),
            PhaseView::Turn { .. } => turn(obs, view, me, rng),
            PhaseView::Window { .. } => answer(obs, view, me, rng),
            PhaseView::PurpleToken { .. } => choose_token(view, me, legal),
            _ => None,
        };
        choice.filter(|a| legal.contains(a)).unwrap_or_else(|| fallback(obs, me))
    }
}

fn fallback(obs: &Observation<'_, Ivanhoe>, _me: Seat) -> Action {
    // Phases with a sensible default (Adapt keeps, the maiden token): take it.
    let legal = obs.legal();
    legal.iter().copied().find(|a| matches!(a, Action::Pass | Action::EndTurn)).unwrap_or(legal[0])
}

/// How much winning a tournament of `colour` is worth to `me`: a token they lack (purple
/// always brings one), or little.
fn worth(view: &View, me: Seat, colour: Colour) -> f32 {
    if colour == Colour::Purple || !view.player(me).tokens.contains(colour) { 1.0 } else { 0.2 }
}

fn hand(view: &View) -> &[Card] {
    view.hand.as_deref().unwrap_or(&[])
}

/// Counted values of the hand cards playable in a `colour` tournament (one maiden at most,
/// none if the display already has one).
fn playable_values(view: &View, me: Seat, colour: Colour) -> Vec<u32> {
    playable(view, me, colour).collect()
}

/// Their sum (no vector: the opening weighs every allowed colour this way).
fn playable_sum(view: &View, me: Seat, colour: Colour) -> u32 {
    playable(view, me, colour).sum()
}

fn playable(view: &View, me: Seat, colour: Colour) -> impl Iterator<Item = u32> + '_ {
    let mut maiden = view.player(me).display.contains(&Card::Maiden);
    hand(view).iter().filter_map(move |&c| {
        let ok = match c.colour() {
            Some(k) => k == colour,
            None => c.is_supporter() && !(c.is_maiden() && std::mem::replace(&mut maiden, true)),
        };
        ok.then(|| c.counted(Some(colour)))
    })
}

fn open(view: &View, legal: &[Action]) -> Option<Action> {
    let me = view.me()?;
    let allowed = view.allowed?;
    let colour = allowed.iter().max_by(|&a, &b| {
        let score = |c: Colour| {
            let s: u32 =
                playable_sum(view, me, c) + hand(view).iter().filter(|k| k.colour() == Some(c)).count() as u32 * 2;
            s as f32 * (0.4 + worth(view, me, c))
        };
        score(a).total_cmp(&score(b)).then(b.cmp(&a))
    })?;
    // The cheapest card that opens it: a coloured card, else a squire, else the maiden.
    legal.iter().copied().filter(|a| matches!(a, Action::Start { colour: c, .. } if *c == colour)).min_by_key(|a| {
        match a {
            Action::Start { card, .. } => (card.is_supporter(), card.is_maiden(), card.value()),
            _ => (true, true, 99),
        }
    })
}

fn is_attack(a: &Action) -> bool {
    matches!(
        a,
        Action::BreakLance { .. }
            | Action::Riposte { .. }
            | Action::Dodge { .. }
            | Action::Outmaneuver
            | Action::Charge
            | Action::Countercharge
            | Action::Disgrace
            | Action::Adapt
            | Action::Outwit { .. }
    )
}

fn is_colour(a: &Action) -> bool {
    matches!(a, Action::Unhorse { .. } | Action::ChangeWeapon { .. } | Action::DropWeapon)
}

fn best_rival(view: &View, me: Seat) -> u32 {
    view.opponents(me).map(|p| p.total).max().unwrap_or(0)
}

/// The state after `action` resolves unopposed (passes, default Adapt keeps).
fn resolve(base: &Ivanhoe, me: Seat, action: Action) -> Option<Ivanhoe> {
    let mut g = base.clone();
    g.apply(me, action).ok()?;
    for _ in 0..32 {
        let s = match g.phase() {
            Phase::Window => g.window()?.waiting().first()?,
            Phase::Adapt { .. } => g.to_act().first()?,
            _ => break,
        };
        let a = g.default_action(s)?;
        g.apply(s, a).ok()?;
    }
    Some(g)
}

/// My lead over the best rival still in (public facts only).
fn gap(g: &Ivanhoe, me: Seat) -> i32 {
    let mine = g.total(me) as i32;
    let best = Seat::all(g.num_players())
        .filter(|&s| s != me && !g.player(s).withdrawn)
        .map(|s| g.total(s) as i32)
        .max()
        .unwrap_or(0);
    mine - best
}

fn turn(obs: &Observation<'_, Ivanhoe>, view: &View, me: Seat, rng: &mut MatchRng) -> Option<Action> {
    let legal = obs.legal();
    let colour = view.colour?;
    let my = view.player(me).total;
    let best = best_rival(view, me);
    let shielded = view.player(me).shield;
    let has = |pred: &dyn Fn(&Action) -> bool| legal.iter().copied().find(|a| pred(a));

    if view.played_this_turn && my > best {
        // Leading: protect a display worth it, then stop.
        if !shielded
            && my >= 8
            && worth(view, me, colour) >= 1.0
            && let Some(a) = has(&|a| matches!(a, Action::Shield))
        {
            return Some(a);
        }
        return Some(Action::EndTurn);
    }

    // Resolve every display-changing card on one determinized copy, made only when the hand
    // holds one (a turn without one skipped the copy's cost: with the view's hand built at its
    // size, a third of `expert`'s CPU a move on 12 games). The fork is drawn either way, so
    // the moves that follow draw the same numbers.
    let mut fork = rng.fork();
    let Some(base) = legal.iter().any(|a| is_attack(a) || is_colour(a)).then(|| obs.determinize(&mut fork)) else {
        return cards_turn(obs, view, me, None, None, 0);
    };
    let now = gap(&base, me);
    let mut best_attack: Option<(Action, i32)> = None;
    let mut best_colour: Option<(Action, i32)> = None;
    for &a in legal {
        let (is_attack, is_colour) = (is_attack(&a), is_colour(&a));
        if !is_attack && !is_colour {
            continue;
        }
        let Some(after) = resolve(&base, me, a) else { continue };
        if is_attack {
            let mut g = gap(&after, me);
            if let Action::Outwit { give, take, .. } = a {
                // Handing over Stunned or taking the Shield is worth a few points by itself.
                if matches!(give, crate::Slot::Stunned) || matches!(take, crate::Slot::Shield) {
                    g += 3;
                }
            }
            if best_attack.is_none_or(|(_, b)| g > b) {
                best_attack = Some((a, g));
            }
        } else {
            let c = after.colour()?;
            let pot = after.total(me) as i32 + playable_sum(view, me, c) as i32;
            let rival = gap(&after, me) - after.total(me) as i32; // = -best rival total
            let score = pot + rival;
            if best_colour.is_none_or(|(_, b)| score > b) {
                best_colour = Some((a, score));
            }
        }
    }

    cards_turn(obs, view, me, best_attack, best_colour, now)
}

/// The rest of a turn, given the best display-changing cards found (`now`: the gap before
/// them): colour changes, attacks, Knock Down, Stunned, then just enough cards to lead.
fn cards_turn(
    obs: &Observation<'_, Ivanhoe>,
    view: &View,
    me: Seat,
    best_attack: Option<(Action, i32)>,
    best_colour: Option<(Action, i32)>,
    now: i32,
) -> Option<Action> {
    let legal = obs.legal();
    let colour = view.colour?;
    let my = view.player(me).total;
    let best = best_rival(view, me);
    let values = playable_values(view, me, colour);
    let stunned = view.player(me).stunned;
    let room = if stunned && view.added_this_turn >= 1 {
        0
    } else if stunned {
        1
    } else {
        values.len()
    };
    let mut sorted = values.clone();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let potential = my + sorted.iter().take(room).sum::<u32>();
    let needed = (best + 1).saturating_sub(my);
    let attack_gain = best_attack.map_or(i32::MIN, |(_, g)| g - now);
    let can_lead_by_cards = potential > best;
    let value = worth(view, me, colour);

    // Colour change when the hand is much stronger in the new colour.
    let here = potential as i32 - best as i32;
    if let Some((a, score)) = best_colour
        && score >= here + 3
    {
        return Some(a);
    }
    // An attack that takes the lead, or swings the gap a lot.
    if let Some((a, g)) = best_attack
        && value >= 1.0
        && ((g > 0 && (!can_lead_by_cards || needed >= 5)) || attack_gain >= 4)
    {
        return Some(a);
    }
    let contest = (can_lead_by_cards || best_attack.is_some_and(|(_, g)| g > 0))
        && (value >= 1.0 || (needed <= 3 && hand(view).len() >= 6));
    // Knock Down costs nothing: always take a card from the fullest unshielded hand.
    if let Some(a) = legal
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::KnockDown { .. }))
        .max_by_key(|a| a.target().map_or(0, |t| view.player(t).hand_count))
    {
        return Some(a);
    }
    if !contest {
        return Some(Action::EndTurn);
    }
    // Stunned on the strongest rival.
    if let Some(a) = legal
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::Stunned { .. }))
        .max_by_key(|a| a.target().map_or(0, |t| view.player(t).total * 16 + u32::from(view.player(t).hand_count)))
    {
        return Some(a);
    }
    if !can_lead_by_cards {
        return best_attack.map(|(a, _)| a).or(Some(Action::EndTurn));
    }
    // Just enough: the smallest card that leads, else the biggest (never a risky maiden).
    let risky_maiden = !view.player(me).tokens.is_empty();
    let plays: Vec<(Card, u32)> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Play { card } => Some((*card, card.counted(Some(colour)))),
            _ => None,
        })
        .collect();
    let leading = plays
        .iter()
        .filter(|(c, v)| *v >= needed && !(c.is_maiden() && risky_maiden && *v < needed + 4))
        .min_by_key(|(c, v)| (*v, c.is_supporter(), c.value()));
    if let Some((card, _)) = leading {
        return Some(Action::Play { card: *card });
    }
    plays
        .iter()
        .filter(|(c, _)| !(c.is_maiden() && risky_maiden))
        .max_by_key(|(c, v)| (*v, !c.is_supporter(), std::cmp::Reverse(c.value())))
        .map(|(c, _)| Action::Play { card: *c })
        .or(Some(Action::EndTurn))
}

fn answer(obs: &Observation<'_, Ivanhoe>, view: &View, me: Seat, rng: &mut MatchRng) -> Option<Action> {
    if !obs.legal().contains(&Action::Ivanhoe) {
        return Some(Action::Pass);
    }
    let PhaseView::Window { action, seat: player, .. } = view.phase else { return None };
    if action.target() == Some(me) && !matches!(action, Action::Outwit { .. }) {
        return Some(Action::Ivanhoe);
    }
    // Resolve the card unopposed on a determinized copy and measure the damage.
    let base = obs.determinize(&mut rng.fork());
    let mut after = base.clone();
    for _ in 0..32 {
        let s = match after.phase() {
            Phase::Window => match after.window().and_then(|w| w.waiting().first()) {
                Some(s) => s,
                None => break,
            },
            Phase::Adapt { .. } => match after.to_act().first() {
                Some(s) => s,
                None => break,
            },
            _ => break,
        };
        let Some(a) = after.default_action(s) else { break };
        if after.apply(s, a).is_err() {
            break;
        }
    }
    let lost = base.total(me) as i32 - after.total(me) as i32;
    let rival_gain = after.total(player) as i32 - base.total(player) as i32;
    if lost >= 2 || (rival_gain >= 4 && base.total(me) > 0) { Some(Action::Ivanhoe) } else { Some(Action::Pass) }
}

fn choose_token(view: &View, me: Seat, legal: &[Action]) -> Option<Action> {
    // Purple is the hardest colour to win (never twice running): take it first; then the
    // colour we hold fewest cards of.
    let count = |c: Colour| hand(view).iter().filter(|k| k.colour() == Some(c)).count();
    let _ = me;
    legal
        .iter()
        .copied()
        .filter_map(|a| match a {
            Action::ChooseToken { colour } => Some((a, colour)),
            _ => None,
        })
        .min_by_key(|&(_, c)| (c != Colour::Purple, count(c), c))
        .map(|(a, _)| a)
}

/// Moves a searching level must never choose while another is legal, judged from `me`'s view:
/// Charge, Countercharge, Disgrace or Adapt when the only display it would take a card from is
/// `me`'s own (every opponent it touches is shielded, withdrawn or left as it is). It spends a
/// card to lower nobody's total but one's own.
pub fn foolish(v: &View, me: Seat, action: &Action) -> bool {
    // Which cards the action takes from a display it touches (the rules' `charge_hits`,
    // `disgrace_hits`, `adapt_hits`, read from the public displays): a value (Charge,
    // Countercharge), the supporters (Disgrace: `None`), or duplicates (Adapt).
    let values = || v.players.iter().flat_map(|p| p.display.iter().map(|c| c.value()));
    let (value, adapt) = match *action {
        Action::Charge => (values().min(), false),
        Action::Countercharge => (values().max(), false),
        Action::Disgrace => (None, false),
        Action::Adapt => (None, true),
        _ => return false,
    };
    if matches!(action, Action::Charge | Action::Countercharge) && value.is_none() {
        return false;
    }
    let hits = |d: &[Card]| match (value, adapt) {
        (_, true) => crate::rules::duplicated_values(d) != 0,
        (Some(x), false) => crate::rules::strips_any(d, |c| c.value() == x),
        (None, false) => crate::rules::strips_any(d, |c| c.is_supporter()),
    };
    let touched = |seat: Seat| v.players.iter().find(|p| p.seat == seat).is_some_and(|p| hits(&p.display));
    let others = v.players.iter().any(|p| p.seat != me && !p.withdrawn && !p.shield && hits(&p.display));
    touched(me) && !others
}
