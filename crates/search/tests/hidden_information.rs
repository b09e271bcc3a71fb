//! A search bot never reads hidden state: at each of its decisions in whole games, the same
//! bot with the same RNG and iteration budget chooses the same action when everything its seat
//! cannot see is resampled (engine::testing::bot_ignores_hidden_information).

use engine::testing::bot_ignores_hidden_information;
use engine::{Bot, Game};
use search::{Budget, Playout, SearchBot};

fn search<G: Game>(iterations: u64) -> Box<dyn Bot<G>> {
    Box::new(SearchBot::<G>::new(Budget::iterations(iterations)))
}

#[test]
fn buckshot_search_ignores_hidden_information() {
    for players in [2, 4] {
        let config = buckshot::Config::players(players);
        let checked = bot_ignores_hidden_information::<buckshot::Buckshot>(&config, 6, &|| search(300));
        assert!(checked > 100, "{checked} decisions");
    }
}

#[test]
fn buckshot_search_with_heuristic_playouts_ignores_hidden_information() {
    let config = buckshot::Config::players(3);
    let make = || -> Box<dyn Bot<buckshot::Buckshot>> {
        Box::new(
            SearchBot::new(Budget::iterations(100))
                .playout(Playout::bot(|| buckshot::bot("heuristic").expect("heuristic"))),
        )
    };
    assert!(bot_ignores_hidden_information::<buckshot::Buckshot>(&config, 3, &make) > 30);
}

#[test]
// The game's `determinize` sorts its pool of hidden cards before the shuffle, so the copy
// depends only on the view and the RNG, not on how the hidden cards really lie.
fn ivanhoe_search_ignores_hidden_information() {
    let config = ivanhoe::Config { players: 3 };
    let checked = bot_ignores_hidden_information::<ivanhoe::Ivanhoe>(&config, 3, &|| search(200));
    assert!(checked > 100, "{checked} decisions");
}

#[test]
// The game's `determinize` sorts its pool of hidden cards before the shuffle, so the copy
// depends only on the view and the RNG, not on how the hidden cards really lie.
fn sorcery_search_ignores_hidden_information() {
    let config = sorcery::Config::default();
    let checked = bot_ignores_hidden_information::<sorcery::Sorcery>(&config, 2, &|| search(200));
    assert!(checked > 100, "{checked} decisions");
}

/// Sorcery's levels cut their playouts and score them with the game's estimate, which reads
/// the determinized copy: still blind to what the seat cannot see.
#[test]
fn sorcery_cutoff_search_ignores_hidden_information() {
    let config = sorcery::Config::default();
    let make = || -> Box<dyn Bot<sorcery::Sorcery>> {
        Box::new(SearchBot::new(Budget::iterations(200)).cutoff(12, std::sync::Arc::new(sorcery::bots::win_estimate)))
    };
    let checked = bot_ignores_hidden_information::<sorcery::Sorcery>(&config, 2, &make);
    assert!(checked > 100, "{checked} decisions");
}
