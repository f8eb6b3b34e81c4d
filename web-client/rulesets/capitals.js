//! The capitals play UI (RULES.md "capitals"; JSON of engine/src/capitals/{action,event,view}.rs).
//! The order builder offers exactly the orders the server listed in `legal`: pick a
//! source area, then a bordering own area (transport) or other land (attack), step on for a deep
//! attack, choose one of the listed unit selections, send; end the turn any time. A refused order
//! keeps what was built.

import { h } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { badge } from '../lib/board.js';
import { seatColor, seatSymbol, NEUTRAL } from '../lib/colors.js';
import { withRemaining } from '../views/options.js';

/** @typedef {import('./types.js').RulesetUi} RulesetUi */
/** @typedef {import('./types.js').PlayState} PlayState */
/** @typedef {{d6: number, d8: number, d6_used: number, d8_used: number}} Units */
/** @typedef {{id: number, kind: string, home: number | null, owner: number | null, units: Units, borders: number[]}} Area */
/** @typedef {{d6: number, d8: number}} Selection */
/** An order the server listed: a route (source first) and the units it sends. */
/** @typedef {{action: any, route: number[], units: Selection, transport: boolean}} Order */

const KIND_MARK = /** @type {Record<string, string>} */ ({
  capital: '★',
  fast_factory: '⚡',
  strong_factory: '◆',
  centre: '◎',
  plain: '',
});

/** @param {Units} units */
const total = (units) => units.d6 + units.d8 + units.d6_used + units.d8_used;

/** "3 d6 + 1 d8", in words with plurals. @param {Selection} selection */
export function unitsText(selection) {
  const parts = [];
  if (selection.d6) parts.push(t('cp_d6_count', { n: selection.d6 }));
  if (selection.d8) parts.push(t('cp_d8_count', { n: selection.d8 }));
  return parts.join(' + ') || t('cp_no_units');
}

/**
 * An area's name, unambiguous and in the reader's language: whose capital it is, else its kind
 * and number ("fast factory 12", "area 31"; the number is drawn on the board). A factory is not
 * named after the seat it was built for: it starts neutral, and who holds it is said apart.
 * @param {any} view @param {number} id @param {string[]} names
 */
export function areaName(view, id, names) {
  const area = view?.areas?.[id];
  const home = area?.home;
  const name = home === null || home === undefined ? '' : names[home] ?? t('seat_n', { n: home + 1 });
  switch (area?.kind) {
    case 'capital':
      return t('cp_area_capital', { name, id });
    case 'fast_factory':
      return t('cp_area_fast_factory', { id });
    case 'strong_factory':
      return t('cp_area_strong_factory', { id });
    case 'centre':
      return t('cp_area_centre', { id });
    default:
      return t('cp_area_plain', { id });
  }
}

