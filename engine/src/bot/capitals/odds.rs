//! Exact battle odds of capitals (C-BATTLE-1..3, C-DEEP-1 caps): the distribution of each side's
//! dice sum, and from them the chance the attacker wins and how many units each side keeps.
//! Computed by convolution, never by rolling.

use std::sync::OnceLock;

use crate::capitals::{AREA_CAP, Selection, Units};

/// The most hostile areas a deep path can count (C-DEEP-1): caps d6 at 3 and d8 at 5.
const MAX_HOSTILE: usize = 3;

/// The chance of each sum of `count` dice with `sides` faces, each counted at most `cap`.
fn sum_distribution(count: u8, sides: u8, cap: u8) -> Vec<f64> {
    let mut dist = vec![1.0];
    let face = 1.0 / f64::from(sides);
    for _ in 0..count {
        let mut next = vec![0.0; dist.len() + usize::from(cap)];
        for (sum, &p) in dist.iter().enumerate() {
            for rolled in 1..=sides {
                next[sum + usize::from(rolled.min(cap))] += p * face;
            }
        }
        dist = next;
    }
    dist
}

/// Sum distributions for every count up to [`AREA_CAP`], by die kind and number of hostile areas
/// on the path: `[d6 | d8][hostile][count]`.
fn table() -> &'static [[Vec<Vec<f64>>; MAX_HOSTILE + 1]; 2] {
    static TABLE: OnceLock<[[Vec<Vec<f64>>; MAX_HOSTILE + 1]; 2]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let kind = |sides: u8| {
            std::array::from_fn(|hostile| {
                (0..=AREA_CAP)
                    .map(|n| sum_distribution(n, sides, sides - hostile as u8))
                    .collect()
            })
        };
        [kind(6), kind(8)]
    })
}

/// The sum distribution of `d6` d6 and `d8` d8, each capped for `hostile` hostile areas.
fn dice_sum(d6: u8, d8: u8, hostile: u8) -> Vec<f64> {
    let hostile = usize::from(hostile).min(MAX_HOSTILE);
    let lookup = |kind: usize, sides: u8, n: u8| -> Vec<f64> {
        table()[kind][hostile]
            .get(usize::from(n))
            .cloned()
            .unwrap_or_else(|| sum_distribution(n, sides, sides - hostile as u8))
    };
    let a = lookup(0, 6, d6);
    let b = lookup(1, 8, d8);
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, &p) in a.iter().enumerate() {
        if p == 0.0 {
            continue;
        }
        for (j, &q) in b.iter().enumerate() {
            out[i + j] += p * q;
        }
    }
    out
}

/// How a battle is expected to go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Odds {
    /// The chance the attacker wins (a tie goes to the defender).
    pub win: f64,
    /// The expected number of attacking units kept, counting a lost battle as 0.
    pub attackers_kept: f64,
    /// The expected number of defending units kept, counting a won battle as 0.
    pub defenders_kept: f64,
}

/// The odds of `attack` (capped for `hostile` hostile areas on the path) against every unit of
/// `defence`. Linear in the sums thanks to the defender's cumulative distribution: a side keeps
/// at least `k` units exactly when its margin passes `4 (k − 1)` (C-BATTLE-3), so the expected
/// units kept is a sum of tail chances.
pub(super) fn odds(attack: Selection, hostile: u8, defence: Units) -> Odds {
    let sent = attack.d6 + attack.d8;
    let defenders = defence.total();
    let a = attack_sums(attack, hostile);
    let below = defence_below(defence);
    let highest = below.len() - 1;
    let lower = |t: i64| -> f64 {
        // P(defender's sum < t)
        if t <= 0 {
            0.0
        } else {
            below[usize::try_from(t).unwrap_or(usize::MAX).min(highest)]
        }
    };
    let mut odds = Odds {
        win: 0.0,
        attackers_kept: 0.0,
        defenders_kept: 0.0,
    };
    for (x, &p) in a.iter().enumerate() {
        if p == 0.0 {
            continue;
        }
        let x = x as i64;
        odds.win += p * lower(x);
        // The attacker keeps at least k units when y < x − 4 (k − 1).
        let mut kept = 0.0;
        for k in 1..=i64::from(sent) {
            let chance = lower(x - 4 * (k - 1));
            if chance == 0.0 {
                break;
            }
            kept += chance;
        }
        odds.attackers_kept += p * kept;
        // The defender keeps 1 unit when y ≥ x, and at least k ≥ 2 when y > x + 4 (k − 1).
        let mut kept = 0.0;
        for k in 1..=i64::from(defenders) {
            let from = if k == 1 { x } else { x + 4 * (k - 1) + 1 };
            let chance = 1.0 - lower(from);
            if chance <= 0.0 {
                break;
            }
            kept += chance;
        }
        odds.defenders_kept += p * kept;
    }
    odds
}

/// The chance of each sum of the attacking dice `attack`, capped for `hostile` hostile areas on
/// the path (C-BATTLE-1, C-DEEP-1).
pub(super) fn attack_sums(attack: Selection, hostile: u8) -> Vec<f64> {
    dice_sum(attack.d6, attack.d8, hostile)
}

/// `below[t]`: the chance that every unit of `defence` (used or not) together rolls less than
/// `t`, for `t` in `0..=` the highest sum + 1.
pub(super) fn defence_below(defence: Units) -> Vec<f64> {
    let d = dice_sum(
        defence.d6 + defence.d6_used,
        defence.d8 + defence.d8_used,
        0,
    );
    let mut below = Vec::with_capacity(d.len() + 1);
    let mut acc = 0.0;
    below.push(0.0);
    for &q in &d {
        acc += q;
        below.push(acc);
    }
    below
}

