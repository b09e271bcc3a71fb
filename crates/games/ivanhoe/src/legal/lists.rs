//! The legal-action lists. `candidates` (a superset of what is legal) filtered by `verdict`
//! is the definition; `legal_into` builds the same list directly, because random playouts,
//! bots and the server ask for it at every step and most candidates are refused (every
//! give × take pair of Outwit, colours Unhorse cannot name, seats that have withdrawn).
//! A test plays many random games and checks, at every step and for every seat, that the
//! direct list equals the filtered candidates, order included: the order decides which action
//! a seeded random pick chooses, so changing it would change every seeded game.

use crate::action::{Action, Slot};
use crate::cards::{ACTION_KINDS, Card, Colour, SUPPORTER_KINDS};
use crate::state::{Ivanhoe, Phase};
use engine::Seat;

use crate::rules::RBY;

impl Ivanhoe {
    /// Appends the legal actions of `seat`: exactly the candidates `verdict` accepts, in
    /// candidate order (the hand's kinds in table order; then seats, positions and colours
    /// ascending).
    pub(crate) fn legal_into(&self, seat: Seat, out: &mut Vec<Action>) {
        if seat.index() >= self.players.len() {
            return;
        }
        let p = &self.players[seat];
        match &self.phase {
            Phase::Window if self.open_window().waits_on(seat) => {
                out.push(Action::Pass);
                if p.hand.has(Card::Ivanhoe) {
                    out.push(Action::Ivanhoe);
                }
            }
            Phase::Start if seat == self.active => {
                let allowed = self.allowed_colours(seat);
                let coloured = allowed.iter().fold(0, |m, c| m | c.kinds());
                for card in p.hand.kinds_among(coloured | SUPPORTER_KINDS) {
                    match card.colour() {
                        Some(colour) => out.push(Action::Start { colour, card }),
                        None => {
                            for colour in allowed.iter() {
                                out.push(Action::Start { colour, card });
                            }
                        }
                    }
                }
            }
            Phase::Turn if seat == self.active => {
                // Cards of the tournament colour come before supporters, and both before action
                // cards, in table order: the candidates' order.
                let stunned_full = self.stunned == Some(seat) && self.added >= 1;
                if !stunned_full {
                    let mut playable = SUPPORTER_KINDS | self.colour.map_or(0, Colour::kinds);
                    // Only a held maiden needs the display scanned (scans of varying length
                    // are costly mispredictions).
                    if p.hand.has(Card::Maiden) && p.display.contains(&Card::Maiden) {
                        playable &= !Card::Maiden.bit();
                    }
                    for card in p.hand.kinds_among(playable) {
                        out.push(Action::Play { card });
                    }
                }
                for card in p.hand.kinds_among(ACTION_KINDS) {
                    self.legal_card_plays(seat, card, out);
                }
                out.push(Action::EndTurn);
            }
            Phase::Adapt { queue } if queue[0].0 == seat => {
                let value = queue[0].1;
                for card in Card::ALL {
                    if card.is_value() && card.value() == value && p.display.contains(&card) {
                        out.push(Action::Keep { card });
                    }
                }
            }
            Phase::MaidenPenalty if seat == self.active => {
                for colour in p.tokens.iter() {
                    out.push(Action::ReturnToken { colour });
                }
            }
            Phase::PurpleToken { winner } if *winner == seat => {
                for colour in p.tokens.complement().iter() {
                    out.push(Action::ChooseToken { colour });
                }
            }
            _ => {}
        }
    }

