//! The capitals play UI (RULES.md "capitals"; JSON of engine/src/capitals/{action,event,view}.rs):
//! pick a source area, then a bordering own area (transport) or a path of 1–3 steps into other
//! land (attack, deep attack), choose the units by kind, and end the turn.

import { h } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { badge } from '../lib/board.js';
import { seatColor, NEUTRAL } from '../lib/colors.js';
import { withRemaining } from '../views/options.js';

/** @typedef {import('./types.js').RulesetUi} RulesetUi */
/** @typedef {import('./types.js').PlayState} PlayState */
/** @typedef {{d6: number, d8: number, d6_used: number, d8_used: number}} Units */
/** @typedef {{id: number, kind: string, home: number | null, owner: number | null, units: Units, borders: number[]}} Area */

const KIND_MARK = /** @type {Record<string, string>} */ ({
  capital: '★',
  fast_factory: '⚡',
  strong_factory: '◆',
  centre: '◎',
  plain: '',
});

/** @param {Units} units */
const total = (units) => units.d6 + units.d8 + units.d6_used + units.d8_used;

/** @param {{d6: number, d8: number}} selection */
function unitsText(selection) {
  const parts = [];
  if (selection.d6) parts.push(`${selection.d6}×d6`);
  if (selection.d8) parts.push(`${selection.d8}×d8`);
  return parts.join(' + ') || '0';
}

/** @param {any} view @param {number} id */
function areaName(view, id) {
  const region = view?.board?.regions?.[id];
  const kind = view?.areas?.[id]?.kind;
  const mark = kind ? KIND_MARK[kind] ?? '' : '';
  return `${region?.name ?? `#${id}`}${mark ? ` ${mark}` : ''}`;
}

/** @param {any} event @param {string[]} names @param {any} view */
function describe(event, names, view) {
  const name = (/** @type {number} */ seat) => names[seat] ?? `#${seat}`;
  const area = (/** @type {number} */ id) => areaName(view, id);
  switch (event.type) {
    case 'first_player_drawn':
      return t('cp_first_player', { name: name(event.seat) });
    case 'round_started':
      return t('cp_round', { round: event.round });
    case 'turn_started':
      return t('cp_turn', { name: name(event.seat), round: event.round });
    case 'produced':
      return event.lost > 0 ? t('cp_produced_lost', { area: area(event.area), units: unitsText(event.units), lost: event.lost }) : null;
    case 'transported':
      return t('cp_transported', { units: unitsText(event.units), from: area(event.from), to: area(event.to) });
    case 'attack_launched': {
      const path = /** @type {number[]} */ (event.path);
      const text = t('cp_attack', {
        units: unitsText(event.units),
        from: area(path[0]),
        to: area(path[path.length - 1]),
      });
      return path.length > 2
        ? `${text} ${t('cp_deep', { path: path.map(area).join(' → '), d6: event.d6_cap, d8: event.d8_cap })}`
        : text;
    }
    case 'battle_resolved':
      return t(event.winner === 'attacker' ? 'cp_battle_won' : 'cp_battle_lost', {
        attack: event.attack,
        defence: event.defence,
        left: total(event.survivors),
      });
    case 'area_captured':
      return t('cp_captured', { name: name(event.seat), area: area(event.area) });
    case 'player_eliminated':
      return t('cp_eliminated', { name: name(event.seat), by: name(event.by) });
    case 'turn_ended':
      return t('cp_turn_ended', { name: name(event.seat) });
    case 'game_over':
      return t('cp_game_over', { name: name(event.winner) });
    default:
      return null;
  }
}

/** @param {any} event @param {string[]} names @returns {import('./types.js').DiceRoll[]} */
function dice(event, names) {
  void names;
  if (event.type !== 'die_rolled') return [];
  return [
    {
      label: event.side === 'attacker' ? t('cp_attack_dice') : t('cp_defence_dice'),
      dice: [event.rolled],
      caps: [event.counted],
    },
  ];
}

/** @type {RulesetUi} */
export const capitals = {
  id: 'capitals',
  fields: (defaults) => withRemaining(defaults, [{ key: 'map_size', kind: 'select', values: ['small', 'medium', 'large'] }]),
  controller,
  describe,
  dice,
  advance: (view, events) => advance(view, events),
  seatSummary: (view, seat) => {
    const areas = /** @type {Area[]} */ (view.areas ?? []).filter((area) => area.owner === seat);
    if (view.seats?.[seat]?.eliminated) return t('cp_out');
    const units = areas.reduce((sum, area) => sum + total(area.units), 0);
    return t('cp_summary', { areas: areas.length, units });
  },
};

