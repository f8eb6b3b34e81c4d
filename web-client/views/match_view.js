//! The match layout shared by live play, spectating and replays: the board, the players, whose
//! turn it is and its clock (views/clock.js), the ruleset's controls, the dice of the last action and
//! the event log in words, from the setup on.

import { h, replaceChildren, replaceKeepingFocus } from '../lib/dom.js';
import { t, tMaybe } from '../lib/i18n.js';
import { Board } from '../lib/board.js';
import { seatColor, seatSymbol, seatInk } from '../lib/colors.js';
import { diceRow } from '../lib/dice.js';
import { ClockPanel } from './clock.js';

/** @typedef {import('../rulesets/types.js').RulesetUi} RulesetUi */
/** @typedef {import('../rulesets/types.js').Controller} Controller */
/** @typedef {import('../rulesets/types.js').PlayState} PlayState */
/** @typedef {import('../rulesets/types.js').DiceRoll} DiceRoll */
/** @typedef {import('../lib/protocol.js').Room} Room */
/** @typedef {import('../lib/protocol.js').Outcome} Outcome */
/** @typedef {import('../lib/match_log.js').LogEntry} LogEntry */
/** @typedef {import('./clock.js').ReceivedClock} ReceivedClock */

/**
 * @typedef {{
 *   view: any, seat: number | null, toAct: number | null, outcome: Outcome | null,
 *   names: string[], room?: Room | null, seed?: string | null, seedCommitment?: string | null,
 *   legal?: any[] | null, clock?: ReceivedClock | null,
 * }} MatchState
 */

