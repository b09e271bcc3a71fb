//! The start of a match: the roles, the generals' picks and their HP, and the first turn.

use crate::action::Event;
use crate::cards::CardId;
use crate::config::{Config, Role, role_counts};
use crate::generals::General;
use crate::state::*;
use engine::{MatchRng, Seat, SetupError};

impl ThreeKingdoms {
    pub fn new_with_events(config: &Config, seed: u64) -> Result<(Self, Vec<Event>), SetupError> {
        if !(4..=10).contains(&config.players) {
            return Err(SetupError::new("bad_player_count", "Three Kingdoms is for 4 to 10 players"));
        }
        let n = config.players as usize;
        let mut rng = MatchRng::new(seed);
        let (l, r, s) = role_counts(config.players, config.two_spies);
        let mut roles = vec![Role::Lord];
        roles.extend(std::iter::repeat_n(Role::Loyalist, l as usize));
        roles.extend(std::iter::repeat_n(Role::Rebel, r as usize));
        roles.extend(std::iter::repeat_n(Role::Spy, s as usize));
        rng.shuffle(&mut roles);
        let lord = Seat(roles.iter().position(|&r| r == Role::Lord).expect("one lord") as u8);
        let mut others: Vec<General> = General::STANDARD.into_iter().filter(|g| !General::LORDS.contains(g)).collect();
        if config.hua_xiong {
            others.push(General::HuaXiong);
        }
        rng.shuffle(&mut others);
        let mut lord_candidates = General::LORDS.to_vec();
        lord_candidates.extend(others.iter().take(LORD_CANDIDATES - 3));
        let players = roles
            .iter()
            .enumerate()
            .map(|(i, &role)| Player {
                general: None,
                candidates: if i == lord.index() { lord_candidates.clone() } else { Vec::new() },
                role,
                revealed: role == Role::Lord,
                alive: true,
                hp: 0,
                max_hp: 0,
                hand: Vec::new(),
                equip: [None; 4],
                judge: Vec::new(),
            })
            .collect();
        let game = ThreeKingdoms {
            config: config.clone(),
            rng,
            players,
            draw: CardId::all().collect(),
            discard: Vec::new(),
            processing: Vec::new(),
            lord,
            current: lord,
            turn: 0,
            step: Step::LordChooses,
            ts: TurnState::default(),
            stack: Vec::new(),
            pending: None,
            ret: Ret::None,
            peek: None,
            decisions: Default::default(),
            hostility: vec![0; n],
            risk: 0,
        };
        Ok((game, vec![Event::RolesDealt { lord }]))
    }

    pub(super) fn choose_general(&mut self, seat: Seat, general: General, out: &mut Vec<Event>) {
        let p = self.pm(seat);
        p.general = Some(general);
        p.candidates.clear();
        if self.step == Step::LordChooses {
            self.set_hp(seat);
            out.push(Event::GeneralChosen { seat, general, hp: self.p(seat).hp });
            // Deal 3 (2 with 10 players) of the remaining generals to each other seat.
            // Every general is in play at most once: the Lord's pick (Hua Xiong too) is out.
            let mut pool: Vec<General> = General::STANDARD.into_iter().collect();
            if self.config.hua_xiong {
                pool.push(General::HuaXiong);
            }
            pool.retain(|&g| g != general);
            self.rng.shuffle(&mut pool);
            let each = if self.num_players() == 10 { 2 } else { 3 };
            let mut it = pool.into_iter();
            for s in 0..self.num_players() {
                if Seat(s as u8) != self.lord {
                    self.players[s].candidates = it.by_ref().take(each).collect();
                }
            }
            self.step = Step::OthersChoose;
            return;
        }
        if self.players.iter().all(|p| p.general.is_some()) {
            let lord = self.lord;
            for s in Seat::all(self.num_players()).filter(|&s| s != lord) {
                self.set_hp(s);
                out.push(Event::GeneralChosen { seat: s, general: self.general(s).expect("chosen"), hp: self.p(s).hp });
            }
            self.rng.shuffle(&mut self.draw);
            for s in self.order_from(self.lord).collect::<Vec<_>>() {
                let cards: Vec<CardId> = (0..HAND_START).filter_map(|_| self.draw.pop()).collect();
                self.pm(s).hand.extend(&cards);
                out.push(Event::Dealt { seat: s, count: cards.len() as u8, cards });
            }
            self.begin_turn(self.lord, out);
            self.run(out);
        }
    }

    fn set_hp(&mut self, seat: Seat) {
        let g = self.general(seat).expect("chosen");
        let mut hp = g.def().hp as i8;
        if g == General::LiuBei && self.config.seed_compat.liu_bei_five_hp {
            hp = 5;
        }
        if self.p(seat).role == Role::Lord && self.num_players() >= 5 {
            hp += 1;
        }
        let p = self.pm(seat);
        p.hp = hp;
        p.max_hp = hp;
    }

    pub(super) fn begin_turn(&mut self, seat: Seat, out: &mut Vec<Event>) {
        self.current = seat;
        self.turn += 1;
        self.ts = TurnState::default();
        self.step = Step::Start;
        out.push(Event::TurnStarted { seat, turn: self.turn });
        // Seed mode: the seed's `spyReveal()` at the start of a Spy's turn — once no Rebel is
        // left (it can win only by killing the Lord last) or the Lord's risk level is high.
        let p = self.p(seat);
        if self.config.seed_compat.spy_reveal
            && p.role == Role::Spy
            && !p.revealed
            && (self.risk >= RISK_REVEAL || !self.players.iter().any(|p| p.alive && p.role == Role::Rebel))
        {
            self.pm(seat).revealed = true;
            out.push(Event::SpyRevealed { seat });
        }
        self.enter(Step::Start, out);
    }

    /// Seed mode (`spy_reveal`): the Lord was attacked; the observers' risk level rises.
    pub(super) fn raise_risk(&mut self, target: Seat, by: u16, out: &mut Vec<Event>) {
        if self.config.seed_compat.spy_reveal && target == self.lord {
            self.risk = self.risk.saturating_add(by);
            out.push(Event::RiskLevel { level: self.risk });
        }
    }
}