/** @param {import('./types.js').PlayContext} ctx @returns {import('./types.js').Controller} */
function controller(ctx) {
  /** The path being built: source first. @type {number[]} */
  let path = [];
  /** The units chosen for the order. */
  let choice = { d6: 0, d8: 0 };

  /** @param {PlayState} state */
  function analyse(state) {
    /** @type {Area[]} */
    const areas = state.view.areas;
    const me = state.seat;
    const own = (/** @type {number} */ id) => areas[id]?.owner === me;
    const bordersOf = (/** @type {number} */ id) => areas[id]?.borders ?? [];
    return { areas, own, bordersOf };
  }

  /** Areas the next click may add to the path. @param {PlayState} state */
  function nextSteps(state) {
    const a = analyse(state);
    /** @type {Map<number, 'transport' | 'attack' | 'step'>} */
    const steps = new Map();
    if (!state.interactive || path.length === 0) return steps;
    const last = path[path.length - 1];
    if (path.length === 1) {
      for (const id of a.bordersOf(last)) steps.set(id, a.own(id) ? 'transport' : 'attack');
    } else if (path.length < 4 && !a.own(path[1]) ) {
      // A deep attack goes on through any land, as long as the path stays simple.
      for (const id of a.bordersOf(last)) if (!path.includes(id)) steps.set(id, 'step');
    }
    return steps;
  }

  /** How many unused units may leave the source: one unit, used or not, always stays (C-ATK-1, C-TRANS-1). @param {Area} source */
  function available(source) {
    return { max: Math.max(0, Math.min(source.units.d6 + source.units.d8, total(source.units) - 1)) };
  }

  function defaultChoice(/** @type {Area} */ source) {
    const room = available(source);
    // Everything that may leave, strongest first, leaving one unit behind.
    const d8 = Math.min(source.units.d8, room.max);
    const d6 = Math.min(source.units.d6, room.max - d8);
    choice = { d6, d8 };
  }

  return {
    reset() {
      path = [];
      choice = { d6: 0, d8: 0 };
    },
    click(id, state) {
      if (!state.interactive) return;
      const a = analyse(state);
      const steps = nextSteps(state);
      if (path.length > 0 && path[path.length - 1] === id) {
        path = path.slice(0, -1);
      } else if (steps.has(id)) {
        path = [...path, id];
      } else if (a.own(id) && a.areas[id].units.d6 + a.areas[id].units.d8 > 0) {
        path = [id];
        defaultChoice(a.areas[id]);
      } else {
        path = [];
      }
      ctx.rerender();
    },
    frame(state) {
      const a = analyse(state);
      const steps = nextSteps(state);
      const recent = new Set();
      /** @type {import('../lib/board.js').Arrow[]} */
      const arrows = [];
      for (const event of state.lastEvents) {
        if (event.type === 'attack_launched') {
          for (let i = 1; i < event.path.length; i++) arrows.push({ from: event.path[i - 1], to: event.path[i], kind: 'attack' });
          event.path.forEach((/** @type {number} */ id) => recent.add(id));
        }
        if (event.type === 'transported') {
          arrows.push({ from: event.from, to: event.to, kind: 'move' });
          recent.add(event.from).add(event.to);
        }
      }
      for (let i = 1; i < path.length; i++) arrows.push({ from: path[i - 1], to: path[i], kind: 'preview' });
      const orderable = (/** @type {number} */ id) =>
        state.interactive && path.length === 0 && a.own(id) && a.areas[id].units.d6 + a.areas[id].units.d8 > 0 && total(a.areas[id].units) > 1;
      return {
        decorate: (id) => {
          const area = a.areas[id];
          if (!area) return {};
          const classes = [];
          if (path[0] === id) classes.push('selected');
          else if (path.includes(id)) classes.push('path');
          if (steps.has(id)) classes.push('target', 'clickable');
          if (orderable(id)) classes.push('clickable');
          if (recent.has(id)) classes.push('recent');
          const used = area.units.d6_used + area.units.d8_used;
          const d8 = area.units.d8 + area.units.d8_used;
          const detail = [d8 ? `${d8}×d8` : '', used ? t('cp_used_short', { n: used }) : ''].filter(Boolean).join(' ');
          return {
            fill: area.owner === null ? NEUTRAL : seatColor(area.owner),
            classes,
            label: badge(total(area.units), { small: KIND_MARK[area.kind] || undefined, name: detail || undefined }),
            title: `${areaName(state.view, id)} — ${unitsText({ d6: area.units.d6 + area.units.d6_used, d8 })}${used ? `, ${t('cp_used_short', { n: used })}` : ''}`,
          };
        },
        arrows,
        controls: state.interactive ? controls(state, a) : [],
        prompt: state.interactive
          ? t('cp_prompt', { given: state.view.orders_given, max: state.view.orders_per_turn })
          : null,
      };
    },
  };

  /** @param {PlayState} state @param {ReturnType<typeof analyse>} a @returns {Node[]} */
  function controls(state, a) {
    const endTurn = h('button', { 'data-action': 'end-turn', onclick: () => ctx.act({ type: 'end_turn' }) }, t('end_turn'));
    if (path.length < 2) {
      return [h('p', { class: 'hint' }, path.length === 0 ? t('cp_hint_source') : t('cp_hint_target')), endTurn];
    }
    const source = a.areas[path[0]];
    const transport = a.own(path[1]);
    const room = available(source);
    const d6Input = h('input', { type: 'number', min: 0, max: source.units.d6, value: choice.d6, class: 'short', 'aria-label': 'd6', 'data-kind': 'd6' });
    const d8Input = h('input', { type: 'number', min: 0, max: source.units.d8, value: choice.d8, class: 'short', 'aria-label': 'd8', 'data-kind': 'd8' });
    const read = () => {
      choice = { d6: Number(d6Input.value) || 0, d8: Number(d8Input.value) || 0 };
    };
    d6Input.addEventListener('change', read);
    d8Input.addEventListener('change', read);
    // Other players' areas after the source lower each attacking die's cap (C-DEEP-1).
    const hostile = path.slice(1).filter((id) => a.areas[id]?.owner !== null && !a.own(id)).length;
    const deep = path.length > 2;
    const order = () => {
      read();
      if (transport) ctx.act({ type: 'transport', from: path[0], to: path[1], units: choice });
      else ctx.act({ type: 'attack', path, units: choice });
    };
    return [
      h('p', { class: 'hint' }, path.map((id) => areaName(state.view, id)).join(' → ')),
      deep ? h('p', { class: 'hint' }, t('cp_caps', { d6: 6 - hostile, d8: 8 - hostile })) : null,
      !transport && path.length < 4 ? h('p', { class: 'hint' }, t('cp_hint_deep')) : null,
      h('div', { class: 'choice-group' }, 'd6 ', d6Input, ` / ${source.units.d6}`, '  d8 ', d8Input, ` / ${source.units.d8}`, h('span', { class: 'muted' }, ` (${t('cp_max_leave', { n: room.max })})`)),
      h('button', { class: 'primary', 'data-action': transport ? 'transport' : 'attack', onclick: order }, transport ? t('cp_transport') : deep ? t('cp_deep_attack') : t('cp_attack_button')),
      h('button', { onclick: () => ((path = []), ctx.rerender()) }, t('cancel')),
      endTurn,
    ].filter((node) => node !== null);
  }
}

