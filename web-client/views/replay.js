//! A finished (or running) match's replay: step forward and back, jump to a step or a turn, play
//! at a chosen speed. Shows the seed and how to verify the dice once the match is over, and each
//! seat's rating before and its change when the match was rated. Every
//! board is the server's: each step's patch applied to the board before it (docs/PROTOCOL.md
//! "Matches and replays"); nothing here knows a rule.

import { h, replaceChildren } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import * as api from '../lib/api.js';
import { replayLink } from '../lib/router.js';
import { rulesetUi } from '../rulesets/index.js';
import { MatchView } from './match_view.js';
import { rulesetName } from './lobby.js';
import { refusalText } from './room.js';
import { ChatPanel } from './chat.js';
import { applyPatch, PatchError, withStaticParts, withoutStaticParts } from '../lib/protocol.js';
import { ratedBadge, ratingChanges } from './ratings.js';

/** @typedef {import('../app.js').Session} Session */
/** @typedef {import('../lib/protocol.js').Replay} Replay */

const SPEEDS = [0.5, 1, 2, 4, 8];

/**
 * @param {Session} session
 * @param {string} matchId
 * @param {number | null} startStep
 * @param {string | null} [invite] a private room's invite code
 * @returns {{element: HTMLElement, dispose: () => void}}
 */
