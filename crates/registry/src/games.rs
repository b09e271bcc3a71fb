//! One entry per game. A new game adds a file here and a line to `games!` in `entry.rs`.

/// The parts of an [`crate::Entry`] every game crate spells the same way, by the layout all
/// game crates share: its bots are `<crate>::BOTS` and `<crate>::bot(name)`, its narration is
/// `<crate>::text::describe_event`. Used inside an `impl Entry`: `by_layout!(buckshot);`.
///
/// A game whose seats do not all take the same bots (Wolf Pack: the Ace's seat is the
/// house's) names the list a line-up may use and its narration of that shape:
/// `by_layout!(wolfpack, bots: PILOT_BOTS, describe: describe_event_for);` (`make_bot` then
/// refuses names outside the list).
macro_rules! by_layout {
    ($krate:ident) => {
        fn bot_names() -> &'static [&'static str] {
            $krate::BOTS
        }

        fn make_bot(name: &str) -> Option<Box<dyn engine::Bot<Self>>> {
            $krate::bot(name)
        }

        fn describe_event(event: &Self::Event, viewer: engine::Viewer, names: &[String]) -> Option<String> {
            $krate::text::describe_event(event, viewer, names)
        }
    };
    ($krate:ident, bots: $bots:ident, describe: $describe:ident) => {
        fn bot_names() -> &'static [&'static str] {
            $krate::$bots
        }

        fn make_bot(name: &str) -> Option<Box<dyn engine::Bot<Self>>> {
            $krate::$bots.contains(&name).then(|| $krate::bot(name)).flatten()
        }

        fn describe_event(event: &Self::Event, viewer: engine::Viewer, names: &[String]) -> Option<String> {
            $krate::text::$describe(event, viewer, names)
        }
    };
}

mod buckshot;
mod ivanhoe;
mod sorcery;
mod three_kingdoms;
mod wolfpack;
