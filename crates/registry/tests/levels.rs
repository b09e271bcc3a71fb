//! Every game offers the four levels by name, besides its own bots.

use engine::{MatchRng, Observation};
use registry::{Entry, GameKind, GameVisitor};
use search::Level;

/// Each level of the game, asked for the first few decisions of a heuristic game, answers one
/// of the legal actions; the searching levels answer within their time cap.
struct LevelsPlay;

impl GameVisitor for LevelsPlay {
    type Out = ();
    fn visit<G: Entry>(self) {
        for name in Level::NAMES {
            assert!(!G::bot_names().contains(name), "{}: a bot of its own is called `{name}`", G::TITLE);
            let mut bot = registry::bot::<G>(name).unwrap_or_else(|e| panic!("{e}"));
            let mut heuristic = registry::bot::<G>("heuristic").expect("every game has a heuristic");
            let mut game = G::new(&G::default_config(), 5).expect("setup");
            let mut rng = MatchRng::new(9);
            for step in 0..6 {
                let Some(seat) = game.to_act().first() else { break };
                let legal = game.legal_actions(seat);
                let obs = Observation::new(&game, seat, &legal);
                let action = match game.house_bot(seat) {
                    Some(mut house) => house.choose(&obs, &mut rng),
                    None if step % 2 == 0 => bot.choose(&obs, &mut rng),
                    None => heuristic.choose(&obs, &mut rng),
                };
                assert!(legal.contains(&action), "{} {name}: an illegal action", G::TITLE);
                game.apply(seat, action).expect("legal");
            }
        }
        let e = registry::bot::<G>("grandmaster").err().expect("not a bot").to_string();
        assert!(e.contains("levels: easy, medium, hard, expert"), "{e}");
    }
}

#[test]
fn every_game_offers_every_level() {
    for &kind in GameKind::ALL {
        kind.visit(LevelsPlay);
        assert_eq!(kind.info().levels, Level::NAMES);
    }
}

/// The house's tiers a ladder rates are the game's own, each accepted by its option.
struct HouseTiers;

impl GameVisitor for HouseTiers {
    type Out = Option<Vec<String>>;
    fn visit<G: Entry>(self) -> Self::Out {
        let (key, tiers) = G::HOUSE_TIERS?;
        for t in tiers {
            let mut config = G::default_config();
            G::set_option(&mut config, key, t).unwrap_or_else(|e| panic!("{}: {e}", G::TITLE));
        }
        Some(tiers.iter().map(|t| t.to_string()).collect())
    }
}

#[test]
fn house_tiers_are_the_games_own() {
    for &kind in GameKind::ALL {
        let tiers = kind.visit(HouseTiers);
        if kind == GameKind::WolfPack {
            let names: Vec<String> = wolfpack::AceTier::ALL.iter().map(|t| t.name().to_string()).collect();
            assert_eq!(tiers, Some(names));
        } else {
            assert_eq!(tiers, None, "{}", kind.title());
        }
    }
}

/// Wins of three pilots at `level` (a level or bot name) against the rookie Ace, over `fights`.
fn wolfpack_wins(level: &str, fights: u64) -> u64 {
    use engine::{Game, Seat, derive_seed};
    use wolfpack::{AceTier, WolfPack};
    let mut config = WolfPack::default_config();
    config.ace_tier = AceTier::parse("rookie").expect("a tier");
    let mut wins = 0;
    for f in 0..fights {
        let seed = derive_seed(0xEA5E, f);
        let mut game = WolfPack::new(&config, seed).expect("setup");
        let n = game.num_seats();
        let mut bots: Vec<_> = Seat::all(n)
            .map(|s| game.house_bot(s).unwrap_or_else(|| registry::bot::<WolfPack>(level).expect("a bot")))
            .collect();
        let mut rng = MatchRng::new(derive_seed(seed, 1));
        let mut steps = 0;
        while game.outcome().is_none() && steps < game.step_limit() {
            steps += 1;
            let Some(seat) = game.to_act().first() else { break };
            let legal = game.legal_actions(seat);
            let action = bots[seat.index()].choose(&Observation::new(&game, seat, &legal), &mut rng);
            game.apply(seat, action).expect("a legal action");
        }
        let pilots_won = game.outcome().is_some_and(|o| o.winners.contains(Seat(0)));
        wins += u64::from(pilots_won);
    }
    wins
}

/// `easy` plays half its moves as the game's random bot plays: in Wolf Pack a uniformly random
/// entry of a pilot's legal list (a discard, a lock-in of an empty selection) made `easy` pilots
/// far weaker than `random` ones (3 wins against 21 in 40 fights against the rookie Ace).
#[test]
fn wolfpack_easy_pilots_beat_random_ones() {
    let (easy, random) = (wolfpack_wins("easy", 40), wolfpack_wins("random", 40));
    assert!(easy > random, "easy {easy}, random {random} of 40");
}
