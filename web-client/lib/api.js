//! The REST API (docs/PROTOCOL.md): every call returns the parsed body or throws an ApiError
//! carrying the server's `{code, message}`.

/** @typedef {import('./protocol.js').Room} Room */
/** @typedef {import('./protocol.js').RulesetInfo} RulesetInfo */
/** @typedef {import('./protocol.js').MatchSummary} MatchSummary */
/** @typedef {import('./protocol.js').Replay} Replay */
/** @typedef {import('./protocol.js').Guest} Guest */
/** @typedef {import('./protocol.js').Identity} Identity */

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
/** @param {string} token @returns {Promise<Identity>} */
export const me = (token) => call('GET', '/api/me', { token });
/** @returns {Promise<RulesetInfo[]>} */
export const rulesets = () => call('GET', '/api/rulesets');
/** @returns {Promise<Room[]>} */
export const rooms = () => call('GET', '/api/rooms');
/** @param {string} id @param {string | null} token @returns {Promise<Room>} */
export const room = (id, token) => call('GET', `/api/rooms/${encodeURIComponent(id)}`, { token });
/**
 * @param {string} token
 * @param {import('./protocol.js').NewRoom} body
 * @returns {Promise<Room>}
 */
export const createRoom = (token, body) => call('POST', '/api/rooms', { token, body });
/**
 * @param {Record<string, string>} query
 * @returns {Promise<MatchSummary[]>}
 */
export const matches = (query) => call('GET', `/api/matches?${new URLSearchParams(query)}`);
/** @param {string} id @returns {Promise<MatchSummary>} */
export const match = (id) => call('GET', `/api/matches/${encodeURIComponent(id)}`);
/** @param {string} id @param {string | null} token @returns {Promise<Replay>} */
export const replay = (id, token) =>
  call('GET', `/api/matches/${encodeURIComponent(id)}/replay`, { token });
