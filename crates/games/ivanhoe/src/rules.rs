//! The rules: setup, and `execute`, one function per phase. Legality (`check`, the one place
//! that decides, and the legal-action lists defined by it) is in [`crate::legal`]. `apply` is
//! `check` then `execute`, so a refused action never touches the state.

use crate::action::{Action, Event, Slot};
use crate::cards::{Card, Colour, Colours};
use crate::state::{Config, Hand, Ivanhoe, Phase, Player, display_total};
use engine::flow::{Answering, Window, WindowStack};
use engine::{BySeat, DecisionSerial, MatchRng, Seat, SeatSet, SetupError};

/// Cards dealt to each player.
pub const HAND_SIZE: usize = 8;

/// The seed's first-player procedure (§4.2): from seat 0 clockwise, each player draws one of
/// the five colour tokens (putting it straight back) until someone draws purple. Returns that
/// seat and the colours drawn, in order. `draw` is injectable for tests.
pub fn first_player(players: usize, mut draw: impl FnMut() -> Colour) -> (Seat, Vec<Colour>) {
    let mut draws = Vec::new();
    let mut s = 0u8;
    loop {
        let c = draw();
        draws.push(c);
        if c == Colour::Purple {
            return (Seat(s), draws);
        }
        s = (s + 1) % players as u8;
    }
}

/// Red, blue, yellow: the colours Unhorse and Change Weapon may name.
pub(crate) const RBY: Colours = Colours::from_bits(0b0_1110);

impl Ivanhoe {
    /// A new match and the events of its opening (first-player draw, the starter's draw).
    pub fn new_with_events(config: &Config, seed: u64) -> Result<(Self, Vec<Event>), SetupError> {
        let n = config.players as usize;
        if !(2..=5).contains(&n) {
            return Err(SetupError::new("bad_player_count", format!("Ivanhoe is for 2 to 5 players, not {n}")));
        }
        let mut rng = MatchRng::new(seed);
        let (starter, draws) = first_player(n, || Colour::ALL[rng.below(5) as usize]);
        let mut draw = Card::deck();
        rng.shuffle(&mut draw);
        let mut players = BySeat::from_fn(n, |_| Player::default());
        for _ in 0..HAND_SIZE {
            for p in players.values_mut() {
                p.hand.add(draw.pop().expect("110 cards deal 8 to 5 players"));
            }
        }
        let mut game = Ivanhoe {
            rng,
            draw,
            discard: Vec::with_capacity(crate::cards::DECK_SIZE),
            players,
            shield: None,
            stunned: None,
            supply: [5; 5],
            colour: None,
            previous: None,
            active: starter,
            played: false,
            added: 0,
            phase: Phase::Start,
            tournaments: 0,
            opening: draws.clone(),
            windows: WindowStack::new(),
            decisions: DecisionSerial::default(),
        };
        let mut events = vec![Event::FirstPlayer { seat: starter, draws }];
        game.begin_tournament(starter, &mut events);
        Ok((game, events))
    }

    // ----- execution ----------------------------------------------------------------------------

    /// Carries out an action `check` accepted.
    pub(crate) fn execute(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) {
        match self.phase {
            Phase::Window => self.answer(seat, action, out),
            Phase::Start => {
                let Action::Start { colour, card } = action else { unreachable!() };
                self.colour = Some(colour);
                out.push(Event::TournamentStarted { seat, colour });
                self.add_from_hand(seat, card, out);
                self.phase = Phase::Turn;
            }
            Phase::Turn => match action {
                Action::Play { card } => self.add_from_hand(seat, card, out),
                Action::EndTurn => self.end_turn(out),
                _ => self.declare(seat, action, out),
            },
            Phase::Adapt { ref mut queue } => {
                let Action::Keep { card } = action else { unreachable!() };
                let (owner, value) = queue.remove(0);
                if queue.is_empty() {
                    self.phase = Phase::Turn;
                }
                self.keep_one(owner, value, card, out);
            }
            Phase::MaidenPenalty => {
                let Action::ReturnToken { colour } = action else { unreachable!() };
                self.return_token(seat, colour, out);
                self.finish_withdrawal(seat, out);
            }
            Phase::PurpleToken { winner } => {
                let Action::ChooseToken { colour } = action else { unreachable!() };
                self.gain_token(winner, colour, out);
                self.after_award(winner, out);
            }
            Phase::Over { .. } => unreachable!(),
        }
    }

