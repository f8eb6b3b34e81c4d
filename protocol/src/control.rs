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

impl ActedBy {
    /// The stable name used on the wire and in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            ActedBy::Player => "player",
            ActedBy::Bot => "bot",
            ActedBy::Clock => "clock",
        }
    }

    /// Parses a stored name.
    pub fn parse(text: &str) -> Option<ActedBy> {
        [ActedBy::Player, ActedBy::Bot, ActedBy::Clock]
            .into_iter()
            .find(|by| by.as_str() == text)
    }
}

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
    /// The player has been disconnected longer than the room's grace period.
    Disconnected,
    /// The player's clock ran out on two turns in a row.
    TimedOut,
}

/// How a room plays beyond its ruleset's options: set when it is created, shown in `Room`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomSettings {
    /// How long a bot waits before each action, in milliseconds (so people can follow it).
    pub bot_delay_ms: u32,
}

impl RoomSettings {
    /// The longest bot delay a room may ask for.
    pub const MAX_BOT_DELAY_MS: u32 = 10_000;
    /// The bot delay of a room that does not say.
    pub const DEFAULT_BOT_DELAY_MS: u32 = 700;
}

impl Default for RoomSettings {
    fn default() -> RoomSettings {
        RoomSettings {
            bot_delay_ms: RoomSettings::DEFAULT_BOT_DELAY_MS,
        }
    }
}
