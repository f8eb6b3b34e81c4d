//! Bots: players made of code, living beside the rules (pure, no IO, no clock).
//!
//! A bot looks at a match as the seat to act and picks one of its legal actions. Its own choices
//! draw from a [`BotRng`] that the caller owns, never from the match's RNG: the dice of a match
//! must not depend on whether a person or a bot played a seat. A bot's action goes through the
//! same `Ruleset::apply` as a person's, so it can never do what a person could not.
//!
//! Every ruleset implements [`Bot`]; [`random_legal`] is the baseline a bot's strength is
//! measured against (bench/).

mod capitals;
mod classic;
mod hexdice;
#[cfg(test)]
mod tests;

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

    /// A seed drawn from this generator, for a generator of the bot's own (a sampled future
    /// with its own dice, never the match's).
    pub(crate) fn seed(&mut self) -> crate::rng::Seed {
        let mut bytes = [0u8; 32];
        self.0.fill_bytes(&mut bytes);
        crate::rng::Seed(bytes)
    }
}

/// A ruleset that bots can play.
///
/// Four computers play a capitals match to its end; each seat has its own [`BotRng`], so a
/// bot's choices never touch the match's dice:
///
/// ```
/// use warroom_engine::capitals::{Capitals, Options};
/// use warroom_engine::{Bot, BotLevel, BotRng, Ruleset, Seed, Viewer};
///
/// let (mut game, _) = Capitals::new(&Options::default(), 4, Seed::from_u64(11))?;
/// let mut rngs: Vec<BotRng> = (0..4).map(BotRng::new).collect();
/// let mut actions = 0;
/// while let Some(seat) = game.to_act() {
///     let action = game
///         .bot_action(BotLevel::Normal, &mut rngs[usize::from(seat.0)])
///         .expect("a bot always has an action while the match runs");
///     game.play(seat, &action).expect("a bot's action is accepted");
///     actions += 1;
///     assert!(actions < 100_000, "the match ends");
/// }
/// assert!(game.outcome().is_some());
/// assert_eq!(game.view(Viewer::Spectator).to_act, None);
/// # Ok::<(), warroom_engine::SetupError>(())
/// ```
pub trait Bot: Ruleset {
    /// The action a bot of `level` takes for the seat to act, or `None` once the match is over.
    /// It is always accepted by [`Ruleset::apply`]: one of [`Ruleset::legal_actions`], except
    /// that the capitals bot also weighs unit counts out of its capital that the list leaves out
    /// (it lists everything, all but one, or one unit: `bot/capitals/mod.rs`).
    fn bot_action(&self, level: BotLevel, rng: &mut BotRng) -> Option<Self::Action>;
}

/// The index of the highest score, ties broken uniformly with `rng` (`None` when empty).
pub(crate) fn pick_best(scores: &[i64], rng: &mut BotRng) -> Option<usize> {
    let best = *scores.iter().max()?;
    let ties = scores.iter().filter(|&&s| s == best).count();
    let pick = rng.below(ties);
    scores
        .iter()
        .enumerate()
        .filter(|&(_, &s)| s == best)
        .nth(pick)
        .map(|(i, _)| i)
}

/// The start every ruleset's bot shares: the legal actions to think over, or the action taken
/// without thinking (`Err`): the only legal one (`None` once the match is over), or, for `easy`
/// one time in three, a uniformly random one among those `random_among` keeps (when it keeps
/// none, the bot thinks after all).
pub(crate) fn think_or_take<R: Ruleset>(
    state: &R,
    level: BotLevel,
    rng: &mut BotRng,
    random_among: impl Fn(&R::Action) -> bool,
) -> Result<Vec<R::Action>, Option<R::Action>> {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    if legal.len() <= 1 {
        return Err(legal.pop());
    }
    if level == BotLevel::Easy && rng.below(3) == 0 {
        let mut kept: Vec<R::Action> = legal.iter().filter(|a| random_among(a)).cloned().collect();
        if !kept.is_empty() {
            let pick = rng.below(kept.len());
            return Err(Some(kept.swap_remove(pick)));
        }
    }
    Ok(legal)
}

/// The legal action of the best score (`scores[i]` is `legal[i]`'s), ties broken with `rng`.
pub(crate) fn best_scored<A: Clone>(legal: &[A], scores: &[i64], rng: &mut BotRng) -> Option<A> {
    legal.get(pick_best(scores, rng)?).cloned()
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
    fn bot_action(&self, level: BotLevel, rng: &mut BotRng) -> Option<Self::Action> {
        hexdice::choose(self, level, rng)
    }
}

impl Bot for crate::capitals::Capitals {
    fn bot_action(&self, level: BotLevel, rng: &mut BotRng) -> Option<Self::Action> {
        capitals::choose(self, level, rng)
    }
}

impl Bot for crate::classic::Classic {
    fn bot_action(&self, level: BotLevel, rng: &mut BotRng) -> Option<Self::Action> {
        classic::choose(self, level, rng)
    }
}