    /// An answer to the open window: the last pass lets the card resolve; Ivanhoe cancels it
    /// at once (both go to the discard pile, a Shield or Stunned included).
    fn answer(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) {
        match action {
            Action::Pass => {
                let closed = self.windows.pass(seat, &mut self.decisions).expect("checked: the window waits on seat");
                out.push(Event::Passed { seat });
                if let Some(w) = closed {
                    self.resolve(self.active, w.kind, out);
                }
            }
            Action::Ivanhoe => {
                let pending = self.windows.close(&mut self.decisions).expect("checked: a window is open").kind;
                self.players[seat].hand.remove(Card::Ivanhoe);
                let card = pending.action_card().expect("pending action card");
                if matches!(card, Card::Shield | Card::Stunned) {
                    self.discard.push(card);
                }
                self.discard.push(Card::Ivanhoe);
                out.push(Event::Cancelled { seat, card });
                self.phase = Phase::Turn;
            }
            _ => unreachable!("checked: a window takes Pass or Ivanhoe"),
        }
    }

    fn add_from_hand(&mut self, seat: Seat, card: Card, out: &mut Vec<Event>) {
        let p = &mut self.players[seat];
        p.hand.remove(card);
        p.display.push(card);
        self.played = true;
        self.added += 1;
        out.push(Event::Played { seat, card });
    }

    /// An action card leaves the hand (§6.3 step 3) and the Ivanhoe window opens to every
    /// other player still in the tournament, unless Ivanhoe lies face up in the discard pile
    /// (then everyone knows nobody can answer, and asking would only slow the game).
    fn declare(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) {
        let card = action.action_card().expect("declared an action card");
        self.players[seat].hand.remove(card);
        self.played = true;
        if !matches!(card, Card::Shield | Card::Stunned) {
            self.discard.push(card);
        }
        out.push(Event::Declared { seat, action });
        let mut waiting = SeatSet::EMPTY;
        if !self.discard.contains(&Card::Ivanhoe) {
            waiting = self.in_tournament();
            waiting.remove(seat);
        }
        let first = Seat((seat.0 + 1) % self.players.len() as u8);
        let window = Window::new(action, waiting, first, Answering::Together);
        match self.windows.open(window, &mut self.decisions) {
            Some(unopened) => self.resolve(seat, unopened.kind, out),
            None => self.phase = Phase::Window,
        }
    }

