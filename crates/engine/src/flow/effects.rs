//! An effect/trigger queue worked to completion, depth first, with a loop guard.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// What to do after an effect resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Go on with the queue.
    Continue,
    /// Stop and drop what is left (the match just ended).
    Stop,
}

/// The queue ran more steps than its limit allowed: effects kept causing effects. The queue
/// is left as it was at that point, for the game to report and clear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
#[error("the effect queue ran past {limit} steps without settling")]
pub struct LoopGuard {
    pub limit: u32,
}

/// The game's side of [`EffectQueue::run`].
pub trait Resolve<E> {
    /// The queue being worked, kept in the game's state: it is worked in place, so nothing
    /// is moved in or out per run.
    fn queue(&mut self) -> &mut EffectQueue<E>;

    /// Resolves one effect. Follow-ups go into `then`, first to resolve first; they resolve
    /// completely before anything queued earlier.
    fn resolve(&mut self, effect: E, then: &mut Vec<E>) -> Control;

    /// A state check run before each effect is taken, and once more whenever the queue runs
    /// dry (deaths at 0 defence and the like). Effects put in `then` resolve next. The
    /// default checks nothing.
    fn check(&mut self, then: &mut Vec<E>) {
        let _ = then;
    }
}

/// Effects waiting to resolve. Plain data; keep it in the state (usually empty between
/// actions) so buffers are reused and a state caught mid-resolution still clones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EffectQueue<E> {
    /// The last element resolves next.
    stack: Vec<E>,
    /// The follow-ups of one step, kept between runs so working the queue does not allocate
    /// once warm. Always empty outside [`EffectQueue::run`].
    #[serde(skip)]
    then: Vec<E>,
}

impl<E> Default for EffectQueue<E> {
    fn default() -> Self {
        EffectQueue { stack: Vec::new(), then: Vec::new() }
    }
}

