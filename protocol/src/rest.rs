//! The JSON bodies of the REST API: identity, rulesets, rooms, matches and replays.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use warroom_engine::{Outcome, RulesetId, Seat, Viewer};

use crate::chat::ChatLine;
use crate::control::{ActedBy, BotSeat, ClockChoice, ClockState, RoomSettings, Takeover};
use crate::ids::{IdentityId, MatchId, RoomId};
use crate::ratings::SeatRating;
use crate::raw::RawJson;

/// The body of `GET /healthz`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    /// `ok` when the server is serving.
    pub status: String,
    /// The server's version.
    pub version: String,
}

/// `POST /api/guests`: ask for a guest identity.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGuest {
    /// The name: 3–24 characters (letters, digits, spaces, `_`, `-`, `.`; trimmed, inner spaces
    /// collapsed), unique on the server case-insensitively.
    pub name: String,
}

/// The answer to `POST /api/guests`: the only time the token is ever shown.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuestCreated {
    /// The identity's id.
    pub id: IdentityId,
    /// The display name as stored (trimmed).
    pub name: String,
    /// The bearer token; the server keeps only its SHA-256.
    pub token: String,
}

/// A player as others see them.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// The identity's id.
    pub id: IdentityId,
    /// The display name.
    pub name: String,
}

/// The seat counts a ruleset can be played with.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRange {
    /// Fewest seats.
    pub min: u8,
    /// Most seats.
    pub max: u8,
}

/// One entry of `GET /api/rulesets`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesetInfo {
    /// Which ruleset.
    #[cfg_attr(test, ts(type = "\"hexdice\" | \"capitals\" | \"classic\""))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub id: RulesetId,
    /// The seat counts it allows.
    pub seats: SeatRange,
    /// Its room options with every default filled in.
    #[cfg_attr(test, ts(type = "any"))]
    pub default_options: Value,
    /// The computer levels' reference ratings in this ruleset, easy to hard (docs/RATINGS.md).
    pub reference_ratings: Vec<crate::ratings::ReferenceRating>,
}

/// `POST /api/rooms`: open a room.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewRoom {
    /// The ruleset to play.
    #[cfg_attr(test, ts(type = "\"hexdice\" | \"capitals\" | \"classic\""))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub ruleset: RulesetId,
    /// Room options; missing fields take the ruleset's defaults.
    #[serde(default)]
    #[cfg_attr(test, ts(type = "any"))]
    pub options: Option<Value>,
    /// How many seats; the ruleset's minimum when absent.
    #[serde(default)]
    pub seats: Option<u8>,
    /// A private room is not listed and is joined with its invite code.
    #[serde(default)]
    pub private: bool,
    /// The seat its creator takes at once (absent or `null`: the creator takes none).
    #[serde(default)]
    #[cfg_attr(test, ts(optional, type = "number | null"))]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<u8>))]
    pub creator_seat: Option<Seat>,
    /// Seats a bot plays from the start ("play against the computer"); a room of bots only is
    /// allowed (it starts at once, to be watched).
    #[serde(default)]
    #[cfg_attr(test, ts(as = "Option<Vec<BotSeat>>", optional))]
    pub bots: Vec<BotSeat>,
    /// How long a bot waits before each action, in milliseconds (0 to 10000; 700 when absent).
    #[serde(default)]
    #[cfg_attr(test, ts(optional, type = "number | null"))]
    pub bot_delay_ms: Option<u32>,
    /// How long a seated player may be disconnected before a bot plays their seat, in seconds
    /// (1 to 86400; 60 when absent).
    #[serde(default)]
    #[cfg_attr(test, ts(optional, type = "number | null"))]
    pub grace_seconds: Option<u32>,
    /// The clock: `"none"`, `"fast"`, `"normal"`, `"slow"` or `{"turn_seconds", "bank_seconds"}`;
    /// absent: `normal` in a public room, none in a private one.
    #[serde(default)]
    #[cfg_attr(test, ts(optional))]
    pub clock: Option<ClockChoice>,
    /// A rated room: people only (no `bots`), every seated identity with enough finished
    /// matches (docs/RATINGS.md); casual when absent.
    #[serde(default)]
    #[cfg_attr(test, ts(as = "Option<bool>", optional))]
    pub rated: bool,
}

