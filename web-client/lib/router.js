//! Hash routes: `#/` lobby, `#/room/<id>?invite=<code>&play=1`,
//! `#/replay/<match id>?step=<n>&invite=<code>` (a private room's match needs its invite),
//! `#/player/<id>`, `#/recover?code=<code>`, `#/rules/<ruleset>`,
//! `#/leaderboard/<ruleset>?provisional=1&cursor=<next or previous of a page>` (or `&offset=<n>`). The hash keeps every screen a
//! plain link (invites, spectating, replays, player pages, recovery, rules) with one served page.

/**
 * @typedef {{name: 'lobby'}
 *   | {name: 'room', id: string, invite: string | null, play: boolean}
 *   | {name: 'replay', id: string, step: number | null, invite: string | null}
 *   | {name: 'player', id: string}
 *   | {name: 'recover', code: string}
 *   | {name: 'rules', ruleset: string}
 *   | {name: 'leaderboard', ruleset: string, provisional: boolean, offset: number, cursor: string | null}} Route
 */

/** The leaderboard `#/leaderboard` shows when it names no ruleset. */
const DEFAULT_LEADERBOARD = 'hexdice';

/** @returns {Route} */
export function current() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = hash.split('?');
  const params = new URLSearchParams(query);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'room' && parts[1]) {
    return { name: 'room', id: parts[1], invite: params.get('invite'), play: params.get('play') === '1' };
  }
  if (parts[0] === 'replay' && parts[1]) {
    const step = Number(params.get('step'));
    return {
      name: 'replay',
      id: parts[1],
      step: params.has('step') && Number.isFinite(step) ? step : null,
      invite: params.get('invite'),
    };
  }
  if (parts[0] === 'player' && parts[1]) return { name: 'player', id: parts[1] };
  if (parts[0] === 'recover') return { name: 'recover', code: params.get('code') ?? '' };
  if (parts[0] === 'rules' && parts[1]) return { name: 'rules', ruleset: parts[1] };
  if (parts[0] === 'leaderboard') {
    const offset = Number(params.get('offset'));
    return {
      name: 'leaderboard',
      ruleset: parts[1] ?? DEFAULT_LEADERBOARD,
      provisional: params.get('provisional') === '1',
      offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
      cursor: params.get('cursor'),
    };
  }
  return { name: 'lobby' };
}

/**
 * A ruleset's leaderboard: the established players, or the provisional ones; from `offset` on,
 * or the page a cursor (a page's `next` or `previous`) names.
 * @param {string} [ruleset] @param {{provisional?: boolean, offset?: number, cursor?: string | null}} [page]
 */
export function leaderboardLink(ruleset = DEFAULT_LEADERBOARD, { provisional = false, offset = 0, cursor = null } = {}) {
  const params = new URLSearchParams();
  if (provisional) params.set('provisional', '1');
  if (cursor) params.set('cursor', cursor);
  else if (offset > 0) params.set('offset', String(offset));
  const query = params.toString();
  return `#/leaderboard/${encodeURIComponent(ruleset)}${query ? `?${query}` : ''}`;
}

/** @param {string} ruleset */
export function rulesLink(ruleset) {
  return `#/rules/${encodeURIComponent(ruleset)}`;
}

/** @param {string} room @param {string | null | undefined} invite */
export function roomLink(room, invite) {
  const base = `#/room/${encodeURIComponent(room)}`;
  return invite ? `${base}?invite=${encodeURIComponent(invite)}` : base;
}

/**
 * A room the client takes a free seat in as soon as it has joined ("Play now").
 * @param {string} room @param {string | null | undefined} [invite] a private room's invite code
 */
export function playLink(room, invite) {
  const link = roomLink(room, invite);
  return `${link}${link.includes('?') ? '&' : '?'}play=1`;
}

/**
 * A match's replay; a private room's match is shown to others than its players only with the
 * room's invite code.
 * @param {string} match @param {string | null | undefined} [invite] @param {number} [step]
 */
export function replayLink(match, invite, step) {
  const params = new URLSearchParams();
  if (step !== undefined) params.set('step', String(step));
  if (invite) params.set('invite', invite);
  const query = params.toString();
  return `#/replay/${encodeURIComponent(match)}${query ? `?${query}` : ''}`;
}

/** @param {string} player */
export function playerLink(player) {
  return `#/player/${encodeURIComponent(player)}`;
}

/** The link that takes an identity onto another device. @param {string} code */
export function recoverLink(code) {
  return `#/recover?code=${encodeURIComponent(code)}`;
}
