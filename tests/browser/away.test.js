//! An away player: Ada plays the computer in a room with a one-second grace period, closes her
//! tab, and comes back to find a bot playing her seat ("a bot plays" by her name, a notice and
//! "I'm back"); pressing "I'm back" gives her the seat again, for everyone to see.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, serverAndBrowser } from './harness.js';

const setup = serverAndBrowser();

/** The names shown around the board. @param {import('playwright-core').Page} page */
const names = (page) => page.locator('.players .player .name').allTextContents();

test("a seat taken over while its player was away is given back with I'm back", async () => {
  const ada = await openClient(setup.browser, setup.server.url);
  await enterName(ada.page, 'Ada');
  // A room the lobby form does not offer: a grace period of one second, and a slow computer so
  // that the match waits for us.
  const room = await ada.page.evaluate(async () => {
    const token = JSON.parse(localStorage.getItem('warroom.guest') ?? '{}').token;
    const response = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        ruleset: 'hexdice',
        creator_seat: 0,
        bots: [{ seat: 1, level: 'easy' }],
        bot_delay_ms: 10000,
        grace_seconds: 1,
        clock: 'none',
      }),
    });
    return (await response.json()).id;
  });
  const roomUrl = `${setup.server.url}/#/room/${room}`;
  await ada.page.goto(roomUrl);
  await ada.page.waitForSelector('.match .board');
  assert.equal(await ada.page.locator('[data-testid=im-back]').count(), 0, 'nobody plays for Ada yet');

  // Ada closes her tab; past the grace period a bot plays her seat.
  await ada.page.close();
  await new Promise((resolve) => setTimeout(resolve, 2500));
  const page = await ada.context.newPage();
  page.on('pageerror', (error) => ada.errors.push(String(error)));
  await page.goto(roomUrl);
  await page.waitForSelector('[data-testid=im-back]');
  assert.match((await page.textContent('[data-testid=away]')) ?? '', /bot is playing your seat/);
  const taken = await names(page);
  assert.ok(
    taken.some((name) => name.startsWith('Ada') && name.includes('a bot plays: left the table')),
    `her seat says a bot plays for her: ${taken}`,
  );
  await screenshot(page, 'away-taken-over');

  await page.click('[data-testid=im-back]');
  await page.waitForSelector('[data-testid=im-back]', { state: 'detached' });
  const back = await names(page);
  assert.ok(
    back.some((name) => name === 'Ada' || (name.startsWith('Ada') && !name.includes('a bot plays'))),
    `her seat is hers again: ${back}`,
  );
  assert.deepEqual(ada.errors, []);
});

test('the create form sets how long a player may be away before a bot plays for them', async () => {
  const bea = await openClient(setup.browser, setup.server.url);
  await enterName(bea.page, 'Bea');
  await bea.page.waitForSelector('#create-ruleset option', { state: 'attached' });
  assert.equal(await bea.page.inputValue('#create-grace'), '60', 'a minute unless chosen');
  await bea.page.selectOption('#create-ruleset', 'hexdice');
  await bea.page.selectOption('#create-grace', '120');
  await bea.page.click('#create-submit');
  await bea.page.waitForURL(/#\/room\//);
  const room = decodeURIComponent(bea.page.url().split('#/room/')[1].split('?')[0]);
  const settings = await bea.page.evaluate(async (id) => (await (await fetch(`/api/rooms/${id}`)).json()).settings, room);
  assert.equal(settings.grace_seconds, 120);
  assert.deepEqual(bea.errors, []);
});
