//! The game's words: the table's narration ([`describe_event`]), terminal play (a view
//! rendered, the legal actions in words, typed commands read), and (in `text/seed.rs`) the
//! seed's log style (rules §15) with [`narrate_game`], which plays a whole game between bots
//! and tells it.

use crate::action::{Event, JudgeFor, Side};
use crate::cards::{CardId, Kind};
use crate::state::{Pending, Step, ThreeKingdoms};
use engine::{Seat, Viewer};
use std::fmt::Write;

mod seed;

pub use seed::{narrate_game, seed_line};

/// A seat's general name (or "seat N" before generals are chosen).
pub fn name(g: &ThreeKingdoms, s: Seat) -> String {
    g.general(s).map_or_else(|| format!("seat {}", s.0), |gn| gn.name().to_string())
}

/// Every seat's name for [`describe_event`]: its general once chosen.
pub fn names(g: &ThreeKingdoms) -> Vec<String> {
    Seat::all(g.num_players()).map(|s| name(g, s)).collect()
}

pub fn card_list(cards: &[CardId]) -> String {
    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
}

/// A card kind's name in plain English ("Rain of Arrows"; [`Kind::name`] keeps the seed's
/// spelling for the seed's log).
pub fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::StealingSheep => "Stealing Sheep",
        Kind::RainArrows => "Rain of Arrows",
        Kind::EightTrigrams => "Eight Trigrams",
        k => k.name(),
    }
}

/// A card as the table shows it: `♠7 Attack`.
pub fn card_name(c: CardId) -> String {
    format!("{}{} {}", c.suit().symbol(), crate::cards::rank_name(c.rank()), kind_name(c.kind()))
}

fn card_names(cards: &[CardId]) -> String {
    and_list(cards.iter().map(|&c| card_name(c)).collect())
}

/// "a, b and c".
fn and_list(mut items: Vec<String>) -> String {
    match items.len() {
        0 => String::new(),
        1 => items.remove(0),
        _ => {
            let last = items.pop().unwrap_or_default();
            format!("{} and {last}", items.join(", "))
        }
    }
}

fn count(n: impl Into<u32>, one: &str) -> String {
    let n = n.into();
    if n == 1 { format!("1 {one}") } else { format!("{n} {one}s") }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" }
}

/// What each skill does, in a sentence (rules page, "Generals"): shown where a general is
/// chosen and on each seat.
pub fn skill_text(skill: crate::generals::Skill) -> &'static str {
    use crate::generals::Skill::*;
    match skill {
        Treachery => "After a card hurts you, you may take that card into your hand.",
        Entourage => "Lord: when you need a Dodge, other Wei generals may play one for you.",
        Retaliation => "After someone hurts you, you may take one card (hand or equipment) from them.",
        DemonicTalent => "Before any judgement counts, you may swap in a card from your hand.",
        Unyielding => "After someone hurts you, judge: unless ♥, they discard 2 hand cards or take 1 damage from you.",
        Raid => "Instead of drawing 2, take a hand card from each of one or two other players.",
        BareChested => "Draw 1 card fewer: your Attacks and Duels deal 1 more damage this turn.",
        EnvyOfHeaven => "A judgement card of yours may go into your hand once it has counted.",
        BequeathedStrategy => "For each damage you take, look at the top 2 cards of the pile and give them to anyone.",
        GoddessLuo => "At your turn's start, judge again and again: keep each black card, stop at a red one.",
        Impetus => "Any black hand card can be played as a Dodge.",
        Benevolence => "In your Play phase, give hand cards away; giving 2 or more heals you 1 (once a phase).",
        Rouse => "Lord: when you need an Attack, other Shu generals may play one for you.",
        WarriorSaint => "Any red card you hold or wear can be an Attack.",
        Berserk => "No limit on Attacks in your Play phase.",
        Stargaze => "At your turn's start, look at the top cards of the pile and reorder them top or bottom.",
        EmptyCity => "With no hand cards you cannot be the target of an Attack or a Duel.",
        DragonHeart => "Your Attacks can be Dodges and your Dodges Attacks.",
        Horsemanship => "You count 1 less distance to everyone.",
        IronCavalry => "When you Attack, judge: on red the target cannot Dodge.",
        Wisdom => "Each time you use a non-delayed tool card, draw a card.",
        Genius => "Your tool cards reach any distance.",
        BalanceOfPower => "Once a turn, discard any number of cards and draw as many.",
        Rescued => "Lord: a Peach from another Wu general heals you 2 while you are dying.",
        SurpriseRaid => "Any black card you hold or wear can be a Dismantle.",
        Restraint => "If you used no Attack in your Play phase, you may skip your Discard phase.",
        TrojanFlesh => "In your Play phase, as often as you like: lose 1 HP, draw 2 cards.",
        Handsome => "Draw 3 cards instead of 2 in your Draw phase.",
        SowDissension => {
            "Once a turn: another player names a suit and takes one of your hand cards; wrong suit, 1 damage."
        }
        NationalBeauty => "Any ♦ card you hold or wear can be an Acedia.",
        Displacement => "When attacked, discard a card to pass the Attack to another player in your range.",
        Humility => "Stealing Sheep and Acedia cannot target you.",
        OneAfterAnother => "Whenever your hand becomes empty, draw a card.",
        Marriage => "Once a turn: discard 2 hand cards; you and a wounded male general each heal 1.",
        WarriorWoman => "Each time a card leaves your equipment, draw 2 cards.",
        FirstAid => "Outside your turn, any red card you hold or wear can be a Peach.",
        GreenSalve => "Once a turn: discard a hand card to heal a wounded general 1 (yourself too).",
        Unrivaled => "Your Attacks need two Dodges; in a Duel with you, each answer takes two Attacks.",
        SeedOfAnimosity => "Once a turn: discard a card; one male general duels another (it cannot be negated).",
        EclipseTheMoon => "At the end of your turn, draw a card.",
        Triumphant => "When a red Attack hurts you, its attacker heals 1 or draws a card.",
    }
}

