use crate::{Entry, GameKind};
use buckshot::{Buckshot, Config, Event, Item};
use engine::Seat;
use search::SearchLevels;
use std::ops::RangeInclusive;

impl Entry for Buckshot {
    const KIND: GameKind = GameKind::Buckshot;
    const TITLE: &'static str = "Buckshot";
    const DESCRIPTION: &'static str =
        "Last one standing: a shotgun of live and blank shells, items, and whom to shoot.";
    const SEATS: RangeInclusive<u8> = 2..=8;
    const DEFAULT_PLAYERS: u8 = 4;

    by_layout!(buckshot);

    /// Heuristic playouts win far more than random ones here, and are cheap enough for more.
    const SEARCH: SearchLevels = SearchLevels::HEURISTIC.iterations(1_000, 4_000);

    /// Shooting oneself with a shell known to be live, or an opponent with a known blank.
    const FOOLISH: Option<search::Foolish<Buckshot>> = Some(buckshot::foolish);

    fn config(players: u8) -> Result<Config, String> {
        Self::check_players(players)?;
        Ok(Config::players(players))
    }

    /// Every item use, stolen or not (a steal is tagged as well: the use follows as its own
    /// event).
    fn event_tag(event: &Event) -> Option<(Seat, &'static str, String)> {
        let (by, item) = match *event {
            Event::SkipUsed { by, .. } => (by, Item::Skip),
            Event::ChamberChecked { by, .. } => (by, Item::ChamberCheck),
            Event::DoubleDamageUsed { by } => (by, Item::DoubleDamage),
            Event::Rebalanced { by, .. } => (by, Item::Rebalancer),
            Event::QuickshotUsed { by } => (by, Item::Quickshot),
            Event::LifeAdded { by, .. } => (by, Item::AddLife),
            Event::AirShot { by, .. } => (by, Item::ShootAir),
            Event::Stole { by, .. } => (by, Item::Steal),
            _ => return None,
        };
        Some((by, "wins by item use", item.name().to_string()))
    }

    fn metrics(&self) -> Vec<(&'static str, u64)> {
        vec![("rounds", u64::from(self.round())), ("turns", u64::from(self.turn_count()))]
    }
}
