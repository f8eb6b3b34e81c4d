//! Hash routes: `#/` lobby, `#/room/<id>?invite=<code>`, `#/replay/<match id>?step=<n>`,
//! `#/rules/<ruleset>`. The hash
//! keeps every screen a plain link (invites, spectating, replays) with one served page.

/**
 * @typedef {{name: 'lobby'}
 *   | {name: 'room', id: string, invite: string | null}
 *   | {name: 'replay', id: string, step: number | null}
 *   | {name: 'rules', ruleset: string}} Route
 */

/** @returns {Route} */
export function current() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = hash.split('?');
  const params = new URLSearchParams(query);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'room' && parts[1]) return { name: 'room', id: parts[1], invite: params.get('invite') };
  if (parts[0] === 'replay' && parts[1]) {
    const step = Number(params.get('step'));
    return { name: 'replay', id: parts[1], step: params.has('step') && Number.isFinite(step) ? step : null };
  }
  if (parts[0] === 'rules' && parts[1]) return { name: 'rules', ruleset: parts[1] };
  return { name: 'lobby' };
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

/** @param {string} match */
export function replayLink(match) {
  return `#/replay/${encodeURIComponent(match)}`;
}
