// Generated from protocol/src by protocol/src/typescript.rs (ts-rs). Do not edit:
// WARROOM_UPDATE_BINDINGS=1 cargo test -p warroom-protocol typescript

export type RoomId = string;

export type MatchId = string;

export type IdentityId = string;

export type ErrorBody = { 
/**
 * Stable machine code, e.g. `not_your_turn`.
 */
code: string, 
/**
 * A readable explanation (English).
 */
message: string, 
/**
 * The values the message speaks of, when there are any (rule errors: cells, areas,
 * territories, seats, counts).
 */
params?: Record<string, number>, };

export type Health = { 
/**
 * `ok` when the server is serving.
 */
status: string, 
/**
 * The server's version.
 */
version: string, };

export type NewGuest = { 
/**
 * The name: 3–24 characters (letters, digits, spaces, `_`, `-`, `.`; trimmed, inner spaces
 * collapsed), unique on the server case-insensitively.
 */
name: string, };

export type GuestCreated = { 
/**
 * The identity's id.
 */
id: IdentityId, 
/**
 * The display name as stored (trimmed).
 */
name: string, 
/**
 * The bearer token; the server keeps only its SHA-256.
 */
token: string, };

export type Identity = { 
/**
 * The identity's id.
 */
id: IdentityId, 
/**
 * The display name.
 */
name: string, };

export type SeatRange = { 
/**
 * Fewest seats.
 */
min: number, 
/**
 * Most seats.
 */
max: number, };

export type ReferenceRating = { 
/**
 * The computer level.
 */
level: "easy" | "normal" | "hard", 
/**
 * Its rating, on the display scale.
 */
rating: number, };

export type RulesetInfo = { 
/**
 * Which ruleset.
 */
id: "hexdice" | "capitals" | "classic", 
/**
 * The seat counts it allows.
 */
seats: SeatRange, 
/**
 * Its room options with every default filled in.
 */
default_options: any, 
/**
 * The computer levels' reference ratings in this ruleset, easy to hard (docs/RATINGS.md).
 */
reference_ratings: Array<ReferenceRating>, };

export type ActedBy = "player" | "bot" | "clock";

export type BotSeat = { 
/**
 * Which seat.
 */
seat: number, 
/**
 * How well it plays (`normal` when absent).
 */
level: "easy" | "normal" | "hard", };

export type Takeover = "resigned" | "disconnected" | "timed_out";

export type ClockSettings = { 
/**
 * Seconds each turn may take before the bank runs (1 to 7 days' worth).
 */
turn_seconds: number, 
/**
 * Seconds of bank per seat, spent once a turn's time is gone (0 to 7 days' worth).
 */
bank_seconds: number, };

export type ClockPreset = "none" | "fast" | "normal" | "slow";

export type ClockChoice = ClockPreset | ClockSettings;

export type ClockState = { 
/**
 * Turn and bank lengths.
 */
settings: ClockSettings, 
/**
 * Each seat's bank left, in milliseconds (the seat to act's runs down once its turn time
 * is spent).
 */
banks_ms: Array<number>, 
/**
 * The seat the clock runs for (`null` once the match is over).
 */
seat: number | null, 
/**
 * When that seat runs out of time (turn time and bank), in server Unix milliseconds.
 */
deadline_ms: number | null, 
/**
 * Milliseconds it had left (turn time and bank) when the message was sent.
 */
left_ms: number | null, 
/**
 * Of which turn time (the rest is its bank).
 */
turn_left_ms: number | null, 
/**
 * The server's Unix milliseconds when the message was sent (to correct for a client's
 * clock).
 */
server_time_ms: number, };

export type RoomSettings = { 
/**
 * The clock (`null`: none).
 */
clock: ClockSettings | null, 
/**
 * How long a bot waits before each action, in milliseconds (so people can follow it).
 */
bot_delay_ms: number, 
/**
 * How long a seated player may be disconnected before a bot plays their seat, in seconds
 * (rooms stored without it: the default).
 */
grace_seconds: number, 
/**
 * A rated room: people only, and its result moves their ratings (docs/RATINGS.md; rooms
 * stored without it: casual).
 */
rated: boolean, };

