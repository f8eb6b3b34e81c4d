//! Bringing an identity onto this browser (`#/recover?code=<code>`): the recovery code made on
//! another device's player page buys a token here; the identity this browser had is replaced.

import { h, whenSubmitted } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { ApiError } from '../lib/api.js';
import { refusalText } from './room.js';

/** @typedef {import('../lib/protocol.js').Guest} Guest */

/**
 * @param {string} code the code from the link, if any
 * @param {Guest | null} current the identity this browser has now
 * @param {(code: string) => Promise<void>} onCode called with the typed code; a refusal is shown
 * @returns {HTMLElement}
 */
export function recoverScreen(code, current, onCode) {
  const input = h('input', {
    id: 'recovery-input',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    value: code,
    placeholder: t('recovery_placeholder'),
  });
  const problem = h('p', { class: 'problem', role: 'alert' });
  const button = h('button', { type: 'submit', class: 'primary' }, t('recover_submit'));
  const form = h(
    'form',
    { class: 'card recover' },
    h('h1', {}, t('recover_title')),
    h('label', { for: 'recovery-input' }, t('recovery_label')),
    input,
    current ? h('p', { class: 'muted' }, t('recover_replaces', { name: current.name })) : null,
    button,
    problem,
    h('p', {}, h('a', { href: '#/' }, t('back_to_lobby'))),
  );
  whenSubmitted(
    form,
    button,
    problem,
    () => onCode(input.value),
    (error) => (error instanceof ApiError ? refusalText(error) : String(/** @type {Error} */ (error).message)),
  );
  return h('section', { class: 'screen narrow' }, form);
}
