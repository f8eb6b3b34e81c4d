//! A room's chat panel: the lines this connection may read (players' and spectators' chats, the
//! latter marked), a line to type (kept in the input until the server says it, so a refused line
//! can be sent again), and a mute/unmute button on other players' names. Lines are
//! shown as text (never as markup), whatever they contain.

import { h, replaceChildren } from '../lib/dom.js';
import { t } from '../lib/i18n.js';

/** @typedef {import('../lib/protocol.js').ChatLine} ChatLine */

/** The longest line the server accepts, in characters. */
export const MAX_CHAT_CHARS = 300;
/** Lines kept on screen. */
const SHOWN_LINES = 200;

export class ChatPanel {
  /**
   * @param {{
   *   me: string | null,
   *   say: ((text: string) => void) | null,
   *   mute: (player: string, muted: boolean) => void,
   * }} options `me` is the reader's identity id (`null`: anonymous, who cannot speak); `say`
   *   is null where nobody speaks (replays)
   */
  constructor({ me, say, mute }) {
    this.me = me;
    this.mute = mute;
    /** @type {ChatLine[]} */
    this.lines = [];
    /** Identities whose lines are hidden. @type {Set<string>} */
    this.muted = new Set();
    this.list = h('ol', { class: 'chat-lines', 'data-testid': 'chat-lines', 'aria-live': 'polite' });
    this.mutedBox = h('p', { class: 'muted chat-muted', 'data-testid': 'chat-muted' });
    const input = h('input', {
      class: 'chat-input',
      'data-testid': 'chat-input',
      maxlength: MAX_CHAT_CHARS,
      autocomplete: 'off',
      placeholder: t('chat_placeholder'),
      'aria-label': t('chat_placeholder'),
    });
    const form = h('form', { class: 'inline chat-form' }, input, h('button', { type: 'submit' }, t('chat_send')));
    this.input = input;
    /** The line last sent: it leaves the input only once the server says it (a refused line stays, to send again). @type {string | null} */
    this.sent = null;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      say?.(text);
      this.sent = text;
    });
    this.element = h(
      'details',
      { class: 'chat-box', open: true, 'data-testid': 'chat' },
      h('summary', {}, t('chat')),
      this.list,
      this.mutedBox,
      me && say ? form : say ? h('p', { class: 'muted' }, t('chat_sign_in')) : null,
    );
  }

  /** The room's chat so far (on join): replaces what is shown. @param {ChatLine[]} lines */
  history(lines) {
    this.lines = lines.slice(-SHOWN_LINES);
    this.render();
  }

  /** One new line. @param {ChatLine} line */
  add(line) {
    if (this.lines.some((known) => known.id === line.id)) return;
    if (line.from.id === this.me && this.sent !== null && line.text === this.sent) {
      // Said: the input is cleared, unless the player already typed something else.
      if (this.input.value.trim() === this.sent) this.input.value = '';
      this.sent = null;
    }
    this.lines.push(line);
    if (this.lines.length > SHOWN_LINES) this.lines.splice(0, this.lines.length - SHOWN_LINES);
    this.render();
  }

  /** Who this identity mutes (from the server). @param {string[]} players */
  setMuted(players) {
    this.muted = new Set(players);
    this.render();
  }

  render() {
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 24;
    replaceChildren(
      this.list,
      this.lines.filter((line) => !this.muted.has(line.from.id)).map((line) => this.lineItem(line)),
    );
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
    const nameOf = (/** @type {string} */ id) => this.lines.find((line) => line.from.id === id)?.from.name ?? id.slice(0, 8);
    replaceChildren(
      this.mutedBox,
      this.muted.size === 0
        ? null
        : [
            `${t('chat_muted')} `,
            ...[...this.muted].map((id) =>
              h('button', { class: 'link', 'data-unmute': id, onclick: () => this.mute(id, false) }, t('chat_unmute', { name: nameOf(id) })),
            ),
          ],
    );
  }

  /** @param {ChatLine} line */
  lineItem(line) {
    const mine = line.from.id === this.me;
    return h(
      'li',
      { class: `chat-line ${line.channel}`, 'data-channel': line.channel, 'data-line': line.id },
      line.channel === 'spectators' ? h('span', { class: 'chat-channel' }, `${t('chat_spectators')} · `) : null,
      h('strong', { class: 'chat-from' }, line.from.name),
      ': ',
      h('span', { class: 'chat-text' }, line.text),
      !mine && this.me
        ? h(
            'button',
            {
              class: 'link chat-mute',
              title: t('chat_mute', { name: line.from.name }),
              'data-mute': line.from.id,
              onclick: () => this.mute(line.from.id, true),
            },
            t('chat_mute_short'),
          )
        : null,
    );
  }
}