    /// The declared card takes effect (nobody cancelled it).
    fn resolve(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) {
        self.phase = Phase::Turn;
        match action {
            Action::Unhorse { colour } | Action::ChangeWeapon { colour } => self.set_colour(colour, out),
            Action::DropWeapon => self.set_colour(Colour::Green, out),
            Action::BreakLance { target } => self.strip(target, |c| c.colour() == Some(Colour::Purple), out),
            Action::Riposte { target } => {
                let card = self.players[target].display.pop().expect("checked: two cards");
                self.players[seat].display.push(card);
                self.added += 1;
                out.push(Event::Moved { from: target, to: seat, card });
            }
            Action::Dodge { target, pos } => {
                let card = self.players[target].display.remove(pos as usize);
                self.discard.push(card);
                out.push(Event::Discarded { seat: target, card });
            }
            Action::Retreat { pos } => {
                let p = &mut self.players[seat];
                let card = p.display.remove(pos as usize);
                p.hand.add(card);
                out.push(Event::Retreated { seat, card });
            }
            Action::KnockDown { target } => {
                let len = self.players[target].hand.len();
                let card = self.players[target].hand.nth(self.rng.index(len));
                self.players[target].hand.remove(card);
                self.players[seat].hand.add(card);
                out.push(Event::Took { seat, from: target, card: Some(card) });
            }
            Action::Outmaneuver => {
                for s in Seat::all(self.players.len()) {
                    let p = &mut self.players[s];
                    if s != seat && !p.withdrawn && self.shield != Some(s) && p.display.len() >= 2 {
                        let card = p.display.pop().expect("two cards");
                        self.discard.push(card);
                        out.push(Event::Discarded { seat: s, card });
                    }
                }
            }
            Action::Charge | Action::Countercharge => {
                let v = self.charge_value(matches!(action, Action::Charge)).expect("checked");
                for s in self.affected_list(seat).iter() {
                    self.strip(s, |c| c.value() == v, out);
                }
            }
            Action::Disgrace => {
                for s in self.affected_list(seat).iter() {
                    self.strip(s, |c| c.is_supporter(), out);
                }
            }
            Action::Adapt => {
                let mut queue = Vec::new();
                // The player's own display first, then clockwise.
                let n = self.players.len() as u8;
                let targets = self.affected_list(seat);
                for k in 0..n {
                    let s = Seat((seat.0 + k) % n);
                    if !targets.contains(s) {
                        continue;
                    }
                    let dup = duplicated_values(&self.players[s].display);
                    for v in 1..=7u8 {
                        if dup & (1 << v) == 0 {
                            continue;
                        }
                        let d = &self.players[s].display;
                        let first = *d.iter().find(|c| c.value() == v).expect("duplicated");
                        if d.iter().all(|c| c.value() != v || *c == first) {
                            self.keep_one(s, v, first, out);
                        } else {
                            queue.push((s, v));
                        }
                    }
                }
                if !queue.is_empty() {
                    self.phase = Phase::Adapt { queue: Box::new(queue) };
                }
            }
            Action::Outwit { give, target, take } => {
                let gave = self.take_slot(seat, give);
                let took = self.take_slot(target, take);
                self.put_face_up(target, gave);
                self.put_face_up(seat, took);
                out.push(Event::Swapped { seat, target, gave, took });
            }
            Action::Shield => {
                self.shield = Some(seat);
                out.push(Event::Placed { seat, card: Card::Shield });
            }
            Action::Stunned { target } => {
                self.stunned = Some(target);
                out.push(Event::Placed { seat: target, card: Card::Stunned });
            }
            _ => unreachable!("not an action card"),
        }
    }

    fn affected_list(&self, seat: Seat) -> SeatSet {
        self.affected(seat).collect()
    }

    fn set_colour(&mut self, colour: Colour, out: &mut Vec<Event>) {
        self.colour = Some(colour);
        out.push(Event::ColourChanged { colour });
    }

    /// Discards the cards of `seat`'s display matching `pred`, keeping the earliest if all
    /// match (§6.4).
    fn strip(&mut self, seat: Seat, pred: impl Fn(&Card) -> bool, out: &mut Vec<Event>) {
        let d = &mut self.players[seat].display;
        if !strips_any(d, &pred) {
            return;
        }
        let keep_first = d.iter().all(&pred);
        let discard = &mut self.discard;
        let mut i = 0;
        d.retain(|c| {
            let first = i == 0;
            i += 1;
            if pred(c) && !(keep_first && first) {
                discard.push(*c);
                out.push(Event::Discarded { seat, card: *c });
                false
            } else {
                true
            }
        });
    }

    /// Adapt: `seat` keeps the earliest `card` among their cards of `value`.
    fn keep_one(&mut self, seat: Seat, value: u8, card: Card, out: &mut Vec<Event>) {
        let d = &mut self.players[seat].display;
        let discard = &mut self.discard;
        let mut kept = false;
        d.retain(|c| {
            if c.value() != value {
                true
            } else if *c == card && !kept {
                kept = true;
                true
            } else {
                discard.push(*c);
                out.push(Event::Discarded { seat, card: *c });
                false
            }
        });
        out.push(Event::Kept { seat, card });
    }

    fn take_slot(&mut self, seat: Seat, slot: Slot) -> Card {
        match slot {
            Slot::Display { pos } => self.players[seat].display.remove(pos as usize),
            Slot::Shield => {
                self.shield = None;
                Card::Shield
            }
            Slot::Stunned => {
                self.stunned = None;
                Card::Stunned
            }
        }
    }

