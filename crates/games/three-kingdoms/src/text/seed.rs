//! Plain-text narration in the seed's log style (rules §15): one line per event, and
//! [`narrate_game`], which plays a whole game between bots and tells it. The table (web log,
//! terminal play, replays) reads [`super::describe_event`] instead.

use super::*;
use crate::action::{Event, JudgeFor, Side};
use crate::cards::{Kind, Slot};
use crate::config::Config;
use crate::state::ThreeKingdoms;
use engine::{Bot, Game, MatchRng, Observation, Seat, Viewer};
use std::fmt::Write;

/// One line (or a few) for `e` in the seed's log style (rules §15), for the narrative
/// simulation ([`narrate_game`]): "Liu Bei launch a duel with Zhang Fei", "---Turn 3---". The
/// table (web log, terminal play, replays) reads [`describe_event`] instead.
///
/// `e` is already redacted for `viewer` (`Game::view_event`); seats are named through `names`.
pub fn seed_line(e: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
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
        Event::JudgementReplaced { .. }
        | Event::Damaged { .. }
        | Event::LostHp { .. }
        | Event::Recovered { .. }
        | Event::Dying { .. }
        | Event::Died { .. }
        | Event::Discarded { .. }
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
        | Event::GameOver { .. } => return seed_line_rest(e, viewer, names),
    })
}

/// The events of [`seed_line`] from `Event::JudgementReplaced` on (one function would be too long to read).
fn seed_line_rest(e: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    let _ = viewer;
    let n = |s: Seat| names.get(s.index()).cloned().unwrap_or_else(|| format!("seat {}", s.0));
    Some(match e {
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
        _ => unreachable!("seed_line tells {e:?} itself"),
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
        if let Some(line) = seed_line(e, Viewer::Spectator, &names(&game)) {
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
                _ => seed_line(e, Viewer::Spectator, &names(&game)),
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