export class MatchView {
  /**
   * @param {{ruleset: RulesetUi, act: ((action: any) => void) | null}} options
   *   `act` is null where nobody plays (replays)
   */
  constructor({ ruleset, act }) {
    this.ruleset = ruleset;
    this.act = act;
    /** The log shown: entries in seq order. @type {LogEntry[]} */
    this.log = [];
    /** How many of `log`'s entries are drawn, and the last one drawn (to append only the new). */
    /** @type {{count: number, last: LogEntry | null}} */
    this.drawn = { count: 0, last: null };
    /** The events of the last action (its dice and arrows). @type {any[]} */
    this.lastEvents = [];
    /** An action was sent and its answer has not come yet: no second one meanwhile. */
    this.pending = false;
    /** @type {MatchState | null} */
    this.state = null;
    /** @type {Board | null} */
    this.board = null;
    /** @type {string} */
    this.boardKey = '';
    /** @type {Controller} */
    this.controller = ruleset.controller({
      act: (action) => {
        if (!this.act || this.pending) return;
        this.pending = true;
        this.act(action);
        this.redraw();
      },
      rerender: () => this.redraw(),
    });
    this.boardBox = h('div', { class: 'board-wrap', 'data-testid': 'board' });
    this.players = h('ul', { class: 'players', 'data-testid': 'players' });
    // Where focus goes when the control that held it is gone (the turn ended): never the body.
    this.prompt = h('p', { class: 'prompt', 'data-testid': 'prompt', role: 'status', tabindex: -1 });
    // The turn clock, when the room has one.
    this.clockPanel = new ClockPanel();
    this.clock = this.clockPanel.element;
    this.controls = h('div', { class: 'controls', 'data-testid': 'controls' });
    // On a phone the controls of the seat to act stay at the bottom of the screen (style.css):
    // the page keeps room under everything for them, so nothing stays hidden behind them.
    this.controlsSpace = new ResizeObserver(() => {
      const docked = getComputedStyle(this.controls).position === 'fixed';
      this.element.style.setProperty('--controls-space', docked ? `${Math.ceil(this.controls.getBoundingClientRect().height)}px` : '0px');
    });
    this.controlsSpace.observe(this.controls);
    this.dice = h('div', { class: 'dice-panel', 'data-testid': 'dice', 'aria-live': 'polite' });
    this.logList = h('ol', { class: 'log', 'data-testid': 'log', reversed: true });
    this.logNote = h('p', { class: 'muted log-note', hidden: true });
    this.seedBox = h('p', { class: 'seed muted', 'data-testid': 'seed' });
    this.extra = h('div', { class: 'extra', 'data-testid': 'extra' });
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
        h('details', { class: 'log-box', open: true }, h('summary', {}, t('event_log')), this.logNote, this.logList),
        this.seedBox,
      ),
    );
  }

  /** The match has just appeared in place of something that held focus: focus goes to its prompt. */
  focusStart() {
    this.prompt.focus();
  }

  /** The answer to the last action came (applied or a fresh snapshot): the choice is done. */
  settled() {
    this.pending = false;
    this.controller.reset();
  }

  /** The last action was refused: the half-built choice stays, to be corrected. @param {string} text */
  refused(text) {
    void text;
    this.pending = false;
    this.redraw();
  }

  /** Whether the earlier part of the log could be fetched. @param {boolean} ok */
  history(ok) {
    this.logNote.hidden = ok;
    this.logNote.textContent = ok ? '' : t('log_incomplete');
  }

  /**
   * The log to show and the events of the last action; drawn on the next update.
   * @param {LogEntry[]} entries @param {any[]} lastEvents
   */
  showLog(entries, lastEvents) {
    this.log = entries;
    this.lastEvents = lastEvents;
  }

  /** @param {MatchState} state */
  update(state) {
    this.state = state;
    this.redraw();
  }

  redraw() {
    const state = this.state;
    if (!state || !state.view) return;
    const play = /** @type {PlayState} */ (this.playState());
    const regions = state.view.board?.regions ?? [];
    const key = `${regions.length}:${regions.map((/** @type {{cells: unknown[]}} */ r) => r.cells.length).join(',')}`;
    if (!this.board || key !== this.boardKey) {
      this.board?.dispose();
      this.board = new Board(regions, (id) => {
        const now = this.playState();
        if (now && !this.pending) this.controller.click(id, now);
      });
      this.boardKey = key;
      replaceChildren(this.boardBox, this.board.element, this.board.zoomControls(), this.board.help(), this.board.info, this.board.list);
    }
    // Exposed for tests and styles: which decision the match waits for.
    this.element.dataset.phase = state.view.phase?.phase ?? state.view.phase?.step ?? '';
    this.element.dataset.interactive = String(play.interactive);
    this.element.dataset.pending = String(this.pending);
    const frame = this.controller.frame(play);
    if (frame.links) this.board.setLinks(frame.links);
    if (frame.overlay) {
      this.board.setOverlay(frame.overlay.groups);
      this.board.showOverlay(frame.overlay.shown);
    }
    this.board.update(frame.decorate, frame.arrows);
    this.boardBox.dataset.interactive = String(play.interactive);
    this.renderPlayers(state);
    this.clockPanel.show(state.clock ?? null, { names: state.names, mySeat: state.seat, over: Boolean(state.outcome), players: this.players });
    this.prompt.textContent = frame.prompt ?? this.defaultPrompt(state, play);
    this.prompt.className = `prompt ${play.interactive ? 'your-turn' : ''}`;
    replaceKeepingFocus(this.controls, this.prompt, frame.controls);
    this.controls.classList.toggle('pending', this.pending);
    replaceKeepingFocus(this.extra, this.prompt, frame.extra ?? []);
    this.renderDice(state);
    this.renderLog(state);
    this.seedBox.textContent = state.seed
      ? t('seed_revealed', { seed: state.seed })
      : state.seedCommitment
        ? t('seed_commitment', { hash: state.seedCommitment.slice(0, 16) })
        : '';
  }

  /** The play state as of now (for clicks between redraws). @returns {PlayState | null} */
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
      legal: state.legal ?? null,
      interactive: this.act !== null && state.seat !== null && state.toAct === state.seat && !state.outcome,
    };
  }

  /** @param {MatchState} state @param {PlayState} play */
  defaultPrompt(state, play) {
    if (state.outcome) {
      const reason = outcomeReason(state.outcome, state.seat);
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
            style: `--seat:${seatColor(seat)};--seat-ink:${seatInk(seat)}`,
            'data-seat': seat,
          },
          h('span', { class: 'swatch', 'aria-hidden': 'true' }, seatSymbol(seat)),
          h('span', { class: 'name' }, name, seat === state.seat ? ` (${t('you')})` : ''),
          state.toAct === seat ? h('span', { class: 'sr-only' }, t('to_act_now')) : null,
          // A computer has no connection to lose: only a person is ever away.
          info && info.connected === false && !info.bot ? h('span', { class: 'offline', title: t('offline'), 'aria-label': t('offline') }, '⚠') : null,
          winner ? h('span', { class: 'crown', title: t('won'), 'aria-label': t('won') }, '★') : null,
          h('span', { class: 'summary muted' }, this.ruleset.seatSummary(state.view, seat)),
        );
      }),
    );
  }

  /** @param {MatchState} state */
  renderDice(state) {
    /** @type {DiceRoll[]} */
    const rolls = [];
    // One die per event (capitals) reads better as one row per side: merge neighbouring rows.
    for (const roll of this.lastEvents.flatMap((event) => this.ruleset.dice(event, state.names))) {
      // A total without dice (capitals' battle sums) joins its side's row.
      const side = roll.dice.length === 0 && roll.total !== undefined ? rolls.find((row) => row.label === roll.label && row.total === undefined && !row.pairs) : undefined;
      if (side) {
        side.total = roll.total;
        continue;
      }
      const last = rolls[rolls.length - 1];
      if (last && last.label === roll.label && last.seat === roll.seat && !last.pairs && !roll.pairs) {
        last.dice.push(...roll.dice);
        if (last.caps || roll.caps) last.caps = [...(last.caps ?? last.dice.map(() => undefined)), ...(roll.caps ?? [])];
        if (last.kinds || roll.kinds) last.kinds = [...(last.kinds ?? []), ...(roll.kinds ?? [])];
        if (roll.total !== undefined) last.total = roll.total;
      } else {
        rolls.push({ ...roll, dice: [...roll.dice], caps: roll.caps ? [...roll.caps] : undefined, kinds: roll.kinds ? [...roll.kinds] : undefined });
      }
    }
    const key = JSON.stringify(rolls);
    if (key === this.dice.dataset.key) return;
    this.dice.dataset.key = key;
    replaceChildren(this.dice, rolls.map((roll) => diceRow(roll)));
    // A new roll tumbles briefly (style.css stills it under prefers-reduced-motion).
    for (const die of this.dice.querySelectorAll('.die-wrap')) die.classList.add('rolling');
  }

  /** Draws the log, appending only new entries when the earlier ones are unchanged. @param {MatchState} state */
  renderLog(state) {
    const { count, last } = this.drawn;
    const unchanged = count > 0 && count <= this.log.length && this.log[count - 1] === last;
    if (!unchanged) replaceChildren(this.logList);
    const from = unchanged ? count : 0;
    /** @type {HTMLElement[]} */
    const lines = [];
    for (const entry of this.log.slice(from)) {
      const name = entry.seat === null ? '?' : (state.names[entry.seat] ?? '?');
      if (entry.resigned && entry.seat !== null) {
        lines.push(h('li', { 'data-seq': entry.seq, class: 'resigned' }, t('log_resigned', { name })));
      }
      // The clock played for the seat: said first, in a line of its own.
      if (entry.by === 'clock' && entry.seat !== null) {
        lines.push(h('li', { 'data-seq': entry.seq }, h('span', { class: 'by by-clock', 'data-by': 'clock' }, t('log_clock_played', { name }))));
      }
      // A bot played a person's seat: the first line of that seat's own move says so (a
      // computer's seat says it in its name; lines about other seats, such as the next turn,
      // are not its move).
      let botMark = entry.by === 'bot' && entry.seat !== null && !state.room?.seats[entry.seat]?.bot;
      for (const event of entry.events) {
        const text = this.ruleset.describe(event, state.names, state.view);
        if (!text) continue;
        const own = typeof event.seat !== 'number' || event.seat === entry.seat;
        const mark = botMark && own ? h('span', { class: 'by by-bot muted', 'data-by': 'bot' }, ` (${t('by_bot')})`) : null;
        if (mark) botMark = false;
        lines.push(h('li', { 'data-seq': entry.seq }, text, mark));
      }
    }
    // Newest first.
    this.logList.prepend(...lines.reverse());
    // The numbers before the lines get the room their digits take (1,234 lines: four).
    this.logList.style.setProperty('--digits', String(String(this.logList.children.length).length));
    this.drawn = { count: this.log.length, last: this.log[this.log.length - 1] ?? null };
  }

  dispose() {
    this.controlsSpace.disconnect();
    this.board?.dispose();
    this.clockPanel.dispose();
  }
}

/**
 * Why a match ended, in words for this reader: "you resigned" to the player who did (the only
 * way a seat loses to `opponent_resigned`).
 * @param {Outcome} outcome @param {number | null} seat the reader's, if any
 */
export function outcomeReason(outcome, seat) {
  if (outcome.reason === 'opponent_resigned' && seat !== null && seat !== outcome.winner) return t('reason_you_resigned');
  return tMaybe(`reason_${outcome.reason}`) ?? outcome.reason;
}