/// One line (or a few) for `e` in plain English, for the table: the web log, terminal play and
/// replays. The viewer's own seat is "you" ("You drew 2 cards", "Zhang Fei attacked you");
/// `None` for events the log leaves out.
///
/// `e` is already redacted for `viewer` (`Game::view_event`); seats are named through `names`
/// (usernames at a table, general names in a simulation).
pub fn describe_event(e: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    let name = |s: Seat| names.get(s.index()).cloned().unwrap_or_else(|| format!("seat {}", s.0));
    // The subject at the start of a sentence, the object, the possessive, "is"/"are".
    let n = |s: Seat| if viewer.is(s) { "You".to_string() } else { name(s) };
    let o = |s: Seat| if viewer.is(s) { "you".to_string() } else { name(s) };
    let poss = |s: Seat| if viewer.is(s) { "your".to_string() } else { format!("{}'s", name(s)) };
    let their = |s: Seat| if viewer.is(s) { "your" } else { "their" };
    let was = |s: Seat| if viewer.is(s) { "were" } else { "was" };
    let hp_left = |hp: i8| format!("{} HP left", hp.max(0));
    let role = |r: crate::config::Role| a_role(r);
    let targets_of = |t: &crate::action::Targets| and_list(t.iter().map(o).collect());
    Some(match e {
        Event::RolesDealt { lord } if viewer.is(*lord) => "Roles are dealt: you are the Lord.".to_string(),
        Event::RolesDealt { lord } => format!("Roles are dealt: {} is the Lord.", name(*lord)),
        Event::GeneralChosen { seat, general, hp } => format!("{} chose {general} ({hp} HP).", n(*seat)),
        Event::Dealt { seat, cards, count: k } if cards.is_empty() => {
            format!("{} drew {} to start.", n(*seat), count(*k, "card"))
        }
        Event::Dealt { seat, cards, .. } => format!("{} drew {} to start.", n(*seat), card_names(cards)),
        Event::TurnStarted { seat, turn } => format!("Turn {turn}: {} turn.", poss(*seat)),
        Event::PlaySkipped { seat } => format!("{} skipped {} Play phase.", n(*seat), their(*seat)),
        Event::DiscardSkipped { seat } => format!("{} skipped {} Discard phase.", n(*seat), their(*seat)),
        Event::Drew { seat, cards, count: k, hand } if cards.is_empty() => {
            format!("{} drew {} ({hand} in hand).", n(*seat), count(*k, "card"))
        }
        Event::Drew { seat, cards, .. } => format!("{} drew {}.", n(*seat), card_names(cards)),
        Event::Equipped { seat, card } => format!("{} equipped {}.", n(*seat), card_name(*card)),
        Event::UsedCard { seat, used, targets } => {
            let card = match used.cards {
                [Some(c), None] if c.kind() == used.kind => card_name(c),
                [Some(c), None] => format!("{} as {}", card_name(c), kind_name(used.kind)),
                [Some(a), Some(b)] => format!("{} and {} as {}", card_name(a), card_name(b), kind_name(used.kind)),
                _ => kind_name(used.kind).to_string(),
            };
            let t = targets_of(targets);
            let who = n(*seat);
            match used.kind {
                Kind::Attack => format!("{who} attacked {t} with {card}."),
                Kind::Barbarians => format!("{who} used {card}: everyone else plays an Attack or takes 1 damage."),
                Kind::RainArrows => format!("{who} used {card}: everyone else plays a Dodge or takes 1 damage."),
                Kind::Duel => format!("{who} challenged {t} to a Duel ({card})."),
                Kind::Acedia => format!("{who} put {card} on {t}."),
                Kind::Lightning => format!("{who} put {card} in {} own judgement area.", their(*seat)),
                Kind::Peach if targets.first() == Some(*seat) || targets.is_empty() => {
                    format!("{who} ate a Peach ({card}).")
                }
                Kind::Peach => format!("{who} gave {t} a Peach ({card})."),
                Kind::Negate => format!("{who} played {card} against the card aimed at {t}."),
                _ if targets.is_empty() => format!("{who} used {card}."),
                _ => format!("{who} used {card} on {t}."),
            }
        }
        Event::Played { seat, used, .. } => match (used.kind, used.cards) {
            (Kind::Dodge, [None, None]) => format!("Eight Trigrams gave {} a Dodge.", o(*seat)),
            (k, [Some(c), None]) if c.kind() == k => format!("{} played {}.", n(*seat), card_name(c)),
            (k, _) => format!(
                "{} played {} as {} {}.",
                n(*seat),
                card_names(&used.physical().collect::<Vec<_>>()),
                article(kind_name(k)),
                kind_name(k)
            ),
        },
        Event::NoAnswer { seat, kind } => {
            let k = kind_name(*kind);
            format!("{} did not play {} {k}.", n(*seat), article(k))
        }
        Event::Judged { seat, card, reason } => match reason {
            JudgeFor::Card(Kind::EightTrigrams) => {
                let ok = if card.is_red() { "red, a Dodge" } else { "black, no Dodge" };
                format!("Eight Trigrams judgement for {}: {}, {ok}.", o(*seat), card_name(*card))
            }
            JudgeFor::Card(k) => format!("Judgement of the {} on {}: {}.", kind_name(*k), o(*seat), card_name(*card)),
            JudgeFor::Skill(s) => format!("{} judged for {s}: {}.", n(*seat), card_name(*card)),
        },
        Event::JudgementReplaced { by, card } => {
            format!("{} replaced the judgement card with {}.", n(*by), card_name(*card))
        }
        Event::Damaged { seat, source: Some(s), amount, hp } if s != seat => {
            format!("{} dealt {amount} damage to {} ({}).", n(*s), o(*seat), hp_left(*hp))
        }
        Event::Damaged { seat, amount, hp, .. } => format!("{} took {amount} damage ({}).", n(*seat), hp_left(*hp)),
        Event::LostHp { seat, hp } => format!("{} lost 1 HP ({}).", n(*seat), hp_left(*hp)),
        Event::Recovered { seat, amount, hp } => format!("{} recovered {amount} HP (now {hp}).", n(*seat)),
        Event::Dying { seat, .. } if viewer.is(*seat) => "You are dying: only a Peach can save you.".to_string(),
        Event::Dying { seat, .. } => format!("{} is dying: only a Peach can save them.", name(*seat)),
        Event::Died { seat, role: r, killer: Some(k) } if k != seat => {
            format!("{} {} killed by {}. {} {} {}.", n(*seat), was(*seat), o(*k), n(*seat), was(*seat), role(*r))
        }
        Event::Died { seat, role: r, .. } => format!("{} died. {} {} {}.", n(*seat), n(*seat), was(*seat), role(*r)),
        Event::Discarded { .. }
        | Event::Moved { .. }
        | Event::Gained { .. }
        | Event::SkillUsed { .. }
        | Event::Nullified { .. }
        | Event::Equipment { .. }
        | Event::LightningMoved { .. }
        | Event::HarvestRevealed { .. }
        | Event::NamedSuit { .. }
        | Event::Looked { .. }
        | Event::Reward { .. }
        | Event::Penalty { .. }
        | Event::Reshuffled { .. }
        | Event::RiskLevel { .. }
        | Event::SpyRevealed { .. }
        | Event::GameOver { .. } => return describe_event_rest(e, viewer, names),
    })
}