export type NewRoom = { 
/**
 * The ruleset to play.
 */
ruleset: "hexdice" | "capitals" | "classic", 
/**
 * Room options; missing fields take the ruleset's defaults.
 */
options: any, 
/**
 * How many seats; the ruleset's minimum when absent.
 */
seats: number | null, 
/**
 * A private room is not listed and is joined with its invite code.
 */
private: boolean, 
/**
 * The seat its creator takes at once (absent or `null`: the creator takes none).
 */
creator_seat?: number | null, 
/**
 * Seats a bot plays from the start ("play against the computer"); a room of bots only is
 * allowed (it starts at once, to be watched).
 */
bots?: Array<BotSeat>, 
/**
 * How long a bot waits before each action, in milliseconds (0 to 10000; 700 when absent).
 */
bot_delay_ms?: number | null, 
/**
 * How long a seated player may be disconnected before a bot plays their seat, in seconds
 * (1 to 86400; 60 when absent).
 */
grace_seconds?: number | null, 
/**
 * The clock: `"none"`, `"fast"`, `"normal"`, `"slow"` or `{"turn_seconds", "bank_seconds"}`;
 * absent: `normal` in a public room, none in a private one.
 */
clock?: ClockChoice, 
/**
 * A rated room: people only (no `bots`), every seated identity with enough finished
 * matches (docs/RATINGS.md); casual when absent.
 */
rated?: boolean, };

export type RoomState = "waiting" | "playing" | "finished" | "expired";

export type SeatInfo = { 
/**
 * The seat number.
 */
seat: number, 
/**
 * Who holds it, if anyone.
 */
player: Identity | null, 
/**
 * Whether its player has a connection following the room (presence).
 */
connected: boolean, 
/**
 * Set on a seat a bot plays from the start: how well it plays.
 */
bot?: "easy" | "normal" | "hard", 
/**
 * Set while a bot plays this person's seat, saying why.
 */
takeover?: Takeover, };

export type Room = { 
/**
 * The room's id.
 */
id: RoomId, 
/**
 * Its ruleset.
 */
ruleset: "hexdice" | "capitals" | "classic", 
/**
 * Its options, every default filled in.
 */
options: any, 
/**
 * How it plays beyond the ruleset's options (clock, bot delay).
 */
settings: RoomSettings, 
/**
 * The match's clock now, while a match with a clock runs.
 */
clock?: ClockState, 
/**
 * Private rooms are unlisted and joined with the invite code.
 */
private: boolean, 
/**
 * A rated room (its settings' `rated`, repeated here for the lobby).
 */
rated: boolean, 
/**
 * Only for the room's creator and for a private room's seated players.
 */
invite_code?: string, 
/**
 * Waiting, playing or finished.
 */
state: RoomState, 
/**
 * Every seat, in order.
 */
seats: Array<SeatInfo>, 
/**
 * How many connections follow the room without a seat.
 */
spectators: number, 
/**
 * The match, once started.
 */
match_id: MatchId | null, 
/**
 * When the room was opened (RFC 3339).
 */
created_at: string, };

export type RoomPage = { 
/**
 * At most `limit` rooms.
 */
rooms: Array<Room>, 
/**
 * Pass as `before` for the next (older) page; `null` on the last page.
 */
next: string | null, };

export type MatchState = "playing" | "finished";

export type MatchSeat = { 
/**
 * The seat number.
 */
seat: number, 
/**
 * Who played it.
 */
player: Identity, };

export type SeatRating = { 
/**
 * The seat.
 */
seat: number, 
/**
 * Its player's rating before the match.
 */
before: number, 
/**
 * After it.
 */
after: number, 
/**
 * `after - before`.
 */
change: number, };

