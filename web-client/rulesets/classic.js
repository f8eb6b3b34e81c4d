//! The classic play UI (RULES.md "classic"; JSON of engine/src/classic/{action,event,view}.rs):
//! claiming and deploying (by hand or "place for me"), card trades, placing reinforcements a few
//! at a time, attacks confirmed with a dice count, the move-in count after a conquest, and the
//! fortify that ends a turn. Continents can be outlined with their bonuses.

import { h } from '../lib/dom.js';
import { t, tMaybe } from '../lib/i18n.js';
import { badge, BADGE_TEXT } from '../lib/board.js';
import { seatColor, seatSymbol, NEUTRAL } from '../lib/colors.js';
import { withRemaining } from '../views/options.js';

/** @typedef {import('./types.js').RulesetUi} RulesetUi */
/** @typedef {import('./types.js').PlayState} PlayState */
/** @typedef {{id: number, name: string, continent: string, owner: number | null, units: number}} Territory */
/** @typedef {{id: string, name: string, bonus: number, territories: number[]}} Continent */
/** @typedef {{card: number, territory: number | null, symbol: string}} CardFace */

const SYMBOL = /** @type {Record<string, string>} */ ({ infantry: '♟', cavalry: '♞', artillery: '✸', wild: '✱' });
const CONTINENTS_KEY = 'warroom.classic.continents';
/** Classic territories are large clusters: larger labels stay readable. */
const LABEL_SCALE = 1.5;

/** The i18n key of an English territory or continent name. @param {string} name */
const slug = (name) => name.toLowerCase().replace(/[^a-z]+/g, '_').replace(/^_|_$/g, '');

/** A territory's name in the reader's language. @param {any} view @param {number} id */
export function territoryName(view, id) {
  const name = view?.territories?.[id]?.name;
  if (!name) return `#${id}`;
  return tMaybe(`terr_${slug(name)}`) ?? name;
}

/** A continent's name in the reader's language. @param {Continent} continent */
function continentName(continent) {
  return tMaybe(`cont_${continent.id}`) ?? continent.name;
}

/** @param {any} view @param {CardFace} card */
function cardText(view, card) {
  const symbol = `${SYMBOL[card.symbol] ?? ''} ${tMaybe(`cl_symbol_${card.symbol}`) ?? card.symbol}`;
  return card.territory === null ? symbol : `${symbol} · ${territoryName(view, card.territory)}`;
}

/** Highest first. @param {number[]} dice */
const sorted = (dice) => [...dice].sort((a, b) => b - a);

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
      return t('cl_deck_shuffled', { n: event.cards });
    case 'territories_dealt':
      return t('cl_dealt');
    case 'claimed':
      return t('cl_claimed', { name: name(event.seat), territory: place(event.territory) });
    case 'placed':
      return t('cl_placed', { name: name(event.seat), n: event.units, territory: place(event.territory) });
    case 'turn_started':
      return t('cl_turn', { turn: event.turn, name: name(event.seat), n: event.reinforcements });
    case 'set_traded':
      return t('cl_traded', { name: name(event.seat), n: event.units, cards: event.cards.map((/** @type {CardFace} */ c) => cardText(view, c)).join(', ') });
    case 'territory_bonus':
      return t('cl_bonus', { territory: place(event.territory), n: event.units });
    case 'battle':
      return `${t('cl_battle', {
        from: place(event.from),
        to: place(event.to),
        a: sorted(event.attacker_dice).join(' '),
        d: sorted(event.defender_dice).join(' '),
      })} ${t('cl_losses', { a: t('cl_lose_units', { n: event.attacker_losses }), d: t('cl_lose_units', { n: event.defender_losses }) })}`;
    case 'conquered':
      return t('cl_conquered', { name: name(event.seat), territory: place(event.territory), n: event.units });
    case 'moved_in':
      return t('cl_moved_in', { n: event.units, to: place(event.to) });
    case 'eliminated':
      return t('cl_eliminated', { name: name(event.seat), by: name(event.by) });
    case 'cards_taken':
      return t('cl_cards_taken', { name: name(event.to), n: event.count, from: name(event.from) });
    case 'fortified':
      return t('cl_fortified', { n: event.units, from: place(event.from), to: place(event.to) });
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
  const attack = sorted(event.attacker_dice);
  const defence = sorted(event.defender_dice);
  const compared = Math.min(attack.length, defence.length);
  return [
    {
      label: t('cl_dice_compared'),
      dice: [],
      pairs: attack.slice(0, compared).map((value, index) => ({
        attack: value,
        defence: defence[index],
        winner: value > defence[index] ? 'attacker' : 'defender',
      })),
    },
    ...(attack.length > compared ? [{ label: t('cl_dice_unmatched'), dice: attack.slice(compared) }] : []),
  ];
}