/// [`describe_event`] for the events from `Event::Discarded` on (split off: one function
/// would be too long to read).
fn describe_event_rest(e: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    let name = |s: Seat| names.get(s.index()).cloned().unwrap_or_else(|| format!("seat {}", s.0));
    // The subject at the start of a sentence, the object, the possessive, "is"/"are".
    let n = |s: Seat| if viewer.is(s) { "You".to_string() } else { name(s) };
    let o = |s: Seat| if viewer.is(s) { "you".to_string() } else { name(s) };
    let poss = |s: Seat| if viewer.is(s) { "your".to_string() } else { format!("{}'s", name(s)) };
    let their = |s: Seat| if viewer.is(s) { "your" } else { "their" };
    let role = |r: crate::config::Role| a_role(r);
    Some(match e {
        Event::Discarded { seat, cards, .. } => format!("{} discarded {}.", n(*seat), card_names(cards)),
        Event::Moved { from, to, card, .. } => match card {
            Some(c) => format!("{} went from {} to {}.", card_name(*c), o(*from), o(*to)),
            None => format!("A card went from {} to {}.", o(*from), o(*to)),
        },
        Event::Gained { seat, card } => format!("{} took {} into {} hand.", n(*seat), card_name(*card), their(*seat)),
        Event::SkillUsed { seat, skill } => format!("{} used {skill}.", n(*seat)),
        Event::Nullified { seat, kind } => format!("The {} on {} had no effect.", kind_name(*kind), o(*seat)),
        Event::Equipment { seat, kind, target } => {
            let t = target.map(o).unwrap_or_default();
            let tposs = target.map(poss).unwrap_or_default();
            let p = if viewer.is(*seat) { "Your".to_string() } else { poss(*seat) };
            match kind {
                Kind::RenwangShield => format!("{p} Renwang Shield stopped the black Attack."),
                Kind::ZhugeCrossbow => format!("{p} Zhuge Crossbow allowed another Attack."),
                Kind::GreenDragonBlade => format!("{p} Green Dragon Blade attacked again after the Dodge."),
                Kind::BlueSteelBlade => format!("{p} Blue Steel Blade ignored {tposs} armour."),
                Kind::KirinBow => format!("{p} Kirin Bow knocked off {tposs} horse."),
                Kind::YinYangSwords => {
                    format!("{p} Yin-Yang Swords: {t} must discard a card or let {} draw one.", o(*seat))
                }
                Kind::FrostBlade => format!("{p} Frost Blade discarded two of {tposs} cards instead of the damage."),
                Kind::RockCleavingAxe => {
                    format!("{} discarded two cards for the Rock Cleaving Axe: the Attack hit {t} anyway.", n(*seat))
                }
                k => format!("{p} {} took effect.", kind_name(*k)),
            }
        }
        Event::LightningMoved { from, to } => format!("The Lightning passed from {} to {}.", o(*from), o(*to)),
        Event::HarvestRevealed { cards } => format!("Bumper Harvest revealed {}.", card_names(cards)),
        Event::NamedSuit { seat, suit } => format!("{} named {} {suit:?}.", n(*seat), suit.symbol()),
        Event::Looked { seat, cards } if cards.is_empty() => {
            format!("{} looked at cards from the draw pile.", n(*seat))
        }
        Event::Looked { seat, cards } => format!("{} looked at {}.", n(*seat), card_names(cards)),
        Event::Reward { seat, victim } => {
            format!("{} drew 3 cards for killing a Rebel ({}).", n(*seat), o(*victim))
        }
        Event::Penalty { seat, victim } => format!(
            "{} killed a Loyalist ({}) and discarded every card in {} hand and equipment.",
            n(*seat),
            o(*victim),
            their(*seat)
        ),
        Event::Reshuffled { cards } => {
            format!("The discard pile was shuffled into a new draw pile ({}).", count(*cards, "card"))
        }
        Event::RiskLevel { level } => format!("The Lord's risk level rose to {level}."),
        Event::SpyRevealed { seat } => {
            format!("{} revealed {} role: a Spy, now fighting the Lord.", n(*seat), their(*seat))
        }
        Event::GameOver { winners, roles, alive } => {
            let won = |r: crate::config::Role, s: Seat| match winners {
                Side::LordAndLoyalists => matches!(r, crate::config::Role::Lord | crate::config::Role::Loyalist),
                Side::Rebels => r == crate::config::Role::Rebel,
                Side::Spy(p) => *p == s,
                Side::Nobody => false,
            };
            let mut s = match winners {
                Side::LordAndLoyalists => "Game over: the Lord and the Loyalists won!".to_string(),
                Side::Rebels => "Game over: the Rebels won!".to_string(),
                Side::Spy(p) if viewer.is(*p) => "Game over: you won alone as the Spy!".to_string(),
                Side::Spy(p) => format!("Game over: {} won alone as the Spy!", name(*p)),
                Side::Nobody => "Game over: both piles are empty and nobody won.".to_string(),
            };
            if let Some(&(me, r)) = roles.iter().find(|(seat, _)| viewer.is(*seat))
                && !matches!(winners, Side::Nobody | Side::Spy(_))
            {
                s.push_str(if won(r, me) { " You won." } else { " You lost." });
            }
            let told: Vec<String> = roles
                .iter()
                .map(|(seat, r)| {
                    let dead = if alive.contains(*seat) { "" } else { " (dead)" };
                    format!("{}, {}{dead}", o(*seat), role(*r))
                })
                .collect();
            let _ = write!(s, "\nRoles: {}.", told.join("; "));
            s
        }
        _ => unreachable!("describe_event tells {e:?} itself"),
    })
}

