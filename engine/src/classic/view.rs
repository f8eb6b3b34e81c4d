//! What one viewer may see of a classic match (W-CARD-6): everything on the board, each seat's
//! card count, and the viewer's own hand; never another seat's cards or the deck order.

use serde::Serialize;

use super::cards::{CardFace, set_value};
use super::map::{self, BORDERS, Continent, TERRITORIES, TerritoryId};
use super::options::ClassicOptions;
use super::state::{Classic, Phase};
use crate::core::{Outcome, Ruleset, Seat, Viewer};
use crate::hex::RegionShape;

/// The view of a classic match for one viewer.
#[derive(Clone, Debug, Serialize)]
pub struct ClassicView {
    /// The room options.
    pub options: ClassicOptions,
    /// The shapes every ruleset's board is drawn from.
    pub board: Board,
    /// Each territory's fixed facts and current holder.
    pub territories: Vec<TerritoryView>,
    /// The continents and their bonuses.
    pub continents: Vec<ContinentView>,
    /// The 83 borders, each once.
    pub borders: Vec<[TerritoryId; 2]>,
    /// Each seat's public standing.
    pub players: Vec<PlayerView>,
    /// The viewer's own cards (absent for spectators).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<CardFace>>,
    /// The current step.
    pub phase: Phase,
    /// Whose decision the match waits for.
    pub to_act: Option<Seat>,
    /// Turns started so far.
    pub turn: u32,
    /// Reinforcements still to place this turn.
    pub reserve: u32,
    /// Whether the seat to act must trade a set before placing (W-CARD-4, W-CARD-5).
    pub must_trade: bool,
    /// Whether the seat to act may trade a set now: while reinforcing, and in the attack step
    /// until its first attack (W-CARD-3); after an elimination, while it must (W-CARD-5).
    pub can_trade: bool,
    /// Whether the seat to act has conquered this turn (and so draws a card at its end).
    pub conquered_this_turn: bool,
    /// Whether this turn's +2 territory bonus is spent.
    pub territory_bonus_used: bool,
    /// Sets traded so far in the game.
    pub sets_traded: u32,
    /// What the next set is worth.
    pub next_set_value: u32,
    /// Cards left to draw (their order is secret).
    pub deck_size: usize,
    /// Traded cards waiting to be reshuffled.
    pub set_aside: usize,
    /// How the match ended, once it has.
    pub outcome: Option<Outcome>,
}

/// The regions to draw.
#[derive(Clone, Debug, Serialize)]
pub struct Board {
    /// One region per territory, in id order.
    pub regions: Vec<RegionShape>,
}

/// One territory.
#[derive(Clone, Debug, Serialize)]
pub struct TerritoryView {
    /// Its id.
    pub id: TerritoryId,
    /// Its name.
    pub name: &'static str,
    /// Its continent.
    pub continent: Continent,
    /// Who holds it (none while unclaimed).
    pub owner: Option<Seat>,
    /// Units on it.
    pub units: u32,
}

/// One continent.
#[derive(Clone, Debug, Serialize)]
pub struct ContinentView {
    /// Its id.
    pub id: Continent,
    /// Its name.
    pub name: &'static str,
    /// Units earned each turn for holding all of it.
    pub bonus: u32,
    /// Its territories.
    pub territories: Vec<TerritoryId>,
}

/// One seat's public standing.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    /// The seat.
    pub seat: Seat,
    /// How many cards it holds (which ones is hidden).
    pub cards: usize,
    /// How many territories it holds.
    pub territories: u32,
    /// Units on its territories.
    pub units: u64,
    /// Starting units still to place (setup).
    pub starting_units_left: u32,
    /// True once it has lost every territory.
    pub eliminated: bool,
}

impl Classic {
    /// Builds the view for `viewer`. Without `board`, the board's shapes, the continents and the
    /// borders are left empty ([`crate::Ruleset::dynamic_view`]).
    pub(crate) fn build_view(&self, viewer: Viewer, board: bool) -> ClassicView {
        let players = (0..self.seats)
            .map(|seat| {
                let s = usize::from(seat);
                let held = self.held_mask(seat);
                PlayerView {
                    seat: Seat(seat),
                    cards: self.hands[s].len(),
                    territories: held.count_ones(),
                    units: map::ids(held)
                        .map(|t| u64::from(self.units[usize::from(t)]))
                        .sum(),
                    starting_units_left: self.to_place[s],
                    eliminated: self.out[s],
                }
            })
            .collect();
        let hand = match viewer {
            Viewer::Seat(seat) => self
                .hands
                .get(seat.index())
                .map(|hand| hand.iter().map(|c| c.face()).collect()),
            Viewer::Spectator => None,
        };
        ClassicView {
            options: self.options,
            board: Board {
                regions: if board {
                    map::region_shapes()
                } else {
                    Vec::new()
                },
            },
            territories: TERRITORIES
                .iter()
                .enumerate()
                .map(|(id, info)| TerritoryView {
                    // 42 territories fit in u8.
                    id: id as TerritoryId,
                    name: info.name,
                    continent: info.continent,
                    owner: self.owner(id as TerritoryId),
                    units: self.units[id],
                })
                .collect(),
            continents: if board {
                Continent::ALL
                    .into_iter()
                    .map(|c| ContinentView {
                        id: c,
                        name: c.name(),
                        bonus: c.bonus(),
                        territories: map::ids(c.mask()).collect(),
                    })
                    .collect()
            } else {
                Vec::new()
            },
            borders: if board {
                BORDERS.iter().map(|&(a, b)| [a, b]).collect()
            } else {
                Vec::new()
            },
            players,
            hand,
            phase: self.phase,
            to_act: self.to_act(),
            turn: self.turn,
            reserve: self.reserve,
            must_trade: self.must_trade(),
            can_trade: self.trading_open(),
            conquered_this_turn: self.conquered,
            territory_bonus_used: self.bonus_used,
            sets_traded: self.sets_traded,
            next_set_value: set_value(self.sets_traded),
            deck_size: self.deck.len(),
            set_aside: self.set_aside.len(),
            outcome: self.outcome(),
        }
    }
}
