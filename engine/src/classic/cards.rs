//! The territory cards (W-CARD-1): 42 territory cards and 2 wild cards, what makes a set, and
//! the escalating worth of traded sets (W-CARD-3).

use serde::{Deserialize, Serialize};

use super::map::{Symbol, TERRITORIES, TERRITORY_COUNT, TerritoryId};

/// A card, by id: `0..42` is the card of territory with that id, `42` and `43` are the wild cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Card(pub u8);

/// How many cards the deck holds in all.
pub const CARD_COUNT: u8 = 44;

impl Card {
    /// True for ids the deck contains.
    pub fn exists(self) -> bool {
        self.0 < CARD_COUNT
    }

    /// The territory shown on the card (none for a wild card).
    pub fn territory(self) -> Option<TerritoryId> {
        (usize::from(self.0) < TERRITORY_COUNT).then_some(self.0)
    }

    /// The symbol on the card.
    pub fn symbol(self) -> Symbol {
        match TERRITORIES.get(usize::from(self.0)) {
            Some(info) => info.symbol,
            None => Symbol::Wild,
        }
    }

    /// The card as a client shows it.
    pub fn face(self) -> CardFace {
        CardFace {
            card: self,
            territory: self.territory(),
            symbol: self.symbol(),
        }
    }
}

/// A card with what is printed on it, for views and events. Its `card` key appears nowhere else
/// in classic's JSON, which lets tests scan serialized views for a leaked card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardFace {
    /// The card id (what a `trade` action names).
    pub card: Card,
    /// The territory shown, if any.
    pub territory: Option<TerritoryId>,
    /// The symbol shown.
    pub symbol: Symbol,
}

/// True when three cards form a set: three of a kind, one of each kind, or any three with a wild.
pub fn is_set(cards: [Card; 3]) -> bool {
    let symbols = cards.map(Card::symbol);
    if symbols.contains(&Symbol::Wild) {
        return true;
    }
    let [a, b, c] = symbols;
    (a == b && b == c) || (a != b && b != c && a != c)
}

/// The units the `traded_before + 1`-th set of the game is worth: 4, 6, 8, 10, 12, 15, then 5
/// more for each later set (W-CARD-3).
pub fn set_value(traded_before: u32) -> u32 {
    match traded_before {
        0..=4 => 4 + 2 * traded_before,
        n => 15u32.saturating_add(5u32.saturating_mul(n - 5)),
    }
}

/// Calls `found` with every set among `hand`, in hand order.
pub fn sets_in(hand: &[Card], mut found: impl FnMut([Card; 3])) {
    for i in 0..hand.len() {
        for j in i + 1..hand.len() {
            for k in j + 1..hand.len() {
                let cards = [hand[i], hand[j], hand[k]];
                if is_set(cards) {
                    found(cards);
                }
            }
        }
    }
}
