use crate::{Entry, GameKind};
use engine::{Bot, Game, Seat};
use search::{SearchLevels, SearchTuning};
use std::ops::RangeInclusive;
use wolfpack::{AceTier, Action, Config, WolfPack};

/// Wolf Pack's "players" are its pilots (1 to 5): the Ace is the extra, last seat, always
/// played by the house's Ace policy at the config's tier, never by a line-up or a person.
impl Entry for WolfPack {
    const KIND: GameKind = GameKind::WolfPack;
    const TITLE: &'static str = "Wolf Pack";
    const DESCRIPTION: &'static str =
        "Co-operative dogfight: 1-5 pilots pick cards at once, in secret, against the Ace (the house).";
    const SEATS: RangeInclusive<u8> = 1..=5;
    const DEFAULT_PLAYERS: u8 = 3;

    // The pilot bots; the Ace's tiers are chosen with the config (`--ace`), not by name.
    by_layout!(wolfpack, bots: PILOT_BOTS, describe: describe_event_for);

    /// Heuristic playouts (the heuristic plays the Ace's seat as the fight's tier does). Once
    /// unconfirmed selections are left out a pilot searches ~21 moves a 3-pilot fight, at
    /// 40-80 µs an iteration (by machine): 1,500 and 4,000 iterations cost 60-120 and 160-300
    /// ms CPU a move (longest measured: 217 and 579 ms, under the lobby's 250 and 600 ms
    /// caps). Chosen by the ladder (every pilot at the level against the `veteran` Ace, 100
    /// fights each, docs/bot-ladder.md): 1,000 iterations won 42.5% of 200 fights, not
    /// separable from `medium`'s 36%; 1,500 win 59%, 2,000 70% and 4,000 77%, so `hard` at
    /// 1,500 and `expert` at 4,000 are each +145 to +161 Elo above the level below.
    const SEARCH: SearchLevels = SearchLevels::HEURISTIC.iterations(1_500, 4_000);
    /// A pilot's search leaves out unconfirmed selections (see [`Action::commits`]).
    const SEARCH_TUNING: SearchTuning<Action> = SearchTuning { keep: Some(Action::commits), anchor: None };

    /// Healing a pilot at full health.
    const FOOLISH: Option<search::Foolish<WolfPack>> = Some(wolfpack::bots::foolish);

    fn config(players: u8) -> Result<Config, String> {
        Self::check_players(players)?;
        Ok(Config::pilots(players))
    }

    /// The Ace's tiers, weakest first (the names of `AceTier::ALL`, checked by a test).
    const HOUSE_TIERS: Option<(&'static str, &'static [&'static str])> = Some(("ace", &["rookie", "veteran", "ace"]));

    fn set_option(config: &mut Config, key: &str, value: &str) -> Result<(), String> {
        match key {
            "ace" => {
                config.ace_tier = AceTier::parse(value).ok_or_else(|| {
                    let tiers: Vec<&str> = AceTier::ALL.iter().map(|t| t.name()).collect();
                    format!("no Ace tier `{value}` (tiers: {})", tiers.join(", "))
                })?;
                Ok(())
            }
            _ => Err(format!("Wolf Pack has no option `{key}` (options: ace)")),
        }
    }

    fn house_bot(&self, seat: Seat) -> Option<Box<dyn Bot<Self>>> {
        self.is_ace(seat).then(|| wolfpack::ace_bot(self.config().ace_tier))
    }

    fn seat_tags(&self, seat: Seat) -> Vec<(&'static str, String)> {
        if self.is_ace(seat) {
            return Vec::new();
        }
        let pilots = self.num_seats() - 1;
        let s = if pilots == 1 { "" } else { "s" };
        vec![(
            "pilot wins by pilot count and Ace tier",
            format!("{pilots} pilot{s} vs {} Ace", self.config().ace_tier.name()),
        )]
    }

    fn metrics(&self) -> Vec<(&'static str, u64)> {
        vec![("turns", u64::from(self.turn()))]
    }
}
