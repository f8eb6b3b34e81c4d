//! Naming a new visitor: the landing page's form to pick a name (or bring an identity over from
//! another device with its recovery code), and the guest name given to one who plays without
//! picking one ("Guest 4821"; changed later on the player's page).

import { h, whenSubmitted } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { ApiError } from '../lib/api.js';

/**
 * @param {(name: string) => Promise<unknown>} onName called with the chosen name; a refusal is shown
 * @returns {HTMLFormElement}
 */
export function namePicker(onName) {
  const input = h('input', {
    id: 'display-name',
    name: 'name',
    maxlength: 24,
    required: true,
    autocomplete: 'nickname',
    placeholder: t('name_placeholder'),
  });
  const problem = h('p', { class: 'problem', role: 'alert' });
  const button = h('button', { type: 'submit', class: 'primary' }, t('name_submit'));
  const form = h(
    'form',
    { class: 'card name-picker' },
    h('h2', {}, t('welcome_title')),
    h('p', {}, t('welcome_text')),
    h('label', { for: 'display-name' }, t('name_label')),
    input,
    button,
    problem,
    h('p', { class: 'muted' }, h('a', { href: '#/recover', 'data-testid': 'have-recovery' }, t('have_recovery_code'))),
  );
  whenSubmitted(
    form,
    button,
    problem,
    () => onName(input.value),
    (error) =>
      error instanceof ApiError && error.code === 'invalid_name'
        ? t('invalid_name')
        : error instanceof ApiError && error.code === 'name_taken'
          ? t('error_name_taken')
          : String(/** @type {Error} */ (error).message),
  );
  return form;
}

/**
 * A generated guest name in the reader's language: 4 random digits, 6 after a first clash
 * (names are unique).
 * @param {number} attempt how many names were refused as taken before
 */
export function guestName(attempt) {
  const digits = attempt === 0 ? 4 : 6;
  const number = Math.floor(10 ** (digits - 1) + Math.random() * 9 * 10 ** (digits - 1));
  return t('guest_name', { n: number });
}
