//! The landing page and lobby, readable without a name: the games (each with its rules and "Play
//! the computer"), a name form for a visitor who has none (playing without one gives a guest
//! name), "Play now" per ruleset (casual, or rated among players of about one's strength), public
//! rooms with live updates (polled; a waiting room says how long it has waited; a rated one says
//! so), a form to create a room with every option of its ruleset, rated or casual, joining by
//! invite link, the leaderboards, and finished matches to replay.

import { h, replaceChildren } from '../lib/dom.js';
import { language, t, tMaybe } from '../lib/i18n.js';
import * as api from '../lib/api.js';
import { roomLink, replayLink, playLink, playerLink, rulesLink, leaderboardLink } from '../lib/router.js';
import { gamePicture } from '../lib/pictures.js';
import { GAMES } from './rules.js';
import { isRoomId } from './room.js';
import { seatColor } from '../lib/colors.js';
import { rulesetUi } from '../rulesets/index.js';
import { optionInputs, help } from './options.js';
import { toast } from '../lib/toast.js';
import { clockBadge, clockChoice, durationText } from './clock.js';
import { namePicker } from './name.js';
import { PLAYERS, playComputerPanel } from './computer.js';
import { ratedBadge } from './ratings.js';
import { refusalText } from './room.js';

/** @typedef {import('../app.js').Session} Session */
/** @typedef {import('../lib/protocol.js').Room} Room */
/** @typedef {import('../lib/protocol.js').RulesetInfo} RulesetInfo */
/** @typedef {import('../lib/protocol.js').NewRoom} NewRoom */

const POLL_MS = 2000;
/** Rooms per page of the lobby (the server gives at most 100). */
const PAGE = 50;

/** @param {string} ruleset */
export function rulesetName(ruleset) {
  return tMaybe(`ruleset_${ruleset}`) ?? ruleset;
}

