//! Plain-text narration in the seed's log style (rules §15): one line per event, and
//! [`narrate_game`], which plays a whole game between bots and tells it.

use crate::action::{Event, JudgeFor, Side};
use crate::cards::{CardId, Kind, Slot};
use crate::config::Config;
use crate::state::{Pending, ThreeKingdoms};
use engine::{Bot, Game, MatchRng, Observation, Seat, Viewer};
use std::fmt::Write;

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

/// One line (or a few) for `e`, told by an all-seeing narrator; `None` for events the log
/// leaves out.
///
/// `e` is already redacted for `viewer` (`Game::view_event`); seats are named through `names`
/// (general names in the narrative simulation, player names at a table).
pub fn describe_event(e: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    let _ = viewer;
    let n = |s: Seat| names.get(s.index()).cloned().unwrap_or_else(|| format!("seat {}", s.0));
    Some(match e {
        Event::RolesDealt { lord } => format!("Seat {} is the Lord.", lord.0),
        Event::GeneralChosen { seat, general, hp } => {
            format!("Seat {} chooses {general}, HP {hp}.", seat.0)
        }
        // Cards a viewer may not see are left out of the line.
        Event::Dealt { seat, cards, count } if cards.is_empty() => {
            format!("{} draw {} card(s), now has {} card(s).", n(*seat), count, count)
        }
        Event::Dealt { seat, cards, count } => {
            format!("{} draw {} card(s), now has {} card(s). Hand: {}", n(*seat), count, count, card_list(cards))
        }
        Event::TurnStarted { turn, .. } => format!("---Turn {turn}---"),
        Event::PlaySkipped { seat } => format!("{} is unlucky and skips the Play phase.", n(*seat)),
        Event::DiscardSkipped { seat } => format!("{} skips the Discard phase.", n(*seat)),
        Event::Drew { seat, cards, count, hand } if cards.is_empty() => {
            format!("{} draw {} card(s), now has {} card(s).", n(*seat), count, hand)
        }
        Event::Drew { seat, cards, count, hand } => {
            format!("{} draw {} card(s), now has {} card(s). Drew: {}", n(*seat), count, hand, card_list(cards))
        }
        Event::Equipped { seat, card } => {
            let area = match card.kind().slot() {
                Some(Slot::Weapon) => "weapon",
                Some(Slot::Armour) => "armour",
                _ => "horse",
            };
            format!("{} takes the {area}: [{}] from his/her hand to the {area} area.", n(*seat), card.kind())
        }
        Event::UsedCard { seat, used, targets } => {
            let card = match used.cards {
                [Some(c), None] if c.kind() == used.kind => c.to_string(),
                [Some(c), None] => format!("{c} as {}", used.kind),
                [Some(a), Some(b)] => format!("{a} and {b} as {}", used.kind),
                _ => used.kind.to_string(),
            };
            let t: Vec<String> = targets.iter().map(n).collect();
            let t = t.join(" and ");
            match used.kind {
                Kind::Attack => format!("{} spends a card {card} to attack {t}.\n{t} being attacked.", n(*seat)),
                Kind::Barbarians => {
                    format!(
                        "{} launch a command Barbarian, every one need to spend an attack card to avoid the attack",
                        n(*seat)
                    )
                }
                Kind::RainArrows => {
                    format!("{} launch RainArrows, every one need to spend a dodge card to avoid the arrows", n(*seat))
                }
                Kind::Duel => format!("{} launch a duel with {t}", n(*seat)),
                Kind::Acedia => format!("{} set a judgement Acedia to {t}", n(*seat)),
                Kind::Lightning => format!("{} sets Lightning in his/her own judgement area", n(*seat)),
                Kind::Peach if targets.first() == Some(*seat) => format!("{} eats a Peach ({card}).", n(*seat)),
                Kind::Peach => format!("{} gives {t} a Peach ({card}).", n(*seat)),
                Kind::Negate => format!("{} plays {card} (on the card aimed at {t}).", n(*seat)),
                _ if targets.is_empty() => format!("{} uses {card}.", n(*seat)),
                _ => format!("{} uses {card} on {t}.", n(*seat)),
            }
        }
        Event::Played { seat, used, hand } => match (used.kind, used.cards) {
            (Kind::Dodge, [None, None]) => format!("[Eight Trigrams Formation] of {}: Success!", n(*seat)),
            (Kind::Dodge, [Some(c), _]) if c.kind() == Kind::Dodge => {
                format!("{} dodge 1 attack by spending a Dodge card. Current cards: {hand}.", n(*seat))
            }
            (Kind::Dodge, [Some(c), _]) => {
                format!("{} dodge 1 attack by spending {c} as a Dodge. Current cards: {hand}.", n(*seat))
            }
            (k, [Some(c), None]) if c.kind() == k => format!("{} plays a card {c}. Current cards: {hand}.", n(*seat)),
            (k, _) => format!(
                "{} plays {} as {k}. Current cards: {hand}.",
                n(*seat),
                card_list(&used.physical().collect::<Vec<_>>())
            ),
        },
        Event::NoAnswer { seat, kind } => {
            let article = if kind.name().starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
            format!("{} does not play {article} {kind}.", n(*seat))
        }
        Event::Judged { seat, card, reason } => match reason {
            JudgeFor::Card(Kind::EightTrigrams) => {
                let ok = if card.is_red() { "red" } else { "black: Failure." };
                format!("[Eight Trigrams Formation] of {}: judgement {card}, {ok}", n(*seat))
            }
            JudgeFor::Card(k) => format!("{} judging the {k} card: {card}.", n(*seat)),
            JudgeFor::Skill(s) => format!("[{s}] {} judges: {card}.", n(*seat)),
        },
        Event::JudgementReplaced { by, card } => format!("{} replaces the judgement card with {card}.", n(*by)),
        Event::Damaged { seat, source, amount, hp } => match source {
            Some(s) => {
                format!("{} is attacked successfully by {} ({amount} damage), current HP is {hp}", n(*seat), n(*s))
            }
            None => format!("{} takes {amount} damage, current HP is {hp}", n(*seat)),
        },
        Event::LostHp { seat, hp } => format!("{} loses 1 HP, current HP is {hp}", n(*seat)),
        Event::Recovered { seat, amount, hp } => format!("{} recovers {amount} HP, current HP is {hp}", n(*seat)),
        Event::Dying { seat, hp } => format!("{}'s hp is {hp} now! {} is dying.", n(*seat), n(*seat)),
        Event::Died { seat, role, killer } => match killer {
            Some(k) => format!("{} is killed by {}. {} was {}.", n(*seat), n(*k), n(*seat), a_role(*role)),
            None => format!("{} dies. {} was {}.", n(*seat), n(*seat), a_role(*role)),
        },
        Event::Discarded { seat, cards, hand, hp } => {
            format!(
                "{} (HP: {}) discarded {} card(s): {}, now has {hand} card(s).",
                n(*seat),
                hp,
                cards.len(),
                card_list(cards)
            )
        }
        Event::Moved { from, to, card, .. } => match card {
            Some(c) => format!("{} takes a card {c} from {}.", n(*to), n(*from)),
            None => format!("{} takes a card from {}.", n(*to), n(*from)),
        },
        Event::Gained { seat, card } => format!("{} takes {card} into his/her hand.", n(*seat)),
        Event::SkillUsed { seat, skill } => format!("[{skill}] {}", n(*seat)),
        Event::Nullified { seat, kind } => format!("The {kind} on {} is negated.", n(*seat)),
        Event::Equipment { seat, kind, target } => {
            let t = target.map(n).unwrap_or_default();
            match kind {
                Kind::RenwangShield => format!("[Renwang Shield] the black Attack has no effect on {}.", n(*seat)),
                Kind::ZhugeCrossbow => "[Zhuge Crossbow] Continuous \"Attack\"s enabled.".to_string(),
                Kind::GreenDragonBlade => "[Green Dragon Blade] \"Attack\" enabled again.".to_string(),
                Kind::BlueSteelBlade => {
                    format!("[Blue Steel Blade] {t}'s Defense Card is neglected.")
                }
                Kind::KirinBow => format!("[Kirin Bow] {t}'s Horse Card is abandoned."),
                Kind::YinYangSwords => {
                    format!("[Yin-Yang Swords] {} makes {t} choose: discard a card or let them draw.", n(*seat))
                }
                Kind::FrostBlade => {
                    format!("[Frost Blade] {} discards two of {t}'s cards instead of the damage.", n(*seat))
                }
                Kind::RockCleavingAxe => {
                    format!("[Rock Cleaving Axe] {} discards two cards: the Attack hits {t} anyway.", n(*seat))
                }
                k => format!("[{k}] {}", n(*seat)),
            }
        }
        Event::LightningMoved { from, to } => format!("The Lightning passes from {} to {}.", n(*from), n(*to)),
        Event::HarvestRevealed { cards } => format!("Bumper Harvest reveals: {}", card_list(cards)),
        Event::NamedSuit { seat, suit } => format!("{} names {}.", n(*seat), suit.symbol()),
        Event::Looked { seat, cards } => format!("{} looks at {}.", n(*seat), card_list(cards)),
        Event::Reward { seat, victim } => {
            format!("{} kills {}, a Rebel, rewards 3 additional cards!", n(*seat), n(*victim))
        }
        Event::Penalty { seat, victim } => {
            format!("{} killed {}, a Loyalist, and discards every card in hand and equipment!", n(*seat), n(*victim))
        }
        Event::Reshuffled { cards } => format!("The discard pile is shuffled into a new draw pile ({cards} cards)."),
        Event::RiskLevel { level } => format!("Current risk level: {level}"),
        Event::SpyRevealed { seat } => {
            format!("{} reveals his/her identity: a Spy! From now on he/she fights the Lord.", n(*seat))
        }
        Event::GameOver { winners, roles, alive } => {
            let mut s = match winners {
                Side::LordAndLoyalists => "The Lord and the Loyalists win!".to_string(),
                Side::Rebels => "The Rebels win!".to_string(),
                Side::Spy(p) => format!("The Spy {} wins alone!", n(*p)),
                Side::Nobody => "Both piles are empty: nobody wins.".to_string(),
            };
            for (seat, role) in roles {
                let dead = if alive.contains(*seat) { "" } else { " (dead)" };
                let _ = write!(s, "\n{} was {}{dead}.", n(*seat), a_role(*role));
            }
            s
        }
    })
}

