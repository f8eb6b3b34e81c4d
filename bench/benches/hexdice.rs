//! Speed of the hexdice engine: whole random games on the 36-cell full board, single thread,
//! legal-action generation included (every action is picked from `legal_actions`).
//!
//! Run: `cargo bench -p warroom-bench --bench hexdice`. Prints actions/s and games/s; the
//! figures recorded in bench/RESULTS.md come from this command.

use std::hint::black_box;
use std::time::{Duration, Instant};

use warroom_bench::random_game;
use warroom_engine::hexdice::{BoardChoice, Hexdice, Layout, Options};

/// Long enough to average out a noisy shared machine, short enough to rerun often.
const MEASURE: Duration = Duration::from_secs(5);
const WARM_UP_GAMES: u64 = 500;
/// Far above any real game (H-ATK-8 bounds them); reaching it is an engine bug.
const MAX_ACTIONS: u64 = 10_000;

fn main() {
    let options = Options {
        board: BoardChoice::Layout(Layout::Full),
        ..Options::default()
    };
    for seed in 0..WARM_UP_GAMES {
        black_box(random_game::<Hexdice>(&options, 2, seed, MAX_ACTIONS));
    }
    let start = Instant::now();
    let (mut games, mut actions) = (0u64, 0u64);
    while start.elapsed() < MEASURE {
        for _ in 0..100 {
            let stats = random_game::<Hexdice>(&options, 2, WARM_UP_GAMES + games, MAX_ACTIONS);
            actions += black_box(stats).actions;
            games += 1;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    println!("hexdice, 36-cell full board, random legal games, 1 thread");
    println!("  games:            {games}");
    println!("  actions:          {actions}");
    println!("  actions per game: {:.1}", actions as f64 / games as f64);
    println!("  actions/s:        {:.0}", actions as f64 / seconds);
    println!("  games/s:          {:.0}", games as f64 / seconds);
}
