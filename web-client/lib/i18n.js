//! Interface strings: one dictionary per language in i18n/<lang>.js, English as the reference.
//! `t(key, params)` looks a string up in the chosen language, falling back to English.

import en from '../i18n/en.js';
import fr from '../i18n/fr.js';
import es from '../i18n/es.js';
import nl from '../i18n/nl.js';
import pl from '../i18n/pl.js';
import it from '../i18n/it.js';

/** @typedef {keyof typeof en} Key */
/** A translation: every English key, translated. tsc refuses a dictionary with a key missing. */
/** @typedef {Record<Key, string>} Dictionary */

/** @type {Record<string, {name: string, strings: Dictionary}>} */
export const LANGUAGES = {
  en: { name: 'English', strings: en },
  fr: { name: 'Français', strings: fr },
  es: { name: 'Español', strings: es },
  nl: { name: 'Nederlands', strings: nl },
  pl: { name: 'Polski', strings: pl },
  it: { name: 'Italiano', strings: it },
};

const STORAGE_KEY = 'warroom.language';

/** The language in use: the saved choice, else the browser's, else English. */
let current = pickLanguage();

function pickLanguage() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages ?? []) {
    const base = tag.slice(0, 2).toLowerCase();
    if (base in LANGUAGES) return base;
  }
  return 'en';
}

/** @returns {string} */
export function language() {
  return current;
}

/** @param {string} lang */
export function setLanguage(lang) {
  if (!(lang in LANGUAGES)) return;
  current = lang;
  localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
}

/**
 * The string for `key` in the current language, with `{name}` placeholders filled from `params`.
 * @param {Key} key
 * @param {Record<string, string | number>} [params]
 */
export function t(key, params = {}) {
  const template = LANGUAGES[current]?.strings[key] ?? en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? String(params[name]) : whole,
  );
}

/**
 * Looks up a key built at run time (an error code, an option value); `null` when there is none.
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 * @returns {string | null}
 */
export function tMaybe(key, params) {
  return key in en ? t(/** @type {Key} */ (key), params) : null;
}
