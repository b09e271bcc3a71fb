//! The exact text layouts of the rules reference (section 2): cards of 11 lines × 33 columns,
//! hands, `inspect`, and the 56 × 167 board, in the simple (ASCII) or fancy (Unicode) style.
//! Pure functions returning lines; no IO. Also the game's narration, [`describe_event`].

use crate::action::{DrawReason, Event, MinionRef, TargetRef};
use crate::cards::{CardId, Kind, Modifier};
use crate::state::{Card, Ritual};
use crate::view::{MinionView, PlayerView, View};
use engine::{Seat, Viewer};

pub const CARD_HEIGHT: usize = 11;
pub const CARD_WIDTH: usize = 33;
pub const BOARD_WIDTH: usize = 5 * CARD_WIDTH + 2;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// ASCII only: `|` and `-` (the spec's examples).
    #[default]
    Simple,
    /// Unicode box drawing (the handout's "fancy" style).
    Fancy,
}

/// Something that occupies one card-sized block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face<'a> {
    /// A minion with these current values and effective ability cost.
    Minion { id: CardId, attack: i32, defence: i32, ability_cost: Option<i32> },
    /// A spell, enchantment or ritual as printed (in a hand, or an enchantment on a minion).
    Printed(CardId),
    /// A ritual in play, with its charges left.
    Ritual { id: CardId, charges: i32 },
    /// A player's card: 1 (top of the board) or 2 (bottom).
    Player { number: u8, name: &'a str, life: i32, magic: i32 },
    /// The blank rectangle of an empty slot.
    Blank,
}

impl Face<'_> {
    /// A card outside the board: minions with their own values, others as printed.
    pub fn of_card(card: Card) -> Face<'static> {
        match card.id.kind() {
            Kind::Minion => Face::Minion {
                id: card.id,
                attack: card.attack,
                defence: card.defence,
                ability_cost: card.id.def().ability.map(|a| a.cost),
            },
            _ => Face::Printed(card.id),
        }
    }

    pub fn of_minion(m: &MinionView) -> Face<'static> {
        Face::Minion { id: m.card.id, attack: m.attack, defence: m.defence, ability_cost: m.ability_cost }
    }

    pub fn of_ritual(r: Ritual) -> Face<'static> {
        Face::Ritual { id: r.id, charges: r.charges }
    }
}

/// An 11 × 33 grid with the drawing primitives of the layout maps.
struct Canvas {
    cells: [[char; CARD_WIDTH]; CARD_HEIGHT],
    style: Style,
}

impl Canvas {
    fn new(style: Style) -> Self {
        Canvas { cells: [[' '; CARD_WIDTH]; CARD_HEIGHT], style }
    }

    fn fancy(&self) -> bool {
        self.style == Style::Fancy
    }

    /// The outer edges of a card.
    fn frame(&mut self) {
        let fancy = self.fancy();
        let last = CARD_WIDTH - 1;
        for c in 0..CARD_WIDTH {
            self.cells[0][c] = if fancy { '━' } else { '-' };
            self.cells[10][c] = if fancy { '━' } else { '-' };
        }
        self.cells[0][0] = if fancy { '┏' } else { '|' };
        self.cells[0][last] = if fancy { '┓' } else { '|' };
        self.cells[10][0] = if fancy { '┗' } else { '|' };
        self.cells[10][last] = if fancy { '┛' } else { '|' };
        for r in 1..10 {
            self.cells[r][0] = if fancy { '┃' } else { '|' };
            self.cells[r][last] = if fancy { '┃' } else { '|' };
        }
    }

    /// An inner horizontal rule; where it meets an edge, the fancy edge gets a tee.
    fn rule(&mut self, row: usize, from: usize, to: usize) {
        let fancy = self.fancy();
        for c in from..=to {
            self.cells[row][c] = if fancy { '─' } else { '-' };
        }
        if fancy && from == 1 {
            self.cells[row][0] = '┠';
        }
        if fancy && to == CARD_WIDTH - 2 {
            self.cells[row][CARD_WIDTH - 1] = '┨';
        }
    }

    fn bar(&mut self, row: usize, col: usize) {
        self.cells[row][col] = if self.fancy() { '│' } else { '|' };
    }

    /// A fancy-only junction character (simple style keeps what was drawn).
    fn join(&mut self, row: usize, col: usize, ch: char) {
        if self.fancy() {
            self.cells[row][col] = ch;
        }
    }

