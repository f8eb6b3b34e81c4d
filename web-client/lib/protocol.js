//! The wire shapes the client speaks (docs/PROTOCOL.md), named from protocol.gen.d.ts, which is
//! generated from the Rust types (protocol/src/typescript.rs) so the type check follows the
//! server. Ruleset-specific actions, events and views are `any` on the wire and are read by
//! each rulesets/<id>.js.

/**
 * @typedef {import('./protocol.gen').Identity} Identity
 * @typedef {import('./protocol.gen').GuestCreated} Guest
 * @typedef {import('./protocol.gen').ErrorBody} ErrorBody
 * @typedef {import('./protocol.gen').RulesetInfo} RulesetInfo
 * @typedef {import('./protocol.gen').SeatInfo} SeatInfo
 * @typedef {import('./protocol.gen').Room} Room
 * @typedef {import('./protocol.gen').RoomPage} RoomPage
 * @typedef {import('./protocol.gen').NewRoom} NewRoom
 * @typedef {import('./protocol.gen').MatchSummary} MatchSummary
 * @typedef {import('./protocol.gen').ReplayAction} ReplayAction
 * @typedef {import('./protocol.gen').Replay} Replay
 * @typedef {import('./protocol.gen').Me} Me
 * @typedef {import('./protocol.gen').RecoveryCode} RecoveryCode
 * @typedef {import('./protocol.gen').PlayerProfile} PlayerProfile
 * @typedef {import('./protocol.gen').RulesetRecord} RulesetRecord
 * @typedef {import('./protocol.gen').PlayerMatch} PlayerMatch
 * @typedef {import('./protocol.gen').MatchPage} MatchPage
 * @typedef {import('./protocol.gen').QuickPlayRoom} QuickPlayRoom
 * @typedef {import('./protocol.gen').ChatLine} ChatLine
 * @typedef {import('./protocol.gen').Rematch} Rematch
 * @typedef {import('./protocol.gen').ServerMsg} ServerMsg
 * @typedef {import('./protocol.gen').ClientMsg} ClientMsg
 * @typedef {import('./protocol.gen').LegalGroup} LegalGroup
 * @typedef {import('./protocol.gen').SeatRating} SeatRating
 * @typedef {import('./protocol.gen').Leaderboard} Leaderboard
 * @typedef {import('./protocol.gen').LeaderboardEntry} LeaderboardEntry
 * @typedef {import('./protocol.gen').PlayerRatings} PlayerRatings
 * @typedef {import('./protocol.gen').RulesetRating} RulesetRating
 * @typedef {import('./protocol.gen').RatingPoint} RatingPoint
 * @typedef {import('./protocol.gen').OpponentRecord} OpponentRecord
 * @typedef {{winner: number, reason: string}} Outcome
 */


/**
 * The legal actions a `snapshot` or `applied` lists (`legal`, grouped by type: each group names
 * its fields once and gives its actions as rows of cells, one per field; a cell that is a list is
 * a choice among its values and the row stands for every combination, the first field varying
 * slowest), written out as the actions to send, in order. A group of `type` null holds whole
 * actions (docs/PROTOCOL.md "Legal actions").
 * @param {LegalGroup[] | undefined | null} groups
 * @returns {any[] | null}
 */
export function expandLegal(groups) {
  if (!groups) return null;
  /** @type {any[]} */
  const actions = [];
  for (const group of groups) {
    for (const row of group.rows) {
      /** @type {any[][]} */
      let combinations = [[]];
      for (const cell of row) {
        const choices = Array.isArray(cell) ? cell : [cell];
        combinations = combinations.flatMap((prefix) => choices.map((value) => [...prefix, value]));
      }
      for (const values of combinations) {
        if (group.type === null) {
          actions.push(values[0]);
          continue;
        }
        /** @type {Record<string, any>} */
        const action = { type: group.type };
        group.fields.forEach((field, index) => {
          action[field] = values[index];
        });
        actions.push(action);
      }
    }
  }
  return actions;
}

/** The fields of a match's view that never change: the server sends them with its snapshot only. */
export const STATIC_VIEW_FIELDS = ['board', 'borders', 'continents', 'options'];

/**
 * The fields of each entry of a view's list that never change, by list (classic's territories
 * keep their ids, names and continents): `applied` views leave them out too.
 * @type {Record<string, string[]>}
 */
export const STATIC_ENTRY_FIELDS = { territories: ['id', 'name', 'continent'] };

/**
 * An `applied` message's view completed with the static parts of `whole`, the last snapshot's
 * view (the entries of a list are completed by position).
 * @param {any} view @param {any} whole @returns {any}
 */
