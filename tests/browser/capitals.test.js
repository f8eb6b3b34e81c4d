//! A capitals match for two is created, joined and started from the browser; the player to act
//! attacks a neutral area from their capital by clicking, and the battle's dice show.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, serverAndBrowser, namedClients, namedClientsAt, SIZES } from './harness.js';
import { createRoom, joinByInvite, pageToAct, actAndWait, clickRegion } from './play.js';

const setup = serverAndBrowser();

test('capitals: two players start a match and the first attacks from the capital by clicking', async () => {
  const [ada, bob] = await namedClients(setup, 'Ada', 'Bob');
  const { invite } = await createRoom(ada.page, 'capitals', { seats: 2, options: { map_size: 'small' } });
  await joinByInvite(bob.page, invite);
  await ada.page.waitForSelector('.match .board');
  await bob.page.waitForSelector('.match .board');

  const page = await pageToAct([ada.page, bob.page]);
  assert.ok(page);
  // The capital is the only own area: select it, then a bordering area that is not ours.
  await clickRegion(page, '.region.clickable');
  await page.waitForSelector('.board .region.selected');
  const target = page.locator('.board .region.target');
  assert.ok((await target.count()) > 0, 'the capital borders other areas');
  await target.first().locator('polygon').first().click({ force: true });
  await page.waitForSelector('[data-action=attack]');
  await screenshot(page, 'capitals-order');
  await actAndWait(page, () => page.click('[data-action=attack]'));
  const log = (await page.textContent('[data-testid=log]')) ?? '';
  assert.match(log, /attack/);
  assert.ok((await page.locator('[data-testid=dice] .die-icon').count()) >= 2, 'the battle dice are shown');
  // Each die shows its kind (a d8 is drawn unlike a d6), and each side's sum is shown.
  const kinds = await page.$$eval('[data-testid=dice] .die-icon', (dice) => dice.map((die) => die.getAttribute('data-kind')));
  for (const kind of kinds) assert.ok(kind === 'd6' || kind === 'd8', `a die of kind ${kind}`);
  const totals = await page.$$eval('[data-testid=dice-total]', (shown) => shown.map((total) => total.textContent ?? ''));
  assert.equal(totals.length, 2, `both sides' sums: ${totals.join(' / ')}`);
  for (const total of totals) assert.match(total, /\d/);
  await screenshot(page, 'capitals-board');
  await actAndWait(page, () => page.click('[data-action=end-turn]'));
  for (const client of [ada, bob]) assert.deepEqual(client.errors, []);
  await Promise.all([ada.context.close(), bob.context.close()]);
});

test('the lobby and a match fit a phone-sized screen', async () => {
  const [ada, bob] = await namedClientsAt(setup, SIZES.phone, 'Amy', 'Ben');
  await screenshot(ada.page, 'phone-lobby');
  const { invite } = await createRoom(ada.page, 'hexdice', { options: { board: 'Small (10 cells)' } });
  await joinByInvite(bob.page, invite);
  await ada.page.waitForSelector('.match .board');
  const page = await pageToAct([ada.page, bob.page]);
  assert.ok(page);
  // A tap places a die.
  await actAndWait(page, () => page.locator('.board .region.target').first().tap({ force: true }));
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling (${width}px)`);
  await screenshot(page, 'phone-hexdice');
  await Promise.all([ada.context.close(), bob.context.close()]);
});
