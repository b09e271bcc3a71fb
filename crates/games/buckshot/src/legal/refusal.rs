//! Why the rules refuse an action: one byte while the rules decide, turned into an
//! [`engine::RuleError`] (a stable code and a message) only when it leaves the crate.

use engine::RuleError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    GameOver,
    NotPlaying,
    NotYourTurn,
    MustShoot,
    NotLiving,
    NoSuchItem,
    NoSteal,
    StealFromSelf,
    TargetLacksItem,
    SkipSelf,
    AlreadySkipped,
    DoubleDamageActive,
    WindowClosed,
    ChamberFull,
    QuickshotActive,
    LivesFull,
}

impl From<Refusal> for RuleError {
    fn from(r: Refusal) -> RuleError {
        let (code, message) = match r {
            Refusal::GameOver => return RuleError::game_over(),
            Refusal::NotYourTurn => return RuleError::not_your_turn(),
            Refusal::NotPlaying => ("not_playing", "you are not a living player in this game"),
            Refusal::MustShoot => ("must_shoot", "Quickshot: you must fire your second shot now"),
            Refusal::NotLiving => ("invalid_target", "that is not a living player"),
            Refusal::NoSuchItem => ("no_such_item", "you do not hold that item"),
            Refusal::NoSteal => ("no_such_item", "you do not hold a Steal"),
            Refusal::StealFromSelf => ("cannot_target_self", "you cannot steal from yourself"),
            Refusal::TargetLacksItem => ("target_lacks_item", "that player does not hold that item"),
            Refusal::SkipSelf => ("cannot_target_self", "you cannot skip yourself"),
            Refusal::AlreadySkipped => ("already_skipped", "that player is already skipped"),
            Refusal::DoubleDamageActive => ("already_active", "Double Damage is already active this turn"),
            Refusal::WindowClosed => {
                ("rebalancer_window_closed", "a Rebalancer can only be used before the round's first shell is fired")
            }
            Refusal::ChamberFull => ("chamber_full", "the chamber has no room for more shells"),
            Refusal::QuickshotActive => ("already_active", "Quickshot is already active this turn"),
            Refusal::LivesFull => ("lives_full", "you already have the most lives a player can have"),
        };
        RuleError::new(code, message)
    }
}