export function withStaticParts(view, whole) {
  if (!view || !whole) return view;
  const merged = { ...view };
  for (const field of STATIC_VIEW_FIELDS) {
    if (field in whole && !(field in view)) merged[field] = whole[field];
  }
  for (const [list, fields] of Object.entries(STATIC_ENTRY_FIELDS)) {
    const entries = view[list];
    const known = whole[list];
    if (!Array.isArray(entries) || !Array.isArray(known)) continue;
    merged[list] = entries.map((entry, index) => {
      const full = known[index];
      if (!full || typeof entry !== 'object' || entry === null) return entry;
      /** @type {Record<string, any>} */
      const completed = { ...entry };
      for (const field of fields) {
        if (field in full && !(field in entry)) completed[field] = full[field];
      }
      return completed;
    });
  }
  return merged;
}

/**
 * A whole view (a snapshot's) less its static parts: the view an `applied` would carry, which
 * the next `applied`'s patch applies to.
 * @param {any} view @returns {any}
 */
export function withoutStaticParts(view) {
  if (!view || typeof view !== 'object' || Array.isArray(view)) return view;
  /** @type {Record<string, any>} */
  const stripped = {};
  for (const [field, value] of Object.entries(view)) {
    if (!STATIC_VIEW_FIELDS.includes(field)) stripped[field] = value;
  }
  for (const [list, fields] of Object.entries(STATIC_ENTRY_FIELDS)) {
    const entries = stripped[list];
    if (!Array.isArray(entries)) continue;
    stripped[list] = entries.map((entry) => {
      if (!entry || typeof entry !== 'object') return entry;
      /** @type {Record<string, any>} */
      const kept = {};
      for (const [field, value] of Object.entries(entry)) {
        if (!fields.includes(field)) kept[field] = value;
      }
      return kept;
    });
  }
  return stripped;
}

/** A patch that does not fit the view it is applied to (the client must ask for a whole view). */
export class PatchError extends Error {}

/**
 * An `applied` message's `patch` applied to `view`, the view (without static parts) of the seq
 * before it (docs/PROTOCOL.md "View patches"): a list of operations, in order; `[path, value]`
 * sets the value at `path` (keys and indices; an index equal to an array's length appends),
 * `[path]` removes an object's member. `view` is left as it was: the containers along each path
 * are copied. Throws a PatchError when the patch does not fit.
 * @param {any} view @param {any} patch @returns {any}
 */
export function applyPatch(view, patch) {
  if (!Array.isArray(patch)) throw new PatchError('a patch is a list of operations');
  /** The containers copied for this patch (changed in place by later operations). */
  const copied = new Set();
  /** @param {any} value */
  const own = (value) => {
    if (value === null || typeof value !== 'object' || copied.has(value)) return value;
    const copy = Array.isArray(value) ? [...value] : { ...value };
    copied.add(copy);
    return copy;
  };
  let root = view;
  for (const op of patch) {
    if (!Array.isArray(op) || !Array.isArray(op[0]) || op.length < 1 || op.length > 2) {
      throw new PatchError(`not an operation: ${JSON.stringify(op)}`);
    }
    const [path, value] = op;
    const remove = op.length === 1;
    if (path.length === 0) {
      if (remove) throw new PatchError('the view cannot be removed');
      root = value;
      continue;
    }
    root = own(root);
    let parent = root;
    for (let i = 0; i < path.length - 1; i += 1) {
      const step = path[i];
      if (!fits(parent, step) || !(step in parent)) throw new PatchError(`no ${JSON.stringify(path)} in the view`);
      parent[step] = own(parent[step]);
      parent = parent[step];
    }
    const last = path[path.length - 1];
    if (!fits(parent, last)) throw new PatchError(`no ${JSON.stringify(path)} in the view`);
    if (Array.isArray(parent)) {
      if (remove || last > parent.length) throw new PatchError(`no ${JSON.stringify(path)} in the view`);
      parent[last] = value;
    } else if (remove) {
      if (!(last in parent)) throw new PatchError(`no ${JSON.stringify(path)} in the view`);
      delete parent[last];
    } else {
      parent[last] = value;
    }
  }
  return root;
}

/** Whether `step` can index `container` (a key of an object, an index of an array). @param {any} container @param {any} step */
function fits(container, step) {
  if (container === null || typeof container !== 'object') return false;
  if (Array.isArray(container)) return Number.isInteger(step) && step >= 0;
  return typeof step === 'string';
}
