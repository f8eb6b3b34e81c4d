//! The story of one match as this client sees it: the setup events (seq 0) and each accepted
//! action's events, by seq. Live `applied` messages add to it; whatever this client did not see
//! live (it joined late, reloaded, or resynced after a gap) is filled in from the replay
//! endpoint, which serves a running match redacted for the same viewer (docs/PROTOCOL.md).

import * as api from './api.js';

/**
 * One accepted action (or the setup at seq 0): who took it (`by`: the seat's player, a bot or the
 * clock) and whether it was a resignation, which has no ruleset events of its own.
 * @typedef {{seq: number, seat: number | null, events: any[], by?: string, resigned?: boolean}} LogEntry
 */

export class MatchLog {
  constructor() {
    /** Entries by seq. @type {Map<number, LogEntry>} */
    this.bySeq = new Map();
    /** The entries in seq order, rebuilt when one is added out of order. @type {LogEntry[]} */
    this.ordered = [];
  }

  /** Adds an entry unless its seq is known already. @param {LogEntry} entry */
  add(entry) {
    if (this.bySeq.has(entry.seq)) return;
    this.bySeq.set(entry.seq, entry);
    const last = this.ordered[this.ordered.length - 1];
    if (!last || last.seq < entry.seq) {
      this.ordered.push(entry);
    } else {
      this.ordered = [...this.bySeq.values()].sort((a, b) => a.seq - b.seq);
    }
  }

  /** Whether every seq from 0 (setup) to `upTo` is here. @param {number} upTo */
  complete(upTo) {
    for (let seq = 0; seq <= upTo; seq++) if (!this.bySeq.has(seq)) return false;
    return true;
  }

  /** @param {number} seq */
  get(seq) {
    return this.bySeq.get(seq);
  }

  /** @returns {LogEntry[]} */
  entries() {
    return this.ordered;
  }

  /**
   * Fetches the match's replay (as `token`'s holder may see it) and adds every entry up to
   * `upTo` that is missing; later ones arrive live.
   * @param {string} matchId @param {string | null} token @param {number} upTo
   */
  async backfill(matchId, token, upTo) {
    const replay = await api.replay(matchId, token);
    this.add({ seq: 0, seat: null, events: replay.setup_events });
    for (const action of replay.actions) {
      if (action.seq <= upTo) {
        this.add({
          seq: action.seq,
          seat: action.seat,
          events: action.events,
          by: action.by,
          resigned: /** @type {{type?: string}} */ (action.action)?.type === 'resign',
        });
      }
    }
  }
}
