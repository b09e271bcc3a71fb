//! Bots: `random` (uniform over the legal actions), `heuristic` and `seed`.
//!
//! The heuristic decides from its view only. It knows the Lord (public), the dead (revealed)
//! and itself; everyone else is a *suspect*, never targeted by a secret role it has not seen:
//! - the Lord and a Loyalist attack suspects and known Rebels/Spies, and save the Lord;
//! - a Rebel goes for the Lord, and the known Loyalists;
//! - a Spy plays the Lord's side while others are alive, and turns on the Lord for the last
//!   duel (when only the two of them, or the two of them and one more, are left);
//! - Dodge, Attack (against Barbarians and in Duels), Peach for itself and its friends,
//!   Negate against harm to itself or a friend; equipment goes on at once; tools before
//!   Attacks; discards the least useful cards first.
//!
//! The `seed` bot plays the seed document's strategies (rules §15) for the seed-compatible
//! mode, where every role is visible (perfect information): `LoyalistStrategy` (Lord,
//! Loyalists, an unrevealed Spy) attacks a random Rebel, `RebelStrategy` (Rebels, a revealed
//! Spy) attacks the Lord; the turn routine equips, heals, plays tools, then attacks; it
//! always answers Barbarians and uses every optional weapon effect. The Spy plays as a
//! Loyalist until it has revealed itself (the `spy_reveal` switch: at the start of its turn once
//! the Lord's risk level is high or no Rebel is left), then as a Rebel.

use crate::action::{Action, Choice, Zone};
use crate::cards::{CardId, Kind, Slot};
use crate::config::Role;
use crate::generals::General;
use crate::state::{Pending, Step, ThreeKingdoms};
use crate::view::View;
use engine::{Bot, MatchRng, Observation, RandomBot, Seat};

engine::bot_table!(ThreeKingdoms {
    "random" => RandomBot,
    "heuristic" => HeuristicBot { seed: false },
    "seed" => HeuristicBot { seed: true },
});

#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot {
    /// Play the seed's strategies.
    pub seed: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stance {
    Friend,
    Enemy,
    Suspect,
}

struct Ctx<'a> {
    v: &'a View,
    me: Seat,
    role: Role,
    seed: bool,
}

impl Ctx<'_> {
    fn alive(&self) -> usize {
        self.v.players.iter().filter(|p| p.alive).count()
    }
    /// Whether a Spy now plays against the Lord.
    fn spy_turned(&self) -> bool {
        if self.seed {
            // The seed's Spy plays as a Loyalist until it has revealed itself (`spy_reveal`: at
            // the start of its turn, once the Lord's risk is high or no Rebel is left).
            self.v.players[self.me.index()].revealed
        } else {
            self.alive() <= 3
        }
    }
    fn stance(&self, s: Seat) -> Stance {
        if s == self.me {
            return Stance::Friend;
        }
        let their = self.v.players[s.index()].role;
        // Unknown roles are read from the public record of acts against the Lord.
        let h = self.v.hostility.get(s.index()).copied().unwrap_or(0);
        let lord_side = |r: Option<Role>| matches!(r, Some(Role::Lord | Role::Loyalist));
        let read = |hostile: Stance, friendly: Stance| {
            if h >= 2 {
                hostile
            } else if h < 0 {
                friendly
            } else {
                Stance::Suspect
            }
        };
        match self.role {
            Role::Lord | Role::Loyalist => match their {
                Some(Role::Lord | Role::Loyalist) => Stance::Friend,
                // The seed's rebelList: the Rebels, and a Spy once it has revealed itself or
                // is the last enemy.
                Some(Role::Spy)
                    if self.seed
                        && !self.v.players[s.index()].revealed
                        && self.v.players.iter().any(|p| p.alive && p.role == Some(Role::Rebel)) =>
                {
                    Stance::Suspect
                }
                Some(_) => Stance::Enemy,
                None => read(Stance::Enemy, Stance::Friend),
            },
            Role::Rebel => match their {
                Some(Role::Rebel) => Stance::Friend,
                r if lord_side(r) => Stance::Enemy,
                _ => read(Stance::Friend, Stance::Enemy),
            },
            Role::Spy => {
                if self.spy_turned() {
                    Stance::Enemy
                } else if their == Some(Role::Lord) {
                    Stance::Friend
                } else if lord_side(their) {
                    Stance::Suspect
                } else if their.is_some() {
                    Stance::Enemy
                } else {
                    read(Stance::Enemy, Stance::Suspect)
                }
            }
        }
    }
    /// The seed's targets (rules §15), roles being visible in its mode: `RebelStrategy` (a
    /// Rebel, a revealed Spy) goes for the Lord only; `LoyalistStrategy` (the Lord, a Loyalist,
    /// an unrevealed Spy) for a Rebel (or a revealed Spy, who plays as one), and for nobody
    /// once none is left.
    fn seed_target(&self, s: Seat) -> bool {
        let p = &self.v.players[s.index()];
        let me = &self.v.players[self.me.index()];
        let rebel_strategy = self.role == Role::Rebel || (self.role == Role::Spy && me.revealed);
        if rebel_strategy {
            p.role == Some(Role::Lord)
        } else {
            p.role == Some(Role::Rebel) || (p.role == Some(Role::Spy) && p.revealed)
        }
    }

    /// Who to hit first: lower is better; None = leave alone.
    fn priority(&self, s: Seat) -> Option<i32> {
        let p = &self.v.players[s.index()];
        if self.seed {
            if s == self.me || !self.seed_target(s) {
                return None;
            }
            // Any of its targets alike: the seed picks a random Rebel (`play`'s tie-break).
            return Some(0);
        }
        let base = match self.stance(s) {
            Stance::Friend => return None,
            Stance::Enemy => 0,
            Stance::Suspect => {
                // A Rebel leaves suspects alone (they may be Rebels); the Lord's side treats
                // them as likely Rebels.
                if self.role == Role::Rebel || (self.seed && self.role != Role::Spy) {
                    return None;
                }
                let h = self.v.hostility.get(s.index()).copied().unwrap_or(0);
                10 - 3 * i32::from(h)
            }
        };
        let rebel_goal = self.role == Role::Rebel && p.role == Some(Role::Lord);
        Some(base + i32::from(p.hp) * 2 - if rebel_goal { 20 } else { 0 })
    }
}

