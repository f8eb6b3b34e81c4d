//! The first screen of a new browser: pick a name to get a guest identity (or bring one over
//! from another device with its recovery code).

import { h } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { ApiError } from '../lib/api.js';

/**
 * @param {(name: string) => Promise<void>} onName called with the chosen name; a refusal is shown
 * @returns {HTMLElement}
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
    h('h1', {}, t('welcome_title')),
    h('p', {}, t('welcome_text')),
    h('label', { for: 'display-name' }, t('name_label')),
    input,
    button,
    problem,
    h('p', { class: 'muted' }, h('a', { href: '#/recover', 'data-testid': 'have-recovery' }, t('have_recovery_code'))),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    problem.textContent = '';
    try {
      await onName(input.value);
    } catch (error) {
      problem.textContent =
        error instanceof ApiError && error.code === 'invalid_name'
          ? t('invalid_name')
          : error instanceof ApiError && error.code === 'name_taken'
            ? t('error_name_taken')
            : String(/** @type {Error} */ (error).message);
      button.disabled = false;
    }
  });
  queueMicrotask(() => input.focus());
  return h('section', { class: 'screen narrow' }, form);
}
