//! A ruleset's leaderboard (`#/leaderboard/<ruleset>?provisional=1&cursor=<c>`): the players
//! ranked by rating, 50 a page (paged on by the server's cursors, which find a page at any
//! depth at once; a link with `offset=<n>` jumps to a place), each linked to their page, with their uncertainty (±) and how many
//! rated matches they played; the established players and the provisional ones (ranked among
//! themselves) on two tabs. Every choice is in the link, so the browser's back button and a
//! shared link show the same page.

import { h, replaceChildren } from '../lib/dom.js';
import { language, t, tMaybe } from '../lib/i18n.js';
import * as api from '../lib/api.js';
import { leaderboardLink, playerLink } from '../lib/router.js';
import { GAMES } from './rules.js';
import { rulesetName } from './lobby.js';
import { refusalText } from './room.js';

/** @typedef {import('../app.js').Session} Session */
/** @typedef {import('../lib/protocol.js').Leaderboard} Leaderboard */

/** Players per page (the server gives at most 100). */
export const LEADERBOARD_PAGE = 50;

/**
 * @param {Session} session
 * @param {{ruleset: string, provisional: boolean, offset: number, cursor: string | null}} choice
 * @returns {{element: HTMLElement, dispose: () => void}}
 */
export function leaderboardScreen(session, { ruleset, provisional, offset, cursor }) {
  const body = h('div', { class: 'leaderboard-body', 'data-testid': 'leaderboard', 'aria-live': 'polite' }, h('p', { class: 'muted', 'data-testid': 'leaderboard-loading' }, t('loading')));
  const tab = (/** @type {boolean} */ which, /** @type {string} */ label) =>
    h('a', { class: `tab ${which === provisional ? 'current' : ''}`, href: leaderboardLink(ruleset, { provisional: which }), 'aria-current': which === provisional ? 'page' : null, 'data-testid': which ? 'tab-provisional' : 'tab-established' }, label);
  const element = h(
    'section',
    { class: 'screen leaderboard-page', 'data-ruleset': ruleset, 'data-provisional': String(provisional) },
    h('a', { href: '#/', class: 'back' }, `← ${t('lobby')}`),
    h('h2', {}, t('leaderboard_title', { ruleset: rulesetName(ruleset) })),
    h(
      'nav',
      { class: 'tabs rulesets', 'aria-label': t('leaderboards') },
      GAMES.map((id) => h('a', { class: `tab ${id === ruleset ? 'current' : ''}`, href: leaderboardLink(id, { provisional }), 'aria-current': id === ruleset ? 'page' : null, 'data-ruleset': id }, rulesetName(id))),
    ),
    h('nav', { class: 'tabs', 'aria-label': t('leaderboard_which') }, tab(false, t('leaderboard_established')), tab(true, t('leaderboard_provisional'))),
    h('p', { class: 'muted' }, provisional ? t('leaderboard_provisional_text') : t('leaderboard_established_text')),
    body,
  );
  let stopped = false;
  api
    .leaderboard(ruleset, { provisional, limit: LEADERBOARD_PAGE, offset, cursor })
    .then((board) => {
      if (!stopped) replaceChildren(body, table(board, session.guest?.id ?? null, offset));
    })
    .catch((error) => {
      if (!stopped) replaceChildren(body, h('p', { class: 'problem', role: 'alert', 'data-testid': 'leaderboard-problem' }, error instanceof api.ApiError ? refusalText(error) : String(error)));
    });
  return {
    element,
    dispose: () => {
      stopped = true;
    },
  };
}

/**
 * The page of ranked players, with the pager (the server's cursors; an empty page past the end
 * leads back to the list's top); a line when the page is empty.
 * @param {Leaderboard} board
 * @param {string | null} me the reader's id: their row is marked
 * @param {number} offset
 */
function table(board, me, offset) {
  const format = new Intl.NumberFormat(language(), { maximumFractionDigits: 0 });
  const system = tMaybe(`rating_system_${board.system}`) ?? board.system;
  const link = (/** @type {string | null} */ cursor) => leaderboardLink(board.ruleset, { provisional: board.provisional, cursor });
  const pastEnd = board.entries.length === 0 && (offset > 0 || board.total > 0);
  const previousLink = board.previous ? link(board.previous) : pastEnd ? link(null) : null;
  const previous = previousLink ? h('a', { class: 'button', href: previousLink, rel: 'prev', 'data-testid': 'leaderboard-previous' }, `← ${t('page_previous')}`) : null;
  const next = board.next ? h('a', { class: 'button', href: link(board.next), rel: 'next', 'data-testid': 'leaderboard-next' }, `${t('page_next')} →`) : null;
  if (board.entries.length === 0) {
    return [h('p', { class: 'muted', 'data-testid': 'leaderboard-empty' }, pastEnd ? t('leaderboard_past_end') : t('leaderboard_empty')), previous];
  }
  const first = board.entries[0].rank;
  const last = board.entries[board.entries.length - 1].rank;
  return [
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'leaderboard-table' },
        h('caption', { class: 'muted' }, t('rating_system', { system })),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col', class: 'number' }, t('col_rank')),
            h('th', { scope: 'col' }, t('col_player')),
            h('th', { scope: 'col', class: 'number' }, t('col_rating')),
            h('th', { scope: 'col', class: 'number' }, h('abbr', { title: t('col_deviation') }, '±')),
            h('th', { scope: 'col', class: 'number' }, t('col_matches')),
          ),
        ),
        h(
          'tbody',
          {},
          board.entries.map((entry) =>
            h(
              'tr',
              { 'data-player': entry.player.id, 'data-rank': entry.rank, class: entry.player.id === me ? 'me' : null },
              h('td', { class: 'number' }, format.format(entry.rank)),
              h('th', { scope: 'row' }, h('a', { href: playerLink(entry.player.id) }, entry.player.name)),
              h('td', { class: 'number rating', 'data-testid': 'rating' }, format.format(entry.rating)),
              h('td', { class: 'number muted', 'data-testid': 'deviation' }, `± ${format.format(entry.deviation)}`),
              h('td', { class: 'number' }, format.format(entry.matches)),
            ),
          ),
        ),
      ),
    ),
    h(
      'div',
      { class: 'pager' },
      previous,
      h(
        'span',
        { class: 'muted', 'data-testid': 'leaderboard-range' },
        t('leaderboard_range', { from: format.format(first), to: format.format(last), total: format.format(board.total) }),
      ),
      next,
    ),
  ];
}