fn value(c: CardId) -> i32 {
    match c.kind() {
        Kind::Peach => 10,
        Kind::Negate => 8,
        Kind::Dodge => 7,
        Kind::SomethingOutOfNothing | Kind::BumperHarvest => 6,
        Kind::Attack => 5,
        Kind::Duel | Kind::StealingSheep | Kind::Dismantle | Kind::Barbarians | Kind::RainArrows => 4,
        Kind::Acedia | Kind::BorrowedSword => 3,
        k if k.is_equipment() => 2,
        _ => 1,
    }
}

impl Bot<ThreeKingdoms> for HeuristicBot {
    fn choose(&mut self, obs: &Observation<'_, ThreeKingdoms>, rng: &mut MatchRng) -> Action {
        let legal = obs.legal();
        if legal.len() == 1 {
            return legal[0];
        }
        let v = obs.view();
        let me = obs.seat();
        if matches!(v.step, Step::LordChooses | Step::OthersChoose) {
            let best = legal
                .iter()
                .max_by_key(|a| match a {
                    Action::ChooseGeneral { general } => (general.def().hp, preference(*general)),
                    _ => (0, 0),
                })
                .copied();
            return best.unwrap_or(legal[0]);
        }
        let Some(role) = v.players[me.index()].role else { return *rng.pick(legal) };
        let cx = Ctx { v, me, role, seed: self.seed };
        let choice = match v.waiting {
            Some(Pending::Play { .. }) => play(&cx, legal, rng),
            Some(Pending::Ask { .. }) => answer(&cx, legal),
            Some(Pending::Confirm { .. }) => Some(Action::Confirm { yes: true }),
            Some(Pending::Pick { from, .. }) => pick(&cx, legal, from),
            Some(Pending::Discard { .. }) | Some(Pending::YinYang { .. }) => legal
                .iter()
                .filter_map(|a| match a {
                    Action::Discard { card } => Some((value(*card), *a)),
                    _ => None,
                })
                .min_by_key(|x| x.0)
                .map(|x| x.1),
            Some(Pending::Unyielding { .. }) => Some(if v.players[me.index()].hp > 2 {
                Action::Choose { choice: Choice::TakeDamage }
            } else {
                Action::Choose { choice: Choice::DiscardTwo }
            }),
            Some(Pending::Triumphant { .. }) => Some(Action::Choose { choice: Choice::Recover }),
            Some(Pending::Harvest { .. }) => legal
                .iter()
                .max_by_key(|a| match a {
                    Action::Take { card } => value(*card),
                    _ => 0,
                })
                .copied(),
            Some(Pending::Give { .. }) => {
                legal.iter().find(|a| matches!(a, Action::Give { to, .. } if *to == me)).copied()
            }
            Some(Pending::Balance { .. }) => {
                let hand = &v.hand;
                legal
                    .iter()
                    .find(|a| matches!(a, Action::Discard { card } if value(*card) <= 2 && hand.contains(card)))
                    .copied()
                    .or(Some(Action::Done))
            }
            Some(Pending::DrawPhase { .. }) => Some(Action::DrawNormally),
            Some(Pending::Replace { .. }) | Some(Pending::Displace { .. }) => Some(Action::Pass),
            Some(Pending::Stargaze { .. }) | Some(Pending::NameSuit { .. }) => None,
            None => None,
        };
        choice.filter(|a| legal.contains(a)).unwrap_or_else(|| {
            // Fall back on something harmless.
            for a in [Action::Pass, Action::EndPlay, Action::Done, Action::DrawNormally] {
                if legal.contains(&a) {
                    return a;
                }
            }
            legal[0]
        })
    }
}

