//! The rules: the start of a match, the turn, and the resolution stack (every card, window
//! and skill as frames worked to completion). Legality is in `crate::legal`.
//!
//! One file per part, in the order a match meets them:
//! - [`start`]: roles, the generals' picks, HP, the first turn;
//! - [`movement`]: card movement (draw pile, hands, equipment, processing, discard);
//! - [`death`]: victory, the hostility record, death;
//! - [`step`]: the loop, the turn's phases, one function per frame kind;
//! - [`combat`]: requests, damage, the Attack's stages;
//! - [`tools`]: tool cards and the delayed tools' judgements;
//! - [`actions`]: applying an action (Play phase, answers, choices).

mod actions;
mod combat;
mod death;
mod movement;
mod start;
mod step;
mod tools;

use crate::cards::{CardId, Kind};

/// The four Negate cards: when all are face up in the discard pile, no Negate window opens.
static NEGATES: [CardId; 4] = {
    let mut ids = [CardId(0); 4];
    let (mut i, mut n) = (0, 0);
    while i < crate::cards::DECK_SIZE {
        if matches!(crate::cards::DECK[i].kind, Kind::Negate) {
            ids[n] = CardId(i as u8);
            n += 1;
        }
        i += 1;
    }
    ids
};
