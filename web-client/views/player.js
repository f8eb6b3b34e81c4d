//! A player's page (`#/player/<id>`): their name, win/loss record per ruleset, their rating per
//! ruleset (views/ratings.js: its history as a graph, their record against each opponent), and
//! their matches, newest first, filtered by ruleset and result, a page at a time, each linked to
//! its replay (or to its room while it is played). On one's own page: rename, and a recovery code (with its
//! link) that takes this identity to another device.

import { h, replaceChildren } from '../lib/dom.js';
import { t, tMaybe } from '../lib/i18n.js';
import * as api from '../lib/api.js';
import * as identity from '../lib/identity.js';
import { recoverLink, replayLink, roomLink } from '../lib/router.js';
import { toast } from '../lib/toast.js';
import { rulesetName } from './lobby.js';
import { refusalText } from './room.js';
import { showPlayerRatings } from './ratings.js';

/** @typedef {import('../app.js').Session} Session */
/** @typedef {import('../lib/protocol.js').PlayerProfile} PlayerProfile */
/** @typedef {import('../lib/protocol.js').PlayerMatch} PlayerMatch */
/** @typedef {import('../lib/protocol.js').MatchPage} MatchPage */

/** Matches on one page of the list. */
const PAGE_SIZE = 10;
const RULESETS = ['hexdice', 'capitals', 'classic'];
const RESULTS = ['won', 'lost', 'playing'];

/** A failure in the reader's language. @param {unknown} error */
function problemText(error) {
  return error instanceof api.ApiError ? refusalText(error) : String(/** @type {Error} */ (error).message ?? error);
}

/**
 * @param {Session} session
 * @param {string} playerId
 * @param {(name: string) => void} onRenamed called after the bearer renamed themselves
 * @returns {{element: HTMLElement, dispose: () => void}}
 */
export function playerScreen(session, playerId, onRenamed) {
  const own = session.guest?.id === playerId;
  const heading = h('div', { class: 'player-heading' }, h('p', { class: 'muted' }, t('loading')));
  const records = h('div', { class: 'records', 'data-testid': 'records' });
  const ratings = h('div', { class: 'ratings', 'data-testid': 'ratings' });
  const list = h('div', { class: 'player-matches', 'data-testid': 'player-matches' });
  const element = h(
    'section',
    { class: 'screen player-page', 'data-player': playerId },
    h('a', { href: '#/', class: 'back' }, `← ${t('lobby')}`),
    heading,
    own
      ? ownSettings(session, (name) => {
          const shown = heading.querySelector('[data-testid=player-name]');
          if (shown) shown.textContent = name;
          onRenamed(name);
        })
      : null,
    h('h3', {}, t('record')),
    records,
    h('h3', {}, t('ratings_heading')),
    ratings,
    h('h3', {}, t('matches_heading')),
    matchList(session, playerId, list),
  );
  let stopped = false;
  showPlayerRatings(ratings, playerId, () => stopped);

  api
    .player(playerId)
    .then((profile) => {
      if (stopped) return;
      replaceChildren(
        heading,
        h('h2', { 'data-testid': 'player-name' }, profile.name),
        h('p', { class: 'muted' }, t('player_since', { date: new Date(profile.created_at).toLocaleDateString() })),
      );
      replaceChildren(records, recordTable(profile));
    })
    .catch((error) => {
      if (!stopped) replaceChildren(heading, h('p', { class: 'problem' }, problemText(error)));
    });

  return {
    element,
    dispose: () => {
      stopped = true;
    },
  };
}

/** @param {PlayerProfile} profile */
function recordTable(profile) {
  if (profile.records.length === 0) return h('p', { class: 'muted' }, t('no_records'));
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'record-table' },
      h(
        'thead',
        {},
        h('tr', {}, h('th', {}, t('ruleset')), h('th', {}, t('record_played')), h('th', {}, t('record_won')), h('th', {}, t('record_lost')), h('th', {}, t('record_playing'))),
      ),
      h(
        'tbody',
        {},
        profile.records.map((record) =>
          h(
            'tr',
            { 'data-ruleset': record.ruleset },
            h('td', {}, rulesetName(record.ruleset)),
            h('td', {}, record.played),
            h('td', { class: 'won' }, record.won),
            h('td', {}, record.lost),
            h('td', {}, record.playing),
          ),
        ),
      ),
    ),
  );
}

/**
 * The filterable, paginated match list; fills `list` and returns the whole block.
 * @param {Session} session
 * @param {string} playerId
 * @param {HTMLElement} list
 */
