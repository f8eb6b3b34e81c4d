//! The computer levels' reference ratings (docs/RATINGS.md "The computer levels"): where each
//! level's rating settles when it is rated as people are, so that a player can read "about as
//! strong as normal" beside their own rating. Rated rooms have no computer seats, so these
//! numbers are measured apart, by the bots bench, and kept here as constants.

use warroom_engine::{BotLevel, RulesetId};
use warroom_protocol::ReferenceRating;

/// The reference ratings, easy, normal and hard, per ruleset (display scale).
///
/// Measured on 2026-12-06 by
/// `BOTS_BENCH_RATINGS=1 BOTS_BENCH_GAMES=2000 cargo run -p warroom-bench --bin bots`
/// (bench/RESULTS.md, "ratings: the computer levels' reference ratings"; seeds 0..2000, so the
/// run is repeatable): per ruleset a pool of three random players and three bots of each level,
/// all new, played 2,000 seeded matches, rated one after the other by this server's own code
/// (`ratings::rate`, the finishing order of `warroom_room::placings`); each number is the mean
/// rating of the level's three identities over the second half of the matches (the random
/// players, the floor: hexdice 1070, capitals 433, classic 1148). The scale is anchored by the
/// pool: its players all start at 1500, as new people do, so the pool's average stays near
/// 1500. In classic, normal and hard measure the same (1630 and 1631: within the noise).
const REFERENCE: [(RulesetId, [i64; 3]); 3] = [
    (RulesetId::Hexdice, [1448, 1700, 1802]),
    (RulesetId::Capitals, [1596, 2053, 2062]),
    (RulesetId::Classic, [1389, 1630, 1631]),
];

/// The levels in the order of [`REFERENCE`]'s numbers.
const LEVELS: [BotLevel; 3] = [BotLevel::Easy, BotLevel::Normal, BotLevel::Hard];

/// The computer levels' reference ratings in `ruleset`, easy to hard.
pub fn reference_ratings(ruleset: RulesetId) -> Vec<ReferenceRating> {
    REFERENCE
        .iter()
        .filter(|(id, _)| *id == ruleset)
        .flat_map(|(_, ratings)| {
            LEVELS
                .iter()
                .zip(ratings)
                .map(|(&level, &rating)| ReferenceRating { level, rating })
        })
        .collect()
}

/// The computer level whose reference rating in `ruleset` is nearest `rating` (of two equally
/// near, the weaker).
pub fn about_as_strong_as(ruleset: RulesetId, rating: i64) -> BotLevel {
    reference_ratings(ruleset)
        .into_iter()
        .min_by_key(|reference| (reference.rating - rating).abs())
        .map_or(BotLevel::Normal, |reference| reference.level)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every ruleset lists the three levels, easy below normal, hard not below normal (in
    /// classic they measure the same).
    #[test]
    fn every_ruleset_lists_its_levels_from_easy_to_hard() {
        for ruleset in RulesetId::ALL {
            let ratings = reference_ratings(ruleset);
            let levels: Vec<BotLevel> = ratings.iter().map(|r| r.level).collect();
            assert_eq!(levels, LEVELS, "{ruleset}");
            assert!(
                ratings[0].rating < ratings[1].rating,
                "{ruleset}: {ratings:?}"
            );
            assert!(
                ratings[1].rating <= ratings[2].rating,
                "{ruleset}: {ratings:?}"
            );
        }
    }

    /// The nearest level: below easy is easy, above hard is hard, between two levels the
    /// nearer one, and exactly halfway the weaker.
    #[test]
    fn the_nearest_level_is_chosen() {
        for ruleset in RulesetId::ALL {
            let [easy, normal, hard] = [0, 1, 2].map(|i| reference_ratings(ruleset)[i].rating);
            let near = |rating| about_as_strong_as(ruleset, rating);
            assert_eq!(near(easy - 1_000), BotLevel::Easy, "{ruleset}");
            assert_eq!(near(easy), BotLevel::Easy);
            assert_eq!(near(normal), BotLevel::Normal);
            assert_eq!(near(hard), BotLevel::Hard);
            assert_eq!(near(hard + 1_000), BotLevel::Hard);
            let low_half = (easy + normal) / 2;
            assert_eq!(near(low_half - 1), BotLevel::Easy);
            assert_eq!(near(low_half + 1), BotLevel::Normal);
            let high_half = (normal + hard) / 2;
            assert_eq!(near(high_half - 1), BotLevel::Normal);
            assert_eq!(near(high_half + 1), BotLevel::Hard);
            assert_eq!(
                near(high_half),
                BotLevel::Normal,
                "halfway or nearer normal"
            );
            if (easy + normal) % 2 == 0 {
                assert_eq!(near(low_half), BotLevel::Easy, "halfway: the weaker");
            }
        }
    }
}