/**
 * The view after `events` (engine/src/capitals/event.rs), for replay steps sent without a view.
 * @param {any} view @param {any[]} events
 */
function advance(view, events) {
  // The board never changes: share it rather than copy it.
  const next = { ...structuredClone({ ...view, board: null }), board: view.board };
  /** @type {Area[]} */
  const areas = next.areas;
  const clearUsed = (/** @type {Area} */ area) => {
    area.units.d6 += area.units.d6_used;
    area.units.d8 += area.units.d8_used;
    area.units.d6_used = 0;
    area.units.d8_used = 0;
  };
  /** The target of the attack under way. @type {number | null} */
  let target = null;
  for (const event of events) {
    switch (event.type) {
      case 'round_started':
        next.round = event.round;
        areas.forEach(clearUsed);
        break;
      case 'neutral_grew':
        areas[event.area].units.d6 += 1;
        break;
      case 'turn_started':
        next.to_act = event.seat;
        next.orders_given = 0;
        break;
      case 'produced':
        areas[event.area].units.d6 += event.units.d6;
        areas[event.area].units.d8 += event.units.d8;
        break;
      case 'transported':
        areas[event.from].units.d6 -= event.units.d6;
        areas[event.from].units.d8 -= event.units.d8;
        areas[event.to].units.d6_used += event.units.d6;
        areas[event.to].units.d8_used += event.units.d8;
        next.orders_given += 1;
        break;
      case 'attack_launched':
        areas[event.path[0]].units.d6 -= event.units.d6;
        areas[event.path[0]].units.d8 -= event.units.d8;
        target = event.path[event.path.length - 1];
        next.orders_given += 1;
        break;
      case 'battle_resolved':
        if (target !== null) {
          const kept = event.survivors;
          // A winning attack's units stay used in the target (C-BATTLE-4); defenders keep their marks.
          areas[target].units =
            event.winner === 'attacker'
              ? { d6: 0, d8: 0, d6_used: kept.d6 + kept.d6_used, d8_used: kept.d8 + kept.d8_used }
              : { ...kept };
        }
        break;
      case 'area_captured':
        areas[event.area].owner = event.seat;
        break;
      case 'player_eliminated':
        next.seats[event.seat].eliminated = true;
        for (const id of event.freed) {
          areas[id].owner = null;
          clearUsed(areas[id]);
        }
        break;
      case 'game_over':
        next.to_act = null;
        break;
      default:
        break;
    }
  }
  return next;
}