export type MatchSummary = { 
/**
 * The match's id.
 */
id: MatchId, 
/**
 * The room it was played in.
 */
room_id: RoomId, 
/**
 * Its ruleset.
 */
ruleset: "hexdice" | "capitals" | "classic", 
/**
 * Its options.
 */
options: any, 
/**
 * Who played which seat.
 */
seats: Array<MatchSeat>, 
/**
 * Playing or finished.
 */
state: MatchState, 
/**
 * How it ended, once it has.
 */
outcome: { winner: number, reason: string } | null, 
/**
 * How many actions were accepted.
 */
actions: number, 
/**
 * When it started (RFC 3339).
 */
started_at: string, 
/**
 * When it ended (RFC 3339).
 */
finished_at: string | null, 
/**
 * Played in a rated room (docs/RATINGS.md).
 */
rated: boolean, 
/**
 * Each seat's rating change, once a rated match ended and its result counted; `null`
 * otherwise.
 */
ratings: Array<SeatRating> | null, };

export type ReplayAction = { 
/**
 * Its sequence number, from 1.
 */
seq: number, 
/**
 * Who sent it.
 */
seat: number, 
/**
 * Who took it: the seat's player, a bot, or the clock (its timeout action).
 */
by: ActedBy, 
/**
 * The ruleset's action JSON, or `{"type": "resign"}`.
 */
action: any, 
/**
 * The events it caused, as the replay's viewer may see them.
 */
events: Array<any>, 
/**
 * What changed in the viewer's view with it ([`crate::patch`], as a live `applied`'s
 * `patch`): applied to the view of the step before (the first to `initial_view` less its
 * static parts, [`crate::static_parts`]), it gives the view right after this action. The
 * server always sends it; replays saved before it existed have none.
 */
patch?: Array<[Array<string | number>, any?]>, };

export type Replay = { 
/**
 * The match's id.
 */
match_id: MatchId, 
/**
 * Its ruleset.
 */
ruleset: "hexdice" | "capitals" | "classic", 
/**
 * Its options.
 */
options: any, 
/**
 * Who played which seat; its length is the seat count.
 */
seats: Array<MatchSeat>, 
/**
 * Whose eyes this replay was redacted for.
 */
viewer: "spectator" | { seat: number }, 
/**
 * SHA-256 of the seed, published when the match started.
 */
seed_commitment: string, 
/**
 * The seed, once the match is over.
 */
seed: string | null, 
/**
 * The state after setup, as the viewer may see it.
 */
initial_view: any, 
/**
 * What setup did (e.g. opening rolls), as the viewer may see it.
 */
setup_events: Array<any>, 
/**
 * Every accepted action in order.
 */
actions: Array<ReplayAction>, 
/**
 * How it ended, once it has.
 */
outcome: { winner: number, reason: string } | null, 
/**
 * The chat of the match the viewer may read, oldest first; each line's `seq` places it
 * between actions. Not part of what `warroom verify` checks.
 */
chat: Array<ChatLine>, 
/**
 * Played in a rated room (docs/RATINGS.md). Not part of what `warroom verify` checks.
 */
rated: boolean, 
/**
 * Each seat's rating before the match and its change, once a rated match ended and its
 * result counted; `null` otherwise.
 */
ratings: Array<SeatRating> | null, };

export type Me = { 
/**
 * The identity's id.
 */
id: IdentityId, 
/**
 * Its name, unique on this server (case-insensitively).
 */
name: string, 
/**
 * When its current recovery code was made (RFC 3339); `null`: it has none.
 */
recovery_created_at: string | null, };

export type Rename = { 
/**
 * The new name (3–24 characters: letters, digits, spaces, `_`, `-`, `.`; trimmed).
 */
name: string, };

export type RecoveryCode = { 
/**
 * The code, e.g. `K7QD-9M2X-HV3C-TR8W-ZP4N`; it replaces any earlier one.
 */
code: string, 
/**
 * When it was made (RFC 3339).
 */
created_at: string, };