/** @param {Session} session @returns {{element: HTMLElement, dispose: () => void}} */
export function lobby(session) {
  const roomList = h('div', { class: 'room-list', 'data-testid': 'rooms' }, h('p', { class: 'muted' }, t('loading')));
  const finishedList = h('div', { class: 'match-list' });
  const createCard = h('form', { class: 'card create-room', 'data-testid': 'create-room' }, h('p', { class: 'muted' }, t('loading')));
  let stopped = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  /** How many pages of rooms the reader asked to see ("more rooms"). */
  let pages = 1;

  async function poll() {
    try {
      /** @type {Room[]} */
      const rooms = [];
      /** @type {string | null} */
      let next = null;
      for (let page = 0; page < pages; page += 1) {
        /** @type {Record<string, string>} */
        const query = { limit: String(PAGE) };
        if (next) query.before = next;
        const got = await api.rooms(query);
        rooms.push(...got.rooms);
        next = got.next;
        if (!next) break;
      }
      if (stopped) return;
      const more = next
        ? h(
            'button',
            {
              type: 'button',
              class: 'link more-rooms',
              'data-testid': 'more-rooms',
              onclick: () => {
                pages += 1;
                clearTimeout(timer);
                poll();
              },
            },
            t('more_rooms'),
          )
        : null;
      replaceChildren(
        roomList,
        rooms.length === 0 ? h('p', { class: 'muted' }, t('no_rooms')) : [...rooms.map((room) => roomRow(room, session)), more],
      );
    } catch (error) {
      if (stopped) return;
      replaceChildren(roomList, h('p', { class: 'problem' }, t('lobby_unreachable')));
    }
    timer = setTimeout(poll, POLL_MS);
  }

  async function loadFinished() {
    try {
      const matches = await api.matches({ state: 'finished' });
      if (stopped) return;
      replaceChildren(
        finishedList,
        matches.length === 0
          ? h('p', { class: 'muted' }, t('no_finished'))
          : h(
              'ul',
              { class: 'plain' },
              matches.slice(0, 30).map((match) =>
                h(
                  'li',
                  {},
                  h(
                    'a',
                    { href: replayLink(match.id), 'data-match': match.id },
                    `${rulesetName(match.ruleset)} · ${match.seats.map((seat) => seat.player?.name ?? '?').join(' – ')}`,
                  ),
                  match.finished_at ? h('span', { class: 'muted' }, ` ${new Date(match.finished_at).toLocaleString()}`) : null,
                ),
              ),
            ),
      );
    } catch {
      replaceChildren(finishedList, h('p', { class: 'muted' }, t('no_finished')));
    }
  }

  const playNow = h('div', { class: 'play-now', 'data-testid': 'play-now' });
  // "Play now" rated: among players of about one's strength, in a rated room.
  const ratedPlay = h('input', { type: 'checkbox', id: 'play-now-rated', 'data-testid': 'play-now-rated' });
  api
    .rulesets()
    .then((infos) => {
      if (stopped) return;
      buildCreateForm(createCard, infos, session);
      replaceChildren(playNow, infos.map((info) => playNowButton(info.id, session, ratedPlay)));
    })
    .catch(() => replaceChildren(createCard, h('p', { class: 'problem' }, t('lobby_unreachable'))));
  poll();
  loadFinished();

  const inviteInput = h('input', { placeholder: t('invite_placeholder'), 'aria-label': t('invite_placeholder'), 'data-testid': 'invite-input' });
  const inviteProblem = h('p', { class: 'problem', role: 'alert', 'data-testid': 'invite-problem' });
  const inviteForm = h('form', { class: 'inline' }, inviteInput, h('button', { type: 'submit' }, t('join')));
  inviteForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const target = inviteTarget(inviteInput.value);
    inviteProblem.textContent = target ? '' : t('invite_not_understood');
    if (target) location.hash = target;
  });

  const element = h(
    'section',
    { class: 'screen lobby' },
    games(session),
    h(
      'div',
      { class: 'column' },
      session.guest ? null : namePicker((name) => session.identify(name)),
      h('h2', {}, t('play_now')),
      h('p', { class: 'muted' }, t('play_now_text')),
      h('label', { class: 'check', for: 'play-now-rated' }, ratedPlay, ` ${t('play_now_rated')}`),
      help('play_now_rated', ratedPlay),
      playNow,
      h('h2', {}, t('public_rooms')),
      roomList,
      h('h3', {}, t('join_by_invite')),
      inviteForm,
      inviteProblem,
      session.guest ? h('p', {}, h('a', { href: playerLink(session.guest.id), 'data-testid': 'my-page' }, t('my_page'))) : null,
      h('h3', {}, t('leaderboards')),
      h(
        'div',
        { class: 'inline leaderboard-links', 'data-testid': 'leaderboard-links' },
        GAMES.map((ruleset) => h('a', { href: leaderboardLink(ruleset), 'data-ruleset': ruleset }, rulesetName(ruleset))),
      ),
    ),
    h('div', { class: 'column' }, h('h2', {}, t('create_room')), createCard, h('h2', {}, t('finished_matches')), finishedList),
  );
  return {
    element,
    dispose: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** The three games, each with a picture, its player count, a line, its rules and "Play the computer". @param {Session} session */
function games(session) {
  return h(
    'div',
    { class: 'games', 'data-testid': 'games' },
    h('h2', {}, t('games_title')),
    h('p', { class: 'muted' }, t('games_intro')),
    h(
      'ul',
      { class: 'game-cards' },
      GAMES.map((ruleset) => {
        const [min, max] = PLAYERS[ruleset] ?? [2, 2];
        return h(
          'li',
          { class: 'game-card card', 'data-game': ruleset },
          h('div', { class: 'game-art', role: 'img', 'aria-label': rulesetName(ruleset) }, gamePicture(ruleset)),
          h(
            'div',
            {},
            h('h3', {}, rulesetName(ruleset)),
            h('p', { class: 'muted' }, min === max ? t('players_exact', { n: min }) : t('players_range', { min, max })),
            h('p', {}, tMaybe(`blurb_${ruleset}`) ?? ''),
            h(
              'div',
              { class: 'inline game-links' },
              h('a', { href: rulesLink(ruleset), 'data-testid': `rules-${ruleset}` }, t('rules_link')),
              h('a', { href: leaderboardLink(ruleset), 'data-testid': `leaderboard-${ruleset}` }, t('leaderboard_link')),
            ),
            playComputerPanel(session, ruleset),
          ),
        );
      }),
    ),
  );
}

/**
 * Where an invite leads: a full link, its `#/room/...` part, or a bare room id; `null` for
 * anything that names no room.
 * @param {string} input
 */
export function inviteTarget(input) {
  const text = input.trim();
  const hashAt = text.indexOf('#');
  const route = hashAt >= 0 ? text.slice(hashAt + 1) : text.startsWith('/room/') ? text : `/room/${text}`;
  const [path, query = ''] = route.split('?');
  const parts = path.split('/').filter(Boolean);
  if (parts[0] !== 'room' || parts.length !== 2) return null;
  let id = '';
  try {
    id = decodeURIComponent(parts[1]);
  } catch {
    return null;
  }
  if (!isRoomId(id)) return null;
  const invite = new URLSearchParams(query).get('invite');
  return roomLink(id, invite);
}

/**
 * "Play now" for one ruleset: a waiting room to take a seat in, or a new one; rated when `rated`
 * is ticked.
 * @param {string} ruleset
 * @param {Session} session
 * @param {HTMLInputElement} rated
 */
function playNowButton(ruleset, session, rated) {
  const button = h('button', { class: 'primary', 'data-ruleset': ruleset }, rulesetName(ruleset));
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const guest = await session.identify();
      const found = await api.quickPlay(guest.token, ruleset, rated.checked);
      location.hash = playLink(found.room.id);
    } catch (error) {
      button.disabled = false;
      toast(error instanceof api.ApiError ? refusalText(error) : String(error), 'error');
    }
  });
  return button;
}

