//! Turn clocks in the client: a hexdice match with a short clock where nobody moves (the
//! countdown runs down, warns in its last seconds, the clock takes the timeout action, marked as
//! the clock's in the log, and the turn passes); the create form's preset reaching the room and
//! the lobby; the client's presets being the server's; and the countdown's arithmetic, which
//! starts from the server's `left_ms` whatever this computer's clock says.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, serverAndBrowser, namedClients } from './harness.js';
import { createRoomByApi } from './play.js';

/** @typedef {import('playwright-core').Page} Page */

const setup = serverAndBrowser();

/** Where the client's clock module is served. */
/** The clock module, as the page's own modules import it (under the client's versioned path, so
 * that it shares their language strings). */
const CLOCK_MODULE = 'views/clock.js';

/**
 * Counts the notes the page plays (Web Audio oscillators started) in `window.notesPlayed`.
 * Runs before the page's own scripts.
 */
function countNotes() {
  const Real = window.AudioContext;
  const w = /** @type {any} */ (window);
  w.notesPlayed = 0;
  w.AudioContext = class extends Real {
    createOscillator() {
      w.notesPlayed += 1;
      return super.createOscillator();
    }
  };
}

/** Puts this page's wall clock an hour ahead: the countdown must not change. */
function wrongWallClock() {
  const real = Date.now;
  Date.now = () => real() + 3_600_000;
}

/** @param {Page} page */
const clockOf = (page) =>
  page.evaluate(() => {
    const clock = /** @type {HTMLElement | null} */ (document.querySelector('[data-testid=clock]'));
    return clock && !clock.hidden
      ? {
          seat: clock.dataset.seat ?? '',
          leftMs: Number(clock.dataset.leftMs),
          warning: clock.dataset.warning === 'true',
          text: clock.querySelector('[data-testid=clock-time]')?.textContent ?? '',
        }
      : null;
  });

