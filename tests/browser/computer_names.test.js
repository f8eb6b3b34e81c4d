//! Computer opponents are told apart (issue 37, point 2), at 1280×800 and 390×844: each computer
//! seat has a name of its own with its level, the same in the room, the lobby, the log, the end
//! screen and the replay; and a computer is never shown as disconnected (point 5).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openClient, enterName, screenshot, SIZES, repoRoot, serverAndBrowser } from './harness.js';
import { createRoomByApi, openBotMatch } from './play.js';

const setup = serverAndBrowser();

/** The names around the board. @param {import('playwright-core').Page} page */
const playerNames = (page) => page.locator('.players .player .name').allTextContents();

for (const [size, options] of Object.entries(SIZES)) {
  test(`${size}: two computers of one level have names of their own, everywhere`, async () => {
    const { page, context, errors } = await openClient(setup.browser, setup.server.url, options);
    const me = size === 'desktop' ? 'Ada' : 'Ari';
    await enterName(page, me);
    // A public room (so the lobby lists it) with two computers of the same level, quick ones.
    const room = await createRoomByApi(page, {
      ruleset: 'capitals',
      seats: 3,
      options: { map_size: 'small' },
      creator_seat: 0,
      bots: [1, 2].map((seat) => ({ seat, level: 'normal' })),
      bot_delay_ms: 0,
      clock: 'none',
    });
    await page.goto(`${setup.server.url}/#/room/${room.id}`);
    await page.waitForSelector('.match .board');
    const seated = (await playerNames(page)).map((name) => name.replace(' (you)', ''));
    const computers = seated.slice(1);
    assert.equal(new Set(seated).size, 3, `three different names: ${seated}`);
    for (const name of computers) assert.match(name, /^\w+ \(computer, normal\)$/, `a name and its level: ${name}`);

    // The lobby lists the room with the same names.
    await page.goto(`${setup.server.url}/#/`);
    await page.waitForSelector(`.room-row[data-room="${room.id}"] .seat-chip`);
    const chips = await page.locator(`.room-row[data-room="${room.id}"] .seat-chip`).allTextContents();
    assert.deepEqual(chips, seated, 'the lobby names the seats as the room does');
    await screenshot(page, `computer-names-lobby-${size}`);

    // Resigning ends my part; the two computers play on to the end.
    await page.goto(`${setup.server.url}/#/room/${room.id}`);
    await page.click('[data-testid=resign]');
    await page.click('[data-testid=resign-confirm]');
    await page.waitForSelector('.match[data-over=true]', { timeout: 60_000 });
    await page.waitForSelector('[data-testid=standings] li');
    const standings = await page.locator('[data-testid=standings] li').allTextContents();
    assert.equal(standings.length, 3);
    for (const name of computers) assert.ok(standings.includes(name), `the end screen names ${name}: ${standings}`);
    const log = (await page.textContent('[data-testid=log]')) ?? '';
    for (const name of computers) assert.ok(log.includes(name), `the log names ${name}`);
    assert.ok(!log.includes('Computer (normal)'), 'no computer is nameless in the log');
    await screenshot(page, `computer-names-end-${size}`);

    await page.click('[data-testid=end-replay]');
    await page.waitForSelector('.screen.replay .players .player');
    const inReplay = await playerNames(page);
    assert.deepEqual(inReplay.slice(1), computers, 'the replay names the computers as the room did');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

for (const [size, options] of Object.entries(SIZES)) {
  test(`${size}: a computer seat is never marked disconnected`, async () => {
    const { page, context, errors } = await openClient(setup.browser, setup.server.url, options);
    await enterName(page, size === 'desktop' ? 'Cyd' : 'Cal');
    await openBotMatch(page, setup.server.url, { ruleset: 'classic', levels: ['easy', 'hard'], botDelayMs: 5000 });
    // Presence is sent as it changes; give it time to settle.
    await page.waitForTimeout(1500);
    for (const seat of [1, 2]) {
      const row = page.locator(`.players .player[data-seat="${seat}"]`);
      assert.match((await row.textContent()) ?? '', /computer/i);
      assert.equal(await row.locator('.offline').count(), 0, `seat ${seat} is not marked away`);
    }
    await screenshot(page, `computer-online-${size}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the client knows the computer identities by the ids the server gives them (migration 0004)', () => {
  const read = (/** @type {string} */ file) => readFileSync(path.join(repoRoot, file), 'utf8');
  const ids = (/** @type {string} */ text) => [...text.matchAll(/b0700000-0000-4000-8000-00000000000(\d)/g)].map((found) => found[0]);
  const server = [...new Set(ids(read('migrations/sqlite/0004_clocks.sql')))].sort();
  assert.equal(server.length, 3);
  assert.deepEqual([...new Set(ids(read('web-client/lib/seat_names.js')))].sort(), server);
});