/**
 * How long a room has waited, in the reader's language ("5 min").
 * @param {string} since RFC 3339
 */
export function waitedFor(since) {
  const seconds = Math.max(0, (Date.now() - new Date(since).getTime()) / 1000);
  /** @type {[number, string]} */
  const [amount, unit] = seconds < 60 ? [seconds, 'second'] : seconds < 3600 ? [seconds / 60, 'minute'] : [seconds / 3600, 'hour'];
  return new Intl.NumberFormat(language(), { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 0 }).format(Math.floor(amount));
}

/** @param {Room} room @param {Session} session */
function roomRow(room, session) {
  const taken = room.seats.filter((seat) => seat.player).length;
  const mine = room.seats.some((seat) => seat.player?.id === session.guest?.id);
  const label = room.state === 'waiting' && !mine ? t('join') : mine ? t('open') : t('watch');
  return h(
    'div',
    { class: `room-row ${room.state}`, 'data-room': room.id, 'data-ruleset': room.ruleset },
    h('span', { class: 'ruleset-tag' }, rulesetName(room.ruleset)),
    ratedBadge(room),
    h(
      'span',
      { class: 'seats' },
      room.seats.map((seat) =>
        h(
          'span',
          { class: `seat-chip ${seat.player ? '' : 'free'}`, style: `--seat:${seatColor(seat.seat)}` },
          seat.player?.name ?? t('free_seat'),
        ),
      ),
    ),
    h('span', { class: 'muted' }, `${taken}/${room.seats.length}`),
    h('span', { class: `state ${room.state}` }, tMaybe(`state_${room.state}`) ?? room.state),
    clockBadge(room.settings.clock),
    room.state === 'waiting' && taken < room.seats.length
      ? h('span', { class: 'muted waited', 'data-testid': 'waited' }, t('waiting_for_time', { time: waitedFor(room.created_at) }))
      : null,
    room.spectators > 0 ? h('span', { class: 'muted' }, t('spectator_count', { n: room.spectators })) : null,
    h('a', { class: 'button', href: roomLink(room.id, room.invite_code) }, label),
  );
}

/** The grace periods the create form offers, in seconds (the server takes 1 to 86400). */
const GRACE_CHOICES = [30, 60, 120, 300, 900];
/** The server's default grace period. */
const DEFAULT_GRACE = 60;

/**
 * @param {HTMLFormElement} form
 * @param {RulesetInfo[]} infos
 * @param {Session} session
 */