test('the countdown runs from the server time left, warns, and the clock plays the turn when nobody moves', async () => {
  const ada = await openClient(setup.browser, setup.server.url);
  const bob = await openClient(setup.browser, setup.server.url);
  for (const client of [ada, bob]) await client.context.addInitScript(countNotes);
  await bob.context.addInitScript(wrongWallClock);
  await Promise.all([ada.page.reload(), bob.page.reload()]);
  await enterName(ada.page, 'Ada');
  await enterName(bob.page, 'Bob');

  // 4 s a turn, then 8 s of bank: the warning comes after 2 s, the timeout after 12 s.
  const room = await createRoomByApi(ada.page, {
    ruleset: 'hexdice',
    seats: 2,
    creator_seat: 0,
    clock: { turn_seconds: 4, bank_seconds: 8 },
  });
  assert.deepEqual(room.settings.clock, { turn_seconds: 4, bank_seconds: 8 });
  await ada.page.goto(`${setup.server.url}/#/room/${room.id}`);
  await bob.page.goto(`${setup.server.url}/#/room/${room.id}`);
  await bob.page.waitForSelector('.seat-list button[data-seat]');
  await bob.page.click('.seat-list button[data-seat]');
  await ada.page.waitForSelector('.match .board');
  await bob.page.waitForSelector('.match .board');
  assert.equal(await ada.page.textContent('.room-header [data-testid=room-clock]'), 'Clock: 4 s + 8 s');

  // Both switch the warning sound on (off by default).
  for (const page of [ada.page, bob.page]) {
    const sound = page.locator('[data-testid=clock-sound]');
    assert.equal(await sound.isChecked(), false, 'the warning sound is off by default');
    await sound.check();
  }

  const first = await clockOf(ada.page);
  assert.ok(first, 'the countdown is shown');
  const seat = Number(first.seat);
  const [actor, waiter] = seat === 0 ? [ada.page, bob.page] : [bob.page, ada.page];
  assert.equal(await actor.getAttribute('.match', 'data-interactive'), 'true');
  assert.ok(first.leftMs <= 12_000 && first.leftMs > 6_000, `time left ${first.leftMs}`);
  assert.match(first.text, /^0:0[0-4] \+ bank 0:0[5-8]$/);
  // The other seat shows its bank; the seat to act its countdown, in the players list.
  assert.equal(await actor.textContent(`.players [data-seat="${1 - seat}"] [data-testid=seat-clock]`), 'bank 0:08');
  assert.match((await actor.textContent(`.players [data-seat="${seat}"] [data-testid=seat-clock]`)) ?? '', /\+ bank/);

  // It ticks down, and both pages agree although Bob's wall clock is an hour ahead.
  const before = await clockOf(ada.page);
  await ada.page.waitForTimeout(1_200);
  const [later, bobs] = [await clockOf(ada.page), await clockOf(bob.page)];
  assert.ok(before && later && bobs);
  assert.ok(later.leftMs < before.leftMs - 700 && later.leftMs > before.leftMs - 2_500, `${before.leftMs} → ${later.leftMs}`);
  assert.ok(Math.abs(bobs.leftMs - later.leftMs) < 1_000, `Ada ${later.leftMs}, Bob ${bobs.leftMs}`);

  // The last 10 s: red, marked for tests, and the player to act hears it (once).
  await actor.waitForSelector('[data-testid=clock][data-warning=true]', { timeout: 5_000 });
  await waiter.waitForSelector('[data-testid=clock][data-warning=true]', { timeout: 5_000 });
  assert.equal(await actor.locator(`.players [data-seat="${seat}"] [data-testid=seat-clock][data-warning=true]`).count(), 1);
  const colours = await actor.evaluate(() => {
    const time = /** @type {HTMLElement} */ (document.querySelector('[data-testid=clock-time]'));
    return getComputedStyle(time).color;
  });
  assert.equal(colours, 'rgb(155, 28, 16)');
  // The figures blink, unless the reader prefers reduced motion.
  await waiter.emulateMedia({ reducedMotion: 'reduce' });
  const blink = (/** @type {Page} */ page) => page.evaluate(() => getComputedStyle(/** @type {HTMLElement} */ (document.querySelector('[data-testid=clock-time]'))).animationName);
  assert.equal(await blink(actor), 'clock-blink');
  assert.equal(await blink(waiter), 'none');
  assert.match((await actor.textContent('[data-testid=clock] [role=status]')) ?? '', /seconds? left/);
  await actor.waitForFunction(() => /** @type {any} */ (window).notesPlayed === 3);
  assert.equal(await waiter.evaluate(() => /** @type {any} */ (window).notesPlayed), 0, 'only the player to act is warned');
  await screenshot(actor, 'clock-warning');

  // Nobody moves: the clock places a die for the seat, marked in the log, and the turn passes.
  for (const page of [ada.page, bob.page]) {
    await page.waitForSelector('[data-testid=log] li [data-by=clock]', { timeout: 15_000 });
  }
  assert.match((await ada.page.textContent('[data-testid=log] li:has([data-by=clock])')) ?? '', /time ran out/);
  await actor.waitForFunction((s) => document.querySelector('[data-testid=clock]')?.getAttribute('data-seat') === String(1 - s), seat);
  assert.equal(await actor.getAttribute('.match', 'data-interactive'), 'false');
  await waiter.waitForSelector('.match[data-interactive=true]');
  const next = await clockOf(waiter);
  assert.ok(next && next.leftMs > 10_000 && !next.warning, `the next seat's time runs: ${JSON.stringify(next)}`);
  // The seat that ran out spent its bank.
  assert.equal(await waiter.textContent(`.players [data-seat="${seat}"] [data-testid=seat-clock]`), 'bank 0:00');
  await screenshot(waiter, 'clock-timed-out');

  for (const client of [ada, bob]) assert.deepEqual(client.errors, []);
  await Promise.all([ada.context.close(), bob.context.close()]);
});

