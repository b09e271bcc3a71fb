//! The search itself: [`SearchBot`] spreads a decision over its workers, each of which grows
//! one tree (select, expand, play out, back up) on determinized copies of the observation.

use crate::tree::{NONE, ROOT, Tree};
use crate::{Budget, Playout};
use engine::{Bot, Game, MatchRng, Observation, Outcome, Seat, SeatSet, Viewer, derive_seed};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A game's estimate of how well `seat` stands in an unfinished game, in `[0, 1]` (1: as good
/// as won; the estimates of all seats should add up to about 1). It may read the whole state:
/// the search only ever evaluates its own determinized copies.
pub type Evaluator<G> = Arc<dyn Fn(&G, Seat) -> f64 + Send + Sync>;

/// A game's list of foolish moves: whether `action` of `seat` is one, judged from the seat's
/// own view (Sorcery: silencing one's own minion; Wolf Pack: healing a pilot at full
/// health). See [`SearchBot::avoid`].
pub type Foolish<G> = fn(&<G as Game>::View, Seat, &<G as Game>::Action) -> bool;

/// Where playouts stop and what scores them then (see [`SearchBot::cutoff`]).
#[derive(Clone)]
struct Cutoff<G: Game> {
    moves: u32,
    evaluate: Evaluator<G>,
}

/// The UCB1 exploration constant for rewards in `[0, 1]` (the value ISMCTS papers settle on).
pub const DEFAULT_EXPLORATION: f64 = 0.7;

/// What the last decision cost and how the root's visits fell.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Iterations over all workers.
    pub iterations: u64,
    /// Tree nodes over all workers.
    pub nodes: u64,
    /// Visits of each root action, in the order of `obs.legal()`.
    pub root_visits: Vec<u64>,
    pub elapsed: Duration,
}

/// The information-set MCTS bot (see the crate documentation).
pub struct SearchBot<G: Game> {
    budget: Budget,
    threads: usize,
    playout: Playout<G>,
    exploration: f64,
    cutoff: Option<Cutoff<G>>,
    workers: Vec<Worker<G>>,
    stats: SearchStats,
    keep: Option<fn(&G::Action) -> bool>,
    anchor: Option<f64>,
    avoid: Option<Foolish<G>>,
}

impl<G: Game> SearchBot<G> {
    /// A single-threaded search with random playouts.
    ///
    /// # Panics
    /// If the budget sets neither iterations nor time.
    pub fn new(budget: Budget) -> Self {
        assert!(budget.iterations.is_some() || budget.time.is_some(), "a search budget needs iterations or time");
        SearchBot {
            budget,
            threads: 1,
            playout: Playout::Random,
            exploration: DEFAULT_EXPLORATION,
            cutoff: None,
            workers: Vec::new(),
            stats: SearchStats::default(),
            keep: None,
            anchor: None,
            avoid: None,
        }
    }

    /// Searches only the actions `keep` accepts (at every node, and in random playouts),
    /// unless it accepts none of a list. For actions that change nothing but the mover's own
    /// pending choice (Wolf Pack's unconfirmed selections): the search would spend moves and
    /// iterations on them, and a seat that may act again right away can wander.
    pub fn keep(mut self, keep: fn(&G::Action) -> bool) -> Self {
        self.keep = Some(keep);
        self
    }

    /// Anchors the choice on the playout bot's (with a [`Playout::Bot`]): the search plays
    /// another root action only when its mean reward beats the bot's choice by more than `z`
    /// standard errors. A small budget in a long, noisy game ranks its root actions mostly by
    /// luck; this keeps the bot's judgement unless the search has evidence against it.
    pub fn anchor(mut self, z: f64) -> Self {
        self.anchor = Some(z);
        self
    }

    /// Never chooses a root action `foolish` marks (a move a clearly better one beats, which a
    /// small budget in a noisy game may still rank first), unless every legal action is one:
    /// the search leaves them out of its root and the choice.
    pub fn avoid(mut self, foolish: Foolish<G>) -> Self {
        self.avoid = Some(foolish);
        self
    }

