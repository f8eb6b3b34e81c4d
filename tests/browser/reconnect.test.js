//! The page never freezes: when the server goes away and comes back (same address, same database),
//! each client reconnects by itself, rejoins its room naming the last seq it saw, and play goes on.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openClient, enterName, screenshot } from './harness.js';
import { createRoom, joinByInvite, pageToAct, actAndWait, clickRegion } from './play.js';

/** @type {Awaited<ReturnType<typeof startServer>> | undefined} */
let server;
/** @type {import('playwright-core').Browser | undefined} */
let browser;

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('clients reconnect after a server restart and resync to the last seq', async () => {
  server = await startServer();
  browser = await launchBrowser();
  const ada = await openClient(browser, server.url);
  const bob = await openClient(browser, server.url);
  await enterName(ada.page, 'Ada');
  await enterName(bob.page, 'Bob');
  const { invite } = await createRoom(ada.page, 'hexdice', { options: { board: 'Small (10 cells)' } });
  await joinByInvite(bob.page, invite);
  await ada.page.waitForSelector('.match .board');
  await bob.page.waitForSelector('.match .board');

  // Two placements, then the server stops.
  for (let i = 0; i < 2; i++) {
    const page = /** @type {import('playwright-core').Page} */ (await pageToAct([ada.page, bob.page]));
    await actAndWait(page, () => clickRegion(page, '.region.target'));
  }
  const seqBefore = await ada.page.getAttribute('.match', 'data-seq');
  const bind = server.url.replace('http://', '');
  await server.stop(true);
  await ada.page.waitForSelector('#connection:not([hidden])');
  assert.match((await ada.page.textContent('#connection')) ?? '', /Reconnecting/);

  // Back on the same address with the same database: the match is rebuilt, the pages catch up.
  server = await startServer({ bind, dir: server.dir });
  for (const page of [ada.page, bob.page]) {
    await page.waitForSelector('#connection[hidden]', { state: 'attached', timeout: 20_000 });
    await page.waitForFunction((seq) => document.querySelector('.match')?.getAttribute('data-seq') === seq, seqBefore);
  }
  const page = /** @type {import('playwright-core').Page} */ (await pageToAct([ada.page, bob.page]));
  await actAndWait(page, () => clickRegion(page, '.region.target'));
  const other = page === ada.page ? bob.page : ada.page;
  await other.waitForFunction((seq) => Number(document.querySelector('.match')?.getAttribute('data-seq')) === Number(seq) + 1, seqBefore);
  await screenshot(page, 'reconnected');
  await Promise.all([ada.context.close(), bob.context.close()]);
});
