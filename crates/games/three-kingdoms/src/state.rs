//! The match state: players, piles, the turn, and the resolution stack.
//!
//! Everything in progress is data: a stack of [`Frame`]s (an Attack resolving, a Negate chain,
//! a rescue window, ...) worked from the top, and at most one [`Pending`] decision the top
//! frame waits for. A child frame hands its result to its parent through [`Ret`].

use crate::action::{Side, Targets, Used, Zone};
use crate::cards::{CardId, Kind, Slot};
use crate::config::{Config, Role};
use crate::generals::{General, Skill};
use engine::flow::{DecisionSerial, Window};
use engine::{MatchRng, Seat};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub general: Option<General>,
    /// Setup: the generals offered to this seat (secret).
    pub candidates: Vec<General>,
    pub role: Role,
    /// Roles other than the Lord's are secret until death.
    pub revealed: bool,
    pub alive: bool,
    pub hp: i8,
    pub max_hp: i8,
    pub hand: Vec<CardId>,
    pub equip: [Option<CardId>; 4],
    /// Delayed tools, oldest first, each with what it is used as (National Beauty: a ♦ card
    /// as Acedia).
    pub judge: Vec<(CardId, Kind)>,
}

impl Player {
    pub fn weapon(&self) -> Option<Kind> {
        self.equip[Slot::Weapon.index()].map(CardId::kind)
    }
    pub fn armour(&self) -> Option<Kind> {
        self.equip[Slot::Armour.index()].map(CardId::kind)
    }
    pub fn equip_count(&self) -> usize {
        self.equip.iter().flatten().count()
    }
    pub fn card_count(&self) -> usize {
        self.hand.len() + self.equip_count()
    }
    pub fn wounded(&self) -> bool {
        self.hp < self.max_hp
    }
}

/// Where the turn is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// The Lord picks a general.
    LordChooses,
    /// The others pick, all at once.
    OthersChoose,
    Start,
    Judgement,
    Draw,
    Play,
    Discard,
    End,
    Over(Side),
}

/// Per-turn counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnState {
    /// Attacks used that count against the limit.
    pub attacks: u8,
    /// An Attack was used or played during the Play phase (Restraint).
    pub attack_in_play: bool,
    pub skip_play: bool,
    pub bare_chested: bool,
    /// Once-per-Play-phase skills already used (bit per skill index).
    pub used_skills: u64,
    pub benevolence_given: u8,
    pub benevolence_healed: bool,
}

impl TurnState {
    pub fn used(&self, s: Skill) -> bool {
        self.used_skills & (1 << s as u32) != 0
    }
    pub fn mark(&mut self, s: Skill) {
        self.used_skills |= 1 << s as u32;
    }
}

/// What a request asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ask {
    pub seat: Seat,
    /// Dodge, Attack, Peach (rescue) or Negate.
    pub need: Kind,
    pub times: u8,
    pub done: u8,
    /// The Attack supplied is *used* on this seat (Borrowed Sword, Green Dragon Blade): its
    /// card goes to the processing area instead of the discard pile.
    pub use_on: Option<Seat>,
    /// Rescue: who is dying.
    pub dying: Option<Seat>,
    pub ignore_armour: bool,
    pub trigrams_tried: bool,
    pub helpers_tried: bool,
    /// The Lord this seat answers for (Entourage/Rouse helper).
    pub for_lord: Option<Seat>,
    pub waiting: AskWait,
    pub last: Option<Used>,
    /// What the request answers: the card asking for it and the seat that used it (the Attack
    /// a Dodge is for, a Barbarians, a Duel's opponent). Views show it as `about`.
    pub answers: Option<(Kind, Seat)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AskWait {
    Answer,
    Trigrams,
    Helpers,
}

impl Ask {
    /// A request answering `kind` used by `by`.
    pub fn answering(seat: Seat, need: Kind, times: u8, kind: Kind, by: Seat) -> Self {
        Ask { answers: Some((kind, by)), ..Ask::new(seat, need, times) }
    }

    pub fn new(seat: Seat, need: Kind, times: u8) -> Self {
        Ask {
            seat,
            need,
            times,
            done: 0,
            use_on: None,
            dying: None,
            ignore_armour: false,
            trigrams_tried: false,
            helpers_tried: false,
            for_lord: None,
            waiting: AskWait::Answer,
            last: None,
            answers: None,
        }
    }
}

