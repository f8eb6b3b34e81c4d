//! The UI module of each ruleset, by id; an unknown ruleset still shows its board and raw events.

import { hexdice } from './hexdice.js';
import { capitals } from './capitals.js';
import { classic } from './classic.js';
import { generic } from './generic.js';

/** @typedef {import('./types.js').RulesetUi} RulesetUi */

/** @type {Record<string, RulesetUi>} */
const BY_ID = { hexdice, capitals, classic };

/** @param {string} id @returns {RulesetUi} */
export function rulesetUi(id) {
  return BY_ID[id] ?? generic(id);
}