fn preference(g: General) -> u8 {
    match g {
        General::LiuBei | General::CaoCao | General::SunQuan => 3,
        General::ZhaoYun | General::GuanYu | General::ZhangFei | General::LvBu | General::HuaTuo => 2,
        _ => 1,
    }
}

fn answer(cx: &Ctx<'_>, legal: &[Action]) -> Option<Action> {
    let v = cx.v;
    let first = |pred: &dyn Fn(&Action) -> bool| legal.iter().copied().find(|a| pred(a));
    let respond = || {
        first(&|a| matches!(a, Action::AskHelpers))
            .or_else(|| first(&|a| matches!(a, Action::EightTrigrams)))
            .or_else(|| {
                legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Respond { card, .. } => Some((value(*card) + i32::from(card.kind() != a_kind(a)), *a)),
                        _ => None,
                    })
                    .min_by_key(|x| x.0)
                    .map(|x| x.1)
            })
            .or_else(|| first(&|a| matches!(a, Action::RespondSpear { .. })))
    };
    match (v.request, v.about) {
        (Some(Kind::Negate), Some((kind, target))) => {
            let harmful = matches!(
                kind,
                Kind::Dismantle
                    | Kind::StealingSheep
                    | Kind::Duel
                    | Kind::Barbarians
                    | Kind::RainArrows
                    | Kind::Acedia
                    | Kind::Lightning
            );
            let friend = cx.stance(target) == Stance::Friend;
            let enemy = cx.stance(target) == Stance::Enemy;
            // Whether the tool taking effect is good for us.
            let good = if harmful { enemy } else { friend };
            let bad = if harmful {
                friend && (target == cx.me || kind != Kind::Lightning)
            } else {
                enemy && kind != Kind::Lightning
            };
            if (bad && !v.negated) || (good && v.negated) {
                first(&|a| matches!(a, Action::Respond { .. }))
            } else {
                Some(Action::Pass)
            }
        }
        (Some(Kind::Peach), Some((_, dying))) => {
            let save = dying == cx.me
                || cx.stance(dying) == Stance::Friend
                || (cx.role == Role::Spy && v.players[dying.index()].role == Some(Role::Lord));
            if save { respond() } else { Some(Action::Pass) }
        }
        // (A request answering something else, an Attack's Dodge or a Barbarians' Attack, is
        // about another kind and answered below.)
        (Some(need), Some((kind, lord))) if kind == need => {
            // Helping a Lord, or using an Attack on someone (Borrowed Sword, Green Dragon).
            let helping = v.players[lord.index()].role == Some(Role::Lord) && lord != cx.me;
            let ok = if helping { cx.stance(lord) == Stance::Friend } else { cx.priority(lord).is_some() };
            if ok { respond() } else { Some(Action::Pass) }
        }
        _ => respond().or(Some(Action::Pass)),
    }
}

fn a_kind(a: &Action) -> Kind {
    match a {
        Action::Respond { kind, .. } => *kind,
        _ => Kind::Attack,
    }
}