/// A decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pending {
    Play {
        seat: Seat,
    },
    /// Answer a request (the top frame is the `Ask`, or the Negate/rescue/helper poll).
    Ask {
        seat: Seat,
    },
    Confirm {
        seat: Seat,
        skill: Option<Skill>,
        card: Option<Kind>,
    },
    /// Pick one of `from`'s cards, for `why` (Dismantle, Stealing Sheep, Frost Blade, Kirin
    /// Bow, Retaliation). Hand cards are picked blind, by a position that means nothing.
    Pick {
        seat: Seat,
        from: Seat,
        why: crate::action::JudgeFor,
        hand: bool,
        equip: bool,
        judge: bool,
        horses: bool,
        optional: bool,
    },
    /// Discard `n` more cards (hand, or hand and equipment), one at a time.
    Discard {
        seat: Seat,
        n: u8,
        equip: bool,
        except: Option<CardId>,
    },
    /// Unyielding: discard 2 hand cards or take 1 damage.
    Unyielding {
        seat: Seat,
    },
    /// Yin-Yang Swords: discard a hand card or let the wielder draw.
    YinYang {
        seat: Seat,
    },
    /// Triumphant: recover or draw.
    Triumphant {
        seat: Seat,
    },
    NameSuit {
        seat: Seat,
    },
    Harvest {
        seat: Seat,
    },
    Stargaze {
        seat: Seat,
    },
    Give {
        seat: Seat,
    },
    Displace {
        seat: Seat,
        attacker: Seat,
    },
    /// Demonic Talent: replace the judgement card with a hand card.
    Replace {
        seat: Seat,
    },
    DrawPhase {
        seat: Seat,
    },
    Balance {
        seat: Seat,
    },
}

impl Pending {
    pub fn seat(&self) -> Seat {
        use Pending::*;
        match *self {
            Play { seat }
            | Ask { seat }
            | Confirm { seat, .. }
            | Pick { seat, .. }
            | Discard { seat, .. }
            | Unyielding { seat }
            | YinYang { seat }
            | Triumphant { seat }
            | NameSuit { seat }
            | Harvest { seat }
            | Stargaze { seat }
            | Give { seat }
            | Displace { seat, .. }
            | Replace { seat }
            | DrawPhase { seat }
            | Balance { seat } => seat,
        }
    }
}

/// What a finished child frame hands to its parent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ret {
    #[default]
    None,
    /// A Negate chain: whether the effect is cancelled. A confirm: the answer.
    Bool(bool),
    /// A request was answered (with this card, the last of `times`).
    Played(Used),
    /// A request was declined.
    Failed,
    /// A judgement card (still in the processing area).
    Judged(CardId),
    Zone(Zone),
    Card(CardId),
}

/// Work in progress. Stages name the point a frame resumes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Frame {
    Ask(Ask),
    /// Lord helpers (Entourage: Wei Dodges; Rouse: Shu Attacks), polled in turn order.
    Helpers {
        lord: Seat,
        need: Kind,
        asked: u8,
        into_processing: bool,
        waiting: bool,
    },
    /// A Negate chain on `kind` taking effect on `target`: an in-order window (its payload is
    /// what is being answered: the tool, or a Negate), reopened on each Negate played.
    Negate {
        kind: Kind,
        target: Seat,
        cancelled: bool,
        window: Window<Kind>,
    },
    Judge {
        seat: Seat,
        reason: crate::action::JudgeFor,
        card: Option<CardId>,
        asked: bool,
    },
    Damage {
        src: Option<Seat>,
        to: Seat,
        amount: i8,
        cause: Option<Used>,
        stage: u8,
        point: i8,
    },
    /// The rescue window: every living seat in order from the current player; a seat that
    /// uses a Peach may use another before the next is asked.
    Dying {
        seat: Seat,
        killer: Option<Seat>,
        window: Window<Kind>,
    },
    Attack(AttackFrame),
    Tool(ToolFrame),
    Duel {
        user: Seat,
        target: Seat,
        used: Used,
        responder: Seat,
        stage: u8,
    },
    /// Judgement phase: resolve the judgement area, newest first.
    Delayed {
        seat: Seat,
        stage: u8,
        card: Option<(CardId, Kind)>,
    },
    DiscardPhase {
        seat: Seat,
    },
    /// Start phase skills.
    GoddessLuo {
        seat: Seat,
        stage: u8,
    },
    Stargaze {
        seat: Seat,
        cards: Vec<CardId>,
        top: Vec<CardId>,
        bottom: Vec<CardId>,
    },
    /// Kirin Bow: as an Attack's damage lands (before any rescue and the after-damage skills),
    /// the wielder may discard one of the target's horses.
    KirinBow {
        user: Seat,
        target: Seat,
        stage: u8,
    },
    /// After-damage skills needing choices.
    Retaliation {
        seat: Seat,
        from: Seat,
        stage: u8,
    },
    Unyielding {
        seat: Seat,
        src: Seat,
        stage: u8,
    },
    Bequeathed {
        seat: Seat,
        cards: Vec<CardId>,
    },
    Triumphant {
        src: Seat,
    },
    TrojanFlesh {
        seat: Seat,
        stage: u8,
    },
    SowDissension {
        seat: Seat,
        target: Seat,
        suit: Option<crate::cards::Suit>,
        stage: u8,
    },
    Balance {
        seat: Seat,
        chosen: u8,
    },
    /// Lord Liu Bei's Rouse in his Play phase: the Attack a helper supplies is used on `targets`.
    RouseUse {
        seat: Seat,
        targets: Targets,
        stage: u8,
    },
    /// Draw phase (Raid, Bare-Chested or the normal draw).
    DrawPhase {
        seat: Seat,
    },
    Raid {
        seat: Seat,
        targets: Targets,
        idx: u8,
    },
}

