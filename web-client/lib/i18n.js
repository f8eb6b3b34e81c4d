//! Interface strings: one dictionary per language in i18n/<lang>.js, English as the reference.
//! Only the chosen language is downloaded (`loadLanguage`); every dictionary has every key (tsc
//! checks it), so no fallback language is needed. `t(key, params)` fills `{name}` placeholders;
//! an entry may be a set of plural forms chosen by `Intl.PluralRules` from the `n` parameter.

/** @typedef {typeof import('../i18n/en.js').default} English */
/** @typedef {keyof English} Key */
/**
 * Plural forms by `Intl.PluralRules` category; `other` is required, the others as the language needs.
 * @typedef {{zero?: string, one?: string, two?: string, few?: string, many?: string, other: string}} Plural
 */
/** A translation: every English key, translated. tsc refuses a dictionary with a key missing. */
/** @typedef {Record<Key, string | Plural>} Dictionary */

/** The languages offered, by code, with their own names. */
export const LANGUAGES = /** @type {const} */ ({
  en: 'English',
  fr: 'Français',
  es: 'Español',
  nl: 'Nederlands',
  pl: 'Polski',
  it: 'Italiano',
});

/** @typedef {keyof typeof LANGUAGES} Language */

/** Loads one dictionary; only the chosen language's file is fetched. */
const LOADERS = /** @type {Record<Language, () => Promise<{default: Dictionary}>>} */ ({
  en: () => import('../i18n/en.js'),
  fr: () => import('../i18n/fr.js'),
  es: () => import('../i18n/es.js'),
  nl: () => import('../i18n/nl.js'),
  pl: () => import('../i18n/pl.js'),
  it: () => import('../i18n/it.js'),
});

const STORAGE_KEY = 'warroom.language';

/** The language in use: the saved choice, else the browser's, else English. */
let current = /** @type {Language} */ (pickLanguage());
/** Its strings, once loaded. @type {Dictionary | null} */
let strings = null;
/** @type {Intl.PluralRules} */
let plurals = new Intl.PluralRules(current);

/** @param {string} code @returns {code is Language} */
export function isLanguage(code) {
  return Object.hasOwn(LANGUAGES, code);
}

function pickLanguage() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && isLanguage(saved)) return saved;
  for (const tag of navigator.languages ?? []) {
    const base = tag.slice(0, 2).toLowerCase();
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/** @returns {Language} */
export function language() {
  return current;
}

/**
 * Switches to `lang`, downloading its dictionary first; remembered for the next visit.
 * @param {string} lang
 */
export async function loadLanguage(lang) {
  const code = isLanguage(lang) ? lang : 'en';
  const module = await LOADERS[code]();
  strings = module.default;
  current = code;
  plurals = new Intl.PluralRules(code);
  localStorage.setItem(STORAGE_KEY, code);
  document.documentElement.lang = code;
}

/**
 * The string for `key` in the current language, with `{name}` placeholders filled from `params`.
 * A plural entry picks its form from `params.n`.
 * @param {Key} key
 * @param {Record<string, string | number>} [params]
 */
export function t(key, params = {}) {
  const entry = strings?.[key];
  if (entry === undefined) return key;
  const template = typeof entry === 'string' ? entry : pluralForm(entry, Number(params.n ?? 0));
  // A value that ends a sentence with its own full stop ("18 sek.") takes the template's place.
  return template.replace(/\{(\w+)\}(\.?)/g, (whole, name, stop) => {
    if (!(name in params)) return whole;
    const value = String(params[name]);
    return stop && value.endsWith('.') ? value : value + stop;
  });
}

/** @param {Plural} entry @param {number} n */
function pluralForm(entry, n) {
  return entry[plurals.select(n)] ?? entry.other;
}

/**
 * Looks up a key built at run time (an error code, an option value); `null` when there is none.
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 * @returns {string | null}
 */
export function tMaybe(key, params) {
  return strings && Object.hasOwn(strings, key) ? t(/** @type {Key} */ (key), params) : null;
}

/**
 * A list in the reader's language ("a, b and c").
 * @param {string[]} items
 */
export function listOf(items) {
  return new Intl.ListFormat(current, { style: 'long', type: 'conjunction' }).format(items);
}
