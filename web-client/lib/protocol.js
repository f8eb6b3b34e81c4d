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