/// Where a room is in its life.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomState {
    /// Seats are being taken.
    Waiting,
    /// The match is running.
    Playing,
    /// The match is over.
    Finished,
    /// Nobody was connected to the waiting room for too long: it is closed.
    Expired,
}

names!(RoomState {
    Waiting => "waiting",
    Playing => "playing",
    Finished => "finished",
    Expired => "expired",
});

/// One seat of a room.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// The seat number.
    #[cfg_attr(test, ts(type = "number"))]
    #[cfg_attr(feature = "openapi", schema(value_type = u8))]
    pub seat: Seat,
    /// Who holds it, if anyone.
    pub player: Option<Identity>,
    /// Whether its player has a connection following the room (presence).
    pub connected: bool,
    /// Set on a seat a bot plays from the start: how well it plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional, type = "\"easy\" | \"normal\" | \"hard\""))]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub bot: Option<warroom_engine::BotLevel>,
    /// Set while a bot plays this person's seat, saying why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub takeover: Option<Takeover>,
}

/// A room as the lobby and the socket show it.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Room {
    /// The room's id.
    pub id: RoomId,
    /// Its ruleset.
    #[cfg_attr(test, ts(type = "\"hexdice\" | \"capitals\" | \"classic\""))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub ruleset: RulesetId,
    /// Its options, every default filled in.
    #[cfg_attr(test, ts(type = "any"))]
    pub options: Value,
    /// How it plays beyond the ruleset's options (clock, bot delay).
    pub settings: RoomSettings,
    /// The match's clock now, while a match with a clock runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub clock: Option<ClockState>,
    /// Private rooms are unlisted and joined with the invite code.
    pub private: bool,
    /// A rated room (its settings' `rated`, repeated here for the lobby).
    #[serde(default)]
    pub rated: bool,
    /// Only for the room's creator and for a private room's seated players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub invite_code: Option<String>,
    /// Waiting, playing or finished.
    pub state: RoomState,
    /// Every seat, in order.
    pub seats: Vec<SeatInfo>,
    /// How many connections follow the room without a seat.
    pub spectators: u32,
    /// The match, once started.
    pub match_id: Option<MatchId>,
    /// When the room was opened (RFC 3339).
    pub created_at: String,
}

/// `GET /api/rooms`: one page of the lobby's rooms, newest first.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomPage {
    /// At most `limit` rooms.
    pub rooms: Vec<Room>,
    /// Pass as `before` for the next (older) page; `null` on the last page.
    pub next: Option<String>,
}

/// Where a match is in its life.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchState {
    /// Still being played.
    Playing,
    /// Over, with an outcome.
    Finished,
}

names!(MatchState {
    Playing => "playing",
    Finished => "finished",
});

/// A seat of a match and who played it.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSeat {
    /// The seat number.
    #[cfg_attr(test, ts(type = "number"))]
    #[cfg_attr(feature = "openapi", schema(value_type = u8))]
    pub seat: Seat,
    /// Who played it.
    pub player: Identity,
}

/// `GET /api/matches/{id}` and the entries of `GET /api/matches`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSummary {
    /// The match's id.
    pub id: MatchId,
    /// The room it was played in.
    pub room_id: RoomId,
    /// Its ruleset.
    #[cfg_attr(test, ts(type = "\"hexdice\" | \"capitals\" | \"classic\""))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub ruleset: RulesetId,
    /// Its options.
    #[cfg_attr(test, ts(type = "any"))]
    pub options: Value,
    /// Who played which seat.
    pub seats: Vec<MatchSeat>,
    /// Playing or finished.
    pub state: MatchState,
    /// How it ended, once it has.
    #[cfg_attr(test, ts(type = "{ winner: number, reason: string } | null"))]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub outcome: Option<Outcome>,
    /// How many actions were accepted.
    #[cfg_attr(test, ts(type = "number"))]
    pub actions: u64,
    /// When it started (RFC 3339).
    pub started_at: String,
    /// When it ended (RFC 3339).
    pub finished_at: Option<String>,
    /// Played in a rated room (docs/RATINGS.md).
    #[serde(default)]
    pub rated: bool,
    /// Each seat's rating change, once a rated match ended and its result counted; `null`
    /// otherwise.
    #[serde(default)]
    pub ratings: Option<Vec<SeatRating>>,
}

