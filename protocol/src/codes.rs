//! The stable error codes of the server itself (rule errors carry the ruleset's own codes).
//! Never rename one once published: clients match on them.

/// A socket message that is not valid JSON or not a known message.
pub const MALFORMED_MESSAGE: &str = "malformed_message";
/// A binary WebSocket frame: the protocol is text only.
pub const BINARY_NOT_SUPPORTED: &str = "binary_not_supported";
/// A socket message longer than the configured limit.
pub const FRAME_TOO_LARGE: &str = "frame_too_large";
/// Too many socket messages in too short a time.
pub const RATE_LIMITED: &str = "rate_limited";
/// A missing, unknown or malformed bearer token.
pub const UNAUTHORIZED: &str = "unauthorized";
/// No room with this id.
pub const ROOM_NOT_FOUND: &str = "room_not_found";
/// No match with this id.
pub const MATCH_NOT_FOUND: &str = "match_not_found";
/// The action or seat request needs a seat this identity does not hold.
pub const NOT_SEATED: &str = "not_seated";
/// The seat asked for belongs to someone else.
pub const SEAT_TAKEN: &str = "seat_taken";
/// Every seat is taken.
pub const ROOM_FULL: &str = "room_full";
/// This identity already holds a seat in the room.
pub const ALREADY_SEATED: &str = "already_seated";
/// No such seat in this room.
pub const INVALID_SEAT: &str = "invalid_seat";
/// The room's match has not started yet.
pub const MATCH_NOT_STARTED: &str = "match_not_started";
/// The room's match has started: seats can no longer change.
pub const MATCH_STARTED: &str = "match_started";
/// The room's match is over.
pub const MATCH_OVER: &str = "match_over";
/// A private room joined without its invite code, or with a wrong one.
pub const INVALID_INVITE: &str = "invalid_invite";
/// The room does not accept more connections.
pub const TOO_MANY_CONNECTIONS: &str = "too_many_connections";
/// A `join` of one room more than a socket may follow at once (`--max-rooms-per-socket`):
/// leave one first.
pub const TOO_MANY_ROOMS: &str = "too_many_rooms";
/// A room-bound message for a room this connection does not follow.
pub const NOT_JOINED: &str = "not_joined";
/// An action JSON that is not an action of the room's ruleset.
pub const UNKNOWN_ACTION: &str = "unknown_action";
/// A client action id that is empty or too long.
pub const INVALID_ACTION_ID: &str = "invalid_action_id";
/// A display name outside the allowed length or characters.
pub const INVALID_NAME: &str = "invalid_name";
/// A name another identity already has (names are unique, case-insensitively).
pub const NAME_TAKEN: &str = "name_taken";
/// A recovery code that belongs to no identity (or was replaced by a newer one).
pub const INVALID_RECOVERY_CODE: &str = "invalid_recovery_code";
/// No player with this id or name.
pub const PLAYER_NOT_FOUND: &str = "player_not_found";
/// A request body that is not the expected JSON.
pub const INVALID_REQUEST: &str = "invalid_request";
/// Room options or seat count the ruleset refuses (rulesets may use more precise codes).
pub const INVALID_OPTIONS: &str = "invalid_options";
/// A ruleset this server build does not offer.
pub const UNKNOWN_RULESET: &str = "unknown_ruleset";
/// A rated room cannot have computer seats (docs/RATINGS.md).
pub const RATED_WITHOUT_BOTS: &str = "rated_without_bots";
/// An identity with fewer finished matches than `--rated-min-matches` cannot play rated.
pub const NOT_YET_RATED: &str = "not_yet_rated";
/// The server is busy (a room's queue is full); try again.
pub const BUSY: &str = "busy";
/// Something failed inside the server; nothing was changed.
pub const INTERNAL: &str = "internal";
/// The server is shutting down.
pub const SHUTTING_DOWN: &str = "shutting_down";
/// The client's outgoing queue filled up; it was disconnected and may reconnect.
pub const SLOW_CONSUMER: &str = "slow_consumer";
/// No such route.
pub const NOT_FOUND: &str = "not_found";
/// A chat line with nothing but spaces.
pub const CHAT_EMPTY: &str = "chat_empty";
/// A chat line longer than the limit (300 characters).
pub const CHAT_TOO_LONG: &str = "chat_too_long";
/// A chat line with a control character (a newline, a bell...).
pub const CHAT_CONTROL_CHARACTERS: &str = "chat_control_characters";
/// Too many chat lines from one identity in too short a time.
pub const CHAT_RATE_LIMITED: &str = "chat_rate_limited";
/// Muting oneself.
pub const CANNOT_MUTE_SELF: &str = "cannot_mute_self";
/// A rematch answered before the match is over.
pub const MATCH_NOT_OVER: &str = "match_not_over";
/// A waiting room nobody was connected to for too long: it is closed.
pub const ROOM_EXPIRED: &str = "room_expired";
/// An HTTP method the route does not take (405; `Allow` lists those it takes).
pub const METHOD_NOT_ALLOWED: &str = "method_not_allowed";
/// An HTTP request body over the limit (413).
pub const BODY_TOO_LARGE: &str = "body_too_large";
/// An HTTP request whose body was not received in time (408).
pub const REQUEST_TIMEOUT: &str = "request_timeout";
/// The server cannot do this now (its database does not answer); nothing was changed, retry.
pub const UNAVAILABLE: &str = "unavailable";
/// A socket that did not say `hello` in time (close reason).
pub const HELLO_TIMEOUT: &str = "hello_timeout";
/// A socket that answered no ping in time (close reason).
pub const PING_TIMEOUT: &str = "ping_timeout";
/// A WebSocket upgrade from a page of another site (`Origin` not allowed).
pub const FORBIDDEN_ORIGIN: &str = "forbidden_origin";
/// A seat that resigned resigns again, or its player acts (a bot plays it to the end).
pub const ALREADY_RESIGNED: &str = "already_resigned";
/// A client action id in the form the server keeps for its own actions (`server:…`).
pub const RESERVED_ACTION_ID: &str = "reserved_action_id";
/// `back` for a seat no bot plays for its player now (or one that resigned: `already_resigned`).
pub const NOT_TAKEN_OVER: &str = "not_taken_over";
/// The room is served by another node now (cluster mode: its lease moved on, e.g. this node
/// was paused or cut off past its lease): nothing was done; join the room again with
/// `last_seq` (any node serves the join) and resend an unacknowledged action with its id.
pub const ROOM_MOVED: &str = "room_moved";
