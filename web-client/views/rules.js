//! A ruleset's rules in short, in the reader's language (the full statement with every rule id
//! is docs/RULES.md; these pages follow it).

import { h } from '../lib/dom.js';
import { t, tMaybe } from '../lib/i18n.js';
import { gamePicture } from '../lib/pictures.js';
import { rulesetName } from './lobby.js';

/** The sections of each ruleset's page: heading key, then text key. */
const SECTIONS = /** @type {Record<string, [string, string][]>} */ ({
  hexdice: [
    ['rules_goal', 'rules_hexdice_goal'],
    ['rules_setup', 'rules_hexdice_setup'],
    ['rules_turn', 'rules_hexdice_turn'],
    ['rules_battle', 'rules_hexdice_battle'],
    ['rules_end', 'rules_hexdice_end'],
  ],
  capitals: [
    ['rules_goal', 'rules_capitals_goal'],
    ['rules_setup', 'rules_capitals_setup'],
    ['rules_turn', 'rules_capitals_turn'],
    ['rules_battle', 'rules_capitals_battle'],
    ['rules_rounds', 'rules_capitals_rounds'],
  ],
  classic: [
    ['rules_goal', 'rules_classic_goal'],
    ['rules_setup', 'rules_classic_setup'],
    ['rules_turn', 'rules_classic_turn'],
    ['rules_battle', 'rules_classic_battle'],
    ['rules_cards', 'rules_classic_cards'],
  ],
});

/** The games the rules pages describe, in the landing page's order. */
export const GAMES = Object.keys(SECTIONS);

/** @param {string} ruleset @returns {{element: HTMLElement, dispose: () => void}} */
export function rulesScreen(ruleset) {
  const sections = SECTIONS[ruleset];
  const element = h(
    'section',
    { class: 'screen rules card', 'data-ruleset': ruleset },
    h('a', { href: '#/', class: 'back' }, `← ${t('lobby')}`),
    sections
      ? [
          h('h2', {}, t('rules_title', { game: rulesetName(ruleset) })),
          h('div', { class: 'rules-picture' }, gamePicture(ruleset)),
          h('p', { class: 'lead' }, tMaybe(`blurb_${ruleset}`) ?? ''),
          ...sections.flatMap(([heading, text]) => [h('h3', {}, tMaybe(heading) ?? heading), h('p', { 'data-section': heading }, tMaybe(text) ?? text)]),
        ]
      : h('p', { class: 'problem' }, t('error_unknown_ruleset')),
  );
  return { element, dispose: () => {} };
}
