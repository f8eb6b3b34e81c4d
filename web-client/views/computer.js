//! "Play the computer": a match against bots in one click once the level is shown (two from the
//! landing page: the game's button, then the level). A visitor without a name plays under a
//! generated guest name. The room is private and has no clock: nobody else is waited for.

import { h, replaceChildren } from '../lib/dom.js';
import { t, tMaybe } from '../lib/i18n.js';
import * as api from '../lib/api.js';
import { roomLink } from '../lib/router.js';
import { rulesetUi } from '../rulesets/index.js';
import { preferredOptions } from './options.js';
import { toast } from '../lib/toast.js';

/** @typedef {import('../app.js').Session} Session */
/** @typedef {import('../lib/protocol.js').NewRoom} NewRoom */
/** @typedef {'easy' | 'normal' | 'hard'} Level */

/** The levels offered, easiest first. @type {Level[]} */
export const LEVELS = ['easy', 'normal', 'hard'];

/** Players per game: the fewest and the most (docs/RULES.md). */
export const PLAYERS = /** @type {Record<string, [number, number]>} */ ({ hexdice: [2, 2], capitals: [2, 4], classic: [3, 6] });

/**
 * Creates a room of `seats` seats where this player takes seat 0 and bots of `level` every
 * other one (the match starts at once), and goes there.
 * @param {Session} session
 * @param {{ruleset: string, seats: number, level: Level, options?: Record<string, any>}} choice
 *   `options` default to the client's preferred ones (the server fills in the rest)
 */
export async function startComputerMatch(session, { ruleset, seats, level, options }) {
  const guest = await session.identify();
  const room = await api.createRoom(guest.token, {
    ruleset: /** @type {NewRoom["ruleset"]} */ (ruleset),
    options: options ?? preferredOptions(rulesetUi(ruleset).fields({})),
    seats,
    private: true,
    clock: 'none',
    creator_seat: 0,
    bots: Array.from({ length: seats - 1 }, (_, i) => ({ seat: i + 1, level })),
  });
  location.hash = roomLink(room.id, room.invite_code);
}

/**
 * One button per level that starts a match against the computer at once; a refusal is shown
 * and the buttons work again.
 * @param {Session} session
 * @param {string} ruleset
 * @param {() => {seats: number, options?: Record<string, any>}} settings read when clicked
 */
export function levelButtons(session, ruleset, settings) {
  const box = h('div', { class: 'computer-levels', role: 'group', 'aria-label': t('computer_level') });
  const buttons = LEVELS.map((level) =>
    h(
      'button',
      {
        type: 'button',
        class: level === 'normal' ? 'primary' : '',
        'data-level': level,
        onclick: async () => {
          for (const button of buttons) button.disabled = true;
          try {
            await startComputerMatch(session, { ruleset, level, ...settings() });
          } catch (error) {
            for (const button of buttons) button.disabled = false;
            toast(error instanceof api.ApiError ? (tMaybe(`error_${error.code}`) ?? error.message) : String(error), 'error');
          }
        },
      },
      t(`bot_level_start_${level}`),
    ),
  );
  replaceChildren(box, buttons);
  return box;
}

/**
 * A game card's "Play the computer": the first click shows the levels (and, for games of more
 * than two, how many players), the second starts the match.
 * @param {Session} session
 * @param {string} ruleset
 */
export function playComputerPanel(session, ruleset) {
  const [min, max] = PLAYERS[ruleset] ?? [2, 2];
  const seatsSelect =
    min === max
      ? null
      : h(
          'select',
          { 'data-testid': `computer-seats-${ruleset}`, 'aria-label': t('seats') },
          Array.from({ length: max - min + 1 }, (_, i) => h('option', { value: String(min + i) }, t('players_exact', { n: min + i }))),
        );
  const levels = h('div', { class: 'computer-choice', hidden: true }, seatsSelect, levelButtons(session, ruleset, () => ({ seats: Number(seatsSelect?.value ?? min) })));
  const open = h(
    'button',
    {
      type: 'button',
      class: 'primary play-computer',
      'data-play-computer': ruleset,
      'aria-expanded': 'false',
      onclick: () => {
        const shown = levels.hidden;
        levels.hidden = !shown;
        open.setAttribute('aria-expanded', String(shown));
        if (shown) /** @type {HTMLElement | null} */ (levels.querySelector('[data-level=normal]'))?.focus();
      },
    },
    t('play_computer'),
  );
  return h('div', { class: 'computer-panel' }, open, levels);
}
