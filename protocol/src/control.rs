//! Who plays a seat and who took each action: bot seats chosen when a room is created, seats a
//! bot plays for a person (resigned, abandoned), and the `by` of every logged action (a person,
//! a bot, or the clock).

use serde::{Deserialize, Serialize};
use warroom_engine::Seat;
use warroom_engine::bot::BotLevel;

/// Who took an action of the log.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActedBy {
    /// The seat's player.
    #[default]
    Player,
    /// A bot: a bot seat, or a bot playing for a player who resigned or left.
    Bot,
    /// The clock: the seat's time ran out and the ruleset's timeout action was taken.
    Clock,
}

names!(ActedBy {
    Player => "player",
    Bot => "bot",
    Clock => "clock",
});

/// A seat a bot plays from the start (`POST /api/rooms` `bots`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotSeat {
    /// Which seat.
    #[cfg_attr(test, ts(type = "number"))]
    #[cfg_attr(feature = "openapi", schema(value_type = u8))]
    pub seat: Seat,
    /// How well it plays (`normal` when absent).
    #[serde(default)]
    #[cfg_attr(test, ts(type = "\"easy\" | \"normal\" | \"hard\""))]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub level: BotLevel,
}

/// Why a bot plays a person's seat.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Takeover {
    /// The player resigned (3 or more players): the bot plays to the end.
    Resigned,
    /// The player has been disconnected longer than the room's grace period: the bot plays
    /// until they come back (`back`, or any action of theirs).
    Disconnected,
    /// The player's clock ran out on two turns in a row: the bot plays until they come back.
    TimedOut,
}

/// How a room plays beyond its ruleset's options: set when it is created, shown in `Room`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomSettings {
    /// The clock (`null`: none).
    #[serde(default)]
    pub clock: Option<ClockSettings>,
    /// How long a bot waits before each action, in milliseconds (so people can follow it).
    pub bot_delay_ms: u32,
    /// How long a seated player may be disconnected before a bot plays their seat, in seconds
    /// (rooms stored without it: the default).
    #[serde(default = "RoomSettings::default_grace_seconds")]
    pub grace_seconds: u32,
    /// A rated room: people only, and its result moves their ratings (docs/RATINGS.md; rooms
    /// stored without it: casual).
    #[serde(default)]
    pub rated: bool,
}

impl RoomSettings {
    /// The longest bot delay a room may ask for.
    pub const MAX_BOT_DELAY_MS: u32 = 10_000;
    /// The bot delay of a room that does not say.
    pub const DEFAULT_BOT_DELAY_MS: u32 = 700;
    /// The grace period of a room that does not say.
    pub const DEFAULT_GRACE_SECONDS: u32 = 60;
    /// The shortest grace period a room may ask for.
    pub const MIN_GRACE_SECONDS: u32 = 1;
    /// The longest grace period a room may ask for (a day).
    pub const MAX_GRACE_SECONDS: u32 = 24 * 3600;

    fn default_grace_seconds() -> u32 {
        RoomSettings::DEFAULT_GRACE_SECONDS
    }
}

impl Default for RoomSettings {
    fn default() -> RoomSettings {
        RoomSettings {
            clock: None,
            bot_delay_ms: RoomSettings::DEFAULT_BOT_DELAY_MS,
            grace_seconds: RoomSettings::DEFAULT_GRACE_SECONDS,
            rated: false,
        }
    }
}

/// A room's clock: a time per turn, then a bank per seat (time left over is not kept).
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSettings {
    /// Seconds each turn may take before the bank runs (1 to 7 days' worth).
    pub turn_seconds: u32,
    /// Seconds of bank per seat, spent once a turn's time is gone (0 to 7 days' worth).
    #[serde(default)]
    pub bank_seconds: u32,
}

impl ClockSettings {
    /// "fast": 45 s a turn and 2 minutes of bank.
    pub const FAST: ClockSettings = ClockSettings {
        turn_seconds: 45,
        bank_seconds: 120,
    };
    /// "normal": 90 s a turn and 5 minutes of bank (public rooms' default).
    pub const NORMAL: ClockSettings = ClockSettings {
        turn_seconds: 90,
        bank_seconds: 300,
    };
    /// "slow" (correspondence): a day a turn.
    pub const SLOW: ClockSettings = ClockSettings {
        turn_seconds: 24 * 3600,
        bank_seconds: 0,
    };
    /// The longest turn or bank, in seconds.
    pub const MAX_SECONDS: u32 = 7 * 24 * 3600;
}

/// A named clock the lobby offers, or none.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockPreset {
    /// No clock: turns take as long as they take.
    None,
    /// 45 s a turn + 2 min bank.
    Fast,
    /// 90 s a turn + 5 min bank.
    Normal,
    /// 24 h a turn.
    Slow,
}

/// `POST /api/rooms` `clock`: a preset name or turn and bank seconds.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ClockChoice {
    /// `"none"`, `"fast"`, `"normal"` or `"slow"`.
    Preset(ClockPreset),
    /// `{"turn_seconds": 90, "bank_seconds": 300}`.
    Custom(ClockSettings),
}

impl ClockChoice {
    /// The clock chosen (`None`: no clock).
    pub fn settings(self) -> Option<ClockSettings> {
        match self {
            ClockChoice::Preset(ClockPreset::None) => None,
            ClockChoice::Preset(ClockPreset::Fast) => Some(ClockSettings::FAST),
            ClockChoice::Preset(ClockPreset::Normal) => Some(ClockSettings::NORMAL),
            ClockChoice::Preset(ClockPreset::Slow) => Some(ClockSettings::SLOW),
            ClockChoice::Custom(settings) => Some(settings),
        }
    }
}

/// The clock of a running match as the server saw it when it sent the message.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    /// Turn and bank lengths.
    pub settings: ClockSettings,
    /// Each seat's bank left, in milliseconds (the seat to act's runs down once its turn time
    /// is spent).
    #[cfg_attr(test, ts(type = "Array<number>"))]
    pub banks_ms: Vec<u64>,
    /// The seat the clock runs for (`null` once the match is over).
    #[cfg_attr(test, ts(type = "number | null"))]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<u8>))]
    pub seat: Option<Seat>,
    /// When that seat runs out of time (turn time and bank), in server Unix milliseconds.
    #[cfg_attr(test, ts(type = "number | null"))]
    pub deadline_ms: Option<i64>,
    /// Milliseconds it had left (turn time and bank) when the message was sent.
    #[cfg_attr(test, ts(type = "number | null"))]
    pub left_ms: Option<u64>,
    /// Of which turn time (the rest is its bank).
    #[cfg_attr(test, ts(type = "number | null"))]
    pub turn_left_ms: Option<u64>,
    /// The server's Unix milliseconds when the message was sent (to correct for a client's
    /// clock).
    #[cfg_attr(test, ts(type = "number"))]
    pub server_time_ms: i64,
}