/// Plays one game from `seed` with `bots` (one per seat) and tells it in the seed's style.
pub fn narrate_game(config: &Config, seed: u64, bots: &mut [Box<dyn Bot<ThreeKingdoms>>]) -> String {
    let (mut game, start) = match ThreeKingdoms::new_with_events(config, seed) {
        Ok(x) => x,
        Err(e) => return format!("cannot start: {e}\n"),
    };
    let mut text = String::new();
    for e in &start {
        if let Some(line) = describe_event(e, Viewer::Spectator, &names(&game)) {
            let _ = writeln!(text, "{line}");
        }
    }
    let mut rng = MatchRng::new(seed ^ 0x5EED);
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let mut dealt = false;
    let mut steps = 0;
    while game.outcome().is_none() && steps < game.step_limit() {
        let Some(seat) = game.to_act().first() else { break };
        legal.clear();
        game.legal_actions_into(seat, &mut legal);
        let action = bots[seat.index()].choose(&Observation::new(&game, seat, &legal), &mut rng);
        events.clear();
        if game.apply_into(seat, action, &mut events).is_err() {
            let _ = writeln!(text, "(a bot chose an illegal action; the narration stops)");
            break;
        }
        for (i, e) in events.iter().enumerate() {
            if matches!(e, Event::Dealt { .. }) && !dealt {
                dealt = true;
                let _ = writeln!(text, "---Distribute Cards for the Starting Hand---");
            }
            // The narrator sees everything: the roles as the generals are chosen, too.
            let mut line = match e {
                Event::GeneralChosen { seat, general, hp } => {
                    Some(format!("Seat {} ({}) chooses {general}, HP {hp}.", seat.0, game.p(*seat).role))
                }
                _ => describe_event(e, Viewer::Spectator, &names(&game)),
            };
            // After a draw or a discard the seed's log shows the whole hand: the narrator can
            // when nothing later in this step changed that hand.
            if let (Some(l), Event::Drew { seat, hand, .. } | Event::Discarded { seat, hand, .. }) = (&mut line, e)
                && !events[i + 1..].iter().any(|later| touches_hand(later, *seat))
                && game.p(*seat).hand.len() == usize::from(*hand)
                && *hand > 0
            {
                let stop = if l.ends_with('.') { "" } else { "." };
                let _ = write!(l, "{stop} Hand: {}", card_list(&game.p(*seat).hand));
            }
            if let Some(line) = line {
                let _ = writeln!(text, "{line}");
            }
        }
        steps += 1;
    }
    text
}