    /// Root parallelism over `threads` OS threads (at least 1).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    pub fn playout(mut self, playout: Playout<G>) -> Self {
        self.playout = playout;
        self.workers.clear();
        self
    }

    /// The UCB1 constant `c` in `mean + c * sqrt(ln(available) / visits)`.
    pub fn exploration(mut self, c: f64) -> Self {
        self.exploration = c;
        self
    }

    /// Playouts stop after `moves` moves (counted from the new leaf) and, if the game has not
    /// ended by then, each seat scores `evaluate`'s estimate instead of a win or a loss: shorter
    /// playouts, and a signal that is less noisy than the end of a random game where the game
    /// knows how to judge a position. `moves == 0` plays to the end, as without a cutoff.
    pub fn cutoff(mut self, moves: u32, evaluate: Evaluator<G>) -> Self {
        self.cutoff = (moves > 0).then_some(Cutoff { moves, evaluate });
        self
    }

    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Statistics of the last decision that searched (one with a single legal action does not).
    pub fn stats(&self) -> &SearchStats {
        &self.stats
    }

    /// Searches and returns the chosen action's index in `obs.legal()`.
    pub fn search(&mut self, obs: &Observation<'_, G>, rng: &mut MatchRng) -> usize {
        let legal = obs.legal();
        let start = Instant::now();
        let seed = rng.next_u64();
        let me = obs.seat();
        let threads = self.threads;
        while self.workers.len() < threads {
            self.workers.push(Worker::new(&self.playout));
        }
        // Each worker's root sample is drawn here, because the observation stays on this
        // thread; a worker then resamples from its sample, which is a state consistent with
        // the same view and so gives the same distribution of determinizations.
        // The anchor is asked before the search, from its own stream derived from the seed.
        // The root's foolish moves, unless every move is one, as a mask over `legal` (a wide
        // root, a Three Kingdoms hand of 78 cards and its 3,003 Serpent Spear pairs, bans
        // thousands: every test against them is by index, never a search of the list).
        let mut ban = vec![false; legal.len()];
        if let Some(f) = self.avoid {
            let view = obs.view();
            for (b, a) in ban.iter_mut().zip(legal) {
                *b = f(view, me, a);
            }
            if ban.iter().all(|b| *b) {
                ban.fill(false);
            }
        }
        // What the root searches when a determinization lists `legal` (the acting seat knows its
        // own moves, so every one should): `retain`'s `keep`, then without the banned moves
        // unless that leaves none. `iterate` recomputes this only for a list that differs.
        let root = Root {
            legal,
            candidates: root_candidates(legal, self.keep, &ban),
            banned: legal.iter().zip(&ban).filter(|(_, b)| **b).map(|(a, _)| a.clone()).collect(),
        };
        let anchor = match (&self.playout, self.anchor) {
            (Playout::Bot(make), Some(z)) => {
                let a = make().choose(obs, &mut MatchRng::new(derive_seed(seed, u64::MAX)));
                let kept = self.keep.is_none_or(|k| k(&a) || !legal.iter().any(k));
                legal.iter().position(|x| *x == a).filter(|&i| kept && !ban[i]).map(|i| (i, z))
            }
            _ => None,
        };
        let keep = self.keep;
        let jobs: Vec<(G, MatchRng)> = (0..threads)
            .map(|t| {
                let mut r = MatchRng::new(derive_seed(seed, t as u64));
                (obs.determinize(&mut r), r)
            })
            .collect();
        let deadline = self.budget.time.map(|d| start + d);
        let (budget, c, cutoff) = (self.budget, self.exploration, self.cutoff.as_ref());
        let workers = &mut self.workers[..threads];
        let root = &root;
        let iterations: u64 = if threads == 1 {
            let (sample, mut r) = jobs.into_iter().next().expect("one job");
            workers[0].run(&sample, &mut r, me, budget.share(0, 1), deadline, c, keep, cutoff, root)
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = workers
                    .iter_mut()
                    .zip(jobs)
                    .enumerate()
                    .map(|(t, (w, (sample, mut r)))| {
                        scope.spawn(move || {
                            w.run(&sample, &mut r, me, budget.share(t, threads), deadline, c, keep, cutoff, root)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a search worker panicked")).sum()
            })
        };
        let mut visits = vec![0u64; legal.len()];
        let mut rewards = vec![0f64; legal.len()];
        let mut nodes = 0;
        for w in workers.iter() {
            nodes += w.tree.nodes.len() as u64;
            for child in w.tree.children(ROOT) {
                let n = w.tree.node(child);
                if let Some(i) = legal.iter().position(|a| n.action.as_ref() == Some(a)) {
                    visits[i] += u64::from(n.visits);
                    rewards[i] += n.reward;
                }
            }
        }
        // The most visited; the first in the legal list among equals; never a banned one.
        let allowed = |i: usize| !ban[i];
        let first = (0..legal.len()).find(|&i| allowed(i)).unwrap_or(0);
        let mut best =
            visits.iter().enumerate().fold(first, |b, (i, v)| if *v > visits[b] && allowed(i) { i } else { b });
        if let Some((h, z)) = anchor
            && best != h
            && !beats(visits[best], rewards[best], visits[h], rewards[h], z)
        {
            best = h;
        }
        self.stats = SearchStats { iterations, nodes, root_visits: visits, elapsed: start.elapsed() };
        best
    }
}

impl<G: Game> Bot<G> for SearchBot<G> {
    fn choose(&mut self, obs: &Observation<'_, G>, rng: &mut MatchRng) -> G::Action {
        let legal = obs.legal();
        if legal.len() == 1 {
            return legal[0].clone();
        }
        let i = self.search(obs, rng);
        legal[i].clone()
    }
}

/// The root of a decision: its legal list (the observation's), the actions the search tries
/// there when a determinization lists the same, and the banned ones (foolish), for one that
/// does not.
struct Root<'a, A> {
    legal: &'a [A],
    candidates: Vec<A>,
    banned: Vec<A>,
}

