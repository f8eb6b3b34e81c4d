//! Exact battle odds of classic (W-ATK-2, W-ATK-3): the chances of each result of one roll,
//! found by enumerating every die face, and the chance that an attacker who keeps rolling the
//! most dice takes a territory before it is down to one unit.

use std::sync::OnceLock;

use crate::classic::{Dice, battle_losses};

/// Units up to which conquest chances are tabulated; bigger armies are scaled down to it.
const TABLE: usize = 96;

/// The chances of one roll of `attack` dice against `defend` dice, by attacker losses
/// (index 0..=2; the defender loses the rest of the compared pairs).
fn roll_odds(attack: u8, defend: u8) -> [f64; 3] {
    let mut counts = [0u32; 3];
    let mut total = 0u32;
    let dice = usize::from(attack + defend);
    for code in 0..6u32.pow(u32::from(attack + defend)) {
        let mut faces = [0u8; 5];
        let mut rest = code;
        for face in faces.iter_mut().take(dice) {
            *face = (rest % 6) as u8 + 1;
            rest /= 6;
        }
        let a = Dice::new(&faces[..usize::from(attack)]);
        let d = Dice::new(&faces[usize::from(attack)..dice]);
        let (lost, _) = battle_losses(&a, &d);
        counts[lost as usize] += 1;
        total += 1;
    }
    counts.map(|c| f64::from(c) / f64::from(total))
}

/// `conquest()[a][d]`: the chance that `a` units on the attacking territory take a territory
/// held by `d` units, rolling the most dice every time and stopping only at one unit.
fn conquest() -> &'static Vec<Vec<f64>> {
    static TABLE_CELL: OnceLock<Vec<Vec<f64>>> = OnceLock::new();
    TABLE_CELL.get_or_init(|| {
        let odds: Vec<Vec<[f64; 3]>> = (0..=3u8)
            .map(|a| {
                (0..=2u8)
                    .map(|d| {
                        if a == 0 || d == 0 {
                            [0.0; 3]
                        } else {
                            roll_odds(a, d)
                        }
                    })
                    .collect()
            })
            .collect();
        let mut p = vec![vec![0.0; TABLE + 1]; TABLE + 1];
        for a in 0..=TABLE {
            for d in 0..=TABLE {
                p[a][d] = if d == 0 {
                    1.0
                } else if a <= 1 {
                    0.0
                } else {
                    let attack = (a - 1).min(3);
                    let defend = d.min(2);
                    let pairs = attack.min(defend);
                    let o = odds[attack][defend];
                    (0..=pairs)
                        .map(|lost| o[lost] * p[a - lost][d - (pairs - lost)])
                        .sum()
                };
            }
        }
        p
    })
}

/// The chance that `attackers` units (on the source, one of which must stay) take a territory
/// held by `defenders`.
pub(super) fn conquest_chance(attackers: u32, defenders: u32) -> f64 {
    let (mut a, mut d) = (attackers as usize, defenders as usize);
    if a > TABLE || d > TABLE {
        // Keep the ratio: big battles depend mostly on it.
        let scale = TABLE as f64 / a.max(d) as f64;
        a = ((a as f64 * scale).round() as usize).max(1);
        d = ((d as f64 * scale).round() as usize).max(1);
    }
    conquest()[a.min(TABLE)][d.min(TABLE)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn w_atk_3_one_roll_odds_match_the_known_values() {
        // Three dice against two: the attacker loses 2, 1 or 0 units.
        let o = roll_odds(3, 2);
        assert!((o[0] - 2890.0 / 7776.0).abs() < 1e-12);
        assert!((o[1] - 2611.0 / 7776.0).abs() < 1e-12);
        assert!((o[2] - 2275.0 / 7776.0).abs() < 1e-12);
        // One against one: ties go to the defender.
        let o = roll_odds(1, 1);
        assert!((o[0] - 15.0 / 36.0).abs() < 1e-12);
    }

    #[test]
    fn conquest_chances_grow_with_the_attackers() {
        assert_eq!(conquest_chance(1, 1), 0.0);
        assert!((conquest_chance(2, 1) - 15.0 / 36.0).abs() < 1e-12);
        assert!(conquest_chance(10, 3) > conquest_chance(5, 3));
        assert!(conquest_chance(10, 3) > 0.9);
        assert!(conquest_chance(300, 300) > 0.4 && conquest_chance(300, 300) < 0.9);
    }
}