/// "the Lord", "a Rebel", ...
fn a_role(role: crate::config::Role) -> String {
    let article = if role == crate::config::Role::Lord { "the" } else { "a" };
    format!("{article} {role}")
}

/// What a seat sees, for terminal play: its role, general, HP, numbered hand, equipment and
/// judgement area; every other seat's general, HP, hand count, equipment, distance and
/// whether it is in attack range; and what is being waited for.
pub fn render_view(g: &ThreeKingdoms, view: &crate::view::View) -> String {
    let mut s = String::new();
    let pname =
        |p: &crate::view::PlayerView| p.general.map_or_else(|| format!("seat {}", p.seat.0), |x| x.name().to_string());
    let equip = |e: &[Option<CardId>; 4]| {
        let v: Vec<String> = e.iter().flatten().map(|c| c.to_string()).collect();
        if v.is_empty() { "-".to_string() } else { v.join(", ") }
    };
    // Names from the view only (a general still being chosen is secret).
    let vname = |x: Seat| view.players.get(x.index()).map_or_else(|| format!("seat {}", x.0), pname);
    let judge = |j: &[(CardId, Kind)]| j.iter().map(|(c, k)| format!("{k} ({c})")).collect::<Vec<_>>().join(", ");
    let phase = match view.step {
        Step::LordChooses => None,
        Step::OthersChoose => None,
        Step::Start => Some("Start"),
        Step::Judgement => Some("Judgement"),
        Step::Draw => Some("Draw"),
        Step::Play => Some("Play"),
        Step::Discard => Some("Discard"),
        Step::End => Some("End"),
        Step::Over(_) => None,
    };
    let _ = match (view.step, phase) {
        (Step::LordChooses, _) => writeln!(s, "The Lord chooses a general first."),
        (Step::OthersChoose, _) => {
            writeln!(s, "The others choose their generals, all at once (they show when all have chosen).")
        }
        (Step::Over(_), _) => writeln!(s, "Game over after {} turns.", view.turn),
        (_, phase) => writeln!(
            s,
            "Turn {}: {} turn, {} phase. Draw pile: {}.",
            view.turn,
            if view.viewer == Some(view.current) { "your".to_string() } else { format!("{}'s", vname(view.current)) },
            phase.unwrap_or("?"),
            view.draw_count
        ),
    };
    if let Some(me) = view.viewer {
        let p = &view.players[me.index()];
        let role = p.role.map_or("?".to_string(), |r| r.to_string());
        if p.general.is_some() {
            let _ = writeln!(s, "You: {} ({role}), HP {}/{}", pname(p), p.hp, p.max_hp);
        } else {
            let _ = writeln!(s, "You: seat {} ({role}), no general yet", p.seat.0);
        }
        let _ = writeln!(
            s,
            "  hand: {}",
            if view.hand.is_empty() {
                "-".to_string()
            } else {
                view.hand.iter().enumerate().map(|(i, c)| format!("[{}] {c}", i + 1)).collect::<Vec<_>>().join("  ")
            }
        );
        let _ = writeln!(s, "  equipment: {}", equip(&p.equip));
        if !p.judge.is_empty() {
            let _ = writeln!(s, "  judgement area: {}", judge(&p.judge));
        }
        if !view.peek.is_empty() {
            let _ = writeln!(s, "  looking at: {}", card_list(&view.peek));
        }
    }
    for p in &view.players {
        if Some(p.seat) == view.viewer {
            continue;
        }
        let role = p.role.map_or(String::new(), |r| format!(" ({r})"));
        if p.general.is_none() {
            let _ = writeln!(s, "  seat {}{role}: no general yet", p.seat.0);
            continue;
        }
        if !p.alive {
            let _ = writeln!(s, "  seat {} {}{role}: dead", p.seat.0, pname(p));
            continue;
        }
        let dist = view.viewer.map_or(String::new(), |me| {
            let d = g.distance(me, p.seat);
            let reach = if g.can_attack(me, p.seat) { ", in your range" } else { "" };
            format!(", distance {d}{reach}")
        });
        let _ = writeln!(
            s,
            "  seat {} {}{role}: HP {}/{}, {}, equipment {}{dist}",
            p.seat.0,
            pname(p),
            p.hp,
            p.max_hp,
            count(p.hand_count, "card"),
            equip(&p.equip)
        );
        if !p.judge.is_empty() {
            let _ = writeln!(s, "    judgement area: {}", judge(&p.judge));
        }
    }
    if !view.table.is_empty() {
        let _ = writeln!(s, "On the table: {}", card_list(&view.table));
    }
    if let Some(w) = view.waiting {
        let who = vname(w.seat());
        let what = waiting_for(view, w, &vname);
        let _ = writeln!(s, "Waiting for {who}: {what}.");
    } else if view.step == Step::OthersChoose {
        let mine = view.viewer.map(|m| &view.players[m.index()]);
        if mine.is_some_and(|p| p.general.is_none()) && !view.candidates.is_empty() {
            let _ = writeln!(s, "Choose your general (the others choose at the same time).");
        } else {
            let _ = writeln!(s, "Waiting for the others to choose their generals.");
        }
    }
    s
}