    /// The legal ways for the active `seat` to play the action card `card` from their hand:
    /// `check_card`'s conditions, turned into generators of targets, positions and colours.
    /// Kept out of line: inlined, its set-up made every call of `legal_into` pay for a large
    /// stack frame, though most lists hold no action card.
    #[inline(never)]
    fn legal_card_plays(&self, seat: Seat, card: Card, out: &mut Vec<Action>) {
        let n = self.players.len() as u8;
        let opponents = move || (0..n).map(Seat).filter(move |&t| t != seat && !self.players[t].withdrawn);
        let unshielded = move || opponents().filter(move |&t| self.shield != Some(t));
        let rby_tournament = self.colour.is_some_and(|c| RBY.contains(c));
        match card {
            Card::Unhorse if self.colour == Some(Colour::Purple) => {
                for colour in RBY.iter() {
                    out.push(Action::Unhorse { colour });
                }
            }
            Card::ChangeWeapon if rby_tournament => {
                for colour in RBY.iter().filter(|&c| Some(c) != self.colour) {
                    out.push(Action::ChangeWeapon { colour });
                }
            }
            Card::DropWeapon if rby_tournament => out.push(Action::DropWeapon),
            Card::BreakLance => {
                for target in unshielded().filter(|&t| self.lance_hits(t)) {
                    out.push(Action::BreakLance { target });
                }
            }
            Card::Riposte => {
                for target in unshielded().filter(|&t| self.check_riposte(seat, t).is_ok()) {
                    out.push(Action::Riposte { target });
                }
            }
            Card::Dodge => {
                for target in unshielded() {
                    let len = self.players[target].display.len() as u8;
                    if len >= 2 {
                        for pos in 0..len {
                            out.push(Action::Dodge { target, pos });
                        }
                    }
                }
            }
            Card::Retreat => {
                let len = self.players[seat].display.len() as u8;
                if len >= 2 {
                    for pos in 0..len {
                        out.push(Action::Retreat { pos });
                    }
                }
            }
            // Knock Down takes from a hand, so withdrawn opponents are targets too.
            Card::KnockDown => {
                for target in (0..n).map(Seat) {
                    if target != seat && self.shield != Some(target) && !self.players[target].hand.is_empty() {
                        out.push(Action::KnockDown { target });
                    }
                }
            }
            Card::Outmaneuver if self.outmaneuver_hits(seat) => out.push(Action::Outmaneuver),
            Card::Charge if self.charge_hits(seat, true) => out.push(Action::Charge),
            Card::Countercharge if self.charge_hits(seat, false) => out.push(Action::Countercharge),
            Card::Disgrace if self.disgrace_hits(seat) => out.push(Action::Disgrace),
            Card::Adapt if self.adapt_hits(seat) => out.push(Action::Adapt),
            Card::Outwit => {
                for target in opponents() {
                    let theirs = self.slots(target, false);
                    for give in self.slots(seat, false) {
                        for take in theirs.clone() {
                            if self.check_swap(seat, give, target, take).is_ok() {
                                out.push(Action::Outwit { give, target, take });
                            }
                        }
                    }
                }
            }
            Card::Shield => out.push(Action::Shield),
            Card::Stunned => {
                for target in opponents() {
                    out.push(Action::Stunned { target });
                }
            }
            // Ivanhoe only answers a window; the other cards would change nothing now.
            _ => {}
        }
    }

    /// The definition `legal_into` must equal: the candidates `verdict` accepts.
    #[cfg(test)]
    pub(crate) fn legal_by_filter(&self, seat: Seat, out: &mut Vec<Action>) {
        let start = out.len();
        self.candidates(seat, out, false);
        let mut w = start;
        for r in start..out.len() {
            if self.verdict(seat, &out[r]).is_ok() {
                out[w] = out[r];
                w += 1;
            }
        }
        out.truncate(w);
    }

