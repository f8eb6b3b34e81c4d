//! The classic play UI (RULES.md "classic"; JSON of engine/src/classic/{action,event,view}.rs):
//! claiming and deploying, card trades, placing reinforcements, attacks with a dice count, the
//! move-in count after a conquest, and the fortify that ends a turn.

import { h } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { badge } from '../lib/board.js';
import { seatColor, NEUTRAL } from '../lib/colors.js';
import { withRemaining } from '../views/options.js';

/** @typedef {import('./types.js').RulesetUi} RulesetUi */
/** @typedef {import('./types.js').PlayState} PlayState */
/** @typedef {{id: number, name: string, continent: string, owner: number | null, units: number}} Territory */
/** @typedef {{card: number, territory: number | null, symbol: string}} CardFace */

const SYMBOL = /** @type {Record<string, string>} */ ({ infantry: '♟', cavalry: '♞', artillery: '✸', wild: '✱' });

/** @param {any} view @param {number} id */
const territoryName = (view, id) => view?.territories?.[id]?.name ?? `#${id}`;

/** @param {any} view @param {CardFace} card */
function cardText(view, card) {
  const symbol = `${SYMBOL[card.symbol] ?? ''} ${t(/** @type {any} */ (`cl_symbol_${card.symbol}`))}`;
  return card.territory === null ? symbol : `${symbol} · ${territoryName(view, card.territory)}`;
}

/** @param {any} event @param {string[]} names @param {any} view */
function describe(event, names, view) {
  const name = (/** @type {number} */ seat) => names[seat] ?? `#${seat}`;
  const place = (/** @type {number} */ id) => territoryName(view, id);
  switch (event.type) {
    case 'order_roll':
      return t('cl_order_roll', { name: name(event.seat), die: event.die });
    case 'first_player':
      return t('cl_first_player', { name: name(event.seat) });
    case 'deck_shuffled':
      return t('cl_deck_shuffled', { cards: event.cards });
    case 'territories_dealt':
      return t('cl_dealt');
    case 'claimed':
      return t('cl_claimed', { name: name(event.seat), territory: place(event.territory) });
    case 'placed':
      return t('cl_placed', { name: name(event.seat), units: event.units, territory: place(event.territory) });
    case 'turn_started':
      return t('cl_turn', { turn: event.turn, name: name(event.seat), units: event.reinforcements });
    case 'set_traded':
      return t('cl_traded', { name: name(event.seat), units: event.units, cards: event.cards.map((/** @type {CardFace} */ c) => cardText(view, c)).join(', ') });
    case 'territory_bonus':
      return t('cl_bonus', { territory: place(event.territory) });
    case 'battle':
      return t('cl_battle', {
        from: place(event.from),
        to: place(event.to),
        a: event.attacker_dice.join(' '),
        d: event.defender_dice.join(' '),
        al: event.attacker_losses,
        dl: event.defender_losses,
      });
    case 'conquered':
      return t('cl_conquered', { name: name(event.seat), territory: place(event.territory), units: event.units });
    case 'moved_in':
      return t('cl_moved_in', { units: event.units, to: place(event.to) });
    case 'eliminated':
      return t('cl_eliminated', { name: name(event.seat), by: name(event.by) });
    case 'cards_taken':
      return t('cl_cards_taken', { name: name(event.to), count: event.count, from: name(event.from) });
    case 'fortified':
      return t('cl_fortified', { units: event.units, from: place(event.from), to: place(event.to) });
    case 'card_drawn':
      return event.card ? t('cl_card_drawn_own', { card: cardText(view, event.card) }) : t('cl_card_drawn', { name: name(event.seat) });
    case 'turn_ended':
      return null;
    case 'won':
      return t('cl_won', { name: name(event.seat) });
    default:
      return null;
  }
}

