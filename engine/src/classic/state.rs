//! The whole state of a classic match, the match's RNG included, and the read-only questions the
//! rules ask of it (who holds what, reinforcements, whose turn comes next).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cards::Card;
use super::map::{ALL_TERRITORIES, Continent, TERRITORY_COUNT, TerritoryId};
use super::options::ClassicOptions;
use crate::core::Seat;
use crate::rng::MatchRng;

/// Marks a territory nobody has claimed yet (only during the claim step).
pub(crate) const NOBODY: u8 = u8::MAX;

/// The step the match is in, which decides what the seat to act may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Phase {
    /// Setup: claim an empty territory (W-SETUP-3).
    Claim,
    /// Setup: place one starting unit (W-SETUP-4).
    Deploy,
    /// Turn start: trade sets and place the turn's reinforcements (W-REINF-1, W-CARD-3, W-CARD-4).
    Reinforce,
    /// Attack any number of times, then fortify or end the turn (W-ATK-1, W-FORT-1).
    Attack,
    /// A territory was conquered: choose how many units move in (W-ATK-4).
    MoveIn {
        /// The attacking territory.
        from: TerritoryId,
        /// The conquered territory.
        to: TerritoryId,
        /// At least this many (the dice last rolled).
        min: u32,
        /// At most this many (the source's units − 1).
        max: u32,
    },
    /// After eliminating a player and taking 6+ cards: trade down to 4 or fewer, then place the
    /// units before attacking on (W-CARD-5).
    EliminationTrade,
    /// The match has ended.
    Over,
}

/// A classic match. Its `Debug` shows the board and how many cards each seat holds, never the
/// cards or the deck order, so a logged state leaks nothing hidden.
#[derive(Clone, PartialEq)]
pub struct Classic {
    /// The room options.
    pub(crate) options: ClassicOptions,
    /// How many seats play.
    pub(crate) seats: u8,
    /// The seat holding each territory, or [`NOBODY`] before it is claimed.
    pub(crate) owner: [u8; TERRITORY_COUNT],
    /// Units on each territory.
    pub(crate) units: [u32; TERRITORY_COUNT],
    /// Each seat's hidden hand.
    pub(crate) hands: Vec<Vec<Card>>,
    /// The draw pile; the next card drawn is the last. Never shown.
    pub(crate) deck: Vec<Card>,
    /// Traded cards, reshuffled into the deck when it runs out (W-CARD-4).
    pub(crate) set_aside: Vec<Card>,
    /// Seats that have lost every territory (W-END-1).
    pub(crate) out: Vec<bool>,
    /// Starting units each seat has not placed yet (setup only).
    pub(crate) to_place: Vec<u32>,
    /// The current step.
    pub(crate) phase: Phase,
    /// The seat the match waits for.
    pub(crate) current: u8,
    /// The seat that won the opening roll.
    pub(crate) first: u8,
    /// Turns started so far (0 during setup).
    pub(crate) turn: u32,
    /// Reinforcements not yet placed this turn.
    pub(crate) reserve: u32,
    /// Sets traded in the whole game, which sets the next set's worth.
    pub(crate) sets_traded: u32,
    /// Whether the seat to act conquered a territory this turn (W-CARD-2).
    pub(crate) conquered: bool,
    /// Whether this turn's +2 territory bonus was given (W-CARD-3).
    pub(crate) bonus_used: bool,
    /// Whether the seat to act has attacked this turn: its first attack closes trading (W-CARD-3).
    pub(crate) attacked: bool,
    /// The winner, once there is one.
    pub(crate) winner: Option<u8>,
    /// Every random draw of the match (G-RNG-1).
    pub(crate) rng: MatchRng,
}

impl fmt::Debug for Classic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hand_sizes: Vec<usize> = self.hands.iter().map(Vec::len).collect();
        f.debug_struct("Classic")
            .field("options", &self.options)
            .field("phase", &self.phase)
            .field("current", &self.current)
            .field("turn", &self.turn)
            .field("reserve", &self.reserve)
            .field("owner", &self.owner)
            .field("units", &self.units)
            .field("hand_sizes", &hand_sizes)
            .field("deck", &self.deck.len())
            .field("set_aside", &self.set_aside.len())
            .field("out", &self.out)
            .field("to_place", &self.to_place)
            .field("sets_traded", &self.sets_traded)
            .field("winner", &self.winner)
            .finish_non_exhaustive()
    }
}

