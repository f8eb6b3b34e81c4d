//! Turn clocks in the client: the presets the create form offers (the server's, see
//! `ClockSettings` in protocol/src/control.rs), a room's clock setting in words ("90 s + 5 min"),
//! and the countdown of a running match. The countdown starts from the server's `left_ms` and
//! `turn_left_ms` and subtracts the time elapsed since the message arrived (a monotonic clock),
//! never the local wall clock, so a wrong clock on this computer does not change what it shows.
//! In the last 10 s of a seat's time it turns red (`data-warning`) and, for the player whose
//! turn it is, can beep once (off unless switched on; remembered in localStorage).

import { h, replaceChildren } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import * as attention from '../lib/attention.js';

/** @typedef {import('../lib/protocol.gen').ClockSettings} ClockSettings */
/** @typedef {import('../lib/protocol.gen').ClockState} ClockState */
/** @typedef {import('../lib/protocol.gen').ClockPreset} ClockPreset */

/**
 * A clock state as received: the server's state and when it arrived (`performance.now()`).
 * @typedef {{state: ClockState, at: number}} ReceivedClock
 */

/**
 * The clock of each preset exactly as the server defines it (`ClockSettings::FAST`, `NORMAL`,
 * `SLOW`); `none` has no clock.
 * @type {Record<Exclude<ClockPreset, 'none'>, ClockSettings>}
 */
export const CLOCK_PRESETS = {
  fast: { turn_seconds: 45, bank_seconds: 120 },
  normal: { turn_seconds: 90, bank_seconds: 300 },
  slow: { turn_seconds: 24 * 3600, bank_seconds: 0 },
};

/** The last stretch of a seat's time (turn and bank) in which its clock warns. */
export const WARNING_MS = 10_000;
/** How often a running countdown is redrawn. */
export const TICK_MS = 250;
const SOUND_KEY = 'warroom.clock-sound';
/** Three short high notes: time runs low (the turn sound is two lower ones). */
const WARNING_NOTES = [988, 988, 988];

/**
 * The clock `elapsedMs` after `state` was received: the running seat's time left (turn time,
 * then bank) and every seat's bank. Only the server's remaining times are used, never
 * `deadline_ms` against this computer's clock.
 * @param {ClockState} state
 * @param {number} elapsedMs time since the message arrived
 * @returns {{seat: number | null, leftMs: number, turnLeftMs: number, bankLeftMs: number, banksMs: number[], warning: boolean}}
 */
export function clockNow(state, elapsedMs) {
  const elapsed = Math.max(0, elapsedMs);
  const banksMs = [...state.banks_ms];
  if (state.seat === null || state.left_ms === null) {
    return { seat: null, leftMs: 0, turnLeftMs: 0, bankLeftMs: 0, banksMs, warning: false };
  }
  const leftMs = Math.max(0, state.left_ms - elapsed);
  const turnLeftMs = Math.min(leftMs, Math.max(0, (state.turn_left_ms ?? 0) - elapsed));
  const bankLeftMs = leftMs - turnLeftMs;
  if (state.seat < banksMs.length) banksMs[state.seat] = bankLeftMs;
  return { seat: state.seat, leftMs, turnLeftMs, bankLeftMs, banksMs, warning: leftMs <= WARNING_MS };
}

/**
 * A time left as a clock shows it: `m:ss`, or `h:mm:ss` from an hour on; whole seconds rounded
 * up, so 0:00 means the time is gone.
 * @param {number} ms
 */
