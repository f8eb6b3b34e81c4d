//! The web client's entry point: restores the guest identity, opens the one WebSocket, and
//! draws the screen the URL hash names (lobby, room, replay), redrawing on language change.

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
  const guest = await identity.restore();
  if (guest) {
    begin(guest);
  } else {
    showNamePicker();
  }
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
  const whoami = /** @type {HTMLElement} */ (document.getElementById('whoami'));
  whoami.textContent = guest.name;
  whoami.title = t('whoami_title');
  const badge = /** @type {HTMLElement} */ (document.getElementById('connection'));
  connection.onStatus((status) => {
    badge.hidden = status === 'open';
    badge.textContent = status === 'open' ? '' : t('reconnecting');
    badge.className = `connection ${status}`;
  });
  window.addEventListener('hashchange', show);
  show();
}

/** Draws the screen the hash names. */
function show() {
  if (!session) return;
  teardown();
  attention.setTitle('warroom', t('title_your_turn'));
  const route = router.current();
  /** @type {{element: Node, dispose: () => void}} */
  let screen;
  if (route.name === 'room') screen = roomScreen(session, route.id, route.invite);
  else if (route.name === 'replay') screen = replayScreen(session, route.id, route.step);
  else if (route.name === 'rules') screen = rulesScreen(route.ruleset);
  else screen = lobby(session);
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
    if (session) show();
    else showNamePicker();
  });
}

start();
