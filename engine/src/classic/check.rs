//! Validating an action without changing anything: every refusal of classic is decided here, so
//! `execute` can assume a checked action and never fail.

use super::action::Action;
use super::cards::{Card, is_set};
use super::error::ClassicError;
use super::map::{self, TERRITORY_COUNT, TerritoryId};
use super::options::FortifyMode;
use super::state::{Classic, NOBODY, Phase};
use crate::core::Seat;

/// Why `seat` may not take `action` now, if it may not.
pub fn check(state: &Classic, seat: Seat, action: &Action) -> Result<(), ClassicError> {
    if state.phase == Phase::Over {
        return Err(ClassicError::MatchOver);
    }
    if seat.0 != state.current {
        return Err(ClassicError::NotYourTurn {
            to_act: Seat(state.current),
        });
    }
    let me = seat.0;
    match *action {
        Action::Claim { territory } => {
            expect_phase(state, "claim", |p| p == Phase::Claim)?;
            known(territory)?;
            if state.owner[usize::from(territory)] != NOBODY {
                return Err(ClassicError::TerritoryTaken(territory));
            }
            Ok(())
        }
        Action::Place { territory, units } => check_place(state, me, territory, units),
        Action::Trade { cards, bonus } => check_trade(state, me, cards, bonus),
        Action::Attack { from, to, dice } => {
            expect_attack_step(state, "attack")?;
            own(state, me, from)?;
            known(to)?;
            if state.holds(me, to) {
                return Err(ClassicError::OwnTerritory(to));
            }
            if !map::borders(from, to) {
                return Err(ClassicError::NotAdjacent { from, to });
            }
            let units = state.units[usize::from(from)];
            if units < 2 {
                return Err(ClassicError::NotEnoughUnits {
                    territory: from,
                    units,
                });
            }
            let max = max_attack_dice(units);
            if dice == 0 || dice > max {
                return Err(ClassicError::InvalidDice { dice, max });
            }
            Ok(())
        }
        Action::MoveIn { units } => match state.phase {
            Phase::MoveIn { min, max, .. } => in_range(units, min, max),
            _ => Err(wrong_phase(state, "move units in")),
        },
        Action::Fortify { from, to, units } => {
            expect_attack_step(state, "fortify")?;
            own(state, me, from)?;
            own(state, me, to)?;
            if from == to {
                return Err(ClassicError::SameTerritory);
            }
            match state.options.fortify {
                FortifyMode::Adjacent if !map::borders(from, to) => {
                    return Err(ClassicError::NotAdjacent { from, to });
                }
                FortifyMode::Connected
                    if map::reachable(from, state.held_mask(me)) & (1 << to) == 0 =>
                {
                    return Err(ClassicError::NotConnected { from, to });
                }
                _ => {}
            }
            in_range(units, 1, state.units[usize::from(from)].saturating_sub(1))
        }
        Action::EndTurn => expect_attack_step(state, "end the turn"),
    }
}

/// W-ATK-2: the attacker rolls at most 3 dice and at most units − 1.
pub fn max_attack_dice(units: u32) -> u8 {
    // The minimum is at most 3, so the cast is lossless.
    units.saturating_sub(1).min(3) as u8
}

fn check_place(
    state: &Classic,
    me: u8,
    territory: TerritoryId,
    units: u32,
) -> Result<(), ClassicError> {
    match state.phase {
        Phase::Deploy => {
            own(state, me, territory)?;
            in_range(units, 1, 1)
        }
        Phase::Reinforce | Phase::EliminationTrade => {
            if state.must_trade() {
                return Err(ClassicError::MustTrade {
                    cards: state.hands[usize::from(me)].len(),
                });
            }
            own(state, me, territory)?;
            in_range(units, 1, state.reserve)
        }
        _ => Err(wrong_phase(state, "place units")),
    }
}

fn check_trade(
    state: &Classic,
    me: u8,
    cards: [Card; 3],
    bonus: Option<TerritoryId>,
) -> Result<(), ClassicError> {
    if !state.trading_open() {
        return Err(ClassicError::TradeNotAllowed);
    }
    let hand = &state.hands[usize::from(me)];
    for (i, card) in cards.iter().enumerate() {
        if !card.exists() {
            return Err(ClassicError::UnknownCard(card.0));
        }
        if cards[..i].contains(card) {
            return Err(ClassicError::DuplicateCard(card.0));
        }
        if !hand.contains(card) {
            return Err(ClassicError::CardNotHeld(card.0));
        }
    }
    if !is_set(cards) {
        return Err(ClassicError::NotASet);
    }
    if let Some(territory) = bonus {
        if state.bonus_used {
            return Err(ClassicError::BonusAlreadyUsed);
        }
        let shown = cards.iter().any(|c| c.territory() == Some(territory));
        if !shown || !state.holds(me, territory) {
            return Err(ClassicError::InvalidBonus(territory));
        }
    }
    Ok(())
}

fn known(territory: TerritoryId) -> Result<(), ClassicError> {
    if usize::from(territory) < TERRITORY_COUNT {
        Ok(())
    } else {
        Err(ClassicError::UnknownTerritory(territory))
    }
}

fn own(state: &Classic, me: u8, territory: TerritoryId) -> Result<(), ClassicError> {
    known(territory)?;
    if state.holds(me, territory) {
        Ok(())
    } else {
        Err(ClassicError::NotYourTerritory(territory))
    }
}

fn in_range(units: u32, min: u32, max: u32) -> Result<(), ClassicError> {
    if (min..=max).contains(&units) {
        Ok(())
    } else {
        Err(ClassicError::UnitsOutOfRange { units, min, max })
    }
}

fn expect_phase(
    state: &Classic,
    action: &'static str,
    allowed: impl Fn(Phase) -> bool,
) -> Result<(), ClassicError> {
    if allowed(state.phase) {
        Ok(())
    } else {
        Err(wrong_phase(state, action))
    }
}

/// Attacking, fortifying and ending the turn all need the attack step; the two usual blockers
/// get their own codes.
fn expect_attack_step(state: &Classic, action: &'static str) -> Result<(), ClassicError> {
    match state.phase {
        Phase::Attack => Ok(()),
        Phase::Reinforce | Phase::EliminationTrade if state.must_trade() => {
            Err(ClassicError::MustTrade {
                cards: state.hands[usize::from(state.current)].len(),
            })
        }
        Phase::Reinforce | Phase::EliminationTrade => Err(ClassicError::ReinforcementsPending {
            reserve: state.reserve,
        }),
        Phase::MoveIn { .. } => Err(ClassicError::MoveInPending),
        _ => Err(wrong_phase(state, action)),
    }
}

fn wrong_phase(state: &Classic, action: &'static str) -> ClassicError {
    let waiting_for = match state.phase {
        Phase::Claim => "the match waits for a territory claim",
        Phase::Deploy => "the match waits for a starting unit to be placed",
        Phase::Reinforce => "reinforcements and card trades come first",
        Phase::Attack => "the turn is in its attack step",
        Phase::MoveIn { .. } => "the match waits for the move-in after a conquest",
        Phase::EliminationTrade => "the cards taken must be traded and placed first",
        Phase::Over => "the match is over",
    };
    ClassicError::WrongPhase {
        action,
        waiting_for,
    }
}