    fn put_face_up(&mut self, seat: Seat, card: Card) {
        match card {
            Card::Shield => self.shield = Some(seat),
            Card::Stunned => self.stunned = Some(seat),
            _ => self.players[seat].display.push(card),
        }
    }

    // ----- turns and tournaments ------------------------------------------------------------

    /// Draws one card for `seat` (§5.11): reshuffle the discard pile first if the draw pile is
    /// empty, and at once when its last card is taken.
    fn draw_for(&mut self, seat: Seat, out: &mut Vec<Event>) -> bool {
        if self.draw.is_empty() {
            self.reshuffle(out);
        }
        let Some(card) = self.draw.pop() else {
            out.push(Event::NothingToDraw { seat });
            return false;
        };
        self.players[seat].hand.add(card);
        out.push(Event::Drew { seat, card: Some(card) });
        if self.draw.is_empty() {
            self.reshuffle(out);
        }
        true
    }

    fn reshuffle(&mut self, out: &mut Vec<Event>) {
        if self.discard.is_empty() {
            return;
        }
        std::mem::swap(&mut self.draw, &mut self.discard);
        self.rng.shuffle(&mut self.draw);
        out.push(Event::Reshuffled { cards: self.draw.len() as u8 });
    }

    fn begin_tournament(&mut self, starter: Seat, out: &mut Vec<Event>) {
        for p in self.players.values_mut() {
            p.withdrawn = false;
        }
        self.colour = None;
        let n = self.players.len() as u8;
        let mut seat = starter;
        let mut dry = 0;
        loop {
            self.active = seat;
            self.played = false;
            self.added = 0;
            let drew = self.draw_for(seat, out);
            if !self.allowed_colours(seat).is_empty() {
                self.phase = Phase::Start;
                return;
            }
            out.push(Event::CannotStart { seat, hand: self.players[seat].hand.cards().collect() });
            dry = if drew { 0 } else { dry + 1 };
            if dry >= n {
                self.phase = Phase::Over { winner: None };
                out.push(Event::Stalled);
                return;
            }
            seat = Seat((seat.0 + 1) % n);
        }
    }

    fn begin_turn(&mut self, seat: Seat, out: &mut Vec<Event>) {
        self.active = seat;
        self.played = false;
        self.added = 0;
        self.phase = Phase::Turn;
        self.draw_for(seat, out);
    }

    /// Stay if a card was played and the display is strictly highest; otherwise withdraw.
    fn end_turn(&mut self, out: &mut Vec<Event>) {
        let seat = self.active;
        let mine = self.total(seat);
        let highest = self.played
            && self
                .players
                .iter()
                .all(|(s, p)| s == seat || p.withdrawn || display_total(&p.display, self.colour) < mine);
        if highest {
            out.push(Event::Stayed { seat });
            let next = self.next_active(seat);
            self.begin_turn(next, out);
            return;
        }
        let p = &self.players[seat];
        if p.display.contains(&Card::Maiden) && !p.tokens.is_empty() {
            if p.tokens.len() > 1 {
                self.phase = Phase::MaidenPenalty;
                return;
            }
            let colour = p.tokens.iter().next().expect("one token");
            self.return_token(seat, colour, out);
        }
        self.finish_withdrawal(seat, out);
    }

    fn return_token(&mut self, seat: Seat, colour: Colour, out: &mut Vec<Event>) {
        self.players[seat].tokens.remove(colour);
        self.supply[colour.index()] += 1;
        out.push(Event::TokenReturned { seat, colour });
    }

    fn clear_table(&mut self, seat: Seat) {
        let p = &mut self.players[seat];
        self.discard.append(&mut p.display);
        if self.shield == Some(seat) {
            self.shield = None;
            self.discard.push(Card::Shield);
        }
        if self.stunned == Some(seat) {
            self.stunned = None;
            self.discard.push(Card::Stunned);
        }
    }

