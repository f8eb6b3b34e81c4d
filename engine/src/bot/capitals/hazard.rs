//! A hazard study of one `normal` among three random players (issue 9, bench/RESULTS.md), run by
//! hand: a test built only with the feature `studies`, not part of the bot.
//!
//! ```sh
//! HAZARD_FIRST=4000 HAZARD_COUNT=3000 HAZARD_SAMPLES=64 \
//!   cargo test --release -p warroom-engine --features studies hazard_study -- --nocapture
//! ```
//!
//! Every match is played exactly as the bench and `examples/capitals_duel.rs` play it (medium
//! map, measured seat `seed % 4`, `BotRng` seeds `seed * 31 + seat`). At each of the bot's ends
//! of turn, the chance that its capital falls before its next turn is computed as `normal`
//! weighs it ([`Round`]: the other seats' next round sampled `HAZARD_SAMPLES` times, every
//! attack on the capital listed at a step weighed by its chance of being drawn and its exact
//! odds), from a generator of the study's own (the match is not touched). The random players
//! draw uniformly from the same list, so the sum of these chances over a match, up to its end,
//! is an estimate of the chance that match is lost, without the noise of the dice that decide
//! the one battle: the study prints that sum per round, per number of units left in the
//! capital, per areas held and for the matches where the bot was held to its capital.

use super::bench_match;
use super::round::Round;
use crate::bot::BotRng;
use crate::capitals::Action;
use crate::core::Ruleset;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One end of turn of the bot: its round, units in its capital, areas held, fall chance.
struct End {
    round: u32,
    units: u8,
    held: usize,
    fall: f64,
    /// The fall chance had the bot ended its turn before its first order.
    at_start: f64,
}

/// Plays seed `seed`'s match; the bot's ends of turn, whether it won, and whether it was held
/// to at most 2 areas at an end of turn from round 4 on.
fn play(seed: u64, samples: usize) -> (Vec<End>, bool, bool) {
    let (mut state, me, mut rngs) = bench_match::start(seed);
    let mut study = BotRng::new(seed ^ 0x4a2a_7d00);
    let capital = state.map().capitals[me.index()];
    let mut ends = Vec::new();
    let mut stuck = false;
    let mut at_start = 0.0;
    let mut actions = 0;
    while let Some(s) = state.to_act() {
        if actions >= 50_000 {
            break;
        }
        if s == me && state.orders_given() == 0 {
            let units = state.area(capital).map(|a| a.units).unwrap_or_default();
            at_start = Round::sample(&state, me, capital, samples, &mut study).falls(units);
        }
        let action = bench_match::bench_action(&state, s, me, &mut rngs);
        if s == me && action == Action::EndTurn {
            let held = state.areas().iter().filter(|a| a.owner == Some(me)).count();
            let units = state.area(capital).map(|a| a.units).unwrap_or_default();
            let round = Round::sample(&state, me, capital, samples, &mut study);
            ends.push(End {
                round: state.round(),
                units: units.total(),
                held,
                fall: round.falls(units),
                at_start,
            });
            stuck |= held <= 2 && state.round() >= 4;
        }
        state.play(s, &action).expect("legal");
        actions += 1;
    }
    let won = state.outcome().map(|o| o.winner) == Some(me);
    (ends, won, stuck)
}

/// Sums of fall chances in buckets: (label, upper bound inclusive).
fn bucket_line(name: &str, bounds: &[(&str, u64)], ends: &[(u64, f64)]) -> String {
    let mut sums = vec![0.0; bounds.len()];
    let mut turns = vec![0u64; bounds.len()];
    for &(key, fall) in ends {
        if let Some(i) = bounds.iter().position(|&(_, upper)| key <= upper) {
            sums[i] += fall;
            turns[i] += 1;
        }
    }
    let cells: Vec<String> = bounds
        .iter()
        .zip(sums.iter().zip(&turns))
        .map(|(&(label, _), (sum, n))| format!("{label}: {sum:.2} ({n} turns)"))
        .collect();
    format!("{name}: {}", cells.join(", "))
}

#[test]
fn hazard_study() {
    let first = env("HAZARD_FIRST", 4000);
    let count = env("HAZARD_COUNT", 200);
    let samples = env("HAZARD_SAMPLES", 64) as usize;
    let mut all = Vec::new();
    let mut sums = Vec::new();
    let (mut lost, mut expected, mut stuck_matches, mut stuck_lost, mut stuck_expected) =
        (0, 0.0, 0, 0, 0.0);
    for seed in first..first + count {
        let (ends, won, stuck) = play(seed, samples);
        let sum: f64 = ends.iter().map(|e| e.fall).sum();
        expected += sum;
        sums.push(sum);
        lost += u64::from(!won);
        if stuck {
            stuck_matches += 1;
            stuck_lost += u64::from(!won);
            stuck_expected += sum;
        }
        all.extend(ends);
    }
    let mean = expected / count.max(1) as f64;
    let spread = sums.iter().map(|s| (s - mean).powi(2)).sum::<f64>().sqrt();
    println!(
        "hazard {first}..{}: {lost} not won, {expected:.1} expected falls (sd {spread:.1}; {samples} samples a turn); held to its capital: {stuck_matches} matches, {stuck_lost} not won, {stuck_expected:.1} expected",
        first + count
    );
    let by = |key: fn(&End) -> u64| all.iter().map(|e| (key(e), e.fall)).collect::<Vec<_>>();
    let rounds = [
        ("r1", 1),
        ("r2", 2),
        ("r3-5", 5),
        ("r6-10", 10),
        ("r11-20", 20),
        ("r21+", u64::MAX),
    ];
    println!(
        "{}",
        bucket_line("by round", &rounds, &by(|e| u64::from(e.round)))
    );
    let units = [("1", 1), ("2", 2), ("3-4", 4), ("5-7", 7), ("8-10", 10)];
    println!(
        "{}",
        bucket_line("by capital units", &units, &by(|e| u64::from(e.units)))
    );
    let held = [
        ("1-2", 2),
        ("3-5", 5),
        ("6-10", 10),
        ("11-20", 20),
        ("21+", u64::MAX),
    ];
    println!(
        "{}",
        bucket_line("by areas held", &held, &by(|e| e.held as u64))
    );
    let size = [
        ("<0.1%", 9),
        ("0.1-1%", 99),
        ("1-3%", 299),
        ("3-10%", 999),
        ("10-30%", 2999),
        (">30%", u64::MAX),
    ];
    let per_10k = |e: &End| (e.fall * 10_000.0) as u64;
    println!("{}", bucket_line("by fall chance", &size, &by(per_10k)));
    for (label, low) in [("0.1-3%", 0.001), (">=3%", 0.03)] {
        let high: Vec<&End> = all
            .iter()
            .filter(|e| e.fall >= low && (low > 0.01 || e.fall < 0.03))
            .collect();
        let raised: Vec<&&End> = high.iter().filter(|e| e.fall > e.at_start + 1e-9).collect();
        println!(
            "turns ending at {label}: {}, {:.2} expected; at their start {:.2}; {} turns raised it, by {:.2} in all",
            high.len(),
            high.iter().map(|e| e.fall).sum::<f64>(),
            high.iter().map(|e| e.at_start).sum::<f64>(),
            raised.len(),
            raised.iter().map(|e| e.fall - e.at_start).sum::<f64>()
        );
        println!(
            "{}",
            bucket_line(
                "  by round",
                &rounds,
                &high
                    .iter()
                    .map(|e| (u64::from(e.round), e.fall))
                    .collect::<Vec<_>>()
            )
        );
    }
}
