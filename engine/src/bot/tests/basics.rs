//! The bot basics: the random baseline plays a match to its end, and the bot generator.

use crate::Seed;
use crate::bot::{BotRng, random_legal};
use crate::core::Ruleset;
use crate::hexdice::Hexdice;

#[test]
fn random_legal_plays_a_hexdice_match_to_its_end_without_the_match_rng() {
    let (mut state, _) = Hexdice::new(&Default::default(), 2, Seed::from_u64(11)).expect("starts");
    let mut rng = BotRng::new(1);
    let mut actions = 0;
    while let Some(seat) = state.to_act() {
        let action = random_legal(&state, &mut rng).expect("an action");
        state
            .play(seat, &action)
            .expect("random_legal only picks listed actions");
        actions += 1;
        assert!(actions < 100_000, "the match never ended");
    }
    assert!(state.outcome().is_some());
}

#[test]
fn bot_rng_below_stays_in_range() {
    let mut rng = BotRng::new(3);
    for n in [1, 2, 3, 7, 1000] {
        for _ in 0..100 {
            assert!(rng.below(n) < n);
        }
    }
    assert_eq!(rng.below(0), 0);
}