/** @type {RulesetUi} */
export const classic = {
  id: 'classic',
  fields: (defaults) =>
    withRemaining(defaults, [
      // Dealing at random saves a quick room 30 to 40 single claims each.
      { key: 'setup', kind: 'select', values: ['random', 'claim'], preferred: 'random' },
      { key: 'fortify', kind: 'select', values: ['adjacent', 'connected'] },
    ]),
  controller,
  describe,
  dice,
  seatSummary: (view, seat) => {
    const player = view.players?.[seat];
    if (!player) return '';
    if (player.eliminated) return t('cl_out');
    return `${t('cl_territories', { n: player.territories })} · ${t('units_count', { n: player.units })} · ${t('cl_cards', { n: player.cards })}`;
  },
  paramText: (name, value, view) => (['territory', 'from', 'to'].includes(name) ? territoryName(view, value) : value),
};

/** @param {import('./types.js').PlayContext} ctx @returns {import('./types.js').Controller} */
function controller(ctx) {
  /** The selected own territory (attack or fortify source). @type {number | null} */
  let source = null;
  /** The enemy territory chosen to attack, waiting for the confirmation. @type {number | null} */
  let attackTo = null;
  /** The fortify destination once chosen. @type {number | null} */
  let fortifyTo = null;
  /** Cards chosen for a trade. @type {number[]} */
  let chosenCards = [];
  /** How many dice the next attack rolls (clamped to what the source allows). */
  let diceCount = 3;
  /** How many units a click on a territory places (small by default: a misclick costs little). */
  let placeCount = 1;
  /** "Place for me": claim and deploy automatically while the setup lasts. */
  let autoSetup = false;
  /** Whether the continents are outlined. */
  let showContinents = localStorage.getItem(CONTINENTS_KEY) === 'on';

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
    const enemyNeighbour = (/** @type {number} */ from, /** @type {number} */ to) => !own(to) && (borders.get(from) ?? []).includes(to);
    // Drop choices the state no longer allows (the match moved on).
    if (source !== null && (step !== 'attack' || !own(source) || territories[source].units < 2)) {
      source = null;
      fortifyTo = null;
    }
    if (source === null || attackTo === null || !enemyNeighbour(source, attackTo)) attackTo = null;
    if (source === null || (fortifyTo !== null && !fortifyTargets(source).includes(fortifyTo))) fortifyTo = null;
    return { view, territories, borders, own, step, fortifyTargets, enemyNeighbour };
  }

  /**
   * "Place for me": the claim or starting unit a careful player would choose: next to own land,
   * in the continent where this seat holds most.
   * @param {PlayState} state @param {ReturnType<typeof analyse>} a
   */
  function setupChoice(state, a) {
    /** @type {Continent[]} */
    const continents = a.view.continents ?? [];
    const share = (/** @type {Territory} */ territory) => {
      const continent = continents.find((c) => c.id === territory.continent);
      if (!continent) return 0;
      return continent.territories.filter((id) => a.own(id)).length / continent.territories.length;
    };
    const score = (/** @type {Territory} */ territory) => {
      const around = a.borders.get(territory.id) ?? [];
      const mine = around.filter(a.own).length;
      const enemies = around.filter((id) => a.territories[id].owner !== null && !a.own(id)).length;
      return a.step === 'claim' ? mine * 2 + share(territory) * 3 - territory.id * 1e-3 : enemies * 2 - territory.units * 0.5 + share(territory) - territory.id * 1e-3;
    };
    const candidates = a.territories.filter((territory) => (a.step === 'claim' ? territory.owner === null : a.own(territory.id)));
    candidates.sort((x, y) => score(y) - score(x));
    const best = candidates[0];
    if (!best) return null;
    return a.step === 'claim' ? { type: 'claim', territory: best.id } : { type: 'place', territory: best.id, units: 1 };
  }

  return {
    reset() {
      fortifyTo = null;
      chosenCards = [];
    },
    click(id, state) {
      if (!state.interactive) return;
      const a = analyse(state);
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
          ctx.act({ type: 'place', territory: id, units: Math.max(1, Math.min(placeCount, a.view.reserve)) });
        }
        return;
      }
      if (a.step !== 'attack') return;
      if (source !== null && a.enemyNeighbour(source, id)) {
        // Chosen, not sent: the attack waits for its button.
        attackTo = attackTo === id ? null : id;
        fortifyTo = null;
      } else if (source !== null && id !== source && a.fortifyTargets(source).includes(id)) {
        fortifyTo = fortifyTo === id ? null : id;
        attackTo = null;
      } else if (a.own(id) && territory.units >= 2 && id !== source) {
        source = id;
        attackTo = null;
        fortifyTo = null;
      } else if (id === source) {
        source = null;
        attackTo = null;
        fortifyTo = null;
      } else {
        return;
      }
      ctx.rerender();
    },
    frame(state) {
      const a = analyse(state);
      const phase = a.view.phase;
      if (autoSetup && state.interactive && (a.step === 'claim' || a.step === 'deploy')) {
        const action = setupChoice(state, a);
        if (action) queueMicrotask(() => ctx.act(action));
      }
      /** @type {Set<number>} */
      const targets = new Set();
      /** @type {Set<number>} */
      const friendly = new Set();
      /** @type {Set<number>} */
      const sources = new Set();
      if (state.interactive) {
        for (const territory of a.territories) {
          if (a.step === 'claim' && territory.owner === null) targets.add(territory.id);
          if ((a.step === 'deploy' || ((a.step === 'reinforce' || a.step === 'elimination_trade') && a.view.reserve > 0)) && a.own(territory.id)) targets.add(territory.id);
          if (a.step === 'attack' && source === null && a.own(territory.id) && territory.units >= 2) sources.add(territory.id);
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
      if (source !== null && attackTo !== null) arrows.push({ from: source, to: attackTo, kind: 'preview' });
      /** @type {Continent[]} */
      const continents = a.view.continents ?? [];
      return {
        decorate: (id) => {
          const territory = a.territories[id];
          if (!territory) return {};
          const classes = [];
          if (id === source || id === attackTo || (phase.step === 'move_in' && (id === phase.from || id === phase.to))) classes.push('selected');
          if (targets.has(id) && id !== attackTo) classes.push('target', 'clickable');
          if (friendly.has(id)) classes.push('clickable', id === fortifyTo ? 'path' : 'friendly');
          if (sources.has(id)) classes.push('source', 'clickable');
          if (recent.has(id)) classes.push('recent');
          const name = territoryName(a.view, id);
          const owner = territory.owner === null ? t('neutral') : `${state.names[territory.owner] ?? '?'} ${seatSymbol(territory.owner)}`;
          const continent = continents.find((c) => c.id === territory.continent);
          const title = `${name} (${continent ? continentName(continent) : ''}) — ${owner}: ${t('units_count', { n: territory.units })}`;
          return {
            fill: territory.owner === null ? NEUTRAL : seatColor(territory.owner),
            owner: territory.owner,
            classes,
            label: badge(territory.owner === null ? '' : territory.units, { scale: LABEL_SCALE, seat: territory.owner }),
            // The count stays readable however far the map is zoomed out (names make way).
            labelText: BADGE_TEXT * LABEL_SCALE,
            name,
            title,
            speech: title,
          };
        },
        arrows,
        links: a.view.borders,
        overlay: {
          shown: showContinents,
          groups: continents.map((continent) => ({
            name: `${continentName(continent)} +${continent.bonus}`,
            regions: continent.territories,
            labelAt: labelTerritory(a.view, continent),
          })),
        },
        controls: controls(state, a),
        extra: [continentLegend(state, a, continents)],
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
        return t('cl_prompt_deploy', { n: a.view.players[a.view.to_act]?.starting_units_left ?? 0 });
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

  /** The continents, their bonuses and who holds each whole; the switch for the outlines. @param {PlayState} state @param {ReturnType<typeof analyse>} a @param {Continent[]} continents */
  function continentLegend(state, a, continents) {
    const toggle = h('input', { type: 'checkbox', checked: showContinents, 'data-testid': 'show-continents' });
    toggle.addEventListener('change', () => {
      showContinents = toggle.checked;
      localStorage.setItem(CONTINENTS_KEY, showContinents ? 'on' : 'off');
      ctx.rerender();
    });
    return h(
      'details',
      { class: 'legend', 'data-testid': 'legend', open: showContinents },
      h('summary', {}, t('cl_continents')),
      h('label', { class: 'check' }, toggle, ` ${t('cl_show_continents')}`),
      h(
        'table',
        { class: 'continents' },
        h('thead', {}, h('tr', {}, h('th', {}, t('cl_continent')), h('th', {}, t('cl_bonus_column')), h('th', {}, t('cl_holder')))),
        h(
          'tbody',
          {},
          continents.map((continent) => {
            const owners = new Set(continent.territories.map((id) => a.territories[id]?.owner));
            const holder = owners.size === 1 ? [...owners][0] : null;
            return h(
              'tr',
              { 'data-continent': continent.id },
              h('td', {}, continentName(continent)),
              h('td', {}, `+${continent.bonus}`),
              h('td', {}, holder === null || holder === undefined ? '—' : `${seatSymbol(holder)} ${state.names[holder] ?? '?'}`),
            );
          }),
        ),
      ),
    );
  }

  /** @param {PlayState} state @param {ReturnType<typeof analyse>} a @returns {Node[]} */
  function controls(state, a) {
    /** @type {Node[]} */
    const nodes = [];
    const hand = /** @type {CardFace[] | undefined} */ (a.view.hand);
    if (hand && hand.length > 0) nodes.push(handBox(state, a, hand));
    if ((a.step === 'claim' || a.step === 'deploy') && state.seat !== null && a.view.phase.step !== 'over') {
      const auto = h('input', { type: 'checkbox', checked: autoSetup, 'data-testid': 'place-for-me' });
      auto.addEventListener('change', () => {
        autoSetup = auto.checked;
        ctx.rerender();
      });
      nodes.push(h('label', { class: 'check' }, auto, ` ${t('cl_place_for_me')}`));
    }
    if (!state.interactive) return nodes;
    const phase = a.view.phase;
    if ((a.step === 'reinforce' || a.step === 'elimination_trade') && a.view.reserve > 0) {
      const reserve = a.view.reserve;
      placeCount = Math.max(1, Math.min(placeCount, reserve));
      const set = (/** @type {number} */ n) => {
        placeCount = Math.max(1, Math.min(n, reserve));
        ctx.rerender();
      };
      nodes.push(
        h(
          'div',
          { class: 'choice-group', role: 'group', 'aria-label': t('cl_units_per_click') },
          h('span', {}, t('cl_units_per_click')),
          h('button', { 'data-step': 'less', 'aria-label': t('less'), disabled: placeCount <= 1, onclick: () => set(placeCount - 1) }, '−'),
          h('output', { 'data-testid': 'place-count', 'aria-live': 'polite' }, String(placeCount)),
          h('button', { 'data-step': 'more', 'aria-label': t('more'), disabled: placeCount >= reserve, onclick: () => set(placeCount + 1) }, '+'),
          h('button', { 'data-step': 'all', disabled: placeCount === reserve, onclick: () => set(reserve) }, t('cl_all', { n: reserve })),
        ),
      );
      if (hand && hand.length >= 5) nodes.push(h('p', { class: 'hint' }, t('cl_must_trade')));
    }
    if (a.step === 'attack') {
      if (source === null) {
        nodes.push(h('p', { class: 'hint' }, t('cl_hint_source')));
      } else {
        const units = a.territories[source].units;
        const most = Math.min(3, units - 1);
        const dice = Math.min(diceCount, most);
        nodes.push(
          h('p', { class: 'hint' }, attackTo === null ? t('cl_hint_target', { name: territoryName(a.view, source) }) : t('cl_attack_ready', { from: territoryName(a.view, source), to: territoryName(a.view, attackTo) })),
          h(
            'div',
            { class: 'choice-group', role: 'radiogroup', 'aria-label': t('cl_dice') },
            t('cl_dice'),
            [1, 2, 3].map((n) =>
              h('button', {
                class: dice === n ? 'primary' : '',
                role: 'radio',
                'aria-checked': String(dice === n),
                disabled: n > most,
                'data-dice': n,
                onclick: () => ((diceCount = n), ctx.rerender()),
              }, String(n)),
            ),
          ),
        );
        if (attackTo !== null) {
          const to = attackTo;
          const from = source;
          nodes.push(
            h('button', { class: 'primary danger', 'data-action': 'attack', onclick: () => ctx.act({ type: 'attack', from, to, dice }) }, t('cl_attack_button', { n: dice })),
          );
        }
        if (fortifyTo !== null) {
          const count = h('input', { type: 'number', min: 1, max: units - 1, value: 1, class: 'short', 'aria-label': t('cl_fortify'), 'data-testid': 'fortify-count' });
          const from = source;
          const to = fortifyTo;
          nodes.push(
            h(
              'div',
              { class: 'choice-group' },
              t('cl_fortify_units', { from: territoryName(a.view, source), to: territoryName(a.view, fortifyTo) }),
              ' ',
              count,
              h('span', { class: 'muted' }, `/ ${units - 1}`),
              h('button', {
                class: 'primary',
                'data-action': 'fortify',
                onclick: () => ctx.act({ type: 'fortify', from, to, units: Math.max(1, Math.min(Number(count.value) || 1, units - 1)) }),
              }, t('cl_fortify')),
            ),
          );
        }
        nodes.push(h('button', { 'data-action': 'cancel', onclick: () => ((source = null), (attackTo = null), (fortifyTo = null), ctx.rerender()) }, t('cancel')));
      }
      nodes.push(h('button', { 'data-action': 'end-turn', onclick: () => ctx.act({ type: 'end_turn' }) }, t('end_turn')));
    }
    if (phase.step === 'move_in') {
      const count = h('input', { type: 'range', min: phase.min, max: phase.max, value: phase.max, 'aria-label': t('cl_move_in'), 'data-testid': 'move-in-count' });
      const shown = h('strong', {}, String(phase.max));
      count.addEventListener('input', () => (shown.textContent = count.value));
      nodes.push(
        h('p', { class: 'hint' }, t('cl_hint_move_in', { min: phase.min, max: phase.max, to: territoryName(a.view, phase.to) })),
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
            'aria-pressed': String(chosenCards.includes(face.card)),
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

/** Where a continent's label goes: its largest territory. @param {any} view @param {Continent} continent */
function labelTerritory(view, continent) {
  const regions = view.board?.regions ?? [];
  let best = continent.territories[0];
  for (const id of continent.territories) {
    if ((regions[id]?.cells.length ?? 0) > (regions[best]?.cells.length ?? 0)) best = id;
  }
  return best;
}
