//! The REST API (docs/PROTOCOL.md): every call returns the parsed body or throws an ApiError
//! carrying the server's `{code, message}`. Rooms and matches come back with their computer
//! seats named (lib/seat_names.js).

import { withComputerNames as named } from './seat_names.js';

/** @typedef {import('./protocol.js').Room} Room */
/** @typedef {import('./protocol.js').RoomPage} RoomPage */
/** @typedef {import('./protocol.js').RulesetInfo} RulesetInfo */
/** @typedef {import('./protocol.js').MatchSummary} MatchSummary */
/** @typedef {import('./protocol.js').Replay} Replay */
/** @typedef {import('./protocol.js').Guest} Guest */
/** @typedef {import('./protocol.js').Identity} Identity */
/** @typedef {import('./protocol.js').Me} Me */
/** @typedef {import('./protocol.js').RecoveryCode} RecoveryCode */
/** @typedef {import('./protocol.js').PlayerProfile} PlayerProfile */
/** @typedef {import('./protocol.js').MatchPage} MatchPage */
/** @typedef {import('./protocol.js').QuickPlayRoom} QuickPlayRoom */
/** @typedef {import('./protocol.js').Leaderboard} Leaderboard */
/** @typedef {import('./protocol.js').PlayerRatings} PlayerRatings */

/** A refusal or failure, with the server's stable code. */
export class ApiError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {number} status
   */
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {{token?: string | null, body?: unknown}} [options]
 * @returns {Promise<any>}
 */
async function call(method, path, { token, body } = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('network_error', 'The server cannot be reached.', 0);
  }
  const text = await response.text();
  /** @type {any} */
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const code = parsed?.code ?? `http_${response.status}`;
    throw new ApiError(code, parsed?.message ?? response.statusText, response.status);
  }
  return parsed;
}

/** @param {string} name @returns {Promise<Guest>} */
export const createGuest = (name) => call('POST', '/api/guests', { body: { name } });
/** @param {string} token @returns {Promise<Me>} */
export const me = (token) => call('GET', '/api/me', { token });
/** @returns {Promise<RulesetInfo[]>} */
export const rulesets = () => call('GET', '/api/rulesets');
/**
 * One page of the lobby's rooms, newest first; `query` holds `limit`, `before` (the previous
 * page's `next`), `ruleset`, `state`, `open`.
 * @param {Record<string, string>} [query]
 * @returns {Promise<RoomPage>}
 */
export const rooms = (query = {}) => call('GET', `/api/rooms?${new URLSearchParams(query)}`).then(named);
/** @param {string} id @param {string | null} token @returns {Promise<Room>} */
export const room = (id, token) => call('GET', `/api/rooms/${encodeURIComponent(id)}`, { token }).then(named);
/**
 * @param {string} token
 * @param {import('./protocol.js').NewRoom} body
 * @returns {Promise<Room>}
 */
export const createRoom = (token, body) => call('POST', '/api/rooms', { token, body }).then(named);
/**
 * @param {Record<string, string>} query
 * @returns {Promise<MatchSummary[]>}
 */
export const matches = (query) => call('GET', `/api/matches?${new URLSearchParams(query)}`).then(named);
/** `?invite=<code>` when there is one (a private room's match is shown with it). @param {string | null | undefined} invite */
const inviteQuery = (invite) => (invite ? `?${new URLSearchParams({ invite })}` : '');
/** @param {string} id @param {string | null} [token] @param {string | null} [invite] @returns {Promise<MatchSummary>} */
export const match = (id, token = null, invite = null) =>
  call('GET', `/api/matches/${encodeURIComponent(id)}${inviteQuery(invite)}`, { token }).then(named);
/** @param {string} id @param {string | null} token @param {string | null} [invite] @returns {Promise<Replay>} */
export const replay = (id, token, invite = null) =>
  call('GET', `/api/matches/${encodeURIComponent(id)}/replay${inviteQuery(invite)}`, { token }).then(named);
/** @param {string} token @param {string} name @returns {Promise<Me>} */
export const rename = (token, name) => call('PATCH', '/api/me', { token, body: { name } });
/** @param {string} token @returns {Promise<RecoveryCode>} */
export const newRecoveryCode = (token) => call('POST', '/api/me/recovery', { token });
/** @param {string} code @returns {Promise<Guest>} */
export const recover = (code) => call('POST', '/api/recover', { body: { code } });
/** @param {string} id @returns {Promise<PlayerProfile>} */
export const player = (id) => call('GET', `/api/players/${encodeURIComponent(id)}`).then(named);
/**
 * One page of a player's matches (newest first); `query` holds `ruleset`, `result`, `limit`, `before`.
 * @param {string} id
 * @param {Record<string, string>} query
 * @param {string | null} token
 * @returns {Promise<MatchPage>}
 */
export const playerMatches = (id, query, token) =>
  call('GET', `/api/players/${encodeURIComponent(id)}/matches?${new URLSearchParams(query)}`, { token }).then(named);
/**
 * "Play now": a waiting room of the ruleset to take a seat in, or a new one; a rated one (among
 * players of about the bearer's strength) when `rated`.
 * @param {string} token
 * @param {string} ruleset
 * @param {boolean} [rated]
 * @returns {Promise<QuickPlayRoom>}
 */
export const quickPlay = (token, ruleset, rated = false) =>
  call('POST', '/api/quick-play', { token, body: { ruleset, rated } }).then(named);
/**
 * One page of a ruleset's leaderboard: the established players, or the provisional ones apart;
 * from `offset`, or the page `cursor` (another page's `next` or `previous`) names.
 * @param {string} ruleset
 * @param {{provisional: boolean, limit: number, offset: number, cursor?: string | null}} page
 * @returns {Promise<Leaderboard>}
 */
export const leaderboard = (ruleset, { provisional, limit, offset, cursor = null }) =>
  call(
    'GET',
    `/api/leaderboards/${encodeURIComponent(ruleset)}?${new URLSearchParams({ provisional: String(provisional), limit: String(limit), ...(cursor ? { cursor } : { offset: String(offset) }) })}`,
  );
/** A player's rating per ruleset, with its history and their record against each opponent. @param {string} id @returns {Promise<PlayerRatings>} */
export const playerRatings = (id) => call('GET', `/api/players/${encodeURIComponent(id)}/ratings`);