impl<E> EffectQueue<E> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_capacity(n: usize) -> Self {
        EffectQueue { stack: Vec::with_capacity(n), then: Vec::with_capacity(n) }
    }

    pub fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }

    pub fn len(&self) -> usize {
        self.stack.len()
    }

    pub fn clear(&mut self) {
        self.stack.clear();
    }

    /// Queues `effects` ahead of everything queued so far; the first of them resolves next.
    pub fn schedule(&mut self, effects: impl IntoIterator<Item = E, IntoIter: DoubleEndedIterator>) {
        self.stack.extend(effects.into_iter().rev());
    }

    /// Queues `effects` with [`schedule`](Self::schedule)'s order, taking them out of `from`
    /// (which keeps its capacity).
    #[inline]
    pub fn schedule_from(&mut self, from: &mut Vec<E>) {
        // Usually none or one: a plain loop beats setting up a draining iterator.
        while let Some(e) = from.pop() {
            self.stack.push(e);
        }
    }

    /// Queues what `push` pushes, in [`schedule`](Self::schedule)'s order (the first pushed
    /// resolves next), without a buffer of its own: for effects gathered by a loop.
    pub fn schedule_with<T>(&mut self, push: impl FnOnce(&mut Vec<E>) -> T) -> T {
        let start = self.stack.len();
        let r = push(&mut self.stack);
        self.stack[start..].reverse();
        r
    }

    /// The effects in the order they would resolve if nothing were added.
    pub fn iter(&self) -> impl Iterator<Item = &E> {
        self.stack.iter().rev()
    }

    /// Works `game`'s queue ([`Resolve::queue`]) until it is empty (checking the state before
    /// each step and once it runs dry) or `game` says stop (the rest is dropped). Returns the
    /// number of effects resolved; more than `limit` is a [`LoopGuard`] error.
    #[inline]
    pub fn run<R: Resolve<E> + ?Sized>(game: &mut R, limit: u32) -> Result<u32, LoopGuard> {
        // The follow-up buffer leaves the queue while `resolve` may reach the queue through
        // `game`; it goes back, with its capacity, at the end.
        let mut then = std::mem::take(&mut game.queue().then);
        let result = Self::work(game, limit, &mut then);
        then.clear();
        game.queue().then = then;
        result
    }

    #[inline]
    fn work<R: Resolve<E> + ?Sized>(game: &mut R, limit: u32, then: &mut Vec<E>) -> Result<u32, LoopGuard> {
        let mut steps = 0u32;
        loop {
            game.check(then);
            let queue = game.queue();
            queue.schedule_from(then);
            let Some(effect) = queue.stack.pop() else { return Ok(steps) };
            if steps == limit {
                queue.stack.push(effect);
                return Err(LoopGuard { limit });
            }
            steps += 1;
            let control = game.resolve(effect, then);
            let queue = game.queue();
            queue.schedule_from(then);
            if control == Control::Stop {
                queue.stack.clear();
                return Ok(steps);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy game: `Split(n)` becomes two `Split(n - 1)`, `Split(0)` scores a point.
    #[derive(Default)]
    struct Toy {
        queue: EffectQueue<Fx>,
        log: Vec<String>,
        score: u32,
        stop_at: Option<u32>,
        armed: Vec<&'static str>,
    }

    #[derive(Clone, Debug, PartialEq, Serialize)]
    enum Fx {
        Split(u8, &'static str),
        Say(&'static str),
        Forever,
    }

    impl Resolve<Fx> for Toy {
        fn queue(&mut self) -> &mut EffectQueue<Fx> {
            &mut self.queue
        }

        fn resolve(&mut self, effect: Fx, then: &mut Vec<Fx>) -> Control {
            match effect {
                Fx::Split(0, name) => {
                    self.score += 1;
                    self.log.push(name.to_string());
                }
                Fx::Split(n, name) => then.extend([Fx::Split(n - 1, name), Fx::Split(n - 1, name)]),
                Fx::Say(s) => self.log.push(s.to_string()),
                Fx::Forever => then.push(Fx::Forever),
            }
            if self.stop_at == Some(self.score) { Control::Stop } else { Control::Continue }
        }

        fn check(&mut self, then: &mut Vec<Fx>) {
            then.extend(self.armed.drain(..).map(Fx::Say));
        }
    }

    /// A toy holding `effects` on its queue.
    fn holding(effects: impl IntoIterator<Item = Fx, IntoIter: DoubleEndedIterator>) -> Toy {
        let mut toy = Toy::default();
        toy.queue.schedule(effects);
        toy
    }

    #[test]
    fn follow_ups_resolve_before_what_was_queued() {
        let mut toy = holding([Fx::Say("a"), Fx::Split(1, "b"), Fx::Say("c")]);
        assert_eq!(toy.queue.iter().cloned().collect::<Vec<_>>(), vec![Fx::Say("a"), Fx::Split(1, "b"), Fx::Say("c")]);
        assert_eq!(EffectQueue::run(&mut toy, 100), Ok(5));
        assert_eq!(toy.log, ["a", "b", "b", "c"]);
        assert!(toy.queue.is_empty());
    }

    #[test]
    fn state_checks_run_before_each_step_and_when_dry() {
        let mut toy = Toy { armed: vec!["checked"], ..holding([Fx::Say("queued")]) };
        assert_eq!(EffectQueue::run(&mut toy, 10), Ok(2));
        assert_eq!(toy.log, ["checked", "queued"]);
        // An empty queue still runs its check once, and works what it finds.
        let mut toy = Toy { armed: vec!["late"], ..Toy::default() };
        assert_eq!(EffectQueue::run(&mut toy, 10), Ok(1));
        assert_eq!(toy.log, ["late"]);
    }

    #[test]
    fn stop_drops_the_rest() {
        let mut toy = Toy { stop_at: Some(2), ..holding([Fx::Split(3, "x"), Fx::Say("never")]) };
        assert_eq!(EffectQueue::run(&mut toy, 100), Ok(5));
        assert_eq!(toy.score, 2);
        assert!(toy.queue.is_empty());
    }

    #[test]
    fn the_loop_guard_is_an_error_not_a_hang() {
        let mut toy = holding([Fx::Forever]);
        assert_eq!(EffectQueue::run(&mut toy, 50), Err(LoopGuard { limit: 50 }));
        assert_eq!(toy.queue.len(), 1, "the effect that would have run is left on the queue");
        // A queue that needs exactly `limit` steps is fine.
        assert_eq!(EffectQueue::run(&mut holding([Fx::Split(2, "y")]), 7), Ok(7));
    }

    #[test]
    fn a_queue_is_plain_data() {
        let mut q = EffectQueue::with_capacity(4);
        q.schedule([Fx::Say("a"), Fx::Forever]);
        let json = serde_json::to_string(&q).unwrap();
        assert_eq!(json, r#"["Forever",{"Say":"a"}]"#);
        assert_eq!(q.clone(), q);
        let mut q = EffectQueue::new();
        let n = q.schedule_with(|fx| {
            fx.extend([Fx::Say("first"), Fx::Say("second")]);
            fx.len()
        });
        assert_eq!(n, 2);
        assert_eq!(q.iter().next(), Some(&Fx::Say("first")));
    }
}