    fn finish_withdrawal(&mut self, seat: Seat, out: &mut Vec<Event>) {
        self.clear_table(seat);
        self.players[seat].withdrawn = true;
        out.push(Event::Withdrew { seat });
        let left = self.in_tournament();
        if left.len() == 1 {
            self.win_tournament(left.first().expect("one left"), out);
        } else {
            let next = self.next_active(seat);
            self.begin_turn(next, out);
        }
    }

    fn win_tournament(&mut self, winner: Seat, out: &mut Vec<Event>) {
        let colour = self.colour.expect("a tournament in progress has a colour");
        self.clear_table(winner);
        self.previous = Some(colour);
        self.tournaments += 1;
        out.push(Event::TournamentWon { seat: winner, colour });
        let tokens = self.players[winner].tokens;
        if colour == Colour::Purple {
            let options = tokens.complement();
            if options.len() > 1 {
                self.phase = Phase::PurpleToken { winner };
                return;
            }
            if let Some(c) = options.iter().next() {
                self.gain_token(winner, c, out);
            }
        } else if !tokens.contains(colour) {
            self.gain_token(winner, colour, out);
        }
        self.after_award(winner, out);
    }

    fn gain_token(&mut self, seat: Seat, colour: Colour, out: &mut Vec<Event>) {
        self.players[seat].tokens.insert(colour);
        self.supply[colour.index()] -= 1;
        out.push(Event::TokenGained { seat, colour });
    }

    fn after_award(&mut self, winner: Seat, out: &mut Vec<Event>) {
        if self.players[winner].tokens.len() >= self.tokens_to_win() {
            self.phase = Phase::Over { winner: Some(winner) };
            out.push(Event::GameWon { seat: winner });
        } else {
            self.begin_tournament(winner, out);
        }
    }

    // ----- hidden information -----------------------------------------------------------------

    /// Resamples the hands `viewer` cannot see and the draw pile, keeping every count. A
    /// designated starter is public knowledge to be able to open, so a resample that leaves
    /// them unable to is drawn again.
    pub(crate) fn resample(&self, viewer: Option<Seat>, rng: &mut MatchRng) -> Ivanhoe {
        let mut g = self.clone();
        g.rng = rng.fork();
        let mut pool: Vec<Card> = g.draw.clone();
        for (s, p) in g.players.iter() {
            if Some(s) != viewer {
                pool.extend(p.hand.cards());
            }
        }
        // The pool is gathered in the real deal's order; sorting it first makes the copy
        // depend only on what the viewer knows (the same view gives the same copy).
        pool.sort_unstable();
        let starter_public = matches!(g.phase, Phase::Start) && Some(g.active) != viewer;
        for attempt in 0..64 {
            rng.shuffle(&mut pool);
            let mut it = pool.iter().copied();
            for s in Seat::all(g.players.len()) {
                if Some(s) != viewer {
                    let k = self.players[s].hand.len();
                    g.players[s].hand = it.by_ref().take(k).collect::<Hand>();
                }
            }
            g.draw.clear();
            g.draw.extend(it);
            if !starter_public || !g.allowed_colours(g.active).is_empty() || attempt == 63 {
                break;
            }
        }
        if starter_public && g.allowed_colours(g.active).is_empty() {
            // Practically unreachable (eight-plus cards without a coloured card or supporter in
            // 64 draws): keep the true hands rather than produce an impossible position.
            let rng = g.rng;
            g = self.clone();
            g.rng = rng;
        }
        g
    }
}

/// Whether stripping `pred` from `display` would discard a card. §6.4 keeps the last one, so
/// it does exactly when a card matches and the display holds two or more.
pub(crate) fn strips_any(display: &[Card], pred: impl Fn(&Card) -> bool) -> bool {
    display.len() >= 2 && display.iter().any(pred)
}

/// Bit `v` set for each printed value held more than once.
pub(crate) fn duplicated_values(display: &[Card]) -> u16 {
    let (mut seen, mut dup) = (0u16, 0u16);
    for c in display {
        let b = 1 << c.value();
        dup |= seen & b;
        seen |= b;
    }
    dup
}