export type Recover = { 
/**
 * A recovery code (case, spaces and dashes do not matter).
 */
code: string, };

export type RulesetRecord = { 
/**
 * Which ruleset.
 */
ruleset: "hexdice" | "capitals" | "classic", 
/**
 * Finished matches.
 */
played: number, 
/**
 * Finished matches this player won.
 */
won: number, 
/**
 * Finished matches this player did not win.
 */
lost: number, 
/**
 * Matches still being played.
 */
playing: number, };

export type PlayerProfile = { 
/**
 * The identity's id.
 */
id: IdentityId, 
/**
 * Its name.
 */
name: string, 
/**
 * When it was created (RFC 3339).
 */
created_at: string, 
/**
 * Its record per ruleset it has played (rulesets in their stable order).
 */
records: Array<RulesetRecord>, };

export type MatchResult = "won" | "lost" | "playing";

export type PlayerMatch = { 
/**
 * The match.
 */
match: MatchSummary, 
/**
 * The seat the player played.
 */
seat: number, 
/**
 * How it went for the player.
 */
result: MatchResult, };

export type MatchPage = { 
/**
 * At most `limit` matches.
 */
matches: Array<PlayerMatch>, 
/**
 * Pass as `before` for the next (older) page; `null` on the last page.
 */
next: string | null, 
/**
 * How many matches the filter selects in all.
 */
total: number, };

export type QuickPlay = { 
/**
 * The ruleset to play.
 */
ruleset: "hexdice" | "capitals" | "classic", 
/**
 * Only rooms with this many seats (a new room gets it); any when absent.
 */
seats: number | null, 
/**
 * Rated rooms only, matched by strength (docs/RATINGS.md); casual when absent.
 */
rated?: boolean, };

export type QuickPlayRoom = { 
/**
 * The room (the bearer takes a seat in it over the socket).
 */
room: Room, 
/**
 * True when no waiting room fitted and this one was opened.
 */
created: boolean, };

export type RatingSystem = "glicko2" | "weng_lin";

export type LeaderboardEntry = { 
/**
 * 1 for the best of the list.
 */
rank: number, 
/**
 * Who.
 */
player: Identity, 
/**
 * The rating, on the display scale.
 */
rating: number, 
/**
 * Its deviation now, on the display scale (grown with inactivity for Glicko-2, as on the
 * player's page).
 */
deviation: number, 
/**
 * Rated matches counted.
 */
matches: number, };

export type Leaderboard = { 
/**
 * The ruleset.
 */
ruleset: "hexdice" | "capitals" | "classic", 
/**
 * Its rating system.
 */
system: RatingSystem, 
/**
 * Whether this is the list of provisional players (ranked among themselves).
 */
provisional: boolean, 
/**
 * How many players the whole list has.
 */
total: number, 
/**
 * This page, best first (ties: the lower deviation first).
 */
entries: Array<LeaderboardEntry>, 
/**
 * Pass as `cursor` for the page after this one; `null` on the last page.
 */
next: string | null, 
/**
 * Pass as `cursor` for the page before this one; `null` on the first page.
 */
previous: string | null, };

export type RatingPoint = { 
/**
 * The match.
 */
match_id: MatchId, 
/**
 * When it ended (RFC 3339).
 */
finished_at: string, 
/**
 * The rating before it.
 */
before: number, 
/**
 * The rating after it.
 */
after: number, 
/**
 * `after - before`.
 */
change: number, };

export type OpponentRecord = { 
/**
 * The opponent.
 */
player: Identity, 
/**
 * Rated matches played together.
 */
played: number, 
/**
 * Finished ahead of them.
 */
won: number, 
/**
 * Finished behind them.
 */
lost: number, };