/// How a battle of an attack with sums `attack` against a defence of `defenders` units with
/// `below` (from [`defence_below`]) ends, by what the defender keeps: `[0]` is the chance the
/// attacker wins, `[k]` the chance the defender wins and keeps exactly `k` units, its strongest
/// (C-BATTLE-2, C-BATTLE-3: a tie keeps 1, a margin above `4 (k − 1)` keeps at least `k`).
pub(super) fn defender_kept(attack: &[f64], below: &[f64], defenders: u8) -> [f64; 11] {
    let n = usize::from(defenders.min(AREA_CAP));
    let top = below.len() - 1;
    let lower = |t: usize| below[t.min(top)];
    let mut at_least = [0.0; 12];
    let mut fall = 0.0;
    for (x, &p) in attack.iter().enumerate() {
        if p == 0.0 {
            continue;
        }
        let lost = lower(x);
        fall += p * lost;
        at_least[1] += p * (1.0 - lost);
        for (k, slot) in at_least.iter_mut().enumerate().take(n + 1).skip(2) {
            let chance = 1.0 - lower(x + 4 * (k - 1) + 1);
            if chance <= 0.0 {
                break;
            }
            *slot += p * chance;
        }
    }
    let mut out = [0.0; 11];
    out[0] = fall;
    for k in 1..=n {
        out[k] = (at_least[k] - at_least[k + 1]).max(0.0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capitals::units_kept;

    #[test]
    fn one_d6_against_one_d6_wins_15_in_36() {
        let o = odds(Selection::new(1, 0), 0, Units::d6(1));
        assert!((o.win - 15.0 / 36.0).abs() < 1e-12);
        assert!((o.attackers_kept - 15.0 / 36.0).abs() < 1e-12);
        assert!((o.defenders_kept - 21.0 / 36.0).abs() < 1e-12);
    }

    /// Every pair of sums, one by one: the definition the fast `odds` must agree with.
    fn odds_by_every_pair(attack: Selection, hostile: u8, defence: Units) -> Odds {
        let sent = attack.d6 + attack.d8;
        let defenders = defence.total();
        let a = dice_sum(attack.d6, attack.d8, hostile);
        let d = dice_sum(
            defence.d6 + defence.d6_used,
            defence.d8 + defence.d8_used,
            0,
        );
        let mut odds = Odds {
            win: 0.0,
            attackers_kept: 0.0,
            defenders_kept: 0.0,
        };
        for (x, &p) in a.iter().enumerate() {
            for (y, &q) in d.iter().enumerate() {
                if x > y {
                    odds.win += p * q;
                    odds.attackers_kept += p * q * f64::from(units_kept((x - y) as u16, sent));
                } else {
                    odds.defenders_kept += p * q * f64::from(units_kept((y - x) as u16, defenders));
                }
            }
        }
        odds
    }

    #[test]
    fn c_battle_3_fast_odds_agree_with_every_pair_of_sums() {
        let defences = [
            Units::d6(1),
            Units::d6(4),
            Units {
                d6: 2,
                d8: 3,
                d6_used: 1,
                d8_used: 2,
            },
            Units::d6(10),
        ];
        for (d6, d8) in [(1, 0), (3, 0), (2, 2), (0, 5), (9, 1)] {
            for hostile in 0..=3 {
                for defence in defences {
                    let fast = odds(Selection::new(d6, d8), hostile, defence);
                    let slow = odds_by_every_pair(Selection::new(d6, d8), hostile, defence);
                    for (f, s) in [
                        (fast.win, slow.win),
                        (fast.attackers_kept, slow.attackers_kept),
                        (fast.defenders_kept, slow.defenders_kept),
                    ] {
                        assert!(
                            (f - s).abs() < 1e-9,
                            "{d6} d6 {d8} d8 vs {defence:?}: {f} {s}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn c_battle_3_what_the_defender_keeps_agrees_with_the_odds() {
        for (attack, hostile, defence) in [
            (Selection::new(3, 0), 0, Units::d6(4)),
            (Selection::new(2, 2), 2, Units::d6(7)),
            (
                Selection::new(6, 1),
                1,
                Units {
                    d6: 2,
                    d8: 3,
                    d6_used: 1,
                    d8_used: 0,
                },
            ),
            (Selection::new(1, 0), 3, Units::d6(10)),
        ] {
            let o = odds(attack, hostile, defence);
            let kept = defender_kept(
                &attack_sums(attack, hostile),
                &defence_below(defence),
                defence.total(),
            );
            let total: f64 = kept.iter().sum();
            assert!((total - 1.0).abs() < 1e-9, "{total}");
            assert!((kept[0] - o.win).abs() < 1e-9);
            let expected: f64 = kept.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
            assert!(
                (expected - o.defenders_kept).abs() < 1e-9,
                "{expected} {}",
                o.defenders_kept
            );
        }
    }

    #[test]
    fn c_deep_1_caps_lower_the_odds() {
        let direct = odds(Selection::new(4, 0), 0, Units::d6(3));
        let capped = odds(Selection::new(4, 0), 3, Units::d6(3));
        assert!(capped.win < direct.win);
        // Four d6 capped at 3 sum at most 12: never beats three d6 showing 4 or more each.
        let sums = dice_sum(4, 0, 3);
        assert_eq!(sums.len(), 13);
        assert!((sums.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