    fn left(&mut self, row: usize, from: usize, width: usize, text: &str) {
        for (i, ch) in text.chars().take(width).enumerate() {
            self.cells[row][from + i] = ch;
        }
    }

    fn right(&mut self, row: usize, from: usize, width: usize, text: &str) {
        let chars: Vec<char> = text.chars().collect();
        let kept = &chars[chars.len().saturating_sub(width)..];
        let start = from + width - kept.len();
        for (i, &ch) in kept.iter().enumerate() {
            self.cells[row][start + i] = ch;
        }
    }

    /// A text field spread over `rows` lines of the same columns, hard-wrapped by character.
    fn wrapped(&mut self, first_row: usize, rows: usize, from: usize, width: usize, text: &str) {
        for (i, ch) in text.chars().take(rows * width).enumerate() {
            self.cells[first_row + i / width][from + i % width] = ch;
        }
    }

    fn header(&mut self, name: &str, cost: i32, kind: Kind) {
        self.frame();
        self.left(1, 2, 23, name);
        self.bar(1, 26);
        self.right(1, 28, 3, &cost.to_string());
        self.rule(2, 1, 31);
        self.right(3, 2, 29, kind.word());
        self.rule(4, 1, 31);
        self.join(0, 26, '┯');
        self.join(2, 26, '┴');
    }

    /// The small cost box and the ability text of minions with abilities and rituals.
    fn ability_box(&mut self, cost: i32, text: &str) {
        self.left(5, 2, 3, &cost.to_string());
        self.bar(5, 6);
        self.rule(6, 1, 6);
        self.wrapped(5, 3, 8, 23, text);
        self.join(4, 6, '┬');
        self.join(6, 6, '┘');
    }

    /// The attack and defence boxes at the bottom (minions, +/× enchantments, player 1).
    fn stat_boxes(&mut self, left: &str, right: &str, row: usize) {
        self.rule(row - 1, 1, 6);
        self.rule(row - 1, 26, 31);
        self.bar(row, 6);
        self.bar(row, 26);
        self.left(row, 2, 4, left);
        self.right(row, 27, 4, right);
        self.join(row - 1, 6, '┐');
        self.join(row - 1, 26, '┌');
        self.join(10, 6, '┷');
        self.join(10, 26, '┷');
    }

    fn lines(&self) -> Vec<String> {
        self.cells.iter().map(|row| row.iter().collect()).collect()
    }
}

fn modifier_strings(m: Modifier) -> Option<(String, String)> {
    match m {
        Modifier::Add(a, d) => Some((format!("+{a}"), format!("+{d}"))),
        Modifier::Multiply(a, d) => Some((format!("*{a}"), format!("*{d}"))),
        _ => None,
    }
}

/// The player card's name field: roughly centred by a prefix of spaces (rules 2.4).
fn centred(name: &str) -> String {
    let len = name.chars().count();
    let pad = if len < 13 { ((13 - len) / 2).saturating_sub(1) } else { 0 };
    format!("{}{name}", " ".repeat(pad))
}

/// The 11 lines of one card block.
pub fn card(face: Face<'_>, style: Style) -> Vec<String> {
    let mut cv = Canvas::new(style);
    match face {
        Face::Blank => cv.frame(),
        Face::Minion { id, attack, defence, ability_cost } => {
            let def = id.def();
            cv.header(def.name, def.cost, Kind::Minion);
            match ability_cost {
                Some(cost) => cv.ability_box(cost, def.text),
                None => cv.wrapped(5, 3, 2, 29, def.text),
            }
            cv.stat_boxes(&attack.to_string(), &defence.to_string(), 9);
        }
        Face::Printed(id) if id.kind() == Kind::Ritual => {
            return card(Face::Ritual { id, charges: id.def().charges }, style);
        }
        Face::Printed(id) if id.kind() == Kind::Minion => return card(Face::of_card(Card::new(id)), style),
        Face::Printed(id) => {
            let def = id.def();
            cv.header(def.name, def.cost, def.kind);
            match def.modifier.and_then(modifier_strings) {
                Some((a, d)) => {
                    cv.wrapped(5, 3, 2, 29, def.text);
                    cv.stat_boxes(&a, &d, 9);
                }
                None => cv.wrapped(5, 5, 2, 29, def.text),
            }
        }
        Face::Ritual { id, charges } => {
            let def = id.def();
            cv.header(def.name, def.cost, Kind::Ritual);
            cv.ability_box(def.activation_cost, def.text);
            cv.rule(8, 26, 31);
            cv.bar(9, 26);
            cv.right(9, 27, 4, &charges.to_string());
            cv.join(8, 26, '┌');
            cv.join(10, 26, '┷');
        }
        Face::Player { number, name, life, magic } => {
            cv.frame();
            let (stats, rule, name_row, name_col) = if number == 1 { (9, 8, 3, 10) } else { (1, 2, 7, 11) };
            cv.left(name_row, name_col, 13, &centred(name));
            cv.rule(rule, 1, 6);
            cv.rule(rule, 26, 31);
            cv.bar(stats, 6);
            cv.bar(stats, 26);
            cv.right(stats, 1, 4, &life.to_string());
            cv.left(stats, 28, 4, &magic.to_string());
            if number == 1 {
                cv.join(8, 6, '┐');
                cv.join(8, 26, '┌');
                cv.join(10, 6, '┷');
                cv.join(10, 26, '┷');
            } else {
                cv.join(0, 6, '┯');
                cv.join(0, 26, '┯');
                cv.join(2, 6, '┘');
                cv.join(2, 26, '└');
            }
        }
    }
    cv.lines()
}

