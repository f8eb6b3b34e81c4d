//! A room: before the start, its seats (take one, leave it, share the invite link); once started,
//! the match (board, players, whose turn, clock, the ruleset's controls, dice, event log). The
//! same screen serves seated players and spectators; only the seat to act gets live controls.

import { h, replaceChildren } from '../lib/dom.js';
import { t, tMaybe } from '../lib/i18n.js';
import { roomLink, replayLink, playLink } from '../lib/router.js';
import * as api from '../lib/api.js';
import { toast } from '../lib/toast.js';
import { rulesetUi } from '../rulesets/index.js';
import { MatchView } from './match_view.js';
import { rulesetName } from './lobby.js';
import { seatColor } from '../lib/colors.js';

/** @typedef {import('../app.js').Session} Session */
/** @typedef {import('../lib/protocol.js').Room} Room */
/** @typedef {import('../lib/protocol.js').ServerMsg} ServerMsg */
/** @typedef {import('../lib/protocol.js').Outcome} Outcome */

/**
 * A refusal in the reader's language when we have it, else the server's own message.
 * @param {{code: string, message: string}} error
 */
export function refusalText(error) {
  return tMaybe(`error_${error.code}`) ?? error.message;
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
  const element = h('section', { class: 'screen room', 'data-room': roomId }, header, body);

  /** @type {Room | null} */
  let room = null;
  /** The match as this connection sees it. */
  const match = {
    /** @type {number | null} */ seq: null,
    /** @type {number | null} */ seat: null,
    /** @type {any} */ view: null,
    /** @type {number | null} */ toAct: null,
    /** @type {Outcome | null} */ outcome: null,
    /** @type {string | null} */ seedCommitment: null,
    /** @type {string | null} */ seed: null,
  };
  /** @type {MatchView | null} */
  let matchView = null;
  /** "Play now" still has to take a seat here. */
  let seatWanted = play;
  let seatAsked = false;

  const unfollow = connection.follow(roomId, {
    invite,
    lastSeq: () => match.seq,
    onMessage: receive,
  });

  /** @param {ServerMsg} msg */
  function receive(msg) {
    switch (msg.type) {
      case 'room':
        room = msg.room;
        if (seatWanted) takeSeatNow(msg.room);
        render();
        break;
      case 'snapshot':
        Object.assign(match, {
          seq: msg.seq,
          seat: msg.seat,
          view: msg.view,
          toAct: msg.to_act,
          outcome: msg.outcome,
          seedCommitment: msg.seed_commitment ?? match.seedCommitment,
        });
        ensureMatchView().snapshot(msg.seq);
        render();
        break;
      case 'applied':
        if (match.seq !== null && msg.seq <= match.seq) break;
        if (match.seq === null || msg.seq !== match.seq + 1) {
          // A gap: something was missed; ask for everything after what we have.
          connection.resync(roomId);
          break;
        }
        Object.assign(match, { seq: msg.seq, view: msg.view, toAct: msg.to_act, outcome: msg.outcome });
        ensureMatchView().applied(msg.seq, msg.seat, msg.events);
        render();
        break;
      case 'finished':
        match.outcome = msg.outcome;
        match.seed = msg.seed;
        render();
        break;
      case 'error':
        if (seatWanted && ['room_full', 'match_started', 'seat_taken'].includes(msg.code)) {
          // Someone took the last seat first: "Play now" looks for another room.
          seatWanted = false;
          playElsewhere();
          break;
        }
        toast(refusalText(msg), 'error');
        if (room === null && (msg.code === 'room_not_found' || msg.code === 'invalid_invite')) {
          replaceChildren(body, h('p', { class: 'problem' }, refusalText(msg)), h('a', { href: '#/' }, t('back_to_lobby')));
        }
        break;
      default:
        break;
    }
  }

  /** Sends `take_seat` once; "Play now" is done when the room shows this player seated. @param {Room} current */
  function takeSeatNow(current) {
    const me = session.guest?.id;
    if (current.seats.some((seat) => seat.player?.id === me)) {
      seatWanted = false;
    } else if (current.state !== 'waiting') {
      seatWanted = false;
      playElsewhere();
    } else if (!seatAsked) {
      seatAsked = true;
      connection.takeSeat(current.id, null);
    }
  }

  function playElsewhere() {
    const ruleset = room?.ruleset;
    if (!ruleset || !session.guest) return;
    api
      .quickPlay(session.guest.token, ruleset)
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
    if (!room) return;
    renderHeader(room);
    if (match.view === null) {
      replaceChildren(body, waitingRoom(room));
      return;
    }
    const view = ensureMatchView();
    view.update({
      view: match.view,
      seat: match.seat,
      toAct: match.toAct,
      outcome: match.outcome,
      names: room.seats.map((seat) => seat.player?.name ?? t('free_seat')),
      room,
      seed: match.seed,
      seedCommitment: match.seedCommitment,
    });
    view.element.dataset.seq = String(match.seq ?? '');
    view.element.dataset.over = String(match.outcome !== null);
    if (body.firstChild !== view.element) replaceChildren(body, view.element);
  }

  /** @param {Room} current */
  function renderHeader(current) {
    replaceChildren(
      header,
      h('a', { href: '#/', class: 'back' }, `← ${t('lobby')}`),
      h('h2', {}, rulesetName(current.ruleset)),
      h('span', { class: `state ${current.state}`, 'data-testid': 'room-state' }, tMaybe(`state_${current.state}`) ?? current.state),
      h('span', { class: 'muted', 'data-testid': 'spectators' }, t('spectator_count', { n: current.spectators })),
      current.state === 'finished' && current.match_id
        ? h('a', { class: 'button', href: replayLink(current.match_id), 'data-testid': 'open-replay' }, t('open_replay'))
        : null,
    );
  }

  /** @param {Room} current */
  function waitingRoom(current) {
    const me = session.guest?.id;
    const mySeat = current.seats.find((seat) => seat.player?.id === me);
    const code = current.invite_code ?? invite;
    const link = `${location.origin}${location.pathname}${roomLink(current.id, code)}`;
    const linkInput = h('input', { readonly: true, value: link, 'data-testid': 'invite-link', 'aria-label': t('invite_link') });
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
            { style: `--seat:${seatColor(seat.seat)}` },
            h('span', { class: 'swatch' }),
            h('span', {}, seat.player ? seat.player.name : t('free_seat')),
            seat.player && seat.player.id === me ? h('span', { class: 'muted' }, ` (${t('you')})`) : null,
            !seat.player && !mySeat
              ? h('button', { class: 'primary', 'data-seat': seat.seat, onclick: () => connection.takeSeat(current.id, seat.seat) }, t('take_seat'))
              : null,
          ),
        ),
      ),
      mySeat ? h('button', { onclick: () => connection.leaveSeat(current.id) }, t('leave_seat')) : null,
      h('label', {}, t('invite_link')),
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
      h('p', { class: 'muted' }, t('starts_when_full')),
    );
  }

  return {
    element,
    dispose: () => {
      unfollow();
      matchView?.dispose();
    },
  };
}
