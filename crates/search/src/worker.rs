//! The search itself: [`SearchBot`] spreads a decision over its workers, each of which grows
//! one tree (select, expand, play out, back up) on determinized copies of the observation.

use crate::tree::{NONE, ROOT, Tree};
use crate::{Budget, Playout};
use engine::{Bot, Game, MatchRng, Observation, Outcome, Seat, SeatSet, Viewer, derive_seed};
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
        // The root's foolish moves, unless every move is one.
        let mut banned: Vec<G::Action> = Vec::new();
        if let Some(f) = self.avoid {
            let view = obs.view();
            banned.extend(legal.iter().filter(|a| f(view, me, a)).cloned());
            if banned.len() == legal.len() {
                banned.clear();
            }
        }
        let anchor = match (&self.playout, self.anchor) {
            (Playout::Bot(make), Some(z)) => {
                let a = make().choose(obs, &mut MatchRng::new(derive_seed(seed, u64::MAX)));
                let kept = self.keep.is_none_or(|k| k(&a) || !legal.iter().any(k)) && !banned.contains(&a);
                legal.iter().position(|x| *x == a).filter(|_| kept).map(|i| (i, z))
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
        let banned = &banned[..];
        let iterations: u64 = if threads == 1 {
            let (sample, mut r) = jobs.into_iter().next().expect("one job");
            workers[0].run(&sample, &mut r, me, budget.share(0, 1), deadline, c, keep, cutoff, banned)
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = workers
                    .iter_mut()
                    .zip(jobs)
                    .enumerate()
                    .map(|(t, (w, (sample, mut r)))| {
                        scope.spawn(move || {
                            w.run(&sample, &mut r, me, budget.share(t, threads), deadline, c, keep, cutoff, banned)
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
        let allowed = |i: usize| !banned.contains(&legal[i]);
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

/// One tree and the buffers to grow it, kept between decisions.
struct Worker<G: Game> {
    tree: Tree<G::Action>,
    legal: Vec<G::Action>,
    events: Vec<G::Event>,
    path: Vec<u32>,
    /// For each legal action at the current node, its child (or `NONE`: untried).
    slots: Vec<u32>,
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
        banned: &[G::Action],
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
            self.iterate(sample, rng, me, c, keep, cutoff, banned);
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
        banned: &[G::Action],
    ) {
        let Worker { tree, legal, events, path, slots, rewards, policy } = self;
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
            retain(legal, keep);
            if node == ROOT && !banned.is_empty() && legal.iter().any(|a| !banned.contains(a)) {
                legal.retain(|a| !banned.contains(a));
            }
            slots.clear();
            slots.resize(legal.len(), NONE);
            for child in tree.children(node) {
                let n = tree.node(child);
                if n.seat == seat
                    && let Some(a) = &n.action
                    && let Some(i) = legal.iter().position(|x| x == a)
                {
                    slots[i] = child;
                }
            }
            for &s in slots.iter().filter(|s| **s != NONE) {
                tree.node_mut(s).avail += 1;
            }
            let untried = slots.iter().filter(|s| **s == NONE).count();
            let (i, child, expanded) = if untried > 0 {
                let k = rng.index(untried);
                let i = slots.iter().enumerate().filter(|(_, s)| **s == NONE).nth(k).expect("k < untried").0;
                (i, tree.add_child(node, seat, legal[i].clone()), true)
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
