//! A fallback UI for a ruleset this client does not know: the board by region owner where the
//! view says one, and events as their JSON. Keeps a newer server usable by an older client.

import { withRemaining } from '../views/options.js';
import { seatColor } from '../lib/colors.js';

/** @typedef {import('./types.js').RulesetUi} RulesetUi */

/** @param {string} id @returns {RulesetUi} */
export function generic(id) {
  return {
    id,
    fields: (defaults) => withRemaining(defaults, []),
    controller: () => ({
      click: () => {},
      reset: () => {},
      frame: (state) => ({
        decorate: (region) => {
          const owner = state.view?.regions?.[region]?.owner ?? state.view?.cells?.[region]?.owner;
          return { fill: seatColor(typeof owner === 'number' ? owner : null) };
        },
        arrows: [],
        controls: [],
        prompt: null,
      }),
    }),
    describe: (event) => JSON.stringify(event),
    dice: () => [],
    seatSummary: () => '',
    paramText: (name, value) => value,
  };
}
