//! Ratings in words and pictures (issue 39), wherever they show: the "rated" badge of a room
//! (lobby, room header), each seat's rating before a rated match and its change (end screen,
//! replay), and on a player's page their rating per ruleset, the computer level it is nearest
//! (by the levels' reference ratings, docs/RATINGS.md), a graph of its history (inline SVG, no
//! chart library) and their record against each opponent.

import { h, s, replaceChildren } from '../lib/dom.js';
import { language, t } from '../lib/i18n.js';
import * as api from '../lib/api.js';
import { leaderboardLink, playerLink } from '../lib/router.js';
import { rulesetName } from './lobby.js';
import { refusalText } from './room.js';

/** @typedef {import('../lib/protocol.js').SeatRating} SeatRating */
/** @typedef {import('../lib/protocol.js').RulesetRating} RulesetRating */
/** @typedef {import('../lib/protocol.js').RatingPoint} RatingPoint */

/** The "rated" badge of a rated room or match; nothing for a casual one. @param {{rated: boolean}} value */
export function ratedBadge(value) {
  if (!value.rated) return null;
  return h('span', { class: 'rated-badge', title: t('rated_title'), 'data-testid': 'rated-badge' }, t('rated'));
}

/** A whole number in the reader's language. @param {number} value */
function number(value) {
  return new Intl.NumberFormat(language(), { maximumFractionDigits: 0 }).format(value);
}

/** A rating change with its sign ("+16", "−12", "0"). @param {number} change */
export function signed(change) {
  return new Intl.NumberFormat(language(), { signDisplay: 'exceptZero', maximumFractionDigits: 0 }).format(change);
}

/** "1620 ± 80". @param {number} rating @param {number} deviation */
export function ratingText(rating, deviation) {
  return t('rating_value', { rating: number(rating), deviation: number(deviation) });
}

/**
 * Each seat's rating before a rated match, its change and where it ended, as a table (the end
 * screen, the replay); null when the match was casual or its result did not count.
 * @param {{rated: boolean, ratings: SeatRating[] | null}} match a match summary or a replay
 * @param {string[]} names by seat
 */
export function ratingChanges(match, names) {
  if (!match.rated || !match.ratings || match.ratings.length === 0) return null;
  return h(
    'div',
    { class: 'rating-changes', 'data-testid': 'rating-changes' },
    h('h4', {}, t('rating_changes')),
    h(
      'table',
      { class: 'rating-table' },
      h(
        'thead',
        {},
        h('tr', {}, h('th', { scope: 'col' }, t('col_player')), h('th', { scope: 'col' }, t('col_before')), h('th', { scope: 'col' }, t('col_change')), h('th', { scope: 'col' }, t('col_after'))),
      ),
      h(
        'tbody',
        {},
        match.ratings.map((entry) =>
          h(
            'tr',
            { 'data-seat': entry.seat, 'data-change': entry.change },
            h('th', { scope: 'row' }, names[entry.seat] ?? `#${entry.seat}`),
            h('td', { class: 'number' }, number(entry.before)),
            h('td', { class: `number change ${entry.change > 0 ? 'up' : entry.change < 0 ? 'down' : ''}` }, signed(entry.change)),
            h('td', { class: 'number' }, number(entry.after)),
          ),
        ),
      ),
    ),
  );
}

/** The graph's drawing box, in SVG units (it scales to its container's width). */
const GRAPH = { width: 480, height: 160, left: 52, right: 10, top: 14, bottom: 14 };

/**
 * A rating's history as a line with one point per rated match (the line starts from the rating
 * before the first one), the lowest and highest values marked on its axis. Its title says the
 * same in words: how many matches, first and last, lowest and highest.
 * @param {RatingPoint[]} history oldest first
 * @param {string} ruleset
 * @returns {SVGElement}
 */
