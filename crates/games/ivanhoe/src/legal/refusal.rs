//! Why the rules refuse an action: a small `Copy` value while the rules decide (Outwit's
//! legal list, `is_legal` and the invariant suite try many illegal candidates, so nothing is
//! formatted or allocated), turned into an [`engine::RuleError`] — a stable code and a message
//! — only when it leaves the crate. Several reasons share a code: the code is what clients
//! and tests match on, the message says exactly what went wrong. Codes are on the wire: never
//! rename one.

use crate::cards::{Card, Colour};
use engine::{RuleError, Seat};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    NoSuchSeat(Seat),
    NotYourTurn,
    NoIvanhoe,
    WindowOpen,
    GameOver,
    MustStart,
    NoWindow,
    AlreadyStarted,
    IvanhoeOnOwnTurn,
    WrongPhase,
    NotInDisplay(Card),
    WrongValue(u8),
    MustKeep(u8),
    TokenNotHeld(Colour),
    MustReturnToken,
    TokenAlreadyHeld(Colour),
    MustChooseToken,
    NotInHand(Card),
    OpenWithAction,
    PurpleTwice,
    ColourNotAllowed(Colour),
    NotThatColour(Colour),
    NotAValueCard(Card),
    NotTournamentColour(Option<Colour>),
    MaidenLimit,
    Stunned,
    ChooseAnotherPlayer,
    TargetWithdrawn(Seat),
    Shielded(Seat),
    NoEffect(Card),
    UnhorseNotPurple,
    UnhorseColour,
    ChangeWeaponNotRby,
    ChangeWeaponColour,
    DropWeaponNotRby,
    NoSuchPosition,
    LastCardRemoved,
    NoSuchOwnPosition,
    LastCardRetreat,
    EmptyHand(Seat),
    LastCardTaken,
    TwoMaidens,
    StunnedAlreadyAdded,
    NoSuchOwnSlot,
    NoSuchSlot(Seat),
    OutwitLastCard,
}