/// One accepted action of a replay.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayAction {
    /// Its sequence number, from 1.
    #[cfg_attr(test, ts(type = "number"))]
    pub seq: u64,
    /// Who sent it.
    #[cfg_attr(test, ts(type = "number"))]
    #[cfg_attr(feature = "openapi", schema(value_type = u8))]
    pub seat: Seat,
    /// Who took it: the seat's player, a bot, or the clock (its timeout action).
    #[serde(default)]
    pub by: ActedBy,
    /// The ruleset's action JSON, or `{"type": "resign"}`.
    #[cfg_attr(test, ts(type = "any"))]
    pub action: Value,
    /// The events it caused, as the replay's viewer may see them.
    #[cfg_attr(test, ts(type = "Array<any>"))]
    pub events: Vec<Value>,
    /// What changed in the viewer's view with it ([`crate::patch`], as a live `applied`'s
    /// `patch`): applied to the view of the step before (the first to `initial_view` less its
    /// static parts, [`crate::static_parts`]), it gives the view right after this action. The
    /// server always sends it; replays saved before it existed have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    #[cfg_attr(test, ts(type = "Array<[Array<string | number>, any?]>"))]
    // Each operation is `[path, value]` or `[path]`: an array of any JSON.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<Vec<Value>>>))]
    pub patch: Option<RawJson>,
}

/// `GET /api/matches/{id}/replay`: everything needed to watch a match again and, once it is over,
/// to recompute it (`warroom verify`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// The match's id.
    pub match_id: MatchId,
    /// Its ruleset.
    #[cfg_attr(test, ts(type = "\"hexdice\" | \"capitals\" | \"classic\""))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub ruleset: RulesetId,
    /// Its options.
    #[cfg_attr(test, ts(type = "any"))]
    pub options: Value,
    /// Who played which seat; its length is the seat count.
    pub seats: Vec<MatchSeat>,
    /// Whose eyes this replay was redacted for.
    #[cfg_attr(test, ts(type = "\"spectator\" | { seat: number }"))]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub viewer: Viewer,
    /// SHA-256 of the seed, published when the match started.
    pub seed_commitment: String,
    /// The seed, once the match is over.
    pub seed: Option<String>,
    /// The state after setup, as the viewer may see it.
    #[cfg_attr(test, ts(type = "any"))]
    pub initial_view: Value,
    /// What setup did (e.g. opening rolls), as the viewer may see it.
    #[cfg_attr(test, ts(type = "Array<any>"))]
    pub setup_events: Vec<Value>,
    /// Every accepted action in order.
    pub actions: Vec<ReplayAction>,
    /// How it ended, once it has.
    #[cfg_attr(test, ts(type = "{ winner: number, reason: string } | null"))]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub outcome: Option<Outcome>,
    /// The chat of the match the viewer may read, oldest first; each line's `seq` places it
    /// between actions. Not part of what `warroom verify` checks.
    #[serde(default)]
    pub chat: Vec<ChatLine>,
    /// Played in a rated room (docs/RATINGS.md). Not part of what `warroom verify` checks.
    #[serde(default)]
    pub rated: bool,
    /// Each seat's rating before the match and its change, once a rated match ended and its
    /// result counted; `null` otherwise.
    #[serde(default)]
    pub ratings: Option<Vec<SeatRating>>,
}
