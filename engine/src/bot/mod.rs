//! Bots: players made of code, living beside the rules (pure, no IO, no clock).
//!
//! A bot looks at a match as the seat to act and picks one of its legal actions. Its own choices
//! draw from a [`BotRng`] that the caller owns, never from the match's RNG: the dice of a match
//! must not depend on whether a person or a bot played a seat. A bot's action goes through the
//! same `Ruleset::apply` as a person's, so it can never do what a person could not.
//!
//! Every ruleset implements [`Bot`]; [`random_legal`] is the baseline a bot's strength is
//! measured against (bench/).

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::core::Ruleset;

/// How well a bot plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    /// Plays legal moves with little thought: for beginners.
    Easy,
    /// Plays sensibly: attacks with the odds, defends, completes what it starts.
    #[default]
    Normal,
    /// Looks further ahead (e.g. over the dice outcomes).
    Hard,
}

/// The generator a bot draws its own choices from (ties, mixed strategies). Never the match RNG.
#[derive(Clone, Debug)]
pub struct BotRng(ChaCha8Rng);

impl BotRng {
    /// A generator from a 64-bit seed (the server picks it; tests pin it).
    pub fn new(seed: u64) -> BotRng {
        BotRng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A uniform number in `0..n` (`n` of 0 is treated as 1).
    pub fn below(&mut self, n: usize) -> usize {
        let n = u64::try_from(n.max(1)).unwrap_or(u64::MAX);
        // Rejection sampling keeps the draw unbiased.
        let zone = u64::MAX - (u64::MAX - n + 1) % n;
        loop {
            let x = self.0.next_u64();
            if x <= zone {
                return usize::try_from(x % n).unwrap_or(0);
            }
        }
    }
}

/// A ruleset that bots can play.
pub trait Bot: Ruleset {
    /// The action a bot of `level` takes for the seat to act, or `None` once the match is over.
    /// It is always one of [`Ruleset::legal_actions`].
    fn bot_action(&self, level: BotLevel, rng: &mut BotRng) -> Option<Self::Action>;
}

/// A uniformly random legal action for the seat to act (`None` once the match is over).
pub fn random_legal<R: Ruleset>(state: &R, rng: &mut BotRng) -> Option<R::Action> {
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    if actions.is_empty() {
        return None;
    }
    let pick = rng.below(actions.len());
    Some(actions.swap_remove(pick))
}

impl Bot for crate::hexdice::Hexdice {
    fn bot_action(&self, _level: BotLevel, rng: &mut BotRng) -> Option<Self::Action> {
        // Replaced by the real policies (bot/hexdice.rs); random legal play until then.
        random_legal(self, rng)
    }
}

impl Bot for crate::capitals::Capitals {
    fn bot_action(&self, _level: BotLevel, rng: &mut BotRng) -> Option<Self::Action> {
        random_legal(self, rng)
    }
}

impl Bot for crate::classic::Classic {
    fn bot_action(&self, _level: BotLevel, rng: &mut BotRng) -> Option<Self::Action> {
        random_legal(self, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Seed;
    use crate::hexdice::Hexdice;

    #[test]
    fn random_legal_plays_a_hexdice_match_to_its_end_without_the_match_rng() {
        let (mut state, _) =
            Hexdice::new(&Default::default(), 2, Seed::from_u64(11)).expect("starts");
        let mut rng = BotRng::new(1);
        let mut actions = 0;
        while let Some(seat) = state.to_act() {
            let action = state
                .bot_action(BotLevel::Easy, &mut rng)
                .expect("an action");
            state
                .play(seat, &action)
                .expect("bots only play legal actions");
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
}
