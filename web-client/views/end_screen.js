//! The end of a match, in a room: "You won" / "You lost" (or who won, for spectators), the final
//! standings (the winner, then the others from the last one out to the first), the match's
//! length, each seat's rating before and its change when the match was rated, the rematch (accept,
//! decline, who answered, the way to the new room) and links to the replay and to a new game.

import { h, replaceChildren } from '../lib/dom.js';
import { language, t, tMaybe } from '../lib/i18n.js';
import * as api from '../lib/api.js';
import { replayLink, roomLink } from '../lib/router.js';
import { outcomeReason } from './match_view.js';
import { ratingChanges } from './ratings.js';

/** @typedef {import('../lib/protocol.js').Room} Room */
/** @typedef {import('../lib/protocol.js').Rematch} Rematch */
/** @typedef {import('../lib/protocol.js').Outcome} Outcome */
/** @typedef {import('../lib/protocol.js').Replay} Replay */

/** How often, and how long apart, the end screen asks again for a rated match's rating changes
 * while the server has not stored its result yet. */
const RATINGS_TRIES = 5;
const RATINGS_RETRY_MS = 1000;

/** Event types that put a seat out of the match, in every ruleset. */
const ELIMINATION_EVENTS = new Set(['eliminated', 'player_eliminated']);

/**
 * The final standings: the winner, then the seats still in at the end, then the eliminated
 * from the last one out to the first.
 * @param {Replay} replay
 * @param {number} winner
 * @returns {number[]}
 */
export function standings(replay, winner) {
  /** @type {number[]} */
  const out = [];
  for (const action of replay.actions) {
    for (const event of action.events) {
      if (ELIMINATION_EVENTS.has(event?.type) && typeof event.seat === 'number' && !out.includes(event.seat)) out.push(event.seat);
    }
  }
  const seats = replay.seats.map((seat) => seat.seat);
  const survivors = seats.filter((seat) => seat !== winner && !out.includes(seat));
  return [winner, ...survivors, ...out.reverse()];
}

/** A clause as a sentence: capitalised, with its full stop. @param {string} text */
function sentence(text) {
  return `${text.charAt(0).toLocaleUpperCase(language())}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
}

/** A length of time in the reader's language ("12 min 5 s"). @param {number} ms */
export function formatDuration(ms) {
  const total = Math.max(0, Math.round(ms / 1000));
  const unit = (/** @type {string} */ name, /** @type {number} */ value) =>
    new Intl.NumberFormat(language(), { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${unit('hour', hours)} ${unit('minute', minutes)}`;
  if (minutes > 0) return `${unit('minute', minutes)} ${unit('second', seconds)}`;
  return unit('second', seconds);
}

