//! The hexdice play UI (RULES.md "hexdice"; JSON of engine/src/hexdice/{action,event,view}.rs):
//! placing dice, single and combined attacks with the choice of roll, conquest, the move.

import { h, s } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { dieFace, neighboursOf } from '../lib/board.js';
import { seatColor, NEUTRAL } from '../lib/colors.js';
import { withRemaining } from '../views/options.js';

/** @typedef {import('./types.js').RulesetUi} RulesetUi */
/** @typedef {import('./types.js').PlayState} PlayState */
/** @typedef {import('./types.js').Frame} Frame */
/** @typedef {{owner: number, value: number}} Die */

const SIZES = [8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36];

/** @param {any} event @param {string[]} names */
function describe(event, names) {
  const name = (/** @type {number} */ seat) => names[seat] ?? `#${seat}`;
  switch (event.type) {
    case 'setup_rolled':
      return t('hd_setup_rolled', { name: name(event.seat), dice: event.dice.join(' ') });
    case 'setup_rerolled':
      return t('hd_setup_rerolled');
    case 'occupation_starter':
      return t('hd_occupation_starter', { name: name(event.seat) });
    case 'placed':
      return t('hd_placed', { name: name(event.seat), value: event.value, cell: event.cell });
    case 'occupation_ended':
      return t('hd_occupation_ended', {
        a: event.reserves[0].join('+'),
        b: event.reserves[1].join('+'),
        first: name(event.first_turn),
      });
    case 'turn_started':
      return t('hd_turn_started', { turn: event.turn, name: name(event.seat) });
    case 'could_not_attack':
      return t('hd_could_not_attack', { name: name(event.seat) });
    case 'attack_rolled':
      return t('hd_attack_rolled', { name: name(event.seat), from: event.from, target: event.target, roll: event.roll });
    case 'combined_attack_rolled':
      return t('hd_combined_rolled', {
        name: name(event.seat),
        a: event.attackers[0],
        b: event.attackers[1],
        target: event.target,
        r1: event.rolls[0],
        r2: event.rolls[1],
      });
    case 'attack_resolved':
      return event.result === 'valid'
        ? t('hd_resolved_valid', { roll: event.roll, attacker: event.attacker_value, defender: event.defender_value })
        : event.result === 'perfect'
          ? t('hd_resolved_perfect', { roll: event.roll, defender: event.defender_value })
          : t('hd_resolved_failed', { roll: event.roll, attacker: event.attacker_value });
    case 'die_removed':
      return t('hd_die_removed', { name: name(event.seat), cell: event.cell });
    case 'conquered':
      return t('hd_conquered', { name: name(event.seat), to: event.to });
    case 'stayed_put':
      return t('hd_stayed_put', { name: name(event.seat), cell: event.cell });
    case 'moved':
      return t('hd_moved', { name: name(event.seat), from: event.from, to: event.to });
    case 'move_skipped':
      return t('hd_move_skipped', { name: name(event.seat) });
    case 'game_over':
      return t('hd_game_over', {
        name: name(event.winner),
        why: t(event.decided_by === 'more_dice' ? 'hd_by_more_dice' : event.decided_by === 'higher_pip_sum' ? 'hd_by_pips' : 'hd_by_tiebreak'),
        d0: event.dice[0],
        d1: event.dice[1],
        p0: event.pips[0],
        p1: event.pips[1],
      });
    default:
      return null;
  }
}

/** @param {any} event @param {string[]} names @returns {import('./types.js').DiceRoll[]} */
function dice(event, names) {
  switch (event.type) {
    case 'setup_rolled':
      return [{ label: names[event.seat] ?? '', dice: event.dice, seat: event.seat }];
    case 'attack_rolled':
      return [{ label: t('hd_roll'), dice: [event.roll], seat: event.seat }];
    case 'combined_attack_rolled':
      return [{ label: t('hd_rolls'), dice: event.rolls, seat: event.seat }];
    default:
      return [];
  }
}

/** @type {RulesetUi} */
export const hexdice = {
  id: 'hexdice',
  fields: (defaults) =>
    withRemaining(defaults, [
      {
        key: 'board',
        kind: 'preset',
        presets: [
          { label: t('hd_layout_small'), value: { layout: 'small' } },
          { label: t('hd_layout_medium'), value: { layout: 'medium' } },
          { label: t('hd_layout_full'), value: { layout: 'full' } },
          ...SIZES.map((cells) => ({ label: t('hd_layout_random', { cells }), value: { random: { cells } } })),
        ],
      },
      { key: 'combined_attack_sources', kind: 'select', values: ['adjacent', 'not_adjacent'] },
      { key: 'conquest', kind: 'select', values: ['mandatory', 'optional'] },
      { key: 'last_tiebreak', kind: 'select', values: ['first_turn', 'occupation_starter'] },
    ]),
  controller,
  describe,
  dice,
  advance: (view, events) => advance(view, events),
  seatSummary: (view, seat) => {
    const player = view.players?.[seat];
    if (!player) return '';
    if (player.unplaced.length > 0) return t('hd_summary_unplaced', { dice: player.dice_on_board, left: player.unplaced.length });
    return t('hd_summary', { dice: player.dice_on_board, pips: player.pips_on_board, reserve: player.reserve.join(' ') || '–' });
  },
};