/** @param {any} event @param {string[]} names @returns {import('./types.js').DiceRoll[]} */
function dice(event, names) {
  if (event.type === 'order_roll') return [{ label: names[event.seat] ?? '', dice: [event.die], seat: event.seat }];
  if (event.type !== 'battle') return [];
  return [
    { label: t('cl_attacker_dice'), dice: event.attacker_dice },
    { label: t('cl_defender_dice'), dice: event.defender_dice },
  ];
}

/** @type {RulesetUi} */
export const classic = {
  id: 'classic',
  fields: (defaults) =>
    withRemaining(defaults, [
      { key: 'setup', kind: 'select', values: ['claim', 'random'] },
      { key: 'fortify', kind: 'select', values: ['adjacent', 'connected'] },
    ]),
  controller,
  describe,
  dice,
  advance: (view, events) => advance(view, events),
  seatSummary: (view, seat) => {
    const player = view.players?.[seat];
    if (!player) return '';
    if (player.eliminated) return t('cl_out');
    return t('cl_summary', { territories: player.territories, units: player.units, cards: player.cards });
  },
};

/** @param {import('./types.js').PlayContext} ctx @returns {import('./types.js').Controller} */
function controller(ctx) {
  /** The selected own territory (attack or fortify source). @type {number | null} */
  let source = null;
  /** The fortify destination once chosen. @type {number | null} */
  let fortifyTo = null;
  /** Cards chosen for a trade. @type {number[]} */
  let chosenCards = [];
  /** How many dice the next attack rolls (clamped to what the source allows). */
  let diceCount = 3;
  /** How many units a click on a territory places. @type {number | null} */
  let placeCount = null;

  /** @param {PlayState} state */
  function analyse(state) {
    const view = state.view;
    /** @type {Territory[]} */
    const territories = view.territories;
    const borders = new Map(territories.map((territory) => [territory.id, /** @type {number[]} */ ([])]));
    for (const [a, b] of /** @type {[number, number][]} */ (view.borders)) {
      borders.get(a)?.push(b);
      borders.get(b)?.push(a);
    }
    const own = (/** @type {number} */ id) => territories[id]?.owner === state.seat;
    const step = view.phase.step;
    /** Own territories fortify may reach from `from` (bordering, or connected through own land). */
    const fortifyTargets = (/** @type {number} */ from) => {
      if (view.options.fortify !== 'connected') return (borders.get(from) ?? []).filter(own);
      const seen = new Set([from]);
      const queue = [from];
      while (queue.length > 0) {
        const next = /** @type {number} */ (queue.shift());
        for (const id of borders.get(next) ?? []) {
          if (own(id) && !seen.has(id)) {
            seen.add(id);
            queue.push(id);
          }
        }
      }
      seen.delete(from);
      return [...seen];
    };
    return { view, territories, borders, own, step, fortifyTargets };
  }

  /** @param {PlayState} state */
  function validSource(state) {
    const a = analyse(state);
    if (source === null || a.step !== 'attack' || !a.own(source) || a.territories[source].units < 2) {
      source = null;
      fortifyTo = null;
    }
    return a;
  }

  return {
    reset() {
      fortifyTo = null;
      chosenCards = [];
      placeCount = null;
    },
    click(id, state) {
      if (!state.interactive) return;
      const a = validSource(state);
      const territory = a.territories[id];
      if (!territory) return;
      if (a.step === 'claim') {
        if (territory.owner === null) ctx.act({ type: 'claim', territory: id });
        return;
      }
      if (a.step === 'deploy') {
        if (a.own(id)) ctx.act({ type: 'place', territory: id, units: 1 });
        return;
      }
      if (a.step === 'reinforce' || a.step === 'elimination_trade') {
        if (a.own(id) && a.view.reserve > 0) {
          const units = Math.max(1, Math.min(placeCount ?? a.view.reserve, a.view.reserve));
          ctx.act({ type: 'place', territory: id, units });
        }
        return;
      }
      if (a.step !== 'attack') return;
      if (source !== null && !a.own(id) && (a.borders.get(source) ?? []).includes(id)) {
        const dice = Math.max(1, Math.min(diceCount, 3, a.territories[source].units - 1));
        ctx.act({ type: 'attack', from: source, to: id, dice });
        return;
      }
      if (source !== null && id !== source && a.fortifyTargets(source).includes(id)) {
        fortifyTo = fortifyTo === id ? null : id;
      } else if (a.own(id) && territory.units >= 2 && id !== source) {
        source = id;
        fortifyTo = null;
      } else {
        source = null;
        fortifyTo = null;
      }
      ctx.rerender();
    },
    frame(state) {
      const a = validSource(state);
      const phase = a.view.phase;
      /** @type {Set<number>} */
      const targets = new Set();
      /** @type {Set<number>} */
      const friendly = new Set();
      /** @type {Set<number>} */
      const pickable = new Set();
      if (state.interactive) {
        for (const territory of a.territories) {
          if (a.step === 'claim' && territory.owner === null) targets.add(territory.id);
          if ((a.step === 'deploy' || ((a.step === 'reinforce' || a.step === 'elimination_trade') && a.view.reserve > 0)) && a.own(territory.id)) pickable.add(territory.id);
          if (a.step === 'attack' && a.own(territory.id) && territory.units >= 2) pickable.add(territory.id);
        }
        if (source !== null) {
          for (const id of a.borders.get(source) ?? []) if (!a.own(id)) targets.add(id);
          for (const id of a.fortifyTargets(source)) friendly.add(id);
        }
      }
      /** @type {import('../lib/board.js').Arrow[]} */
      const arrows = [];
      const recent = new Set();
      for (const event of state.lastEvents) {
        if (event.type === 'battle') arrows.push({ from: event.from, to: event.to, kind: 'attack' });
        if (event.type === 'fortified' || event.type === 'moved_in') arrows.push({ from: event.from, to: event.to, kind: 'move' });
        for (const key of ['territory', 'from', 'to']) if (typeof event[key] === 'number') recent.add(event[key]);
      }
      if (phase.step === 'move_in') arrows.push({ from: phase.from, to: phase.to, kind: 'preview' });
      if (source !== null && fortifyTo !== null) arrows.push({ from: source, to: fortifyTo, kind: 'preview' });
      return {
        decorate: (id) => {
          const territory = a.territories[id];
          if (!territory) return {};
          const classes = [];
          if (id === source || (phase.step === 'move_in' && (id === phase.from || id === phase.to))) classes.push('selected');
          if (targets.has(id)) classes.push('target', 'clickable');
          if (friendly.has(id)) classes.push('clickable', id === fortifyTo ? 'path' : 'friendly');
          if (pickable.has(id)) classes.push('clickable');
          if (recent.has(id)) classes.push('recent');
          return {
            fill: territory.owner === null ? NEUTRAL : seatColor(territory.owner),
            classes,
            // Classic territories are large clusters: larger labels stay readable.
            label: badge(territory.owner === null ? '' : territory.units, { name: territory.name, scale: 1.5 }),
            title: `${territory.name} — ${territory.units}`,
          };
        },
        arrows,
        links: a.view.borders,
        controls: controls(state, a),
        prompt: state.interactive ? promptOf(a) : null,
      };
    },
  };

  /** @param {ReturnType<typeof analyse>} a */
  function promptOf(a) {
    switch (a.step) {
      case 'claim':
        return t('cl_prompt_claim');
      case 'deploy':
        return t('cl_prompt_deploy', { left: a.view.players[a.view.to_act]?.starting_units_left ?? 0 });
      case 'reinforce':
        return t('cl_prompt_reinforce', { n: a.view.reserve });
      case 'elimination_trade':
        return t('cl_prompt_elimination_trade', { n: a.view.reserve });
      case 'attack':
        return t('cl_prompt_attack');
      case 'move_in':
        return t('cl_prompt_move_in');
      default:
        return null;
    }
  }

  /** @param {PlayState} state @param {ReturnType<typeof analyse>} a @returns {Node[]} */
  function controls(state, a) {
    /** @type {Node[]} */
    const nodes = [];
    const hand = /** @type {CardFace[] | undefined} */ (a.view.hand);
    if (hand && hand.length > 0) nodes.push(handBox(state, a, hand));
    if (!state.interactive) return nodes;
    const phase = a.view.phase;
    if ((a.step === 'reinforce' || a.step === 'elimination_trade') && a.view.reserve > 0) {
      const input = h('input', { type: 'number', min: 1, max: a.view.reserve, value: placeCount ?? a.view.reserve, class: 'short', 'aria-label': t('cl_units_per_click'), 'data-testid': 'place-count' });
      input.addEventListener('change', () => (placeCount = Number(input.value) || 1));
      nodes.push(h('div', { class: 'choice-group' }, t('cl_units_per_click'), ' ', input, h('span', { class: 'muted' }, ` / ${a.view.reserve}`)));
      if (hand && hand.length >= 5) nodes.push(h('p', { class: 'hint' }, t('cl_must_trade')));
    }
    if (a.step === 'attack') {
      if (source === null) {
        nodes.push(h('p', { class: 'hint' }, t('cl_hint_source')));
      } else {
        const units = a.territories[source].units;
        const most = Math.min(3, units - 1);
        nodes.push(
          h(
            'div',
            { class: 'choice-group' },
            t('cl_dice'),
            [1, 2, 3].map((n) =>
              h('button', {
                class: Math.min(diceCount, most) === n ? 'primary' : '',
                disabled: n > most,
                'data-dice': n,
                onclick: () => ((diceCount = n), ctx.rerender()),
              }, String(n)),
            ),
          ),
          h('p', { class: 'hint' }, t('cl_hint_target', { name: a.territories[source].name })),
        );
        if (fortifyTo !== null) {
          const count = h('input', { type: 'number', min: 1, max: units - 1, value: units - 1, class: 'short', 'aria-label': t('cl_fortify') });
          nodes.push(
            h(
              'div',
              { class: 'choice-group' },
              t('cl_fortify_units', { from: a.territories[source].name, to: a.territories[fortifyTo].name }),
              ' ',
              count,
              h('button', {
                class: 'primary',
                'data-action': 'fortify',
                onclick: () => ctx.act({ type: 'fortify', from: source, to: fortifyTo, units: Number(count.value) || 1 }),
              }, t('cl_fortify')),
            ),
          );
        }
      }
      nodes.push(h('button', { 'data-action': 'end-turn', onclick: () => ctx.act({ type: 'end_turn' }) }, t('end_turn')));
    }
    if (phase.step === 'move_in') {
      const count = h('input', { type: 'range', min: phase.min, max: phase.max, value: phase.max, 'aria-label': t('cl_move_in'), 'data-testid': 'move-in-count' });
      const shown = h('strong', {}, String(phase.max));
      count.addEventListener('input', () => (shown.textContent = count.value));
      nodes.push(
        h('p', { class: 'hint' }, t('cl_hint_move_in', { min: phase.min, max: phase.max, to: a.territories[phase.to]?.name ?? '' })),
        h('div', { class: 'choice-group' }, count, shown),
        h('button', { class: 'primary', 'data-action': 'move-in', onclick: () => ctx.act({ type: 'move_in', units: Number(count.value) }) }, t('cl_move_in')),
      );
    }
    return nodes;
  }

  /**
   * The player's cards, three of which can be chosen and traded while trading is open.
   * @param {PlayState} state @param {ReturnType<typeof analyse>} a @param {CardFace[]} hand
   */
  function handBox(state, a, hand) {
    // The engine says when trading is open (W-CARD-3: also in the attack step before the first attack).
    const canTrade = state.interactive && a.view.can_trade === true;
    chosenCards = chosenCards.filter((card) => hand.some((face) => face.card === card));
    const chosenFaces = hand.filter((face) => chosenCards.includes(face.card));
    const held = chosenFaces.filter((face) => face.territory !== null && a.own(face.territory));
    const bonusSelect =
      held.length > 1 && !a.view.territory_bonus_used
        ? h('select', { 'aria-label': t('cl_bonus_choice') }, held.map((face) => h('option', { value: String(face.territory) }, territoryName(a.view, /** @type {number} */ (face.territory)))))
        : null;
    return h(
      'div',
      { class: 'hand-box' },
      h('p', { class: 'hint' }, t('cl_hand', { n: hand.length, value: a.view.next_set_value })),
      h(
        'div',
        { class: 'hand' },
        hand.map((face) =>
          h('button', {
            class: `card-chip ${chosenCards.includes(face.card) ? 'chosen' : ''}`,
            disabled: !canTrade,
            'data-card': face.card,
            onclick: () => {
              chosenCards = chosenCards.includes(face.card)
                ? chosenCards.filter((card) => card !== face.card)
                : [...chosenCards, face.card].slice(-3);
              ctx.rerender();
            },
          }, cardText(a.view, face)),
        ),
      ),
      canTrade
        ? h(
            'div',
            { class: 'choice-group' },
            bonusSelect,
            h('button', {
              class: 'primary',
              disabled: chosenCards.length !== 3,
              'data-action': 'trade',
              onclick: () => {
                /** @type {Record<string, unknown>} */
                const action = { type: 'trade', cards: chosenCards };
                if (bonusSelect) action.bonus = Number(bonusSelect.value);
                ctx.act(action);
              },
            }, t('cl_trade', { value: a.view.next_set_value })),
          )
        : null,
    );
  }
}

