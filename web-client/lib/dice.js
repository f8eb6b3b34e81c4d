//! Dice as pictures with words: a d6 is a square face with pips, a d8 an octagon with its number;
//! a die that counts for less than it shows is marked with what it counts as; totals and the
//! pairs compared in a battle are spelled out. New rolls tumble briefly unless the reader asked
//! for reduced motion (style.css).

import { h, s } from './dom.js';
import { t } from './i18n.js';
import { dieFace } from './board.js';
import { seatColor, seatInk } from './colors.js';

/**
 * @typedef {import('../rulesets/types.js').DiceRoll} DiceRoll
 */

/**
 * One die as a small picture with a text alternative.
 * @param {number} value
 * @param {{kind?: string, seat?: number | null, cap?: number}} [options]
 */
export function dieIcon(value, { kind = 'd6', seat, cap } = {}) {
  const colored = seat !== undefined && seat !== null;
  const fill = colored ? seatColor(seat) : '#fffdf7';
  const ink = colored ? seatInk(seat) : '#1d2330';
  const svg = s('svg', { viewBox: '-6 -6 12 12', class: `die-icon ${kind}`, 'data-die': value, 'data-kind': kind, 'aria-hidden': 'true' });
  if (kind === 'd8') {
    const points = [0, 1, 2, 3, 4, 5, 6, 7]
      .map((i) => {
        const angle = (Math.PI / 4) * i + Math.PI / 8;
        return `${(5.4 * Math.cos(angle)).toFixed(2)},${(5.4 * Math.sin(angle)).toFixed(2)}`;
      })
      .join(' ');
    svg.append(
      s('polygon', { points, fill, stroke: '#1d2330', 'stroke-width': 0.6 }),
      s('text', { y: 2.4, 'font-size': 6.5, 'text-anchor': 'middle', fill: ink, 'font-weight': 700 }, value),
    );
  } else {
    svg.append(dieFace(value, { size: 10, color: fill, pip: ink }));
  }
  const label = cap !== undefined && cap < value
    ? t('die_capped_alt', { kind: kind.toUpperCase(), value, cap })
    : t('die_alt', { kind: kind.toUpperCase(), value });
  const wrapper = h('span', { class: 'die-wrap', role: 'img', 'aria-label': label, title: label }, svg);
  if (cap !== undefined && cap < value) wrapper.append(h('span', { class: 'capped', 'aria-hidden': 'true' }, `→${cap}`));
  return wrapper;
}

/** One row of the dice panel. @param {DiceRoll} roll */
export function diceRow(roll) {
  if (roll.pairs) {
    return h(
      'div',
      { class: 'roll pairs', 'data-testid': 'dice-pairs' },
      h('span', { class: 'roll-label' }, roll.label),
      h(
        'ul',
        { class: 'pair-list' },
        roll.pairs.map((pair) =>
          h(
            'li',
            { class: `pair ${pair.winner}`, 'data-pair': `${pair.attack}-${pair.defence}` },
            dieIcon(pair.attack, { seat: pair.attackerSeat }),
            h('span', { class: 'versus' }, pair.winner === 'attacker' ? '>' : '≤'),
            dieIcon(pair.defence, { seat: pair.defenderSeat }),
            h('span', { class: 'pair-result muted' }, pair.winner === 'attacker' ? t('pair_attacker_wins') : t('pair_defender_wins')),
          ),
        ),
      ),
    );
  }
  return h(
    'div',
    { class: 'roll' },
    h('span', { class: 'roll-label' }, roll.label),
    h(
      'span',
      { class: 'roll-dice' },
      roll.dice.map((value, index) => dieIcon(value, { kind: roll.kinds?.[index], seat: roll.seat, cap: roll.caps?.[index] })),
    ),
    roll.total !== undefined ? h('span', { class: 'roll-total', 'data-testid': 'dice-total' }, t('dice_total', { total: roll.total })) : null,
  );
}
