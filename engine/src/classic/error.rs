//! Why classic refuses an action: each variant has a stable snake_case code (never renamed once
//! published) and a readable message.

use crate::core::{RuleError, Seat};

/// A refused action. The state is unchanged whenever one is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClassicError {
    /// The match has ended.
    #[error("the match is over")]
    MatchOver,
    /// Another seat must act now (G-TURN-1).
    #[error("it is seat {to_act}'s turn, not yours")]
    NotYourTurn {
        /// The seat the match waits for.
        to_act: Seat,
    },
    /// The action does not fit the current step of the game.
    #[error("cannot {action} now: {waiting_for}")]
    WrongPhase {
        /// What was tried.
        action: &'static str,
        /// What the match waits for instead.
        waiting_for: &'static str,
    },
    /// Reinforcements must all be placed before attacking, fortifying or ending the turn.
    #[error("place all {reserve} remaining reinforcements first")]
    ReinforcementsPending {
        /// Units still to place.
        reserve: u32,
    },
    /// A conquest waits for its move-in.
    #[error("choose how many units move into the conquered territory first")]
    MoveInPending,
    /// A player holding 5 or more cards (or 6 after an elimination) must trade first.
    #[error("you hold {cards} cards: trade a set before placing units")]
    MustTrade {
        /// Cards held.
        cards: usize,
    },
    /// No territory has this id.
    #[error("there is no territory {0}")]
    UnknownTerritory(u8),
    /// A claim on a territory someone holds.
    #[error("territory {0} is already claimed")]
    TerritoryTaken(u8),
    /// The territory belongs to someone else.
    #[error("territory {0} is not yours")]
    NotYourTerritory(u8),
    /// An attack on an own territory.
    #[error("territory {0} is yours: attack an enemy territory")]
    OwnTerritory(u8),
    /// The two territories share no border.
    #[error("territories {from} and {to} do not border each other")]
    NotAdjacent {
        /// Source.
        from: u8,
        /// Target.
        to: u8,
    },
    /// No chain of own territories joins the two.
    #[error("territories {from} and {to} are not joined by your territories")]
    NotConnected {
        /// Source.
        from: u8,
        /// Target.
        to: u8,
    },
    /// Source and destination are the same.
    #[error("source and destination are the same territory")]
    SameTerritory,
    /// Attacking needs at least 2 units in the source.
    #[error("territory {territory} has {units} unit(s): attacking needs at least 2")]
    NotEnoughUnits {
        /// The source.
        territory: u8,
        /// Its units.
        units: u32,
    },
    /// A dice count outside 1..=min(3, units − 1).
    #[error("roll between 1 and {max} dice, not {dice}")]
    InvalidDice {
        /// Asked.
        dice: u8,
        /// Allowed at most.
        max: u8,
    },
    /// A unit count outside what the step allows.
    #[error("choose between {min} and {max} units, not {units}")]
    UnitsOutOfRange {
        /// Asked.
        units: u32,
        /// Allowed at least.
        min: u32,
        /// Allowed at most.
        max: u32,
    },
    /// No card has this id.
    #[error("there is no card {0}")]
    UnknownCard(u8),
    /// The same card named twice.
    #[error("card {0} is named more than once")]
    DuplicateCard(u8),
    /// The card is not in the player's hand.
    #[error("you do not hold card {0}")]
    CardNotHeld(u8),
    /// The three cards are not a set.
    #[error("those cards are not a set: three of a kind, one of each, or any three with a wild")]
    NotASet,
    /// Trading is closed now (after an elimination, only until 4 or fewer cards are left).
    #[error("you cannot trade cards now")]
    TradeNotAllowed,
    /// The named bonus territory is not on a traded card or not held.
    #[error("territory {0} is not a held territory shown on the traded cards")]
    InvalidBonus(u8),
    /// The +2 territory bonus was already given this turn.
    #[error("the territory bonus was already given this turn")]
    BonusAlreadyUsed,
}

impl RuleError for ClassicError {
    fn code(&self) -> &'static str {
        match self {
            ClassicError::MatchOver => "match_over",
            ClassicError::NotYourTurn { .. } => "not_your_turn",
            ClassicError::WrongPhase { .. } => "wrong_phase",
            ClassicError::ReinforcementsPending { .. } => "reinforcements_pending",
            ClassicError::MoveInPending => "move_in_pending",
            ClassicError::MustTrade { .. } => "must_trade",
            ClassicError::UnknownTerritory(_) => "unknown_territory",
            ClassicError::TerritoryTaken(_) => "territory_taken",
            ClassicError::NotYourTerritory(_) => "not_your_territory",
            ClassicError::OwnTerritory(_) => "own_territory",
            ClassicError::NotAdjacent { .. } => "not_adjacent",
            ClassicError::NotConnected { .. } => "not_connected",
            ClassicError::SameTerritory => "same_territory",
            ClassicError::NotEnoughUnits { .. } => "not_enough_units",
            ClassicError::InvalidDice { .. } => "invalid_dice",
            ClassicError::UnitsOutOfRange { .. } => "units_out_of_range",
            ClassicError::UnknownCard(_) => "unknown_card",
            ClassicError::DuplicateCard(_) => "duplicate_card",
            ClassicError::CardNotHeld(_) => "card_not_held",
            ClassicError::NotASet => "not_a_set",
            ClassicError::TradeNotAllowed => "trade_not_allowed",
            ClassicError::InvalidBonus(_) => "invalid_bonus",
            ClassicError::BonusAlreadyUsed => "bonus_already_used",
        }
    }

    fn params(&self) -> Vec<(&'static str, i64)> {
        let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        match *self {
            ClassicError::NotYourTurn { to_act } => vec![("to_act", i64::from(to_act.0))],
            ClassicError::ReinforcementsPending { reserve } => {
                vec![("reserve", i64::from(reserve))]
            }
            ClassicError::MustTrade { cards } => vec![("cards", count(cards))],
            ClassicError::UnknownTerritory(territory)
            | ClassicError::TerritoryTaken(territory)
            | ClassicError::NotYourTerritory(territory)
            | ClassicError::OwnTerritory(territory)
            | ClassicError::InvalidBonus(territory) => vec![("territory", i64::from(territory))],
            ClassicError::NotAdjacent { from, to } | ClassicError::NotConnected { from, to } => {
                vec![("from", i64::from(from)), ("to", i64::from(to))]
            }
            ClassicError::NotEnoughUnits { territory, units } => vec![
                ("territory", i64::from(territory)),
                ("units", i64::from(units)),
            ],
            ClassicError::InvalidDice { dice, max } => {
                vec![("dice", i64::from(dice)), ("max", i64::from(max))]
            }
            ClassicError::UnitsOutOfRange { units, min, max } => vec![
                ("units", i64::from(units)),
                ("min", i64::from(min)),
                ("max", i64::from(max)),
            ],
            ClassicError::UnknownCard(card)
            | ClassicError::DuplicateCard(card)
            | ClassicError::CardNotHeld(card) => vec![("card", i64::from(card))],
            ClassicError::MatchOver
            | ClassicError::WrongPhase { .. }
            | ClassicError::MoveInPending
            | ClassicError::SameTerritory
            | ClassicError::NotASet
            | ClassicError::TradeNotAllowed
            | ClassicError::BonusAlreadyUsed => Vec::new(),
        }
    }
}