export function ratingGraph(history, ruleset) {
  const values = [history[0]?.before ?? 0, ...history.map((point) => point.after)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  // A flat history still gets some height, so its line sits in the middle.
  const span = Math.max(high - low, 20);
  const middle = (high + low) / 2;
  const plotWidth = GRAPH.width - GRAPH.left - GRAPH.right;
  const plotHeight = GRAPH.height - GRAPH.top - GRAPH.bottom;
  const x = (/** @type {number} */ index) => GRAPH.left + (values.length > 1 ? (index / (values.length - 1)) * plotWidth : plotWidth / 2);
  const y = (/** @type {number} */ value) => GRAPH.top + plotHeight / 2 - ((value - middle) / span) * plotHeight;
  const summary = t('rating_graph_summary', {
    n: history.length,
    ruleset: rulesetName(ruleset),
    first: number(values[0]),
    last: number(values[values.length - 1]),
    min: number(low),
    max: number(high),
  });
  const titleId = `rating-graph-${ruleset}`;
  const round = (/** @type {number} */ value) => Math.round(value * 10) / 10;
  return s(
    'svg',
    {
      class: 'rating-graph',
      viewBox: `0 0 ${GRAPH.width} ${GRAPH.height}`,
      role: 'img',
      'aria-labelledby': titleId,
      'data-testid': 'rating-graph',
      'data-points': history.length,
    },
    s('title', { id: titleId }, summary),
    [high, low].map((value) =>
      s(
        'g',
        { class: 'axis' },
        s('line', { x1: GRAPH.left, x2: GRAPH.width - GRAPH.right, y1: round(y(value)), y2: round(y(value)) }),
        s('text', { x: GRAPH.left - 6, y: round(y(value)), 'text-anchor': 'end', 'dominant-baseline': 'middle' }, number(value)),
      ),
    ),
    s('polyline', { class: 'line', points: values.map((value, index) => `${round(x(index))},${round(y(value))}`).join(' ') }),
    history.map((point, index) =>
      s(
        'circle',
        { class: `point ${point.change > 0 ? 'up' : point.change < 0 ? 'down' : ''}`, cx: round(x(index + 1)), cy: round(y(point.after)), r: 3.5, 'data-match': point.match_id },
        s('title', {}, t('rating_point', { date: new Date(point.finished_at).toLocaleDateString(language()), rating: number(point.after), change: signed(point.change) })),
      ),
    ),
  );
}

/**
 * A player's ratings, one card per ruleset they have one in: the rating and its uncertainty,
 * their rank (or "provisional"), how many rated matches, the graph of its history and their
 * record against each opponent. Fills `box`.
 * @param {HTMLElement} box
 * @param {string} playerId
 * @param {() => boolean} stopped true once the screen is gone
 */
export async function showPlayerRatings(box, playerId, stopped) {
  replaceChildren(box, h('p', { class: 'muted' }, t('loading')));
  try {
    const found = await api.playerRatings(playerId);
    if (stopped()) return;
    replaceChildren(
      box,
      found.ratings.length === 0
        ? h('p', { class: 'muted', 'data-testid': 'no-ratings' }, t('no_ratings'))
        : found.ratings.map(rulesetRatingCard),
    );
  } catch (error) {
    if (stopped()) return;
    replaceChildren(box, h('p', { class: 'problem' }, error instanceof api.ApiError ? refusalText(error) : String(error)));
  }
}

/** @param {RulesetRating} rating */
function rulesetRatingCard(rating) {
  return h(
    'section',
    { class: 'card rating-card', 'data-ruleset': rating.ruleset, 'data-testid': 'rating-card' },
    h('h4', {}, rulesetName(rating.ruleset)),
    h(
      'p',
      { class: 'rating-line' },
      h('strong', { class: 'rating-number', 'data-testid': 'rating' }, ratingText(rating.rating, rating.deviation)),
      ' ',
      h(
        'span',
        { class: 'muted' },
        rating.provisional || rating.rank === null ? t('rating_provisional') : t('rating_rank', { rank: number(rating.rank) }),
        ' · ',
        t('rated_matches', { n: rating.matches }),
      ),
    ),
    h('p', { class: 'muted about-level', 'data-testid': 'about-level', 'data-level': rating.about_as_strong_as }, t('rating_about_level', { level: t(`bot_level_${rating.about_as_strong_as}`) })),
    rating.history.length > 0 ? ratingGraph(rating.history, rating.ruleset) : null,
    h('a', { href: leaderboardLink(rating.ruleset, { provisional: rating.provisional }) }, t('leaderboard_link')),
    rating.opponents.length > 0 ? opponentTable(rating) : null,
  );
}

/** The record against each opponent in one ruleset's rated matches. @param {RulesetRating} rating */
function opponentTable(rating) {
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'record-table opponents', 'data-testid': 'opponents' },
      h('caption', {}, t('opponents_heading')),
      h(
        'thead',
        {},
        h('tr', {}, h('th', { scope: 'col' }, t('col_opponent')), h('th', { scope: 'col' }, t('record_played')), h('th', { scope: 'col' }, t('record_won')), h('th', { scope: 'col' }, t('record_lost'))),
      ),
      h(
        'tbody',
        {},
        rating.opponents.map((opponent) =>
          h(
            'tr',
            { 'data-player': opponent.player.id },
            h('th', { scope: 'row' }, h('a', { href: playerLink(opponent.player.id) }, opponent.player.name)),
            h('td', { class: 'number' }, number(opponent.played)),
            h('td', { class: 'number won' }, number(opponent.won)),
            h('td', { class: 'number' }, number(opponent.lost)),
          ),
        ),
      ),
    ),
  );
}