test('the countdown counts from the server left_ms and the time elapsed since, not the wall clock', async () => {
  const cy = await openClient(setup.browser, setup.server.url);
  await enterName(cy.page, 'Cyd');
  const result = await cy.page.evaluate(async (file) => {
    const app = /** @type {HTMLScriptElement} */ (document.querySelector('script[type=module]'));
    const clock = await import(new URL(file, app.src).href);
    const state = {
      settings: { turn_seconds: 4, bank_seconds: 8 },
      banks_ms: [8000, 8000],
      seat: 1,
      // Deadlines and server times far from this computer's clock change nothing.
      deadline_ms: 1,
      left_ms: 10_000,
      turn_left_ms: 3_000,
      server_time_ms: 0,
    };
    return {
      fresh: clock.clockNow(state, 0),
      inTurn: clock.clockNow(state, 1_500),
      inBank: clock.clockNow(state, 4_000),
      out: clock.clockNow(state, 60_000),
      over: clock.clockNow({ ...state, seat: null, left_ms: null, turn_left_ms: null, deadline_ms: null }, 500),
      formatted: [4_250, 10_000, 59_001, 3_600_000, 0, -5].map(clock.formatCountdown),
      presets: ['fast', 'normal', 'slow'].map((name) => clock.clockSettingText(clock.CLOCK_PRESETS[name])),
      none: clock.clockSettingText(null),
    };
  }, CLOCK_MODULE);
  assert.deepEqual(result.fresh, { seat: 1, leftMs: 10_000, turnLeftMs: 3_000, bankLeftMs: 7_000, banksMs: [8000, 7000], warning: true });
  assert.deepEqual(result.inTurn, { seat: 1, leftMs: 8_500, turnLeftMs: 1_500, bankLeftMs: 7_000, banksMs: [8000, 7000], warning: true });
  assert.deepEqual(result.inBank, { seat: 1, leftMs: 6_000, turnLeftMs: 0, bankLeftMs: 6_000, banksMs: [8000, 6000], warning: true });
  assert.deepEqual(result.out, { seat: 1, leftMs: 0, turnLeftMs: 0, bankLeftMs: 0, banksMs: [8000, 0], warning: true });
  assert.equal(result.over.seat, null);
  assert.deepEqual(result.over.banksMs, [8000, 8000]);
  assert.deepEqual(result.formatted, ['0:05', '0:10', '1:00', '1:00:00', '0:00', '0:00']);
  assert.deepEqual(result.presets, ['45 s + 2 min', '90 s + 5 min', '24 h per turn']);
  assert.equal(result.none, 'No clock');
  assert.deepEqual(cy.errors, []);
  await cy.context.close();
});

test('the create form sends its clock preset: the room and the lobby show it; the presets are the server’s', async () => {
  const [dee, eve] = await namedClients(setup, 'Dee', 'Eve');

  // Each preset the form offers is what the server makes of its name.
  const presets = await dee.page.evaluate(async (file) => {
    const app = /** @type {HTMLScriptElement} */ (document.querySelector('script[type=module]'));
    return (await import(new URL(file, app.src).href)).CLOCK_PRESETS;
  }, CLOCK_MODULE);
  for (const name of ['none', 'fast', 'normal', 'slow']) {
    const room = await createRoomByApi(dee.page, { ruleset: 'hexdice', seats: 2, private: true, clock: name });
    assert.deepEqual(room.settings.clock, name === 'none' ? null : presets[name], `preset ${name}`);
  }

  // Normal unless chosen; a private room follows the server's default (none) until one is picked.
  const page = dee.page;
  await page.waitForSelector('#create-clock option', { state: 'attached' });
  assert.equal(await page.inputValue('#create-clock'), 'normal');
  assert.deepEqual(await page.locator('#create-clock option').allTextContents(), [
    'No clock',
    'Fast: 45 s + 2 min',
    'Normal: 90 s + 5 min',
    'Slow: 24 h per turn',
  ]);
  assert.match((await page.textContent('#create-clock-help')) ?? '', /bank/);
  await page.check('#create-private');
  assert.equal(await page.inputValue('#create-clock'), 'none');
  await page.uncheck('#create-private');
  assert.equal(await page.inputValue('#create-clock'), 'normal');

  await page.selectOption('#create-ruleset', 'hexdice');
  await page.selectOption('#create-clock', 'fast');
  await page.click('#create-submit');
  await page.waitForSelector('.screen.room .waiting');
  const header = page.locator('.room-header [data-testid=room-clock]');
  assert.equal(await header.textContent(), 'Clock: 45 s + 2 min');
  assert.equal(await header.getAttribute('data-clock'), '45+120');
  const roomId = /** @type {string} */ (await page.getAttribute('.screen.room', 'data-room'));

  // The lobby's row says it too, in the reader's language.
  await eve.page.waitForSelector(`.room-row[data-room="${roomId}"] [data-testid=room-clock]`, { timeout: 10_000 });
  assert.equal(await eve.page.textContent(`.room-row[data-room="${roomId}"] [data-testid=room-clock]`), 'Clock: 45 s + 2 min');
  await eve.page.selectOption('#language', 'pl');
  await eve.page.waitForSelector(`.room-row[data-room="${roomId}"] [data-testid=room-clock]`);
  await eve.page.waitForFunction(
    (id) => document.querySelector(`.room-row[data-room="${id}"] [data-testid=room-clock]`)?.textContent === 'Zegar: 45 s + 2 min',
    roomId,
  );
  await screenshot(eve.page, 'clock-lobby');

  for (const client of [dee, eve]) assert.deepEqual(client.errors, []);
  await Promise.all([dee.context.close(), eve.context.close()]);
});
