//! Speed of the classic engine: whole random 6-player games on one thread, legal-action
//! generation included in every step, played by the biased random policy of
//! `warroom_engine::classic::policy` (uniform play rarely finishes a classic game).
//!
//! Run: `cargo bench -p warroom-bench --bench classic`. Prints actions/s and games/s for the
//! default options (claim setup, adjacent fortify) and for the random quick setup; the median of
//! several rounds is reported because the machine is shared and noisy.

use std::hint::black_box;
use std::time::{Duration, Instant};

use warroom_engine::classic::{Classic, ClassicOptions, SetupMode, policy};
use warroom_engine::{MatchRng, Ruleset, Seed};

/// Plays one whole game, returning how many actions it took.
fn play(options: &ClassicOptions, seed: u64) -> u64 {
    let (mut state, _) = Classic::new(options, 6, Seed::from_u64(seed)).expect("valid options");
    let mut chooser = MatchRng::new(Seed::from_u64(seed ^ 0x9e37_79b9_7f4a_7c15));
    let mut legal = Vec::with_capacity(256);
    let mut events = Vec::with_capacity(16);
    let mut actions = 0u64;
    while let Some(seat) = state.to_act() {
        legal.clear();
        state.legal_actions(&mut legal);
        let pick = policy::choose(&state, &legal, &mut chooser);
        events.clear();
        state
            .apply(seat, &legal[pick], &mut events)
            .expect("a listed action is legal");
        actions += 1;
        assert!(actions < 1_000_000, "game {seed} does not end");
    }
    black_box(&events);
    actions
}

/// One round: games until `budget` has passed. Returns (actions, games, elapsed).
fn round(options: &ClassicOptions, first_seed: u64, budget: Duration) -> (u64, u64, Duration) {
    let start = Instant::now();
    let (mut actions, mut games) = (0, 0);
    while start.elapsed() < budget {
        actions += play(options, first_seed + games);
        games += 1;
    }
    (actions, games, start.elapsed())
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not, and then one quick round
    // checks the benchmark still runs.
    let quick = !std::env::args().any(|a| a == "--bench");
    let (rounds, budget) = if quick {
        (1, Duration::from_millis(200))
    } else {
        (7, Duration::from_secs(2))
    };
    let setups = [
        ("claim setup (default)", ClassicOptions::default()),
        (
            "random setup",
            ClassicOptions {
                setup: SetupMode::Random,
                ..ClassicOptions::default()
            },
        ),
    ];
    for (name, options) in setups {
        round(&options, 0, budget / 4); // warm-up
        let mut per_round: Vec<(f64, f64, f64)> = (0..rounds)
            .map(|r| {
                let (actions, games, elapsed) = round(&options, 1_000_000 * (r + 1), budget);
                let secs = elapsed.as_secs_f64();
                (
                    actions as f64 / secs,
                    games as f64 / secs,
                    actions as f64 / games as f64,
                )
            })
            .collect();
        per_round.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (actions_per_s, games_per_s, actions_per_game) = per_round[per_round.len() / 2];
        println!(
            "classic 6 players, {name}: {actions_per_s:>12.0} actions/s  {games_per_s:>8.1} games/s  \
             ({actions_per_game:.0} actions/game, median of {rounds} rounds of {budget:?})"
        );
    }
}
