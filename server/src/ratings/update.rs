//! How a finished rated match moves its players' ratings: each seat's rating and its place in
//! the finishing order (`warroom_room::placings`) in, each seat's new rating out. Glicko-2 rates
//! a duel as one game (equal places: a draw); Weng-Lin rates a free-for-all as a ranking of
//! one-player teams (equal places: tied). The numbers are `skillratings`'.

use skillratings::MultiTeamOutcome;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Rating, glicko2, glicko2_rating_period};
use skillratings::weng_lin::{WengLinRating, weng_lin_multi_team};
use warroom_protocol::RatingSystem;

use super::systems::{Rating, glicko2_config, weng_lin_config};

/// The new ratings of the seats of a finished match: `ratings[seat]` before it, `places[seat]`
/// its place (1 = winner, equal places tied). Slices of different lengths rate nobody.
pub fn rate(system: RatingSystem, ratings: &[Rating], places: &[u8]) -> Vec<Rating> {
    if ratings.len() != places.len() || ratings.len() < 2 {
        return ratings.to_vec();
    }
    match system {
        RatingSystem::Glicko2 => rate_glicko2(ratings, places),
        RatingSystem::WengLin => rate_weng_lin(ratings, places),
    }
}

/// `a`'s result against `b` by their places.
fn outcome(a: u8, b: u8) -> Outcomes {
    match a.cmp(&b) {
        std::cmp::Ordering::Less => Outcomes::WIN,
        std::cmp::Ordering::Equal => Outcomes::DRAW,
        std::cmp::Ordering::Greater => Outcomes::LOSS,
    }
}

fn rate_glicko2(ratings: &[Rating], places: &[u8]) -> Vec<Rating> {
    let config = glicko2_config();
    let players: Vec<Glicko2Rating> = ratings.iter().map(|&r| r.into()).collect();
    if let ([one, two], [p1, p2]) = (players.as_slice(), places) {
        let (one, two) = glicko2(one, two, &outcome(*p1, *p2), &config);
        return vec![one.into(), two.into()];
    }
    // More than two seats (no Glicko-2 ruleset has them today): each seat's games against
    // every other, as one rating period.
    (0..players.len())
        .map(|i| {
            let results: Vec<(Glicko2Rating, Outcomes)> = (0..players.len())
                .filter(|&j| j != i)
                .map(|j| (players[j], outcome(places[i], places[j])))
                .collect();
            glicko2_rating_period(&players[i], &results, &config).into()
        })
        .collect()
}

fn rate_weng_lin(ratings: &[Rating], places: &[u8]) -> Vec<Rating> {
    let teams: Vec<[WengLinRating; 1]> = ratings.iter().map(|&r| [r.into()]).collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(places)
        .map(|(team, &place)| (&team[..], MultiTeamOutcome::new(usize::from(place))))
        .collect();
    weng_lin_multi_team(&ranked, &weng_lin_config())
        .into_iter()
        .zip(ratings)
        .map(|(team, &before)| team.first().map_or(before, |&after| after.into()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::systems::system_of;
    use warroom_engine::RulesetId;

    fn new(system: RatingSystem, seats: usize) -> Vec<Rating> {
        vec![Rating::new(system); seats]
    }

    /// New players of `system`, one a place, rated by `places`.
    fn rate_new(system: RatingSystem, places: &[u8]) -> Vec<Rating> {
        rate(system, &new(system, places.len()), places)
    }

    /// skillratings' published Glicko-2 example: two new players, the first wins: 1662 ± 290
    /// (volatility 0.05999967537233814) and 1338 ± 290.
    #[test]
    fn glicko2_duel_matches_the_published_example() {
        let after = rate_new(RatingSystem::Glicko2, &[1, 2]);
        assert_eq!(after[0].rating.round(), 1662.0);
        assert_eq!(after[0].deviation.round(), 290.0);
        assert!((after[0].volatility - 0.059_999_675_372_338_14).abs() < f64::EPSILON);
        assert_eq!(after[1].rating.round(), 1338.0);
        assert_eq!(after[1].deviation.round(), 290.0);
    }

    /// skillratings' published Weng-Lin example (`weng_lin`): 42 ± 1.3 beats a new player:
    /// 42.03 ± 1.30 and 23.91 ± 8.03. Rated as a ranking of one-player teams, it is the same.
    #[test]
    fn weng_lin_two_seats_matches_the_published_example() {
        let ratings = [
            Rating {
                rating: 42.0,
                deviation: 1.3,
                volatility: 0.0,
            },
            Rating::new(RatingSystem::WengLin),
        ];
        let after = rate(RatingSystem::WengLin, &ratings, &[1, 2]);
        assert_eq!((after[0].rating * 100.0).round(), 4203.0);
        assert_eq!((after[0].deviation * 100.0).round(), 130.0);
        assert_eq!((after[1].rating * 100.0).round(), 2391.0);
        assert_eq!((after[1].deviation * 100.0).round(), 803.0);
    }

    /// The worked examples of docs/RATINGS.md: new players (1500 ± 350 in hexdice, 1500 ± 500
    /// in capitals and classic), shown as the display numbers after the match.
    #[test]
    fn docs_ratings_worked_examples() {
        let shown = |ruleset: RulesetId, places: &[u8]| -> Vec<(i64, i64)> {
            let system = system_of(ruleset);
            rate_new(system, places)
                .iter()
                .map(|r| (r.shown(system), r.shown_deviation(system)))
                .collect()
        };
        assert_eq!(
            shown(RulesetId::Hexdice, &[1, 2]),
            [(1662, 290), (1338, 290)]
        );
        assert_eq!(shown(RulesetId::Capitals, &[2, 1]), WORKED_2);
        assert_eq!(shown(RulesetId::Capitals, &[1, 2, 3, 4]), WORKED_4);
        assert_eq!(shown(RulesetId::Classic, &[1, 2, 3, 4, 5, 6]), WORKED_6);
        assert_eq!(shown(RulesetId::Classic, &[1, 3, 3, 2]), WORKED_4_TIE);
    }

    /// Seat 1 wins a 2-seat capitals match.
    const WORKED_2: [(i64, i64); 2] = [(1342, 484), (1658, 484)];
    /// A 4-seat capitals match, seats finishing in seat order.
    const WORKED_4: [(i64, i64); 4] = [(1974, 450), (1658, 450), (1342, 450), (1026, 450)];
    /// A 6-seat classic match, seats finishing in seat order.
    const WORKED_6: [(i64, i64); 6] = [
        (2291, 413),
        (1974, 413),
        (1658, 413),
        (1342, 413),
        (1026, 413),
        (709, 413),
    ];
    /// A 4-seat classic match: seat 0 wins, seat 3 second, seats 1 and 2 out with one action.
    const WORKED_4_TIE: [(i64, i64); 4] = [(1974, 450), (1184, 450), (1184, 450), (1658, 450)];

    #[test]
    fn a_draw_or_a_tie_moves_equal_players_nowhere() {
        let after = rate_new(RatingSystem::Glicko2, &[1, 1]);
        assert_eq!(after[0].rating.round(), 1500.0);
        let after = rate_new(RatingSystem::WengLin, &[2, 2, 2]);
        assert!(
            after.iter().all(|r| (r.rating - 25.0).abs() < 1e-9),
            "{after:?}"
        );
    }

    #[test]
    fn mismatched_input_rates_nobody() {
        let ratings = new(RatingSystem::WengLin, 3);
        assert_eq!(rate(RatingSystem::WengLin, &ratings, &[1, 2]), ratings);
    }
}
