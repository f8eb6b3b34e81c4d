//! The rating systems, their parameters and the display scale (docs/RATINGS.md).
//!
//! hexdice (a duel) is rated with Glicko-2: rating, deviation and volatility, on Glicko-2's own
//! scale (a new player 1500 ± 350), the deviation growing with inactivity. capitals and classic
//! (free-for-alls of 2–6) are rated with Weng-Lin (a Bayesian rating of finishing orders,
//! "OpenSkill"): mu and sigma, a new player 25 ± 25/3, shown ×60 (1500 ± 500) so that every
//! ruleset's numbers read on one scale.

use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation};
use skillratings::weng_lin::{WengLinConfig, WengLinRating};
use warroom_engine::RulesetId;
use warroom_protocol::RatingSystem;

/// Weng-Lin's mu and sigma are shown multiplied by this (25 ± 8.33 → 1500 ± 500).
pub const WENG_LIN_SCALE: f64 = 60.0;

/// A player is provisional while their displayed deviation is above this bound (Glicko-2:
/// lichess's 110; Weng-Lin: the same number on the display scale is sigma ≈ 1.83, which takes
/// far longer to reach, so Weng-Lin's bound is 250, half of a new player's 500).
pub fn provisional_bound(system: RatingSystem) -> f64 {
    match system {
        RatingSystem::Glicko2 => 110.0,
        RatingSystem::WengLin => 250.0,
    }
}

/// Glicko-2's rating period for inactivity: for each whole day without a rated match, the
/// deviation grows once (`skillratings::glicko2::decay_deviation`, at most to 350).
pub const GLICKO2_PERIOD_MS: i64 = 24 * 3600 * 1000;

/// Glicko-2's parameters: tau 0.5 (the crate's default, inside Glickman's 0.3–1.2).
pub fn glicko2_config() -> Glicko2Config {
    Glicko2Config::new()
}

/// Weng-Lin's parameters: beta 25/6 (the crate's and OpenSkill's default: 4.17 points of mu,
/// 250 shown, is about a 2-in-3 chance of finishing ahead).
pub fn weng_lin_config() -> WengLinConfig {
    WengLinConfig::new()
}

/// The system that rates a ruleset.
pub fn system_of(ruleset: RulesetId) -> RatingSystem {
    match ruleset {
        RulesetId::Hexdice => RatingSystem::Glicko2,
        RulesetId::Capitals | RulesetId::Classic => RatingSystem::WengLin,
    }
}

/// A stored rating in its system's own numbers (Weng-Lin: mu, sigma and a volatility of 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Glicko-2 rating or Weng-Lin mu.
    pub rating: f64,
    /// Glicko-2 deviation or Weng-Lin sigma.
    pub deviation: f64,
    /// Glicko-2 volatility (0 for Weng-Lin).
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating.
    pub fn new(system: RatingSystem) -> Rating {
        match system {
            RatingSystem::Glicko2 => Rating::from(Glicko2Rating::new()),
            RatingSystem::WengLin => Rating::from(WengLinRating::new()),
        }
    }

    /// The rating on the display scale.
    pub fn shown(self, system: RatingSystem) -> i64 {
        display(self.rating * scale(system))
    }

    /// The deviation on the display scale.
    pub fn shown_deviation(self, system: RatingSystem) -> i64 {
        display(self.deviation * scale(system))
    }

    /// True while the deviation is above the system's provisional bound.
    pub fn provisional(self, system: RatingSystem) -> bool {
        self.deviation * scale(system) > provisional_bound(system)
    }

    /// The rating `idle_ms` after its last change: Glicko-2's deviation grows once per whole
    /// rating period; Weng-Lin's does not move.
    pub fn after_idle(self, system: RatingSystem, idle_ms: i64) -> Rating {
        if system != RatingSystem::Glicko2 {
            return self;
        }
        // Past about 2,000 periods any deviation has reached the 350 cap.
        let periods = (idle_ms / GLICKO2_PERIOD_MS).clamp(0, 2_000);
        let mut rating = Glicko2Rating::from(self);
        for _ in 0..periods {
            rating = decay_deviation(&rating);
        }
        Rating::from(rating)
    }
}

/// Display numbers are whole; a NaN (never expected) shows as 0.
fn display(value: f64) -> i64 {
    if value.is_finite() {
        value.round() as i64
    } else {
        0
    }
}

fn scale(system: RatingSystem) -> f64 {
    match system {
        RatingSystem::Glicko2 => 1.0,
        RatingSystem::WengLin => WENG_LIN_SCALE,
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(r: Glicko2Rating) -> Rating {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Glicko2Rating {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<WengLinRating> for Rating {
    fn from(r: WengLinRating) -> Rating {
        Rating {
            rating: r.rating,
            deviation: r.uncertainty,
            volatility: 0.0,
        }
    }
}

impl From<Rating> for WengLinRating {
    fn from(r: Rating) -> WengLinRating {
        WengLinRating {
            rating: r.rating,
            uncertainty: r.deviation,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_players_show_1500_on_every_ruleset() {
        for ruleset in RulesetId::ALL {
            let system = system_of(ruleset);
            let new = Rating::new(system);
            assert_eq!(new.shown(system), 1500, "{ruleset}");
            assert!(new.provisional(system), "{ruleset}");
        }
        assert_eq!(
            Rating::new(RatingSystem::Glicko2).shown_deviation(RatingSystem::Glicko2),
            350
        );
        assert_eq!(
            Rating::new(RatingSystem::WengLin).shown_deviation(RatingSystem::WengLin),
            500
        );
    }

    /// skillratings' published example of `decay_deviation`: 2720 ± 41.3 decays to 43.
    #[test]
    fn glicko2_deviation_grows_once_per_idle_day_as_published() {
        let player = Rating {
            rating: 2720.0,
            deviation: 41.3,
            volatility: 0.06,
        };
        let system = RatingSystem::Glicko2;
        assert_eq!(player.after_idle(system, GLICKO2_PERIOD_MS - 1), player);
        assert_eq!(
            player
                .after_idle(system, GLICKO2_PERIOD_MS)
                .deviation
                .round(),
            43.0
        );
        let year = player.after_idle(system, 365 * GLICKO2_PERIOD_MS);
        assert!(
            year.deviation > 100.0 && year.deviation <= 350.0,
            "{year:?}"
        );
        assert_eq!(year.rating, player.rating);
        let weng_lin = Rating::new(RatingSystem::WengLin);
        assert_eq!(
            weng_lin.after_idle(RatingSystem::WengLin, i64::MAX),
            weng_lin
        );
    }
}
