//! Deck files: one card name per line, first line on top. Parsing is pure; the terminal
//! driver reads the file.

use crate::cards::CardId;

/// A parsed deck and what was wrong with it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedDeck {
    pub cards: Vec<CardId>,
    /// One message per line that named no card (those lines are skipped).
    pub problems: Vec<String>,
}

/// Reads a deck file's text. Names match exactly as printed on the cards, but surrounding and
/// repeated inner whitespace, a trailing `\r` and letter case are forgiven; blank lines are
/// skipped; an unknown name is skipped with a message naming the file and line.
pub fn parse_deck(source: &str, text: &str) -> ParsedDeck {
    let mut deck = ParsedDeck::default();
    for (n, line) in text.lines().enumerate() {
        let name = line.split_whitespace().collect::<Vec<_>>().join(" ");
        if name.is_empty() {
            continue;
        }
        match lookup(&name) {
            Some(c) => deck.cards.push(c),
            None => deck.problems.push(format!("{source}:{}: unknown card \"{name}\" skipped", n + 1)),
        }
    }
    deck
}

fn lookup(name: &str) -> Option<CardId> {
    CardId::from_name(name).or_else(|| CardId::ALL.into_iter().find(|c| c.name().eq_ignore_ascii_case(name)))
}

/// The text of a deck file for `cards` (the inverse of `parse_deck`).
pub fn deck_text(cards: &[CardId]) -> String {
    cards.iter().map(|c| format!("{}\n", c.name())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::DEFAULT_DECK;

    #[test]
    fn default_deck_round_trips_and_is_243_bytes() {
        let text = deck_text(&DEFAULT_DECK);
        assert_eq!(text.len(), 243);
        let d = parse_deck("default.deck", &text);
        assert_eq!(d.cards, DEFAULT_DECK);
        assert!(d.problems.is_empty());
    }

    #[test]
    fn unknown_names_are_reported_and_skipped() {
        let d = parse_deck("my.deck", "Air Elemental\r\n\n  bone   golem \nBombe\n");
        assert_eq!(d.cards, vec![CardId::AirElemental, CardId::BoneGolem]);
        assert_eq!(d.problems, vec!["my.deck:4: unknown card \"Bombe\" skipped".to_string()]);
    }
}
