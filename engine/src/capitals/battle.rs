//! Battles by summed dice (C-BATTLE-1 to C-BATTLE-3).
//!
//! Dice are rolled in a fixed order so a replay draws the same numbers: the attacker's d8, then
//! its d6, then the defender's d8 and d6 (unused before used). Every die is an event.

use super::event::{Event, Side};
use super::units::{Die, Selection, Units};
use crate::rng::MatchRng;

/// How a battle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BattleResult {
    /// Who won.
    pub winner: Side,
    /// The winner's surviving units (the attacker's are marked used).
    pub survivors: Units,
}

/// How many units the winner keeps: min(n, max(1, ceil(margin / 4))) (C-BATTLE-3).
pub fn units_kept(margin: u16, units: u8) -> u8 {
    let kept = margin.div_ceil(4).max(1);
    u8::try_from(kept).unwrap_or(u8::MAX).min(units)
}

/// Rolls `count` dice of `die` for `side`, each counted at most `cap`; returns their sum.
fn roll(
    rng: &mut MatchRng,
    side: Side,
    die: Die,
    count: u8,
    cap: u8,
    events: &mut Vec<super::event::Event>,
) -> u16 {
    let mut sum = 0;
    for _ in 0..count {
        let rolled = rng.die(die.sides());
        let counted = rolled.min(cap);
        sum += u16::from(counted);
        events.push(Event::DieRolled {
            side,
            die,
            rolled,
            counted,
        });
    }
    sum
}

/// Fights `attackers` (dice capped at `caps` = (d6, d8)) against every unit of `defenders`.
pub(crate) fn fight(
    rng: &mut MatchRng,
    attackers: Selection,
    caps: (u8, u8),
    defenders: Units,
    events: &mut Vec<Event>,
) -> BattleResult {
    let attack = roll(rng, Side::Attacker, Die::D8, attackers.d8, caps.1, events)
        + roll(rng, Side::Attacker, Die::D6, attackers.d6, caps.0, events);
    let defending_d8 = defenders.d8 + defenders.d8_used;
    let defending_d6 = defenders.d6 + defenders.d6_used;
    let defence = roll(rng, Side::Defender, Die::D8, defending_d8, 8, events)
        + roll(rng, Side::Defender, Die::D6, defending_d6, 6, events);
    let (winner, survivors) = if attack > defence {
        let mut sent = Units::default();
        sent.add_used(attackers);
        let kept = units_kept(attack - defence, sent.total());
        (Side::Attacker, sent.strongest(kept))
    } else {
        let kept = units_kept(defence - attack, defenders.total());
        (Side::Defender, defenders.strongest(kept))
    };
    events.push(Event::BattleResolved {
        attack,
        defence,
        winner,
        survivors,
    });
    BattleResult { winner, survivors }
}