/// What the table waits for `w` to do, in words.
fn waiting_for(view: &crate::view::View, w: Pending, vname: &dyn Fn(Seat) -> String) -> String {
    match (view.request, view.about) {
        (Some(Kind::Negate), Some((k, t))) => format!("a Negate against the {k} on {}", vname(t)),
        (Some(Kind::Peach), Some((_, t))) => format!("a Peach for the dying {}", vname(t)),
        (Some(k), _) => {
            let article = if k.name().starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
            format!("{article} {k}")
        }
        _ => match w {
            Pending::Play { .. } => "the Play phase".to_string(),
            Pending::Discard { n, .. } => format!("{} to discard", count(n, "card")),
            Pending::Confirm { .. } => "a yes or no".to_string(),
            Pending::Pick { from, .. } => format!("a card of {} to pick", vname(from)),
            Pending::Unyielding { .. } => "Unyielding: discard 2 hand cards or take 1 damage".to_string(),
            Pending::YinYang { .. } => "Yin-Yang Swords: discard a card or let the attacker draw".to_string(),
            Pending::Triumphant { .. } => "Triumphant: recover or draw".to_string(),
            Pending::NameSuit { .. } => "a suit to name".to_string(),
            Pending::Harvest { .. } => "a Bumper Harvest card to take".to_string(),
            Pending::Stargaze { .. } => "Stargaze: the cards to put back".to_string(),
            Pending::Give { .. } => "cards to give".to_string(),
            Pending::Displace { .. } => "Displacement: pass the Attack on or not".to_string(),
            Pending::Replace { .. } => "Demonic Talent: replace the judgement card or not".to_string(),
            Pending::DrawPhase { .. } => "the Draw phase: draw 2 or use a skill instead".to_string(),
            Pending::Balance { .. } => "Balance of Power: the cards to discard".to_string(),
            Pending::Ask { .. } => "an answer".to_string(),
        },
    }
}

