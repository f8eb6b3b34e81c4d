//! capitals offers only orders the server accepts (issue 10, point 2): three players give every
//! kind of order by clicking for several rounds — transports, attacks, deep attacks, each unit
//! selection offered — and the server never refuses one. A refused order keeps what was built.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, serverAndBrowser, namedClients, namedClientsAt, SIZES } from './harness.js';
import { createRoom, joinByInvite, pageToAct, actAndWait, clickRegion, bendNextAction } from './play.js';

/** @typedef {import('playwright-core').Page} Page */

const setup = serverAndBrowser();

/** A small deterministic chooser, so a failure can be replayed. */
let state = 12345;
/** @param {number} n */
const below = (n) => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state % n;
};

/** @param {Page} page @param {string} selector */
async function clickNth(page, selector) {
  const all = page.locator(`.board ${selector}`);
  const count = await all.count();
  if (count === 0) return false;
  await all.nth(below(count)).locator('polygon').first().click({ force: true });
  return true;
}

test('capitals: many orders by clicking, every one accepted; a refusal keeps the built order', async () => {
  const clients = await namedClients(setup, 'Ada', 'Bob', 'Cyd');
  const pages = clients.map((client) => client.page);
  // A refusal is provoked once, by bending one order on its way out (as a stale client might).
  const bent = await bendNextAction(pages, 'attack', (action) => {
    action.units = { d6: 99, d8: 0 };
  });
  const { invite } = await createRoom(pages[0], 'capitals', { seats: 3, options: { map_size: 'small' } });
  await joinByInvite(pages[1], invite);
  await joinByInvite(pages[2], invite);
  await Promise.all(pages.map((page) => page.waitForSelector('.match .board')));

  const tally = { transport: 0, attack: 0, deep: 0, endTurn: 0, refusedKept: false };
  for (let decisions = 0; decisions < 70; decisions++) {
    const page = await pageToAct(pages);
    if (!page) break;
    const sources = await page.locator('.board .region.source').count();
    if (sources === 0 || below(6) === 0) {
      await actAndWait(page, () => page.click('[data-action=end-turn]'));
      tally.endTurn += 1;
      continue;
    }
    await clickNth(page, '.region.source');
    await page.waitForSelector('[data-testid=order-route]');
    // Prefer a deep step now and then, to exercise the longer routes.
    if (below(2) === 0 && (await page.locator('.board .region.target-step').count()) > 0) {
      await clickNth(page, '.region.target-step');
    }
    if (!(await clickNth(page, '.region.target:not(.target-step)'))) {
      await clickNth(page, '.region.target');
    }
    let send = page.locator('[data-action=attack], [data-action=transport]');
    if ((await send.count()) === 0) {
      // A deep route waiting for its next step: take any.
      await clickNth(page, '.region.target');
      send = page.locator('[data-action=attack], [data-action=transport]');
    }
    if ((await send.count()) === 0) {
      await page.click('[data-action=cancel]');
      await actAndWait(page, () => page.click('[data-action=end-turn]'));
      tally.endTurn += 1;
      continue;
    }
    const choices = page.locator('button.choice');
    const offered = await choices.count();
    if (offered > 1) await choices.nth(below(offered)).click();
    const kind = await send.first().getAttribute('data-action');
    const route = (await page.textContent('[data-testid=order-route]')) ?? '';
    if (kind === 'attack' && !tally.refusedKept && tally.attack > 0) {
      bent.armed = true;
      await send.first().click();
      await page.waitForSelector('.toast.error');
      // The order is still built: the same route, ready to send again.
      assert.equal(await page.textContent('[data-testid=order-route]'), route);
      await screenshot(page, 'capitals-refused-kept');
      tally.refusedKept = true;
    }
    await actAndWait(page, () => send.first().click());
    if (kind === 'transport') tally.transport += 1;
    else if (route.split('→').length > 2) tally.deep += 1;
    else tally.attack += 1;
  }
  console.log(`capitals orders: ${JSON.stringify(tally)}`);
  assert.ok(tally.attack + tally.deep >= 5, 'attacks were made');
  assert.ok(tally.refusedKept, 'a refusal was provoked and the order survived it');
  await screenshot(pages[0], 'capitals-after-orders-1280');
  for (const client of clients) {
    const errors = client.errors.filter((error) => !/not_enough_unused_units/.test(error));
    assert.deepEqual(errors, []);
  }
  await Promise.all(clients.map((client) => client.context.close()));
});

test('capitals on a phone: the board zooms with buttons and the wheel, and the page does not scroll sideways', async () => {
  const [ada, bob] = await namedClientsAt(setup, SIZES.phone, 'Amy', 'Ben');
  const { invite } = await createRoom(ada.page, 'capitals', { seats: 2, options: { map_size: 'large' } });
  await joinByInvite(bob.page, invite);
  await ada.page.waitForSelector('.match .board');
  const page = ada.page;
  assert.equal(await page.getAttribute('.board', 'data-zoom'), '1.00');
  await page.click('[data-zoom=in]');
  await page.click('[data-zoom=in]');
  const zoomed = Number(await page.getAttribute('.board', 'data-zoom'));
  assert.ok(zoomed > 2, `zoomed in (${zoomed})`);
  await screenshot(page, 'capitals-zoomed-390');
  await page.click('[data-zoom=reset]');
  assert.equal(await page.getAttribute('.board', 'data-zoom'), '1.00');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling (${width}px)`);
  await screenshot(page, 'capitals-board-390');
  await Promise.all([ada.context.close(), bob.context.close()]);
});
