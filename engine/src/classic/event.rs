//! What happened in a classic match. Every die rolled is in an event; drawn and taken cards are
//! named only in the copy their holder gets (see `Classic::redact_event`).

use serde::{Deserialize, Serialize};

use super::cards::CardFace;
use super::map::TerritoryId;
use crate::core::Seat;

/// Up to three dice, as rolled (not sorted). A fixed array so a battle allocates nothing;
/// it travels as a JSON list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "Vec<u8>", try_from = "Vec<u8>")]
pub struct Dice {
    len: u8,
    faces: [u8; 3],
}

impl Dice {
    /// Dice holding `faces` (at most three; more are ignored).
    pub fn new(faces: &[u8]) -> Dice {
        let mut dice = Dice {
            len: 0,
            faces: [0; 3],
        };
        for &face in faces.iter().take(3) {
            dice.faces[usize::from(dice.len)] = face;
            dice.len += 1;
        }
        dice
    }

    /// The faces as rolled.
    pub fn faces(&self) -> &[u8] {
        &self.faces[..usize::from(self.len.min(3))]
    }
}

impl From<Dice> for Vec<u8> {
    fn from(dice: Dice) -> Vec<u8> {
        dice.faces().to_vec()
    }
}

impl TryFrom<Vec<u8>> for Dice {
    type Error = String;
    fn try_from(faces: Vec<u8>) -> Result<Dice, String> {
        if faces.len() > 3 {
            return Err(format!("at most 3 dice, got {}", faces.len()));
        }
        Ok(Dice::new(&faces))
    }
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A seat's roll to decide who acts first (W-SETUP-2); ties at the top roll again.
    OrderRoll {
        /// Who rolled.
        seat: Seat,
        /// The d6.
        die: u8,
    },
    /// The seat that acts first.
    FirstPlayer {
        /// That seat.
        seat: Seat,
    },
    /// The cards were shuffled into the deck (its order is never shown).
    DeckShuffled {
        /// How many cards the deck now holds.
        cards: u8,
    },
    /// Random setup: every territory's owner and units, by territory id.
    TerritoriesDealt {
        /// Owner of each territory.
        owners: Vec<Seat>,
        /// Units on each territory.
        units: Vec<u32>,
    },
    /// A territory was claimed with one unit (W-SETUP-3).
    Claimed {
        /// Who claimed it.
        seat: Seat,
        /// Which territory.
        territory: TerritoryId,
    },
    /// Units were put on a territory (setup or reinforcements).
    Placed {
        /// Whose units.
        seat: Seat,
        /// Where.
        territory: TerritoryId,
        /// How many.
        units: u32,
    },
    /// A turn began; `reinforcements` is the territory and continent part (W-REINF-1).
    TurnStarted {
        /// Whose turn.
        seat: Seat,
        /// Turn number, from 1.
        turn: u32,
        /// Units earned for territories and whole continents.
        reinforcements: u32,
    },
    /// A set of cards was traded (traded cards are public).
    SetTraded {
        /// Who traded.
        seat: Seat,
        /// The three cards.
        cards: [CardFace; 3],
        /// Units the set was worth.
        units: u32,
    },
    /// Two extra units on a traded card's held territory (W-CARD-3).
    TerritoryBonus {
        /// Whose units.
        seat: Seat,
        /// Where they were put.
        territory: TerritoryId,
        /// Always 2.
        units: u32,
    },
    /// One roll of an attack (W-ATK-2, W-ATK-3).
    Battle {
        /// Attacking territory.
        from: TerritoryId,
        /// Defending territory.
        to: TerritoryId,
        /// The attacker's dice, as rolled.
        attacker_dice: Dice,
        /// The defender's dice, as rolled.
        defender_dice: Dice,
        /// Units the attacker lost.
        attacker_losses: u32,
        /// Units the defender lost.
        defender_losses: u32,
    },
    /// A territory changed hands, and the compulsory part of the move-in (W-ATK-4: as many
    /// units as dice last rolled) went in from the attacking territory at once.
    Conquered {
        /// The territory.
        territory: TerritoryId,
        /// The new owner.
        seat: Seat,
        /// The previous owner.
        from: Seat,
        /// Units moved in at once.
        units: u32,
    },
    /// Further units the player chose to move into a conquered territory (W-ATK-4); absent when
    /// the player moved in only the compulsory units.
    MovedIn {
        /// Source.
        from: TerritoryId,
        /// The conquered territory.
        to: TerritoryId,
        /// How many more, on top of those moved at the conquest.
        units: u32,
    },
    /// A player lost their last territory (W-END-1).
    Eliminated {
        /// Who is out.
        seat: Seat,
        /// Who took the last territory.
        by: Seat,
    },
    /// The eliminated player's cards went to the victor (W-CARD-5). `cards` is shown only to
    /// the new holder.
    CardsTaken {
        /// The eliminated player.
        from: Seat,
        /// The new holder.
        to: Seat,
        /// How many cards.
        count: u8,
        /// Which cards (`None` in everyone else's copy).
        #[serde(default)]
        cards: Option<Vec<CardFace>>,
    },
    /// The turn's fortify (W-FORT-1).
    Fortified {
        /// Source.
        from: TerritoryId,
        /// Destination.
        to: TerritoryId,
        /// How many.
        units: u32,
    },
    /// A card was drawn for a turn with a conquest (W-CARD-2). `card` is shown only to its holder.
    CardDrawn {
        /// Who drew.
        seat: Seat,
        /// Which card (`None` in everyone else's copy).
        #[serde(default)]
        card: Option<CardFace>,
    },
    /// A turn ended.
    TurnEnded {
        /// Whose turn it was.
        seat: Seat,
    },
    /// The match is over (W-END-1).
    Won {
        /// The winner.
        seat: Seat,
    },
}