export type RulesetRating = { 
/**
 * The ruleset.
 */
ruleset: "hexdice" | "capitals" | "classic", 
/**
 * Its rating system.
 */
system: RatingSystem, 
/**
 * The rating now, on the display scale.
 */
rating: number, 
/**
 * Its deviation now (grown with inactivity for Glicko-2).
 */
deviation: number, 
/**
 * True while the player is on the provisional leaderboard: their deviation was above the
 * provisional bound after their last rated match (docs/RATINGS.md).
 */
provisional: boolean, 
/**
 * The computer level whose reference rating (`GET /api/rulesets`) is nearest this rating.
 */
about_as_strong_as: "easy" | "normal" | "hard", 
/**
 * Rated matches counted.
 */
matches: number, 
/**
 * The place on the leaderboard; `null` while provisional.
 */
rank: number | null, 
/**
 * The last 200 changes at most, oldest first.
 */
history: Array<RatingPoint>, 
/**
 * The record against each opponent met in rated matches, most played first.
 */
opponents: Array<OpponentRecord>, };

export type PlayerRatings = { 
/**
 * Who.
 */
player: Identity, 
/**
 * One per ruleset the player has a rating in, in the order of `GET /api/rulesets`.
 */
ratings: Array<RulesetRating>, };

export type ChatChannel = "players" | "spectators";

export type ChatLine = { 
/**
 * Numbers the room's lines from 1, in the order they were said.
 */
id: number, 
/**
 * The match's last accepted action when it was said (0: before the first), so a replay
 * shows it at its moment.
 */
seq: number, 
/**
 * Where it was said.
 */
channel: ChatChannel, 
/**
 * Who said it.
 */
from: Identity, 
/**
 * What was said: 1–300 characters, no control characters.
 */
text: string, 
/**
 * When (RFC 3339).
 */
at: string, };

export type Rematch = { 
/**
 * The seats whose players want a rematch.
 */
accepted: Array<number>, 
/**
 * The seats whose players said no.
 */
declined: Array<number>, 
/**
 * The new room, once at least two players agreed and everyone else answered or left.
 */
room: RoomId | null, };

export type LegalGroup = { 
/**
 * The actions' `type` (`null`: each row holds one whole action, in field `action`).
 */
type: string | null, 
/**
 * The other fields of these actions, in the order of each row's values.
 */
fields: Array<string>, 
/**
 * One cell per field in each row: the field's value, or a list of the values it takes
 * (the row stands for every combination).
 */
rows: Array<Array<any>>, };

export type ClientMsg = { "type": "hello", 
/**
 * The bearer token of a guest identity.
 */
token: string | null, } | { "type": "join", 
/**
 * Which room.
 */
room: RoomId, 
/**
 * A private room's invite code.
 */
invite: string | null, 
/**
 * The last `seq` this client saw: the server sends only what came after it.
 */
last_seq: number | null, } | { "type": "take_seat", 
/**
 * Which room.
 */
room: RoomId, 
/**
 * The seat wanted.
 */
seat: number | null, } | { "type": "leave_seat", 
/**
 * Which room.
 */
room: RoomId, } | { "type": "action", 
/**
 * Which room.
 */
room: RoomId, 
/**
 * A client-chosen id: resending it never applies the action twice.
 */
id: string, 
/**
 * The ruleset's action JSON.
 */
action: any, } | { "type": "resign", 
/**
 * Which room.
 */
room: RoomId, } | { "type": "back", 
/**
 * Which room.
 */
room: RoomId, } | { "type": "leave", 
/**
 * Which room.
 */
room: RoomId, } | { "type": "chat", 
/**
 * Which room.
 */
room: RoomId, 
/**
 * 1–300 characters, no control characters.
 */
text: string, } | { "type": "mute", 
/**
 * Whose chat.
 */
player: IdentityId, 
/**
 * `false` unmutes.
 */
muted: boolean, } | { "type": "rematch", 
/**
 * Which room.
 */
room: RoomId, 
/**
 * `false` declines.
 */
accept: boolean, } | { "type": "ping" };