/** @param {import('./types.js').PlayContext} ctx @returns {import('./types.js').Controller} */
function controller(ctx) {
  /** Selected own dice (cells): one for a single attack or a move, two for a combined attack. */
  /** @type {number[]} */
  let selected = [];
  /** The face chosen to place during the occupation. @type {number | null} */
  let placeValue = null;

  /** @param {PlayState} state */
  function analyse(state) {
    const view = state.view;
    /** @type {(Die | null)[]} */
    const cells = view.cells;
    const neighbours = neighboursOf(view.board.regions);
    const me = state.seat;
    const around = (/** @type {number} */ cell) => [...(neighbours.get(cell) ?? [])];
    const mine = (/** @type {number} */ cell) => cells[cell]?.owner === me;
    const enemy = (/** @type {number} */ cell) => cells[cell] !== null && cells[cell] !== undefined && cells[cell]?.owner !== me;
    const empty = (/** @type {number} */ cell) => cells[cell] === null;
    const enemiesOf = (/** @type {number} */ cell) => around(cell).filter(enemy);
    const partnersOk = (/** @type {number} */ a, /** @type {number} */ b) => {
      const touching = neighbours.get(a)?.has(b) ?? false;
      return view.options.combined_attack_sources === 'not_adjacent' ? !touching : touching;
    };
    return { view, cells, around, mine, enemy, empty, enemiesOf, partnersOk };
  }

  /** @param {PlayState} state @returns {Set<number>} the cells a click can act on now */
  function targets(state) {
    const a = analyse(state);
    const phase = a.view.phase;
    const result = new Set();
    if (!state.interactive) return result;
    if (phase.phase === 'occupation') {
      a.cells.forEach((die, cell) => die === null && result.add(cell));
    } else if (phase.phase === 'attack') {
      if (selected.length === 1) a.enemiesOf(selected[0]).forEach((cell) => result.add(cell));
      if (selected.length === 2) {
        const second = new Set(a.enemiesOf(selected[1]));
        a.enemiesOf(selected[0]).filter((cell) => second.has(cell)).forEach((cell) => result.add(cell));
      }
    } else if (phase.phase === 'move' && selected.length === 1) {
      a.around(selected[0]).filter(a.empty).forEach((cell) => result.add(cell));
    }
    return result;
  }

  /** @param {PlayState} state @returns {Set<number>} own dice that can be picked now */
  function pickable(state) {
    const a = analyse(state);
    const phase = a.view.phase;
    const result = new Set();
    if (!state.interactive) return result;
    a.cells.forEach((_, cell) => {
      if (!a.mine(cell)) return;
      if (phase.phase === 'attack' && a.enemiesOf(cell).length > 0) result.add(cell);
      if (phase.phase === 'move' && phase.conqueror !== cell && a.enemiesOf(cell).length === 0 && a.around(cell).some(a.empty)) {
        result.add(cell);
      }
    });
    return result;
  }

  return {
    reset() {
      selected = [];
    },

    click(cell, state) {
      if (!state.interactive) return;
      const a = analyse(state);
      const phase = a.view.phase;
      if (phase.phase === 'occupation') {
        const value = placeValue !== null && a.view.players[state.seat ?? 0].unplaced.includes(placeValue)
          ? placeValue
          : a.view.players[state.seat ?? 0].unplaced[0];
        if (a.empty(cell) && value !== undefined) ctx.act({ type: 'place', cell, value });
        return;
      }
      if (targets(state).has(cell)) {
        if (phase.phase === 'attack' && selected.length === 1) ctx.act({ type: 'attack', from: selected[0], target: cell });
        else if (phase.phase === 'attack' && selected.length === 2) ctx.act({ type: 'combined_attack', attackers: [selected[0], selected[1]], target: cell });
        else if (phase.phase === 'move') ctx.act({ type: 'move', from: selected[0], to: cell });
        return;
      }
      if (selected.includes(cell)) {
        selected = selected.filter((other) => other !== cell);
      } else if (pickable(state).has(cell)) {
        const first = selected[0];
        const canPair =
          phase.phase === 'attack' &&
          selected.length === 1 &&
          a.partnersOk(first, cell) &&
          a.enemiesOf(first).some((enemy) => a.enemiesOf(cell).includes(enemy));
        selected = canPair ? [first, cell] : [cell];
      } else {
        selected = [];
      }
      ctx.rerender();
    },

    frame(state) {
      const a = analyse(state);
      const phase = a.view.phase;
      const hits = targets(state);
      const picks = pickable(state);
      const recent = recentCells(state.lastEvents);
      const choosing = phase.phase === 'choose_attack' ? [...phase.attackers, phase.target] : [];
      /** @type {Frame['decorate']} */
      const decorate = (cell) => {
        const die = a.cells[cell];
        const classes = [];
        if (selected.includes(cell) || choosing.includes(cell)) classes.push('selected');
        if (hits.has(cell)) classes.push('target', 'clickable');
        if (picks.has(cell)) classes.push('clickable');
        if (recent.has(cell)) classes.push('recent');
        return {
          fill: die ? seatColor(die.owner) : NEUTRAL,
          classes,
          label: cellLabel(cell, die),
          title: die ? `#${cell}: ${die.value}` : `#${cell}`,
        };
      };
      return {
        decorate,
        arrows: arrowsOf(state.lastEvents),
        controls: state.interactive ? controls(state, a) : [],
        prompt: state.interactive ? promptOf(phase.phase) : null,
      };
    },
  };

  /**
   * @param {PlayState} state
   * @param {ReturnType<typeof analyse>} a
   * @returns {Node[]}
   */
  function controls(state, a) {
    const phase = a.view.phase;
    if (phase.phase === 'occupation') {
      const unplaced = /** @type {number[]} */ (a.view.players[state.seat ?? 0].unplaced);
      if (placeValue === null || !unplaced.includes(placeValue)) placeValue = unplaced[0] ?? null;
      const faces = [...new Set(unplaced)];
      return [
        h('p', { class: 'hint' }, t('hd_pick_value')),
        h(
          'div',
          { class: 'choice-group' },
          faces.map((value) =>
            h(
              'button',
              {
                class: `die-button ${value === placeValue ? 'primary' : ''}`,
                'data-value': value,
                'aria-pressed': String(value === placeValue),
                onclick: () => {
                  placeValue = value;
                  ctx.rerender();
                },
              },
              dieIcon(value),
              ` ×${unplaced.filter((face) => face === value).length}`,
            ),
          ),
        ),
      ];
    }
    if (phase.phase === 'attack') {
      return [
        h('p', { class: 'hint' }, selected.length === 2 ? t('hd_hint_combined') : t('hd_hint_attack')),
        selected.length > 0 ? h('button', { onclick: () => ((selected = []), ctx.rerender()) }, t('cancel')) : null,
      ].filter((node) => node !== null);
    }
    if (phase.phase === 'choose_attack') {
      /** @type {[number, number][]} */
      const pairs = [];
      for (const attacker of phase.attackers) for (const roll of phase.rolls) pairs.push([attacker, roll]);
      const unique = pairs.filter(([cell, roll], index) => pairs.findIndex(([c, r]) => c === cell && r === roll) === index);
      const fails = (/** @type {[number, number]} */ [cell, roll]) => roll > (a.cells[cell]?.value ?? 0);
      const anyGood = unique.some((pair) => !fails(pair));
      return [
        h('p', { class: 'hint' }, t('hd_hint_choose')),
        h(
          'div',
          { class: 'choice-group' },
          unique.map(([cell, roll]) => {
            const value = a.cells[cell]?.value ?? 0;
            const outcome = roll < value ? 'hd_outcome_valid' : roll === value ? 'hd_outcome_perfect' : 'hd_outcome_failed';
            return h(
              'button',
              {
                class: 'choice',
                'data-attacker': cell,
                'data-roll': roll,
                disabled: anyGood && fails([cell, roll]),
                onclick: () => ctx.act({ type: 'choose_attack', attacker: cell, roll }),
              },
              `${t('hd_cell', { cell })} `,
              dieIcon(value),
              ' ← ',
              dieIcon(roll),
              ` ${t(outcome)}`,
            );
          }),
        ),
      ];
    }
    if (phase.phase === 'conquest') {
      return [
        h('p', { class: 'hint' }, t('hd_hint_conquest')),
        h('button', { class: 'primary', 'data-action': 'move-in', onclick: () => ctx.act({ type: 'conquer', move_in: true }) }, t('hd_move_in')),
        h('button', { 'data-action': 'stay', onclick: () => ctx.act({ type: 'conquer', move_in: false }) }, t('hd_stay')),
      ];
    }
    if (phase.phase === 'move') {
      return [
        h('p', { class: 'hint' }, t('hd_hint_move')),
        h('button', { class: 'primary', 'data-action': 'end-turn', onclick: () => ctx.act({ type: 'end_turn' }) }, t('end_turn')),
      ];
    }
    return [];
  }
}