/// One tree and the buffers to grow it, kept between decisions.
struct Worker<G: Game> {
    tree: Tree<G::Action>,
    legal: Vec<G::Action>,
    events: Vec<G::Event>,
    path: Vec<u32>,
    /// For each legal action at the current node, its child (or `NONE`: untried).
    slots: Vec<u32>,
    /// The children that were not where their hint said, and an index of a wide list (see
    /// `find_children`).
    missed: Vec<u32>,
    index: HashMap<G::Action, u32, BuildHasherDefault<FxHasher>>,
    rewards: Vec<f64>,
    policy: Option<Box<dyn Bot<G>>>,
}

impl<G: Game> Worker<G> {
    fn new(playout: &Playout<G>) -> Self {
        Worker {
            tree: Tree::new(),
            legal: Vec::with_capacity(64),
            events: Vec::with_capacity(32),
            path: Vec::with_capacity(64),
            slots: Vec::with_capacity(64),
            missed: Vec::with_capacity(64),
            index: HashMap::default(),
            rewards: Vec::with_capacity(8),
            policy: playout.instance(),
        }
    }

    /// Grows a fresh tree for `me` from `sample` until `share` iterations are done or the
    /// deadline passes (at least one iteration either way). Returns the iterations run.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        sample: &G,
        rng: &mut MatchRng,
        me: Seat,
        share: Option<u64>,
        deadline: Option<Instant>,
        c: f64,
        keep: Option<fn(&G::Action) -> bool>,
        cutoff: Option<&Cutoff<G>>,
        root: &Root<'_, G::Action>,
    ) -> u64 {
        self.tree.reset(me);
        let mut done = 0;
        loop {
            if share.is_some_and(|n| done >= n) {
                break;
            }
            // The clock costs tens of nanoseconds, an iteration microseconds: look every time.
            if done > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            self.iterate(sample, rng, me, c, keep, cutoff, root);
            done += 1;
        }
        done
    }

    #[allow(clippy::too_many_arguments)]
    fn iterate(
        &mut self,
        sample: &G,
        rng: &mut MatchRng,
        me: Seat,
        c: f64,
        keep: Option<fn(&G::Action) -> bool>,
        cutoff: Option<&Cutoff<G>>,
        root: &Root<'_, G::Action>,
    ) {
        let Worker { tree, legal, events, path, slots, missed, index, rewards, policy } = self;
        let mut state = sample.determinize(Viewer::seat(me), rng);
        let limit = state.step_limit();
        let mut steps: usize = 0;
        path.clear();
        path.push(ROOT);
        let mut node = ROOT;

        // Selection, then the expansion of one untried action.
        loop {
            let seat = if node == ROOT {
                me
            } else if state.outcome().is_some() {
                break;
            } else {
                match actor(state.to_act(), me) {
                    Some(s) => s,
                    None => break,
                }
            };
            legal.clear();
            state.legal_actions_into(seat, legal);
            if legal.is_empty() {
                break;
            }
            if node != ROOT {
                retain(legal, keep);
            } else if legal[..] == root.legal[..] {
                legal.clone_from(&root.candidates);
            } else {
                retain(legal, keep);
                let banned = &root.banned;
                if !banned.is_empty() && legal.iter().any(|a| !banned.contains(a)) {
                    legal.retain(|a| !banned.contains(a));
                }
            }
            slots.clear();
            slots.resize(legal.len(), NONE);
            find_children(tree, node, seat, legal, slots, missed, index);
            for &s in slots.iter().filter(|s| **s != NONE) {
                tree.node_mut(s).avail += 1;
            }
            let untried = slots.iter().filter(|s| **s == NONE).count();
            let (i, child, expanded) = if untried > 0 {
                let k = rng.index(untried);
                let i = slots.iter().enumerate().filter(|(_, s)| **s == NONE).nth(k).expect("k < untried").0;
                (i, tree.add_child(node, seat, legal[i].clone(), i as u32), true)
            } else {
                let i = best_ucb(tree, slots, c);
                (i, slots[i], false)
            };
            state.apply_quiet(seat, legal[i].clone(), events).expect("a listed action is legal");
            steps += 1;
            path.push(child);
            node = child;
            if expanded {
                break;
            }
        }

        // Playout, in the order `engine::play_out` uses, to the end or to the cutoff.
        let stop = cutoff.map_or(usize::MAX, |k| steps.saturating_add(k.moves as usize));
        while steps < limit && steps < stop && state.outcome().is_none() {
            let Some(seat) = state.to_act().first() else { break };
            legal.clear();
            state.legal_actions_into(seat, legal);
            if legal.is_empty() {
                break;
            }
            let action = match policy {
                None => {
                    retain(legal, keep);
                    rng.pick(legal).clone()
                }
                Some(bot) => bot.choose(&Observation::new(&state, seat, legal), rng),
            };
            state.apply_quiet(seat, action, events).expect("the playout policy chose a legal action");
            steps += 1;
        }

        // Backup: each node scores the reward of the seat that moved into it.
        let (outcome, n) = (state.outcome(), state.num_seats());
        rewards.clear();
        match cutoff {
            Some(k) if outcome.is_none() && steps >= stop => {
                rewards.extend(Seat::all(n).map(|s| (k.evaluate)(&state, s).clamp(0.0, 1.0)));
            }
            _ => rewards.extend(Seat::all(n).map(|s| reward(outcome.as_ref(), s, n))),
        }
        for &id in path.iter() {
            let n = tree.node_mut(id);
            n.visits += 1;
            n.reward += rewards.get(n.seat.index()).copied().unwrap_or(0.0);
        }
    }
}

