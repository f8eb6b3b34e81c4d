//! The hexdice play UI (RULES.md "hexdice"; JSON of engine/src/hexdice/{action,event,view}.rs):
//! placing dice, single and combined attacks with the choice of roll, conquest, the move. What
//! can be clicked comes from the server's `legal` (complete for hexdice), so the marks on
//! the board are exactly what the server accepts.

import { h, s } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { dieFace, seatMark } from '../lib/board.js';
import { dieIcon } from '../lib/dice.js';
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
      return t('hd_setup_rolled', { name: name(event.seat), dice: [...event.dice].sort((a, b) => b - a).join(' ') });
    case 'setup_rerolled':
      return t('hd_setup_rerolled');
    case 'occupation_starter':
      return t('hd_occupation_starter', { name: name(event.seat) });
    case 'placed':
      return t('hd_placed', { name: name(event.seat), value: event.value, cell: event.cell });
    case 'occupation_ended':
      return t('hd_occupation_ended', {
        a: `${event.reserves[0].join('+')} = ${event.reserves[0][0] + event.reserves[0][1]}`,
        b: `${event.reserves[1].join('+')} = ${event.reserves[1][0] + event.reserves[1][1]}`,
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
      return [{ label: names[event.seat] ?? '', dice: [...event.dice].sort((a, b) => b - a), seat: event.seat }];
    case 'attack_rolled':
      return [{ label: t('hd_roll'), dice: [event.roll], seat: event.seat }];
    case 'combined_attack_rolled':
      return [{ label: t('hd_rolls'), dice: event.rolls, seat: event.seat }];
    case 'occupation_ended':
      return event.reserves.map((/** @type {number[]} */ reserve, /** @type {number} */ seat) => ({
        label: t('hd_reserve_of', { name: names[seat] ?? '' }),
        dice: reserve,
        seat,
        total: reserve[0] + reserve[1],
      }));
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
          ...SIZES.map((cells) => ({ label: t('hd_layout_random', { n: cells }), value: { random: { cells } } })),
        ],
      },
      { key: 'combined_attack_sources', kind: 'select', values: ['adjacent', 'not_adjacent'] },
      { key: 'conquest', kind: 'select', values: ['mandatory', 'optional'] },
      { key: 'last_tiebreak', kind: 'select', values: ['first_turn', 'occupation_starter'] },
    ]),
  controller,
  describe,
  dice,
  seatSummary: (view, seat) => {
    const player = view.players?.[seat];
    if (!player) return '';
    if (player.unplaced.length > 0) {
      return `${t('hd_placed_count', { n: player.dice_on_board })} · ${t('hd_to_place', { n: player.unplaced.length })}`;
    }
    return `${t('dice_count', { n: player.dice_on_board })} · ${t('pips_count', { n: player.pips_on_board })}`;
  },
  paramText: (name, value) => (['cell', 'from', 'to'].includes(name) ? t('hd_cell', { cell: value }) : value),
};

/** The listed actions of one type. @param {PlayState} state @param {string} type @returns {any[]} */
function listed(state, type) {
  return state.interactive && state.legal ? state.legal.filter((action) => action?.type === type) : [];
}

