//! Shared helpers for the warroom benchmarks: play whole random games of any ruleset, counting
//! actions, with legal-action generation included in the measured work; the load generator
//! ([`load`]) that measures the server from outside; and [`capitals_losses`], which tells why
//! the capitals bot lost a match of the bots bench.

pub mod capitals_losses;
pub mod load;

use warroom_engine::{MatchRng, Ruleset, Seed};

/// What one random game cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    /// Actions applied.
    pub actions: u64,
}

/// Plays one game of `R` to its end, each seat picking uniformly among its legal actions with a
/// generator separate from the match's own. Panics if the engine refuses a listed action or the
/// game runs past `max_actions` (both are engine bugs a benchmark must not hide).
pub fn random_game<R: Ruleset>(
    options: &R::Options,
    seats: u8,
    seed: u64,
    max_actions: u64,
) -> GameStats {
    let (mut state, _) = R::new(options, seats, Seed::from_u64(seed)).expect("valid options");
    let mut chooser = MatchRng::new(Seed::from_u64(seed ^ 0x9e37_79b9_7f4a_7c15));
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let mut stats = GameStats::default();
    while let Some(seat) = state.to_act() {
        legal.clear();
        state.legal_actions(&mut legal);
        assert!(
            !legal.is_empty(),
            "seat {seat} to act but has no legal action"
        );
        let pick = chooser.below(u32::try_from(legal.len()).expect("few actions")) as usize;
        events.clear();
        state
            .apply(seat, &legal[pick], &mut events)
            .expect("a listed action is legal");
        stats.actions += 1;
        assert!(
            stats.actions <= max_actions,
            "game did not end within {max_actions} actions"
        );
    }
    stats
}