/// A legal action in words, for a numbered menu.
pub fn describe_action(g: &ThreeKingdoms, a: &crate::action::Action) -> String {
    use crate::action::Action::*;
    let n = |s: Seat| name(g, s);
    let targets = |t: &crate::action::Targets| t.iter().map(n).collect::<Vec<_>>().join(" and ");
    match a {
        ChooseGeneral { general } => {
            let skills: Vec<String> = general.def().skills.iter().map(|&k| format!("{k}: {}", skill_text(k))).collect();
            format!("choose {general} ({} HP). {}", general.def().hp, skills.join(" "))
        }
        Use { card, kind, targets: t } => {
            let as_ = if card.kind() == *kind { String::new() } else { format!(" as {kind}") };
            if t.is_empty() { format!("use {card}{as_}") } else { format!("use {card}{as_} on {}", targets(t)) }
        }
        UseSpear { cards, targets: t } => {
            format!("Serpent Spear: {} + {} as Attack on {}", cards[0], cards[1], targets(t))
        }
        Rouse { targets: t } => format!("Rouse: ask Shu generals for an Attack on {}", targets(t)),
        Benevolence { card, to } => format!("Benevolence: give {card} to {}", n(*to)),
        Balance => "Balance of Power: discard cards and draw as many".into(),
        TrojanFlesh => "Trojan Flesh: lose 1 HP, draw 2".into(),
        SowDissension { target } => format!("Sow Dissension on {}", n(*target)),
        Marriage { cards, target } => {
            format!("Marriage: discard {} and {}, heal yourself and {}", cards[0], cards[1], n(*target))
        }
        GreenSalve { card, target } => format!("Green Salve: discard {card}, heal {}", n(*target)),
        SeedOfAnimosity { card, first, second } => {
            format!("Seed of Animosity: discard {card}, {} duels {}", n(*second), n(*first))
        }
        EndPlay => "end the Play phase".into(),
        Respond { card, kind } => {
            if card.kind() == *kind {
                format!("play {card}")
            } else {
                format!("play {card} as {kind}")
            }
        }
        RespondSpear { cards } => format!("Serpent Spear: {} + {} as Attack", cards[0], cards[1]),
        EightTrigrams => "Eight Trigrams: judge for a Dodge".into(),
        AskHelpers => "ask your kingdom's generals to answer for you".into(),
        Pass => "pass".into(),
        Confirm { yes } => {
            if *yes {
                "yes".into()
            } else {
                "no".into()
            }
        }
        Pick { zone } => match zone {
            crate::action::Zone::Hand(i) => format!("take hand card #{} (face down)", i + 1),
            crate::action::Zone::Equip(slot) => format!("take the {}", slot.name()),
            crate::action::Zone::Judge(i) => format!("take judgement card #{}", i + 1),
        },
        Discard { card } => format!("discard {card}"),
        Choose { choice } => format!("{choice:?}"),
        NameSuit { suit } => format!("name {}", suit.symbol()),
        Take { card } => format!("take {card}"),
        Place { card, top } => format!("put {card} on the {}", if *top { "top" } else { "bottom" }),
        Give { card, to } => format!("give {card} to {}", n(*to)),
        Displace { card, to } => format!("Displacement: discard {card}, the Attack goes to {}", n(*to)),
        DrawNormally => "draw normally".into(),
        Raid { targets: t } => format!("Raid: take a card from {}", targets(t)),
        BareChested => "Bare-Chested: draw 1 fewer, +1 damage this turn".into(),
        Done => "done".into(),
    }
}