/// A small fast hasher for the index of a legal list (the Fx hash: a rotate, an xor and a
/// multiply per word). Actions are a few bytes, and the index is rebuilt on every visit of a
/// wide node: SipHash's resistance to chosen keys buys nothing here.
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Fills `slots` (one per entry of `legal`, `NONE` already) with the children of `node` that
/// `seat`'s actions in `legal` lead to.
fn find_children<A: Clone + Eq + Hash>(
    tree: &mut Tree<A>,
    node: u32,
    seat: Seat,
    legal: &[A],
    slots: &mut [u32],
    missed: &mut Vec<u32>,
    index: &mut HashMap<A, u32, BuildHasherDefault<FxHasher>>,
) {
    // Each child is looked for first where it was found last time: the lists of a node
    // mostly come in the same order. The others (an opponent's node, whose list changes
    // with each determinization's hand) are looked up in an index of the list when it is
    // wide (a hoarded hand lists thousands of Serpent Spear pairs), so a visit costs the
    // list once, not its product with the children.
    missed.clear();
    let mut next = tree.node(node).first_child;
    while next != NONE {
        let child = next;
        let n = tree.node_mut(child);
        next = n.next_sibling;
        if n.seat != seat {
            continue;
        }
        let Some(a) = &n.action else { continue };
        if legal.get(n.hint as usize) == Some(a) {
            slots[n.hint as usize] = child;
        } else {
            missed.push(child);
        }
    }
    let wide = missed.len() * legal.len() > 4096;
    if wide {
        index.clear();
        for (i, a) in legal.iter().enumerate() {
            index.entry(a.clone()).or_insert(i as u32);
        }
    }
    for &child in missed.iter() {
        let n = tree.node_mut(child);
        let a = n.action.as_ref().expect("a child has an action");
        let found = if wide { index.get(a).map(|&i| i as usize) } else { legal.iter().position(|x| x == a) };
        if let Some(i) = found {
            slots[i] = child;
            n.hint = i as u32;
        }
    }
}