/**
 * The view after `events` (engine/src/classic/event.rs), for replay steps sent without a view.
 * Hidden cards stay hidden: only the counts move.
 * @param {any} view @param {any[]} events
 */
function advance(view, events) {
  // The board never changes: share it rather than copy it.
  const next = { ...structuredClone({ ...view, board: null }), board: view.board };
  /** @type {Territory[]} */
  const territories = next.territories;
  /** The attacking territory of the last battle: a conquest moves units out of it. */
  let attacker = null;
  for (const event of events) {
    switch (event.type) {
      case 'territories_dealt':
        event.owners.forEach((/** @type {number} */ owner, /** @type {number} */ id) => {
          territories[id].owner = owner;
          territories[id].units = event.units[id];
        });
        break;
      case 'claimed':
        territories[event.territory].owner = event.seat;
        territories[event.territory].units = 1;
        break;
      case 'placed':
      case 'territory_bonus':
        territories[event.territory].units += event.units;
        break;
      case 'battle':
        territories[event.from].units -= event.attacker_losses;
        territories[event.to].units -= event.defender_losses;
        attacker = event.from;
        break;
      case 'conquered':
        territories[event.territory].owner = event.seat;
        territories[event.territory].units = event.units;
        if (attacker !== null) territories[attacker].units -= event.units;
        break;
      case 'moved_in':
      case 'fortified':
        territories[event.from].units -= event.units;
        territories[event.to].units += event.units;
        break;
      case 'set_traded':
        next.players[event.seat].cards = Math.max(0, next.players[event.seat].cards - 3);
        break;
      case 'card_drawn':
        next.players[event.seat].cards += 1;
        break;
      case 'cards_taken':
        next.players[event.to].cards += event.count;
        next.players[event.from].cards = 0;
        break;
      case 'eliminated':
        next.players[event.seat].eliminated = true;
        break;
      case 'turn_started':
        next.turn = event.turn;
        next.phase = { step: 'reinforce' };
        break;
      case 'won':
        next.phase = { step: 'over' };
        break;
      default:
        break;
    }
  }
  next.players.forEach((/** @type {any} */ player, /** @type {number} */ seat) => {
    const held = territories.filter((territory) => territory.owner === seat);
    player.territories = held.length;
    player.units = held.reduce((sum, territory) => sum + territory.units, 0);
  });
  return next;
}
