//! The match layout shared by live play, spectating and replays: the board, the players, whose
//! turn it is (and room for the clock), the ruleset's controls, the dice of the last action and
//! the event log in words.

import { h, s, replaceChildren } from '../lib/dom.js';
import { t, tMaybe } from '../lib/i18n.js';
import { Board, dieFace } from '../lib/board.js';
import { seatColor } from '../lib/colors.js';

/** @typedef {import('../rulesets/types.js').RulesetUi} RulesetUi */
/** @typedef {import('../rulesets/types.js').Controller} Controller */
/** @typedef {import('../rulesets/types.js').PlayState} PlayState */
/** @typedef {import('../lib/protocol.js').Room} Room */
/** @typedef {import('../lib/protocol.js').Outcome} Outcome */

/**
 * @typedef {{
 *   view: any, seat: number | null, toAct: number | null, outcome: Outcome | null,
 *   names: string[], room?: Room | null, seed?: string | null, seedCommitment?: string | null,
 * }} MatchState
 * @typedef {{seq: number, seat: number | null, events: any[]}} LogEntry
 */

const LOG_LIMIT = 400;

export class MatchView {
  /**
   * @param {{ruleset: RulesetUi, act: ((action: any) => void) | null}} options
   *   `act` is null where nobody plays (replays)
   */
  constructor({ ruleset, act }) {
    this.ruleset = ruleset;
    this.act = act;
    /** @type {LogEntry[]} */
    this.log = [];
    /** @type {any[]} */
    this.lastEvents = [];
    /** @type {MatchState | null} */
    this.state = null;
    /** @type {Board | null} */
    this.board = null;
    /** @type {string} */
    this.boardKey = '';
    /** @type {Controller} */
    this.controller = ruleset.controller({
      act: (action) => {
        this.act?.(action);
        this.controller.reset();
        this.redraw();
      },
      rerender: () => this.redraw(),
    });
    this.boardBox = h('div', { class: 'board-wrap', 'data-testid': 'board' });
    this.players = h('ul', { class: 'players', 'data-testid': 'players' });
    this.prompt = h('p', { class: 'prompt', 'data-testid': 'prompt', role: 'status' });
    // Room for a turn clock once the server sends one.
    this.clock = h('div', { class: 'clock', hidden: true, 'data-testid': 'clock' });
    this.controls = h('div', { class: 'controls', 'data-testid': 'controls' });
    this.dice = h('div', { class: 'dice-panel', 'data-testid': 'dice' });
    this.logList = h('ol', { class: 'log', 'data-testid': 'log', reversed: true });
    this.seedBox = h('p', { class: 'seed muted', 'data-testid': 'seed' });
    this.extra = h('div', { class: 'extra' });
    this.element = h(
      'div',
      { class: 'match' },
      this.boardBox,
      h(
        'aside',
        { class: 'side' },
        this.players,
        this.prompt,
        this.clock,
        this.controls,
        this.dice,
        this.extra,
        h('details', { class: 'log-box', open: true }, h('summary', {}, t('event_log')), this.logList),
        this.seedBox,
      ),
    );
  }

  /** A fresh snapshot (first join or resync): the log restarts from here. @param {number} seq */
  snapshot(seq) {
    if (this.log.length > 0) this.log.push({ seq, seat: null, events: [{ type: '__resynced' }] });
    this.lastEvents = [];
    this.controller.reset();
  }

  /** @param {number} seq @param {number | null} seat @param {any[]} events */
  applied(seq, seat, events) {
    this.log.push({ seq, seat, events });
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
    this.lastEvents = events;
    this.controller.reset();
  }

  /** Replaces the log (replays step through a known list). @param {LogEntry[]} entries */
  setLog(entries) {
    this.log = entries.slice(-LOG_LIMIT);
    this.lastEvents = entries.length > 0 ? entries[entries.length - 1].events : [];
    this.controller.reset();
  }

  /** @param {MatchState} state */
  update(state) {
    this.state = state;
    this.redraw();
  }