/** @param {import('./types.js').PlayContext} ctx @returns {import('./types.js').Controller} */
function controller(ctx) {
  /** Selected own dice (cells): one for a single attack or a move, two for a combined attack. */
  /** @type {number[]} */
  let selected = [];
  /** The face chosen to place during the occupation. @type {number | null} */
  let placeValue = null;

  /**
   * What a click can do now, from the listed actions: the dice that can start an action
   * (`sources`) and, for the current selection, the cells that complete one (`targets`, with
   * the action each sends) and the dice that can join a combined attack (`partners`).
   * @param {PlayState} state
   */
  function analyse(state) {
    const phase = state.view.phase.phase;
    /** @type {Set<number>} */
    const sources = new Set();
    /** @type {Map<number, any>} */
    const targets = new Map();
    /** @type {Set<number>} */
    const partners = new Set();
    if (phase === 'occupation') {
      const unplaced = /** @type {number[]} */ (state.view.players[state.seat ?? 0]?.unplaced ?? []);
      if (placeValue === null || !unplaced.includes(placeValue)) placeValue = unplaced[0] ?? null;
      for (const action of listed(state, 'place')) if (action.value === placeValue) targets.set(action.cell, action);
    } else if (phase === 'attack') {
      const singles = listed(state, 'attack');
      const combined = listed(state, 'combined_attack');
      for (const action of singles) sources.add(action.from);
      for (const action of combined) action.attackers.forEach((/** @type {number} */ cell) => sources.add(cell));
      selected = selected.filter((cell) => sources.has(cell));
      if (selected.length === 1) {
        for (const action of singles) if (action.from === selected[0]) targets.set(action.target, action);
        for (const action of combined) {
          if (action.attackers.includes(selected[0])) partners.add(action.attackers.find((/** @type {number} */ cell) => cell !== selected[0]));
        }
      } else if (selected.length === 2) {
        for (const action of combined) {
          if (selected.every((cell) => action.attackers.includes(cell))) targets.set(action.target, action);
        }
      }
    } else if (phase === 'move') {
      const moves = listed(state, 'move');
      for (const action of moves) sources.add(action.from);
      selected = selected.filter((cell) => sources.has(cell)).slice(0, 1);
      if (selected.length === 1) for (const action of moves) if (action.from === selected[0]) targets.set(action.to, action);
    } else {
      selected = [];
    }
    return { phase, sources, targets, partners };
  }

  return {
    reset() {
      selected = [];
    },

    click(cell, state) {
      if (!state.interactive) return;
      const a = analyse(state);
      const action = a.targets.get(cell);
      if (action) {
        ctx.act(structuredClone(action));
        return;
      }
      if (selected.includes(cell)) {
        selected = selected.filter((other) => other !== cell);
      } else if (selected.length === 1 && a.partners.has(cell)) {
        selected = [selected[0], cell];
      } else if (a.sources.has(cell)) {
        selected = [cell];
      } else {
        return;
      }
      ctx.rerender();
    },

    frame(state) {
      const view = state.view;
      const a = analyse(state);
      const recent = recentCells(state.lastEvents);
      const choosing = view.phase.phase === 'choose_attack' ? [...view.phase.attackers, view.phase.target] : [];
      /** @type {Frame['decorate']} */
      const decorate = (cell) => {
        /** @type {Die | null} */
        const die = view.cells[cell];
        const classes = [];
        if (selected.includes(cell) || choosing.includes(cell)) classes.push('selected');
        if (a.targets.has(cell)) classes.push('target', 'clickable');
        else if (selected.length === 1 && a.partners.has(cell)) classes.push('partner', 'clickable');
        else if (a.sources.has(cell) && !selected.includes(cell)) classes.push('source', 'clickable');
        if (recent.has(cell)) classes.push('recent');
        const owner = die ? state.names[die.owner] ?? '?' : '';
        return {
          fill: die ? seatColor(die.owner) : NEUTRAL,
          owner: die ? die.owner : null,
          classes,
          label: cellLabel(cell, die),
          title: die ? t('hd_cell_title', { cell, name: owner, value: die.value }) : t('hd_cell_empty', { cell }),
        };
      };
      return {
        decorate,
        arrows: arrowsOf(state.lastEvents),
        controls: state.interactive ? controls(state, a) : [],
        extra: [diceOffBoard(state)],
        prompt: state.interactive ? promptOf(view.phase.phase) : null,
      };
    },
  };

  /**
   * @param {PlayState} state
   * @param {ReturnType<typeof analyse>} a
   * @returns {Node[]}
   */
  function controls(state, a) {
    const phase = state.view.phase;
    if (phase.phase === 'occupation') {
      const unplaced = /** @type {number[]} */ (state.view.players[state.seat ?? 0].unplaced);
      const faces = [...new Set(unplaced)];
      return [
        h('p', { class: 'hint' }, t('hd_pick_value')),
        h(
          'div',
          { class: 'choice-group', role: 'radiogroup', 'aria-label': t('hd_pick_value') },
          faces.map((value) =>
            h(
              'button',
              {
                class: `die-button ${value === placeValue ? 'primary' : ''}`,
                'data-value': value,
                role: 'radio',
                'aria-checked': String(value === placeValue),
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
        h('p', { class: 'hint' }, selected.length === 2 ? t('hd_hint_combined') : selected.length === 1 ? t('hd_hint_target') : t('hd_hint_attack')),
        selected.length > 0 ? h('button', { 'data-action': 'cancel', onclick: () => ((selected = []), ctx.rerender()) }, t('cancel')) : null,
      ].filter((node) => node !== null);
    }
    if (phase.phase === 'choose_attack') {
      const allowed = listed(state, 'choose_attack');
      /** @type {[number, number][]} */
      const pairs = [];
      for (const attacker of phase.attackers) for (const roll of phase.rolls) pairs.push([attacker, roll]);
      const unique = pairs.filter(([cell, roll], index) => pairs.findIndex(([c, r]) => c === cell && r === roll) === index);
      return [
        h('p', { class: 'hint' }, t('hd_hint_choose')),
        h(
          'div',
          { class: 'choice-group' },
          unique.map(([cell, roll]) => {
            const value = state.view.cells[cell]?.value ?? 0;
            const outcome = roll < value ? 'hd_outcome_valid' : roll === value ? 'hd_outcome_perfect' : 'hd_outcome_failed';
            const action = allowed.find((candidate) => candidate.attacker === cell && candidate.roll === roll);
            return h(
              'button',
              {
                class: 'choice',
                'data-attacker': cell,
                'data-roll': roll,
                disabled: !action,
                onclick: () => action && ctx.act(structuredClone(action)),
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
        h('p', { class: 'hint' }, a.sources.size > 0 ? t('hd_hint_move') : t('hd_hint_no_move')),
        selected.length > 0 ? h('button', { 'data-action': 'cancel', onclick: () => ((selected = []), ctx.rerender()) }, t('cancel')) : null,
        h('button', { class: 'primary', 'data-action': 'end-turn', onclick: () => ctx.act({ type: 'end_turn' }) }, t('end_turn')),
      ].filter((node) => node !== null);
    }
    return [];
  }
}

/** Both players' dice off the board, for everyone: still to place, or the two in reserve. @param {PlayState} state */
function diceOffBoard(state) {
  const players = /** @type {{unplaced: number[], reserve: number[]}[]} */ (state.view.players ?? []);
  return h(
    'div',
    { class: 'off-board', 'data-testid': 'off-board' },
    players.map((player, seat) => {
      const placing = player.unplaced.length > 0;
      const dice = placing ? player.unplaced : player.reserve;
      if (dice.length === 0) return null;
      return h(
        'div',
        { class: 'roll', 'data-seat': seat },
        h('span', { class: 'roll-label' }, t(placing ? 'hd_to_place_of' : 'hd_reserve_of', { name: state.names[seat] ?? '' })),
        h('span', { class: 'roll-dice' }, dice.map((value) => dieIcon(value, { seat }))),
      );
    }),
  );
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
 * A cell's die face (if any, with its owner's symbol) and the cell's number, which the event log names.
 * @param {number} cell @param {Die | null | undefined} die
 */
function cellLabel(cell, die) {
  const group = s('g', {});
  if (die) group.append(dieFace(die.value, { size: 9.5 }), seatMark(die.owner, -6.7, 1.4, 3.6));
  group.append(s('text', { class: 'cell-number', x: 0, y: -6.4, 'text-anchor': 'middle' }, cell));
  return group;
}

/** Cells touched by the last action, to show what changed. @param {any[]} events */
function recentCells(events) {
  const cells = new Set();
  for (const event of events) {
    if (event.type === 'turn_started' || event.type === 'game_over') continue;
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
    if (event.type === 'moved' || event.type === 'conquered') arrows.push({ from: event.from, to: event.to, kind: 'move' });
  }
  return arrows;
}