/// The root's candidates: what `iterate` makes of a root list equal to `legal` (`retain` with
/// `keep`, then without the moves `ban` marks unless that leaves none), by index in one pass.
fn root_candidates<A: Clone>(legal: &[A], keep: Option<fn(&A) -> bool>, ban: &[bool]) -> Vec<A> {
    let kept: Vec<bool> = match keep {
        Some(k) if legal.iter().any(k) => legal.iter().map(k).collect(),
        _ => vec![true; legal.len()],
    };
    let unbanned = (0..legal.len()).any(|i| kept[i] && !ban[i]);
    (0..legal.len()).filter(|&i| kept[i] && (!ban[i] || !unbanned)).map(|i| legal[i].clone()).collect()
}

/// Keeps the actions `keep` accepts, unless it accepts none.
fn retain<A>(legal: &mut Vec<A>, keep: Option<fn(&A) -> bool>) {
    if let Some(k) = keep
        && legal.iter().any(k)
    {
        legal.retain(k);
    }
}

/// Whether action `a` (`na` visits, rewards summing to `ra`) beats action `b` by more than `z`
/// standard errors of the difference of their means (a pooled Bernoulli variance). An action
/// never visited beats nothing and is beaten by nothing.
fn beats(na: u64, ra: f64, nb: u64, rb: f64, z: f64) -> bool {
    if na == 0 || nb == 0 {
        return false;
    }
    let (na, nb) = (na as f64, nb as f64);
    let p = ((ra + rb) / (na + nb)).clamp(0.0, 1.0);
    let se = (p * (1.0 - p) * (1.0 / na + 1.0 / nb)).sqrt();
    ra / na - rb / nb > z * se
}

/// Who moves at a tree node: the observer if it is among those to act, else the lowest seat.
fn actor(to_act: SeatSet, me: Seat) -> Option<Seat> {
    if to_act.contains(me) { Some(me) } else { to_act.first() }
}

/// 1 for a winner, 0 for a loser, `1/n` to everyone when nobody won or the playout was cut.
fn reward(outcome: Option<&Outcome>, seat: Seat, n: usize) -> f64 {
    match outcome {
        Some(o) if !o.winners.is_empty() => f64::from(u8::from(o.winners.contains(seat))),
        _ => 1.0 / n as f64,
    }
}

