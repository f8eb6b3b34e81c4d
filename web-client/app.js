//! The web client's entry point: restores the guest identity, opens the one WebSocket, and
//! draws the screen the URL hash names (lobby, room, replay, player page, recovery, rules),
//! redrawing on language change (only the chosen language's strings are downloaded).

import { LANGUAGES, language, loadLanguage, t } from './lib/i18n.js';
import { h, replaceChildren } from './lib/dom.js';
import * as identity from './lib/identity.js';
import * as router from './lib/router.js';
import { Connection } from './lib/socket.js';
import * as attention from './lib/attention.js';
import { namePicker } from './views/name.js';
import { lobby } from './views/lobby.js';
import { roomScreen } from './views/room.js';
import { replayScreen } from './views/replay.js';
import { playerScreen } from './views/player.js';
import { recoverScreen } from './views/recover.js';
import { rulesScreen } from './views/rules.js';

/** @typedef {import('./lib/protocol.js').Guest} Guest */

/**
 * What every screen may use.
 * @typedef {{guest: Guest | null, connection: Connection}} Session
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
  const guest = await identity.restore();
  if (guest) {
    begin(guest);
  } else {
    show();
  }
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

function showNamePicker() {
  teardown();
  teardown = () => {};
  replaceChildren(
    main,
    namePicker(async (name) => {
      const guest = await identity.create(name);
      begin(guest);
    }),
  );
}

/** @param {Guest} guest */
function begin(guest) {
  const connection = new Connection(guest.token);
  session = { guest, connection };
  showWhoami(guest);
  const badge = /** @type {HTMLElement} */ (document.getElementById('connection'));
  connection.onStatus((status) => {
    badge.hidden = status === 'open';
    badge.textContent = status === 'open' ? '' : t('reconnecting');
    badge.className = `connection ${status}`;
  });
  show();
}

/** The top bar's name: a link to one's own player page. @param {Guest} guest */
function showWhoami(guest) {
  const whoami = /** @type {HTMLAnchorElement} */ (document.getElementById('whoami'));
  whoami.textContent = guest.name;
  whoami.href = router.playerLink(guest.id);
  whoami.title = t('whoami_title');
}

/** Draws the screen the hash names. */
function show() {
  attention.setTitle('warroom', t('title_your_turn'));
  const route = router.current();
  if (route.name === 'recover') {
    teardown();
    teardown = () => {};
    replaceChildren(main, recoverScreen(route.code, session?.guest ?? null, recoverIdentity));
    return;
  }
  if (!session) {
    showNamePicker();
    return;
  }
  teardown();
  const current = session;
  /** @type {{element: Node, dispose: () => void}} */
  let screen;
  if (route.name === 'room') screen = roomScreen(current, route.id, route.invite, route.play);
  else if (route.name === 'replay') screen = replayScreen(current, route.id, route.step, route.invite);
  else if (route.name === 'rules') screen = rulesScreen(route.ruleset);
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