/** @param {string} phase */
function promptOf(phase) {
  switch (phase) {
    case 'occupation':
      return t('hd_prompt_place');
    case 'attack':
      return t('hd_prompt_attack');
    case 'choose_attack':
      return t('hd_prompt_choose');
    case 'conquest':
      return t('hd_prompt_conquest');
    case 'move':
      return t('hd_prompt_move');
    default:
      return null;
  }
}

/**
 * A cell's die face (if any) with the cell's number, which the event log names.
 * @param {number} cell @param {Die | null | undefined} die
 */
function cellLabel(cell, die) {
  const group = s('g', {});
  if (die) group.append(dieFace(die.value, { size: 9.5 }));
  group.append(s('text', { class: 'cell-number', x: 0, y: -6.4, 'text-anchor': 'middle' }, cell));
  return group;
}

/** A small die face for buttons. @param {number} value */
function dieIcon(value) {
  const svg = s('svg', { viewBox: '-6 -6 12 12', class: 'die-icon inline' });
  svg.append(dieFace(value, { size: 10 }));
  return svg;
}

/** Cells touched by the last action, to show what changed. @param {any[]} events */
function recentCells(events) {
  const cells = new Set();
  for (const event of events) {
    for (const key of ['cell', 'from', 'to', 'target']) if (typeof event[key] === 'number') cells.add(event[key]);
  }
  return cells;
}

