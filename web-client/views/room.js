//! A room: before the start, its seats (take one, leave it, share the invite link); once started,
//! the match (board, players, whose turn, clock, the ruleset's controls, dice, event log); at the
//! end, the end screen (result, standings, rematch). The chat runs beside it all. The same screen
//! serves seated players and spectators; only the seat to act gets live controls. The header says
//! whether the room is rated.
//! What a room's screen knew is kept for the session, so redrawing it (a language switch, coming
//! back from the lobby) resumes from the last seq instead of starting over.

import { h, replaceChildren } from '../lib/dom.js';
import { t, tMaybe } from '../lib/i18n.js';
import { roomLink, replayLink, playLink, rulesLink } from '../lib/router.js';
import * as api from '../lib/api.js';
import { toast } from '../lib/toast.js';
import { MatchLog } from '../lib/match_log.js';
import { rulesetUi } from '../rulesets/index.js';
import { MatchView } from './match_view.js';
import { ChatPanel } from './chat.js';
import { EndScreen } from './end_screen.js';
import { rulesetName } from './lobby.js';
import { seatColor, seatInk, seatSymbol } from '../lib/colors.js';
import * as attention from '../lib/attention.js';
import { clockBadge } from './clock.js';
import { expandLegal, withStaticParts as completed, withoutStaticParts, applyPatch } from '../lib/protocol.js';
import { levelButtons } from './computer.js';
import { computerName, withComputerNames } from '../lib/seat_names.js';
import { ratedBadge } from './ratings.js';

/** @typedef {import('../app.js').Session} Session */
/** @typedef {import('../lib/protocol.js').Room} Room */
/** @typedef {import('../lib/protocol.js').ServerMsg} ServerMsg */
/** @typedef {import('../lib/protocol.js').Outcome} Outcome */
/** @typedef {import('../rulesets/types.js').RulesetUi} RulesetUi */
/** @typedef {import('./clock.js').ReceivedClock} ReceivedClock */

/**
 * The match as this connection sees it.
 * @typedef {{
 *   seq: number | null, seat: number | null, view: any, toAct: number | null,
 *   outcome: Outcome | null, seedCommitment: string | null, seed: string | null,
 *   legal: any[] | null, lastEvents: any[], staticView: any, clock: ReceivedClock | null,
 *   dynamic: any, resyncFrom: number | null,
 * }} MatchSeen
 */

/** What each room's screen knew, kept for the session (a few rooms at most). @type {Map<string, {room: Room | null, match: MatchSeen, log: MatchLog}>} */
const remembered = new Map();
const REMEMBER_ROOMS = 4;
/** How long a player waits alone in a room before the computer is offered instead. */
const OFFER_COMPUTER_AFTER_MS = 4000;

/** @param {string} roomId */
function memoryOf(roomId) {
  let memory = remembered.get(roomId);
  if (!memory) {
    memory = {
      room: null,
      match: { seq: null, seat: null, view: null, toAct: null, outcome: null, seedCommitment: null, seed: null, legal: null, lastEvents: [], staticView: null, clock: null, dynamic: null, resyncFrom: -1 },
      log: new MatchLog(),
    };
    remembered.set(roomId, memory);
    if (remembered.size > REMEMBER_ROOMS) remembered.delete(/** @type {string} */ (remembered.keys().next().value));
  }
  return memory;
}

/**
 * A refusal in the reader's language when there is a string for its code (filled with its
 * parameters, worded by the ruleset where it names cells, areas or territories), else the
 * server's own message.
 * @param {{code: string, message: string, params?: Record<string, number>}} error
 * @param {{ruleset?: RulesetUi, view?: any, names?: string[]}} [context]
 */
export function refusalText(error, context = {}) {
  /** @type {Record<string, string | number>} */
  const params = { ...(error.params ?? {}) };
  for (const [name, value] of Object.entries(error.params ?? {})) {
    if ((name === 'seat' || name === 'to_act') && context.names?.[value]) params[name] = context.names[value];
    else if (context.ruleset && context.view) params[name] = context.ruleset.paramText(name, value, context.view, context.names ?? []);
  }
  if ('units' in params) params.n = Number(error.params?.units ?? 0);
  else if ('cards' in params) params.n = Number(error.params?.cards ?? 0);
  else if ('reserve' in params) params.n = Number(error.params?.reserve ?? 0);
  return tMaybe(`error_${error.code}`, params) ?? error.message;
}

/** A room id is a UUID; anything else cannot name a room. @param {string} text */
export function isRoomId(text) {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
}