/// Cards side by side, line by line, with nothing between them.
pub fn row(faces: &[Face<'_>], style: Style) -> Vec<String> {
    let blocks: Vec<Vec<String>> = faces.iter().map(|&f| card(f, style)).collect();
    if blocks.is_empty() {
        return Vec::new();
    }
    (0..CARD_HEIGHT).map(|i| blocks.iter().map(|b| b[i].as_str()).collect()).collect()
}

/// The `hand` command: the cards in hand order. An empty hand prints nothing.
pub fn hand(cards: &[Card], style: Style) -> Vec<String> {
    let faces: Vec<Face<'_>> = cards.iter().map(|&c| Face::of_card(c)).collect();
    row(&faces, style)
}

/// The `inspect` command: the minion as on the board, then its enchantments oldest first,
/// five per row.
pub fn inspect(m: &MinionView, style: Style) -> Vec<String> {
    let mut out = card(Face::of_minion(m), style);
    for chunk in m.enchantments.chunks(5) {
        let faces: Vec<Face<'_>> = chunk.iter().map(|&e| Face::Printed(e)).collect();
        out.extend(row(&faces, style));
    }
    out
}

const SIMPLE_BANNER: [&str; 8] = [
    "  _____",
    " / ____|",
    "| (___   ___  _ __ ___ ___ _ __ _   _",
    " \\___ \\ / _ \\| '__/ __/ _ \\ '__| | | |",
    " ____) | (_) | | | (_|  __/ |  | |_| |",
    "|_____/ \\___/|_|  \\___\\___|_|   \\__, |",
    "                                 __/ |",
    "                                |___/",
];

const FANCY_BANNER: [&str; 6] = [
    "███████╗ ██████╗ ██████╗  ██████╗███████╗██████╗ ██╗   ██╗",
    "██╔════╝██╔═══██╗██╔══██╗██╔════╝██╔════╝██╔══██╗╚██╗ ██╔╝",
    "███████╗██║   ██║██████╔╝██║     █████╗  ██████╔╝ ╚████╔╝",
    "╚════██║██║   ██║██╔══██╗██║     ██╔══╝  ██╔══██╗  ╚██╔╝",
    "███████║╚██████╔╝██║  ██║╚██████╗███████╗██║  ██║   ██║",
    "╚══════╝ ╚═════╝ ╚═╝  ╚═╝ ╚═════╝╚══════╝╚═╝  ╚═╝   ╚═╝",
];

/// The 10-line centre graphic between the two minion rows.
fn centre(style: Style) -> Vec<String> {
    let inner = BOARD_WIDTH - 2;
    let (wall, sep) = match style {
        Style::Simple => ('|', format!("|{}|", "-".repeat(inner))),
        Style::Fancy => ('║', format!("╠{}╣", "═".repeat(inner))),
    };
    let (banner, offset, first): (&[&str], usize, usize) = match style {
        Style::Simple => (&SIMPLE_BANNER, 63, 1),
        Style::Fancy => (&FANCY_BANNER, 53, 2),
    };
    let mut out = vec![sep.clone()];
    for i in 1..9usize {
        let text = i.checked_sub(first).and_then(|k| banner.get(k)).copied().unwrap_or("");
        let mut line = String::with_capacity(BOARD_WIDTH * 3);
        line.push(wall);
        line.push_str(&" ".repeat(offset));
        line.push_str(text);
        line.push_str(&" ".repeat(inner - offset - text.chars().count()));
        line.push(wall);
        out.push(line);
    }
    out.push(sep);
    out
}

/// Five blocks between the board's walls.
fn board_row(faces: [Option<Face<'_>>; 5], style: Style) -> Vec<String> {
    let wall = if style == Style::Fancy { '║' } else { '|' };
    let spacer = " ".repeat(CARD_WIDTH);
    let blocks: Vec<Option<Vec<String>>> = faces.iter().map(|f| f.map(|f| card(f, style))).collect();
    (0..CARD_HEIGHT)
        .map(|i| {
            let mut line = String::with_capacity(BOARD_WIDTH * 3);
            line.push(wall);
            for b in &blocks {
                line.push_str(b.as_ref().map_or(spacer.as_str(), |b| b[i].as_str()));
            }
            line.push(wall);
            line
        })
        .collect()
}

fn minion_row(p: &PlayerView, style: Style) -> Vec<String> {
    let faces: [Option<Face<'_>>; 5] =
        std::array::from_fn(|i| Some(p.board.get(i).map_or(Face::Blank, Face::of_minion)));
    board_row(faces, style)
}

fn player_row(p: &PlayerView, number: u8, name: &str, style: Style) -> Vec<String> {
    let ritual = p.ritual.map_or(Face::Blank, Face::of_ritual);
    let grave = p.graveyard.last().map_or(Face::Blank, |&c| Face::of_card(c));
    let me = Face::Player { number, name, life: p.life, magic: p.magic };
    board_row([Some(ritual), None, Some(me), None, Some(grave)], style)
}

/// The `board` command: 56 lines of 167 columns. Player 1 is always on top.
pub fn board(view: &View, names: [&str; 2], style: Style) -> Vec<String> {
    let (top, bottom) = match style {
        Style::Simple => ("-".repeat(BOARD_WIDTH), "-".repeat(BOARD_WIDTH)),
        Style::Fancy => {
            let inner = "═".repeat(BOARD_WIDTH - 2);
            (format!("╔{inner}╗"), format!("╚{inner}╝"))
        }
    };
    let (p1, p2) = (view.player(Seat(0)), view.player(Seat(1)));
    let mut out = vec![top];
    out.extend(player_row(p1, 1, names[0], style));
    out.extend(minion_row(p1, style));
    out.extend(centre(style));
    out.extend(minion_row(p2, style));
    out.extend(player_row(p2, 2, names[1], style));
    out.push(bottom);
    out
}

/// The `help` message: the spec's (with the handout's alignment of `end`), then our additions.
pub const HELP: &str = "\
Commands: help -- Display this message.
          end  -- End the current player's turn.
          quit -- End the game.
          attack minion other-minion -- Orders minion to attack other-minion.
          attack minion -- Orders minion to attack the opponent.
          play card [target-player target-card] -- Play card, optionally targeting target-card owned by target-player.
          use minion [target-player target-card] -- Use minion's special ability, optionally targeting target-card owned by target-player.
          inspect minion -- View a minion's card and all enchantments on that minion.
          hand -- Describe all cards in your hand.
          board -- Describe all cards on the board.
Testing mode (-testing) only:
          draw -- Draw a card.
          discard card -- Discard a card from your hand.
Cards and minions are numbered from 1, left to right; target-player is 1 or 2; target-card is
a minion number or r for the player's ritual.
Options: -deck1 FILE, -deck2 FILE, -init FILE, -testing, -seed N, -unicode (fancy drawing),
         -bot1 NAME, -bot2 NAME: the computer plays seat 1 or 2 (NAME: easy, medium, hard or
         expert, or the game's own random or heuristic). Without them, two people share the keyboard.";

/// One line about an event (as `viewer` received it: a card drawn by the other seat has no
/// name), with `names` by seat; `None` for the routine events that need no line (a turn's
/// end, a ritual placed where there was none). The one narration of Sorcery: the terminal
/// game, the web log and `cardtable replay`. Players are named the same for every viewer.
pub fn describe_event(event: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    let _ = viewer;
    let n = |s: Seat| names.get(s.index()).cloned().unwrap_or_else(|| format!("Player {}", s.0 + 1));
    let m = |r: MinionRef| format!("{}'s {}", n(r.player), r.card.name());
    let t = |t: TargetRef| match t {
        TargetRef::Minion { minion } => m(minion),
        TargetRef::Ritual { player, card } => format!("{}'s {}", n(player), card.name()),
    };
    Some(match *event {
        Event::TurnStarted { player, turn, magic } => format!("Turn {turn}: {} to play (magic {magic}).", n(player)),
        Event::MagicGained { player, amount, magic } => format!("{} gains {amount} magic (now {magic}).", n(player)),
        Event::CardDrawn { player, card: Some(c) } => format!("{} draws {}.", n(player), c.name()),
        Event::CardDrawn { player, card: None } => format!("{} draws a card.", n(player)),
        Event::CardPlayed { player, card, target: Some(x), .. } => {
            format!("{} plays {} on {}.", n(player), card.name(), t(x))
        }
        Event::CardPlayed { player, card, target: None, .. } => format!("{} plays {}.", n(player), card.name()),
        Event::AbilityUsed { minion, target: Some(x), .. } => format!("{} uses its ability on {}.", m(minion), t(x)),
        Event::AbilityUsed { minion, target: None, .. } => format!("{} uses its ability.", m(minion)),
        Event::MinionEntered { minion, attack, defence } => format!("{} enters play ({attack}/{defence}).", m(minion)),
        Event::AttackedPlayer { minion, player, amount, life } => {
            format!("{} attacks {} for {amount} ({life} life left).", m(minion), n(player))
        }
        Event::AttackedMinion { minion, target } => format!("{} attacks {}.", m(minion), m(target)),
        Event::MinionDamaged { minion, amount, attack, defence } => {
            format!("{} takes {amount} damage ({attack}/{defence}).", m(minion))
        }
        Event::MinionBuffed { minion, attack, defence } => format!("{} is now {attack}/{defence}.", m(minion)),
        // Only enchantments that change attack and defence get a line of their own.
        Event::MinionEnchanted { minion, enchantment, attack, defence } => match enchantment.def().modifier {
            Some(Modifier::Add(..) | Modifier::Multiply(..)) => format!("{} is now {attack}/{defence}.", m(minion)),
            _ => return None,
        },
        Event::MinionDied { minion } => format!("{} dies.", m(minion)),
        Event::MinionReturned { minion } => format!("{} returns to {}'s hand.", m(minion), n(minion.player)),
        Event::EnchantmentRemoved { minion, enchantment, attack, defence } => {
            format!("{} is removed from {} ({attack}/{defence}).", enchantment.name(), m(minion))
        }
        Event::RitualPlaced { player, replaced: Some(old), .. } => {
            format!("{}'s {} is removed from the game.", n(player), old.name())
        }
        Event::RitualDestroyed { player, card } => format!("{}'s {} is destroyed.", n(player), card.name()),
        Event::ChargesChanged { player, card, charges } => {
            format!("{}'s {} has {charges} charge{} left.", n(player), card.name(), if charges == 1 { "" } else { "s" })
        }
        Event::Discarded { player, card } => format!("{} discards {}.", n(player), card.name()),
        Event::GameWon { winner } => format!("{} wins!", n(winner)),
        Event::GameDrawn { reason: DrawReason::TurnLimit } => "The turn limit is reached: the game is a draw.".into(),
        Event::GameDrawn { reason: DrawReason::NoDamagePossible } => {
            "Neither player can win any more: the game is a draw.".into()
        }
        Event::Conceded { player } => format!("{} concedes.", n(player)),
        Event::TurnEnded { .. } | Event::RitualPlaced { replaced: None, .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(lines: &[String]) -> String {
        lines.join("\n")
    }

    /// The rules reference's rendered examples (section 2.5), verbatim.
    #[test]
    fn simple_examples_match_the_reference() {
        let faces = [
            Face::Printed(CardId::Banish),
            Face::of_card(Card::new(CardId::BoneGolem)),
            Face::of_card(Card::new(CardId::NovicePyromancer)),
        ];
        let expected = "\
|-------------------------------||-------------------------------||-------------------------------|
| Banish                  |   2 || Bone Golem              |   2 || Novice Pyromancer       |   1 |
|-------------------------------||-------------------------------||-------------------------------|
|                         Spell ||                        Minion ||                        Minion |
|-------------------------------||-------------------------------||-------------------------------|
| Destroy target minion or ritu || Gain +1/+1 whenever a minion  || 1   | Deal 1 damage to target |
| al                            || leaves play.                  ||------  minion                 |
|                               ||                               ||                               |
|                               ||------                   ------||------                   ------|
|                               || 1   |                   |   3 || 0   |                   |   1 |
|-------------------------------||-------------------------------||-------------------------------|";
        assert_eq!(show(&row(&faces, Style::Simple)), expected);

        let faces =
            [Face::Printed(CardId::GiantStrength), Face::Printed(CardId::Haste), Face::Printed(CardId::Standstill)];
        let expected = "\
|-------------------------------||-------------------------------||-------------------------------|
| Giant Strength          |   1 || Haste                   |   1 || Standstill              |   3 |
|-------------------------------||-------------------------------||-------------------------------|
|                   Enchantment ||                   Enchantment ||                        Ritual |
|-------------------------------||-------------------------------||-------------------------------|
|                               || Enchanted minion gains +1 act || 2   | Whenever a minion enter |
|                               || ion each turn                 ||------ s play, destroy it      |
|                               ||                               ||                               |
|------                   ------||                               ||                         ------|
| +2  |                   |  +2 ||                               ||                         |   4 |
|-------------------------------||-------------------------------||-------------------------------|";
        assert_eq!(show(&row(&faces, Style::Simple)), expected);
    }

    #[test]
    fn fancy_examples_match_the_reference() {
        let faces = [
            Face::of_card(Card::new(CardId::NovicePyromancer)),
            Face::Printed(CardId::Standstill),
            Face::Player { number: 2, name: "Ten", life: 20, magic: 0 },
        ];
        let expected = "\
┏━━━━━━━━━━━━━━━━━━━━━━━━━┯━━━━━┓┏━━━━━━━━━━━━━━━━━━━━━━━━━┯━━━━━┓┏━━━━━┯━━━━━━━━━━━━━━━━━━━┯━━━━━┓
┃ Novice Pyromancer       │   1 ┃┃ Standstill              │   3 ┃┃  20 │                   │ 0   ┃
┠─────────────────────────┴─────┨┠─────────────────────────┴─────┨┠─────┘                   └─────┨
┃                        Minion ┃┃                        Ritual ┃┃                               ┃
┠─────┬─────────────────────────┨┠─────┬─────────────────────────┨┃                               ┃
┃ 1   │ Deal 1 damage to target ┃┃ 2   │ Whenever a minion enter ┃┃                               ┃
┠─────┘  minion                 ┃┠─────┘ s play, destroy it      ┃┃                               ┃
┃                               ┃┃                               ┃┃              Ten              ┃
┠─────┐                   ┌─────┨┃                         ┌─────┨┃                               ┃
┃ 0   │                   │   1 ┃┃                         │   4 ┃┃                               ┃
┗━━━━━┷━━━━━━━━━━━━━━━━━━━┷━━━━━┛┗━━━━━━━━━━━━━━━━━━━━━━━━━┷━━━━━┛┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛";
        assert_eq!(show(&row(&faces, Style::Fancy)), expected);
    }

    #[test]
    fn player_one_card_and_name_centring() {
        let lines = card(Face::Player { number: 1, name: "Sean", life: 20, magic: 0 }, Style::Simple);
        assert_eq!(lines[3], "|            Sean               |");
        assert_eq!(&lines[3][13..17], "Sean");
        assert_eq!(lines[8], "|------                   ------|");
        assert_eq!(lines[9], "|  20 |                   | 0   |");
        assert_eq!(centred("Bjarne"), "  Bjarne");
        assert_eq!(centred("Alice"), "   Alice");
        assert_eq!(centred("abcdefghij"), "abcdefghij");
    }

    #[test]
    fn fields_truncate_as_specified() {
        let mut cv = Canvas::new(Style::Simple);
        cv.right(0, 0, 3, "12345");
        cv.left(1, 0, 3, "abcdef");
        assert_eq!(cv.cells[0][..3].iter().collect::<String>(), "345");
        assert_eq!(cv.cells[1][..3].iter().collect::<String>(), "abc");
    }

    #[test]
    fn board_geometry() {
        use crate::Sorcery;
        use engine::{Game, Viewer};
        let g = Sorcery::new(&crate::Config::default(), 1).unwrap();
        let v = g.view(Viewer::Spectator);
        for style in [Style::Simple, Style::Fancy] {
            let b = board(&v, ["Sean", "Ten"], style);
            assert_eq!(b.len(), 56);
            assert!(b.iter().all(|l| l.chars().count() == 167), "{style:?}");
        }
        let b = board(&v, ["Sean", "Ten"], Style::Simple);
        assert_eq!(&b[24][64..64 + 7], "  _____");
        assert_eq!(b[23], format!("|{}|", "-".repeat(165)));
    }
}
