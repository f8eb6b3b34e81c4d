//! Who sits at a seat, in words. A computer seat has a name of its own, by seat (so two bots of
//! one level are told apart: "Turing (computer, normal)" takes "Hopper (computer, normal)"'s
//! capital), with its level, in the reader's language, the same in the lobby, the room, the log,
//! the end screen, replays and player pages. The server knows the computer as one identity per
//! level (server/src/bots.rs, migration 0004); the names are given here, where every room and match
//! the client reads passes (`withComputerNames`).

import { t } from './i18n.js';

/** @typedef {import('./protocol.js').Room} Room */
/** @typedef {import('./protocol.js').MatchSummary} MatchSummary */
/** @typedef {import('./protocol.js').Replay} Replay */
/** @typedef {import('./protocol.js').PlayerProfile} PlayerProfile */
/** @typedef {'easy' | 'normal' | 'hard'} Level */

/** The computer identities by level: the ids server/src/bots.rs gives them. */
export const COMPUTER_IDS = /** @type {Record<Level, string>} */ ({
  easy: 'b0700000-0000-4000-8000-000000000001',
  normal: 'b0700000-0000-4000-8000-000000000002',
  hard: 'b0700000-0000-4000-8000-000000000003',
});

/** A computer seat's name, by seat number: pioneers of computing, the same in every language. */
export const COMPUTER_NAMES = ['Lovelace', 'Turing', 'Hopper', 'Babbage', 'Shannon', 'Knuth'];

/** The level of the computer identity `id`, or null for a person. @param {string | null | undefined} id @returns {Level | null} */
export function computerLevel(id) {
  const found = Object.entries(COMPUTER_IDS).find(([, known]) => known === id);
  return found ? /** @type {Level} */ (found[0]) : null;
}

/** A computer seat's name with its level. @param {number} seat @param {Level} level */
export function computerName(seat, level) {
  return t('computer_named', { name: COMPUTER_NAMES[seat % COMPUTER_NAMES.length], level: t(`bot_level_${level}`) });
}

/**
 * Names the computer seats of what the server sent: a room's seats (by their `bot` level), a
 * match's or replay's seats (by the identity's id), a player's match list, a computer's own
 * player page ("Computer (normal)" in the reader's language). Returns the same object, changed.
 * @template T
 * @param {T} value
 * @returns {T}
 */
export function withComputerNames(value) {
  const any = /** @type {any} */ (value);
  if (!any || typeof any !== 'object') return value;
  if (Array.isArray(any)) {
    any.forEach(withComputerNames);
    return value;
  }
  if (Array.isArray(any.seats)) {
    for (const seat of any.seats) {
      const level = seat.bot ?? computerLevel(seat.player?.id);
      if (level && seat.player) seat.player = { ...seat.player, name: computerName(seat.seat, level) };
    }
  }
  for (const key of ['room', 'match', 'rooms', 'matches']) if (any[key]) withComputerNames(any[key]);
  const ownLevel = typeof any.id === 'string' && typeof any.name === 'string' && !any.seats ? computerLevel(any.id) : null;
  if (ownLevel) any.name = t('computer_player', { level: t(`bot_level_${ownLevel}`) });
  return value;
}