/**
 * @param {Session} session
 * @param {string} roomId
 * @param {string | null} invite
 * @param {boolean} [play] "Play now": take a free seat as soon as the room is known
 * @returns {{element: HTMLElement, dispose: () => void}}
 */
export function roomScreen(session, roomId, invite, play = false) {
  const { connection } = session;
  const header = h('div', { class: 'room-header' });
  const body = h('div', { class: 'room-body' }, h('p', { class: 'muted' }, t('loading')));
  const endBox = h('div', { class: 'end-box' });
  const chat = new ChatPanel({
    me: session.guest?.id ?? null,
    say: (text) => connection.chat(roomId, text),
    mute: (player, muted) => connection.mute(player, muted),
  });
  chat.setMuted(connection.muted);
  const element = h('section', { class: 'screen room', 'data-room': roomId }, header, endBox, body, chat.element);
  /** The end of the match, once it is over. @type {EndScreen | null} */
  let endScreen = null;
  /** @type {import('../lib/protocol.js').Rematch | null} */
  let rematch = null;
  const unlisten = connection.onGlobal((msg) => {
    if (msg.type === 'muted') chat.setMuted(msg.players);
    else if (msg.type === 'error') toast(refusalText(msg), 'error');
  });

  if (!isRoomId(roomId)) {
    replaceChildren(body, h('p', { class: 'problem', role: 'alert' }, t('error_room_not_found')), h('a', { href: '#/' }, t('back_to_lobby')));
    return { element, dispose: () => {} };
  }

  const memory = memoryOf(roomId);
  const { match, log } = memory;
  /** @type {Room | null} */
  let room = memory.room;
  /** @type {MatchView | null} */
  let matchView = null;
  /** Whether the log is being filled in from the replay. */
  let filling = false;
  let disposed = false;
  /** Whether the resign confirmation is open. */
  let resignAsking = false;
  /** "Play now" still has to take a seat here. */
  let seatWanted = play;
  let seatAsked = false;
  /** When waiting alone here makes the room offer the computer instead. */
  const offerComputerAt = performance.now() + OFFER_COMPUTER_AFTER_MS;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let offerTimer;

  const unfollow = connection.follow(roomId, {
    invite,
    lastSeq: () => match.seq,
    onMessage: receive,
  });

  /** @param {ServerMsg} msg */
  function receive(msg) {
    switch (msg.type) {
      case 'room':
        room = withComputerNames(msg.room);
        memory.room = room;
        receiveClock(msg.room.clock);
        if (seatWanted) takeSeatNow(msg.room);
        render();
        backfill();
        break;
      case 'snapshot': {
        Object.assign(match, {
          seq: msg.seq,
          seat: msg.seat,
          view: withStaticParts(msg.view),
          // What the next `applied`'s patch applies to.
          dynamic: withoutStaticParts(msg.view),
          toAct: msg.to_act,
          outcome: msg.outcome,
          seedCommitment: msg.seed_commitment ?? match.seedCommitment,
          seed: msg.seed ?? match.seed,
          legal: expandLegal(msg.legal),
        });
        receiveClock(msg.clock);
        // The last action's events (for its dice and arrows) come with the log.
        const known = log.get(msg.seq);
        match.lastEvents = known ? known.events : [];
        matchView?.settled();
        render();
        backfill();
        break;
      }
      case 'applied': {
        if (match.seq !== null && msg.seq <= match.seq) break;
        if (match.seq === null || msg.seq !== match.seq + 1) {
          // A gap: something was missed; ask for everything after what we have.
          resync();
          break;
        }
        // A patch applies to the view of the seq just before it, which this client holds (the
        // server sends one only then); one that does not fit means the view is not to be
        // trusted: ask for whole views from what we have.
        let dynamic = msg.view;
        if (msg.patch !== undefined) {
          try {
            dynamic = applyPatch(match.dynamic, msg.patch);
          } catch {
            dynamic = undefined;
          }
          if (match.dynamic === null || dynamic === undefined) {
            resync();
            break;
          }
        }
        Object.assign(match, {
          seq: msg.seq,
          view: withStaticParts(dynamic),
          dynamic,
          toAct: msg.to_act,
          outcome: msg.outcome,
          legal: expandLegal(msg.legal),
          lastEvents: msg.events,
        });
        receiveClock(msg.clock);
        log.add({
          seq: msg.seq,
          seat: msg.seat,
          events: msg.events,
          by: msg.by,
          resigned: /** @type {{type?: string}} */ (msg.action)?.type === 'resign',
        });
        matchView?.settled();
        render();
        break;
      }
      case 'finished':
        match.outcome = msg.outcome;
        match.seed = msg.seed;
        render();
        break;
      case 'chat':
        chat.add(msg.line);
        break;
      case 'chat_history':
        chat.history(msg.lines);
        break;
      case 'rematch':
        rematch = msg.rematch;
        endScreen?.setRematch(msg.rematch);
        break;
      case 'error': {
        if (seatWanted && ['room_full', 'match_started', 'seat_taken'].includes(msg.code)) {
          // Someone took the last seat first: "Play now" looks for another room.
          seatWanted = false;
          playElsewhere();
          break;
        }
        const names = room ? seatNames(room) : [];
        const text = refusalText(msg, { ruleset: room ? rulesetUi(room.ruleset) : undefined, view: match.view, names });
        toast(text, 'error');
        if (msg.id) matchView?.refused(text);
        if (room === null && ['room_not_found', 'invalid_invite', 'room_expired'].includes(msg.code)) {
          replaceChildren(body, h('p', { class: 'problem', role: 'alert' }, text), h('a', { href: '#/' }, t('back_to_lobby')));
        }
        break;
      }
      default:
        break;
    }
  }

  /**
   * Asks the server again for what came after the last seq this screen holds (a gap, or a patch
   * that does not fit), once per seq: the messages already on their way are dropped until its
   * answer brings the next seq.
   */
  function resync() {
    if (match.resyncFrom === match.seq) return;
    match.resyncFrom = match.seq;
    connection.resync(roomId);
  }

  /**
   * Keeps the clock a message carries with the moment it arrived (its countdown runs from
   * then). @param {import('../lib/protocol.gen').ClockState | undefined} clock
   */
  function receiveClock(clock) {
    if (clock) match.clock = { state: clock, at: performance.now() };
  }

  /**
   * A view that comes without its static parts (the board, the options and, in classic, the
   * borders, continents and territory names: sent once per match, with its snapshot) gets the
   * ones seen before.
   * @param {any} view
   */
  function withStaticParts(view) {
    if (!view) return view;
    if (view.board) {
      // A snapshot's view is whole: it is what later views are completed from.
      match.staticView = view;
      return view;
    }
    return completed(view, match.staticView);
  }

  /** Fills in the log up to the current seq from the replay endpoint, once per gap. */
  async function backfill() {
    if (filling || !room?.match_id || match.seq === null || log.complete(match.seq)) return;
    filling = true;
    const upTo = match.seq;
    try {
      await log.backfill(room.match_id, session.guest?.token ?? null, upTo);
      if (disposed) return;
      if (match.lastEvents.length === 0) match.lastEvents = log.get(match.seq ?? 0)?.events ?? [];
      matchView?.history(true);
      render();
    } catch {
      matchView?.history(false);
    } finally {
      filling = false;
    }
  }

  /** Sends `take_seat` once; "Play now" is done when the room shows this player seated. @param {Room} current */
  function takeSeatNow(current) {
    const me = session.guest?.id;
    if (!me) {
      // A visitor without a name plays under a guest name: the screen is drawn anew as them.
      seatWanted = false;
      session.identify().catch((error) => toast(error instanceof api.ApiError ? refusalText(error) : String(error), 'error'));
    } else if (current.seats.some((seat) => seat.player?.id === me)) {
      seatWanted = false;
    } else if (current.state !== 'waiting') {
      seatWanted = false;
      playElsewhere();
    } else if (!seatAsked) {
      seatAsked = true;
      connection.takeSeat(current.id, null);
    }
  }

  /** "Play now" again, elsewhere: another room of this one's ruleset, rated if this one is. */
  function playElsewhere() {
    if (!room || !session.guest) return;
    api
      .quickPlay(session.guest.token, room.ruleset, room.rated)
      .then((found) => {
        location.hash = playLink(found.room.id);
      })
      .catch((error) => toast(error instanceof api.ApiError ? refusalText(error) : String(error), 'error'));
  }

  function ensureMatchView() {
    if (!matchView) {
      matchView = new MatchView({
        ruleset: rulesetUi(room?.ruleset ?? ''),
        act: (action) => connection.act(roomId, action),
      });
    }
    return matchView;
  }

  function render() {
    if (!room || disposed) return;
    renderHeader(room);
    if (match.view === null) {
      replaceChildren(body, waitingRoom(room));
      return;
    }
    const view = ensureMatchView();
    view.showLog(log.entries(), match.lastEvents);
    view.update({
      view: match.view,
      seat: match.seat,
      toAct: match.toAct,
      outcome: match.outcome,
      names: seatNames(room),
      room,
      seed: match.seed,
      seedCommitment: match.seedCommitment,
      legal: match.legal,
      clock: match.clock,
    });
    view.element.dataset.seq = String(match.seq ?? '');
    view.element.dataset.over = String(match.outcome !== null);
    if (body.firstChild !== view.element) {
      // The match takes the waiting room's place: focus, if it was there or nowhere, goes to the
      // match (its prompt), not to the page's body.
      const lost = document.activeElement === document.body || body.contains(document.activeElement);
      replaceChildren(body, view.element);
      if (lost) view.focusStart();
    }
    if (match.outcome && room.match_id && !endScreen) showEnd(room.match_id, match.outcome);
    attention.setTurn(match.seat !== null && match.toAct === match.seat && match.outcome === null);
  }

  /** @param {string} matchId @param {Outcome} outcome */
  function showEnd(matchId, outcome) {
    if (!room) return;
    endScreen = new EndScreen({
      matchId,
      seat: match.seat,
      outcome,
      names: seatNames(room),
      token: session.guest?.token ?? null,
      invite: room.invite_code ?? invite,
      answer: match.seat === null ? null : (accept) => connection.rematch(roomId, accept),
    });
    if (rematch) endScreen.setRematch(rematch);
    replaceChildren(endBox, endScreen.element);
  }

  /** @param {Room} current */
  function renderHeader(current) {
    attention.setTitle(`${rulesetName(current.ruleset)} · warroom`, t('title_your_turn'));
    const seated = current.seats.some((seat) => seat.player?.id === session.guest?.id);
    const resigned = current.seats.some((seat) => seat.player?.id === session.guest?.id && seat.takeover === 'resigned');
    const away = current.seats.find(
      (seat) => seat.player?.id === session.guest?.id && (seat.takeover === 'disconnected' || seat.takeover === 'timed_out'),
    );
    const sound = h('input', { type: 'checkbox', checked: attention.soundOn(), 'data-testid': 'turn-sound' });
    sound.addEventListener('change', () => attention.setSound(/** @type {HTMLInputElement} */ (sound).checked));
    replaceChildren(
      header,
      h('a', { href: '#/', class: 'back' }, `← ${t('lobby')}`),
      h('h2', {}, rulesetName(current.ruleset)),
      ratedBadge(current),
      h('a', { href: rulesLink(current.ruleset), class: 'rules-link' }, t('rules_link')),
      h('span', { class: `state ${current.state}`, 'data-testid': 'room-state' }, tMaybe(`state_${current.state}`) ?? current.state),
      clockBadge(current.settings.clock),
      h('span', { class: 'muted', 'data-testid': 'spectators' }, t('spectator_count', { n: current.spectators })),
      current.state === 'finished' && current.match_id
        ? h('a', { class: 'button', href: replayLink(current.match_id), 'data-testid': 'open-replay' }, t('open_replay'))
        : null,
      seated && current.state !== 'finished' ? h('label', { class: 'check sound-toggle' }, sound, ` ${t('turn_sound')}`) : null,
      seated && current.state === 'playing' && match.outcome === null && !resigned ? resignBox() : null,
      away && current.state === 'playing' && match.outcome === null ? awayBox() : null,
    );
  }

  /**
   * A bot plays this player's seat because they were away: say so, with "I'm back" to take it
   * back (playing a move takes it back too).
   */
  function awayBox() {
    return h(
      'span',
      { class: 'away', role: 'status', 'data-testid': 'away' },
      h('span', {}, t('away_notice')),
      h('button', { class: 'primary', 'data-testid': 'im-back', onclick: () => connection.back(roomId) }, t('im_back')),
    );
  }

  /**
   * "Resign", asked twice: the first click only opens the confirmation, which stays open across
   * redraws until answered.
   */
  function resignBox() {
    /** @param {boolean} asking */
    const answer = (asking) => () => {
      resignAsking = asking;
      if (room && !disposed) renderHeader(room);
    };
    if (!resignAsking) {
      return h('span', { class: 'resign' }, h('button', { 'data-testid': 'resign', onclick: answer(true) }, t('resign')));
    }
    return h(
      'span',
      { class: 'resign' },
      h('span', { role: 'alert' }, t('resign_confirm')),
      h(
        'button',
        {
          class: 'danger',
          'data-testid': 'resign-confirm',
          onclick: () => {
            resignAsking = false;
            connection.resign(roomId);
          },
        },
        t('resign_yes'),
      ),
      h('button', { 'data-testid': 'resign-cancel', onclick: answer(false) }, t('cancel')),
    );
  }

  /** @param {Room} current */
  function waitingRoom(current) {
    const me = session.guest?.id;
    const mySeat = current.seats.find((seat) => seat.player?.id === me);
    const code = current.invite_code ?? invite;
    const link = `${location.origin}${location.pathname}${roomLink(current.id, code)}`;
    const linkInput = h('input', { readonly: true, value: link, 'data-testid': 'invite-link', 'aria-label': t('invite_link') });
    const free = current.seats.filter((seat) => !seat.player).length;
    return h(
      'div',
      { class: 'card waiting' },
      h('h3', {}, t('waiting_for_players')),
      h(
        'ul',
        { class: 'seat-list' },
        current.seats.map((seat) =>
          h(
            'li',
            { style: `--seat:${seatColor(seat.seat)};--seat-ink:${seatInk(seat.seat)}`, 'data-seat-row': seat.seat },
            h('span', { class: 'swatch', 'aria-hidden': 'true' }, seatSymbol(seat.seat)),
            h('span', {}, seatNames(current)[seat.seat]),
            seat.player && seat.player.id === me ? h('span', { class: 'muted you' }, ` (${t('you')})`) : null,
            !seat.player && !mySeat
              ? h('button', { class: 'primary', 'data-seat': seat.seat, onclick: () => takeSeatButton(current, seat.seat) }, t('take_seat'))
              : null,
          ),
        ),
      ),
      mySeat ? h('button', { 'data-action': 'leave-seat', onclick: () => connection.leaveSeat(current.id) }, t('leave_seat')) : null,
      h('label', { for: 'invite-link' }, t('invite_link')),
      h(
        'div',
        { class: 'inline' },
        linkInput,
        h('button', {
          onclick: () => {
            navigator.clipboard?.writeText(link).then(() => toast(t('copied')), () => linkInput.select());
          },
        }, t('copy')),
      ),
      h('p', { class: 'muted' }, t('invite_hint', { n: free })),
      h('p', { class: 'muted' }, t('starts_when_full')),
      mySeat ? computerOffer(current) : null,
    );
  }

  /**
   * A seat's "Take this seat": a visitor without a name first gets a guest name (the room is
   * then drawn anew as them and takes a free seat).
   * @param {Room} current @param {number} seat
   */
  function takeSeatButton(current, seat) {
    if (session.guest) {
      connection.takeSeat(current.id, seat);
      return;
    }
    session
      .identify()
      .then(() => {
        location.hash = playLink(current.id, current.invite_code ?? invite);
      })
      .catch((error) => toast(error instanceof api.ApiError ? refusalText(error) : String(error), 'error'));
  }

  /**
   * Waiting alone (no other person, no computer) for a few seconds: the computer is offered
   * instead, in a room like this one (this seat is left first).
   * @param {Room} current
   */
  function computerOffer(current) {
    const me = session.guest?.id;
    const alone = current.seats.every((seat) => !seat.player || seat.player.id === me);
    if (!alone) return null;
    const wait = offerComputerAt - performance.now();
    if (wait > 0) {
      clearTimeout(offerTimer);
      offerTimer = setTimeout(render, wait + 50);
      return null;
    }
    return h(
      'div',
      { class: 'computer-offer', 'data-testid': 'computer-offer', role: 'status' },
      h('p', {}, t('nobody_yet_play_computer')),
      levelButtons(session, current.ruleset, () => {
        connection.leaveSeat(current.id);
        return { seats: current.seats.length, options: current.options };
      }),
    );
  }

  // Coming back to a room this session already followed: draw what is known at once.
  render();

  return {
    element,
    dispose: () => {
      disposed = true;
      clearTimeout(offerTimer);
      unfollow();
      unlisten();
      matchView?.dispose();
      attention.setTurn(false);
    },
  };
}

/**
 * The seated players' names, by seat: a computer seat's own (lib/seat_names.js); a person's seat
 * a bot plays for now says so.
 * @param {Room} room
 */
export function seatNames(room) {
  return room.seats.map((seat) => {
    if (seat.bot) return computerName(seat.seat, seat.bot);
    const name = seat.player?.name ?? t('free_seat');
    return seat.takeover ? t('bot_plays_for', { name, why: t(`takeover_${seat.takeover}`) }) : name;
  });
}