function buildCreateForm(form, infos, session) {
  const rulesetSelect = h(
    'select',
    { name: 'ruleset', id: 'create-ruleset' },
    infos.map((info) => h('option', { value: info.id }, rulesetName(info.id))),
  );
  const seatsInput = h('input', { type: 'number', name: 'seats', id: 'create-seats' });
  const privateBox = h('input', { type: 'checkbox', name: 'private', id: 'create-private' });
  // Rated: people only, so the computer choice is closed while it is ticked.
  const ratedBox = h('input', { type: 'checkbox', name: 'rated', id: 'create-rated' });
  // "Play against the computer": the other seats taken by bots of one level at once.
  const botsSelect = h(
    'select',
    { name: 'bots', id: 'create-bots' },
    h('option', { value: '' }, t('other_seats_people')),
    /** @type {const} */ (['easy', 'normal', 'hard']).map((level) => h('option', { value: level }, t('computer_player', { level: t(`bot_level_${level}`) }))),
  );
  const clock = clockChoice(privateBox);
  // How long a player may be disconnected before a bot plays their seat (until they are back).
  const graceSelect = h(
    'select',
    { name: 'grace', id: 'create-grace' },
    GRACE_CHOICES.map((seconds) => h('option', { value: String(seconds), selected: seconds === DEFAULT_GRACE }, durationText(seconds))),
  );
  const optionsBox = h('div', { class: 'options' });
  const problem = h('p', { class: 'problem', role: 'alert' });
  /** @type {() => Record<string, any>} */
  let readOptions = () => ({});

  function onRuleset() {
    const info = infos.find((candidate) => candidate.id === rulesetSelect.value) ?? infos[0];
    seatsInput.min = String(info.seats.min);
    seatsInput.max = String(info.seats.max);
    seatsInput.value = String(info.seats.min);
    seatsInput.disabled = info.seats.min === info.seats.max;
    const ui = rulesetUi(info.id);
    const built = optionInputs(info.id, ui.fields(info.default_options), info.default_options);
    replaceChildren(optionsBox, built.element);
    readOptions = built.read;
  }
  rulesetSelect.addEventListener('change', onRuleset);
  ratedBox.addEventListener('change', () => {
    if (ratedBox.checked) botsSelect.value = '';
    botsSelect.disabled = ratedBox.checked;
  });

  replaceChildren(
    form,
    h('label', { for: 'create-ruleset' }, t('ruleset')),
    rulesetSelect,
    h('label', { for: 'create-seats' }, t('seats')),
    seatsInput,
    help('seats', seatsInput),
    h('label', { for: 'create-bots' }, t('other_seats')),
    botsSelect,
    help('bots', botsSelect),
    optionsBox,
    h('label', { class: 'check', for: 'create-rated' }, ratedBox, ` ${t('rated_room')}`),
    help('rated', ratedBox),
    h('label', { class: 'check' }, privateBox, ` ${t('private_room')}`),
    help('private', privateBox),
    clock.elements,
    h('label', { for: 'create-grace' }, t('grace_label')),
    graceSelect,
    help('grace', graceSelect),
    h('button', { type: 'submit', class: 'primary', id: 'create-submit' }, t('create')),
    problem,
  );
  onRuleset();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    problem.textContent = '';
    try {
      const guest = await session.identify();
      const room = await api.createRoom(guest.token, {
        ruleset: /** @type {NewRoom["ruleset"]} */ (rulesetSelect.value),
        options: readOptions(),
        seats: Number(seatsInput.value),
        private: privateBox.checked,
        rated: ratedBox.checked,
        clock: clock.read(),
        grace_seconds: Number(graceSelect.value),
        // The creator plays: seated at once, like anyone who opens a table.
        creator_seat: 0,
        bots: botsSelect.value
          ? Array.from({ length: Number(seatsInput.value) - 1 }, (_, i) => ({
              seat: i + 1,
              level: /** @type {'easy' | 'normal' | 'hard'} */ (botsSelect.value),
            }))
          : [],
      });
      location.hash = roomLink(room.id, room.invite_code);
    } catch (error) {
      problem.textContent = error instanceof api.ApiError ? refusalText(error) : /** @type {Error} */ (error).message;
    }
  });
}
