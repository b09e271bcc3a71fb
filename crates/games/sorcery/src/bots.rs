//! Bots for Sorcery.
//!
//! [`HeuristicBot`] looks one action ahead: it takes a determinized copy of the game (its
//! opponent's hand and both decks resampled, so it cannot peek), tries every legal action on
//! it, scores what its own seat would then see, and plays the best action if it beats ending
//! the turn. The score counts life (the opponent's more than its own: it races), the minions on
//! each side by attack, defence and abilities, cards in hand, unspent magic and ritual charges.
//! Since the outcome of every action except the opponent's next draw is public, the choice
//! depends only on what the seat can see.

use crate::action::{Action, Target};
use crate::cards::CardId;
use crate::state::{Sorcery, Status};
use crate::view::{PlayerView, View};
use engine::{Bot, Game, MatchRng, Observation, Seat, Viewer};

/// Greedy one-action lookahead on what its seat can see.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

fn minion_value(p: &PlayerView) -> f64 {
    p.board
        .iter()
        .map(|m| {
            let def = m.card.id.def();
            let mut v = 2.0 * f64::from(m.attack.max(0)) + 1.5 * f64::from(m.defence) + 1.0;
            if def.ability.is_some() && !m.silenced {
                v += 2.0 - 0.3 * f64::from(m.ability_cost.unwrap_or(0));
            }
            if def.trigger.is_some() {
                v += 1.5;
            }
            v
        })
        .sum()
}

fn ritual_value(p: &PlayerView) -> f64 {
    match p.ritual {
        None => 0.0,
        // Standstill destroys its owner's minions too; the bot never wants one.
        Some(r) if r.id == CardId::Standstill => -4.0,
        Some(r) => 0.6 * f64::from(r.charges / r.id.def().activation_cost.max(1)),
    }
}

/// How good `view` looks for `me`.
pub fn score(view: &View, me: Seat) -> f64 {
    let foe = crate::state::other(me);
    match view.status {
        Status::Won { winner } if winner == me => return 1e6,
        Status::Won { .. } => return -1e6,
        Status::Drawn => return 0.0,
        Status::Playing => {}
    }
    let (mine, theirs) = (view.player(me), view.player(foe));
    2.0 * f64::from(mine.life) - 3.0 * f64::from(theirs.life) + minion_value(mine) - 1.1 * minion_value(theirs)
        + 1.0 * mine.hand_size as f64
        - 0.5 * theirs.hand_size as f64
        + 0.3 * f64::from(mine.magic)
        + ritual_value(mine)
        - ritual_value(theirs)
}

/// Moves a searching level must never choose while another is legal (`End` always is): on one's
/// own minion, an enchantment that only hinders (Silence, Magic Fatigue), Banish, or the Novice
/// Pyromancer's damage; on the opponent's, an enchantment that only helps (Giant Strength,
/// Enrage, Haste). Judged from `me`'s own view (its hand, the public board).
pub fn foolish(view: &View, me: Seat, action: &Action) -> bool {
    let (mine, player) = (view.player(me), |t: Option<Target>| match t {
        Some(Target::Minion { player, .. }) => Some(player),
        _ => None,
    });
    match *action {
        Action::Play { card, target } => {
            let (Some(owner), Some(c)) = (player(target), mine.hand.as_ref().and_then(|h| h.get(usize::from(card))))
            else {
                return false;
            };
            match c.id {
                CardId::Silence | CardId::MagicFatigue | CardId::Banish => owner == me,
                CardId::GiantStrength | CardId::Enrage | CardId::Haste => owner != me,
                _ => false,
            }
        }
        Action::Use { minion, target } => {
            player(target) == Some(me)
                && mine.board.get(usize::from(minion)).is_some_and(|m| m.card.id == CardId::NovicePyromancer)
        }
        _ => false,
    }
}

/// The spread of score differences that makes one side about three times as likely to win
/// as the other (a few points of life, or a minion or two).
const ESTIMATE_SCALE: f64 = 20.0;

/// How well `seat` stands in `game`, in `[0, 1]`: the logistic of how much better its
/// [`score`] is than its opponent's, each on its own view (so the two estimates add up to 1).
/// For a search that cuts its playouts short; it reads a search's determinized copy.
pub fn win_estimate(game: &Sorcery, seat: Seat) -> f64 {
    let foe = crate::state::other(seat);
    let d = score(&game.view(Viewer::seat(seat)), seat) - score(&game.view(Viewer::seat(foe)), foe);
    1.0 / (1.0 + (-d / ESTIMATE_SCALE).exp())
}

impl Bot<Sorcery> for HeuristicBot {
    fn choose(&mut self, obs: &Observation<'_, Sorcery>, rng: &mut MatchRng) -> Action {
        let legal = obs.legal();
        if legal.len() == 1 {
            return legal[0];
        }
        let me = obs.seat();
        let world = obs.determinize(rng);
        let baseline = score(&world.view(Viewer::seat(me)), me);
        let mut best = (Action::End, baseline + 0.05);
        let mut events = Vec::new();
        for &action in legal {
            if action == Action::End {
                continue;
            }
            let mut g = world.clone();
            events.clear();
            if g.apply_into(me, action, &mut events).is_err() {
                continue;
            }
            let s = score(&g.view(Viewer::seat(me)), me);
            if s > best.1 {
                best = (action, s);
            }
        }
        best.0
    }
}