/// An Attack resolving on one target (rules §12.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackFrame {
    pub user: Seat,
    pub target: Seat,
    pub used: Used,
    pub stage: AttackStage,
    pub no_dodge: bool,
    pub ignore_armour: bool,
    pub frost_picks: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AttackStage {
    Displace,
    AfterDisplace,
    IronCavalry,
    AfterIronCavalry,
    Swords,
    AfterSwordsConfirm,
    Armour,
    AfterDodge,
    AfterFollowUp,
    AfterAxeConfirm,
    AfterAxeDiscard,
    Hit,
    AfterFrostConfirm,
    AfterFrostPick,
    AfterDamage,
    Finish,
}

/// A non-delayed tool card resolving target by target (rules §12.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolFrame {
    pub user: Seat,
    pub used: Used,
    pub targets: Vec<Seat>,
    /// Borrowed Sword's victim.
    pub victim: Option<Seat>,
    pub idx: u8,
    pub stage: u8,
    /// Bumper Harvest's revealed cards still on offer (they are in the processing area).
    pub revealed: Vec<CardId>,
}

/// The whole match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreeKingdoms {
    pub config: Config,
    pub(crate) rng: MatchRng,
    pub players: Vec<Player>,
    /// Top of the pile is the last element.
    pub draw: Vec<CardId>,
    pub discard: Vec<CardId>,
    /// Cards being used, judged or revealed.
    pub processing: Vec<CardId>,
    pub lord: Seat,
    pub current: Seat,
    pub turn: u32,
    pub step: Step,
    pub ts: TurnState,
    pub stack: Vec<Frame>,
    pub pending: Option<Pending>,
    pub ret: Ret,
    /// Cards a seat is looking at and nobody else sees (Stargaze, Bequeathed Strategy).
    pub peek: Option<(Seat, Vec<CardId>)>,
    /// Numbers the decisions (a new one whenever what is waited for changes).
    pub decisions: DecisionSerial,
    /// Public record of who has acted against the Lord (+) or for the Lord (−), from what
    /// everyone saw: bots read roles into it, since the roles themselves are secret.
    pub hostility: Vec<i16>,
    /// Seed mode (`spy_reveal`): the Lord's "risk level", raised each time the Lord is
    /// attacked (+5 dodged, +10 hit); a Spy reveals itself once it reaches [`RISK_REVEAL`].
    #[serde(default)]
    pub risk: u16,
}

/// Seed mode (`spy_reveal`): the risk level at which a Spy reveals itself at the start of its
/// turn (the seed does not show its condition; rules §15 suggests a threshold).
pub const RISK_REVEAL: u16 = 30;
/// Seed mode: what an Attack on the Lord adds to the risk level (dodged, hit). The seed does
/// not show the formula; rules §15 takes a sibling project's +5/+10.
pub const RISK_DODGED: u16 = 5;
pub const RISK_HIT: u16 = 10;