function matchList(session, playerId, list) {
  const rulesetSelect = h(
    'select',
    { 'aria-label': t('ruleset'), 'data-testid': 'filter-ruleset' },
    h('option', { value: '' }, t('filter_all_rulesets')),
    RULESETS.map((id) => h('option', { value: id }, rulesetName(id))),
  );
  const resultSelect = h(
    'select',
    { 'aria-label': t('filter_result'), 'data-testid': 'filter-result' },
    h('option', { value: '' }, t('filter_all_results')),
    RESULTS.map((result) => h('option', { value: result }, tMaybe(`result_${result}`) ?? result)),
  );
  const pager = h('div', { class: 'pager' });
  /** Cursors of the pages before the one shown (`''`: the first page). @type {string[]} */
  let previous = [];
  /** @type {string} */
  let cursor = '';

  async function load() {
    /** @type {Record<string, string>} */
    const query = { limit: String(PAGE_SIZE) };
    if (rulesetSelect.value) query.ruleset = rulesetSelect.value;
    if (resultSelect.value) query.result = resultSelect.value;
    if (cursor) query.before = cursor;
    try {
      const page = await api.playerMatches(playerId, query, session.guest?.token ?? null);
      show(page);
    } catch (error) {
      replaceChildren(list, h('p', { class: 'problem' }, problemText(error)));
    }
  }

  /** @param {MatchPage} page */
  function show(page) {
    replaceChildren(
      list,
      page.matches.length === 0
        ? h('p', { class: 'muted' }, t('no_records'))
        : h('ul', { class: 'plain' }, page.matches.map((entry) => matchRow(entry))),
    );
    const newer = h('button', { 'data-testid': 'newer', disabled: previous.length === 0 }, `← ${t('newer')}`);
    const older = h('button', { 'data-testid': 'older', disabled: page.next === null }, `${t('older')} →`);
    newer.addEventListener('click', () => {
      cursor = previous.pop() ?? '';
      load();
    });
    older.addEventListener('click', () => {
      if (page.next === null) return;
      previous.push(cursor);
      cursor = page.next;
      load();
    });
    replaceChildren(pager, newer, h('span', { class: 'muted', 'data-testid': 'match-total' }, t('match_count', { n: page.total })), older);
  }

  const restart = () => {
    previous = [];
    cursor = '';
    load();
  };
  rulesetSelect.addEventListener('change', restart);
  resultSelect.addEventListener('change', restart);
  load();
  return h('div', {}, h('div', { class: 'inline filters' }, rulesetSelect, resultSelect), list, pager);
}

/** @param {PlayerMatch} entry */
function matchRow(entry) {
  const summary = entry.match;
  const others = summary.seats.filter((seat) => seat.seat !== entry.seat).map((seat) => seat.player?.name ?? '?');
  const when = summary.finished_at ?? summary.started_at;
  const link =
    summary.state === 'finished'
      ? h('a', { href: replayLink(summary.id), 'data-match': summary.id }, t('open_replay'))
      : h('a', { href: roomLink(summary.room_id, null), 'data-match': summary.id }, t('watch'));
  return h(
    'li',
    { class: 'player-match', 'data-result': entry.result },
    h('span', { class: 'ruleset-tag' }, rulesetName(summary.ruleset)),
    h('span', {}, ` ${t('against', { names: others.join(', ') })} `),
    h('span', { class: `result ${entry.result}` }, tMaybe(`result_${entry.result}`) ?? entry.result),
    h('span', { class: 'muted' }, ` ${new Date(when).toLocaleString()} `),
    link,
  );
}

/**
 * Rename and recovery, on one's own page.
 * @param {Session} session
 * @param {(name: string) => void} onRenamed
 */
function ownSettings(session, onRenamed) {
  const nameInput = h('input', { id: 'rename-input', maxlength: 24, value: session.guest?.name ?? '', 'aria-label': t('your_name') });
  const renameProblem = h('p', { class: 'problem', role: 'alert' });
  const renameForm = h(
    'form',
    { class: 'inline', 'data-testid': 'rename' },
    h('label', { for: 'rename-input' }, t('your_name')),
    nameInput,
    h('button', { type: 'submit' }, t('rename_submit')),
  );
  renameForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    renameProblem.textContent = '';
    if (!session.guest) return;
    try {
      session.guest = await identity.rename(session.guest, nameInput.value);
      toast(t('renamed', { name: session.guest.name }));
      onRenamed(session.guest.name);
    } catch (error) {
      renameProblem.textContent = error instanceof api.ApiError && error.code === 'invalid_name' ? t('invalid_name') : problemText(error);
    }
  });

  const recoveryBox = h('div', { 'data-testid': 'recovery' });
  const makeButton = h('button', { 'data-testid': 'make-recovery' }, t('recovery_make'));
  makeButton.addEventListener('click', async () => {
    if (!session.guest) return;
    try {
      const made = await api.newRecoveryCode(session.guest.token);
      const link = `${location.origin}${location.pathname}${recoverLink(made.code)}`;
      replaceChildren(
        recoveryBox,
        h('p', {}, t('recovery_shown')),
        h('p', { class: 'recovery-code', 'data-testid': 'recovery-code' }, made.code),
        h('p', {}, t('recovery_link')),
        h('input', { readonly: true, value: link, 'data-testid': 'recovery-link', 'aria-label': t('recovery_link') }),
      );
    } catch (error) {
      replaceChildren(recoveryBox, h('p', { class: 'problem' }, problemText(error)));
    }
  });
  if (session.guest) {
    api
      .me(session.guest.token)
      .then((me) => {
        if (me.recovery_created_at && recoveryBox.childElementCount === 0) {
          replaceChildren(recoveryBox, h('p', { class: 'muted' }, t('recovery_made_at', { date: new Date(me.recovery_created_at).toLocaleString() })));
        }
      })
      .catch(() => {});
  }
  return h(
    'div',
    { class: 'card own-settings' },
    renameForm,
    renameProblem,
    h('h3', {}, t('recovery_heading')),
    h('p', { class: 'muted' }, t('recovery_text')),
    makeButton,
    recoveryBox,
  );
}
