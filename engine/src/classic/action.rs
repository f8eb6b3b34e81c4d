//! What a seat can do in classic. Territories are map ids (`0..42`), cards are card ids
//! (`0..44`); the engine validates every number, so any JSON that parses is safe to apply.

use serde::{Deserialize, Serialize};

use super::cards::Card;
use super::map::TerritoryId;

/// One decision of the seat to act, e.g. `{"type":"place","territory":5,"units":3}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
// Unknown fields are refused (`unknown_action`), as in every other client message.
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Setup (W-SETUP-3): put one unit on an empty territory.
    Claim {
        /// The empty territory.
        territory: TerritoryId,
    },
    /// Put units on an own territory: one at a time during setup (W-SETUP-4), any part of the
    /// turn's reinforcements during a turn (W-REINF-1).
    Place {
        /// An own territory.
        territory: TerritoryId,
        /// How many units, at least 1.
        units: u32,
    },
    /// Trade a set of three cards for units (W-CARD-3).
    Trade {
        /// Three distinct held cards forming a set.
        cards: [Card; 3],
        /// Which traded card's territory gets the +2 bonus, when several qualify. Without it the
        /// first traded card showing a held territory is taken.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bonus: Option<TerritoryId>,
    },
    /// Attack a bordering enemy territory (W-ATK-1, W-ATK-2).
    Attack {
        /// An own territory with at least 2 units.
        from: TerritoryId,
        /// A bordering enemy territory.
        to: TerritoryId,
        /// 1 to 3 dice, at most the source's units − 1.
        dice: u8,
    },
    /// After a conquest: how many units move into the conquered territory in all (W-ATK-4).
    /// The compulsory ones (as many as dice last rolled) went in at the conquest already.
    MoveIn {
        /// The total, between the dice last rolled and the source's units − 1 (both as they
        /// were at the conquest).
        units: u32,
    },
    /// The turn's one fortify, which ends the turn (W-FORT-1).
    Fortify {
        /// An own territory.
        from: TerritoryId,
        /// Another own territory, bordering (or connected, per the room option).
        to: TerritoryId,
        /// At least 1, leaving at least 1 behind.
        units: u32,
    },
    /// End the turn without fortifying.
    EndTurn,
}