pub const LORD_CANDIDATES: usize = 5;
pub const HAND_START: u8 = 4;

impl ThreeKingdoms {
    pub fn num_players(&self) -> usize {
        self.players.len()
    }
    pub fn p(&self, s: Seat) -> &Player {
        &self.players[s.index()]
    }
    pub fn pm(&mut self, s: Seat) -> &mut Player {
        &mut self.players[s.index()]
    }
    pub fn alive(&self, s: Seat) -> bool {
        self.players[s.index()].alive
    }
    pub fn is_over(&self) -> bool {
        matches!(self.step, Step::Over(_))
    }

    /// Whether `s` has `skill` now (a Lord skill only while `s` is the Lord).
    pub fn has(&self, s: Seat, skill: Skill) -> bool {
        let p = self.p(s);
        p.alive
            && p.general.is_some_and(|g| g.skill_bits() & (1 << skill as u32) != 0)
            && (!skill.is_lord_skill() || p.role == Role::Lord)
    }

    pub fn general(&self, s: Seat) -> Option<General> {
        self.p(s).general
    }

    /// The living seats in turn order starting from `from` (included if alive).
    pub fn order_from(&self, from: Seat) -> impl Iterator<Item = Seat> + '_ {
        let n = self.players.len();
        (0..n).map(move |i| Seat(((from.index() + i) % n) as u8)).filter(|&s| self.alive(s))
    }

    pub fn next_alive(&self, s: Seat) -> Seat {
        let n = self.players.len();
        (1..=n).map(|i| Seat(((s.index() + i) % n) as u8)).find(|&t| self.alive(t)).unwrap_or(s)
    }

    pub fn alive_count(&self) -> usize {
        self.players.iter().filter(|p| p.alive).count()
    }

    /// Rules §5.5.
    pub fn distance(&self, from: Seat, to: Seat) -> u8 {
        if from == to {
            return 0;
        }
        let n = self.players.len();
        let mut steps: i32 = 0;
        let mut s = from;
        while s != to {
            s = Seat(((s.index() + 1) % n) as u8);
            if self.alive(s) {
                steps += 1;
            }
        }
        let total = self.alive_count() as i32;
        let seat = steps.min(total - steps);
        let mut d = seat;
        if self.p(from).equip[Slot::MinusHorse.index()].is_some() {
            d -= 1;
        }
        if self.has(from, Skill::Horsemanship) {
            d -= 1;
        }
        if self.p(to).equip[Slot::PlusHorse.index()].is_some() {
            d += 1;
        }
        d.max(1) as u8
    }

    pub fn attack_range(&self, s: Seat) -> u8 {
        self.p(s).weapon().map_or(1, Kind::range)
    }

    /// Whether `a` may choose `b` as the target of an Attack (range, Empty City).
    pub fn can_attack(&self, a: Seat, b: Seat) -> bool {
        a != b && self.alive(b) && self.distance(a, b) <= self.attack_range(a) && !self.empty_city(b)
    }

    pub fn empty_city(&self, s: Seat) -> bool {
        self.has(s, Skill::EmptyCity) && self.p(s).hand.is_empty()
    }

    pub fn attack_available(&self, s: Seat) -> bool {
        self.ts.attacks < 1 || self.p(s).weapon() == Some(Kind::ZhugeCrossbow) || self.has(s, Skill::Berserk)
    }

    pub fn zone_card(&self, s: Seat, z: Zone) -> Option<CardId> {
        let p = self.p(s);
        match z {
            Zone::Hand(i) => p.hand.get(i as usize).copied(),
            Zone::Equip(slot) => p.equip[slot.index()],
            Zone::Judge(i) => p.judge.get(i as usize).map(|&(c, _)| c),
        }
    }

    /// How many copies of each card are where: the 108 must each be in exactly one zone.
    pub fn census(&self) -> [u8; crate::cards::DECK_SIZE] {
        let mut n = [0u8; crate::cards::DECK_SIZE];
        let mut add = |c: CardId| n[c.index()] += 1;
        self.draw.iter().chain(&self.discard).chain(&self.processing).for_each(|&c| add(c));
        for p in &self.players {
            p.hand.iter().for_each(|&c| add(c));
            p.equip.iter().flatten().for_each(|&c| add(c));
            p.judge.iter().for_each(|&(c, _)| add(c));
        }
        n
    }
}