/** @param {any} event @param {string[]} names @param {any} view */
function describe(event, names, view) {
  const name = (/** @type {number} */ seat) => names[seat] ?? `#${seat}`;
  const area = (/** @type {number} */ id) => areaName(view, id, names);
  switch (event.type) {
    case 'first_player_drawn':
      return t('cp_first_player', { name: name(event.seat) });
    case 'round_started':
      return t('cp_round', { round: event.round });
    case 'turn_started':
      return t('cp_turn', { name: name(event.seat), round: event.round });
    case 'produced':
      return event.lost > 0 ? t('cp_produced_lost', { area: area(event.area), units: unitsText(event.units), n: event.lost }) : null;
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
    case 'battle_resolved': {
      const left = total(event.survivors);
      return t(event.winner === 'attacker' ? 'cp_battle_won' : 'cp_battle_lost', {
        attack: event.attack,
        defence: event.defence,
        n: left,
      });
    }
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
  const label = (/** @type {string} */ side) => (side === 'attacker' ? t('cp_attack_dice') : t('cp_defence_dice'));
  if (event.type === 'die_rolled') {
    return [{ label: label(event.side), dice: [event.rolled], caps: [event.counted], kinds: [event.die] }];
  }
  if (event.type === 'battle_resolved') {
    return [
      { label: label('attacker'), dice: [], total: event.attack },
      { label: label('defender'), dice: [], total: event.defence },
    ];
  }
  return [];
}

/** @type {RulesetUi} */
export const capitals = {
  id: 'capitals',
  fields: (defaults) => withRemaining(defaults, [{ key: 'map_size', kind: 'select', values: ['small', 'medium', 'large'] }]),
  controller,
  describe,
  dice,
  seatSummary: (view, seat) => {
    const areas = /** @type {Area[]} */ (view.areas ?? []).filter((area) => area.owner === seat);
    if (view.seats?.[seat]?.eliminated) return t('cp_out');
    const units = areas.reduce((sum, area) => sum + total(area.units), 0);
    return `${t('cp_areas', { n: areas.length })} · ${t('units_count', { n: units })}`;
  },
  paramText: (name, value, view, names) => (['area', 'from', 'to'].includes(name) ? areaName(view, value, names) : value),
};

/** The route of a listed order (source first), or null for `end_turn`. @param {any} action @returns {Order | null} */
function orderOf(action) {
  if (action?.type === 'transport') return { action, route: [action.from, action.to], units: action.units, transport: true };
  if (action?.type === 'attack') return { action, route: action.path, units: action.units, transport: false };
  return null;
}

/** @param {number[]} route @param {number[]} prefix */
const startsWith = (route, prefix) => prefix.length <= route.length && prefix.every((id, i) => route[i] === id);

/** @param {import('./types.js').PlayContext} ctx @returns {import('./types.js').Controller} */
function controller(ctx) {
  /** The route being built: source first. @type {number[]} */
  let path = [];
  /** The units chosen to send; `null`: all that may go (the first listed selection). @type {Selection | null} */
  let chosen = null;

  /** The orders the server listed for this seat now. @param {PlayState} state @returns {Order[]} */
  function orders(state) {
    if (!state.interactive || !state.legal) return [];
    return state.legal.map(orderOf).filter((order) => order !== null);
  }

  /** What the built route allows next. @param {PlayState} state */
  function analyse(state) {
    const all = orders(state);
    const sources = new Set(all.map((order) => order.route[0]));
    // Drop a route the list no longer allows (the state moved on).
    if (path.length > 0 && !all.some((order) => startsWith(order.route, path))) path = [];
    const along = all.filter((order) => startsWith(order.route, path));
    /** Areas one step further: transport, attack, or a step of a deep attack. @type {Map<number, string>} */
    const steps = new Map();
    /** Deep targets that can be clicked at once from the source: target → route. @type {Map<number, number[]>} */
    const deepTargets = new Map();
    if (path.length > 0) {
      for (const order of along) {
        if (order.route.length <= path.length) continue;
        const next = order.route[path.length];
        const kind = order.transport ? 'transport' : order.route.length === path.length + 1 ? 'attack' : 'step';
        if (!steps.has(next) || kind !== 'step') steps.set(next, kind);
        if (path.length === 1 && order.route.length > 2) deepTargets.set(order.route[order.route.length - 1], order.route);
      }
    }
    const complete = along.filter((order) => order.route.length === path.length);
    return { all, sources, steps, deepTargets, complete };
  }

  return {
    reset() {
      path = [];
      chosen = null;
    },
    click(id, state) {
      if (!state.interactive) return;
      const a = analyse(state);
      if (path.length > 0 && path[path.length - 1] === id) {
        path = path.slice(0, -1);
      } else if (a.steps.has(id)) {
        path = [...path, id];
      } else if (a.deepTargets.has(id)) {
        path = [...(/** @type {number[]} */ (a.deepTargets.get(id)))];
      } else if (a.sources.has(id)) {
        path = [id];
      } else {
        // A click on land no listed order uses keeps the half-built order.
        return;
      }
      chosen = null;
      ctx.rerender();
    },
    frame(state) {
      const a = analyse(state);
      const areas = /** @type {Area[]} */ (state.view.areas);
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
      return {
        decorate: (id) => {
          const area = areas[id];
          if (!area) return {};
          const classes = [];
          if (path[0] === id) classes.push('selected');
          else if (path.includes(id)) classes.push('path');
          if (a.steps.has(id)) classes.push('target', 'clickable', `target-${a.steps.get(id)}`);
          else if (a.deepTargets.has(id)) classes.push('target', 'clickable', 'target-deep');
          if (path.length === 0 && a.sources.has(id)) classes.push('source', 'clickable');
          if (recent.has(id)) classes.push('recent');
          const used = area.units.d6_used + area.units.d8_used;
          const d8 = area.units.d8 + area.units.d8_used;
          const detail = [d8 ? t('cp_d8_short', { n: d8 }) : '', used ? t('cp_used_short', { n: used }) : ''].filter(Boolean).join(' ');
          return {
            fill: area.owner === null ? NEUTRAL : seatColor(area.owner),
            owner: area.owner,
            classes,
            label: badge(total(area.units), {
              small: KIND_MARK[area.kind] || undefined,
              name: detail || undefined,
              id,
              seat: area.owner,
            }),
            title: areaTitle(state, area),
            speech: areaTitle(state, area),
          };
        },
        arrows,
        controls: state.interactive ? controls(state, a) : [],
        extra: [legend()],
        prompt: state.interactive
          ? t('cp_prompt', { given: state.view.orders_given, max: state.view.orders_per_turn })
          : null,
      };
    },
  };

  /** @param {PlayState} state @param {ReturnType<typeof analyse>} a @returns {Node[]} */
  function controls(state, a) {
    const endTurn = h('button', { 'data-action': 'end-turn', onclick: () => ctx.act({ type: 'end_turn' }) }, t('end_turn'));
    if (path.length === 0) {
      return [h('p', { class: 'hint' }, a.sources.size > 0 ? t('cp_hint_source') : t('cp_hint_no_orders')), endTurn];
    }
    const names = state.names;
    const route = h('p', { class: 'hint', 'data-testid': 'order-route' }, path.map((id) => areaName(state.view, id, names)).join(' → '));
    const cancel = h('button', { 'data-action': 'cancel', onclick: () => ((path = []), ctx.rerender()) }, t('cancel'));
    if (a.complete.length === 0) {
      return [route, h('p', { class: 'hint' }, path.length === 1 ? t('cp_hint_target') : t('cp_hint_deep_next')), cancel, endTurn];
    }
    // The server lists a few selections per route (engine/src/capitals/legal.rs) but accepts
    // every count up to the most it lists: each count of d6 and of d8 is offered.
    const order = a.complete[0];
    const most = {
      d6: Math.max(...a.complete.map((listed) => listed.units.d6)),
      d8: Math.max(...a.complete.map((listed) => listed.units.d8)),
      total: Math.max(...a.complete.map((listed) => listed.units.d6 + listed.units.d8)),
    };
    // A choice made before the state moved on keeps within what may go now.
    const wanted = chosen ?? order.units;
    const units = { d6: Math.min(wanted.d6, most.d6), d8: Math.min(wanted.d8, most.d8) };
    units.d6 = Math.min(units.d6, most.total - units.d8);
    if (units.d6 + units.d8 === 0) Object.assign(units, order.units);
    const deep = path.length > 2;
    const hostile = path.slice(1).filter((id) => {
      const owner = state.view.areas[id]?.owner;
      return owner !== null && owner !== state.seat;
    }).length;
    const source = /** @type {Area} */ (state.view.areas[path[0]]);
    const unused = { d6: source.units.d6, d8: source.units.d8 };
    /** Sets one kind's count, keeping the other within what may go, and at least one unit. @param {'d6' | 'd8'} kind @param {number} n */
    const pick = (kind, n) => {
      const other = kind === 'd6' ? 'd8' : 'd6';
      const next = { ...units, [kind]: n };
      next[other] = Math.min(next[other], most.total - n);
      if (next.d6 + next.d8 === 0) next[other] = Math.min(1, most[other]);
      chosen = next;
      ctx.rerender();
    };
    /** One row of counts of a die kind. @param {'d6' | 'd8'} kind */
    const row = (kind) => {
      const other = kind === 'd6' ? 'd8' : 'd6';
      const counts = Array.from({ length: most[kind] + 1 }, (_, n) => n).filter((n) => n > 0 || most[other] > 0);
      return h(
        'div',
        { class: 'choice-group', role: 'radiogroup', 'aria-label': `${t('cp_units_label')}: ${t(`die_${kind}`)}`, 'data-kind': kind },
        h('span', { class: 'choice-kind' }, t(`die_${kind}`)),
        counts.map((n) =>
          h(
            'button',
            {
              class: `choice ${units[kind] === n ? 'primary' : ''}`,
              role: 'radio',
              'aria-checked': String(units[kind] === n),
              [`data-${kind}`]: n,
              onclick: () => pick(kind, n),
            },
            String(n),
          ),
        ),
      );
    };
    const action = structuredClone(order.action);
    action.units = { d6: units.d6, d8: units.d8 };
    return [
      route,
      deep ? h('p', { class: 'hint' }, t('cp_caps', { d6: 6 - hostile, d8: 8 - hostile })) : null,
      !order.transport && a.steps.size > 0 ? h('p', { class: 'hint' }, t('cp_hint_deep')) : null,
      h('p', { class: 'hint' }, t('cp_choose_units', { units: unitsText(unused) })),
      row('d6'),
      most.d8 > 0 ? row('d8') : null,
      h(
        'button',
        { class: 'primary', 'data-action': order.transport ? 'transport' : 'attack', 'data-units': `${units.d6}-${units.d8}`, onclick: () => ctx.act(action) },
        `${order.transport ? t('cp_transport') : deep ? t('cp_deep_attack') : t('cp_attack_button')}: ${unitsText(units)}`,
      ),
      cancel,
      endTurn,
    ].filter((node) => node !== null);
  }
}

/** @param {PlayState} state @param {Area} area */
function areaTitle(state, area) {
  const owner = area.owner === null ? t('neutral') : state.names[area.owner] ?? '?';
  const used = area.units.d6_used + area.units.d8_used;
  const units = unitsText({ d6: area.units.d6 + area.units.d6_used, d8: area.units.d8 + area.units.d8_used });
  return `${areaName(state.view, area.id, state.names)} — ${owner}${area.owner === null ? '' : ` ${seatSymbol(area.owner)}`}: ${units}${used ? `, ${t('cp_used_short', { n: used })}` : ''}`;
}

/** What the marks on the board mean. */
function legend() {
  return h(
    'details',
    { class: 'legend', 'data-testid': 'legend' },
    h('summary', {}, t('legend')),
    h(
      'ul',
      { class: 'plain' },
      h('li', {}, `★ ${t('cp_kind_capital')}`),
      h('li', {}, `⚡ ${t('cp_kind_fast_factory')}`),
      h('li', {}, `◆ ${t('cp_kind_strong_factory')}`),
      h('li', {}, `◎ ${t('cp_kind_centre')}`),
      h('li', {}, t('cp_legend_badge')),
    ),
  );
}