export class EndScreen {
  /**
   * @param {{
   *   matchId: string, seat: number | null, outcome: Outcome, names: string[], token: string | null,
   *   invite: string | null,
   *   answer: ((accept: boolean) => void) | null,
   * }} options `answer` is null for spectators (only players answer a rematch)
   */
  constructor({ matchId, seat, outcome, names, token, invite, answer }) {
    this.seat = seat;
    this.names = names;
    this.answer = answer;
    /** My own answer, once given. @type {boolean | null} */
    this.answered = null;
    /** @type {Rematch | null} */
    this.rematch = null;
    const resigned = outcome.reason === 'opponent_resigned' && seat !== null && seat !== outcome.winner;
    const title =
      seat === null
        ? t('end_winner', { name: names[outcome.winner] ?? '?' })
        : seat === outcome.winner
          ? t('end_you_won')
          : resigned
            ? t('end_you_resigned')
            : t('end_you_lost');
    // The reason as a sentence of its own; the player who resigned reads it in the title.
    const reason = resigned ? '' : sentence(outcomeReason(outcome, seat));
    this.standingsList = h('ol', { class: 'standings', 'data-testid': 'standings' });
    this.length = h('p', { class: 'muted', 'data-testid': 'match-length' });
    this.ratings = h('div', { class: 'end-ratings' });
    this.rematchBox = h('div', { class: 'rematch', 'data-testid': 'rematch' });
    this.element = h(
      'div',
      { class: 'card end-screen', 'data-testid': 'end-screen', 'data-result': seat === null ? 'spectator' : seat === outcome.winner ? 'won' : 'lost' },
      h('h3', { class: 'end-title' }, title),
      reason ? h('p', { class: 'muted', 'data-testid': 'end-reason' }, reason) : null,
      this.standingsList,
      this.length,
      this.ratings,
      this.rematchBox,
      h(
        'p',
        { class: 'inline end-links' },
        h('a', { class: 'button', href: replayLink(matchId, invite), 'data-testid': 'end-replay' }, t('open_replay')),
        h('a', { class: 'button', href: '#/', 'data-testid': 'new-game' }, t('new_game')),
      ),
    );
    this.renderRematch();
    api
      .replay(matchId, token, invite)
      .then((replay) => {
        replaceChildren(
          this.standingsList,
          standings(replay, outcome.winner).map((standing) => h('li', { 'data-seat': standing }, names[standing] ?? '?')),
        );
      })
      .catch(() => {});
    /** @param {number} tries how many more times to ask while a rated match's result is not stored */
    const summarise = (tries) =>
      api
        .match(matchId, token, invite)
        .then((summary) => {
          if (summary.finished_at) {
            const ms = new Date(summary.finished_at).getTime() - new Date(summary.started_at).getTime();
            this.length.textContent = t('match_length', { time: formatDuration(ms) });
          }
          if (summary.rated && !summary.ratings && tries > 0 && this.element.isConnected) {
            setTimeout(() => summarise(tries - 1), RATINGS_RETRY_MS);
            return;
          }
          replaceChildren(this.ratings, ratingChanges(summary, names));
        })
        .catch(() => {});
    summarise(RATINGS_TRIES);
  }

  /** The rematch as the server last told it. @param {Rematch} rematch */
  setRematch(rematch) {
    this.rematch = rematch;
    this.renderRematch();
    if (rematch.room && this.seat !== null && rematch.accepted.includes(this.seat)) {
      // Both agreed: take this player to the new room.
      location.hash = roomLink(rematch.room, null);
    }
  }

  renderRematch() {
    const rematch = this.rematch;
    const names = (/** @type {number[]} */ seats) => seats.map((seat) => this.names[seat] ?? '?').join(', ');
    /** @type {(HTMLElement | string | null)[]} */
    const parts = [];
    if (rematch && rematch.accepted.length > 0) parts.push(h('p', { 'data-testid': 'rematch-accepted' }, t('rematch_accepted', { names: names(rematch.accepted) })));
    if (rematch && rematch.declined.length > 0) parts.push(h('p', { class: 'muted' }, t('rematch_declined', { names: names(rematch.declined) })));
    if (rematch?.room) {
      parts.push(h('a', { class: 'button primary', href: roomLink(rematch.room, null), 'data-testid': 'rematch-room' }, t('rematch_go')));
    } else if (this.answer && this.seat !== null) {
      const mine = rematch?.accepted.includes(this.seat) ? true : rematch?.declined.includes(this.seat) ? false : this.answered;
      parts.push(
        h(
          'p',
          { class: 'inline' },
          h('button', { class: 'primary', 'data-testid': 'rematch-accept', disabled: mine === true, onclick: () => this.say(true) }, t('rematch_offer')),
          h('button', { 'data-testid': 'rematch-decline', disabled: mine === false, onclick: () => this.say(false) }, t('rematch_no')),
        ),
      );
      parts.push(h('p', { class: 'muted' }, t('rematch_how')));
    }
    replaceChildren(this.rematchBox, parts);
  }

  /** @param {boolean} accept */
  say(accept) {
    this.answered = accept;
    this.answer?.(accept);
    this.renderRematch();
  }
}
