//! What the duel examples share: who plays each seat of a match, and how the matches of a range
//! of seeds are spread over threads, as `bench/src/bin/bots.rs` plays them.

use warroom_engine::{BotLevel, BotRng};

/// Who plays a seat.
#[derive(Clone, Copy, PartialEq)]
pub enum Player {
    /// A uniformly random legal action.
    Random,
    /// A bot of this level.
    Bot(BotLevel),
}

/// The arguments every duel example starts with: the match-up (`mode` when absent), the first
/// seed (0), the number of matches (200, consecutive seeds) and the threads (1); then the
/// example's own last one, if given.
pub fn arguments(mode: &str) -> (String, u64, u64, u64, Option<String>) {
    let args: Vec<String> = std::env::args().collect();
    let number =
        |at: usize, absent: u64| args.get(at).and_then(|a| a.parse().ok()).unwrap_or(absent);
    (
        args.get(1).map_or(mode, String::as_str).to_owned(),
        number(2, 0),
        number(3, 200),
        number(4, 1),
        args.get(5).cloned(),
    )
}

/// The seats of the match of `seed`: the measured one (`seed % seats`), who plays each
/// (`measured` there, `others` elsewhere) and each one's `BotRng` (seeded `seed * 31 + seat`).
pub fn seating(
    seed: u64,
    seats: usize,
    measured: Player,
    others: Player,
) -> (usize, Vec<Player>, Vec<BotRng>) {
    let me = (seed % seats as u64) as usize;
    let players = (0..seats)
        .map(|s| if s == me { measured } else { others })
        .collect();
    let rngs = (0..seats as u64)
        .map(|s| BotRng::new(seed.wrapping_mul(31).wrapping_add(s)))
        .collect();
    (me, players, rngs)
}

/// `play` of each of the `count` seeds from `first` on `threads` threads (thread `t` plays seed
/// `first + t` and every `threads`-th after it); the results thread by thread.
pub fn on_threads<T: Send>(
    first: u64,
    count: u64,
    threads: u64,
    play: impl Fn(u64) -> T + Sync,
) -> Vec<T> {
    let play = &play;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (first + t..first + count)
                        .step_by(threads as usize)
                        .map(play)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a duel thread"))
            .collect()
    })
}

/// The value at rank `p` (0..=1) of sorted nanoseconds, in milliseconds.
pub fn percentile_ms(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1] as f64 / 1e6
}
