//! The web client's entry point: restores the guest identity (a first visit has none: it reads
//! the landing page, the rules and the lobby, and watches, as an anonymous visitor until it plays,
//! names itself or is given a guest name), opens the one WebSocket, and draws the screen the URL
//! hash names (lobby, room, replay, player page, leaderboard, recovery, rules), redrawing on language change
//! (only the chosen language's strings are downloaded).

import { LANGUAGES, language, loadLanguage, t } from './lib/i18n.js';
import { ApiError } from './lib/api.js';
import { h, s, replaceChildren } from './lib/dom.js';
import * as identity from './lib/identity.js';
import * as router from './lib/router.js';
import { Connection } from './lib/socket.js';
import * as attention from './lib/attention.js';
import { guestName } from './views/name.js';
import { toast } from './lib/toast.js';
import { lobby } from './views/lobby.js';
import { roomScreen } from './views/room.js';
import { replayScreen } from './views/replay.js';
import { playerScreen } from './views/player.js';
import { recoverScreen } from './views/recover.js';
import { rulesScreen } from './views/rules.js';
import { leaderboardScreen } from './views/leaderboard.js';

/** @typedef {import('./lib/protocol.js').Guest} Guest */

/**
 * What every screen may use. `guest` is null for an anonymous visitor; `identify` gives the
 * visitor an identity (the name chosen, or a generated guest name when `name` is absent) and
 * redraws the screen as it; it resolves to the identity, the one already held if any.
 * @typedef {{
 *   guest: Guest | null,
 *   connection: Connection,
 *   identify: (name?: string) => Promise<Guest>,
 * }} Session
 */

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
/** Undoes the current screen's timers and subscriptions. @type {() => void} */
let teardown = () => {};
/** @type {Session | null} */
let session = null;

async function start() {
  await loadLanguage(language());
  setUpLanguagePicker();
  window.addEventListener('hashchange', show);
  begin(await identity.restore());
}

/**
 * Takes the identity of a recovery code onto this browser and starts over as it (a reload, so
 * no socket or screen of the previous identity lives on).
 * @param {string} code
 */
async function recoverIdentity(code) {
  await identity.recover(code);
  location.hash = '#/';
  location.reload();
}

/**
 * Gives an anonymous visitor an identity: `name`, or a generated guest name (tried again with
 * another number if taken), which the player can change on their page later.
 * @param {string} [name]
 * @returns {Promise<Guest>}
 */
async function identify(name) {
  if (session?.guest) return session.guest;
  /** @type {Guest | null} */
  let guest = null;
  if (name !== undefined) {
    guest = await identity.create(name);
  } else {
    for (let attempt = 0; !guest; attempt += 1) {
      try {
        guest = await identity.create(guestName(attempt));
      } catch (error) {
        if (attempt >= 4 || !(error instanceof ApiError) || error.code !== 'name_taken') throw error;
      }
    }
    toast(t('guest_named', { name: guest.name }));
  }
  begin(guest);
  return guest;
}

/**
 * Opens the socket as `guest` (or anonymously) and draws the screen; a previous socket of this
 * tab (an anonymous visitor's) is closed first.
 * @param {Guest | null} guest
 */
function begin(guest) {
  session?.connection.close();
  const connection = new Connection(guest?.token ?? null);
  session = { guest, connection, identify };
  showWhoami(guest);
  const badge = /** @type {HTMLElement} */ (document.getElementById('connection'));
  connection.onStatus((status) => {
    // A socket closed for a new identity says nothing any more.
    if (session?.connection !== connection) return;
    badge.hidden = status === 'open';
    badge.textContent = status === 'open' ? '' : t('reconnecting');
    badge.className = `connection ${status}`;
  });
  show();
}

/** The top bar's name: a link to one's own player page (nothing for an anonymous visitor). @param {Guest | null} guest */
function showWhoami(guest) {
  const whoami = /** @type {HTMLAnchorElement} */ (document.getElementById('whoami'));
  whoami.hidden = !guest;
  if (!guest) return;
  whoami.textContent = guest.name;
  whoami.href = router.playerLink(guest.id);
  whoami.title = t('whoami_title');
}

/** The top bar's link to the leaderboards, in the reader's language. */
function showNavigation() {
  const link = /** @type {HTMLAnchorElement} */ (document.getElementById('leaderboards'));
  link.href = router.leaderboardLink();
  link.title = t('leaderboards');
  link.setAttribute('aria-label', t('leaderboards'));
  replaceChildren(link, podium(), h('span', { class: 'label' }, t('leaderboards')));
}

/** The leaderboards' icon: a podium (drawn, not a font's glyph, so every device shows it). */
function podium() {
  return s(
    'svg',
    { class: 'icon', viewBox: '0 0 24 24', width: 22, height: 22, 'aria-hidden': 'true' },
    s('path', { d: 'M2 21V14h6v7zM9 21V7h6v14zM16 21V11h6v10z', fill: 'currentColor' }),
  );
}

/** Draws the screen the hash names. */
function show() {
  attention.setTitle('warroom', t('title_your_turn'));
  showNavigation();
  const route = router.current();
  if (route.name === 'recover') {
    teardown();
    teardown = () => {};
    replaceChildren(main, recoverScreen(route.code, session?.guest ?? null, recoverIdentity));
    return;
  }
  if (!session) return;
  teardown();
  const current = session;
  /** @type {{element: Node, dispose: () => void}} */
  let screen;
  if (route.name === 'room') screen = roomScreen(current, route.id, route.invite, route.play);
  else if (route.name === 'replay') screen = replayScreen(current, route.id, route.step, route.invite);
  else if (route.name === 'rules') screen = rulesScreen(route.ruleset);
  else if (route.name === 'leaderboard') screen = leaderboardScreen(current, route);
  else if (route.name === 'player') {
    screen = playerScreen(current, route.id, () => current.guest && showWhoami(current.guest));
  } else screen = lobby(current);
  teardown = screen.dispose;
  replaceChildren(main, screen.element);
}

function setUpLanguagePicker() {
  const select = /** @type {HTMLSelectElement} */ (document.getElementById('language'));
  replaceChildren(
    select,
    Object.entries(LANGUAGES).map(([code, name]) => h('option', { value: code, selected: code === language() }, name)),
  );
  select.addEventListener('change', async () => {
    await loadLanguage(select.value);
    show();
  });
}

start();