/// The slot whose child has the best UCB1 score (the first among equals). Every slot is filled.
fn best_ucb<A>(tree: &Tree<A>, slots: &[u32], c: f64) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, &s) in slots.iter().enumerate() {
        let n = tree.node(s);
        let visits = f64::from(n.visits.max(1));
        let score = n.reward / visits + c * (f64::from(n.avail).ln() / visits).sqrt();
        if score > best.1 {
            best = (i, score);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_observer_acts_first_among_several() {
        let set: SeatSet = [Seat(0), Seat(2), Seat(3)].into_iter().collect();
        assert_eq!(actor(set, Seat(2)), Some(Seat(2)));
        assert_eq!(actor(set, Seat(1)), Some(Seat(0)));
        assert_eq!(actor(SeatSet::EMPTY, Seat(1)), None);
    }

    /// Children are found where `position` finds them, by their hints or by the index of a
    /// wide list, however the list is reordered between visits.
    #[test]
    fn children_are_found_in_any_order() {
        let mut tree: Tree<u32> = Tree::new();
        tree.reset(Seat(0));
        let mut rng = MatchRng::new(5);
        for a in 0..300u32 {
            tree.add_child(ROOT, Seat(if a % 7 == 0 { 1 } else { 0 }), a * 3, 0);
        }
        let (mut missed, mut index) = (Vec::new(), HashMap::default());
        for width in [10usize, 100, 2_000] {
            for _ in 0..3 {
                let mut legal: Vec<u32> = (0..width as u32).collect();
                rng.shuffle(&mut legal);
                let mut slots = vec![NONE; legal.len()];
                find_children(&mut tree, ROOT, Seat(0), &legal, &mut slots, &mut missed, &mut index);
                let mut want = vec![NONE; legal.len()];
                for child in tree.children(ROOT).collect::<Vec<_>>() {
                    let n = tree.node(child);
                    if let (Seat(0), Some(a)) = (n.seat, &n.action)
                        && let Some(i) = legal.iter().position(|x| x == a)
                    {
                        want[i] = child;
                    }
                }
                assert_eq!(slots, want, "width {width}");
            }
        }
    }

    /// The one-pass candidates match the list filters they replace (`retain`, then the
    /// banned moves left out unless none would be left), over every keep and ban of a list.
    #[test]
    fn root_candidates_are_the_filtered_list() {
        let legal: Vec<i32> = (0..6).collect();
        type Keep = Option<fn(&i32) -> bool>;
        let keeps: [Keep; 4] = [None, Some(|x: &i32| x % 2 == 0), Some(|x: &i32| *x > 10), Some(|x: &i32| *x < 2)];
        for keep in keeps {
            for mask in 0..(1u32 << legal.len()) {
                let ban: Vec<bool> = (0..legal.len()).map(|i| mask & (1 << i) != 0).collect();
                let banned: Vec<i32> = legal.iter().zip(&ban).filter(|(_, b)| **b).map(|(a, _)| *a).collect();
                let mut want = legal.clone();
                retain(&mut want, keep);
                if want.iter().any(|a| !banned.contains(a)) {
                    want.retain(|a| !banned.contains(a));
                }
                assert_eq!(root_candidates(&legal, keep, &ban), want, "mask {mask:06b}");
            }
        }
    }

    #[test]
    fn keep_leaves_out_unless_it_would_leave_nothing() {
        let mut v = vec![1, 2, 3, 4];
        retain(&mut v, Some(|x: &i32| x % 2 == 0));
        assert_eq!(v, vec![2, 4]);
        retain(&mut v, Some(|x: &i32| *x > 10));
        assert_eq!(v, vec![2, 4]);
        retain(&mut v, None);
        assert_eq!(v, vec![2, 4]);
    }

    #[test]
    fn the_anchor_gives_way_only_to_evidence() {
        // 60% against 50% over 20 visits each is noise; over 2,000 each it is not.
        assert!(!beats(20, 12.0, 20, 10.0, 1.5));
        assert!(beats(2_000, 1_200.0, 2_000, 1_000.0, 1.5));
        assert!(!beats(2_000, 1_000.0, 2_000, 1_200.0, 1.5));
        assert!(!beats(0, 0.0, 10, 5.0, 1.5));
        assert!(!beats(10, 5.0, 0, 0.0, 1.5));
    }

    #[test]
    fn rewards() {
        let won = Outcome::winner(Seat(1));
        assert_eq!(reward(Some(&won), Seat(1), 3), 1.0);
        assert_eq!(reward(Some(&won), Seat(0), 3), 0.0);
        assert_eq!(reward(Some(&Outcome { winners: SeatSet::EMPTY }), Seat(0), 4), 0.25);
        assert_eq!(reward(None, Seat(0), 2), 0.5);
    }
}
