//! The one WebSocket of this tab (docs/PROTOCOL.md, `GET /ws`). It reconnects by itself with a
//! growing delay, says hello again, re-joins every followed room naming the last `seq` it saw, and
//! resends actions that were never acknowledged (the server applies an action id at most once).

/** @typedef {import('./protocol.js').ServerMsg} ServerMsg */
/** @typedef {'connecting' | 'open' | 'closed'} Status */

/**
 * @typedef {{
 *   invite: string | null,
 *   lastSeq: () => number | null,
 *   onMessage: (msg: ServerMsg) => void,
 * }} Follower
 */

const PING_EVERY_MS = 20_000;
const MAX_BACKOFF_MS = 5_000;

/** The room a server message is about, if any. @param {ServerMsg} msg @returns {string | null} */
function roomOf(msg) {
  if (!('room' in msg) || !msg.room) return null;
  return typeof msg.room === 'string' ? msg.room : msg.room.id;
}

export class Connection {
  /** @param {string | null} token the guest token, or null to watch anonymously */
  constructor(token) {
    this.token = token;
    /** @type {WebSocket | null} */
    this.socket = null;
    /** @type {Status} */
    this.status = 'connecting';
    /** Rooms this tab follows, re-joined after every reconnect. @type {Map<string, Follower>} */
    this.followers = new Map();
    /** Actions sent but not yet acknowledged, by client id, resent after a reconnect. @type {Map<string, object>} */
    this.pending = new Map();
    /** @type {Set<(status: Status) => void>} */
    this.statusListeners = new Set();
    /** Errors that name no room (malformed message, rate limit). @type {Set<(msg: ServerMsg) => void>} */
    this.globalListeners = new Set();
    this.backoff = 250;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pinger = undefined;
    this.closedOnPurpose = false;
    this.nextId = 1;
    /** Whose chat this identity does not read, as the server last said. @type {string[]} */
    this.muted = [];
    this.open();
  }

  open() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
    this.socket = socket;
    this.setStatus('connecting');
    socket.addEventListener('open', () => {
      this.backoff = 250;
      socket.send(JSON.stringify({ type: 'hello', token: this.token }));
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: 'ping' }), PING_EVERY_MS);
    });
    socket.addEventListener('message', (event) => this.receive(event.data));
    socket.addEventListener('close', () => {
      clearInterval(this.pinger);
      if (this.socket !== socket) return;
      this.socket = null;
      this.setStatus('closed');
      if (this.closedOnPurpose) return;
      setTimeout(() => this.open(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    });
  }

  /** Closes for good (the page is leaving this identity). */
  close() {
    this.closedOnPurpose = true;
    this.socket?.close();
  }

  /** @param {Status} status */
  setStatus(status) {
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }

  /** @param {(status: Status) => void} listener @returns {() => void} */
  onStatus(listener) {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** @param {(msg: ServerMsg) => void} listener @returns {() => void} */
  onGlobal(listener) {
    this.globalListeners.add(listener);
    return () => this.globalListeners.delete(listener);
  }

  /** @param {unknown} data */
  receive(data) {
    /** @type {ServerMsg} */
    let msg;
    try {
      msg = JSON.parse(String(data));
    } catch {
      return;
    }
    if (msg.type === 'welcome') {
      this.setStatus('open');
      for (const [room, follower] of this.followers) this.join(room, follower);
      for (const action of this.pending.values()) this.send(action);
      return;
    }
    if (msg.type === 'muted') this.muted = msg.players;
    if (msg.type === 'ack' || (msg.type === 'error' && msg.id)) {
      this.pending.delete(/** @type {string} */ (msg.id));
    }
    const room = roomOf(msg);
    const follower = room ? this.followers.get(room) : undefined;
    if (follower) {
      follower.onMessage(msg);
    } else {
      for (const listener of this.globalListeners) listener(msg);
    }
  }

  /** @param {object} msg @returns {boolean} whether it went out now */
  send(msg) {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  /**
   * Follows a room until the returned function is called.
   * @param {string} room
   * @param {Follower} follower
   * @returns {() => void}
   */
  follow(room, follower) {
    this.followers.set(room, follower);
    if (this.status === 'open') this.join(room, follower);
    return () => {
      if (this.followers.get(room) === follower) {
        this.followers.delete(room);
        this.send({ type: 'leave', room });
      }
    };
  }

  /** @param {string} room @param {Follower} follower */
  join(room, follower) {
    /** @type {Record<string, unknown>} */
    const msg = { type: 'join', room };
    if (follower.invite) msg.invite = follower.invite;
    const lastSeq = follower.lastSeq();
    if (lastSeq !== null) msg.last_seq = lastSeq;
    this.send(msg);
  }

  /** Asks again for what came after what this room's follower last saw (a gap in `seq`). @param {string} room */
  resync(room) {
    const follower = this.followers.get(room);
    if (follower) this.join(room, follower);
  }

  /** @param {string} room @param {number | null} seat */
  takeSeat(room, seat) {
    this.send(seat === null ? { type: 'take_seat', room } : { type: 'take_seat', room, seat });
  }

  /** @param {string} room */
  leaveSeat(room) {
    this.send({ type: 'leave_seat', room });
  }

  /** Says a line of chat in a followed room. @param {string} room @param {string} text */
  chat(room, text) {
    this.send({ type: 'chat', room, text });
  }

  /** Mutes (or unmutes) an identity's chat everywhere. @param {string} player @param {boolean} muted */
  mute(player, muted) {
    this.send({ type: 'mute', player, muted });
  }

  /** Resigns this player's seat in a running match (confirmed by the player first). @param {string} room */
  resign(room) {
    this.send({ type: 'resign', room });
  }

  /** "I'm back": takes back this player's seat that a bot plays while they were away. @param {string} room */
  back(room) {
    this.send({ type: 'back', room });
  }

  /** Answers a finished room's rematch. @param {string} room @param {boolean} accept */
  rematch(room, accept) {
    this.send({ type: 'rematch', room, accept });
  }

  /**
   * Sends one action; kept until acknowledged or refused so a reconnect can resend it.
   * @param {string} room
   * @param {unknown} action
   * @returns {string} the client id of the action
   */
  act(room, action) {
    const id = `${Date.now().toString(36)}-${this.nextId++}`;
    const msg = { type: 'action', room, id, action };
    this.pending.set(id, msg);
    this.send(msg);
    return id;
  }
}