/** The last attack or move as an arrow. @param {any[]} events */
function arrowsOf(events) {
  /** @type {import('../lib/board.js').Arrow[]} */
  const arrows = [];
  for (const event of events) {
    if (event.type === 'attack_resolved') arrows.push({ from: event.from, to: event.target, kind: 'attack' });
    if (event.type === 'combined_attack_rolled' && !events.some((e) => e.type === 'attack_resolved')) {
      for (const from of event.attackers) arrows.push({ from, to: event.target, kind: 'attack' });
    }
    if (event.type === 'moved') arrows.push({ from: event.from, to: event.to, kind: 'move' });
  }
  return arrows;
}

/**
 * The view after `events` (engine/src/hexdice/event.rs), for replay steps sent without a view.
 * @param {any} view @param {any[]} events
 */
export function advance(view, events) {
  // The board never changes: share it rather than copy it.
  const next = { ...structuredClone({ ...view, board: null }), board: view.board };
  /** @type {(Die | null)[]} */
  const cells = next.cells;
  for (const event of events) {
    switch (event.type) {
      case 'placed': {
        cells[event.cell] = { owner: event.seat, value: event.value };
        const unplaced = next.players[event.seat].unplaced;
        const index = unplaced.indexOf(event.value);
        if (index >= 0) unplaced.splice(index, 1);
        break;
      }
      case 'occupation_ended':
        next.players.forEach((/** @type {any} */ player, /** @type {number} */ seat) => {
          player.reserve = [...event.reserves[seat]];
          player.unplaced = [];
        });
        next.first_turn = event.first_turn;
        break;
      case 'turn_started':
        next.turn = event.turn;
        next.phase = { phase: 'attack', seat: event.seat };
        break;
      case 'attack_resolved': {
        const before = cells[event.from]?.value ?? 0;
        if (event.result === 'valid') {
          // The rolled die replaces the attacker, whose old die goes back to the reserve (H-ATK-2).
          const reserve = next.players[event.seat].reserve;
          const index = reserve.indexOf(event.roll);
          if (index >= 0) reserve.splice(index, 1, before);
        }
        const from = cells[event.from];
        const target = cells[event.target];
        if (from) from.value = event.attacker_value;
        if (target) target.value = event.defender_value;
        break;
      }
      case 'die_removed':
        cells[event.cell] = null;
        break;
      case 'conquered':
      case 'moved':
        cells[event.to] = cells[event.from];
        cells[event.from] = null;
        break;
      case 'game_over':
        next.phase = { phase: 'over', winner: event.winner, cause: event.cause, decided_by: event.decided_by };
        break;
      default:
        break;
    }
  }
  next.players.forEach((/** @type {any} */ player, /** @type {number} */ seat) => {
    const own = cells.filter((die) => die && die.owner === seat);
    player.dice_on_board = own.length;
    player.pips_on_board = own.reduce((sum, die) => sum + (die?.value ?? 0), 0);
  });
  return next;
}
