//! A classic match for three is created, joined and started from the browser; the player to act
//! places reinforcements and attacks by clicking, choosing the dice count, and the dice show.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openClient, enterName, screenshot } from './harness.js';
import { createRoom, joinByInvite, pageToAct, actAndWait, phaseOf, clickRegion } from './play.js';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('classic: three players start a match and the first attacks by clicking', async () => {
  const clients = await Promise.all([0, 1, 2].map(() => openClient(browser, server.url)));
  const names = ['Ada', 'Bob', 'Cyd'];
  for (const [index, client] of clients.entries()) await enterName(client.page, names[index]);
  const { invite } = await createRoom(clients[0].page, 'classic', {
    seats: 3,
    options: { setup: 'deal territories at random' },
  });
  for (const client of clients.slice(1)) await joinByInvite(client.page, invite);
  for (const client of clients) await client.page.waitForSelector('.match .board');

  const page = await pageToAct(clients.map((client) => client.page));
  assert.ok(page);
  assert.equal(await phaseOf(page), 'reinforce');
  // Place every reinforcement with one click on an own territory.
  while ((await phaseOf(page)) === 'reinforce') {
    await actAndWait(page, () => clickRegion(page, '.region.clickable'));
  }
  assert.equal(await phaseOf(page), 'attack');
  // Pick a source that borders an enemy, choose the dice, attack.
  const sources = page.locator('.board .region.clickable');
  const count = await sources.count();
  let attacked = false;
  for (let i = 0; i < count && !attacked; i++) {
    await sources.nth(i).locator('polygon').first().click({ force: true });
    if ((await page.locator('.board .region.target').count()) === 0) continue;
    const most = await page.locator('[data-dice]:not([disabled])').count();
    await page.click(`[data-dice="${most}"]`);
    await actAndWait(page, () => clickRegion(page, '.region.target'));
    attacked = true;
  }
  assert.ok(attacked, 'an attack was made');
  const log = (await page.textContent('[data-testid=log]')) ?? '';
  assert.match(log, /attacks/);
  assert.equal(await page.locator('[data-testid=dice] .roll').count(), 2, 'attacker and defender dice are shown');
  if ((await phaseOf(page)) === 'move_in') {
    await screenshot(page, 'classic-move-in');
    await actAndWait(page, () => page.click('[data-action=move-in]'));
  }
  await screenshot(page, 'classic-board');
  // Every other player saw the same battle.
  for (const client of clients) {
    await client.page.waitForFunction(() => /attacks/.test(document.querySelector('[data-testid=log]')?.textContent ?? ''));
  }
  for (const client of clients) assert.deepEqual(client.errors, []);
  await Promise.all(clients.map((client) => client.context.close()));
});
