//! The bots bench's hexdice match-ups, engine only (no server build): `hard` vs `normal` and
//! `normal` vs random, default options (20-cell board), the measured seat rotating with the
//! seed (`seed % 2`), `BotRng` seeds `seed * 31 + seat`, exactly as `bench/src/bin/bots.rs`
//! plays them, so it reproduces the bench's win counts.
//!
//! ```sh
//! cargo run --release -p warroom-engine --example hexdice_duel -- hard 0 2000 [threads] [board]
//! cargo run --release -p warroom-engine --example hexdice_duel -- random 0 2000 [threads] [board]
//! ```
//!
//! Arguments: the match-up (`hard`: `hard` vs `normal`; `random`: `normal` vs random;
//! `hard-random`: `hard` vs random, not in the bench), the first seed, the number of matches
//! (consecutive seeds), the threads (1 or 2; more are refused, the machine is shared) and the
//! board layout (`small`, `medium` (the default options' board) or `full`). Prints the wins of
//! the measured seat, the unfinished matches (past 10,000 actions, as the bench), the actions
//! per match, the wall-clock decision times of the measured bot (p50, p99, max; meaningful with
//! one thread), also as the faster of two identical calls of each decision (the second from a
//! clone of the same `BotRng`, which must give the same action): on a shared machine that
//! leaves out most time spent descheduled (the second call also finds warm caches). Then how
//! often the measured seat took the first turn (H-SETUP-5) and won with and without it, and the
//! load average before and after.

use std::time::Instant;

use warroom_engine::hexdice::{BoardChoice, Event, Hexdice, Layout, Options};
use warroom_engine::{Bot, BotLevel, Ruleset, Seed, random_legal};

mod duel;
use duel::{Player, arguments, on_threads, percentile_ms, seating};

/// The bench's action limit for a hexdice match.
const MAX_ACTIONS: u64 = 10_000;

/// One match as the measured seat saw it.
struct Played {
    won: bool,
    unfinished: bool,
    actions: u64,
    /// Whether the measured seat took the first turn (H-SETUP-5).
    first_turn: bool,
    /// Wall-clock nanoseconds of each decision of the measured bot.
    times: Vec<u64>,
    /// The same, the faster of two identical calls.
    best_times: Vec<u64>,
}

/// Plays the match of `seed`: `measured` in seat `seed % 2`, `other` in the other seat.
fn play(options: &Options, seed: u64, measured: Player, other: Player) -> Played {
    let (me, players, mut rngs) = seating(seed, 2, measured, other);
    let (mut state, _) = Hexdice::new(options, 2, Seed::from_u64(seed)).expect("valid options");
    let mut times = Vec::new();
    let mut best_times = Vec::new();
    let mut actions = 0;
    let mut first_turn = false;
    while let Some(seat) = state.to_act() {
        if actions >= MAX_ACTIONS {
            return Played {
                won: false,
                unfinished: true,
                actions,
                first_turn,
                times,
                best_times,
            };
        }
        let rng = &mut rngs[seat.index()];
        let action = match players[seat.index()] {
            Player::Random => random_legal(&state, rng),
            Player::Bot(level) => {
                let unused = rng.clone();
                let start = Instant::now();
                let action = state.bot_action(level, rng);
                let once = nanos_since(start);
                if seat.index() == me {
                    // The same decision again from the same BotRng: a bot is deterministic, and
                    // the faster of the two calls leaves out most time spent descheduled.
                    let start = Instant::now();
                    let again = state.bot_action(level, &mut unused.clone());
                    let twice = nanos_since(start);
                    assert_eq!(again, action, "a bot is deterministic (seed {seed})");
                    times.push(once);
                    best_times.push(once.min(twice));
                }
                action
            }
        }
        .expect("a seat to act has an action");
        let events = state
            .play(seat, &action)
            .expect("bots and random players play listed actions");
        for event in &events {
            if let Event::OccupationEnded { first_turn: f, .. } = event {
                first_turn = f.index() == me;
            }
        }
        actions += 1;
    }
    Played {
        won: state.outcome().map(|o| o.winner.index()) == Some(me),
        unfinished: false,
        actions,
        first_turn,
        times,
        best_times,
    }
}

/// Nanoseconds since `start`.
fn nanos_since(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// The default options on another named board.
fn with_layout(layout: Layout) -> Options {
    Options {
        board: BoardChoice::Layout(layout),
        ..Options::default()
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

fn main() {
    let (mode, first, count, threads, last) = arguments("hard");
    assert!(
        (1..=2).contains(&threads),
        "1 or 2 threads (the machine is shared)"
    );
    let (measured, other) = match mode.as_str() {
        "hard" => (Player::Bot(BotLevel::Hard), Player::Bot(BotLevel::Normal)),
        "random" => (Player::Bot(BotLevel::Normal), Player::Random),
        "hard-random" => (Player::Bot(BotLevel::Hard), Player::Random),
        _ => panic!("match-up: hard (hard vs normal), random (normal vs random) or hard-random"),
    };
    let options = match last.as_deref() {
        None | Some("medium") => Options::default(),
        Some("small") => with_layout(Layout::Small),
        Some("full") => with_layout(Layout::Full),
        Some(other) => panic!("board layout: small, medium or full, not {other}"),
    };
    let options = &options;
    println!("load average before: {}", load_average());
    let start = Instant::now();
    let results = on_threads(first, count, threads, |seed| {
        play(options, seed, measured, other)
    });
    let wins = results.iter().filter(|r| r.won).count();
    let unfinished = results.iter().filter(|r| r.unfinished).count();
    let actions: u64 = results.iter().map(|r| r.actions).sum();
    let mut times: Vec<u64> = results.iter().flat_map(|r| r.times.clone()).collect();
    times.sort_unstable();
    println!(
        "{mode} {first}..{}: {wins}/{count} won ({:.1}%), {unfinished} unfinished, {:.1} actions/match, \
         {} decisions p50 {:.3} ms p99 {:.3} ms max {:.3} ms, {threads} thread(s), {:.1} s",
        first + count,
        100.0 * wins as f64 / count.max(1) as f64,
        actions as f64 / count.max(1) as f64,
        times.len(),
        percentile_ms(&times, 0.5),
        percentile_ms(&times, 0.99),
        times.last().copied().unwrap_or(0) as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
    let mut best_times: Vec<u64> = results.iter().flat_map(|r| r.best_times.clone()).collect();
    best_times.sort_unstable();
    println!(
        "best of two identical calls per decision: p50 {:.3} ms p99 {:.3} ms max {:.3} ms",
        percentile_ms(&best_times, 0.5),
        percentile_ms(&best_times, 0.99),
        best_times.last().copied().unwrap_or(0) as f64 / 1e6,
    );
    let took_first: Vec<&Played> = results.iter().filter(|r| r.first_turn).collect();
    let first_wins = took_first.iter().filter(|r| r.won).count();
    println!(
        "measured seat took the first turn in {} matches and won {first_wins} of them; won {} of the other {}",
        took_first.len(),
        wins - first_wins,
        results.len() - took_first.len()
    );
    println!("load average after: {}", load_average());
}
