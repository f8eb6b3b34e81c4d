//! Inputs for a ruleset's room options: a select per variant, a number per size, a JSON box for
//! anything without a better input (e.g. a custom board), so every option can be set.

import { h } from '../lib/dom.js';
import { t, tMaybe } from '../lib/i18n.js';

/** @typedef {import('../rulesets/types.js').OptionField} OptionField */

/**
 * @param {string} ruleset
 * @param {OptionField[]} fields
 * @param {Record<string, any>} defaults
 * @returns {{element: HTMLElement, read: () => Record<string, any>}}
 */
export function optionInputs(ruleset, fields, defaults) {
  /** @type {(() => [string, any])[]} */
  const readers = [];
  const rows = fields.map((field) => {
    const id = `option-${field.key}`;
    const label = tMaybe(`option_${ruleset}_${field.key}`) ?? tMaybe(`option_${field.key}`) ?? field.key;
    if (field.kind === 'select') {
      const select = h(
        'select',
        { id, name: field.key },
        field.values.map((value) =>
          h(
            'option',
            { value, selected: value === String(field.preferred ?? defaults[field.key] ?? field.values[0]) },
            tMaybe(`value_${ruleset}_${field.key}_${value}`) ?? tMaybe(`value_${value}`) ?? value,
          ),
        ),
      );
      readers.push(() => [field.key, select.value]);
      return [h('label', { for: id }, label), select, help(field.key, select)];
    }
    if (field.kind === 'number') {
      const input = h('input', {
        id,
        name: field.key,
        type: 'number',
        min: field.min,
        max: field.max,
        value: defaults[field.key] ?? field.min,
      });
      readers.push(() => [field.key, Number(input.value)]);
      return [h('label', { for: id }, label), input, help(field.key, input)];
    }
    if (field.kind === 'preset') return presetInput(field, defaults[field.key], label, readers);
    const area = h('textarea', { id, name: field.key, rows: 3, spellcheck: 'false' });
    area.value = JSON.stringify(defaults[field.key] ?? null);
    readers.push(() => {
      try {
        return [field.key, JSON.parse(area.value)];
      } catch {
        throw new Error(t('invalid_json', { field: label }));
      }
    });
    return [h('label', { for: id }, label), area];
  });
  return {
    element: h('div', { class: 'option-fields' }, rows.flat()),
    read: () => ({ ...Object.fromEntries(readers.map((read) => read())) }),
  };
}

/**
 * A short explanation of an option under its input (when there is one), tied to it for screen
 * readers.
 * @param {string} key @param {HTMLElement} input
 */
export function help(key, input) {
  const text = tMaybe(`help_${key}`);
  if (!text) return null;
  const id = `${input.id || key}-help`;
  input.setAttribute('aria-describedby', id);
  return h('p', { class: 'option-help muted', id }, text);
}

/**
 * Fields for any default options a ruleset module does not describe: strings and numbers as
 * text/number inputs would guess wrong, so they become JSON boxes; better than hiding them.
 * @param {Record<string, any>} defaults
 * @param {OptionField[]} known
 * @returns {OptionField[]}
 */
export function withRemaining(defaults, known) {
  const covered = new Set(known.map((field) => field.key));
  const rest = Object.keys(defaults)
    .filter((key) => !covered.has(key))
    .map((key) => /** @type {OptionField} */ ({ key, kind: 'json' }));
  return [...known, ...rest];
}

/**
 * A select of ready-made values plus "custom", which opens a JSON box (e.g. a board's own cells).
 * @param {{key: string, presets: {label: string, value: any}[]}} field
 * @param {any} initial
 * @param {string} label
 * @param {(() => [string, any])[]} readers
 */
function presetInput(field, initial, label, readers) {
  const id = `option-${field.key}`;
  const initialJson = JSON.stringify(initial);
  const known = field.presets.findIndex((preset) => JSON.stringify(preset.value) === initialJson);
  const select = h(
    'select',
    { id, name: field.key },
    field.presets.map((preset, index) => h('option', { value: index, selected: index === known }, preset.label)),
    h('option', { value: 'custom', selected: known < 0 }, t('custom_json')),
  );
  const area = h('textarea', { rows: 3, spellcheck: 'false', 'aria-label': label, hidden: known >= 0 });
  area.value = initialJson ?? '';
  select.addEventListener('change', () => {
    area.hidden = select.value !== 'custom';
    if (select.value !== 'custom') area.value = JSON.stringify(field.presets[Number(select.value)].value);
  });
  readers.push(() => {
    if (select.value !== 'custom') return [field.key, field.presets[Number(select.value)].value];
    try {
      return [field.key, JSON.parse(area.value)];
    } catch {
      throw new Error(t('invalid_json', { field: label }));
    }
  });
  return [h('label', { for: id }, label), select, area, help(field.key, select)];
}

/**
 * The options a room gets when nobody chose them (a match against the computer started in two
 * clicks): each field's preferred value where the client prefers one; the server fills in the rest.
 * @param {OptionField[]} fields
 * @returns {Record<string, string>}
 */
export function preferredOptions(fields) {
  return Object.fromEntries(fields.flatMap((field) => (field.kind === 'select' && field.preferred ? [[field.key, field.preferred]] : [])));
}