export function replayScreen(session, matchId, startStep, invite = null) {
  const body = h('div', { class: 'replay-body' }, h('p', { class: 'muted' }, t('loading')));
  const element = h('section', { class: 'screen replay', 'data-match': matchId }, body);
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let player;
  /** The arrow-key handler while the replay is shown. @type {((event: KeyboardEvent) => void) | null} */
  let onKey = null;

  api
    .replay(matchId, session.guest?.token ?? null, invite)
    .then((replay) => show(replay))
    .catch((error) => replaceChildren(body, h('p', { class: 'problem' }, error instanceof api.ApiError ? refusalText(error) : String(error))));

  /** @param {Replay} replay */
  function show(replay) {
    const ui = rulesetUi(replay.ruleset);
    const names = replay.seats.map((seat) => seat.player?.name ?? `#${seat.seat}`);
    const view = new MatchView({ ruleset: ui, act: null });
    const last = replay.actions.length;
    // "Jump to turn" lands where a turn begins: a step whose events start a turn (every ruleset
    // has a `turn_started` event), else where the acting seat changes.
    const started = replay.actions.flatMap((action, index) =>
      action.events.some((event) => event?.type === 'turn_started') ? [index + 1] : [],
    );
    /** The step at which turn n + 1 begins. */
    const turnStarts = started.length > 0 ? started : [0];
    if (started.length === 0) {
      replay.actions.forEach((action, index) => {
        if (index > 0 && action.seat !== replay.actions[index - 1].seat) turnStarts.push(index + 1);
      });
    }
    let step = Math.max(0, Math.min(startStep ?? 0, last));
    /** The log: the setup (step 0), then each action. */
    const entries = [
      { seq: 0, seat: null, events: replay.setup_events },
      ...replay.actions.map((action) => ({ seq: action.seq, seat: action.seat, events: action.events })),
    ];
    let speed = 1;

    const slider = h('input', { type: 'range', min: 0, max: last, value: step, 'aria-label': t('replay_step'), 'data-testid': 'replay-slider' });
    const counter = h('span', { class: 'counter', 'data-testid': 'replay-counter' });
    const turnInput = h('input', { type: 'number', min: 1, max: turnStarts.length, value: 1, 'aria-label': t('replay_turn'), class: 'short' });
    const playButton = h('button', { 'data-testid': 'replay-play' }, t('play'));
    const speedSelect = h(
      'select',
      { 'aria-label': t('replay_speed') },
      SPEEDS.map((value) => h('option', { value, selected: value === speed }, `${value}×`)),
    );
    const missing = h('p', { class: 'muted', hidden: true, 'data-testid': 'replay-no-board' }, t('replay_no_board'));
    // The chat as it stood at each step (a line said at seq n shows from step n on); read only.
    const chat = new ChatPanel({ me: null, say: null, mute: () => {} });
    const chatLines = replay.chat ?? [];

    // The board after each step, as the server drew it for this replay's viewer: each step's
    // patch applied to the board before it, which leaves out the parts that never change (as a
    // live `applied`'s patch does); they are put back from `initial_view` when a step is shown.
    /** @type {any[]} */
    const boards = [withoutStaticParts(replay.initial_view)];
    for (const action of replay.actions) {
      // A replay saved before steps carried patches has none: from there on the last board the
      // server drew is shown, with a note.
      if (action.patch === undefined) break;
      try {
        boards.push(applyPatch(boards[boards.length - 1], action.patch));
      } catch (error) {
        if (!(error instanceof PatchError)) throw error;
        break;
      }
    }
    /** The last step the server drew a board for. */
    const drawn = boards.length - 1;

    /** @param {number} target */
    function go(target) {
      step = Math.max(0, Math.min(target, last));
      const shown = withStaticParts(boards[Math.min(step, drawn)], replay.initial_view);
      missing.hidden = step <= drawn;
      view.showLog(entries.slice(0, step + 1), entries[step].events);
      const toAct = step < last ? replay.actions[step].seat : null;
      view.update({
        view: shown,
        seat: null,
        toAct,
        outcome: step === last ? replay.outcome : null,
        names,
        seed: replay.seed,
        seedCommitment: replay.seed_commitment,
      });
      chat.history(chatLines.filter((line) => line.seq <= step));
      slider.value = String(step);
      counter.textContent = t('replay_counter', { step, last });
      const turn = turnStarts.filter((start) => start <= step).length;
      turnInput.value = String(Math.max(1, turn));
      history.replaceState(null, '', replayLink(matchId, invite, step));
    }

    function stop() {
      clearInterval(player);
      player = undefined;
      playButton.textContent = t('play');
    }
    function play() {
      if (step >= last) go(0);
      playButton.textContent = t('pause');
      player = setInterval(() => {
        if (step >= last) stop();
        else go(step + 1);
      }, 1000 / speed);
    }

    slider.addEventListener('input', () => go(Number(slider.value)));
    // Arrow keys step (the board's own arrow keys and text fields keep theirs); Home and End
    // jump to the ends.
    onKey = (event) => {
      const target = /** @type {HTMLElement | null} */ (event.target);
      if (target?.closest('input, select, textarea, .board')) return;
      const moves = /** @type {Record<string, () => number>} */ ({
        ArrowLeft: () => step - 1,
        ArrowRight: () => step + 1,
        Home: () => 0,
        End: () => last,
      });
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      stop();
      go(move());
    };
    document.addEventListener('keydown', onKey);
    turnInput.addEventListener('change', () => go(turnStarts[Number(turnInput.value) - 1] ?? 0));
    playButton.addEventListener('click', () => (player ? stop() : play()));
    speedSelect.addEventListener('change', () => {
      speed = Number(speedSelect.value);
      if (player) {
        stop();
        play();
      }
    });

    const bar = h(
      'div',
      { class: 'replay-bar' },
      h('button', { onclick: () => (stop(), go(0)), title: t('replay_first'), 'data-testid': 'replay-first' }, '|◀'),
      h('button', { onclick: () => (stop(), go(step - 1)), title: t('replay_back'), 'data-testid': 'replay-back' }, '◀'),
      playButton,
      h('button', { onclick: () => (stop(), go(step + 1)), title: t('replay_forward'), 'data-testid': 'replay-forward' }, '▶'),
      h('button', { onclick: () => (stop(), go(last)), title: t('replay_last'), 'data-testid': 'replay-last' }, '▶|'),
      slider,
      counter,
      h('label', {}, t('replay_turn'), ' ', turnInput),
      speedSelect,
    );
    const verify = h(
      'div',
      { class: 'verify card' },
      replay.seed
        ? [
            h('p', {}, t('seed_label'), ' ', h('code', { 'data-testid': 'replay-seed' }, replay.seed)),
            h('p', { class: 'muted' }, t('verify_note')),
          ]
        : h('p', { class: 'muted' }, t('seed_hidden')),
      h('p', { class: 'muted' }, t('commitment_label'), ' ', h('code', {}, replay.seed_commitment)),
      h(
        'a',
        {
          class: 'button',
          download: `warroom-${replay.match_id}.json`,
          href: URL.createObjectURL(new Blob([JSON.stringify(replay, null, 2)], { type: 'application/json' })),
        },
        t('download_replay'),
      ),
    );
    replaceChildren(
      body,
      h(
        'div',
        { class: 'room-header' },
        h('a', { href: '#/', class: 'back' }, `← ${t('lobby')}`),
        h('h2', {}, `${t('replay')} · ${rulesetName(replay.ruleset)}`),
        ratedBadge(replay),
      ),
      bar,
      missing,
      view.element,
      ratingChanges(replay, names),
      chatLines.length > 0 ? chat.element : null,
      verify,
    );
    go(step);
  }

  return {
    element,
    dispose: () => {
      clearInterval(player);
      if (onKey) document.removeEventListener('keydown', onKey);
    },
  };
}