/// "the Lord", "a Rebel", ...
fn a_role(role: crate::config::Role) -> String {
    let article = if role == crate::config::Role::Lord { "the" } else { "a" };
    format!("{article} {role}")
}

/// Whether `e` may change `seat`'s hand.
fn touches_hand(e: &Event, seat: Seat) -> bool {
    match *e {
        Event::Drew { seat: s, .. }
        | Event::Dealt { seat: s, .. }
        | Event::Discarded { seat: s, .. }
        | Event::Gained { seat: s, .. }
        | Event::Played { seat: s, .. }
        | Event::UsedCard { seat: s, .. }
        | Event::Equipped { seat: s, .. }
        | Event::Penalty { seat: s, .. } => s == seat,
        Event::Moved { from, to, .. } => from == seat || to == seat,
        _ => false,
    }
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
    let _ = writeln!(
        s,
        "Turn {} — {}'s turn ({:?}). Draw pile: {}.",
        view.turn,
        vname(view.current),
        view.step,
        view.draw_count
    );
    if let Some(me) = view.viewer {
        let p = &view.players[me.index()];
        let role = p.role.map_or("?".to_string(), |r| r.to_string());
        let _ = writeln!(s, "You: {} ({role}), HP {}/{}", pname(p), p.hp, p.max_hp);
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
            "  seat {} {}{role}: HP {}/{}, {} card(s), equipment {}{dist}",
            p.seat.0,
            pname(p),
            p.hp,
            p.max_hp,
            p.hand_count,
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
        let what = match (view.request, view.about) {
            (Some(Kind::Negate), Some((k, t))) => format!("a Negate against the {k} on {}", vname(t)),
            (Some(Kind::Peach), Some((_, t))) => format!("a Peach for the dying {}", vname(t)),
            (Some(k), _) => {
                let article = if k.name().starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
                format!("{article} {k}")
            }
            _ => match w {
                Pending::Play { .. } => "the Play phase".to_string(),
                Pending::Discard { n, .. } => format!("{n} card(s) to discard"),
                Pending::Confirm { .. } => "a yes or no".to_string(),
                Pending::Pick { from, .. } => format!("a card of {} to pick", vname(from)),
                _ => format!("{w:?}").split([' ', '{']).next().unwrap_or("").to_string(),
            },
        };
        let _ = writeln!(s, "Waiting for {who}: {what}.");
    }
    s
}

/// A legal action in words, for a numbered menu.
pub fn describe_action(g: &ThreeKingdoms, a: &crate::action::Action) -> String {
    use crate::action::Action::*;
    let n = |s: Seat| name(g, s);
    let targets = |t: &crate::action::Targets| t.iter().map(n).collect::<Vec<_>>().join(" and ");
    match a {
        ChooseGeneral { general } => format!("choose {general} ({} HP)", general.def().hp),
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