/// Reads a terminal command against the legal actions: a number from the menu, `pass`, `end`
/// or `done`. Anything else is an error (and changes nothing).
pub fn parse_command(input: &str, legal: &[crate::action::Action]) -> Result<crate::action::Action, String> {
    use crate::action::Action;
    let cmd = input.trim().to_ascii_lowercase();
    let named = match cmd.as_str() {
        "pass" | "p" => Some(Action::Pass),
        "end" | "e" => Some(Action::EndPlay),
        "done" => Some(Action::Done),
        "yes" | "y" => Some(Action::Confirm { yes: true }),
        "no" | "n" => Some(Action::Confirm { yes: false }),
        "help" | "h" | "?" => {
            return Err(
                "type the number of an action from the list, or: pass, end (the Play phase), done, yes, no".into()
            );
        }
        _ => None,
    };
    if let Some(a) = named {
        return if legal.contains(&a) { Ok(a) } else { Err(format!("'{cmd}' is not possible now")) };
    }
    match cmd.parse::<usize>() {
        Ok(i) if (1..=legal.len()).contains(&i) => Ok(legal[i - 1]),
        Ok(i) => Err(format!("there is no action {i} (1 to {})", legal.len())),
        Err(_) => Err(format!("unknown command '{}'; type help", input.trim())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use engine::{Game, MatchRng, Observation};

    /// A whole game told to one seat reads as plain English: the seat is "you", and none of
    /// the seed log's debug marks ("card(s)", "his/her", "---Turn") appear.
    #[test]
    fn the_table_log_speaks_to_its_reader() {
        let mut g = ThreeKingdoms::new(&Config::players(5), 11).unwrap();
        let mut bots: Vec<_> = (0..5).map(|_| crate::bot("heuristic").unwrap()).collect();
        let mut rng = MatchRng::new(11);
        let me = Viewer::seat(Seat(2));
        let names: Vec<String> = ["ana", "ben", "cy", "dee", "eve"].map(String::from).to_vec();
        let mut lines = Vec::new();
        let mut steps = 0;
        while g.outcome().is_none() && steps < 20_000 {
            let seat = g.to_act().first().unwrap();
            let legal = g.legal_actions(seat);
            let a = bots[seat.index()].choose(&Observation::new(&g, seat, &legal), &mut rng);
            for e in g.apply(seat, a).unwrap() {
                if let Some(l) = g.view_event(&e, me).and_then(|e| describe_event(&e, me, &names)) {
                    lines.push(l);
                }
            }
            steps += 1;
        }
        let text = lines.join("\n");
        for bad in ["(s)", "his/her", "---", "launch", "Seat 2", "cy "] {
            assert!(!text.contains(bad), "{bad:?} in\n{text}");
        }
        assert!(text.contains("You chose ") && text.contains("Turn 1: "), "{text}");
        assert!(text.contains("Game over: "), "{text}");
        assert!(lines.iter().all(|l| l.ends_with(['.', '!', ')'])), "{text}");
    }

    #[test]
    fn the_terminal_shows_no_empty_seats_while_generals_are_chosen() {
        let g = ThreeKingdoms::new(&Config::players(5), 3).unwrap();
        let screen = render_view(&g, &g.view(Viewer::seat(Seat(1))));
        assert!(!screen.contains("seat 1 seat 1") && !screen.contains("HP 0/0"), "{screen}");
        assert!(!screen.contains("Choose)"), "{screen}");
        assert!(screen.contains("The Lord chooses a general first."), "{screen}");
    }

    #[test]
    fn every_skill_has_a_text() {
        for g in crate::generals::General::STANDARD.into_iter().chain([crate::generals::General::HuaXiong]) {
            for s in g.def().skills {
                assert!(skill_text(*s).ends_with('.'), "{s}");
            }
        }
    }
}