impl Classic {
    /// The room options.
    pub fn options(&self) -> &ClassicOptions {
        &self.options
    }

    /// The current step.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat holding a territory (none during the claim step, or for an unknown id).
    pub fn owner(&self, territory: TerritoryId) -> Option<Seat> {
        match self.owner.get(usize::from(territory)) {
            Some(&seat) if seat != NOBODY => Some(Seat(seat)),
            _ => None,
        }
    }

    /// Units on a territory (0 for an unknown id).
    pub fn units(&self, territory: TerritoryId) -> u32 {
        self.units.get(usize::from(territory)).copied().unwrap_or(0)
    }

    /// A seat's hand (empty for an unknown seat). Hidden information: views show it only to
    /// its holder.
    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.hands.get(seat.index()).map_or(&[], Vec::as_slice)
    }

    /// Reinforcements not yet placed this turn.
    pub fn reserve(&self) -> u32 {
        self.reserve
    }

    /// Sum of units on the board.
    pub fn total_units(&self) -> u64 {
        self.units.iter().map(|&u| u64::from(u)).sum()
    }

    /// True once a seat has lost all its territories.
    pub fn is_out(&self, seat: Seat) -> bool {
        self.out.get(seat.index()).copied().unwrap_or(true)
    }

    /// The territories `seat` holds, as a bitmask.
    pub(crate) fn held_mask(&self, seat: u8) -> u64 {
        // Branch-free so the compiler can vectorise it: this runs on every listed-actions call.
        self.owner.iter().enumerate().fold(0, |mask, (id, &owner)| {
            mask | (u64::from(owner == seat) << id)
        })
    }

    /// True when `seat` holds the territory.
    pub(crate) fn holds(&self, seat: u8, territory: TerritoryId) -> bool {
        self.owner.get(usize::from(territory)) == Some(&seat)
    }

    /// W-REINF-1 without cards: max(3, territories / 3) plus every whole continent's bonus.
    pub(crate) fn reinforcements(&self, seat: u8) -> u32 {
        let held = self.held_mask(seat);
        let by_territories = territory_reinforcements(held.count_ones());
        let by_continents: u32 = Continent::ALL
            .into_iter()
            .filter(|c| held & c.mask() == c.mask())
            .map(Continent::bonus)
            .sum();
        by_territories + by_continents
    }

    /// The next seat after `seat` in seat order that is still in and satisfies `wanted`.
    pub(crate) fn next_seat(&self, seat: u8, wanted: impl Fn(u8) -> bool) -> Option<u8> {
        (1..=self.seats)
            .map(|step| (seat + step) % self.seats)
            .find(|&s| !self.out[usize::from(s)] && wanted(s))
    }

    /// True when the current seat must trade before placing: 5+ cards at the start of a turn
    /// (W-CARD-4), more than 4 after taking an eliminated player's cards (W-CARD-5).
    pub(crate) fn must_trade(&self) -> bool {
        let cards = self.hands[usize::from(self.current)].len();
        match self.phase {
            Phase::Reinforce | Phase::EliminationTrade => cards >= 5,
            _ => false,
        }
    }

    /// True when the seat to act may trade a set now (W-CARD-3, W-CARD-5): while reinforcing, in
    /// the attack step until its first attack, and after an elimination while it must.
    pub(crate) fn trading_open(&self) -> bool {
        match self.phase {
            Phase::Reinforce => true,
            Phase::Attack => !self.attacked,
            // W-CARD-5: after an elimination, trading goes on only until 4 or fewer cards are left.
            Phase::EliminationTrade => self.must_trade(),
            _ => false,
        }
    }

    /// True when `seat` holds every territory.
    pub(crate) fn holds_all(&self, seat: u8) -> bool {
        self.held_mask(seat) == ALL_TERRITORIES
    }
}

/// W-REINF-1's territory part: max(3, territories / 3).
pub fn territory_reinforcements(territories: u32) -> u32 {
    (territories / 3).max(3)
}