    /// Appends a superset of `seat`'s legal actions. With `all`, also plausible illegal ones
    /// (cards not held, bad targets, out of phase) for the invariant suite.
    pub(crate) fn candidates(&self, seat: Seat, out: &mut Vec<Action>, all: bool) {
        let n = self.players.len();
        if seat.index() >= n {
            return;
        }
        if all {
            out.extend([Action::EndTurn, Action::Pass, Action::Ivanhoe, Action::Play { card: Card::Squire2 }]);
            out.push(Action::Keep { card: Card::Red3 });
            out.push(Action::ReturnToken { colour: Colour::Green });
            out.push(Action::ChooseToken { colour: Colour::Purple });
            out.push(Action::Start { colour: Colour::Red, card: Card::Red3 });
        }
        match &self.phase {
            Phase::Over { .. } => {}
            Phase::Window if self.open_window().waits_on(seat) || all => {
                out.push(Action::Pass);
                out.push(Action::Ivanhoe);
            }
            Phase::Start if seat == self.active || all => {
                let hand = &self.players[seat].hand;
                for card in Card::ALL {
                    if !(all || hand.has(card)) {
                        continue;
                    }
                    match card.colour() {
                        Some(c) if !all => out.push(Action::Start { colour: c, card }),
                        _ if card.is_action() && !all => {}
                        _ => out.extend(Colour::ALL.map(|colour| Action::Start { colour, card })),
                    }
                }
            }
            Phase::Turn if seat == self.active || all => {
                if all {
                    for card in Card::ALL {
                        self.card_candidates(seat, card, out, all);
                    }
                } else {
                    for card in self.players[seat].hand.kinds() {
                        self.card_candidates(seat, card, out, all);
                    }
                }
                out.push(Action::EndTurn);
            }
            Phase::Adapt { queue } if queue[0].0 == seat || all => {
                let d = &self.players[seat].display;
                for card in Card::ALL {
                    if card.is_value() && (all || d.contains(&card)) {
                        out.push(Action::Keep { card });
                    }
                }
            }
            Phase::MaidenPenalty if seat == self.active || all => {
                out.extend(Colour::ALL.map(|colour| Action::ReturnToken { colour }));
            }
            Phase::PurpleToken { winner } if *winner == seat || all => {
                out.extend(Colour::ALL.map(|colour| Action::ChooseToken { colour }));
            }
            _ => {}
        }
    }

    fn card_candidates(&self, seat: Seat, card: Card, out: &mut Vec<Action>, all: bool) {
        let n = self.players.len() as u8;
        let seats = move || (0..n).map(Seat).filter(move |&s| all || s != seat);
        match card {
            Card::Unhorse => out.extend(Colour::ALL.map(|colour| Action::Unhorse { colour })),
            Card::ChangeWeapon => out.extend(Colour::ALL.map(|colour| Action::ChangeWeapon { colour })),
            Card::DropWeapon => out.push(Action::DropWeapon),
            Card::BreakLance => out.extend(seats().map(|target| Action::BreakLance { target })),
            Card::Riposte => out.extend(seats().map(|target| Action::Riposte { target })),
            Card::Dodge => {
                for target in seats() {
                    let len = self.players[target].display.len() as u8;
                    if len >= 2 || all {
                        out.extend((0..len + u8::from(all)).map(|pos| Action::Dodge { target, pos }));
                    }
                }
            }
            Card::Retreat => {
                let len = self.players[seat].display.len() as u8;
                if len >= 2 || all {
                    out.extend((0..len + u8::from(all)).map(|pos| Action::Retreat { pos }));
                }
            }
            Card::KnockDown => out.extend(seats().map(|target| Action::KnockDown { target })),
            Card::Outmaneuver => out.push(Action::Outmaneuver),
            Card::Charge => out.push(Action::Charge),
            Card::Countercharge => out.push(Action::Countercharge),
            Card::Disgrace => out.push(Action::Disgrace),
            Card::Adapt => out.push(Action::Adapt),
            Card::Outwit => {
                for target in seats() {
                    if !all && self.players[target].withdrawn {
                        continue;
                    }
                    let theirs = self.slots(target, all);
                    for give in self.slots(seat, all) {
                        for take in theirs.clone() {
                            out.push(Action::Outwit { give, target, take });
                        }
                    }
                }
            }
            Card::Shield => out.push(Action::Shield),
            Card::Stunned => out.extend(seats().map(|target| Action::Stunned { target })),
            Card::Ivanhoe => {}
            // A coloured card off the tournament colour can never be played: skip it early.
            _ if !all && card.colour().is_some_and(|c| Some(c) != self.colour) => {}
            _ => out.push(Action::Play { card }),
        }
    }

