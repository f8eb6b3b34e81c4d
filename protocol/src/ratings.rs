//! The REST bodies of ratings (issue 39, docs/RATINGS.md): a ruleset's leaderboard, a player's
//! ratings with their history and record against each opponent, and each seat's change in a
//! rated match. Ratings and deviations are whole numbers on one display scale for every
//! ruleset (Glicko-2's own; Weng-Lin's ×60).

use serde::{Deserialize, Serialize};
use warroom_engine::{BotLevel, RulesetId, Seat};

use crate::ids::MatchId;
use crate::rest::Identity;

/// The rating system behind a ruleset's ratings.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingSystem {
    /// Glicko-2 (duels: hexdice).
    Glicko2,
    /// Weng-Lin, a Bayesian rating of finishing orders (free-for-alls: capitals, classic).
    WengLin,
}

/// `GET /api/leaderboards/{ruleset}`: one page of a ruleset's rated players, best first.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Leaderboard {
    /// The ruleset.
    #[cfg_attr(test, ts(type = "\"hexdice\" | \"capitals\" | \"classic\""))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub ruleset: RulesetId,
    /// Its rating system.
    pub system: RatingSystem,
    /// Whether this is the list of provisional players (ranked among themselves).
    pub provisional: bool,
    /// How many players the whole list has.
    #[cfg_attr(test, ts(type = "number"))]
    pub total: u64,
    /// This page, best first (ties: the lower deviation first).
    pub entries: Vec<LeaderboardEntry>,
    /// Pass as `cursor` for the page after this one; `null` on the last page.
    pub next: Option<String>,
    /// Pass as `cursor` for the page before this one; `null` on the first page.
    pub previous: Option<String>,
}

/// One player of a leaderboard.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    /// 1 for the best of the list.
    #[cfg_attr(test, ts(type = "number"))]
    pub rank: u64,
    /// Who.
    pub player: Identity,
    /// The rating, on the display scale.
    #[cfg_attr(test, ts(type = "number"))]
    pub rating: i64,
    /// Its deviation now, on the display scale (grown with inactivity for Glicko-2, as on the
    /// player's page).
    #[cfg_attr(test, ts(type = "number"))]
    pub deviation: i64,
    /// Rated matches counted.
    #[cfg_attr(test, ts(type = "number"))]
    pub matches: u64,
}

/// `GET /api/players/{id}/ratings`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRatings {
    /// Who.
    pub player: Identity,
    /// One per ruleset the player has a rating in, in the order of `GET /api/rulesets`.
    pub ratings: Vec<RulesetRating>,
}

/// A player's rating in one ruleset.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesetRating {
    /// The ruleset.
    #[cfg_attr(test, ts(type = "\"hexdice\" | \"capitals\" | \"classic\""))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub ruleset: RulesetId,
    /// Its rating system.
    pub system: RatingSystem,
    /// The rating now, on the display scale.
    #[cfg_attr(test, ts(type = "number"))]
    pub rating: i64,
    /// Its deviation now (grown with inactivity for Glicko-2).
    #[cfg_attr(test, ts(type = "number"))]
    pub deviation: i64,
    /// True while the player is on the provisional leaderboard: their deviation was above the
    /// provisional bound after their last rated match (docs/RATINGS.md).
    pub provisional: bool,
    /// The computer level whose reference rating (`GET /api/rulesets`) is nearest this rating.
    #[cfg_attr(test, ts(type = "\"easy\" | \"normal\" | \"hard\""))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub about_as_strong_as: BotLevel,
    /// Rated matches counted.
    #[cfg_attr(test, ts(type = "number"))]
    pub matches: u64,
    /// The place on the leaderboard; `null` while provisional.
    #[cfg_attr(test, ts(type = "number | null"))]
    pub rank: Option<u64>,
    /// The last 200 changes at most, oldest first.
    pub history: Vec<RatingPoint>,
    /// The record against each opponent met in rated matches, most played first.
    pub opponents: Vec<OpponentRecord>,
}

/// One rated match in a player's history.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    /// The match.
    pub match_id: MatchId,
    /// When it ended (RFC 3339).
    pub finished_at: String,
    /// The rating before it.
    #[cfg_attr(test, ts(type = "number"))]
    pub before: i64,
    /// The rating after it.
    #[cfg_attr(test, ts(type = "number"))]
    pub after: i64,
    /// `after - before`.
    #[cfg_attr(test, ts(type = "number"))]
    pub change: i64,
}

/// A player's record against one opponent in rated matches of a ruleset: won when the player
/// finished ahead of the opponent, lost when behind.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpponentRecord {
    /// The opponent.
    pub player: Identity,
    /// Rated matches played together.
    #[cfg_attr(test, ts(type = "number"))]
    pub played: u64,
    /// Finished ahead of them.
    #[cfg_attr(test, ts(type = "number"))]
    pub won: u64,
    /// Finished behind them.
    #[cfg_attr(test, ts(type = "number"))]
    pub lost: u64,
}

/// One seat's rating change in a rated match (`MatchSummary` and `Replay` `ratings`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRating {
    /// The seat.
    #[cfg_attr(test, ts(type = "number"))]
    #[cfg_attr(feature = "openapi", schema(value_type = u8))]
    pub seat: Seat,
    /// Its player's rating before the match.
    #[cfg_attr(test, ts(type = "number"))]
    pub before: i64,
    /// After it.
    #[cfg_attr(test, ts(type = "number"))]
    pub after: i64,
    /// `after - before`.
    #[cfg_attr(test, ts(type = "number"))]
    pub change: i64,
}

/// A computer level's reference rating in a ruleset (`RulesetInfo` `reference_ratings`): where
/// the level's rating settles when it is rated as people are (measured by the bots bench,
/// docs/RATINGS.md "The computer levels").
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReferenceRating {
    /// The computer level.
    #[cfg_attr(test, ts(type = "\"easy\" | \"normal\" | \"hard\""))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub level: BotLevel,
    /// Its rating, on the display scale.
    #[cfg_attr(test, ts(type = "number"))]
    pub rating: i64,
}
