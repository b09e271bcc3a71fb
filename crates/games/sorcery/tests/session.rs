//! Arbitrary command lines never panic, an `Error:` line never changes the game, and the
//! game's invariants hold throughout.

use engine::Game;
use proptest::prelude::*;
use sorcery::session::{Options, Session};
use sorcery::{CardId, DEFAULT_DECK};

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "play",
            "attack",
            "use",
            "inspect",
            "describe",
            "hand",
            "board",
            "end",
            "draw",
            "discard",
            "help",
            "r",
            "x",
            "-1",
            "0",
            "99999999999",
            "+2",
            "1",
            "2",
            "3",
            "4",
            "5",
            "6",
        ])
        .prop_map(str::to_string),
        "[ -~]{0,6}",
    ]
}

fn every_card() -> Vec<CardId> {
    CardId::ALL.iter().chain(CardId::ALL.iter()).copied().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    #[test]
    fn any_commands_are_safe(
        lines in prop::collection::vec(prop::collection::vec(word(), 0..5), 0..80),
        testing in any::<bool>(),
        all_cards in any::<bool>(),
    ) {
        let args = Options { testing, ..Options::default() };
        let deck = if all_cards { every_card() } else { DEFAULT_DECK.to_vec() };
        let (mut s, _) = Session::new(&args, [deck.clone(), deck], 5).unwrap();
        s.feed("A");
        s.feed("B");
        for words in lines {
            let line = words.join(" ");
            if line.trim() == "quit" || s.is_over() {
                continue;
            }
            let before = s.game().clone();
            let out = s.feed(&line);
            if out.starts_with("Error:") {
                prop_assert_eq!(out.lines().count(), 1);
                prop_assert!(s.game() == &before, "{} changed the game", line);
            }
            prop_assert_eq!(s.game().check_invariants(), Ok(()));
        }
    }
}