fn pick(cx: &Ctx<'_>, legal: &[Action], from: Seat) -> Option<Action> {
    let p = &cx.v.players[from.index()];
    let friend = cx.stance(from) == Stance::Friend;
    let mut best = None;
    let mut best_score = i32::MIN;
    for a in legal {
        let score = match a {
            Action::Pick { zone: Zone::Judge(i) } => {
                let bad = p.judge.get(*i as usize).is_some_and(|&(_, k)| k == Kind::Acedia);
                if friend && bad { 50 } else { -5 }
            }
            Action::Pick { zone: Zone::Equip(slot) } => {
                if friend {
                    -20
                } else {
                    match slot {
                        Slot::Armour => 9,
                        Slot::Weapon => 7,
                        Slot::PlusHorse => 6,
                        Slot::MinusHorse => 5,
                    }
                }
            }
            Action::Pick { zone: Zone::Hand(_) } => {
                if friend {
                    -10
                } else {
                    8
                }
            }
            Action::Pass => -8,
            _ => -100,
        };
        if score > best_score {
            best_score = score;
            best = Some(*a);
        }
    }
    best
}

fn play(cx: &Ctx<'_>, legal: &[Action], rng: &mut MatchRng) -> Option<Action> {
    let v = cx.v;
    let me = &v.players[cx.me.index()];
    let mut best: Option<(i32, Action)> = None;
    // The seed's LoyalistStrategy picks a random Rebel: a random tie-break among its targets.
    let seed = cx.seed;
    let mut consider = |score: i32, a: Action| {
        let score = if seed && score > 0 { score * 4 + rng.below(4) as i32 } else { score };
        if score > 0 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, a));
        }
    };
    let enemies_alive = v.players.iter().filter(|p| p.alive && cx.priority(p.seat).is_some()).count();
    let friends_alive =
        v.players.iter().filter(|p| p.alive && p.seat != cx.me && cx.stance(p.seat) == Stance::Friend).count();
    // Once, not per action: a hoarded hand of 78 cards lists 3,003 Serpent Spear pairs a target.
    let has_attack = v.hand.iter().any(|c| c.kind() == Kind::Attack);
    for &a in legal {
        match a {
            Action::Use { card, kind, targets } => {
                let t = targets.first();
                let target_score = t.and_then(|t| cx.priority(t)).map(|p| 40 - p);
                let natural = card.kind() == kind;
                // Converting an equipped card gives the equipment up: only when it is worth it.
                let equipped = !v.hand.contains(&card);
                let conv_penalty = if natural {
                    0
                } else if equipped {
                    25
                } else {
                    3
                };
                let score = match kind {
                    k if k.is_equipment() => {
                        let slot = k.slot().expect("slot");
                        match me.equip[slot.index()] {
                            // The seed equips whatever it draws, at once.
                            _ if cx.seed => 90,
                            None => 90,
                            Some(old) if slot == Slot::Weapon && k.range() > old.kind().range() => 60,
                            _ => 0,
                        }
                    }
                    Kind::Peach if me.hp < me.max_hp => 85,
                    Kind::SomethingOutOfNothing => 80,
                    Kind::BumperHarvest => 30,
                    Kind::PeachGarden if me.hp < me.max_hp => 50,
                    Kind::Barbarians | Kind::RainArrows if enemies_alive > friends_alive => 55,
                    Kind::Lightning => {
                        if cx.seed {
                            0
                        } else {
                            5
                        }
                    }
                    Kind::Acedia | Kind::Dismantle | Kind::StealingSheep | Kind::Duel => {
                        target_score.map_or(0, |s| s + 30 - conv_penalty + i32::from(kind == Kind::StealingSheep) * 5)
                    }
                    Kind::BorrowedSword => {
                        let victim = targets.get(1);
                        match (t.and_then(|t| cx.priority(t)), victim.and_then(|b| cx.priority(b))) {
                            (Some(_), Some(p)) => 40 - p,
                            _ => 0,
                        }
                    }
                    Kind::Attack => {
                        target_score.map_or(0, |s| s + 20 - conv_penalty - 5 * (targets.len() as i32 - 1).min(0))
                    }
                    _ => 0,
                };
                consider(score, a);
            }
            Action::UseSpear { targets, .. } if !has_attack && v.hand.len() >= 4 => {
                consider(targets.first().and_then(|t| cx.priority(t)).map_or(0, |p| 15 - p), a);
            }
            Action::Rouse { targets } if !has_attack => {
                consider(targets.first().and_then(|t| cx.priority(t)).map_or(0, |p| 25 - p), a);
            }
            Action::Benevolence { card, to } => {
                let helpful = cx.stance(to) == Stance::Friend || (cx.seed && me.hp < 2);
                if helpful && (v.hand.len() as i8 > me.hp || me.hp < me.max_hp) {
                    consider(20 - value(card), a);
                }
            }
            Action::TrojanFlesh if (me.hp >= 3 || v.hand.iter().any(|c| c.kind() == Kind::Peach) && me.hp >= 2) => {
                consider(12, a);
            }
            Action::GreenSalve { card, target } if cx.stance(target) == Stance::Friend => {
                consider(40 - value(card), a);
            }
            Action::Marriage { cards, target } if me.hp < me.max_hp && cx.stance(target) != Stance::Enemy => {
                consider(35 - value(cards[0]) - value(cards[1]), a);
            }
            Action::SowDissension { target } => {
                consider(cx.priority(target).map_or(0, |p| 30 - p), a);
            }
            Action::SeedOfAnimosity { card, first, second } => {
                let good = cx.priority(first).is_some() && cx.stance(second) != Stance::Friend;
                if good {
                    consider(25 - value(card), a);
                }
            }
            Action::Balance if v.hand.iter().any(|c| value(*c) <= 2) => {
                consider(10, a);
            }
            _ => {}
        }
    }
    Some(best.map_or(Action::EndPlay, |(_, a)| a))
}

