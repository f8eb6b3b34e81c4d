//! The REST bodies about players: the bearer's own identity (rename, recovery on another device),
//! a player's public page (win/loss record per ruleset, paginated match list) and quick play.

use serde::{Deserialize, Serialize};
use warroom_engine::{RulesetId, Seat};

use crate::ids::IdentityId;
use crate::rest::{MatchSummary, Room};

/// `GET /api/me` and `PATCH /api/me`: the bearer's own identity.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Me {
    /// The identity's id.
    pub id: IdentityId,
    /// Its name, unique on this server (case-insensitively).
    pub name: String,
    /// When its current recovery code was made (RFC 3339); `null`: it has none.
    pub recovery_created_at: Option<String>,
}

/// `PATCH /api/me`: change the name.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rename {
    /// The new name (3–24 characters: letters, digits, spaces, `_`, `-`, `.`; trimmed).
    pub name: String,
}

/// The answer to `POST /api/me/recovery`: the only time the code is ever shown.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecoveryCode {
    /// The code, e.g. `K7QD-9M2X-HV3C-TR8W-ZP4N`; it replaces any earlier one.
    pub code: String,
    /// When it was made (RFC 3339).
    pub created_at: String,
}

/// `POST /api/recover`: take an identity onto this device.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recover {
    /// A recovery code (case, spaces and dashes do not matter).
    pub code: String,
}

/// One ruleset's record on a player's page.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetRecord {
    /// Which ruleset.
    #[cfg_attr(test, ts(type = "\"hexdice\" | \"capitals\" | \"classic\""))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub ruleset: RulesetId,
    /// Finished matches.
    #[cfg_attr(test, ts(type = "number"))]
    pub played: u64,
    /// Finished matches this player won.
    #[cfg_attr(test, ts(type = "number"))]
    pub won: u64,
    /// Finished matches this player did not win.
    #[cfg_attr(test, ts(type = "number"))]
    pub lost: u64,
    /// Matches still being played.
    #[cfg_attr(test, ts(type = "number"))]
    pub playing: u64,
}

/// `GET /api/players/{id}` and `GET /api/players?name=`: a player's public page.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerProfile {
    /// The identity's id.
    pub id: IdentityId,
    /// Its name.
    pub name: String,
    /// When it was created (RFC 3339).
    pub created_at: String,
    /// Its record per ruleset it has played (rulesets in their stable order).
    pub records: Vec<RulesetRecord>,
}

/// How a match went for one player.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchResult {
    /// The player won.
    Won,
    /// Over, and someone else won.
    Lost,
    /// Still being played.
    Playing,
}

names!(MatchResult {
    Won => "won",
    Lost => "lost",
    Playing => "playing",
});

/// One entry of a player's match list.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerMatch {
    /// The match.
    #[serde(rename = "match")]
    pub summary: MatchSummary,
    /// The seat the player played.
    #[cfg_attr(test, ts(type = "number"))]
    #[cfg_attr(feature = "openapi", schema(value_type = u8))]
    pub seat: Seat,
    /// How it went for the player.
    pub result: MatchResult,
}

/// `GET /api/players/{id}/matches`: one page of a player's matches, newest first.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchPage {
    /// At most `limit` matches.
    pub matches: Vec<PlayerMatch>,
    /// Pass as `before` for the next (older) page; `null` on the last page.
    pub next: Option<String>,
    /// How many matches the filter selects in all.
    #[cfg_attr(test, ts(type = "number"))]
    pub total: u64,
}

/// `POST /api/quick-play`: play a ruleset now.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuickPlay {
    /// The ruleset to play.
    #[cfg_attr(test, ts(type = "\"hexdice\" | \"capitals\" | \"classic\""))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub ruleset: RulesetId,
    /// Only rooms with this many seats (a new room gets it); any when absent.
    #[serde(default)]
    pub seats: Option<u8>,
    /// Rated rooms only, matched by strength (docs/RATINGS.md); casual when absent.
    #[serde(default)]
    #[cfg_attr(test, ts(as = "Option<bool>", optional))]
    pub rated: bool,
}

/// The answer to `POST /api/quick-play`: the room to join and take a seat in.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuickPlayRoom {
    /// The room (the bearer takes a seat in it over the socket).
    pub room: Room,
    /// True when no waiting room fitted and this one was opened.
    pub created: bool,
}