    /// The face-up slots of `seat` (with `all`, also the Shield and Stunned slots and one
    /// position past the display).
    fn slots(&self, seat: Seat, all: bool) -> impl Iterator<Item = Slot> + Clone + use<> {
        let len = self.players[seat].display.len().min(250) as u8;
        let shield = (all || self.shield == Some(seat)).then_some(Slot::Shield);
        let stunned = (all || self.stunned == Some(seat)).then_some(Slot::Stunned);
        (0..len + u8::from(all)).map(|pos| Slot::Display { pos }).chain(shield).chain(stunned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Config;
    use engine::{Game, MatchRng};
    use std::collections::BTreeSet;

    /// Plays 2,000 random games for every player count and compares, at every step and for
    /// every seat (one past the table too), the direct list with the filtered candidates.
    #[test]
    fn direct_lists_equal_the_filtered_candidates() {
        let (mut fast, mut slow, mut seen) = (Vec::new(), Vec::new(), BTreeSet::new());
        let mut steps = 0usize;
        for players in 2..=5u8 {
            for seed in 0..2_000 {
                let mut game = Ivanhoe::new(&Config { players }, seed).expect("setup");
                let mut rng = MatchRng::new(seed ^ 0xBEEF);
                while let Some(seat) = game.to_act().first() {
                    for s in Seat::all(usize::from(players) + 1) {
                        fast.clear();
                        slow.clear();
                        game.legal_into(s, &mut fast);
                        game.legal_by_filter(s, &mut slow);
                        assert_eq!(fast, slow, "{players} players, seed {seed}, step {steps}, {s}: {game:?}");
                        seen.extend(fast.iter().map(|a| coverage_key(*a)));
                    }
                    game.legal_into(seat, &mut fast);
                    let action = *rng.pick(&fast);
                    game.apply_into(seat, action, &mut Vec::new()).expect("a listed action is legal");
                    steps += 1;
                }
            }
        }
        // The comparison means something only if the games reached every kind of choice.
        let wanted = [
            "Start",
            "Play",
            "Unhorse",
            "ChangeWeapon",
            "DropWeapon",
            "BreakLance",
            "Riposte",
            "Dodge",
            "Retreat",
            "KnockDown",
            "Outmaneuver",
            "Charge",
            "Countercharge",
            "Disgrace",
            "Adapt",
            "Outwit",
            "Outwit Shield",
            "Outwit Stunned",
            "Shield",
            "Stunned",
            "EndTurn",
            "Ivanhoe",
            "Pass",
            "Keep",
            "ReturnToken",
            "ChooseToken",
        ];
        let missing: Vec<_> = wanted.iter().filter(|k| !seen.contains(**k)).collect();
        assert!(missing.is_empty(), "never listed in {steps} steps: {missing:?}");
    }

    /// The variant's name, and for Outwit whether it names a Shield or Stunned slot.
    fn coverage_key(a: Action) -> &'static str {
        match a {
            Action::Outwit { give: Slot::Shield, .. } | Action::Outwit { take: Slot::Shield, .. } => "Outwit Shield",
            Action::Outwit { give: Slot::Stunned, .. } | Action::Outwit { take: Slot::Stunned, .. } => "Outwit Stunned",
            Action::Start { .. } => "Start",
            Action::Play { .. } => "Play",
            Action::Unhorse { .. } => "Unhorse",
            Action::ChangeWeapon { .. } => "ChangeWeapon",
            Action::DropWeapon => "DropWeapon",
            Action::BreakLance { .. } => "BreakLance",
            Action::Riposte { .. } => "Riposte",
            Action::Dodge { .. } => "Dodge",
            Action::Retreat { .. } => "Retreat",
            Action::KnockDown { .. } => "KnockDown",
            Action::Outmaneuver => "Outmaneuver",
            Action::Charge => "Charge",
            Action::Countercharge => "Countercharge",
            Action::Disgrace => "Disgrace",
            Action::Adapt => "Adapt",
            Action::Outwit { .. } => "Outwit",
            Action::Shield => "Shield",
            Action::Stunned { .. } => "Stunned",
            Action::EndTurn => "EndTurn",
            Action::Ivanhoe => "Ivanhoe",
            Action::Pass => "Pass",
            Action::Keep { .. } => "Keep",
            Action::ReturnToken { .. } => "ReturnToken",
            Action::ChooseToken { .. } => "ChooseToken",
        }
    }
}
