//! One adapter per game, and the one place a [`GameKind`] becomes its adapter type
//! ([`visit_adapter`]): the lobby and the replays go through it.

use crate::adapter::GameAdapter;
use registry::{GameInfo, GameKind};

pub mod buckshot;
pub mod ivanhoe;
pub mod sorcery;
pub mod three_kingdoms;
pub mod wolfpack;

/// `GET /api/games/{game}/cards`: the game's card table, for the games whose cards a client
/// reads by id (Three Kingdoms); `None` for the others.
pub fn cards(game: &str) -> Option<serde_json::Value> {
    match game {
        "three-kingdoms" => Some(three_kingdoms::cards_json()),
        _ => None,
    }
}

/// Code that works for any game's adapter: [`visit_adapter`] calls `visit` with the adapter
/// type of a [`GameKind`].
pub trait AdapterVisitor {
    type Out;
    fn visit<A: GameAdapter>(self) -> Self::Out;
}

/// The one place a [`GameKind`] becomes the server's adapter type; `None` for a game the
/// server has no adapter for yet. The `match` is exhaustive, so a game added to the registry
/// does not build until it has its line here.
pub fn visit_adapter<V: AdapterVisitor>(kind: GameKind, v: V) -> Option<V::Out> {
    Some(match kind {
        GameKind::Buckshot => v.visit::<buckshot::BuckshotAdapter>(),
        GameKind::Ivanhoe => v.visit::<ivanhoe::IvanhoeAdapter>(),
        GameKind::Sorcery => v.visit::<sorcery::SorceryAdapter>(),
        GameKind::WolfPack => v.visit::<wolfpack::WolfPackAdapter>(),
        GameKind::ThreeKingdoms => v.visit::<three_kingdoms::ThreeKingdomsAdapter>(),
    })
}

/// Every game a room can be created for (those with an adapter), as `GET /api/games` lists them.
pub fn offered() -> Vec<GameInfo> {
    struct Has;
    impl AdapterVisitor for Has {
        type Out = ();
        fn visit<A: GameAdapter>(self) {}
    }
    GameKind::ALL.iter().filter(|&&k| visit_adapter(k, Has).is_some()).map(|k| k.info()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind's adapter is for that kind's game, and agrees with the registry on seats.
    #[test]
    fn every_kind_has_its_own_adapter() {
        struct Facts;
        impl AdapterVisitor for Facts {
            type Out = (&'static str, usize, usize);
            fn visit<A: GameAdapter>(self) -> Self::Out {
                (A::name(), A::MIN_PLAYERS, A::MAX_PLAYERS)
            }
        }
        for &kind in GameKind::ALL {
            let Some((name, min, max)) = visit_adapter(kind, Facts) else { continue };
            assert_eq!(name, kind.name());
            assert_eq!((min, max), (usize::from(*kind.seats().start()), usize::from(*kind.seats().end())), "{kind}");
        }
    }
}