export function formatCountdown(ms) {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * A length of time in the largest unit that states it exactly ("90 s", "5 min", "24 h",
 * "2 days"), in the reader's language.
 * @param {number} seconds
 */
export function durationText(seconds) {
  if (seconds >= 2 * 86400 && seconds % 86400 === 0) return t('unit_days', { n: seconds / 86400 });
  if (seconds >= 3600 && seconds % 3600 === 0) return t('unit_hours', { n: seconds / 3600 });
  if (seconds >= 60 && seconds % 60 === 0) return t('unit_minutes', { n: seconds / 60 });
  return t('unit_seconds', { n: seconds });
}

/**
 * A room's clock in words: "90 s + 5 min", "24 h per turn", or "no clock".
 * @param {ClockSettings | null | undefined} settings
 */
export function clockSettingText(settings) {
  if (!settings) return t('clock_none');
  const turn = durationText(settings.turn_seconds);
  return settings.bank_seconds > 0
    ? t('clock_turn_bank', { turn, bank: durationText(settings.bank_seconds) })
    : t('clock_turn_only', { turn });
}

/**
 * A room's clock setting as a small label (room header, lobby row).
 * @param {ClockSettings | null | undefined} settings
 */
export function clockBadge(settings) {
  return h(
    'span',
    { class: 'clock-setting muted', 'data-testid': 'room-clock', 'data-clock': settings ? `${settings.turn_seconds}+${settings.bank_seconds}` : 'none' },
    settings ? t('clock_badge', { setting: clockSettingText(settings) }) : t('clock_none'),
  );
}

/**
 * The create form's clock choice: a select of the presets with a line of explanation. Until the
 * reader picks one it follows the room's privacy, as the server does when none is sent: `normal`
 * for a public room, none for a private one.
 * @param {HTMLInputElement} privateBox
 * @returns {{elements: HTMLElement[], read: () => ClockPreset}}
 */
export function clockChoice(privateBox) {
  const presets = /** @type {const} */ (['none', 'fast', 'normal', 'slow']);
  const select = h(
    'select',
    { name: 'clock', id: 'create-clock', 'aria-describedby': 'create-clock-help' },
    presets.map((preset) =>
      h(
        'option',
        { value: preset, selected: preset === 'normal' },
        preset === 'none' ? t('clock_none') : t(`clock_preset_${preset}`, { setting: clockSettingText(CLOCK_PRESETS[preset]) }),
      ),
    ),
  );
  let chosen = false;
  select.addEventListener('change', () => {
    chosen = true;
  });
  privateBox.addEventListener('change', () => {
    if (!chosen) select.value = privateBox.checked ? 'none' : 'normal';
  });
  return {
    elements: [
      h('label', { for: 'create-clock' }, t('clock_label')),
      select,
      h('p', { class: 'option-help muted', id: 'create-clock-help' }, t('help_clock')),
    ],
    read: () => /** @type {ClockPreset} */ (select.value),
  };
}

/** @returns {boolean} whether the warning sound is on (off unless switched on) */
export function warningSoundOn() {
  return localStorage.getItem(SOUND_KEY) === 'on';
}

/** @param {boolean} on */
export function setWarningSound(on) {
  localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
}

/**
 * What the panel needs besides the clock: the seats' names, this viewer's seat, whether the
 * match is over, and the players list to put each seat's time in.
 * @typedef {{names: string[], mySeat: number | null, over: boolean, players: HTMLElement}} ClockContext
 */

/**
 * The countdown beside the turn banner and each seat's time in the players list, redrawn every
 * `TICK_MS` while a seat's clock runs.
 */
export class ClockPanel {
  constructor() {
    this.who = h('span', { class: 'clock-who' });
    this.time = h('span', { class: 'clock-time', role: 'timer', 'data-testid': 'clock-time' });
    this.sound = h('input', { type: 'checkbox', 'data-testid': 'clock-sound' });
    this.sound.addEventListener('change', () => setWarningSound(this.sound.checked));
    this.soundLabel = h('label', { class: 'check clock-sound' }, this.sound, ` ${t('clock_sound')}`);
    /** Said once to screen readers when the viewer's own time runs low. */
    this.announce = h('span', { class: 'sr-only', role: 'status' });
    this.element = h('div', { class: 'clock', hidden: true, 'data-testid': 'clock' }, this.who, this.time, this.soundLabel, this.announce);
    /** @type {ReceivedClock | null} */
    this.clock = null;
    /** @type {ClockContext | null} */
    this.context = null;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.timer = undefined;
    /** The seat whose warning has been given this time (it is given once per stretch). @type {number | null} */
    this.warned = null;
  }

  /**
   * Shows `clock` (null: the room has none) and keeps it ticking while a seat's time runs.
   * @param {ReceivedClock | null} clock
   * @param {ClockContext} context
   */
  show(clock, context) {
    this.clock = clock;
    this.context = context;
    const running = clock !== null && clock.state.seat !== null && clock.state.left_ms !== null && !context.over;
    if (running && this.timer === undefined) this.timer = setInterval(() => this.tick(), TICK_MS);
    if (!running) this.stop();
    this.tick();
  }

  /** Redraws the countdown and the seats' times as of now. */
  tick() {
    const { clock, context } = this;
    if (!context) return;
    if (!clock || context.over) {
      this.element.hidden = true;
      for (const slot of context.players.querySelectorAll('.seat-clock')) slot.remove();
      return;
    }
    const now = clockNow(clock.state, performance.now() - clock.at);
    const hasBank = clock.state.settings.bank_seconds > 0;
    /** @param {number} seat */
    const timeOf = (seat) =>
      seat === now.seat
        ? hasBank
          ? t('clock_countdown', { turn: formatCountdown(now.turnLeftMs), bank: formatCountdown(now.bankLeftMs) })
          : formatCountdown(now.leftMs)
        : hasBank
          ? t('clock_bank', { bank: formatCountdown(now.banksMs[seat] ?? 0) })
          : '';
    const warning = now.seat !== null && now.warning;
    this.element.hidden = now.seat === null;
    this.element.dataset.seat = String(now.seat ?? '');
    this.element.dataset.leftMs = String(Math.round(now.leftMs));
    this.element.dataset.warning = String(warning);
    if (now.seat !== null) {
      this.who.textContent = t('clock_for', { name: context.names[now.seat] ?? '?' });
      this.time.textContent = timeOf(now.seat);
    }
    this.soundLabel.hidden = context.mySeat === null;
    this.sound.checked = warningSoundOn();
    for (const row of context.players.querySelectorAll('li[data-seat]')) {
      const seat = Number(/** @type {HTMLElement} */ (row).dataset.seat);
      let slot = /** @type {HTMLElement | null} */ (row.querySelector('.seat-clock'));
      if (!slot) {
        slot = h('span', { class: 'seat-clock', 'data-testid': 'seat-clock' });
        row.append(slot);
      }
      const text = timeOf(seat);
      if (slot.textContent !== text) slot.textContent = text;
      slot.dataset.warning = String(warning && seat === now.seat);
    }
    this.warn(warning ? now.seat : null, now.leftMs);
  }

  /**
   * Gives the warning once when a seat enters its last seconds: words for screen readers and,
   * when it is this viewer's own time and the sound is on, a beep.
   * @param {number | null} seat the seat in its last seconds, if any
   * @param {number} leftMs
   */
  warn(seat, leftMs) {
    if (seat === this.warned) return;
    this.warned = seat;
    const mine = seat !== null && seat === this.context?.mySeat;
    replaceChildren(this.announce, mine ? t('clock_seconds_left', { n: Math.ceil(leftMs / 1000) }) : '');
    if (mine && warningSoundOn()) attention.notes(WARNING_NOTES);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  dispose() {
    this.stop();
  }
}