  redraw() {
    const state = this.state;
    if (!state || !state.view) return;
    /** @type {PlayState} */
    const play = {
      view: state.view,
      seat: state.seat,
      toAct: state.toAct,
      outcome: state.outcome,
      names: state.names,
      lastEvents: this.lastEvents,
      interactive: this.act !== null && state.seat !== null && state.toAct === state.seat && !state.outcome,
    };
    const regions = state.view.board?.regions ?? [];
    const key = `${regions.length}:${regions.map((/** @type {{cells: unknown[]}} */ r) => r.cells.length).join(',')}`;
    if (!this.board || key !== this.boardKey) {
      this.board = new Board(regions, (id) => this.controller.click(id, /** @type {PlayState} */ (this.playState())));
      this.boardKey = key;
      replaceChildren(this.boardBox, this.board.element);
    }
    // Exposed for tests and styles: which decision the match waits for.
    this.element.dataset.phase = state.view.phase?.phase ?? state.view.phase?.step ?? '';
    this.element.dataset.interactive = String(play.interactive);
    const frame = this.controller.frame(play);
    if (frame.links) this.board.setLinks(frame.links);
    this.board.update(frame.decorate, frame.arrows);
    this.boardBox.dataset.interactive = String(play.interactive);
    this.renderPlayers(state);
    this.prompt.textContent = frame.prompt ?? this.defaultPrompt(state, play);
    this.prompt.className = `prompt ${play.interactive ? 'your-turn' : ''}`;
    replaceChildren(this.controls, frame.controls);
    this.renderDice(state);
    this.renderLog(state);
    this.seedBox.textContent = state.seed
      ? t('seed_revealed', { seed: state.seed })
      : state.seedCommitment
        ? t('seed_commitment', { hash: state.seedCommitment.slice(0, 16) })
        : '';
  }

  /** The play state as of now (for clicks between redraws). */
  playState() {
    const state = this.state;
    if (!state) return null;
    return {
      view: state.view,
      seat: state.seat,
      toAct: state.toAct,
      outcome: state.outcome,
      names: state.names,
      lastEvents: this.lastEvents,
      interactive: this.act !== null && state.seat !== null && state.toAct === state.seat && !state.outcome,
    };
  }

  /** @param {MatchState} state @param {PlayState} play */
  defaultPrompt(state, play) {
    if (state.outcome) {
      const reason = tMaybe(`reason_${state.outcome.reason}`) ?? state.outcome.reason;
      return t('winner', { name: state.names[state.outcome.winner] ?? '?', reason });
    }
    if (play.interactive) return t('your_turn');
    if (state.toAct === null) return '';
    return t('waiting_for', { name: state.names[state.toAct] ?? '?' });
  }

  /** @param {MatchState} state */
  renderPlayers(state) {
    replaceChildren(
      this.players,
      state.names.map((name, seat) => {
        const info = state.room?.seats[seat];
        const winner = state.outcome?.winner === seat;
        return h(
          'li',
          {
            class: `player ${state.toAct === seat ? 'to-act' : ''} ${winner ? 'winner' : ''}`,
            style: `--seat:${seatColor(seat)}`,
            'data-seat': seat,
          },
          h('span', { class: 'swatch' }),
          h('span', { class: 'name' }, name, seat === state.seat ? ` (${t('you')})` : ''),
          info && info.connected === false ? h('span', { class: 'offline', title: t('offline') }, '⚠') : null,
          winner ? h('span', { class: 'crown', title: t('won') }, '★') : null,
          h('span', { class: 'summary muted' }, this.ruleset.seatSummary(state.view, seat)),
        );
      }),
    );
  }

  /** @param {MatchState} state */
  renderDice(state) {
    /** @type {import('../rulesets/types.js').DiceRoll[]} */
    const rolls = [];
    // One die per event (capitals) reads better as one row per side: merge neighbouring rows.
    for (const roll of this.lastEvents.flatMap((event) => this.ruleset.dice(event, state.names))) {
      const last = rolls[rolls.length - 1];
      if (last && last.label === roll.label && last.seat === roll.seat) {
        last.dice.push(...roll.dice);
        if (last.caps || roll.caps) last.caps = [...(last.caps ?? []), ...(roll.caps ?? [])];
      } else {
        rolls.push({ ...roll, dice: [...roll.dice], caps: roll.caps ? [...roll.caps] : undefined });
      }
    }
    replaceChildren(
      this.dice,
      rolls.map((roll) =>
        h(
          'div',
          { class: 'roll' },
          h('span', { class: 'roll-label' }, roll.label),
          h(
            'span',
            { class: 'roll-dice' },
            roll.dice.map((value, index) => {
              const svg = s('svg', { viewBox: '-6 -6 12 12', class: 'die-icon', 'data-die': value });
              const cap = roll.caps?.[index];
              svg.append(dieFace(value, { size: 10, color: roll.seat === undefined ? '#fffdf7' : seatColor(roll.seat), pip: roll.seat === undefined || roll.seat === null ? '#1d2330' : '#fff' }));
              return cap !== undefined && cap < value ? h('span', { class: 'capped', title: t('capped_at', { cap }) }, svg, `→${cap}`) : svg;
            }),
          ),
        ),
      ),
    );
  }

  /** @param {MatchState} state */
  renderLog(state) {
    const lines = [];
    for (const entry of this.log) {
      for (const event of entry.events) {
        const text =
          event?.type === '__resynced' ? t('resynced') : this.ruleset.describe(event, state.names, state.view);
        if (text) lines.push(h('li', { 'data-seq': entry.seq }, text));
      }
    }
    replaceChildren(this.logList, lines.reverse());
  }

  dispose() {}
}