/// What fills a message's `{}`.
enum Arg {
    None,
    Card(Card),
    Seat(Seat),
    Colour(Colour),
    Value(u8),
    Text(&'static str),
}

impl Refusal {
    /// The stable code, the message with at most one `{}`, and what fills it.
    fn parts(self) -> (&'static str, &'static str, Arg) {
        match self {
            Refusal::NoSuchSeat(x) => ("no_such_seat", "there is no {}", Arg::Seat(x)),
            Refusal::NotYourTurn => ("not_your_turn", "it is not your turn", Arg::None),
            Refusal::NoIvanhoe => ("not_in_hand", "you do not hold Ivanhoe", Arg::None),
            Refusal::WindowOpen => {
                ("window_open", "an action card is being played: answer with Ivanhoe or pass", Arg::None)
            }
            Refusal::GameOver => ("game_over", "the game is over", Arg::None),
            Refusal::MustStart => (
                "must_start",
                "open the tournament first: name a colour and play a card of that colour or a supporter",
                Arg::None,
            ),
            Refusal::NoWindow => ("no_window", "Ivanhoe can only answer an action card as it is played", Arg::None),
            Refusal::AlreadyStarted => ("already_started", "the tournament has already started", Arg::None),
            Refusal::IvanhoeOnOwnTurn => {
                ("no_window", "Ivanhoe can only answer another player's action card", Arg::None)
            }
            Refusal::WrongPhase => ("wrong_phase", "nothing is waiting on that answer", Arg::None),
            Refusal::NotInDisplay(x) => ("not_in_display", "there is no {} in your display", Arg::Card(x)),
            Refusal::WrongValue(x) => ("wrong_value", "choose which card of value {} to keep", Arg::Value(x)),
            Refusal::MustKeep(x) => ("must_keep", "Adapt: choose which card of value {} to keep", Arg::Value(x)),
            Refusal::TokenNotHeld(x) => ("token_not_held", "you hold no {} token", Arg::Colour(x)),
            Refusal::MustReturnToken => {
                ("must_return_token", "you withdraw with a maiden: give back one of your tokens", Arg::None)
            }
            Refusal::TokenAlreadyHeld(x) => ("token_already_held", "you already hold a {} token", Arg::Colour(x)),
            Refusal::MustChooseToken => {
                ("must_choose_token", "you won a purple tournament: choose a token you lack", Arg::None)
            }
            Refusal::NotInHand(x) => ("not_in_hand", "you hold no {}", Arg::Card(x)),
            Refusal::OpenWithAction => (
                "first_card_must_be_display",
                "a tournament opens with a coloured card or a supporter, not an action card",
                Arg::None,
            ),
            Refusal::PurpleTwice => ("purple_twice", "purple cannot follow a purple tournament", Arg::None),
            Refusal::ColourNotAllowed(x) => (
                "colour_not_allowed",
                "you cannot open {}: you hold neither a card of it nor a supporter",
                Arg::Colour(x),
            ),
            Refusal::NotThatColour(x) => ("wrong_colour", "that card is not {}", Arg::Colour(x)),
            Refusal::NotAValueCard(x) => {
                ("not_a_value_card", "{} is an action card: play it with its choices", Arg::Card(x))
            }
            Refusal::NotTournamentColour(x) => (
                "wrong_colour",
                "that card does not match the {} tournament",
                Arg::Text(x.map_or("unstarted", Colour::name)),
            ),
            Refusal::MaidenLimit => ("maiden_limit", "a display may hold only one maiden", Arg::None),
            Refusal::Stunned => ("stunned", "you are stunned: one card added to your display per turn", Arg::None),
            Refusal::ChooseAnotherPlayer => ("bad_target", "choose another player", Arg::None),
            Refusal::TargetWithdrawn(x) => ("bad_target", "{} has withdrawn", Arg::Seat(x)),
            Refusal::Shielded(x) => ("shielded", "{} is protected by the Shield", Arg::Seat(x)),
            Refusal::NoEffect(x) => ("no_effect", "{} would change nothing now", Arg::Card(x)),
            Refusal::UnhorseNotPurple => {
                ("wrong_tournament_colour", "Unhorse is played in a purple tournament", Arg::None)
            }
            Refusal::UnhorseColour => ("bad_colour", "Unhorse changes purple to red, blue or yellow", Arg::None),
            Refusal::ChangeWeaponNotRby => {
                ("wrong_tournament_colour", "Change Weapon is played in a red, blue or yellow tournament", Arg::None)
            }
            Refusal::ChangeWeaponColour => {
                ("bad_colour", "Change Weapon changes to another of red, blue or yellow", Arg::None)
            }
            Refusal::DropWeaponNotRby => {
                ("wrong_tournament_colour", "Drop Weapon is played in a red, blue or yellow tournament", Arg::None)
            }
            Refusal::NoSuchPosition => ("bad_position", "no such card in that display", Arg::None),
            Refusal::LastCardRemoved => ("last_card", "a display's last card cannot be removed", Arg::None),
            Refusal::NoSuchOwnPosition => ("bad_position", "no such card in your display", Arg::None),
            Refusal::LastCardRetreat => ("last_card", "your display's last card cannot be taken back", Arg::None),
            Refusal::EmptyHand(x) => ("no_effect", "{} has no cards in hand", Arg::Seat(x)),
            Refusal::LastCardTaken => ("last_card", "a display's last card cannot be taken", Arg::None),
            Refusal::TwoMaidens => ("maiden_limit", "you would hold two maidens", Arg::None),
            Refusal::StunnedAlreadyAdded => {
                ("stunned", "you are stunned and have already added a card this turn", Arg::None)
            }
            Refusal::NoSuchOwnSlot => ("bad_slot", "you have no such face-up card", Arg::None),
            Refusal::NoSuchSlot(x) => ("bad_slot", "{} has no such face-up card", Arg::Seat(x)),
            Refusal::OutwitLastCard => {
                ("last_card", "Outwit may swap a display's only card, but only for a display card", Arg::None)
            }
        }
    }

    /// The stable code (`not_in_hand`, `no_effect`, ...).
    #[cfg(test)]
    pub(crate) fn code(self) -> &'static str {
        self.parts().0
    }
}

impl From<Refusal> for RuleError {
    fn from(r: Refusal) -> RuleError {
        let (code, msg, arg) = r.parts();
        let arg = match arg {
            Arg::None => return RuleError::new(code, msg),
            Arg::Card(c) if c.is_action() => c.name().to_string(),
            Arg::Card(c) => c.code().to_string(),
            Arg::Seat(s) => format!("P{}", s.0 + 1),
            Arg::Colour(c) => c.name().to_string(),
            Arg::Value(v) => v.to_string(),
            Arg::Text(t) => t.to_string(),
        };
        RuleError::new(code, msg.replacen("{}", &arg, 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wire codes and messages, pinned: a rename here breaks clients and tests.
    #[test]
    fn codes_and_messages_are_stable() {
        let cases = [
            (Refusal::NotYourTurn, "not_your_turn", "it is not your turn"),
            (Refusal::NoSuchSeat(Seat(3)), "no_such_seat", "there is no P4"),
            (Refusal::NotInHand(Card::Dodge), "not_in_hand", "you hold no Dodge"),
            (Refusal::NotInHand(Card::Red3), "not_in_hand", "you hold no R3"),
            (Refusal::NoIvanhoe, "not_in_hand", "you do not hold Ivanhoe"),
            (Refusal::NotTournamentColour(None), "wrong_colour", "that card does not match the unstarted tournament"),
            (Refusal::MustKeep(4), "must_keep", "Adapt: choose which card of value 4 to keep"),
            (Refusal::EmptyHand(Seat(1)), "no_effect", "P2 has no cards in hand"),
        ];
        for (r, code, message) in cases {
            let e = RuleError::from(r);
            assert_eq!((r.code(), e.code, e.message.as_ref()), (code, code, message));
        }
    }
}
