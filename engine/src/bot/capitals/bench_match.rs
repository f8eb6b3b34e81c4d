//! The bots bench's capitals match as the studies (`floor.rs`, `hazard.rs`) replay it: medium
//! map, four seats, the measured seat `seed % 4` played by `normal`, the others by
//! `random_legal`, each seat's `BotRng` seeded `seed * 31 + seat` (as `bench/src/bin/bots.rs`
//! and `examples/capitals_duel.rs` seed them), so a study sees the bench's very matches.

use crate::bot::{Bot, BotLevel, BotRng, random_legal};
use crate::capitals::{Action, Capitals, Options};
use crate::core::{Ruleset, Seat};
use crate::rng::Seed;

/// Seats of the bench's capitals match-up: one `normal` among three random players.
pub(super) const SEATS: usize = 4;

/// Seed `seed`'s match at its start: the state, the measured seat and every seat's `BotRng`.
pub(super) fn start(seed: u64) -> (Capitals, Seat, Vec<BotRng>) {
    let me = Seat((seed % SEATS as u64) as u8);
    let (state, _) =
        Capitals::new(&Options::default(), SEATS as u8, Seed::from_u64(seed)).expect("options");
    let rngs = (0..SEATS)
        .map(|i| BotRng::new(seed.wrapping_mul(31).wrapping_add(i as u64)))
        .collect();
    (state, me, rngs)
}

/// The action seat `seat` takes in `state`: `normal`'s for the measured seat `me`, a random
/// listed one for the others, each drawing from its own `BotRng`.
pub(super) fn bench_action(state: &Capitals, seat: Seat, me: Seat, rngs: &mut [BotRng]) -> Action {
    let rng = &mut rngs[seat.index()];
    if seat == me {
        state.bot_action(BotLevel::Normal, rng)
    } else {
        random_legal(state, rng)
    }
    .expect("an action")
}