export type ServerMsg = { "type": "welcome", 
/**
 * Who the server takes this connection for (`null`: anonymous).
 */
identity: Identity | null, } | { "type": "room", 
/**
 * The room as this connection may see it.
 */
room: Room, } | { "type": "snapshot", 
/**
 * Which room.
 */
room: RoomId, 
/**
 * Accepted actions so far (0: just after setup).
 */
seq: number, 
/**
 * The seat this connection plays, if any.
 */
seat: number | null, 
/**
 * The ruleset's view for this connection.
 */
view: any, 
/**
 * Whose decision the match waits for.
 */
to_act: number | null, 
/**
 * How it ended, once it has.
 */
outcome: { winner: number, reason: string } | null, 
/**
 * SHA-256 of the match seed.
 */
seed_commitment: string, 
/**
 * The seed, once the match is over.
 */
seed?: string, 
/**
 * Every action this connection's seat may take now (only when it is to act), grouped by
 * type ([`crate::legal`]; `legal::expand` writes them out).
 */
legal?: Array<LegalGroup>, 
/**
 * The clock as of this message, when the room has one.
 */
clock?: ClockState, } | { "type": "applied", 
/**
 * Which room.
 */
room: RoomId, 
/**
 * The action's sequence number, from 1.
 */
seq: number, 
/**
 * Which seat it was played for.
 */
seat: number, 
/**
 * Who took it: the seat's player, a bot, or the clock.
 */
by: ActedBy, 
/**
 * The ruleset's action JSON, or `{"type": "resign"}`.
 */
action: any, 
/**
 * The events it caused, redacted for this connection.
 */
events: Array<any>, 
/**
 * The view after it, for this connection, whole but for its static parts; absent when
 * `patch` is sent instead.
 */
view?: any, 
/**
 * What changed in this connection's view since `seq - 1` ([`crate::patch`]), sent
 * instead of `view` when the server knows the connection holds that view.
 */
patch?: Array<[Array<string | number>, any?]>, 
/**
 * Whose decision the match waits for now.
 */
to_act: number | null, 
/**
 * How it ended, once it has.
 */
outcome: { winner: number, reason: string } | null, 
/**
 * Every action this connection's seat may take now (only when it is to act), grouped by
 * type ([`crate::legal`]; `legal::expand` writes them out).
 */
legal?: Array<LegalGroup>, 
/**
 * The clock as of this message, when the room has one.
 */
clock?: ClockState, } | { "type": "ack", 
/**
 * Which room.
 */
room: RoomId, 
/**
 * The client's id for the action.
 */
id: string, 
/**
 * Its sequence number.
 */
seq: number, } | { "type": "error", 
/**
 * The room concerned, if any.
 */
room?: RoomId, 
/**
 * The client's action id, for a refused action.
 */
id?: string, 
/**
 * Stable machine code.
 */
code: string, 
/**
 * Readable explanation (English).
 */
message: string, 
/**
 * The values the message speaks of, by name (see [`ErrorBody::params`]).
 */
params?: Record<string, number>, } | { "type": "finished", 
/**
 * Which room.
 */
room: RoomId, 
/**
 * How it ended.
 */
outcome: { winner: number, reason: string } | null, 
/**
 * The seed, 64 hex digits.
 */
seed: string, } | { "type": "chat", 
/**
 * Which room.
 */
room: RoomId, 
/**
 * The line.
 */
line: ChatLine, } | { "type": "chat_history", 
/**
 * Which room.
 */
room: RoomId, 
/**
 * Oldest first.
 */
lines: Array<ChatLine>, } | { "type": "muted", 
/**
 * Muted identities.
 */
players: Array<IdentityId>, } | { "type": "rematch", 
/**
 * Which room.
 */
room: RoomId, 
/**
 * Its state.
 */
rematch: Rematch, } | { "type": "pong" };