/// How well `seat` stands in an unfinished game, in `[0, 1]`: the share of its side in the
/// table's strength (health, and half a point a card held or worn, of each living player),
/// the Rebels' share raised by the Lord's missing health (the Lord's death is their win), a
/// Spy's halved (it wins only as the last one standing). The three shares add up to 1, and
/// every member of a side gets its side's (before the generals are chosen, each living player
/// counts 1). A finished game scores 1 for a winner, 0 otherwise.
///
/// The searching levels' cutoff scores their playouts with it (registry `Entry::EVALUATE`).
/// It reads the whole state, as an estimate may: the search only calls it on its own
/// determinized copies.
pub fn win_estimate(g: &ThreeKingdoms, seat: Seat) -> f64 {
    if let Some(w) = g.winners() {
        return f64::from(u8::from(w.contains(seat)));
    }
    // Before the generals are chosen nobody has health yet: every living player counts 1.
    let unset = g.players.iter().all(|p| p.hp <= 0);
    let strength = |p: &crate::state::Player| match (p.alive, unset) {
        (false, _) => 0.0,
        (true, true) => 1.0,
        (true, false) => f64::from(p.hp.max(0)) + 0.5 * p.card_count() as f64,
    };
    let lord = &g.players[g.lord.index()];
    let danger = if unset { 0.0 } else { 1.0 - f64::from(lord.hp.max(0)) / f64::from(lord.max_hp.max(1)) };
    let (mut lord_side, mut rebels, mut spies) = (0.0, 0.0, 0.0);
    for p in &g.players {
        match p.role {
            Role::Lord | Role::Loyalist => lord_side += strength(p),
            Role::Rebel => rebels += strength(p) * (1.0 + danger),
            Role::Spy => spies += strength(p) * 0.5,
        }
    }
    let total = lord_side + rebels + spies;
    if total <= 0.0 {
        return 0.0;
    }
    let me = &g.players[seat.index()];
    match me.role {
        Role::Lord | Role::Loyalist => lord_side / total,
        Role::Rebel => rebels / total,
        Role::Spy => strength(me) * 0.5 / total,
    }
}

/// Moves a searching level must never choose while another is legal, judged from `me`'s view
/// (its own role, and the Lord's, which is public): a Loyalist using an Attack, Duel,
/// Dismantle, Stealing Sheep or Acedia on the Lord (its side wins only with the Lord alive),
/// and a Rebel giving the dying Lord a Peach (the Lord's death is the Rebels' win).
pub fn foolish(v: &View, me: Seat, action: &Action) -> bool {
    let Some(role) = v.players.get(me.index()).and_then(|p| p.role) else { return false };
    let Some(lord) = v.players.iter().find(|p| p.role == Some(Role::Lord)).map(|p| p.seat) else { return false };
    match (role, action) {
        (Role::Loyalist, Action::Use { kind, targets, .. }) => {
            matches!(kind, Kind::Attack | Kind::Duel | Kind::Dismantle | Kind::StealingSheep | Kind::Acedia)
                && targets.contains(lord)
        }
        (Role::Loyalist, Action::UseSpear { targets, .. }) => targets.contains(lord),
        (Role::Rebel, Action::Respond { kind: Kind::Peach, .. }) => {
            v.request == Some(Kind::Peach) && v.about == Some((Kind::Peach, lord))
        }
        _ => false,
    }
}
